# SPDX-License-Identifier: MIT
# LTTng helpers for the LTTng tests and analyze/bench-analyze.sh
# (sourced; POSIX sh).
#
#   lttng_missing               print the missing LTTng tools; true if any
#   lttng_can_isolate           true if lttng_isolate can work here, else
#                               false with the reason (the test skips)
#   lttng_test_isolated SCRIPT [ARG]...
#                               a test's opening: skip it all without
#                               the tools or the isolation, else
#                               lttng_isolate SCRIPT ARG...
#   lttng_isolate SCRIPT [ARG]...
#                               run "sh SCRIPT ARG..." (the test itself:
#                               "$0" "$@") where it can neither see nor
#                               touch the user's LTTng state (below); may
#                               not return (exec), so call it before
#                               anything is printed or any trap is set
#   lttng_sessiond_up           start the test's own session daemon (after
#                               lttng_isolate; without it, as before: use
#                               one that answers, else start one); false
#                               with a message on failure
#   lttng_record NAME OUT CHANNEL_OPTS EVENTS CONTEXT -- CMD [ARG]...
#                               record CMD into the directory OUT: session
#                               NAME-PID-..., user-space channel "c0" with
#                               CHANNEL_OPTS, events EVENTS (comma
#                               separated), vtid context if CONTEXT is
#                               "vtid"; the session is always destroyed.
#                               $lttng_stop_output holds what "lttng stop"
#                               said (discard warnings).  With
#                               $lttng_procname set, only the processes of
#                               that name are recorded (below).
#   lttng_cleanup               destroy what is left, stop the daemon we
#                               started (only that one, by its pid)
#
# Every session records every instrumented process of the user: tests
# running at the same time (rpcsim's, or another run of these) would see
# each other's events.  lttng_record therefore filters on the process
# name when $lttng_procname is set; lttng_procname_link gives a program a
# name of its own (a symbolic link's name becomes the process name).
#
# Isolation (every LTTng test, issue #11): the lttng client, liblttng-ctl
# (rpcsim --trace) and the session daemon keep their state under
# $LTTNG_HOME (default $HOME: ~/.lttngrc, the current session, and for a
# user's own daemon its sockets in ~/.lttng), except as root, where the
# daemon and every client use /var/run/lttng whatever LTTNG_HOME says.
# So lttng_isolate gives the test a temporary LTTNG_HOME and, as root (or
# as a member of the "tracing" group, whose clients try the root daemon
# first), runs it again in a private mount namespace (unshare) with a
# tmpfs of its own on /run (/var/run) and on /dev/shm.  There the test
# starts its own session daemon (lttng_sessiond_up), stops it by the pid
# from its pid file, never by name, and removes the temporary home: the
# user's daemon, sessions and configuration are never seen or touched.
# Without isolation (the benchmarks' default) a daemon that answers is
# reused and left running; if none does, one is started as above.

lttng_started_pid=
lttng_private_home=
lttng_sessions=
lttng_stop_output=
lttng_procname=
lttng_procname_path=

# The app waits this long (ms) for the daemon at start, so that the events
# enabled before it runs are recorded from its first one.
LTTNG_UST_REGISTER_TIMEOUT=${LTTNG_UST_REGISTER_TIMEOUT:-10000}
export LTTNG_UST_REGISTER_TIMEOUT

# lttng_procname_link PROGRAM DIR: make DIR/tgPID a link to PROGRAM (an
# absolute path), set lttng_procname to its name and lttng_procname_path
# to the link.  Not in a $(...) subshell, or the variables are lost.
lttng_procname_link()
{
	lttng_procname=tg$$
	lttng_procname_path=$2/$lttng_procname
	ln -sf "$1" "$lttng_procname_path"
}

lttng_cmd()
{
	timeout 60 lttng "$@"
}

lttng_missing()
{
	lttng_missing_list=
	for t in lttng lttng-sessiond babeltrace2; do
		command -v "$t" >/dev/null 2>&1 ||
			lttng_missing_list="$lttng_missing_list $t"
	done
	[ -n "$lttng_missing_list" ] || return 1
	echo "missing:$lttng_missing_list (apt-get install lttng-tools babeltrace2)"
	return 0
}

