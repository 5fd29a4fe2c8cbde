# MGLRU-FG: the patch series and the harness that builds, boots and tests it.
#
#   make            get the base, apply patches/, build, boot under QEMU, demo
#   make check      the test suite (what CI runs)
#
# Knobs (environment or command line): LINUX_TARBALL, KERNEL_SRC, KERNEL_REF,
# ACCEPT_BASE=1, SERIES=0 (base without the series), BUILD_DIR, MEM, CPUS,
# ACCEL (tcg|kvm|auto), BOOT_TIMEOUT, SMOKE_SECONDS.  See README.md.

SHELL := /bin/bash
CONFIGS ?= base

.PHONY: all demo check check-full check-list test-harness validate deps tree trees export send build smoke kunit kunit-memcg stable stable-series accounting-series kunit-mutations matrix cocci sparse bench bench-all bench-stale bench-quick selftests soak soak-mutations kcsan clean distclean help

# Same as make demo.
all: demo

# Every target with its comment, then every setting.
help:
	@sed -n 's/^#   //p' Makefile
	@echo; echo "Targets:"
	@awk '/^# / { c = c (c ? " " : "") substr($$0, 3); next } /^[A-Z_]+ \?=/ { next } \
		/^[a-z%-]+:/ && c { sub(/:.*/, ""); printf "  %-18s %s\n", $$0, c } { c = "" }' Makefile
	@echo; echo "Settings (environment or command line; default, meaning):"
	@grep -v '^#' scripts/settings.txt | sed 's/^/  /'

# Check the settings: every target that builds or boots does it first.
validate:
	@CONFIGS="$(CONFIGS)" KUNIT_CONFIGS="$(KUNIT_CONFIGS)" KARCH="$(KARCH)" scripts/validate.sh

# Install the missing Debian packages (as root; else print the apt-get line).
deps: validate
	@scripts/deps.sh

# Get the base, apply patches/, build, boot under QEMU and run the MGLRU demo
# (KARCH=arm64: cross-built, in qemu-system-aarch64 -M virt).
demo: tree
	@scripts/boot/demo.sh

# The test suite, what CI runs (docs/check.md): the steps of tier "check"
# of make check-list (aimed at 45 minutes cold on 2 cores; docs/check.md).
check: deps
	@scripts/check.sh

# Every step, both tiers: every commit's builds, the config matrix, the
# stable fix, the no-spare-bit KUnit kernel, the selftests parity.  Run it
# before posting the series or resolving a change to patches/.
check-full: deps
	@scripts/check.sh --full

# One step of make check and the steps it needs first, e.g. make check-sparse
# or make check-smoke (which builds the debug kernel first).
check-%: deps
	@scripts/check.sh --only $*

# The steps of make check and check-full: name, tier, the step it needs first, command.
check-list:
	@scripts/check.sh --list

# The harness's own tests, in seconds: tooling self-tests and shellcheck, and the selftests parity check on canned results.
test-harness:
	@scripts/tests/harness.sh
	@scripts/tests/parity.sh

# The kernel tree: base commit + one commit per patch (SERIES=0: base worktree too).
# The targets below make it first; the scripts they run only check it.
tree: deps
	@scripts/mktree.sh $(if $(filter 0,$(SERIES)),--orig)

# The kernel tree and the base worktree, for the targets that build both arms.
trees: deps
	@scripts/mktree.sh --orig

# Write the tree's commits back into patches/ (after editing them with git rebase).
export:
	@scripts/export-series.sh

# Mail patches/ as yourself (git config user.name/user.email): a dry run into
# build/send/ unless SEND=1.  To/Cc come from the tree's get_maintainer.pl.
send: tree
	@scripts/send.sh

# Build a kernel from configs/$(CONFIGS) fragments, e.g. CONFIGS="base debug".
build: deps
	@scripts/mktree.sh $(if $(filter 0,$(SERIES)),--orig)
	@scripts/build-kernel.sh $(CONFIGS)

# The boot smoke test alone: debug kernel, memcg pressure, console check.
smoke: tree
	@scripts/boot/smoke.sh

