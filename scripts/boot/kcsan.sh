#!/bin/bash
# KCSAN on ORIG and FG under the same load: each arm's kernel is built with
# "base smp kcsan" (configs/kcsan.config) and boots scripts/guest/kcsan.sh
# (the smoke, memcg churn and soak loads, SECONDS each).  KCSAN's reports
# are then compared by their pair of racing functions: a pair that FG
# reports and ORIG does not is new, and it is in the series' code if one
# of the top frames of either access is a function the series changes (a
# function around a changed line of a .c or .h file the series touches, or
# one it adds).  Report: build/logs/kcsan.md (docs/kcsan.md explains it).
#
# Fails if a guest load fails, if a console shows any other kernel problem
# (scripts/check/console.sh on the log without KCSAN's reports), or if FG
# has a new report in the series' code that KCSAN_ANSWERED does not list
# (docs/kcsan.md: each one with what was done or why the race is benign).
#
# usage: kcsan.sh [SECONDS]                (default KCSAN_SECONDS, 60)
#        kcsan.sh --compare ORIG.log FG.log REPORT.md [FUNCTIONS]
#          (no boot: compare two consoles; FUNCTIONS, a file with one
#          function name per line, stands in for the series' functions)
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

KCSAN_CONFIGS="base smp kcsan"
# Pairs of racing functions, as "f1 / f2" in KCSAN's title (sorted), that
# docs/kcsan.md answers; one per line.
KCSAN_ANSWERED=$HARNESS_ROOT/scripts/boot/kcsan-answered.txt
# How many frames of each access's stack are looked at: the racing access
# is in the top one, and an inlined helper of the series (mm_inline.h)
# shows as its caller there.
TOP_FRAMES=3

# reports LOG: one line per KCSAN report, "f1 / f2|frame frame ...": the
# two functions of its title in sorted order, then the top TOP_FRAMES
# function names of each stack.
reports() {
	tr -d '\r' <"$1" | sed -e 's/^\[ *[0-9]*\.[0-9]*\] //' | awk -v top="$TOP_FRAMES" '
		function flush() {
			if (title != "")
				print title "|" frames
			title = ""; frames = ""
		}
		/^BUG: KCSAN: / {
			flush()
			sub(/^BUG: KCSAN: [a-z -]* in /, "")
			n = split($0, f, / \/ /)
			if (n == 2 && f[2] < f[1]) { t = f[1]; f[1] = f[2]; f[2] = t }
			title = (n == 2) ? f[1] " / " f[2] : $0
			inreport = 1; stack = 0
			next
		}
		!inreport { next }
		/^=+$/ { inreport = 0; flush(); next }
		/ by (task|interrupt)/ || /^race at unknown origin/ { stack = 1; depth = 0; next }
		/^$/ { stack = 0; next }
		stack && depth < top && /^ *[A-Za-z_][A-Za-z0-9_.]*\+0x/ {
			name = $1; sub(/\+0x.*/, "", name); sub(/\..*/, "", name)
			frames = frames (frames == "" ? "" : " ") name
			depth++
		}
		END { flush() }'
}

# series_functions: the functions the series changes or adds, one per line
# (git's hunk context names the function around a change; a definition
# the series adds starts a line of its own).
series_functions() {
	git -C "$TREE" diff -U0 "$BASE_TAG" "$SERIES_BRANCH" -- '*.c' '*.h' |
		sed -n -e 's/^@@ [^@]* @@ .*[^A-Za-z0-9_]\([A-Za-z_][A-Za-z0-9_]*\)(.*/\1/p' \
			-e 's/^+[A-Za-z].*[^A-Za-z0-9_]\([A-Za-z_][A-Za-z0-9_]*\)(.*/\1/p' |
		grep -v -x -E 'if|for|while|switch|return|sizeof|defined' | sort -u
}

