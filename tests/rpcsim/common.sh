# SPDX-License-Identifier: MIT
#
# Shared by rpcsim's shell tests: where things are, and how to run rpcsim
# with a time limit, keeping its stdout, stderr and exit status.

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
RPCSIM=${RPCSIM:-$top_builddir/rpcsim/rpcsim}
# Reads the result files of rpcsim --sweep (compare_sweep).
COMPARE=${COMPARE:-$top_builddir/compare/rpcsim-compare}
ANALYZE=${ANALYZE:-$top_builddir/analyze/rpcsim-analyze}

# shellcheck source=tests/utils/tap.sh
. "$top_srcdir/tests/utils/tap.sh"

# No run should come near this; a hang shows up as status 124.
RPCSIM_TIMEOUT=${RPCSIM_TIMEOUT:-120}

tap_tmpdir rpcsim-test
tap_need_prog "$RPCSIM"

# need_trace [analyze]: the whole test is skipped (1..0, the reason) unless
# rpcsim was built with LTTng-UST and, with "analyze", rpcsim-analyze
# and python3 are there.
need_trace()
{
	if ! "$RPCSIM" --help | grep -q -- '--trace\[=DIR\]'; then
		echo "1..0 # SKIP rpcsim built without LTTng-UST"
		exit 0
	fi
	if [ "${1-}" = analyze ] && { [ ! -x "$ANALYZE" ] || ! have_python; }; then
		echo "1..0 # SKIP rpcsim-analyze or python3 missing"
		exit 0
	fi
}

# run ARGS...: rpcsim ARGS into $OUT and $ERR; its status in $status.
run()
{
	run_cmd "$RPCSIM_TIMEOUT" "$RPCSIM" "$@"
}

# run_env VAR=VALUE ARGS...: run with VAR=VALUE in rpcsim's environment
# only (a prefix assignment on a shell function may outlive the call).
run_env()
{
	run_var=$1
	shift
	run_cmd "$RPCSIM_TIMEOUT" env "$run_var" "$RPCSIM" "$@"
}

# compare_sweep DIR [ARG]...: rpcsim-compare --sweep=DIR ARG... into
# $OUT and $ERR, its status in $status.
compare_sweep()
{
	run_cmd 60 "$COMPARE" --sweep="$@"
}

# ran_ok DESCRIPTION: the last run exited 0 (its stderr shown if not).
ran_ok()
{
	[ "$status" -eq 0 ]
	ok $? "$*" || diag "exit $status: $(head -c 2000 "$ERR")"
}

# summary KEY: the value of KEY= on the (last) SUMMARY line of $OUT.
summary()
{
	sed -n "s/^SUMMARY .* $1=\\([^ ]*\\).*/\\1/p" "$OUT" | tail -n 1
}

# A run told to stop (deadline, signal) must end within this many seconds;
# past it, it is killed and counted as a hang (status 124).
STOP_BOUND=${STOP_BOUND:-20}

# A command this script starts in the background (&) inherits SIGINT and
# SIGQUIT ignored (a shell without job control), and SIGHUP too when the
# tests run under nohup; rpcsim keeps an ignored signal ignored: env puts
# them back to their default first (coreutils 8.31+).
if env --default-signal=HUP,INT,QUIT true 2>/dev/null; then
	SIGS_DEFAULT=--default-signal=HUP,INT,QUIT
else
	bail_out "env --default-signal is missing (coreutils 8.31 or later needed)"
fi

# spawn [VAR=VALUE] ARGS...: rpcsim ARGS in the background (VAR=VALUE in
# its environment only, SIGINT and SIGQUIT at their default), its pid
# (not a wrapper's) in $pid.
spawn()
{
	case $1 in
	[A-Za-z_]*=*)	sp_var=$1; shift ;;
	*)	sp_var=RPCSIM_SPAWNED=1 ;;
	esac
	# Emptied here, not only by the child's redirections: started() must
	# not find the previous run's pool line before the child has opened
	# them, or the signal comes before rpcsim has its handlers.
	: >"$OUT"
	: >"$ERR"
	env "$SIGS_DEFAULT" "$sp_var" "$RPCSIM" "$@" >"$OUT" 2>"$ERR" </dev/null &
	pid=$!
}

# wait_bounded PID SECONDS: wait for our child PID; $status is its exit
# status, or 124 if it had to be killed after SECONDS.
wait_bounded()
{
	wb_pid=$1
	# The watchdog kills only this pid, only while the test waits, and
	# takes its sleep with it when told to go; its output goes nowhere,
	# so nothing it leaves holds the TAP pipe.
	(
		trap 'kill "$wb_sleep" 2>/dev/null; exit 0' TERM
		sleep "$2" &
		wb_sleep=$!
		wait "$wb_sleep" && kill -KILL "$wb_pid" 2>/dev/null &&
			echo hang >"$tmpdir/hang.$wb_pid"
	) >/dev/null 2>&1 &
	wb_dog=$!
	wait "$wb_pid"
	status=$?
	kill "$wb_dog" 2>/dev/null
	wait "$wb_dog" 2>/dev/null
	if [ -e "$tmpdir/hang.$wb_pid" ]; then
		rm -f "$tmpdir/hang.$wb_pid"
		status=124
	fi
}

# run_bounded [VAR=VALUE] ARGS...: run, but a run that does not end within
# STOP_BOUND seconds is a hang (status 124), not a wait for the suite's
# timeout.
run_bounded()
{
	spawn "$@"
	wait_bounded "$pid" "$STOP_BOUND"
}

# started [PATTERN]: wait until the spawned rpcsim ($pid) has printed a
# line matching PATTERN (default: its configuration's pool line; its
# signal handlers are in place by then).  If it never does (within 60 s),
# it is killed and started fails with status 125.
started()
{
	st_pat=${1:-^  pool:}
	st_i=0
	until grep -q -- "$st_pat" "$OUT" 2>/dev/null; do
		st_i=$((st_i + 1))
		if [ $st_i -gt 600 ] || ! kill -0 "$pid" 2>/dev/null; then
			kill -KILL "$pid" 2>/dev/null
			wait "$pid"
			status=125
			took=0
			return 1
		fi
		sleep 0.1
	done
}

# signal_started SIG [PATTERN]: once started, send the spawned rpcsim SIG
# and wait for it, bounded; $took: whole seconds from the signal to its
# exit.
signal_started()
{
	started "$2" || return
	ss_t0=$(date +%s)
	kill -s "$1" "$pid" 2>/dev/null
	wait_bounded "$pid" "$STOP_BOUND"
	took=$(( $(date +%s) - ss_t0 ))
}
