# The Markdown report of bench/run-zipf.sh, from its results file:
#   arm=A rep=R release=K theta=T reads=N disk_pages=P refaults=F iops=I file=BYTES
#   bound theta=T capacity=C refs=N ... static_miss_ratio=S min_miss_ratio=M minw_miss_ratio=W
# Variables (-v): conf, kconfigs, arms, thetas, date, params, job, qemu, plot.
# Cells are medians over the repeats: "median [min-max] (+x% vs ORIG)".

function kv(   i, p) {
	delete v
	for (i = 1; i <= NF; i++) { p = index($i, "="); if (p) v[substr($i, 1, p - 1)] = substr($i, p + 1) }
}
function add(metric, arm, theta, x,   k) {
	k = metric SUBSEP arm SUBSEP theta
	val[k, ++cnt[k]] = x + 0  # a number: mawk compares field strings as strings
}
# Median, min and max of the values of k into med, lo, hi; 0 if none.
function stats(k,   n, i, j, t, a) {
	n = cnt[k]
	if (!n) return 0
	for (i = 1; i <= n; i++) a[i] = val[k, i]
	for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
	med = n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	lo = a[1]; hi = a[n]
	return n
}
function cell(metric, arm, theta, fmt,   n, s, m) {
	n = stats(metric SUBSEP arm SUBSEP theta)
	if (!n) return " – |"
	s = sprintf(" " fmt, med)
	if (n > 1) s = s sprintf(" [" fmt "–" fmt "]", lo, hi)
	m = med
	if (arm != "orig" && stats(metric SUBSEP "orig" SUBSEP theta) && med > 0)
		s = s sprintf(" (%+.1f%%)", (m / med - 1) * 100)
	return s " |"
}
function ratio(x, b) { return b > 0 ? sprintf("%.2f×", x / b) : (x > 0 ? "∞" : "–") }
function header(title, extra,   i) {
	printf "\n%s\n\n| θ |", title
	for (i = 1; i <= na; i++) printf " %s |", toupper(a[i])
	printf "%s\n|---|", extra
	for (i = 1; i <= na; i++) printf "---|"
	gsub(/[^|]+/, "---", extra)
	printf "%s\n", extra
}
function table(title, metric, fmt,   i, j) {
	header(title, "")
	for (j = 1; j <= nt; j++) {
		printf "| %s |", t[j]
		for (i = 1; i <= na; i++) printf "%s", cell(metric, a[i], t[j], fmt)
		printf "\n"
	}
}

$1 == "bound" {
	kv()
	bnd[v["theta"], "c"] = v["capacity"]; bnd[v["theta"], "refs"] = v["refs"]
	bnd[v["theta"], "static"] = v["static_miss_ratio"]
	bnd[v["theta"], "min"] = v["min_miss_ratio"]
	bnd[v["theta"], "minw"] = v["minw_miss_ratio"]
	next
}
$1 ~ /^arm=/ {
	kv()
	add("miss", v["arm"], v["theta"], v["disk_pages"] / v["reads"])
	add("refault", v["arm"], v["theta"], v["refaults"] / v["reads"])
	add("iops", v["arm"], v["theta"], v["iops"])
	reads[v["arm"], v["theta"], v["rep"]] = v["reads"]
	rel[v["arm"]] = v["release"]
	if (v["rep"] > reps) reps = v["rep"]
}
END {
	na = split(arms, a, " "); nt = split(thetas, t, " ")
	printf "# fio Zipf random reads, %s\n\n", date
	printf "Command: `BENCH_CONF=%s bench/run-zipf.sh`; parameters:\n\n", conf
	n = split(params, p, "\n")
	for (i = 1; i <= n; i++) printf "    %s\n", p[i]
	printf "\nKernels:"
	for (i = 1; i <= na; i++) printf " %s %s%s", a[i], rel[a[i]], i < na ? ";" : ""
	printf " (config fragments: %s).\n", kconfigs
	printf "QEMU (TCG): `%s`\n\n", qemu
	printf "fio job (warm-up: SEED=WARMUP_SEED, LOOPS=WARMUP_LOOPS; window: WINDOW_*):\n`%s`\n\n", job
	printf "Method: per θ, drop caches, an untimed warm-up, then the timed window: the same job "
	printf "with `--randrepeat=0`, a fixed Zipf center and another seed, so the window draws a "
	printf "fresh stretch of the stream over the same hot set (bench/README.md). Each arm boots "
	printf "%d time(s), the arm order rotated per repeat; cells are `median [min–max] (±%% vs ORIG)`. ", reps
	printf "Every arm and repeat reads the same stream, which was recorded on the host "
	printf "(`--ioengine=null --write_iolog`) and fed to bench/bound (`bound -c C -W warm window`); "
	printf "C is the largest page cache (memory.stat `file` ÷ 4096) an arm held at the end of a window.\n"

	bad = 0
	for (k in reads) { split(k, q, SUBSEP); if (reads[k] != bnd[q[2], "refs"]) bad++ }
	if (bad) printf "\n**Warning: %d window(s) read a different number of pages than the recorded stream has; the bounds do not describe them.**\n", bad

	header("Disk pages read per read (the miss ratio; headline; lower is better) and the bounds", " static | min | minw | C (pages) |")
	for (j = 1; j <= nt; j++) {
		printf "| %s |", t[j]
		for (i = 1; i <= na; i++) printf "%s", cell("miss", a[i], t[j], "%.4f")
		if ((t[j], "c") in bnd)
			printf " %.4f | %.4f | %.4f | %d |\n", bnd[t[j], "static"], bnd[t[j], "min"], bnd[t[j], "minw"], bnd[t[j], "c"]
		else
			printf " – | – | – | – |\n"
	}

	printf "\nMiss ratio as a multiple of the bound (median ÷ bound; minw is the floor of any demand-paging cache of C pages, static the best online policy for independent references)\n\n"
	printf "| θ | arm | miss ratio | × static | × min | × minw |\n|---|---|---|---|---|---|\n"
	for (j = 1; j <= nt; j++) for (i = 1; i <= na; i++) {
		if (!stats("miss" SUBSEP a[i] SUBSEP t[j]) || !((t[j], "c") in bnd)) continue
		printf "| %s | %s | %.4f | %s | %s | %s |\n", t[j], toupper(a[i]), med,
			ratio(med, bnd[t[j], "static"]), ratio(med, bnd[t[j], "min"]), ratio(med, bnd[t[j], "minw"])
	}

	table("Refaults per read (workingset_refault_file)", "refault", "%.4f")
	table("IOPS (TCG guest; compare ratios only)", "iops", "%.0f")
	if (plot != "") printf "\nPlot: `%s`\n", plot
}
