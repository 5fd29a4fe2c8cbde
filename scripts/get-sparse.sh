#!/bin/bash
# Print the path of a sparse that the kernel tree accepts: the installed one
# if the tree's scripts/checker-valid.sh passes it, else sparse
# $SPARSE_VERSION (scripts/base.env) built once into $CACHE_DIR from its
# upstream tarball: SPARSE_TARBALL=<file>, the cached copy, or Debian's
# source pool in the archives of this machine's apt sources.  The tarball's
# sha256 must match scripts/base.env.
#
# usage: get-sparse.sh KERNEL_TREE
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$HARNESS_ROOT/scripts/base.env"

tree=${1:?usage: get-sparse.sh KERNEL_TREE}
[ -x "$tree/scripts/checker-valid.sh" ] || die "$tree has no scripts/checker-valid.sh"
prefix=$CACHE_DIR/sparse-$SPARSE_VERSION
tarball=$CACHE_DIR/$SPARSE_TARBALL_NAME

accepted() { # accepted SPARSE: whether the kernel's own check passes it
	[ "$("$tree/scripts/checker-valid.sh" "$1" -m64 -mlittle-endian 2>/dev/null)" = 1 ]
}

verify() {
	local sum
	sum=$(sha256sum "$1" | cut -d' ' -f1)
	[ "$sum" = "$SPARSE_SHA256" ] ||
		die "$1: sha256 mismatch: got $sum, expected $SPARSE_SHA256 (sparse $SPARSE_VERSION)"
}

download() {
	local tmp
	tmp=$(mktemp "$CACHE_DIR/download.XXXXXX")
	fetch_from_archives "main/s/sparse/$SPARSE_TARBALL_NAME" "$tmp" || {
		rm -f "$tmp"
		die "could not download $SPARSE_TARBALL_NAME from the archives in the apt sources; set SPARSE_TARBALL=<file>"
	}
	verify "$tmp"
	mv "$tmp" "$tarball"
}

if command -v sparse >/dev/null && accepted sparse; then
	command -v sparse
	exit 0
fi
if [ -x "$prefix/bin/sparse" ] && accepted "$prefix/bin/sparse"; then
	echo "$prefix/bin/sparse"
	exit 0
fi

mkdir -p "$CACHE_DIR"
[ -w "$CACHE_DIR" ] || die "cache directory $CACHE_DIR is not writable (set CACHE_DIR)"
if [ -n "${SPARSE_TARBALL:-}" ]; then
	[ -f "$SPARSE_TARBALL" ] || die "SPARSE_TARBALL=$SPARSE_TARBALL: no such file"
	verify "$SPARSE_TARBALL"
	tarball=$SPARSE_TARBALL
elif [ -f "$tarball" ]; then
	verify "$tarball"
else
	download
fi

log "building sparse $SPARSE_VERSION into $prefix (the installed one: $(sparse --version 2>/dev/null || echo none))"
src=$(mktemp -d "$CACHE_DIR/sparse-src.XXXXXX")
trap 'rm -rf "$src"' EXIT
tar -xzf "$tarball" -C "$src" --strip-components=1
# Only the sparse program, without the optional libraries' tools.
make -C "$src" -j"$(nproc)" HAVE_LLVM=no HAVE_GTK=no HAVE_SQLITE=no HAVE_BOOLECTOR=no \
	sparse >"$src/build.log" 2>&1 || die "sparse build failed: $(tail -n 5 "$src/build.log")"
mkdir -p "$prefix/bin"
install -m 755 "$src/sparse" "$prefix/bin/sparse"
accepted "$prefix/bin/sparse" ||
	die "the kernel's checker-valid.sh rejects sparse $SPARSE_VERSION too: $("$prefix/bin/sparse" --version)"
echo "$prefix/bin/sparse"