# compare ORIG-LOG FG-LOG REPORT [FUNCTIONS]: write the report; fail on an
# unanswered new report in the series' code.
compare() {
	local orig=$1 fg=$2 report=$3 funcs orig_reports fg_reports new answered status=0

	if [ -n "${4:-}" ]; then
		funcs=$(cat "$4")
	else
		funcs=$(series_functions)
	fi
	[ -n "$funcs" ] || die "no functions changed by the series in $TREE"
	orig_reports=$(reports "$orig")
	fg_reports=$(reports "$fg")
	answered=$(sed -e 's/#.*//' -e '/^ *$/d' "$KCSAN_ANSWERED" 2>/dev/null || true)
	{
		echo "# KCSAN, ORIG against FG"
		echo
		echo "Consoles: \`${orig#"$HARNESS_ROOT"/}\`, \`${fg#"$HARNESS_ROOT"/}\`; kernels: $KCSAN_CONFIGS."
		echo
		echo "| arm | reports | pairs of functions |"
		echo "|---|---|---|"
		for arm in orig fg; do
			local r
			[ $arm = orig ] && r=$orig_reports || r=$fg_reports
			printf '| %s | %s | %s |\n' "${arm^^}" "$(printf '%s' "$r" | grep -c . || true)" \
				"$(printf '%s' "$r" | cut -d'|' -f1 | sed '/^$/d' | sort -u | wc -l)"
		done
		echo
		echo "Pairs FG reports and ORIG does not (count; in the series' code: a top"
		echo "frame the series changes; answered: listed in $(basename "$KCSAN_ANSWERED")):"
		echo
		echo "| pair | FG reports | series' code | top frames | answered |"
		echo "|---|---|---|---|---|"
	} >"$report"
	new=$(comm -23 <(printf '%s\n' "$fg_reports" | cut -d'|' -f1 | sed '/^$/d' | sort -u) \
		<(printf '%s\n' "$orig_reports" | cut -d'|' -f1 | sed '/^$/d' | sort -u))
	while IFS= read -r pair; do
		[ -n "$pair" ] || continue
		local count frames hit=no ok=no f
		count=$(printf '%s\n' "$fg_reports" | cut -d'|' -f1 | grep -c -x -F -- "$pair")
		frames=$(printf '%s\n' "$fg_reports" | awk -F'|' -v p="$pair" '$1 == p { print $2 }' |
			tr ' ' '\n' | sed '/^$/d' | sort -u | tr '\n' ' ')
		for f in $frames; do
			if grep -q -x -F -- "$f" <<<"$funcs"; then hit=yes; fi
		done
		if grep -q -x -F -- "$pair" <<<"$answered"; then ok=yes; fi
		printf '| %s | %s | %s | %s | %s |\n' "$pair" "$count" "$hit" "${frames% }" "$ok" >>"$report"
		if [ $hit = yes ] && [ $ok = no ]; then
			log "new KCSAN report in the series' code: $pair"
			status=1
		fi
	done <<<"$new"
	return $status
}

if [ "${1:-}" = --compare ]; then
	[ $# -eq 4 ] || [ $# -eq 5 ] || die "usage: kcsan.sh --compare ORIG.log FG.log REPORT.md [FUNCTIONS]"
	for f in "$2" "$3" ${5:+"$5"}; do [ -f "$f" ] || die "no such file: $f"; done
	[ $# -eq 5 ] || need_tree
	compare "$2" "$3" "$4" "${5:-}"
	exit
fi

seconds=${1:-$(setting KCSAN_SECONDS)}
need_tree --orig
reader=$(guest_bin churn-reader)
status=0
# Each arm boots like any boot test (boot-test.sh: its console checked for
# every kernel problem but KCSAN's reports), under the same loads.
for series in 0 1; do
	arm=$(SERIES=$series arm_name)
	log "$arm: the smoke, churn and soak loads, $seconds s each"
	SERIES=$series HARNESS_CONFIGS=$KCSAN_CONFIGS HARNESS_CONSOLE_OPTS=--ignore-kcsan \
		BOOT_TIMEOUT=${BOOT_TIMEOUT:-$((3 * seconds + 900))} \
		"$HARNESS_ROOT/scripts/boot/boot-test.sh" kcsan "$HARNESS_ROOT/scripts/guest/kcsan.sh" \
		"$reader" "$seconds" || { log "$arm: a guest load failed or a kernel problem other than KCSAN's"; status=1; }
done
console() { echo "$BUILD_DIR/logs/kcsan-$1-${KCSAN_CONFIGS// /+}.log"; }
compare "$(console orig)" "$(console fg)" "$BUILD_DIR/logs/kcsan.md" || status=1
log "report: $BUILD_DIR/logs/kcsan.md"
[ $status = 0 ] || die "kcsan failed"
log "kcsan passed"
