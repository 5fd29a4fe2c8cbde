# shellcheck shell=bash
# Common definitions for the harness scripts; sourced, never run.
# Its variables are for the scripts that source it:
# shellcheck disable=SC2034

HARNESS_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$HARNESS_ROOT/build}
CACHE_DIR=${CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/mglru-fg}
PATCH_DIR=${HARNESS_PATCH_DIR:-$HARNESS_ROOT/patches}
CONFIG_DIR=$HARNESS_ROOT/configs

# The git tree holding base + series, and the ORIG worktree (base only).
TREE=${HARNESS_TREE:-$BUILD_DIR/linux}
ORIG_TREE=${HARNESS_ORIG_TREE:-$BUILD_DIR/linux-orig}
BASE_TAG=mglru-fg-base
SERIES_BRANCH=mglru-fg

# The posting: its version (subject prefix "PATCH v$SERIES_VERSION") and the
# fixed identity that patches/ carries so that the export is reproducible;
# scripts/send.sh replaces it with the sender's own.
SERIES_VERSION=6
SERIES_IDENTITY="MGLRU-FG Developers <mglru-fg@example.org>"

# setting NAME: the user's value of the setting NAME (environment or make
# command line), else its default from scripts/settings.txt, the one place
# where the defaults are written.
setting() {
	local value=${!1:-}

	if [ -z "$value" ]; then
		value=$(awk -v name="$1" '$1 == name { print $2; exit }' "$HARNESS_ROOT/scripts/settings.txt")
		[ -n "$value" ] || die "no setting $1 in scripts/settings.txt"
	fi
	echo "$value"
}

log() { printf '[%s] %s\n' "${0##*/}" "$*" >&2; }
die() { printf '[%s] error: %s\n' "${0##*/}" "$*" >&2; exit 1; }

# with_progress WHAT CMD...: run CMD, logging "WHAT: N s so far" every 30
# s while it runs (with the output of the function named by $progress_count,
# if set, e.g. the objects built), so that a long step is never silent.
with_progress() {
	local what=$1 pid start=$SECONDS status=0 next=$((SECONDS + 30))
	shift
	"$@" &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		sleep 1
		[ $SECONDS -ge $next ] && kill -0 "$pid" 2>/dev/null || continue
		log "$what: $((SECONDS - start)) s so far${progress_count:+, $($progress_count)}"
		next=$((SECONDS + 30))
	done
	wait "$pid" || status=$?
	return $status
}

# free_gib DIR: GiB free on the file system that holds DIR (or, if DIR
# does not exist yet, its nearest existing parent)
free_gib() {
	local dir=$1

	while [ ! -d "$dir" ]; do dir=$(dirname "$dir"); done
	df -Pk "$dir" | awk 'NR == 2 { print int($4 / 1048576) }'
}

# used_gib DIR: GiB that DIR takes already (0 if it does not exist)
used_gib() {
	[ -d "$1" ] || { echo 0; return; }
	du -sk "$1" | awk '{ print int($1 / 1048576) }'
}

# need_disk DIR GIB WHAT: die unless DIR, with what it holds already, can
# grow to GIB GiB, so that a full disk is one clear error up front and not
# a dozen steps failing on "No space left on device"
need_disk() {
	local dir=$1 need=$2 what=$3 free used

	[ "$need" -gt 0 ] || return 0
	free=$(free_gib "$dir")
	used=$(used_gib "$dir")
	[ $((free + used)) -ge "$need" ] ||
		die "$what needs about $need GiB in $dir ($used GiB there already), but only $free GiB are free: free some space, or point BUILD_DIR at a bigger disk"
}

# Archive URIs from the machine's apt sources, one-line and deb822 formats.
apt_archive_uris() {
	local f

	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -r "$f" ] || continue
		awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i !~ /^\[/ && $i !~ /\]$/) { print $i; break } }' "$f"
	done
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -r "$f" ] || continue
		awk 'tolower($1) == "uris:" { for (i = 2; i <= NF; i++) print $i }' "$f"
	done
}

