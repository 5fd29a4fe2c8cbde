#!/bin/bash
# Compare the selftest results of the ORIG and FG arms (written by
# scripts/guest/selftests.sh: LABEL.tap, LABEL.rc "status ms", labels) and
# write a Markdown report.  Each program invocation (LABEL) gives one row
# per TAP result line, keyed by its test number ("ok N desc", "not ok N
# desc", "ok N desc # SKIP reason", "ok N # SKIP desc"), plus a row for
# its exit status (0 pass, 4 skip, 124/137 timeout, else fail); a program
# that prints no TAP has only that row.
#
# usage: selftests-parity.sh ORIG_DIR FG_DIR REPORT.md
#
# Fails (exit 1) if a row that passes on ORIG does not pass on FG, or a
# row skips on one arm but not on the other, or FG lacks a row ORIG has,
# except for the tests in FLAKY; a program's exit status does not gate
# either when every case that failed in one of its tries on FG is in
# FLAKY (each try may fail another one).  Rows failing on both arms are
# "known" (reasons in KNOWN below).  A program the guest ran more than once
# (LABEL.tryN.tap) counts each row at its best result over the tries.
# Environment: HARNESS_ORIG_CONSOLE_NOTE, HARNESS_FG_CONSOLE_NOTE (one line each, from the
# console check) and HARNESS_EXTRA_NOTE are copied into the report.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

