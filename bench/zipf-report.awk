# The Markdown report of bench/run-zipf.sh, from its results file:
#   arm=A rep=R release=K theta=T memcg=MIB reads=N disk_pages=P refaults=F iops=I file=BYTES
#   bound theta=T memcg=MIB rep=R capacity=C refs=N ... static_miss_ratio=S min_miss_ratio=M minw_miss_ratio=W
# (one bound per repeat's streams; results before 2026-12-04 have one
# bound per point, without rep=, for the one stream of every repeat).
# A point is a theta and a memcg size (rows, in the order of thetas, then
# memcgs); results without memcg= (older runs) have the single memcg size.
# Variables (-v): overrides, conf, kconfigs, arms, thetas, memcgs, data_mb,
# bounds_apply, date, params, job, qemu, plot.
# Cells are medians over the repeats (bench/cells.awk, loaded first).

# The point of the current line (after kv()).
function point() {
	if (!("memcg" in v)) v["memcg"] = memcgs
	pt = v["theta"] " " v["memcg"]
}
function label(j) { return sprintf("| %s | %s (%.1f : 1) |", pt_theta[j], pt_memcg[j], data_mb / pt_memcg[j]) }
function ratio(x, b) { return b > 0 ? sprintf("%.2f×", x / b) : (x > 0 ? "∞" : "–") }
function header(title, extra,   i) {
	printf "\n%s\n\n| θ | memcg MiB (data : memcg) |", title
	for (i = 1; i <= na; i++) printf " %s |", toupper(a[i])
	printf "%s\n|---|---|", extra
	for (i = 1; i <= na; i++) printf "---|"
	gsub(/[^|]+/, "---", extra)
	printf "%s\n", extra
}
function table(title, metric, fmt,   i, j) {
	header(title, "")
	for (j = 1; j <= np; j++) {
		printf "%s", label(j)
		for (i = 1; i <= na; i++) printf "%s", cell(metric, a[i], pts[j], fmt)
		printf "\n"
	}
}