# fetch_from_archives POOL_PATH DEST: download POOL_PATH (below pool/, e.g.
# main/s/sparse/NAME) from the first archive of the apt sources that has
# it; fails if none has.
fetch_from_archives() {
	local uri url
	for uri in $(apt_archive_uris | grep -v -e security -e '^cdrom:' | awk '!seen[$0]++'); do
		url="${uri%/}/pool/${1//\~/%7e}"
		log "downloading $url"
		curl -fsSL --retry 2 -o "$2" "$url" && return 0
		log "not found at $uri"
	done
	return 1
}

# The values ACCEL and KARCH take (validate.sh, boot.sh, build-kernel.sh);
# each architecture is described by configs/arch/<name>.
ACCEL_CHOICES="tcg kvm auto icount"
KARCH_CHOICES="x86_64 i386 arm64"

# load_arch ARCH: set the ARCH_* variables of configs/arch/ARCH (the kernel's
# ARCH=, cross compiler, image, QEMU binary and machine, console).
load_arch() {
	local f=$CONFIG_DIR/arch/$1

	[ -f "$f" ] || die "unsupported architecture '$1' (one of: $KARCH_CHOICES)"
	# shellcheck source=/dev/null
	. "$f"
	ARCH_QEMU=${QEMU:-$ARCH_QEMU}
	LOADED_ARCH=$1
}

# kmake SRC OBJ MAKE-ARG...: the kernel's make for the loaded architecture
# (load_arch), out of tree in OBJ, on every CPU, through ccache if there is
# one; the one place that builds this command line.
kmake() {
	local src=$1 obj=$2 cc

	shift 2
	[ -n "${LOADED_ARCH:-}" ] || load_arch x86_64
	cc=${ARCH_CROSS}gcc
	command -v ccache >/dev/null && cc="ccache $cc"
	make -C "$src" O="$obj" ARCH="$ARCH_KERNEL" ${ARCH_CROSS:+CROSS_COMPILE=$ARCH_CROSS} \
		CC="$cc" -j"$(nproc)" "$@"
}

# The one QEMU command line of the harness: every boot (boot.sh, kunit.sh,
# demo-arm64.sh) starts from qemu_cmd.  KVM_PROBE: boot.sh's verdict on
# KVM for this host boot (a short probe boot; KVM guests hang on some hosts).
KVM_PROBE=$BUILD_DIR/kvm-probe

# qemu_accel: the accelerator for the loaded architecture from ACCEL: tcg,
# kvm, or auto (KVM only for the host's own architecture and only if
# boot.sh's probe found that it works; TCG until it has probed); icount is
# TCG on one thread with the guest's clock counting instructions, 1 ns
# each (-icount shift=0): timings that do not depend on the host's load.
qemu_accel() {
	local accel=${ACCEL:-auto}

	case $accel in
	tcg | icount) ;;
	kvm) [ "$ARCH_KVM" = 1 ] || die "ACCEL=kvm: no KVM for $LOADED_ARCH guests on this host" ;;
	auto)
		accel=tcg
		if [ "$ARCH_KVM" = 1 ] && [ -w /dev/kvm ] &&
			[ "$(head -n 1 "$KVM_PROBE" 2>/dev/null)" = "$(cat /proc/sys/kernel/random/boot_id)" ]; then
			accel=$(tail -n 1 "$KVM_PROBE")
		fi ;;
	*) die "ACCEL=$accel: use one of: $ACCEL_CHOICES" ;;
	esac
	echo "$accel"
}