[ $# -eq 3 ] || die "usage: selftests-parity.sh ORIG_DIR FG_DIR REPORT.md"
orig=$1 fg=$2 report=$3
for d in "$orig" "$fg"; do
	[ -f "$d/labels" ] || die "no results in $d (no labels file: did the guest run?)"
done

# Why rows fail on ORIG too: "LABEL|substring of the test case|reason".
KNOWN=(
)

# One line per row and try: "row<TAB>arm<TAB>label<TAB>key<TAB>status<TAB>
# desc<TAB>try"; one "time" line per label.
parse() { # parse ARM DIR
	local arm=$1 dir=$2 label rc ms tries rcs n tap

	while read -r label; do
		[ -n "$label" ] || continue
		read -r rc ms tries rcs <"$dir/$label.rc" || { rc=-1 ms=0; }
		tries=${tries:-1} rcs=${rcs:-$rc}
		printf 'time\t%s\t%s\t%s\t%s\n' "$arm" "$label" "$ms" "$tries"
		for n in $(seq "$tries"); do
			tap=$dir/$label.try$n.tap
			[ -f "$tap" ] || tap=$dir/$label.tap
			rc=$(echo "$rcs" | cut -d, -f"$n")
			tr -d '\r' <"$tap" 2>/dev/null | awk -v arm="$arm" -v label="$label" -v rc="$rc" -v try="$n" '
			/^(not )?ok [0-9]+/ {
				st = ($1 == "not") ? "fail" : "pass"
				line = $0
				sub(/^(not )?ok /, "", line)
				n = line; sub(/[^0-9].*/, "", n)
				rest = substr(line, length(n) + 1)
				sub(/^[ \t]*/, "", rest)
				desc = rest
				if (rest ~ /^# *(SKIP|skip)/) {	# "ok N # SKIP desc"
					st = "skip"; desc = rest; sub(/^# *(SKIP|skip)[ :]*/, "", desc)
				} else if (rest ~ /^# *(XFAIL|xfail)/) {	# "ok N # XFAIL desc"
					desc = rest; sub(/^# *(XFAIL|xfail)[ :]*/, "", desc)
				} else if (match(rest, / # *(SKIP|skip|XFAIL|xfail|TODO|todo)/)) {
					dir = toupper(substr(rest, RSTART + 3))
					sub(/^ */, "", dir)
					desc = substr(rest, 1, RSTART - 1)
					if (dir ~ /^SKIP/) st = "skip"
					else if (dir ~ /^XFAIL/) st = "pass"
				}
				gsub(/\|/, "/", desc)
				gsub(/\t/, " ", desc)
				printf "row\t%s\t%s\t%06d\t%s\t%s\t%s\n", arm, label, n, st, desc, try
			}
			END {
				if (rc == 0) st = "pass"
				else if (rc == 4) st = "skip"
				else if (rc == 124 || rc == 137) st = "timeout"
				else st = "fail"
				printf "row\t%s\t%s\t%s\t%s\t%s\t%s\n", arm, label, "exit", st, rc, try
			}'
		done
	done <"$dir/labels"
}

# Tests that fail intermittently on ORIG too (after the retries of the
# guest script): a row of theirs that passes on ORIG and fails on FG is
# reported, but does not fail the run.  "LABEL|reason" for every row of a
# program, "LABEL|substring of the test case|reason" for one row; then the
# program's exit status does not gate either, unless another row of it
# regressed.
FLAKY=(
	"test_memcontrol|test_memcg_min|fails on ORIG as well: 5 of 18 runs vs 3 of 18 on FG, see docs/selftests.md"
	"test_memcontrol|test_memcg_low|fails on ORIG as well: 4 of 10 runs vs 3 of 10 on FG, see docs/selftests.md"
)

flaky_list=$(printf '%s\n' "${FLAKY[@]}")
known_list=$(printf '%s\n' "${KNOWN[@]+"${KNOWN[@]}"}")
{
	parse ORIG "$orig"
	parse FG "$fg"
} | awk -F'\t' -v report="$report" -v known="$known_list" -v flakylist="$flaky_list" \
	-v orig_meta="$(tr '\n' ';' <"$orig/meta" 2>/dev/null)" \
	-v fg_meta="$(tr '\n' ';' <"$fg/meta" 2>/dev/null)" \
	-v orig_con="${HARNESS_ORIG_CONSOLE_NOTE:-}" -v fg_con="${HARNESS_FG_CONSOLE_NOTE:-}" \
	-v extra="${HARNESS_EXTRA_NOTE:-}" '
function reason(label, desc,   i, f) {
	for (i = 1; i <= nknown; i++) {
		split(kl[i], f, "|")
		if (f[1] == label && index(desc, f[2])) return f[3]
	}
	return ""
}
function verdict(o, f) {
	if (o == "") o = "missing"
	if (f == "") f = "missing"
	if (o == f) return (o == "pass" || o == "skip") ? "same" : "known"
	if (o == "pass") return "REGRESSION"
	# ORIG skipped what FG ran and passed (e.g., no huge zero page in
	# the ORIG guest): FG covered more, and no FG result is hidden.
	if (o == "skip" && f == "pass") return "FG passes (ORIG skipped)"
	if (o == "skip" || f == "skip") return "SKIP DIFFERS"
	if (f == "missing") return "REGRESSION"
	if (f == "pass") return "FG passes"
	return "known"
}
function flaky_row(label, desc,   i, f) {
	for (i = 1; i <= nflakyrow; i++) {
		split(flakyrow[i], f, "|")
		if (f[1] == label && index(desc, f[2])) return f[3]
	}
	return ""
}
function sortkey(key) { return key == "exit" ? "999999" : key }
BEGIN {
	nknown = split(known, kl, "\n"); if (kl[nknown] == "") nknown--
	nf = split(flakylist, fl, "\n")
	for (i = 1; i <= nf; i++) {
		if (fl[i] == "") continue
		if (split(fl[i], ff, "|") == 2) gateless[ff[1]] = ff[2]
		else flakyrow[++nflakyrow] = fl[i]
	}
	rank["pass"] = 4; rank["skip"] = 3; rank["fail"] = 2; rank["timeout"] = 1
}
$1 == "time" {
	t[$2, $3] = $4
	tries[$2, $3] = $5
	if (!(($3) in seen)) { seen[$3] = 1; labels[nl++] = $3 }
	next
}
$1 == "row" {
	k = $3 SUBSEP $4
	if (!(k in have)) { have[k] = 1; keys[$3, nk[$3]++] = $4 }
	# Over the tries of a program, the best result of a row counts; a row
	# whose result differed between tries (or that a try did not reach)
	# is flaky.
	ntry[$2, k]++
	if (($2, k) in st && st[$2, k] != $5) flaky[$2, k] = 1
	if (!(($2, k) in st) || rank[$5] > rank[st[$2, k]]) st[$2, k] = $5
	if ($4 == "exit") { rc[$2, $3] = rc[$2, $3] (rc[$2, $3] == "" ? "" : ",") $6; next }
	# Name a row by a non-skip line (a skip line may give a reason
	# instead), ORIG first.
	if (!(k in desc) || (dskip[k] && $5 != "skip")) { desc[k] = $6; dskip[k] = ($5 == "skip") }
	next
}
END {
	bad = 0; regress = 0; skipdiff = 0
	for (i = 0; i < nl; i++) {
		l = labels[i]
		# Sort the keys: numbered rows in order, exit last.
		n = nk[l]
		for (a = 0; a < n; a++) order[a] = keys[l, a]
		for (a = 1; a < n; a++)
			for (b = a; b > 0 && sortkey(order[b-1]) > sortkey(order[b]); b--) {
				tmp = order[b]; order[b] = order[b-1]; order[b-1] = tmp
			}
		for (a = 0; a < n; a++) {
			k = l SUBSEP order[a]
			o = st["ORIG", k]; f = st["FG", k]
			for (ai = 0; ai < 2; ai++) {
				arm = ai ? "FG" : "ORIG"
				s = st[arm, k] == "" ? "missing" : st[arm, k]
				cnt[arm, l, s]++
				tot[arm, s]++
				if (s != "missing" && ntry[arm, k] < tries[arm, l]) flaky[arm, k] = 1
			}
			v = verdict(o, f)
			# A case that failed in one try on FG and passed in
			# another explains the exit status of that try: a case
			# FLAKY lists lets it pass, any other makes it gate.
			if (order[a] != "exit" && flaky["FG", k] && f == "pass") {
				if (flaky_row(l, desc[k]) != "") soft[l]++
				else hard[l]++
			}
			# The exit status row comes last: it does not gate if only
			# flaky rows of the program regressed.
			if (v == "REGRESSION" && (l in gateless)) v = "not gating: " gateless[l]
			else if (v == "REGRESSION" && order[a] != "exit" && (r = flaky_row(l, desc[k])) != "") {
				v = "not gating: " r; soft[l]++
			} else if (v == "REGRESSION" && order[a] == "exit" && soft[l] && !hard[l])
				v = "not gating: only flaky test cases above failed"
			if (v == "REGRESSION") { bad++; regress++; hard[l]++ }
			if (v == "SKIP DIFFERS") { bad++; skipdiff++; hard[l]++ }
			if (v == "known" || v == "FG passes") {
				r = reason(l, desc[k])
				if (r != "") v = v ": " r
			}
			num = (order[a] == "exit") ? "-" : order[a] + 0
			if (order[a] == "exit")
				desc[k] = sprintf("(exit status: ORIG %s, FG %s)", ("ORIG", l) in rc ? rc["ORIG", l] : "none", ("FG", l) in rc ? rc["FG", l] : "none")
			if (flaky["ORIG", k] || flaky["FG", k])
				v = v " (flaky on " (flaky["ORIG", k] ? (flaky["FG", k] ? "both" : "ORIG") : "FG") ")"
			row = sprintf("| %s | %s | %s | %s | %s | %s |", l, num, desc[k], o == "" ? "missing" : o, f == "" ? "missing" : f, v)
			all[nall++] = row
			if (v != "same") diffs[ndiff++] = row
			nrows[l]++
		}
	}
	print "# Kernel selftests: ORIG vs FG parity" > report
	print "" > report
	printf "ORIG: %s  \nFG: %s\n\n", orig_meta, fg_meta > report
	printf "| arm | pass | fail | skip | timeout | missing | guest time of the programs |\n|---|---|---|---|---|---|---|\n" > report
	for (ai = 0; ai < 2; ai++) {
		arm = ai ? "FG" : "ORIG"; secs = 0
		for (i = 0; i < nl; i++) secs += t[arm, labels[i]] / 1000
		printf "| %s | %d | %d | %d | %d | %d | %d s |\n", arm, tot[arm, "pass"], tot[arm, "fail"], tot[arm, "skip"], tot[arm, "timeout"], tot[arm, "missing"], secs > report
	}
	print "" > report
	printf "Rows are test cases (TAP result lines) plus one exit-status row per program; " > report
	printf "a program shown with tries was rerun after failing, and a row counts as passed if it passed in any try. " > report
	printf "**%s**: %d regressions (pass on ORIG, not on FG), %d skip differences.\n\n", bad ? "FAIL" : "PASS", regress, skipdiff > report
	if (orig_con != "" || fg_con != "") printf "Console: ORIG %s; FG %s.\n\n", orig_con, fg_con > report
	if (extra != "") printf "%s\n\n", extra > report
	print "## Per program" > report
	print "" > report
	print "| program | rows | ORIG pass/fail/skip | FG pass/fail/skip | ORIG time | FG time |" > report
	print "|---|---|---|---|---|---|" > report
	for (i = 0; i < nl; i++) {
		l = labels[i]
		printf "| %s | %d | %d/%d/%d%s%s | %d/%d/%d%s%s | %.1f s | %.1f s |\n", l, nrows[l],
			cnt["ORIG", l, "pass"], cnt["ORIG", l, "fail"], cnt["ORIG", l, "skip"], cnt["ORIG", l, "timeout"] ? " (timeout)" : "",
			(tries["ORIG", l] > 1) ? " (" tries["ORIG", l] " tries)" : "",
			cnt["FG", l, "pass"], cnt["FG", l, "fail"], cnt["FG", l, "skip"], cnt["FG", l, "timeout"] ? " (timeout)" : "",
			(tries["FG", l] > 1) ? " (" tries["FG", l] " tries)" : "",
			t["ORIG", l] / 1000, t["FG", l] / 1000 > report
	}
	print "" > report
	print "## Rows that differ between the arms or fail on both" > report
	print "" > report
	print "| program | # | test case | ORIG | FG | verdict |\n|---|---|---|---|---|---|" > report
	for (i = 0; i < ndiff; i++) print diffs[i] > report
	if (ndiff == 0) print "| (none) | | | | | |" > report
	print "" > report
	print "## All rows" > report
	print "" > report
	print "<details><summary>" nall " rows</summary>\n" > report
	print "| program | # | test case | ORIG | FG | verdict |\n|---|---|---|---|---|---|" > report
	for (i = 0; i < nall; i++) print all[i] > report
	print "\n</details>" > report
	printf "%d rows, %d not a pass on both arms, %d regressions, %d skip differences\n", nall, ndiff, regress, skipdiff
	# Name them here too: CI keeps only the tail of the log.
	for (i = 0; i < ndiff; i++) print diffs[i]
	exit bad ? 1 : 0
}'
