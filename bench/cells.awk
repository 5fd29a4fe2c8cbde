# Helpers of the benchmark reports (zipf-report.awk, workload-report.awk),
# loaded first with "awk -f bench/cells.awk -f REPORT.awk".
# Values are kept per (metric, arm, point); a cell is
# "median [min-max] (+x% vs ORIG)", the range only with repeats.

# run_arms (bench/lib.sh) records the series commit first.
$1 ~ /^series=/ { series = substr($1, 8); next }
# ... and the EXP arm's tree (BENCH_EXP_TREE) when it ran.
$1 ~ /^exp=/ { exptree = substr($1, 5); next }

# The key=value fields of the current line into v.
function kv(   i, p) {
	delete v
	for (i = 1; i <= NF; i++) { p = index($i, "="); if (p) v[substr($i, 1, p - 1)] = substr($i, p + 1) }
}
function add(metric, arm, point, x,   k) {
	k = metric SUBSEP arm SUBSEP point
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
function cell(metric, arm, point, fmt,   n, s, m) {
	n = stats(metric SUBSEP arm SUBSEP point)
	if (!n) return " – |"
	s = sprintf(" " fmt, med)
	if (n > 1) s = s sprintf(" [" fmt "–" fmt "]", lo, hi)
	m = med
	if (arm != "orig" && stats(metric SUBSEP "orig" SUBSEP point) && med > 0)
		s = s sprintf(" (%+.1f%%)", (m / med - 1) * 100)
	return s " |"
}

# The ratios X/Y per repeat of BY[KX, r] and BY[KY, r] (both arms ran
# repeat r's streams) as values of key K: sets med, lo and hi (stats())
# and plower, the repeats where X is lower, and returns the number of
# pairs.  5 of 5 on one side is the sign test's p = 1/32, one-sided.
function paired_ratios(by, kx, ky, k,   r, n) {
	n = plower = 0
	for (r = 1; r <= reps; r++) {
		if (!((kx SUBSEP r) in by) || !((ky SUBSEP r) in by) || by[ky SUBSEP r] <= 0)
			continue
		add(k, "-", "-", by[kx SUBSEP r] / by[ky SUBSEP r])
		plower += by[kx SUBSEP r] < by[ky SUBSEP r]
		n++
	}
	return n ? stats(k SUBSEP "-" SUBSEP "-") : 0
}

# A Markdown table's header: the leading cells FIRST ("| a | b |", NFIRST
# of them), then one column per COLS[1..N], upper-cased (arm names).
function md_header(first, nfirst, cols, n,   i) {
	printf "%s", first
	for (i = 1; i <= n; i++) printf " %s |", toupper(cols[i])
	printf "\n|"
	for (i = 1; i <= nfirst + n; i++) printf "---|"
	printf "\n"
}

# The report's heading: title, command, parameters, kernels and QEMU line.
# Uses the -v variables overrides, conf, params, kconfigs, qemu and the arms a[1..na]
# and their releases rel[] collected from the results.
function preamble(title, runner,   i, n, p) {
	printf "# %s\n\n", title
	printf "Command: `%sBENCH_CONF=%s %s`; parameters:\n\n", overrides, conf, runner
	n = split(params, p, "\n")
	for (i = 1; i <= n; i++) printf "    %s\n", p[i]
	printf "\nKernels:"
	for (i = 1; i <= na; i++) printf " %s %s%s", a[i], rel[a[i]], i < na ? ";" : ""
	printf " (config fragments: %s).\n", kconfigs
	if (series != "") printf "Series: patches/ at commit %s of this repository, on the base of scripts/base.env.\n", series
	if (exptree != "") printf "EXP: the kernel tree %s (BENCH_EXP_TREE).\n", exptree
	printf "QEMU (TCG): `%s`\n\n", qemu
}
