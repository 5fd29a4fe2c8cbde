#!/bin/bash
# The kernel's own mm and memcg selftests on ORIG and FG: build the test
# programs once (from the base tree, against its UAPI headers), build both
# kernels with the same config ("base selftests"), boot each under QEMU and
# run the programs there (scripts/guest/selftests.sh), then compare the
# results test case by test case (scripts/boot/selftests-parity.sh) into
# build/logs/selftests-parity.md.
#
# usage: selftests.sh [LABEL...]     (default: every program of the guest's list)
#        selftests.sh --build-only  (both kernels and the programs; no boot)
#
# Fails if a test case passing on ORIG does not pass on FG, if a skip
# differs, or if the FG console shows a kernel problem (OOM-killer reports
# are expected: test_memcontrol provokes memcg OOMs).
# Environment: MEM [2G] (khugepaged's collapse_compound_extreme faults in
# 512 THPs), CPUS [3] (migration needs 3), BOOT_TIMEOUT [1200],
# HARNESS_SELFTESTS_BUILT=1 (internal: reuse the programs and kernels as built).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
build_only=0
if [ "${1:-}" = --build-only ]; then
	build_only=1
	shift
fi

S=$HARNESS_ROOT/scripts
ST=$BUILD_DIR/selftests
CONFIGS="base selftests"
MM_PROGS="cow khugepaged split_huge_page_test madv_populate mlock2-tests
	mlock-random-test migration pagemap_ioctl soft-dirty ksm_tests
	ksm_functional_tests mkdirty"
export MEM=${MEM:-2G} CPUS=${CPUS:-3}
# Two emulated NUMA nodes for migration and ksm_tests -N.
export HARNESS_CMDLINE="numa=fake=2 ${HARNESS_CMDLINE:-}"

# Libraries the programs link with (migration/ksm_tests: libnuma;
# mlock-random-test: libcap; cow: liburing, optional upstream, wanted here).
missing=()
for need in numa.h:libnuma-dev sys/capability.h:libcap-dev liburing.h:liburing-dev; do
	[ -e "/usr/include/${need%%:*}" ] || missing+=("${need#*:}")
