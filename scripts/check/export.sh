#!/bin/bash
# patches/ must be exactly what exporting the trees gives: fails if an
# export of the applied series, or of the stable fix's tree, differs from
# the committed files.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
need_tree
[ ! -d "$PATCH_DIR" ] || cp -a "$PATCH_DIR/." "$tmp/"
# Export into a scratch copy so that patches/ itself is never rewritten.
HARNESS_PATCH_DIR=$tmp "$HARNESS_ROOT/scripts/export-series.sh"
git -C "$TREE" config mglru-fg.series-id "$(series_id)"
mkdir -p "$PATCH_DIR"
if ! diff -ru --exclude=stable "$PATCH_DIR" "$tmp" >&2; then
	die "patches/ differs from 'make export' of the tree"
fi
# The stable fix and its test too, from their tree on 7.3 (the 7.2
# backport needs the 7.2 tarball, which make check does not fetch); the
# series in $tmp is now patches/'s, so the tree passes stable.sh's need_tree.
HARNESS_PATCH_DIR=$tmp "$HARNESS_ROOT/scripts/stable.sh" tree >/dev/null
HARNESS_PATCH_DIR=$tmp "$HARNESS_ROOT/scripts/stable.sh" export
if ! diff -ru "$PATCH_DIR" "$tmp" >&2; then
	die "patches/ differs from 'make export' of the tree"
fi
log "patches/ matches the exported series ($(series_patches | wc -l) patches)"