# qemu_cmd ACCEL KERNEL APPEND: set QEMU_CMD to the loaded architecture's
# QEMU booting KERNEL with APPEND (after the console), MEM and CPUS, no
# display, monitor or default devices, the console on stdio; the caller
# adds its devices and runs it.
qemu_cmd() {
	local accel=$1 cpu=$ARCH_CPU_TCG

	command -v "$ARCH_QEMU" >/dev/null ||
		die "$ARCH_QEMU not found: install Debian's $ARCH_QEMU_PACKAGE (make deps)"
	[ "$accel" = kvm ] && cpu=host
	local -a icount=()
	[ "$accel" = tcg ] && accel="tcg,thread=multi"
	if [ "$accel" = icount ]; then
		# one instruction, one ns of guest time; idle time is skipped
		accel="tcg,thread=single"
		icount=(-icount "shift=0,sleep=off")
	fi
	QEMU_CMD=("$ARCH_QEMU" -accel "$accel" "${icount[@]}" ${ARCH_MACHINE:+-machine "$ARCH_MACHINE"}
		${cpu:+-cpu "$cpu"} -nodefaults -display none -no-reboot -monitor none
		-m "$(setting MEM)" -smp "$(setting CPUS)" -kernel "$2"
		-append "console=$ARCH_CONSOLE $3"
		-chardev "stdio,id=con,signal=off" -serial chardev:con)
}

# sha256_cached FILE: FILE's sha256, computed once per content: kept in
# CACHE_DIR under the file's path, size, inode and modification time, so
# that the many steps of one run that verify the base tarball (158 MB)
# hash it once.
sha256_cached() {
	local key dir=$CACHE_DIR/sha256 sum

	key=$(stat -L -c '%n %s %i %Y' "$(realpath "$1")" | sha256sum | cut -d' ' -f1) ||
		die "cannot stat $1"
	if [ -f "$dir/$key" ]; then
		cat "$dir/$key"
		return 0
	fi
	sum=$(sha256sum <"$1" | cut -d' ' -f1) || die "cannot read $1"
	mkdir -p "$dir"
	echo "$sum" >"$dir/$key.$$" && mv "$dir/$key.$$" "$dir/$key"
	echo "$sum"
}

# new_findings TIP BASE: the lines of TIP (a text) that BASE (a text) does
# not have, sorted: what matrix, sparse and coccinelle report, where only
# what the series adds counts.
new_findings() {
	comm -23 <(printf '%s\n' "$1" | sed '/^$/d' | sort -u) \
		<(printf '%s\n' "$2" | sed '/^$/d' | sort -u)
}

# Source tree for a build: SERIES=0 builds the base alone (the ORIG arm).
source_tree() {
	if [ "${SERIES:-1}" = 0 ]; then
		echo "$ORIG_TREE"
	else
		echo "$TREE"
	fi
}

# need_tree [--orig]: fail unless the kernel tree is made from patches/ as
# they are now (and, with --orig or SERIES=0, the base worktree is there).
# Only the entry points make trees (the make targets, check.sh's
# series-applies, stable.sh for the stable fix's own trees); the jobs
# below them check and never make one, so that one run tests one tree.
need_tree() {
	local hint="run 'make tree' (scripts/mktree.sh --orig) first"

	[ -d "$TREE/.git" ] || die "no kernel tree at $TREE: $hint"
	[ "$(git -C "$TREE" config mglru-fg.series-id || true)" = "$(series_id)" ] ||
		die "the kernel tree at $TREE is not made from patches/ as they are now: $hint"
	if [ "${1:-}" = --orig ] || [ "${SERIES:-1}" = 0 ]; then
		[ "$(git -C "$ORIG_TREE" rev-parse HEAD 2>/dev/null || true)" = \
			"$(git -C "$TREE" rev-parse "$BASE_TAG")" ] ||
			die "no base worktree at $ORIG_TREE: $hint"
	fi
	return 0
}

# Arm name used in build/log directory names and the kernel release:
# HARNESS_ARM (internal, set by scripts/stable.sh and bench/lib.sh for the
# stable fix's kernels) or else SERIES's.
arm_name() {
	if [ -n "${HARNESS_ARM:-}" ]; then
		echo "$HARNESS_ARM"
	elif [ "${SERIES:-1}" = 0 ]; then
		echo orig
	else
		echo fg
	fi
}

# The patches of the series in order (the cover letter is not one).
series_patches() {
	[ -d "$PATCH_DIR" ] || return 0
	find "$PATCH_DIR" -maxdepth 1 -name '[0-9][0-9][0-9][0-9]-*.patch' \
		! -name '0000-*' | sort
}

