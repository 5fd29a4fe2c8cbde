#!/bin/bash
# Mail the series with the sender's own identity.  patches/ carries the
# project's fixed identity ($SERIES_IDENTITY in lib.sh) so that the export
# stays reproducible; this copies the series to build/send/, puts the
# sender's name and address into From: and Signed-off-by:, takes To: (the
# maintainers) and Cc: (reviewers and lists) from the kernel tree's
# scripts/get_maintainer.pl, and runs git send-email.  By default that is
# a dry run; SEND=1 sends, asking before each mail.
#
# usage: send.sh
# Environment: SEND [0], SEND_NAME and SEND_EMAIL [git config user.name and
# user.email], SEND_TO and SEND_CC (added to get_maintainer.pl's).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ -x "$(git --exec-path)/git-send-email" ] ||
	die "git send-email not found: install Debian's git-email (make deps)"

name=${SEND_NAME:-$(git config user.name || true)}
email=${SEND_EMAIL:-$(git config user.email || true)}
[ -n "$name" ] && [ -n "$email" ] ||
	die "no sender: set git config user.name and user.email (or SEND_NAME and SEND_EMAIL)"
sender="$name <$email>"
case $sender in
"$SERIES_IDENTITY" | *"<mglru-fg@"*)
	die "refusing to send as $sender, the project's placeholder: set your own git config user.name and user.email" ;;
esac
[[ $email == *@*.* && $email != *[[:space:]\<\>]* ]] || die "not a mail address: $email"

shopt -s nullglob
patches=("$PATCH_DIR"/[0-9][0-9][0-9][0-9]-*.patch)
[ ${#patches[@]} -gt 1 ] || die "no series in $PATCH_DIR (make export)"

# get_maintainer.pl reads the tree's MAINTAINERS; the series must apply to it.
need_tree
[ -x "$TREE/scripts/get_maintainer.pl" ] || die "no scripts/get_maintainer.pl in $TREE"

out=$BUILD_DIR/send
rm -rf "$out"
mkdir -p "$out"
for p in "${patches[@]}"; do
	# only whole lines that are the placeholder identity, nothing else
	awk -v old="$SERIES_IDENTITY" -v new="$sender" '
		$0 == "From: " old { $0 = "From: " new }
		$0 == "Signed-off-by: " old { $0 = "Signed-off-by: " new }
		{ print }' "$p" >"$out/${p##*/}"
done
left=$(grep -l -F "$SERIES_IDENTITY" "$out"/*.patch | head -1 || true)
[ -z "$left" ] || die "the placeholder identity is still in $left"

# Recipients: everyone get_maintainer.pl names for the patches (not the
# cover letter, which has no diff), maintainers To:, the rest Cc:.
# One address per line, each once: Cc: leaves out whoever is in To:.
maint() {
	(cd "$TREE" && ./scripts/get_maintainer.pl --no-git --no-git-fallback \
		--no-rolestats "$@" "${patches[@]:1}")
}
to_list=$(maint --no-r --no-l; tr , '\n' <<<"${SEND_TO:-}")
cc_list=$(maint --no-m; tr , '\n' <<<"${SEND_CC:-}")
to_list=$(awk 'NF && !seen[$0]++' <<<"$to_list")
cc_list=$(awk 'NR == FNR { to[$0]; next } NF && !($0 in to) && !seen[$0]++' \
	<(printf '%s\n' "$to_list") - <<<"$cc_list")
[ -n "$to_list" ] || die "get_maintainer.pl named no maintainer for the series"
to=$(paste -s -d, <<<"$to_list")
cc=$(paste -s -d, <<<"$cc_list")
log "From: $sender"
log "To: $to"
log "Cc: $cc"

args=(--from="$sender" --to="$to" --cc="$cc" --thread --no-chain-reply-to
	--suppress-cc=self --8bit-encoding=UTF-8 --transfer-encoding=8bit)
if [ "${SEND:-0}" = 1 ]; then
	log "sending ${#patches[@]} mails (git send-email asks before each)"
	exec git send-email --confirm=always "${args[@]}" "$out"/*.patch
fi

log "dry run (SEND=1 sends): $out"
git send-email --dry-run --confirm=never "${args[@]}" "$out"/*.patch >"$out/dry-run.log" 2>&1 ||
	die "git send-email --dry-run failed, see $out/dry-run.log"
sent=$(grep -c '^Dry-OK' "$out/dry-run.log" || true)
[ "$sent" = ${#patches[@]} ] ||
	die "git send-email --dry-run made $sent mails of ${#patches[@]}, see $out/dry-run.log"
from=$(grep -c "^From: $sender\$" "$out/dry-run.log" || true)
[ "$from" = ${#patches[@]} ] ||
	die "only $from of ${#patches[@]} mails are from $sender, see $out/dry-run.log"
log "dry run: ${#patches[@]} mails from $sender, log in $out/dry-run.log"
