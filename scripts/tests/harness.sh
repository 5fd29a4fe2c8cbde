#!/bin/bash
# Self-tests of the harness: each case checks that bad input gives a clear
# error (or good input the expected result) without building a kernel.
# Prints one line per case and "N passed, M failed"; exits 1 on a failure.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
S=$HARNESS_ROOT/scripts

# expect_fail NAME PATTERN CMD...: CMD must fail and print PATTERN.
expect_fail() {
	local name=$1 pattern=$2 out
	shift 2
	if out=$("$@" 2>&1); then
		result "$name" 1 "succeeded, expected an error"
	elif grep -qF -- "$pattern" <<<"$out"; then
		result "$name" 0
	else
		result "$name" 1 "error did not say '$pattern': $out"
	fi
}

# expect_ok NAME CMD...: CMD must succeed.
expect_ok() {
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then
		result "$name" 0
	else
		result "$name" 1 "$out"
	fi
}

result() {
	if [ "$2" = 0 ]; then
		passed=$((passed + 1))
		echo "ok - $1"
	else
		failed=$((failed + 1))
		echo "not ok - $1: $3"
	fi
}

# expect_true NAME CMD...: CMD must succeed (a condition, output ignored).
expect_true() {
	local name=$1
	shift
	if "$@" >/dev/null 2>&1; then
		result "$name" 0
	else
		result "$name" 1 "condition false: $*"
	fi
}

# A tiny git tree stands in for a kernel checkout (KERNEL_SRC).
mk_toy_tree() {
	git init -q -b main "$tmp/src"
	printf 'line %s\n' 1 2 3 4 5 >"$tmp/src/file.c"
	git -C "$tmp/src" add file.c
	git -C "$tmp/src" -c user.name=t -c user.email=t@t commit -qm base
	git -C "$tmp/src" checkout -q -b work
	sed -i 's/line 3/line three/' "$tmp/src/file.c"
	git -C "$tmp/src" -c user.name=t -c user.email=t@t commit -qam "toy: change line 3" -m "Signed-off-by: t <t@t>"
	mkdir -p "$tmp/good" "$tmp/bad" "$tmp/none" "$tmp/export"
	git -C "$tmp/src" format-patch -q --zero-commit --no-signature -o "$tmp/good" main..work
	sed 's/line 3/line 33/; s/line three/line 333/' "$tmp/good/0001-toy-change-line-3.patch" \
		>"$tmp/bad/0001-toy-change-line-3.patch"
	git -C "$tmp/src" checkout -q main
}

toy() { # toy PATCHDIR SCRIPT...: run a harness script on the toy tree
	local pd=$1
	shift
	env KERNEL_SRC="$tmp/src" HARNESS_PATCH_DIR="$pd" BUILD_DIR="$tmp/build-${pd##*/}" "$@"
}

head -c 4096 /dev/urandom >"$tmp/garbage.tar.xz"
expect_fail "wrong tarball checksum is refused" "sha256 mismatch" \
	env LINUX_TARBALL="$tmp/garbage.tar.xz" "$S/get-base.sh"
expect_fail "missing tarball is reported" "no such file" \
	env LINUX_TARBALL="$tmp/absent.tar.xz" "$S/get-base.sh"
expect_ok "ACCEPT_BASE=1 takes another tarball" \
	env LINUX_TARBALL="$tmp/garbage.tar.xz" ACCEPT_BASE=1 "$S/get-base.sh"

mk_toy_tree
expect_fail "a patch that does not apply is named" "does not apply: " \
	toy "$tmp/bad" "$S/mktree.sh"
expect_fail "the failing patch's file name is given" "0001-toy-change-line-3.patch" \
	toy "$tmp/bad" "$S/mktree.sh"
expect_fail "a patch the base already has is named" "already in the base" \
	env KERNEL_REF=work BUILD_DIR="$tmp/build-work" KERNEL_SRC="$tmp/src" HARNESS_PATCH_DIR="$tmp/good" "$S/mktree.sh"
