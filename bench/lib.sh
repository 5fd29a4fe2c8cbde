# shellcheck shell=bash
# The A/B loop shared by the benchmarks (run-zipf.sh, run-workload.sh):
# build each arm's kernel, then boot every arm REPEATS times, interleaved,
# running one guest script, and collect its "RESULT key=value..." lines.
# Sourced after scripts/lib.sh, bench/defaults.conf and the benchmark's conf (ARMS, REPEATS,
# GUEST_MEM, GUEST_CPUS).

# The BENCH_* settings given to this run, as they are typed before the
# command: the reports' "Command:" line shows them.
BENCH_OVERRIDES=
for v in BENCH_ARMS BENCH_REPEATS BENCH_CONFIGS BENCH_EXP_TREE; do
	[ -z "${!v:-}" ] || BENCH_OVERRIDES+="$v=\"${!v}\" "
done
unset v
# BENCH_ARMS and BENCH_REPEATS override the conf's ARMS and REPEATS, e.g.
# for a first try of a new workload on one arm.
ARMS=${BENCH_ARMS:-$ARMS}
REPEATS=${BENCH_REPEATS:-$REPEATS}
# The config fragments of every arm's kernel: the conf's KCONFIGS
# (defaults.conf: "base smp", smp gives the guest its CPUs).
BENCH_CONFIGS=${BENCH_CONFIGS:-$KCONFIGS}

# An arm's kernel (series 0: base, 1: base + series, fixed: base + the
# stable fix of patches/stable/, exp: the kernel tree BENCH_EXP_TREE, e.g.
# a worktree with an experiment or an older series, so that a candidate
# runs beside FG on the same streams) and lru_gen setting.
# The arm list of a conf is data: a new arm is one more line here.
arm_kernel() { # arm_kernel ARM: sets series and lru_gen
	case $1 in
	clru) series=0 lru_gen=0 ;;
	orig) series=0 lru_gen=7 ;;
	fixed) series=fixed lru_gen=7 ;;
	exp) series=exp lru_gen=7 ;;
	fg) series=1 lru_gen=7 ;;
	*) die "unknown arm $1 ($BENCH_CONF)" ;;
	esac
}

# build_arm SERIES FRAGMENT...: build the kernel of arm_kernel's series
# value; prints the image's path
build_arm() {
	local series=$1 tree
	shift
	if [ "$series" = fixed ]; then
		tree=$(STABLE_BASE=7.3 "$HARNESS_ROOT/scripts/stable.sh" tree)
		HARNESS_ARM=fixed HARNESS_KSRC=$tree HARNESS_KOBJ="$BUILD_DIR/obj/fixed-7.3-$(IFS=+; echo "$*")" \
			"$HARNESS_ROOT/scripts/build-kernel.sh" "$@"
	elif [ "$series" = exp ]; then
		tree=$(exp_tree)
		HARNESS_ARM=exp HARNESS_KSRC=$tree HARNESS_KOBJ="$BUILD_DIR/obj/exp-$(IFS=+; echo "$*")" \
			"$HARNESS_ROOT/scripts/build-kernel.sh" "$@"
	else
		SERIES=$series need_tree
		SERIES=$series "$HARNESS_ROOT/scripts/build-kernel.sh" "$@"
	fi
}

# The EXP arm's kernel tree: BENCH_EXP_TREE, which must be a kernel tree
exp_tree() {
	local tree=${BENCH_EXP_TREE:-}

	[ -n "$tree" ] || die "the exp arm needs BENCH_EXP_TREE (a kernel source tree)"
	[ -e "$tree/Makefile" ] && [ -d "$tree/mm" ] ||
		die "BENCH_EXP_TREE=$tree is not a kernel source tree"
	realpath "$tree"
}

# The EXP arm's tree as the reports name it: its path and commit, with
# "-modified" if its working copy differs from that commit
exp_commit() {
	local tree c

	tree=$(exp_tree)
	c=$(git -C "$tree" rev-parse --short HEAD 2>/dev/null) || c=unknown
	git -C "$tree" diff --quiet HEAD 2>/dev/null || c+=-modified
	echo "$tree@$c"
}

# run_arms NAME RESULTS KCONFIGS GUEST_SCRIPT [ARG...]: boot every arm of
# ARMS REPEATS times, each running "GUEST_SCRIPT CONF LRU_GEN_ENABLED
# ARG...", which must print "kernel RELEASE lru_gen ..." and its RESULT
# lines.  Appends "arm=A rep=R release=K <RESULT fields>" to RESULTS.
run_arms() {
	local name=$1 results=$2 guest=$4 arm rep i log release series lru_gen
	local -a kconfigs arms
	read -ra kconfigs <<<"$3"
	shift 4
	read -ra arms <<<"$ARMS"
	echo "series=$(series_commit)" >>"$results"
	case " ${arms[*]} " in *" exp "*) echo "exp=$(exp_commit)" >>"$results" ;; esac
	local -A kernel
	for arm in "${arms[@]}"; do
		arm_kernel "$arm"
		[ -n "${kernel[$series]:-}" ] || kernel[$series]=$(build_arm "$series" "${kconfigs[@]}")
	done
	for rep in $(seq 1 "$REPEATS"); do
		# Rotate the arm order by one per repeat: no arm always goes first.
		for i in "${!arms[@]}"; do
			arm=${arms[(i + rep - 1) % ${#arms[@]}]}
			arm_kernel "$arm"
			log="$BUILD_DIR/logs/bench-$name-$arm.log"
			log "repeat $rep/$REPEATS: $arm"
			# bench_rep= lets a guest script draw this repeat's streams
			# (scripts/guest/lib.sh: bench_rep), the same for every arm.
			HARNESS_CMDLINE="bench_rep=$rep ${HARNESS_CMDLINE:-}" ACCEL=${GUEST_ACCEL:-${ACCEL:-auto}} \
				HARNESS_CONSOLE_LOG=$log MEM=$GUEST_MEM CPUS=$GUEST_CPUS HARNESS_QUIET=1 \
				"$HARNESS_ROOT/scripts/boot/boot.sh" "${kernel[$series]}" \
				"$guest" "$BENCH_CONF" "$lru_gen" "$@" ||
				die "arm $arm failed in the guest; console: $log"
			"$HARNESS_ROOT/scripts/check/console.sh" "$log"
			release=$(tr -d '\r' <"$log" | sed -n 's/^kernel \([^ ]*\) lru_gen.*/\1/p')
			tr -d '\r' <"$log" |
				sed -n "s/^RESULT /arm=$arm rep=$rep release=$release /p" >>"$results"
		done
	done
}

# The QEMU command line of benchmark NAME's last FG boot (boot.sh writes it
# next to the console log), with the checkout's paths made relative, for
# the report; empty if there was none.
fg_qemu_command() { # fg_qemu_command NAME
	sed "s|$HARNESS_ROOT|.|g; s|$BUILD_DIR|build|g" "$BUILD_DIR/logs/bench-$1-fg.log.cmd" 2>/dev/null || true
}

# The commit of this checkout, i.e., of patches/, that the FG arm ran, with
# "-dirty" if patches/ has uncommitted changes and "-modified" if the series
# tree the FG kernel is built from has (an experiment applied there):
# every report names it.
series_commit() {
	local c
	c=$(git -C "$HARNESS_ROOT" rev-parse --short HEAD 2>/dev/null) || { echo unknown; return; }
	git -C "$HARNESS_ROOT" diff --quiet HEAD -- patches || c+=-dirty
	git -C "$TREE" diff --quiet HEAD 2>/dev/null || c+=-modified
	echo "$c"
}
