# The regression gate of bench-quick (bench/check-quick.sh): per θ and
# memcg size, FG's disk pages per read over ORIG's, pooled over the
# repeats of a run-zipf.sh results file.  Prints one line per point,
#   gate theta=T memcg=M fg/orig=R limit=L PASS|FAIL
# and exits 1 if a point is over the limit or has no FG or no ORIG number.
# usage: awk -v limit=L -f bench/cells.awk -f bench/gate.awk RESULTS
# (cells.awk's kv() splits a results line into v)

$1 ~ /^arm=(orig|fg)$/ {
	kv()
	point = "theta=" v["theta"] " memcg=" v["memcg"]
	arm = v["arm"]
	if (!(point in seen)) { seen[point] = 1; order[++n] = point }
	pages[point, arm] += v["disk_pages"]
	reads[point, arm] += v["reads"]
}

END {
	if (limit == "") { print "gate.awk: no limit given (-v limit=...)" > "/dev/stderr"; exit 2 }
	bad = !n
	for (i = 1; i <= n; i++) {
		p = order[i]
		if (!reads[p, "orig"] || !reads[p, "fg"] || !pages[p, "orig"]) {
			printf "gate %s fg/orig=none limit=%s FAIL\n", p, limit
			bad = 1
			continue
		}
		r = (pages[p, "fg"] / reads[p, "fg"]) / (pages[p, "orig"] / reads[p, "orig"])
		printf "gate %s fg/orig=%.3f limit=%s %s\n", p, r, limit, r <= limit + 0 ? "PASS" : "FAIL"
		if (r > limit + 0)
			bad = 1
	}
	exit bad
}