# Identity of the series content, to tell whether the tree must be rebuilt.
series_id() {
	local p

	series_patches | while read -r p; do sha256sum <"$p"; done | sha256sum | cut -d' ' -f1
}

# kernel_obj ARCH FRAGMENT...: the object directory of build-kernel.sh
# for these fragments on ARCH (of the arm SERIES selects); other
# architectures than x86_64 are named in it unless a fragment is.
kernel_obj() {
	local karch=$1 name

	shift
	name=$(IFS=+; echo "$*")
	case $karch-$name in x86_64-* | "$karch-$karch"*) ;; *) name=$karch-$name ;; esac
	echo "$BUILD_DIR/obj/$(arm_name)-$name"
}

# kernel_image ARCH FRAGMENT...: where build-kernel.sh puts that kernel's
# image (ARCH_IMAGE of configs/arch/ARCH).
kernel_image() {
	local obj image

	obj=$(kernel_obj "$@")
	image=$(load_arch "$1" && echo "$ARCH_IMAGE")
	echo "$obj/$image"
}

# guest_bin NAME: build scripts/guest/NAME.c statically into
# $BUILD_DIR/guest-bin (the guest reads it over its 9p root); print its path.
guest_bin() {
	local bin=$BUILD_DIR/guest-bin/$1

	mkdir -p "$BUILD_DIR/guest-bin"
	gcc -O2 -Wall -Wextra -Werror -static -o "$bin" "$HARNESS_ROOT/scripts/guest/$1.c" ||
		die "cannot build scripts/guest/$1.c"
	echo "$bin"
}

# guest_output CONSOLE-LOG: what the guest command printed, without the
# kernel's messages ("[   1.234567] ...") and the init's markers.
guest_output() {
	tr -d '\r' <"$1" |
		sed -n '/^harness-guest: running: /,/^MGLRU-FG-HARNESS-EXIT: /p' |
		sed -e '1d' -e '$d' | grep -v '^\[ *[0-9]*\.[0-9]*\] ' || true
}

# The debug kernel of the boot tests and the KUnit run: mm sanity checks,
# lockdep, KASAN, the series' KUnit suites, and ACPI (configs/smp.config),
# without which an x86 guest gets one CPU whatever QEMU's -smp says.
DEBUG_CONFIGS="base debug kunit smp numa faults"
# The series' KUnit suites: mm/tests/*_kunit.h, one KUNIT_CASE() per test.
# Those that need a non-root memcg, or the multi-gen LRU switched off
# (lru_gen_classic: no test flips that switch at boot), skip at boot and
# run after boot (scripts/boot/kunit-memcg.sh); their cases are
# lru_gen_test_memcg_* and lru_gen_test_classic_* (a grep pattern).
KUNIT_SUITE_DIR=mm/tests
KUNIT_LATE_SUITES="lru_gen_memcg lru_gen_memcg_dying lru_gen_classic"
KUNIT_LATE_CASES='lru_gen_test_\(memcg\|classic\)_'

