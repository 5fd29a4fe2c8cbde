#!/bin/bash
# Print the path of a verified base tarball.
#
# usage: get-base.sh [7.3|7.2]
# 7.3 (the default) is the series' base; 7.2 is the stable fix's other
# base (the BASE_7_2_* lines of scripts/base.env, LINUX_TARBALL_7_2).
#
# Sources, first match wins: LINUX_TARBALL=<file>, then the cached copy in
# $CACHE_DIR, then Debian's linux-source package downloaded from the
# archive named in this machine's apt sources.  The tarball's sha256 must
# match scripts/base.env unless ACCEPT_BASE=1 says another base is wanted.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$HARNESS_ROOT/scripts/base.env"

tarball_setting=LINUX_TARBALL alternative=" or KERNEL_SRC=<git tree>"
case ${1:-7.3} in
7.3) ;;
7.2)
	for v in PACKAGE UPSTREAM VERSION SUITE SOURCE_PACKAGE TARBALL_NAME SHA256; do
		n=BASE_7_2_$v
		declare "BASE_$v=${!n}"
	done
	tarball_setting=LINUX_TARBALL_7_2 alternative=
	LINUX_TARBALL=${LINUX_TARBALL_7_2:-} ;;
*) die "usage: get-base.sh [7.3|7.2]" ;;
esac

verify() {
	local tarball=$1 sum

	sum=$(sha256_cached "$tarball")
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
		die "could not download $BASE_PACKAGE $BASE_VERSION ($BASE_SUITE) from the archives in the apt sources; set $tarball_setting=<file>$alternative"
	dpkg-deb --fsys-tarfile "$tmp/$deb" |
		tar -x -C "$tmp" "./usr/src/$BASE_TARBALL_NAME" ||
		die "$deb does not contain usr/src/$BASE_TARBALL_NAME"
	verify "$tmp/usr/src/$BASE_TARBALL_NAME"
	mv "$tmp/usr/src/$BASE_TARBALL_NAME" "$CACHE_DIR/$BASE_TARBALL_NAME"
}

if [ -n "${LINUX_TARBALL:-}" ]; then
	[ -f "$LINUX_TARBALL" ] || die "$tarball_setting=$LINUX_TARBALL: no such file"
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