expect_ok "a good series applies" toy "$tmp/good" "$S/mktree.sh"
n=$(git -C "$tmp/build-good/linux" rev-list --count mglru-fg-base..mglru-fg 2>/dev/null || echo none)
expect_true "one commit per patch (got $n)" [ "$n" = 1 ]
expect_ok "zero patches work" toy "$tmp/none" "$S/mktree.sh"
# make check's table: a step whose prerequisite failed is NOT RUN and
# counts as one failure; an unknown step is refused
out=$(CHECK_DISK_GB=0 toy "$tmp/bad" "$S/check.sh" --only checkpatch 2>&1) && status=0 || status=$?
expect_true "check.sh: a failed prerequisite's step is NOT RUN" \
	grep -q '^checkpatch *NOT RUN (series-applies did not pass)$' <<<"$out"
expect_true "check.sh: it counts once, and the run fails (status $status)" \
	grep -qE '^0 passed, 2 failed \(series-applies checkpatch\) in ' <<<"$out"
expect_true "check.sh: a run with a failure exits non-zero" [ "$status" != 0 ]
expect_fail "check.sh: an unknown step is refused" "no step 'nope'" "$S/check.sh" --only nope
expect_fail "check.sh: too little disk is one error up front" "but only" \
	env CHECK_DISK_GB=1000000 BUILD_DIR="$tmp/build-disk" "$S/check.sh" --only harness-selftest
# the two tiers: make check leaves the every-commit and every-config
# steps to make check-full, and no step of make check waits on one of them
list=$("$S/check.sh" --list)
expect_true "check.sh --list: every step is of tier check or full" \
	awk '$2 != "check" && $2 != "full" { exit 1 }' <<<"$list"
for s in bisect-build matrix stable-kunit kunit-width-0 selftests-parity; do
	expect_true "check.sh: $s is of tier full" grep -qE "^$s +full " <<<"$list"
done
for s in checkpatch sparse cocci kunit kunit-memcg boot-refs-api bench-quick; do
	expect_true "check.sh: $s is of tier check" grep -qE "^$s +check " <<<"$list"
done
expect_true "check.sh: no step of tier check needs one of tier full" \
	awk '{ t[$1] = $2 } $2 == "check" && $3 != "-" && t[$3] != "check" { exit 1 }' <<<"$list"
n_check=$(awk '$2 == "check"' <<<"$list" | wc -l)
n_all=$(wc -l <<<"$list")
expect_true "README: make check's $n_check steps" grep -q "the $n_check steps of tier \"check\"" "$HARNESS_ROOT/README.md"
expect_true "README: make check-full's $n_all steps" grep -q "runs all $n_all steps" "$HARNESS_ROOT/README.md"
# Downhill: only the entry points make the kernel tree (the make targets,
# check.sh's series-applies, stable.sh for the stable fix's 7.2 tree);
# every job below them checks it (need_tree) and never remakes it.
makers=$(cd "$HARNESS_ROOT" && grep -rlE '/mktree\.sh"' scripts bench --include='*.sh' |
	grep -vxE 'scripts/(check|stable)\.sh|scripts/tests/.*' || true)
expect_true "only check.sh and stable.sh call mktree.sh (also: ${makers:-none})" [ -z "$makers" ]
expect_fail "a job below the entry points refuses a tree that patches/ did not make" \
	"is not made from patches/ as they are now" \
	env KERNEL_REF=work BUILD_DIR="$tmp/build-good" HARNESS_PATCH_DIR="$tmp/none" \
	bash -c '. "$0/scripts/lib.sh"; need_tree' "$HARNESS_ROOT"
expect_ok "need_tree passes the tree that patches/ made" \
	env BUILD_DIR="$tmp/build-good" HARNESS_PATCH_DIR="$tmp/good" \
	bash -c '. "$0/scripts/lib.sh"; need_tree' "$HARNESS_ROOT"
