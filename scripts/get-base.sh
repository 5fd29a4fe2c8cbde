#!/bin/bash
# Print the path of a verified base tarball.
#
# Sources, first match wins: LINUX_TARBALL=<file>, then the cached copy in
# $CACHE_DIR, then Debian's linux-source package downloaded from the
# archive named in this machine's apt sources.  The tarball's sha256 must
# match scripts/base.env unless ACCEPT_BASE=1 says another base is wanted.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$HARNESS_ROOT/scripts/base.env"

verify() {
	local tarball=$1 sum

	sum=$(sha256sum "$tarball" | cut -d' ' -f1)
	[ "$sum" = "$BASE_SHA256" ] && return 0
	if [ "${ACCEPT_BASE:-0}" = 1 ]; then
		log "warning: $tarball has sha256 $sum, not the pinned $BASE_SHA256; using it because ACCEPT_BASE=1"
		return 0
	fi
	die "$tarball: sha256 mismatch: got $sum, expected $BASE_SHA256 ($BASE_PACKAGE $BASE_VERSION); set ACCEPT_BASE=1 to build on another base"
}

download() {
	local deb tmp

	deb="${BASE_PACKAGE}_${BASE_VERSION}_all.deb"
	tmp=$(mktemp -d "$CACHE_DIR/download.XXXXXX")
	trap 'rm -rf "$tmp"' RETURN
	fetch_from_archives "main/${BASE_SOURCE_PACKAGE:0:1}/$BASE_SOURCE_PACKAGE/$deb" "$tmp/$deb" ||
		die "could not download $BASE_PACKAGE $BASE_VERSION ($BASE_SUITE) from the archives in the apt sources; set LINUX_TARBALL=<file> or KERNEL_SRC=<git tree>"
	dpkg-deb --fsys-tarfile "$tmp/$deb" |
		tar -x -C "$tmp" "./usr/src/$BASE_TARBALL_NAME" ||
		die "$deb does not contain usr/src/$BASE_TARBALL_NAME"
	verify "$tmp/usr/src/$BASE_TARBALL_NAME"
	mv "$tmp/usr/src/$BASE_TARBALL_NAME" "$CACHE_DIR/$BASE_TARBALL_NAME"
}

if [ -n "${LINUX_TARBALL:-}" ]; then
	[ -f "$LINUX_TARBALL" ] || die "LINUX_TARBALL=$LINUX_TARBALL: no such file"
	verify "$LINUX_TARBALL"
	realpath "$LINUX_TARBALL"
	exit 0
fi

mkdir -p "$CACHE_DIR"
if [ -f "$CACHE_DIR/$BASE_TARBALL_NAME" ]; then
	verify "$CACHE_DIR/$BASE_TARBALL_NAME"
else
	download
fi
echo "$CACHE_DIR/$BASE_TARBALL_NAME"