lttng_answers()
{
	lttng_cmd list >/dev/null 2>&1
}

lttng_in_tracing_group()
{
	id -nG 2>/dev/null | tr ' ' '\n' | grep -qx tracing
}

# The unshare command that gives a private /var/run, or nothing when a
# private LTTNG_HOME is enough (a user outside the tracing group).
lttng_unshare_cmd()
{
	if [ "$(id -u)" -eq 0 ]; then
		echo "unshare --mount --propagation private"
	elif lttng_in_tracing_group; then
		echo "unshare --user --map-root-user --mount --propagation private"
	fi
}

lttng_can_isolate()
{
	[ -n "${PP_LTTNG_ISOLATED:-}" ] && return 0
	lci_unshare=$(lttng_unshare_cmd)
	[ -n "$lci_unshare" ] || return 0
	lci_run=$(readlink -f /var/run 2>/dev/null || echo /var/run)
	if ! command -v unshare >/dev/null 2>&1 ||
	   ! $lci_unshare sh -c "mount -t tmpfs pp-lttng-run '$lci_run'" \
		>/dev/null 2>&1; then
		echo "cannot keep the test away from the user's LTTng session daemon: /var/run/lttng needs a private mount namespace ($lci_unshare failed)"
		return 1
	fi
}

lttng_isolate()
{
	if [ -n "${PP_LTTNG_ISOLATED:-}" ]; then
		# Run again: this is the isolated test; $LTTNG_HOME is ours.
		lttng_private_home=${PP_LTTNG_PRIVATE_HOME:-}
		return 0
	fi
	li_home=$(mktemp -d "${TMPDIR:-/tmp}/lttng-home.XXXXXX") || exit 1
	LTTNG_HOME=$li_home
	PP_LTTNG_PRIVATE_HOME=$li_home
	export LTTNG_HOME PP_LTTNG_PRIVATE_HOME
	li_unshare=$(lttng_unshare_cmd)
	if [ -z "$li_unshare" ]; then
		# A user's own daemon lives in $LTTNG_HOME/.lttng.
		lttng_private_home=$li_home
		PP_LTTNG_ISOLATED=home
		export PP_LTTNG_ISOLATED
		return 0
	fi
	li_run=$(readlink -f /var/run 2>/dev/null || echo /var/run)
	PP_LTTNG_ISOLATED=namespace
	export PP_LTTNG_ISOLATED
	# shellcheck disable=SC2016 # expanded by the inner shell
	exec $li_unshare sh -c '
		mount -t tmpfs -o mode=0755 pp-lttng-run "$1" &&
		mount -t tmpfs -o mode=1777 pp-lttng-shm /dev/shm || exit 99
		shift
		exec sh "$@"' sh "$li_run" "$@"
}

# lttng_test_isolated SCRIPT [ARG]...: the opening of an LTTng test:
# the whole test skipped ("1..0 # SKIP why") without the LTTng tools or
# without the isolation, else lttng_isolate SCRIPT ARG...  Call it before
# anything is printed, as lttng_isolate.
lttng_test_isolated()
{
	if lti_why=$(lttng_missing); then
		echo "1..0 # SKIP LTTng tools $lti_why"
		exit 0
	fi
	if ! lti_why=$(lttng_can_isolate); then
		echo "1..0 # SKIP $lti_why"
		exit 0
	fi
	lttng_isolate "$@"
}

lttng_rundir()
{
	if [ "$(id -u)" -eq 0 ]; then
		echo /var/run/lttng
	else
		echo "${LTTNG_HOME:-$HOME}/.lttng"
	fi
}

