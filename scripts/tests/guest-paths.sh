#!/bin/bash
# Harness self-test with a kernel: a checkout under /tmp or $HOME, where
# the guest mounts tmpfs, boots a guest command from its own scripts/ and
# hands it a file of its own.  Each case copies
# this checkout's tracked files (as they are in the work tree) into a
# fresh folder and runs that copy's boot.sh.
# usage: selftest-guest-paths.sh BZIMAGE
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

kernel=${1:?usage: selftest-guest-paths.sh BZIMAGE}
[ -f "$kernel" ] || die "no kernel image at $kernel"
kernel=$(realpath "$kernel")	# the cases run in their copies
passed=0
failed=0
dirs=()
trap 'rm -rf "${dirs[@]}"' EXIT

# fresh_copy PARENT: a copy of this checkout's tracked files in a new
# folder below PARENT; prints its path.
fresh_copy() {
	local dir

	dir=$(mktemp -d "$1/mglru-fg-paths.XXXXXX")
	git -C "$HARNESS_ROOT" ls-files -z | (cd "$HARNESS_ROOT" && tar --null -T - -cf -) |
		tar -xf - -C "$dir"
	echo "$dir"
}

# boot_from PARENT: the case for a checkout below PARENT.
boot_from() {
	local dir out status=0 want

	dir=$(fresh_copy "$1")
	dirs+=("$dir")
	want="hello from $dir/scripts/guest: # MGLRU-FG"
	# DEBUG_CMDLINE: the debug kernel of make check is the image at hand
	out=$(cd "$dir" && HARNESS_QUIET=1 ACCEL=tcg CPUS=1 MEM=512M BOOT_TIMEOUT=300 \
		HARNESS_CMDLINE="$DEBUG_CMDLINE" \
		HARNESS_CONSOLE_LOG="$dir/console.log" scripts/boot/boot.sh "$kernel" \
		scripts/guest/hello.sh "$dir/README.md" 2>&1) || status=$?
	if [ $status = 0 ] && tr -d '\r' <"$dir/console.log" | grep -qxF "$want"; then
		passed=$((passed + 1))
		echo "ok - a checkout under $1 boots its guest command"
	else
		failed=$((failed + 1))
		echo "not ok - a checkout under $1 boots its guest command (status $status): $out"
		[ ! -f "$dir/console.log" ] ||
			guest_output "$dir/console.log" | tail -n 5 | sed 's/^/    /'
	fi
}

boot_from /tmp
boot_from "$HOME"
echo "guest path self-tests: $passed passed, $failed failed"
[ $failed = 0 ]