# A point's bounds are the medians over the repeats' streams.
function bound_med(pt, key) { stats("bound_" key SUBSEP "bound" SUBSEP pt); return med }
$1 == "bound" {
	kv(); point()
	cap[pt] = v["capacity"]
	brefs[pt, ("rep" in v) ? v["rep"] : "all"] = v["refs"]
	add("bound_static", "bound", pt, v["static_miss_ratio"])
	add("bound_min", "bound", pt, v["min_miss_ratio"])
	add("bound_minw", "bound", pt, v["minw_miss_ratio"])
	next
}
$1 ~ /^arm=/ {
	kv(); point()
	add("miss", v["arm"], pt, v["disk_pages"] / v["reads"])
	add("refault", v["arm"], pt, v["refaults"] / v["reads"])
	add("iops", v["arm"], pt, v["iops"])
	add("file_mb", v["arm"], pt, v["file"] / 1048576)
	# The window's samples and swap-ins (guests since 2026-12-01).
	if ("cache" in v) {
		sampled = 1
		add("cache_mb", v["arm"], pt, v["cache"] / 1048576)
		add("anon_mb", v["arm"], pt, v["anon"] / 1048576)
		add("swapin", v["arm"], pt, v["swapin"] / v["reads"])
	}
	reads[v["arm"], pt, v["rep"]] = v["reads"]
	missrep[v["arm"], pt, v["rep"]] = v["disk_pages"] / v["reads"]
	rel[v["arm"]] = v["release"]
	if (v["rep"] > reps) reps = v["rep"]
}
# X / Y of the miss ratio per repeat at point p (bench/cells.awk:
# paired_ratios): "median [min–max], K of N" with K the repeats where X
# read less.
function paired_cell(x, y, p,   n) {
	n = paired_ratios(missrep, x SUBSEP p, y SUBSEP p, "pair " x " " y " " p)
	if (!n) return " – |"
	return sprintf(" %.3f [%.3f–%.3f], %d of %d |", med, lo, hi, plower, n)
}
# The paired table, for the pairs whose arms both ran.
function paired_table(   cand, nc, c, np2, pr, i, j, xy) {
	nc = split("fg/orig fg/clru fixed/orig fg/fixed exp/orig exp/fg", cand, " ")
	np2 = 0
	for (c = 1; c <= nc; c++) {
		split(cand[c], xy, "/")
		if (has_arm[xy[1]] && has_arm[xy[2]]) pr[++np2] = cand[c]
	}
	if (!np2) return
	printf "\nPaired per repeat (the same streams): X / Y of disk pages per read, `median [min–max], K of N` "
	printf "with K the repeats where X read less\n\n"
	md_header("| θ | memcg MiB (data : memcg) |", 2, pr, np2)
	for (j = 1; j <= np; j++) {
		printf "%s", label(j)
		for (i = 1; i <= np2; i++) {
			split(pr[i], xy, "/")
			printf "%s", paired_cell(xy[1], xy[2], pts[j])
		}
		printf "\n"
	}
}
END {
	na = split(arms, a, " "); nt = split(thetas, t, " "); nm = split(memcgs, m, " ")
	for (i = 1; i <= na; i++) has_arm[a[i]] = 1
	np = 0
	for (j = 1; j <= nt; j++) for (i = 1; i <= nm; i++) {
		pts[++np] = t[j] " " m[i]; pt_theta[np] = t[j]; pt_memcg[np] = m[i]
	}
	preamble("fio Zipf random reads, " date, "bench/run-zipf.sh")
	printf "fio job (warm-up: SEED=WARMUP_SEED, LOOPS=WARMUP_LOOPS; window: WINDOW_*):\n`%s`\n\n", job
	printf "Method: per θ and memcg size, drop caches, an untimed warm-up, then the timed window: the same job "
	printf "with `--randrepeat=0`, a fixed Zipf center and another seed, so the window draws a "
	printf "fresh stretch of the stream over the same hot set (bench/README.md). Each arm boots "
	printf "%d time(s), the arm order rotated per repeat; cells are `median [min–max] (±%% vs ORIG)`. ", reps
	printf "Each repeat draws its own streams (seeds WARMUP_SEED and WINDOW_SEED + 2 (repeat − 1)), the same "
	printf "for every arm of the repeat; each repeat's streams were recorded on the host "
	printf "(`--ioengine=null --write_iolog`) and fed to bench/bound (`bound -c C -W warm window`), "
	printf "and a point's bounds are the medians over the repeats; "
	if (sampled)
		printf "C is the largest page cache (memory.stat `file` ÷ 4096, sampled every 0.2 s) an arm held on average over a window.\n"
	else
		printf "C is the largest page cache (memory.stat `file` ÷ 4096) an arm held at the end of a window.\n"

	bad = 0
	for (k in reads) {
		split(k, q, SUBSEP)
		br = (q[2], q[3]) in brefs ? q[3] : "all"
		if ((q[2], br) in brefs && reads[k] != brefs[q[2], br]) bad++
	}
	if (bad) printf "\n**Warning: %d window(s) read a different number of pages than the recorded stream has; the bounds do not describe them.**\n", bad

	if (!bounds_apply) {
		printf "\n**mmap with fault read-around (`--fadvise_hint=0`): a fault reads several pages, so "
		printf "disk pages per read are no demand-miss ratio and the bounds (one page per miss) do not apply "
		printf "to them; compare the arms with each other only.**\n"
	}
	header("Disk pages read per read (the miss ratio; headline; lower is better) and the bounds", " static | min | minw | C (pages) |")
	for (j = 1; j <= np; j++) {
		printf "%s", label(j)
		for (i = 1; i <= na; i++) printf "%s", cell("miss", a[i], pts[j], "%.4f")
		if (pts[j] in cap)
			printf " %.4f | %.4f | %.4f | %d |\n", bound_med(pts[j], "static"), bound_med(pts[j], "min"),
				bound_med(pts[j], "minw"), cap[pts[j]]
		else
			printf " – | – | – | – |\n"
	}

	paired_table()

	printf "\nMiss ratio as a multiple of the bound (median ÷ bound; minw is the floor of any demand-paging cache of C pages, static the best online policy for independent references)\n\n"
	printf "| θ | memcg MiB | arm | miss ratio | × static | × min | × minw |\n|---|---|---|---|---|---|---|\n"
	for (j = 1; j <= np; j++) for (i = 1; i <= na; i++) {
		if (!bounds_apply || !stats("miss" SUBSEP a[i] SUBSEP pts[j]) || !(pts[j] in cap)) continue
		mr = med
		printf "| %s | %s | %s | %.4f | %s | %s | %s |\n", pt_theta[j], pt_memcg[j], toupper(a[i]), mr,
			ratio(mr, bound_med(pts[j], "static")), ratio(mr, bound_med(pts[j], "min")), ratio(mr, bound_med(pts[j], "minw"))
	}

	table("Refaults per read (workingset_refault_file)", "refault", "%.4f")
	table("IOPS (TCG guest; compare ratios only)", "iops", "%.0f")
	if (sampled)
		table("Page cache over the window, MiB: the mean of memory.stat `file` sampled every 0.2 s (the rest of the memcg is fio's own memory and kernel objects)", "cache_mb", "%.1f")
	table("Page cache at the end of the window, MiB (memory.stat `file`, after fio has exited)", "file_mb", "%.1f")
	if (sampled) {
		table("fio's anonymous memory over the window, MiB: the mean of memory.stat `anon`, sampled with the page cache", "anon_mb", "%.2f")
		table("Swap-ins per read (memory.stat `pswpin` over the window: fio's own memory, read from the swap disk, not counted above)", "swapin", "%.4f")
	}
	if (plot != "") printf "\nPlot: `%s`\n", plot
}