expect_fail "need_tree names the missing tree" "no kernel tree at" \
	env BUILD_DIR="$tmp/build-absent" bash -c '. "$0/scripts/lib.sh"; need_tree' "$HARNESS_ROOT"

# Round trip: patches -> tree -> patches must not change a byte, even
# after the tree is thrown away and rebuilt from the exported files.
cp -r "$tmp/good/." "$tmp/export/"
toy "$tmp/export" "$S/mktree.sh" >/dev/null 2>&1 || true
expect_ok "export runs" toy "$tmp/export" "$S/export-series.sh"
cp -r "$tmp/export" "$tmp/export1"
rm -rf "$tmp/build-export"
toy "$tmp/export" "$S/mktree.sh" >/dev/null 2>&1 || true
expect_ok "export after rebuilding the tree runs" toy "$tmp/export" "$S/export-series.sh"
expect_true "export is byte-identical across tree rebuilds" diff -r "$tmp/export1" "$tmp/export"
files=$(ls "$tmp/export" | tr '\n' ' ')
expect_true "export writes a cover letter and one file per commit (got $files)" \
	[ "$files" = "0000-cover-letter.patch 0001-toy-change-line-3.patch " ]
expect_ok "mktree after export leaves the tree alone" toy "$tmp/export" "$S/mktree.sh"

: >"$tmp/bzImage"
expect_fail "missing QEMU is reported" "qemu-system-x86_64 not found" \
	env QEMU=/nonexistent/qemu-system-x86_64 BUILD_DIR="$tmp/b" "$S/boot/boot.sh" "$tmp/bzImage" /bin/true
expect_fail "missing kernel image is reported" "no kernel image" \
	env BUILD_DIR="$tmp/b" "$S/boot/boot.sh" "$tmp/absent" /bin/true
expect_fail "unknown config fragment is refused" "no config fragment" \
	"$S/build-kernel.sh" no-such-fragment

printf '[    1.0] Linux version 7.3.0\n[    2.0] ok\n' >"$tmp/clean.log"
printf '[    1.0] Linux version 7.3.0\r\n[    2.0] WARNING: CPU: 0 PID: 1 at mm/vmscan.c:1 f+0x1/0x2\r\n' >"$tmp/warn.log"
printf '[    5.0] rcu: INFO: rcu_preempt self-detected stall on CPU\n' >"$tmp/stall.log"
expect_ok "a clean console log passes" "$S/check/console.sh" "$tmp/clean.log"
expect_fail "a WARNING in the console fails" "WARNING: CPU" "$S/check/console.sh" "$tmp/warn.log"
expect_fail "an RCU stall in the console fails" "self-detected stall" "$S/check/console.sh" "$tmp/stall.log"
printf 'stress-ng: warn:  [384] memfd: WARNING: finished prematurely after just 25.01s\n' >"$tmp/stress.log"
expect_ok "stress-ng's own WARNING passes" "$S/check/console.sh" "$tmp/stress.log"
cat "$tmp/warn.log" >>"$tmp/stress.log"
expect_fail "a kernel WARNING after stress-ng's still fails" "WARNING: CPU" "$S/check/console.sh" "$tmp/stress.log"

