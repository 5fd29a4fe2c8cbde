#!/bin/bash
# A trivial guest command for the harness's own tests: proves that the
# guest reached this checkout and the file given as $1 (a host path).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ -r "${1:?usage: hello.sh HOST-FILE}" ] || { echo "hello: cannot read $1" >&2; exit 1; }
echo "hello from $(dirname "$(realpath "$0")"): $(head -c 64 "$1" | head -n 1)"
touch /tmp/hello && rm /tmp/hello	# the writable tmpfs is still there
