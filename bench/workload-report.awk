# The Markdown report of bench/run-workload.sh, from its results file
# ("arm=A rep=R release=K key=value..." lines): one row per metric of
# METRICS ("key|what|format" lines), one column per arm.  Loaded after
# bench/cells.awk.  Variables (-v): overrides, title, conf, kconfigs, arms, metrics,
# date, params, qemu.

$1 ~ /^arm=/ {
	kv()
	for (k in v) if (k != "arm" && k != "rep" && k != "release") {
		add(k, v["arm"], "-", v[k])
		byrep[k, v["arm"], v["rep"]] = v[k] + 0
	}
	rel[v["arm"]] = v["release"]
	if (v["rep"] > reps) reps = v["rep"]
}
END {
	na = split(arms, a, " ")
	nm = split(metrics, m, "\n")
	preamble(title ", " date, "bench/run-workload.sh")
	printf "Each arm boots %d time(s), the arm order rotated per repeat; ", reps
	printf "cells are `median [min–max] (±%% vs ORIG)`.\n\n"
	md_header("| metric |", 1, a, na)
	for (j = 1; j <= nm; j++) {
		if (split(m[j], f, "|") != 3) continue
		printf "| %s (`%s`) |", f[2], f[1]
		for (i = 1; i <= na; i++) printf "%s", cell(f[1], a[i], "-", f[3])
		printf "\n"
	}
	paired("fg", "orig", na, nm)
	paired("fg", "clru", na, nm)
	paired("fixed", "orig", na, nm)
	paired("fg", "fixed", na, nm)
	paired("exp", "orig", na, nm)
	paired("exp", "fg", na, nm)
}

# The ratio X/Y of each metric per repeat (both arms ran the same streams in
# a repeat, bench/cells.awk: paired_ratios): median [min-max] and in how
# many repeats X was lower.
function paired(x, y, na, nm,   i, j, n, have) {
	have = 0
	for (i = 1; i <= na; i++) have += (a[i] == x) + (a[i] == y)
	if (have != 2) return
	printf "\n%s / %s per repeat (paired: same streams), `median [min–max]`, " \
		"repeats where %s is lower:\n\n", toupper(x), toupper(y), toupper(x)
	printf "| metric | ratio | %s lower |\n|---|---|---|\n", toupper(x)
	for (j = 1; j <= nm; j++) {
		if (split(m[j], f, "|") != 3) continue
		n = paired_ratios(byrep, f[1] SUBSEP x, f[1] SUBSEP y, "ratio " f[1] " " x " " y)
		if (!n) continue
		printf "| `%s` | %.3f [%.3f–%.3f] | %d of %d |\n", f[1], med, lo, hi, plower, n
	}
}