# scripts/boot/kcsan.sh --compare: a pair of racing functions that FG
# reports and ORIG does not fails if a top frame is the series' code
kcsan_report() { # kcsan_report F1 F2: a console KCSAN report of a race between F1 and F2
	printf '[    3.0] ==================================================================\n'
	printf '[    3.0] BUG: KCSAN: data-race in %s / %s\n[    3.0] \n' "$1" "$2"
	printf '[    3.0] write to 0xffff888003f0 of 8 bytes by task 7 on cpu 0:\n'
	printf '[    3.0]  %s+0x1d/0x30\n[    3.0]  caller_a+0x9/0xd0\n[    3.0] \n' "$1"
	printf '[    3.0] read to 0xffff888003f0 of 8 bytes by task 8 on cpu 1:\n'
	printf '[    3.0]  %s+0x10/0x20\n[    3.0]  caller_b+0x9/0xd0\n[    3.0] \n' "$2"
	printf '[    3.0] value changed: 0x01 -> 0x02\n[    3.0] \n'
	printf '[    3.0] Reported by Kernel Concurrency Sanitizer on:\n'
	printf '[    3.0] ==================================================================\n'
}
{ kcsan_report ext4_a ext4_b; } >"$tmp/kcsan-orig.log"
{ kcsan_report ext4_b ext4_a; kcsan_report other_x other_y; } >"$tmp/kcsan-fg-other.log"
{ kcsan_report ext4_a ext4_b; kcsan_report lru_gen_inc_refs other_y; } >"$tmp/kcsan-fg-series.log"
printf 'lru_gen_inc_refs\nfolio_lruvec_live_get\n' >"$tmp/kcsan-funcs"
expect_ok "kcsan: a new pair outside the series' functions passes" \
	"$S/boot/kcsan.sh" --compare "$tmp/kcsan-orig.log" "$tmp/kcsan-fg-other.log" "$tmp/kcsan.md" "$tmp/kcsan-funcs"
expect_true "kcsan: the report lists the new pair, not the one both arms have (in either order)" \
	sh -c "grep -q '^| other_x / other_y | 1 | no |' '$tmp/kcsan.md' && ! grep -q 'ext4_a / ext4_b |' '$tmp/kcsan.md'"
expect_fail "kcsan: a new pair in the series' functions fails" "new KCSAN report in the series' code: lru_gen_inc_refs / other_y" \
	"$S/boot/kcsan.sh" --compare "$tmp/kcsan-orig.log" "$tmp/kcsan-fg-series.log" "$tmp/kcsan.md" "$tmp/kcsan-funcs"
# console.sh --ignore-kcsan: KCSAN's reports pass, anything else still fails
expect_fail "a KCSAN report fails the console check by default" "BUG: KCSAN" \
	"$S/check/console.sh" "$tmp/kcsan-fg-other.log"
expect_ok "console.sh --ignore-kcsan passes KCSAN's reports" \
	"$S/check/console.sh" --ignore-kcsan "$tmp/kcsan-fg-other.log"
cat "$tmp/kcsan-fg-other.log" "$tmp/warn.log" >"$tmp/kcsan-warn.log"
expect_fail "console.sh --ignore-kcsan still fails on a WARNING after them" "WARNING: CPU" \
	"$S/check/console.sh" --ignore-kcsan "$tmp/kcsan-warn.log"

# bench/stale.sh: a report at HEAD is current, an experiment (C-modified)
# is listed as one and does not fail, a report naming no commit fails
head=$(git -C "$HARNESS_ROOT" rev-parse --short=7 HEAD)
series_line() { printf 'Series: patches/ at commit %s of this repository, on the base.\n' "$1"; }
series_line "$head" >"$tmp/current.md"
series_line "$head-modified" >"$tmp/experiment.md"
echo "no series line" >"$tmp/nocommit.md"
expect_true "bench/stale.sh finds a report at HEAD current" \
	eval '"$HARNESS_ROOT/bench/stale.sh" "$tmp/current.md" | grep -q "^current "'
expect_true "bench/stale.sh lists an experiment as one, without failing" \
	eval '"$HARNESS_ROOT/bench/stale.sh" "$tmp/experiment.md" | grep -q "^experiment .*at $head$"'
expect_fail "bench/stale.sh fails on a report that names no commit" "names no series commit" \
	"$HARNESS_ROOT/bench/stale.sh" "$tmp/nocommit.md"
