# SPDX-License-Identifier: MIT
#
# Shared by the tests of bench/'s scripts (sourced after
# tests/utils/tap.sh): bench_script names the script under test, run runs
# it.

# bench_script NAME: the test is of bench/NAME: $SCRIPT, its path, and
# $tmpdir (tap_tmpdir NAME-test) for run's $OUT and $ERR.
bench_script()
{
	SCRIPT=$top_srcdir/bench/$1
	tap_tmpdir "${1%.sh}-test"
}

# run ARGS...: the script into $OUT and $ERR, its status in $status.  A
# smoke run takes seconds; 300 s is a hang.
run()
{
	run_cmd 300 sh "$SCRIPT" "$@"
}

# api_rows: the rows of $OUT's table of pages per API (single, list,
# array); api_configs ROWS: each row's API and bulk size, as " single 1 ,
# list 1 , ..." in the rows' order.
api_rows()
{
	grep -E '^\| (single|list|array) \|' "$OUT"
}
api_configs()
{
	printf '%s\n' "$1" | awk -F'|' '{ print $2 $3 }' | tr -s ' ' | tr '\n' ,
}

# sleeper PROGRAM PIDFILE: PROGRAM (made executable, its folders too) is
# a stand-in that writes its pid into PIDFILE and sleeps 30 s, for
# sigterm_run.
sleeper()
{
	mkdir -p "${1%/*}"
	printf '#!/bin/sh\necho $$ >"%s"\nexec sleep 30\n' "$2" >"$1"
	chmod +x "$1"
}

# sigterm_run PIDFILE ARGS...: the script with ARGS in the background,
# with a TMPDIR of its own; once PIDFILE is there (a stand-in program the
# script runs writes its pid in it), SIGTERM to the script.  $status:
# the script's exit status; $child_pid: the stand-in's pid; $left: what
# the script left in its TMPDIR.  The caller checks, then ends the
# stand-in if it is still there.
sigterm_run()
{
	sr_pidfile=$1
	shift
	rm -rf "$tmpdir/sigterm-tmp" "$sr_pidfile"
	mkdir -p "$tmpdir/sigterm-tmp"
	TMPDIR=$tmpdir/sigterm-tmp sh "$SCRIPT" "$@" >"$OUT" 2>"$ERR" &
	sr_pid=$!
	wait_for 20 test -s "$sr_pidfile"
	kill -TERM "$sr_pid"
	wait_pid "$sr_pid" 20
	child_pid=$(cat "$sr_pidfile" 2>/dev/null)
	left=$(ls "$tmpdir/sigterm-tmp")
}

# standin_headers DIR: DIR becomes a stand-in for a kernel's headers:
# its makefile's modules target writes a dummy ppkbench.ko, so that
# kernel-bench.sh runs on without building anything.
standin_headers()
{
	mkdir -p "$1" &&
		printf 'modules:\n\techo dummy >$(M)/ppkbench.ko\n' >"$1/Makefile"
}

# sigterm_ok MESSAGE CHILD: after sigterm_run, the check that the script
# exited 143 and left neither its CHILD (named in the diagnostics) nor a
# temporary file; then the child ended, whatever the result.  The child
# has 5 s to be gone: once (kernel-bench.sh under a fresh Debian's CI,
# 7 December 2026) the stand-in QEMU was still there the instant its
# script had exited, which 50 runs here (40 under load) never showed; a
# child never signalled sleeps on for 30 s and still fails the check,
# and the diagnostics say what state it was in.
sigterm_ok()
{
	so_state=
	[ -z "$child_pid" ] || pid_gone "$child_pid" ||
		so_state=$(ps -o stat=,ppid=,etimes= -p "$child_pid" 2>/dev/null)
	[ "$status" -eq 143 ] && [ -n "$child_pid" ] &&
		wait_for 5 pid_gone "$child_pid" && [ -z "$left" ]
	ok $? "$1" ||
		diag "exit $status, $2 $child_pid${so_state:+ (state, parent, age at exit: $so_state)}, left: $left" "$(cat "$ERR")"
	[ -n "$child_pid" ] && kill "$child_pid" 2>/dev/null
	return 0
}
