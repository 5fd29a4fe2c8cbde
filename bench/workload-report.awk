# The Markdown report of bench/run-workload.sh, from its results file
# ("arm=A rep=R release=K key=value..." lines): one row per metric of
# METRICS ("key|what|format" lines), one column per arm.  Loaded after
# bench/cells.awk.  Variables (-v): title, conf, kconfigs, arms, metrics,
# date, params, qemu.

$1 ~ /^arm=/ {
	kv()
	for (k in v) if (k != "arm" && k != "rep" && k != "release") add(k, v["arm"], "-", v[k])
	rel[v["arm"]] = v["release"]
	if (v["rep"] > reps) reps = v["rep"]
}
END {
	na = split(arms, a, " ")
	nm = split(metrics, m, "\n")
	preamble(title ", " date, "bench/run-workload.sh")
	printf "Each arm boots %d time(s), the arm order rotated per repeat; ", reps
	printf "cells are `median [min–max] (±%% vs ORIG)`.\n\n"
	printf "| metric |"
	for (i = 1; i <= na; i++) printf " %s |", toupper(a[i])
	printf "\n|---|"
	for (i = 1; i <= na; i++) printf "---|"
	printf "\n"
	for (j = 1; j <= nm; j++) {
		if (split(m[j], f, "|") != 3) continue
		printf "| %s (`%s`) |", f[2], f[1]
		for (i = 1; i <= na; i++) printf "%s", cell(f[1], a[i], "-", f[3])
		printf "\n"
	}
}