# --index: the newest current report per workload; an EXP arm is an experiment
{ echo 'Command: `BENCH_CONF=bench/scan.conf bench/run-workload.sh`'; series_line "$head"; } >"$tmp/2026-01-01-a.md"
{ echo 'Command: `BENCH_CONF=bench/scan.conf bench/run-workload.sh`'; series_line "$head"; } >"$tmp/2026-01-02-b.md"
{ echo 'Command: `BENCH_CONF=bench/scan.conf bench/run-workload.sh`'; series_line "$head"
	echo 'EXP: the kernel tree x@y (BENCH_EXP_TREE).'; } >"$tmp/2026-01-03-exp.md"
expect_true "bench/stale.sh --index lists the newest current report of a workload and the EXP one as an experiment" \
	eval 'HARNESS_BENCH_INDEX="$tmp/INDEX.md" "$HARNESS_ROOT/bench/stale.sh" --index "$tmp"/2026-01-0*.md >/dev/null &&
		grep -q "^| \`scan.conf\` | \[2026-01-02-b.md\]" "$tmp/INDEX.md" &&
		grep -q "^- \[2026-01-03-exp.md\]" "$tmp/INDEX.md" && ! grep -q "2026-01-01-a" "$tmp/INDEX.md"'

# memcg_file_gens counts the generations that hold the memcg's file pages
# (no "x" after the file size) in lru_gen_full, and only the memcg's own
cat >"$tmp/lru_gen_full" <<'EOF'
memcg     1 /
 node     0
        100      90000          5x          0x
                     0          0r          0e          0p          0r          0e          0p
                           0T          0Y          0F          0A
memcg     9 /bench
 node     0
         40       2000         12          7x
                     0          1r          2e          0p          3r          4e          0p
                           0T          0Y          0F          0A
         41       1500          0        300 
         42        800          3        900 
         43         10          0       1200 
memcg    10 /bench2
 node     0
         50         10          0         10 
EOF
expect_true "memcg_file_gens counts the file generations of its memcg" \
	eval '[ "$(. "$S/guest/lib.sh"; memcg_file_gens bench "$tmp/lru_gen_full")" = 3 ]'

# workload_report ARMS NAME LINE...: the workload report of these results
# lines (one metric, x) into $tmp/NAME.md
workload_report() {
	local arms=$1 name=$2

	shift 2
	printf '%s\n' "$@" >"$tmp/$name.results"
	awk -v title=T -v conf=c -v kconfigs=k -v arms="$arms" -v metrics='x|the x|%.2f' -v date=d \
		-v params=p -v qemu=q -f "$HARNESS_ROOT/bench/cells.awk" \
		-f "$HARNESS_ROOT/bench/workload-report.awk" "$tmp/$name.results" >"$tmp/$name.md"
}

# The workload report pairs FG with ORIG per repeat and names the series.
workload_report "orig fg" w series=abc1234 \
	'arm=orig rep=1 release=o x=2.0' 'arm=fg rep=1 release=f x=1.0' \
	'arm=fg rep=2 release=f x=3.0' 'arm=orig rep=2 release=o x=4.0'
expect_true "the workload report pairs FG with ORIG per repeat" \
	grep -qF '| `x` | 0.625 [0.500–0.750] | 2 of 2 |' "$tmp/w.md"
expect_true "the workload report names the series commit" grep -q 'commit abc1234 ' "$tmp/w.md"

# With an EXP arm (BENCH_EXP_TREE), it pairs EXP with FG and names the tree.
workload_report "fg exp" we series=abc1234 exp=/t/linux-exp@def5678-modified \
	'arm=fg rep=1 release=f x=2.0' 'arm=exp rep=1 release=e x=1.0' \
	'arm=exp rep=2 release=e x=3.0' 'arm=fg rep=2 release=f x=4.0'
expect_true "the workload report pairs EXP with FG per repeat" \
	eval 'grep -q "^EXP / FG per repeat" "$tmp/we.md" && grep -qF "| \`x\` | 0.625 [0.500–0.750] | 2 of 2 |" "$tmp/we.md"'
expect_true "the workload report names the EXP arm's tree" \
	grep -qF 'EXP: the kernel tree /t/linux-exp@def5678-modified' "$tmp/we.md"