# The KUnit suites of the series, booted under QEMU: KARCH=x86_64 (KASAN) or arm64;
# KUNIT_CONFIGS adds fragments, e.g. KUNIT_CONFIGS=refs-width-0 (no spare refs bit).
KARCH ?= x86_64
kunit: tree
	@scripts/boot/kunit.sh $(KARCH) $(KUNIT_CONFIGS)

# The same suites run again after boot from a cgroup of their own (x86_64's
# debug kernel), with the suites that need a non-root or a dying memcg.
kunit-memcg: tree
	@scripts/boot/kunit-memcg.sh

# boot-accounting at every commit from patch 9 on (about an hour; once per
# change of the series, not in make check).
accounting-series: tree
	@scripts/check/accounting-series.sh

# Mutation check of the KUnit suites: each scripts/kunit-mutations/*.diff
# breaks one rule; every one must fail at least one case (about 15 min).
kunit-mutations: tree
	@scripts/check/kunit-mutations.sh $(KARCH)

# The standalone stable fix (patches/stable/) on STABLE_BASE=7.3 (default) or
# 7.2: build its KUnit kernel (configs/kunit-min), run its placement test, boot the demo.
STABLE_BASE ?= 7.3
stable: tree
	@STABLE_BASE=$(STABLE_BASE) scripts/stable.sh kunit
	@STABLE_BASE=$(STABLE_BASE) scripts/stable.sh demo

# The series on top of the stable fix (patches/stable/on-fix/ for the patches
# that differ there): it must end in the series' own tree.
stable-series: tree
	@scripts/stable.sh series

# W=1 builds of the touched objects in the extra configs (MEMCG=n, LRU_GEN=n,
# no THP, no swap, btrfs/erofs, i386, arm64); make cocci: coccinelle on the
# touched files.
matrix: tree
	@scripts/check/matrix.sh

# Coccinelle on the touched files, base vs series.
cocci: tree
	@scripts/check/cocci.sh

# sparse on the touched files, base vs series (builds sparse 0.6.5~rc1 into the cache if needed).
sparse: tree
	@scripts/check/sparse.sh

# One CLRU/ORIG/FG benchmark into bench/results/DATE-NAME.md: BENCH_CONF=
# bench/zipf.conf (default), sweep, mixed, sqlite, pgbench, ... (bench/README.md).
BENCH_CONF ?= bench/zipf.conf
bench: trees
	@bench/run-all.sh --no-summary $(BENCH_CONF)

# The whole suite, one report each plus bench/results/DATE-summary.md.
bench-all: trees
	@bench/run-all.sh

# Which reports of bench/results/ ran on the series at HEAD (fails if any is stale); writes bench/results/INDEX.md.
bench-stale:
	@bench/stale.sh --index

# Pipeline check of the Zipf benchmark: bound's unit tests + bench/quick.conf
# on every arm (about 90 s once both kernels are built); make check runs it
# with BENCH_CONFIGS="base selftests".
bench-quick: trees
	@bench/check-quick.sh

# The kernel's mm and memcg selftests on ORIG and FG, with a parity report
# (build/logs/selftests-parity.md); docs/selftests.md.  make check runs a
# subset (SELFTESTS_CHECK in scripts/check.sh).
selftests: trees
	@scripts/boot/selftests.sh

# stress-ng soak of the debug kernel with lru_gen flips and memcg churn;
# SOAK_MODE=migrate adds NUMA migration and compaction, faults allocation failures.
soak: tree
	@scripts/boot/soak.sh

# The migration soak against kernels broken on purpose (scripts/soak-mutations/).
soak-mutations: tree
	@scripts/check/soak-mutations.sh

# KCSAN on ORIG and FG under the smoke, churn and soak loads; new reports (docs/kcsan.md).
kcsan: trees
	@scripts/boot/kcsan.sh

# Remove build outputs, keep the kernel tree.
clean:
	rm -rf build/obj build/logs build/disks

# Remove everything generated, including the kernel tree.
distclean:
	rm -rf build