# kunit_case_count TREE [PREFIX]: the KUNIT_CASE()s in TREE's suites (whose
# function names start with PREFIX)
kunit_case_count() {
	local f n=0

	for f in "$1/$KUNIT_SUITE_DIR"/*_kunit.h; do
		[ -f "$f" ] || die "no KUnit suites $KUNIT_SUITE_DIR/*_kunit.h in $1: is patch 17 in the series?"
		n=$((n + $(grep -c "^[[:space:]]*KUNIT_CASE(${2:-}" "$f" || true)))
	done
	echo "$n"
}

# Its command line.  acpi=noirq: on this kernel under TCG, ACPI's _PRT
# method ran into AE_AML_LOOP_TIMEOUT (30 s) routing PCI interrupts and
# left the virtio devices without one; the CPUs still come from ACPI.
# page_poison=1: freed pages are poisoned and checked on allocation.
DEBUG_CMDLINE="page_poison=1 acpi=noirq"

# Objects that include mm_inline.h, mmzone.h, memcontrol.h or swap.h and so
# see any change to the LRU helpers, whatever file a commit touches.
LRU_HEADER_USERS="mm/vmscan.o mm/workingset.o mm/folio.o mm/memcontrol.o mm/filemap.o
	mm/rmap.o mm/migrate.o mm/huge_memory.o mm/madvise.o fs/proc/task_mmu.o"

# series_objects: the objects a partial build of the series compiles,
# one per line: LRU_HEADER_USERS and the objects of the .c files the
# series touches but kernel/bounds.c, which every build's prepare step
# compiles.
series_objects() {
	# shellcheck disable=SC2086 # a list of objects
	(printf '%s\n' $LRU_HEADER_USERS
		git -C "$TREE" diff --name-only "$BASE_TAG" "$SERIES_BRANCH" -- '*.c' |
			grep -vx kernel/bounds.c | sed 's/\.c$/.o/') | sort -u
}

# configured_objects "OBJECT..." MAKE-COMMAND...: those of the OBJECTs that
# the kernel configuration of MAKE-COMMAND (a make of a kernel tree with
# its O=, ARCH=, CC=) compiles, one per line.  Asked for by name, kbuild
# compiles an object whatever the config says, so the partial builds of
# check-bisect.sh and check-matrix.sh ask this first.  After a real "make
# prepare", it is a dry run of kbuild over the objects' top directories
# (make -n lists the compiles without running them) with an extra
# compiler flag, so that objects already built count as out of date and
# are listed too.
configured_objects() {
	local objects=$1 dirs listing
	shift

	dirs=$(cut -d/ -f1 <<<"$objects" | sort -u | sed 's|$|/|')
	listing=$("$@" -s prepare 2>&1) || die "make prepare failed: $(tail -n 5 <<<"$listing")"
	# shellcheck disable=SC2086 # a list of directories
	listing=$("$@" -n KCFLAGS=-DCONFIGURED_OBJECTS_DRY_RUN $dirs 2>&1) ||
		die "dry run of 'make $dirs' failed: $(tail -n 5 <<<"$listing")"
	comm -12 <(sort -u <<<"$objects") \
		<(grep -oE ' -c -o [^ ]+\.o ' <<<"$listing" | awk '{ print $3 }' | sort -u)
}

# The CPU of the x86_64 guests under TCG is QEMU's "max" without 5-level
# paging.  identify_cpu() clears boot_cpu_data's feature bits, LA57 too,
# before it reads them again, with interrupts on, and until alternatives
# are patched pgtable_l5_enabled() reads LA57 from there.  An interrupt in
# that window had KASAN check a 5-level direct-map address (ff11...)
# against the 4-level layout and report a wild-memory-access in
# do_raw_spin_lock() from handle_edge_irq(), at 0.004 s of uptime, in
# about one debug boot in six (a base-kernel race, not the series').  The
# kernel's "no5lvl" would do too, but the guest init takes a bare word of
# the command line as its command.
# (The value is ARCH_CPU_TCG in configs/arch/x86_64.)

# Fixed build identity: an image depends on its sources only, and ccache
# can reuse objects across clean clones.
export KBUILD_BUILD_TIMESTAMP="2026-01-01" KBUILD_BUILD_USER=mglru-fg KBUILD_BUILD_HOST=harness
# The kernel's O= builds name their sources by absolute path; relative to
# BUILD_DIR, ccache finds the objects of another clone (CI's) too.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$BUILD_DIR}

# The commits of the series, oldest first, one per line.
series_commits() {
	git -C "$TREE" rev-list --reverse "$BASE_TAG..$SERIES_BRANCH"
}

# A worktree of the kernel tree for building single commits, at the base.
BISECT_TREE=$BUILD_DIR/linux-bisect
bisect_worktree() {
	if [ ! -e "$BISECT_TREE/.git" ]; then
		git -C "$TREE" worktree prune
		git -C "$TREE" worktree add --quiet --detach "$BISECT_TREE" "$BASE_TAG"
	fi
	git -C "$BISECT_TREE" checkout --quiet --detach "$BASE_TAG"
}