expect_true "the exp arm without BENCH_EXP_TREE is refused" \
	eval '! (. "$HARNESS_ROOT/scripts/lib.sh"; BENCH_EXP_TREE=; . "$HARNESS_ROOT/bench/lib.sh"; exp_tree) 2>/dev/null'

# The Zipf report: each repeat's streams have their own bounds, the table
# gives their median, and a window checks against its own repeat's stream
zr() { printf 'arm=%s rep=%s release=r theta=0.9 memcg=26 reads=%s disk_pages=40 refaults=1 iops=1 file=1\n' "$@"; }
zb() { printf 'bound theta=0.9 memcg=26 rep=%s capacity=10 refs=%s static_miss_ratio=%s min_miss_ratio=%s minw_miss_ratio=%s\n' "$@"; }
{ echo series=abc1234; zr orig 1 100; zr fg 1 100; zr fg 2 120; zr orig 2 120
	zb 1 100 0.3 0.2 0.1; zb 2 120 0.5 0.4 0.3; zb 3 120 0.7 0.6 0.5; } >"$tmp/z.results"
zipf_report() {
	awk -v conf=c -v kconfigs=k -v arms="orig fg" -v thetas=0.9 -v memcgs=26 -v data_mb=64 \
		-v bounds_apply=1 -v date=d -v plot= -v params=p -v job=j -v qemu=q \
		-f "$HARNESS_ROOT/bench/cells.awk" -f "$HARNESS_ROOT/bench/zipf-report.awk" "$@"
}
zipf_report "$tmp/z.results" >"$tmp/z.md"
expect_true "the Zipf report gives the median of the repeats' bounds" \
	grep -qF ' 0.5000 | 0.4000 | 0.3000 | 10 |' "$tmp/z.md"
expect_true "the Zipf report checks each window against its own repeat's stream" \
	eval '! grep -q Warning "$tmp/z.md"'
expect_true "the Zipf report pairs FG with ORIG per repeat" \
	grep -qF '| 0.9 | 26 (2.5 : 1) | 1.000 [1.000–1.000], 0 of 2 |' "$tmp/z.md"
sed 's/^\(arm=fg rep=2 .* reads=\)120/\1100/' "$tmp/z.results" >"$tmp/z2.results"
zipf_report "$tmp/z2.results" >"$tmp/z2.md"
expect_true "the Zipf report warns of a window that read another stream" \
	grep -q 'Warning: 1 window' "$tmp/z2.md"

# bench-quick's regression gate: FG over ORIG's disk pages per read,
# pooled over repeats, against the limit; a missing arm fails
printf '%s\n' series=abc1234 \
	'arm=orig rep=1 release=o theta=0.9 memcg=26 reads=100 disk_pages=50 refaults=1' \
	'arm=fg rep=1 release=f theta=0.9 memcg=26 reads=100 disk_pages=40 refaults=1' \
	'arm=fg rep=2 release=f theta=0.9 memcg=26 reads=100 disk_pages=46 refaults=1' \
	'arm=orig rep=2 release=o theta=0.9 memcg=26 reads=100 disk_pages=50 refaults=1' >"$tmp/g.results"
expect_ok "the gate passes FG at 0.86 of ORIG with a limit of 0.9" \
	awk -v limit=0.9 -f "$HARNESS_ROOT/bench/cells.awk" -f "$HARNESS_ROOT/bench/gate.awk" "$tmp/g.results"
expect_fail "the gate fails FG at 0.86 of ORIG with a limit of 0.8" "fg/orig=0.860 limit=0.8 FAIL" \
	awk -v limit=0.8 -f "$HARNESS_ROOT/bench/cells.awk" -f "$HARNESS_ROOT/bench/gate.awk" "$tmp/g.results"
