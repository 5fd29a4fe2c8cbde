#!/bin/bash
# Which reports in bench/results/ still describe the series at HEAD: a
# report names the commit of this repository its FG kernel was built from
# ("Series: patches/ at commit C"); it is current if no patch of the
# series (patches/NNNN-*.patch but the cover letter) and no stable patch
# changed between C and HEAD, and stale otherwise, or if it names no
# commit.  A report whose commit reads C-modified ran an experiment on
# the series tree (bench/README.md): it measures no version of the
# series and is listed as one, neither current nor stale.  Prints one
# line per report; exits 1 if any is stale.
#
# usage: bench/stale.sh [REPORT...]   (default: every bench/results/*.md)
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"

cd "$HARNESS_ROOT"
[ $# -gt 0 ] || set -- bench/results/*.md
# The patches of a commit that hold kernel code: the series
# (patches/NNNN-*.patch but the cover letter) and the stable fix.
kernel_patches() {
	git ls-tree -r --name-only "$1" -- patches | grep -E '^patches/(stable/)?[0-9]{4}-.*\.patch$' |
		grep -v '^patches/0000-'
}
# The code of patch file $2 at commit $1: its diff, without what export
# changes with no code change (subject, changelog, date, index lines,
# signature) and without the KUnit suites under mm/tests/, which only a
# CONFIG_LRU_GEN_KUNIT_TEST kernel compiles, never a benchmark's; nothing
# if the file is not there.
patch_code() {
	git show "$1:$2" 2>/dev/null | sed -n '/^diff --git /,/^-- $/p' |
		awk '/^diff --git /{ tests = ($3 ~ "^a/mm/tests/") } !tests' |
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

stale=0
for report in "$@"; do
	[ -f "$report" ] || die "no report $report"
	# "C" or "C-modified"
	commit=$(sed -n 's/^Series: patches\/ at commit \([0-9a-f]\{7,\}\(-modified\)\{0,1\}\) .*/\1/p' "$report" | head -n 1)
	if [ "${commit%-modified}" != "$commit" ]; then
		echo "experiment $report: an experiment on the series tree at ${commit%-modified}"
	elif [ -z "$commit" ]; then
		# a summary carries no kernel of its own
		case $report in *-summary.md) continue ;; esac
		echo "stale    $report: names no series commit"
		stale=1
	elif ! git cat-file -e "$commit^{commit}" 2>/dev/null; then
		echo "stale    $report: commit $commit is not in this repository"
		stale=1
	elif [ "$(kernel_code "$commit")" != "$head_code" ]; then
		echo "stale    $report: the series changed since $commit ($(changed_patches "$commit"))"
		stale=1
	else
		echo "current  $report: series at $commit"
	fi
done
exit $stale