lttng_sessiond_up()
{
	if [ -n "${PP_LTTNG_ISOLATED:-}" ]; then
		# Nothing of the user's can answer here; if something does,
		# do not use it.
		if lttng_answers; then
			echo "a session daemon answers in the test's private LTTng home: not ours, not used"
			return 1
		fi
	elif lttng_answers; then
		return 0
	fi
	if [ "$(id -u)" -ne 0 ] && [ -z "$lttng_private_home" ]; then
		lttng_private_home=$(mktemp -d "${TMPDIR:-/tmp}/lttng-home.XXXXXX") ||
			return 1
		LTTNG_HOME=$lttng_private_home
		export LTTNG_HOME
	fi
	if ! timeout 60 lttng-sessiond --daemonize --no-kernel >/dev/null 2>&1; then
		if [ -n "${PP_LTTNG_ISOLATED:-}" ]; then
			echo "lttng-sessiond --daemonize --no-kernel failed"
			return 1
		fi
		# Another test may have started one at the same time: use it.
		i=0
		while [ $i -lt 50 ]; do
			lttng_answers && return 0
			sleep 0.1
			i=$((i + 1))
		done
		echo "lttng-sessiond --daemonize --no-kernel failed"
		return 1
	fi
	lttng_started_pid=$(cat "$(lttng_rundir)/lttng-sessiond.pid" 2>/dev/null)
	case $lttng_started_pid in
	''|*[!0-9]*)
		lttng_started_pid=
		echo "lttng-sessiond started but left no pid file in $(lttng_rundir)"
		return 1
		;;
	esac
	i=0
	while ! lttng_answers; do
		i=$((i + 1))
		if [ $i -gt 100 ]; then
			echo "lttng-sessiond (pid $lttng_started_pid) does not answer"
			return 1
		fi
		sleep 0.1
	done
	# No client may start another daemon behind our back.
	LTTNG_SESSIOND_PATH=/bin/true
	export LTTNG_SESSIOND_PATH
	return 0
}

lttng_sessiond_down()
{
	[ -n "$lttng_started_pid" ] || {
		lttng_remove_home
		return 0
	}
	# its consumer daemons are its children: wait for them too
	pids="$lttng_started_pid $(ps -o pid= --ppid "$lttng_started_pid" 2>/dev/null)"
	kill -TERM "$lttng_started_pid" 2>/dev/null
	i=0
	while [ $i -lt 100 ]; do
		alive=
		for p in $pids; do
			kill -0 "$p" 2>/dev/null && alive="$alive $p"
		done
		[ -n "$alive" ] || break
		sleep 0.1
		i=$((i + 1))
	done
	for p in $alive; do
		echo "# lttng-sessiond: pid $p still alive after 10 s, SIGKILL"
		kill -KILL "$p" 2>/dev/null
	done
	lttng_started_pid=
	lttng_remove_home
}

lttng_remove_home()
{
	if [ -n "$lttng_private_home" ]; then
		rm -rf "$lttng_private_home"
		lttng_private_home=
	fi
}

lttng_record()
{
	lr_name=$1
	lr_out=$2
	lr_chan=$3
	lr_events=$4
	lr_ctx=$5
	shift 5
	[ "$1" = -- ] && shift
	lr_s="$lr_name-$$-$(date +%s%N)"
	lttng_sessions="$lttng_sessions $lr_s"
	lttng_stop_output=
	lr_rc=1
	# shellcheck disable=SC2086 # CHANNEL_OPTS are several words
	if lttng_cmd create "$lr_s" --output="$lr_out" >/dev/null &&
	   lttng_cmd enable-channel -u -s "$lr_s" $lr_chan c0 >/dev/null &&
	   { [ "$lr_ctx" != vtid ] ||
	     lttng_cmd add-context -u -s "$lr_s" -c c0 -t vtid >/dev/null; } &&
	   lttng_cmd enable-event -u -s "$lr_s" -c c0 "$lr_events" \
		${lttng_procname:+--filter "\$ctx.procname == \"$lttng_procname\""} \
		>/dev/null &&
	   lttng_cmd start "$lr_s" >/dev/null; then
		"$@"
		lr_rc=$?
		# stop waits until the consumer has written everything
		lttng_stop_output=$(lttng_cmd stop "$lr_s" 2>&1) || lr_rc=1
	fi
	lttng_cmd destroy "$lr_s" >/dev/null 2>&1
	lttng_sessions=$(echo "$lttng_sessions" | sed "s/ $lr_s//")
	return $lr_rc
}

lttng_cleanup()
{
	for s in $lttng_sessions; do
		lttng_cmd destroy "$s" >/dev/null 2>&1
	done
	lttng_sessions=
	lttng_sessiond_down
}