expect_fail "the gate fails a point without FG" "fg/orig=none" \
	awk -v limit=0.9 -f "$HARNESS_ROOT/bench/cells.awk" -f "$HARNESS_ROOT/bench/gate.awk" <(grep -v arm=fg "$tmp/g.results")

# make send: the placeholder identity and a malformed address are refused
# before anything else runs
expect_fail "make send refuses the placeholder identity" "refusing to send as" \
	env SEND_NAME="${SERIES_IDENTITY% <*}" SEND_EMAIL=mglru-fg@example.org "$S/send.sh"
expect_fail "make send refuses a malformed address" "not a mail address" \
	env SEND_NAME=Someone SEND_EMAIL=someone "$S/send.sh"

# Bad settings stop make before anything long, with one line, in seconds.
# fast_fail NAME PATTERN VAR=VALUE...: validate.sh must fail, say PATTERN
# and take under 5 s.
fast_fail() {
	local name=$1 pattern=$2 start=$SECONDS
	shift 2
	expect_fail "$name" "$pattern" env "$@" "$S/validate.sh"
	expect_true "$name, within 5 s" [ $((SECONDS - start)) -lt 5 ]
}
fast_fail "a bad ACCEL is refused" "ACCEL=fast: use one of" ACCEL=fast
fast_fail "a bad KARCH is refused" "KARCH=mips: use one of" KARCH=mips
fast_fail "an unknown config fragment in CONFIGS is refused" "no config fragment configs/nope.config" \
	CONFIGS="base nope"
fast_fail "a bad MEM is refused" "MEM=lots" MEM=lots
fast_fail "a bad STABLE_BASE is refused" "STABLE_BASE=6.1: use one of" STABLE_BASE=6.1
fast_fail "a tarball that is not .tar.xz is refused" "not a .tar.xz" LINUX_TARBALL="$tmp/clean.log"
: >"$tmp/empty.tar.xz"
fast_fail "a .tar.xz that is not xz is refused" "not xz-compressed" LINUX_TARBALL="$tmp/empty.tar.xz"
fast_fail "an unwritable cache directory is refused" "cannot create or write" CACHE_DIR=/proc/no-cache
fast_fail "a KERNEL_SRC the series does not apply to is refused" "does not apply to KERNEL_SRC" \
	KERNEL_SRC="$tmp/src" HARNESS_PATCH_DIR="$tmp/bad" BUILD_DIR="$tmp/build-validate"
expect_ok "good settings pass validate.sh" \
	env KERNEL_SRC="$tmp/src" HARNESS_PATCH_DIR="$tmp/good" BUILD_DIR="$tmp/build-validate" "$S/validate.sh"

# The settings table of make help names only settings the harness reads.
while read -r name _; do
	case $name in '#'* | '') continue ;; esac
	expect_true "setting $name (scripts/settings.txt) is read by the harness" \
		grep -rqw --exclude=settings.txt -- "$name" "$HARNESS_ROOT/scripts" "$HARNESS_ROOT/bench" \
		"$HARNESS_ROOT/Makefile"
done <"$HARNESS_ROOT/scripts/settings.txt"

