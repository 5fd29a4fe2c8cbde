#!/bin/bash
# Coccinelle: run the kernel's semantic patches (scripts/coccinelle, report
# mode, as "make coccicheck MODE=report" does) on the C files the series
# touches, at the tip and at the base; fail on any report the base does
# not have. Semantic patches that need OCaml scripting are skipped (Debian's
# coccinelle runs them only with an OCaml compiler installed) and listed.
#
# usage: check-cocci.sh
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

command -v spatch >/dev/null || die "spatch not found: install Debian's coccinelle (make deps)"
# Debian's python3 has what the semantic patches' Python scripts import
PATH=/usr/bin:$PATH
# deref_null.cocci overflows the default 8 MiB stack on mm/ files (spatch
# prints the exception as output, which would count as a new report)
ulimit -s unlimited 2>/dev/null || ulimit -s "$(ulimit -H -s)"
# Per-file time limit of spatch, in seconds.  The kernel's .cocciconfig
# says 200, which deref_null.cocci overran on mm/vmscan.c when the host's
# two cores were shared with a QEMU guest; a timeout leaves the check
# incomplete, so it stops the run (below) instead of passing or counting as
# a report.
COCCI_TIMEOUT=${COCCI_TIMEOUT:-600}
need_tree
files=$(git -C "$TREE" diff --name-only --diff-filter=AM "$BASE_TAG" "$SERIES_BRANCH" -- '*.c')
[ -n "$files" ] || { log "the series touches no .c file"; exit 0; }

cocci=()
skipped=()
while read -r c; do
	if grep -q ':ocaml' "$c"; then
		skipped+=("${c#"$TREE"/}")
	elif grep -q '^virtual report' "$c"; then
		cocci+=("$c")
	fi
done < <(find "$TREE/scripts/coccinelle" -name '*.cocci' | sort)
[ ${#skipped[@]} = 0 ] || log "skipped (OCaml scripting): ${skipped[*]}"
# the slowest first, so that the others fill the CPUs while it runs
# (deref_null.cocci: 249 of 658 s on the 19 files of the series)
mapfile -t cocci < <(printf '%s\n' "${cocci[@]}" | grep '/deref_null\.cocci$'
	printf '%s\n' "${cocci[@]}" | grep -v '/deref_null\.cocci$')

# reports SRC FILES: every report of every semantic patch on FILES (a
# list), without line numbers (also those in a message, "preceding lock on
# line 696"), so that code moved by the series does not count as new.
# spatch spreads the files over the CPUs, as coccicheck does, and
# $(nproc) semantic patches run at once: deref_null.cocci spends minutes
# on mm/vmscan.c alone, with the other CPUs idle.
reports() {
	local src=$1 c opts f present=() out i=0

	for f in $2; do
		[ -f "$src/$f" ] && present+=("$f")
	done
	[ ${#present[@]} -gt 0 ] || return 0
	out=$(mktemp -d)
	for c in "${cocci[@]}"; do
		# a semantic patch may ask for options in an "// Options:" line
		opts=$(sed -n 's|^// *Options: *||p' "$c")
		# shellcheck disable=SC2086 # $opts is a list of options
		(cd "$src" && spatch -D report --no-show-diff --very-quiet \
			--jobs "$(nproc)" --chunksize 1 --timeout "$COCCI_TIMEOUT" \
			--cocci-file "$c" $opts -I include -I arch/x86/include \
			-I include/uapi "${present[@]}" >"$out/$i" 2>&1) &
		i=$((i + 1))
		[ "$(jobs -rp | wc -l)" -lt "$(nproc)" ] || wait -n || true
	done
	wait
	i=0
	for c in "${cocci[@]}"; do
		sed -E "s|^\./||; s|^([^:]+):[0-9]+:[0-9]+-[0-9]+:|\1:|; s|^([^:]+):[0-9]+:|\1:|
			s/ line [0-9]+/ line N/g" "$out/$i" |
			sed "s|^|${c##*/}: |"
		i=$((i + 1))
	done | sort -u
	rm -rf "$out"
}

# cached_reports SRC FILES: reports(), kept in CACHE_DIR under everything
# its output depends on: the tree's content (a clean git worktree), the
# files, the semantic patches, spatch's version and this script.  A
# second run on the same series (CI after a local make check) reads the
# result instead of spending minutes on the same computation; a tree with
# uncommitted changes is never cached.
cached_reports() {
	local src=$1 key dir=$CACHE_DIR/cocci out

	if [ -n "$(git -C "$src" status --porcelain --untracked-files=no)" ]; then
		reports "$src" "$2"
		return
	fi
	key=$({ git -C "$src" rev-parse 'HEAD^{tree}'; echo "$2"; spatch --version | head -n 1
		cat "${cocci[@]}" "$0"; } | sha256sum | cut -d' ' -f1)
	if [ -f "$dir/$key" ]; then
		log "reports of $(wc -w <<<"$2") files at ${src#"$BUILD_DIR"/} from the cache ($dir/$key)"
		cat "$dir/$key"
		return
	fi
	out=$(reports "$src" "$2")
	# a run that timed out is incomplete: check_no_timeout stops it, uncached
	if ! grep -qE 'Timeout|timeout \(we abort\)' <<<"$out"; then
		mkdir -p "$dir"
		printf '%s\n' "$out" >"$dir/$key.$$" && mv "$dir/$key.$$" "$dir/$key"
	fi
	printf '%s\n' "$out"
}

# die if spatch gave up on a file ($1: the output of reports())
check_no_timeout() {
	local t

	t=$(grep -E 'Timeout|timeout \(we abort\)' <<<"$1" || true)
	[ -z "$t" ] || die "spatch timed out (--timeout $COCCI_TIMEOUT s per file; set COCCI_TIMEOUT, or run on an idle host):
$t"
}

tip=$(cached_reports "$TREE" "$files")
check_no_timeout "$tip"
new=$tip
if [ -n "$tip" ]; then
	# the base only for the files with a report at the tip
	bisect_worktree
	base=$(cached_reports "$BISECT_TREE" "$(sed 's/^[^:]*: //; s/:.*//' <<<"$tip" | sort -u)")
	check_no_timeout "$base"
	new=$(new_findings "$tip" "$base")
fi
log "${#cocci[@]} semantic patches on $(wc -w <<<"$files") files: $(grep -c . <<<"$tip" || true) reports at the tip"
[ -z "$tip" ] || printf '    %s\n' "$tip" >&2
if [ -n "$new" ]; then
	log "new coccinelle reports:"
	printf '%s\n' "$new" >&2
	exit 1
fi
log "no report that the base does not have"
