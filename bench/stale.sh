#!/bin/bash
# Which reports in bench/results/ still describe the series at HEAD: a
# report names the commit of this repository its FG kernel was built from
# ("Series: patches/ at commit C"); it is current if no patch of the
# series (patches/NNNN-*.patch but the cover letter) and no stable patch
# changed between C and HEAD, and stale otherwise, or if it names no
# commit.  A report whose commit reads C-modified ran an experiment on
# the series tree (bench/README.md): it measures no version of the
# series and is listed as one, neither current nor stale.  Prints one
# line per report; exits 1 if any is stale.  With --index, also writes
# bench/results/INDEX.md: per workload (the conf of the report's
# "Command:" line), the newest current report that compares the arms
# (one with an EXP arm counts as an experiment), then the experiments on
# the current series, then how many reports are stale.
#
# usage: bench/stale.sh [--index] [REPORT...]   (default: every bench/results/*.md)
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"

cd "$HARNESS_ROOT"
index=0
if [ "${1:-}" = --index ]; then
	index=1
	shift
fi
[ $# -gt 0 ] || set -- bench/results/*.md
# The patches of a commit that hold kernel code: the series
# (patches/NNNN-*.patch but the cover letter) and the stable fix.
kernel_patches() {
	git ls-tree -r --name-only "$1" -- patches | grep -E '^patches/(stable/)?[0-9]{4}-.*\.patch$' |
		grep -v '^patches/0000-'
}
# The code of patch file $2 at commit $1: its diff, without what export
# changes with no code change (subject, changelog, date, index lines,
# signature) and without what no benchmark kernel compiles: the KUnit
# suites under mm/tests/ (only a CONFIG_LRU_GEN_KUNIT_TEST kernel
# compiles them) and Documentation/; nothing if the file is not there.
patch_code() {
	git show "$1:$2" 2>/dev/null | sed -n '/^diff --git /,/^-- $/p' |
		awk '/^diff --git /{ skip = ($3 ~ "^a/(mm/tests|Documentation)/") } !skip' |
		grep -v -e '^index ' -e '^-- $'
}
# The kernel code a commit's arms were built from, as one hash
kernel_code() {
	local path

	kernel_patches "$1" | while read -r path; do patch_code "$1" "$path"; done | sha256sum
}
# The patches whose code differs between commit $1 and HEAD, by number at HEAD
changed_patches() {
	local path

	kernel_patches HEAD | while read -r path; do
		cmp -s <(patch_code "$1" "$path") <(patch_code HEAD "$path") ||
			sed 's|^patches/\(stable/\)\{0,1\}\([0-9]\{4\}\)-.*|\1\2|' <<<"$path"
	done | paste -sd' '
}
head_code=$(kernel_code HEAD)

# judge REPORT: print its line; fail if it is stale
judge() {
	local report=$1 commit

	[ -f "$report" ] || die "no report $report"
	# "C" or "C-modified"
	commit=$(sed -n 's/^Series: patches\/ at commit \([0-9a-f]\{7,\}\(-modified\)\{0,1\}\) .*/\1/p' "$report" | head -n 1)
	if [ "${commit%-modified}" != "$commit" ]; then
		echo "experiment $report: an experiment on the series tree at ${commit%-modified}"
	elif [ -z "$commit" ]; then
		# a summary or the index carries no kernel of its own
		case $report in *-summary.md | */INDEX.md) return 0 ;; esac
		echo "stale    $report: names no series commit"
		return 1
	elif ! git cat-file -e "$commit^{commit}" 2>/dev/null; then
		echo "stale    $report: commit $commit is not in this repository"
		return 1
	elif [ "$(kernel_code "$commit")" != "$head_code" ]; then
		echo "stale    $report: the series changed since $commit ($(changed_patches "$commit"))"
		return 1
	else
		echo "current  $report: series at $commit"
	fi
}

# workload REPORT: the conf its command line names (run-zipf.sh's default
# if it names none)
workload() {
	local conf

	conf=$(sed -n '/^Command:/{s/.*BENCH_CONF=\([^ `]*\).*/\1/p;q}' "$1")
	[ -n "$conf" ] || conf=bench/zipf.conf
	echo "${conf#bench/}"
}

# write_index LINE...: bench/results/INDEX.md from judge's lines
write_index() {
	local line status report conf n_stale=0
	local -A newest
	local -a experiments=()

	for line in "$@"; do
		read -r status report <<<"$line"
		report=${report%%: *}
		case $status in
		stale) n_stale=$((n_stale + 1)) ;;
		experiment)
			# only one on the series' current code
			[ "$(kernel_code "${line##* at }")" != "$head_code" ] ||
				experiments+=("$report") ;;
		current)
			if grep -q '^EXP: ' "$report"; then
				experiments+=("$report")
			else
				conf=$(workload "$report")
				# file names start with the date: the later name is the newer report
				[[ "${newest[$conf]:-}" > "$report" ]] || newest[$conf]=$report
			fi ;;
		esac
	done
	{
		echo "# Benchmark reports at the series of HEAD"
		echo
		echo "Written by \`bench/stale.sh --index\` (\`make bench-stale\`): per workload, the newest"
		echo "report whose kernels ran the series' current code; then the experiments"
		echo "(an EXP arm, or a modified series tree) on it.  Summaries are by hand."
		echo
		echo "| workload | report |"
		echo "|---|---|"
		for conf in $(printf '%s\n' "${!newest[@]}" | sort); do
			printf '| `%s` | [%s](%s) |\n' "$conf" "${newest[$conf]##*/}" "${newest[$conf]##*/}"
		done
		echo
		echo "Experiments:"
		echo
		for report in "${experiments[@]}"; do
			printf -- '- [%s](%s) (`%s`)\n' "${report##*/}" "${report##*/}" "$(workload "$report")"
		done
		echo
		echo "$n_stale older reports ran code the series no longer has (\`bench/stale.sh\` names them)."
	} >"${HARNESS_BENCH_INDEX:-bench/results/INDEX.md}"
}

stale=0
lines=()
for report in "$@"; do
	line=$(judge "$report") || stale=1
	[ -z "$line" ] || { echo "$line"; lines+=("$line"); }
done
[ $index = 0 ] || write_index "${lines[@]}"
exit $stale
