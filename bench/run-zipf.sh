#!/bin/bash
# fio Zipf random reads in a memcg, one boot per arm, all arms in one run:
# prints a Markdown report (disk pages read per read, the headline;
# refaults per read; IOPS) with each arm's ratio to ORIG.
# usage: run-zipf.sh [--report-only] [REPORT.md]
# Parameters: BENCH_CONF [bench/zipf.conf], e.g. bench/cached.conf.
# --report-only rewrites the report from the last run's results.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"
BENCH_CONF=$(realpath "${BENCH_CONF:-$HARNESS_ROOT/bench/zipf.conf}")
. "$BENCH_CONF"
name=$(basename "$BENCH_CONF" .conf)

report_only=0
if [ "${1:-}" = --report-only ]; then
	report_only=1
	shift
fi
report=${1:-/dev/stdout}
results=$BUILD_DIR/logs/bench-$name.results
mkdir -p "$BUILD_DIR/logs"
[ $report_only = 1 ] || : >"$results"

for arm in $ARMS; do
	[ $report_only = 0 ] || break
	case $arm in
	clru) series=0 lru_gen=0 ;;
	orig) series=0 lru_gen=7 ;;
	fg) series=1 lru_gen=7 ;;
	*) die "unknown arm $arm (bench/zipf.conf)" ;;
	esac
	kernel=$(SERIES=$series "$HARNESS_ROOT/scripts/build-kernel.sh" base)
	log="$BUILD_DIR/logs/bench-$name-$arm.log"
	CONSOLE_LOG=$log MEM=$GUEST_MEM CPUS=$GUEST_CPUS QUIET=1 \
		"$HARNESS_ROOT/scripts/boot.sh" "$kernel" "$HARNESS_ROOT/bench/guest/zipf.sh" \
		"$BENCH_CONF" "$lru_gen" $THETAS || die "arm $arm failed in the guest; console: $log"
	"$HARNESS_ROOT/scripts/check-console.sh" "$log"
	release=$(tr -d '\r' <"$log" | sed -n 's/^kernel \([^ ]*\) lru_gen.*/\1/p')
	tr -d '\r' <"$log" | sed -n "s/^RESULT /arm=$arm release=$release /p" >>"$results"
done

# Table: one row per theta, one column per arm, "value (+x% vs ORIG)".
table() { # table TITLE FORMAT EXPR(awk, over the fields of a result)
	awk -v title="$1" -v fmt="$2" -v arms="$ARMS" -v thetas="$THETAS" '
		function val(k,   i, kv) { for (i = 1; i <= NF; i++) { split($i, kv, "="); if (kv[1] == k) return kv[2] } }
		{ v[val("arm"), val("theta")] = '"$3"' }
		END {
			n = split(arms, a, " "); m = split(thetas, t, " ")
			printf "\n%s\n\n| theta |", title
			for (i = 1; i <= n; i++) printf " %s |", toupper(a[i])
			printf "\n|---|"
			for (i = 1; i <= n; i++) printf "---|"
			printf "\n"
			for (j = 1; j <= m; j++) {
				printf "| %s |", t[j]
				base = v["orig", t[j]]
				for (i = 1; i <= n; i++) {
					x = v[a[i], t[j]]
					if (a[i] != "orig" && base > 0)
						printf " " fmt " (%+.1f%%) |", x, (x / base - 1) * 100
					else
						printf " " fmt " |", x
				}
				printf "\n"
			}
		}' "$results"
}

{
	echo "# fio Zipf random reads, $(date -u +%Y-%m-%d)"
	echo
	echo "Command: \`BENCH_CONF=${BENCH_CONF#"$HARNESS_ROOT"/} bench/run-zipf.sh\`; parameters:"
	echo
	grep -v "^#" "$BENCH_CONF" | sed 's/ *#.*//; /^$/d; s/^/    /'
	echo
	echo "Kernels: $(awk '{ print $1, $2 }' "$results" | sort -u | sed 's/arm=//; s/release=//' | tr '\n' ';' | sed 's/;$//; s/;/; /g')."
	echo "QEMU (TCG): \`$(sed "s|$HARNESS_ROOT|.|g; s|$BUILD_DIR|build|g" "$BUILD_DIR/logs/bench-$name-fg.log.cmd" 2>/dev/null || true)\`"
	table "Disk pages read per read (headline; lower is better)" %.4f 'val("disk_pages") / val("reads")'
	table "Refaults per read (workingset_refault_file)" %.4f 'val("refaults") / val("reads")'
	table "IOPS (TCG guest; compare ratios only)" %.0f 'val("iops")'
} >"$report"