done
[ ${#missing[@]} -eq 0 ] ||
	die "missing packages: ${missing[*]}; run as root: apt-get install ${missing[*]}"

build_programs() {
	local src=$ORIG_TREE/tools/testing/selftests targets=() p

	log "building the selftest programs from $ORIG_TREE"
	mkdir -p "$ST/hdr" "$ST/bin/mm" "$ST/bin/cgroup"
	make -s -C "$ORIG_TREE" O="$ST/hdr" ARCH=x86_64 headers >/dev/null
	for p in $MM_PROGS; do targets+=("$ST/bin/mm/$p"); done
	make -s -C "$src/mm" OUTPUT="$ST/bin/mm" KHDR_INCLUDES="-isystem $ST/hdr/usr/include" \
		-j"$(nproc)" "${targets[@]}" >/dev/null
	make -s -C "$src/cgroup" OUTPUT="$ST/bin/cgroup" KHDR_INCLUDES="-isystem $ST/hdr/usr/include" \
		"$ST/bin/cgroup/test_memcontrol" >/dev/null
}

# The console minus the memcg OOM-killer reports, which carry a "Call
# Trace:" by design; anything else (a global OOM too) goes to
# check-console.sh.
console_check() { # console_check LOG -> prints a note, fails on problems
	local log=$1 filtered=$1.filtered

	tr -d '\r' <"$log" | awk '
		/invoked oom-killer:/ { n = 0; oom = 1 }
		oom { buf[n++] = $0 }
		oom && /Memory cgroup out of memory: Killed process/ { oom = 0; next }
		oom && /Out of memory: Killed process/ {
			for (i = 0; i < n; i++) print buf[i]
			oom = 0; next
		}
		!oom
		END { if (oom) for (i = 0; i < n; i++) print buf[i] }' >"$filtered"
	if "$S/check/console.sh" "$filtered" 2>"$log.problems"; then
		echo "clean ($(grep -a -c 'invoked oom-killer' "$log" || true) memcg OOM-killer reports)"
	else
		echo "KERNEL PROBLEMS (see ${log#"$HARNESS_ROOT"/}.problems)"
		return 1
	fi
}

need_tree --orig
declare -A kernel
start=$SECONDS
if [ "${HARNESS_SELFTESTS_BUILT:-0}" = 1 ]; then
	for arm in orig fg; do
		series=1
		[ $arm = orig ] && series=0
		# shellcheck disable=SC2086 # a list of fragment names
		kernel[$arm]=$(SERIES=$series "$S/build-kernel.sh" --configure-only $CONFIGS >/dev/null &&
			echo "$BUILD_DIR/obj/$arm-${CONFIGS// /+}/arch/x86/boot/bzImage")
	done
else
	# Both kernels and the programs build at once: the link of a kernel
	# (vmlinux, kallsyms, objtool) runs on one CPU, which the other build
	# then uses.
	mkdir -p "$ST"
	declare -A pid
	for arm in orig fg; do
		series=1
		[ $arm = orig ] && series=0
		# shellcheck disable=SC2086 # a list of fragment names
		SERIES=$series "$S/build-kernel.sh" $CONFIGS >"$ST/kernel-$arm" 2>"$ST/build-$arm.log" &
		pid[$arm]=$!
	done
	build_programs 2>"$ST/build-programs.log" &
	pid[programs]=$!
	for job in orig fg programs; do
		wait "${pid[$job]}" ||
			die "building $job failed: $(tail -n 20 "$ST/build-$job.log")"
		log "$job built at $((SECONDS - start)) s"
	done
	kernel[orig]=$(cat "$ST/kernel-orig")
	kernel[fg]=$(cat "$ST/kernel-fg")
fi
log "builds took $((SECONDS - start)) s"
[ $build_only = 0 ] || exit 0

# Own disk images, so that a boot elsewhere in build/ cannot clobber them;
# reuse the KVM probe's verdict.
vm=$ST/vm
mkdir -p "$vm" "$BUILD_DIR/logs"
[ -f "$BUILD_DIR/kvm-probe" ] && cp "$BUILD_DIR/kvm-probe" "$vm/kvm-probe"
status=0
declare -A note
for arm in orig fg; do
	out=$ST/out-$arm
	rm -rf "$out"
	mkdir -p "$out"
	con=$BUILD_DIR/logs/selftests-$arm.log
	t0=$SECONDS
	rc=0
	BUILD_DIR=$vm HARNESS_OUT_DIR=$out HARNESS_CONSOLE_LOG=$con HARNESS_QUIET=1 BOOT_TIMEOUT=${BOOT_TIMEOUT:-1200} \
		"$S/boot/boot.sh" "${kernel[$arm]}" "$S/guest/selftests.sh" "$ST/bin" /mnt/out "$@" || rc=$?
	log "$arm: guest ran $((SECONDS - t0)) s (status $rc); console: $con"
	echo "$((SECONDS - t0))" >"$out/wall_s"
	[ $rc = 0 ] || { log "$arm: the guest failed (status $rc)"; status=1; }
	if ! note[$arm]=$(console_check "$con"); then
		[ $arm = fg ] && status=1
	fi
	log "$arm console: ${note[$arm]}"
done

HARNESS_ORIG_CONSOLE_NOTE="${note[orig]}" HARNESS_FG_CONSOLE_NOTE="${note[fg]}" \
HARNESS_EXTRA_NOTE="Boot to power-off: ORIG $(cat "$ST/out-orig/wall_s") s, FG $(cat "$ST/out-fg/wall_s") s (TCG, $CPUS CPUs, $MEM, numa=fake=2)." \
	"$S/boot/selftests-parity.sh" "$ST/out-orig" "$ST/out-fg" "$BUILD_DIR/logs/selftests-parity.md" || status=1
log "report: $BUILD_DIR/logs/selftests-parity.md"
exit $status