# ... and every variable the scripts read with a default (${NAME:-...}) is
# a setting, a bench/*.conf key, an internal HARNESS_* hand-off, or set by
# lib.sh's load_arch (configs/arch/*) or by ccache's own configuration.
unlisted=$(comm -23 \
	<(cat "$HARNESS_ROOT"/scripts/*.sh "$HARNESS_ROOT"/scripts/{boot,check,tests}/*.sh "$HARNESS_ROOT"/bench/*.sh | grep -v '^[[:space:]]*#' |
		grep -oE '\$\{[A-Z][A-Z0-9_]*:?[-=?+]' | sed -E 's/^\$\{([A-Z0-9_]*).*/\1/' | sort -u) \
	<({ awk '!/^#/ && NF { print $1 }' "$HARNESS_ROOT/scripts/settings.txt"
		sed -n 's/^\([A-Z][A-Z0-9_]*\)=.*/\1/p' "$HARNESS_ROOT"/bench/*.conf "$HARNESS_ROOT"/configs/arch/*
		echo CCACHE_BASEDIR; echo LOADED_ARCH; } | sort -u) | grep -v '^HARNESS_' || true)
expect_true "every variable read from the environment is a setting or a HARNESS_ hand-off (not: ${unlisted//$'\n'/ })" \
	[ -z "$unlisted" ]

# Every default the README and docs quote as "`NAME` (VALUE" is the one
# scripts/settings.txt (or, for GATE_FG_ORIG, bench/quick.conf) defines.
while IFS=: read -r file name value; do
	case $name in
	GATE_FG_ORIG) want=$(sed -n 's/^GATE_FG_ORIG=\([0-9.]*\).*/\1/p' "$HARNESS_ROOT/bench/quick.conf") ;;
	*) want=$(awk -v n="$name" '$1 == n { print $2 }' "$HARNESS_ROOT/scripts/settings.txt") ;;
	esac
	expect_true "${file#"$HARNESS_ROOT"/} quotes $name as $value, its default ($want)" [ "$value" = "$want" ]
done < <(grep -oE '`[A-Z][A-Z0-9_]+` \([0-9][0-9.]*' "$HARNESS_ROOT/README.md" "$HARNESS_ROOT"/docs/*.md \
	"$HARNESS_ROOT/bench/README.md" | sed -E 's/`([A-Z0-9_]+)` \(([0-9.]*[0-9])/\1:\2/')

# A job with its own default for a setting says so in scripts/settings.txt
# ("make JOB: VALUE"), e.g. demo.sh's CPUS.
for pair in demo:CPUS selftests:CPUS selftests:MEM; do
	job=${pair%%:*} name=${pair#*:}
	value=$(sed -n "s/^export .*\b$name=\\\${$name:-\([^}]*\)}.*/\1/p" "$HARNESS_ROOT/scripts/boot/$job.sh")
	expect_true "settings.txt gives make $job's own $name default ($value)" \
		grep -q "^$name .*make $job: $value" "$HARNESS_ROOT/scripts/settings.txt"
done

# The KUnit case count that docs/check.md and the cover letter quote is
# patch 17's number of KUNIT_CASE()s.
cases=$(grep -c '^+	KUNIT_CASE' "$HARNESS_ROOT"/patches/0017-*.patch)
for quote in "docs/check.md:\`lru_gen_\*\`, $cases cases" "docs/check.md:of all $cases," \
	"docs/cover-letter.txt:KUnit suites ($cases cases)" "docs/cover-letter.txt:Patch 17: $cases cases"; do
	expect_true "${quote%%:*} says ${quote#*:} (patch 17's KUNIT_CASE()s)" \
		grep -q -- "${quote#*:}" "$HARNESS_ROOT/${quote%%:*}"
done
# ... and those of the suites that skip at boot (KUNIT_LATE_CASES), and
# the rest, which run at boot
late=$(grep -c "^+	KUNIT_CASE($KUNIT_LATE_CASES" "$HARNESS_ROOT"/patches/0017-*.patch)
expect_true "docs/check.md says the suites that skip at boot have $late cases, $((cases - late)) run" \
	grep -q -- "three suites' $late: $((cases - late)))" "$HARNESS_ROOT/docs/check.md"

# The harness's shell passes shellcheck at warning level (sourced files
# followed from each script's own directory).
mapfile -t shell_files < <(cd "$HARNESS_ROOT" && ls scripts/*.sh scripts/*/*.sh scripts/guest/init \
	bench/*.sh bench/guest/*.sh)
expect_ok "shellcheck -S warning finds nothing in the harness's ${#shell_files[@]} shell files" \
	env -C "$HARNESS_ROOT" shellcheck -x -P SCRIPTDIR -S warning "${shell_files[@]}"

echo "harness self-tests: $passed passed, $failed failed"
[ $failed = 0 ]
