# SPDX-License-Identifier: MIT
#
# A small TAP producer for shell tests, the only one: the names of the C
# helper in tap.h (plan_tests, plan_no_plan, ok, pass, fail, diag, skip,
# bail_out, exit_status) plus plan_skip_all.  Source it, then:
#
#	plan_tests 2		# or plan_no_plan: the plan comes at the end
#	test "$x" = 1; ok $? "x is one" || diag "x is $x"
#	pass "nothing to check"
#	exit_status		# last command; or: exit_status; exit $?
#
# Output goes to stdout; automake's tap-driver.sh reads it.
#
# Below the TAP producer, the opening every shell test shares (a test
# starts with these lines; make check sets top_srcdir and top_builddir,
# the defaults let it run by hand from an in-tree build):
#
#	: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
#	: "${top_builddir:=$top_srcdir}"
#	. "$top_srcdir/tests/utils/tap.sh"
#	tap_need_prog "$top_builddir/pagebench/pagebench"
#	tap_tmpdir pagebench-test	# $tmpdir, $OUT, $ERR, removed on exit
#	run() { run_cmd 120 "$top_builddir/pagebench/pagebench" "$@"; }
#
# and the checks of a program's command line that several tests make
# (help_entry, check_help_defaults, check_bad_inputs).

tap_planned=0
tap_run=0
tap_failed=0
tap_no_plan=no

plan_tests()
{
	tap_planned=$1
	echo "1..$1"
}

# plan_no_plan: the number of checks depends on what the script finds;
# exit_status prints the plan after the last check (TAP allows it).
plan_no_plan()
{
	tap_no_plan=yes
}

# plan_skip_all REASON: nothing here can run; the whole script is a skip.
# Exits (status 0).
plan_skip_all()
{
	echo "1..0 # SKIP $*"
	exit 0
}

# ok STATUS DESCRIPTION: STATUS is a shell status, 0 passes.  Returns it.
ok()
{
	tap_status=$1
	shift
	tap_run=$((tap_run + 1))
	if [ "$tap_status" -eq 0 ]; then
		echo "ok $tap_run - $*"
	else
		echo "not ok $tap_run - $*"
		tap_failed=$((tap_failed + 1))
	fi
	return "$tap_status"
}

pass()
{
	ok 0 "$@"
}

fail()
{
	ok 1 "$@"
}

# diag TEXT...: every line of every TEXT as a TAP comment, each TEXT
# starting a line of its own (diag "no line in:" "$(cat out)").
diag()
{
	printf '%s\n' "$@" | sed 's/^/# /'
}

# skip N REASON: N checks that cannot run here.
skip()
{
	tap_n=$1
	shift
	while [ "$tap_n" -gt 0 ]; do
		tap_run=$((tap_run + 1))
		echo "ok $tap_run # SKIP $*"
		tap_n=$((tap_n - 1))
	done
}

# skip_rest REASON: the planned checks not run yet cannot run here:
# each a skip, then the test exits (exit_status).
skip_rest()
{
	skip $((tap_planned - tap_run)) "$*"
	exit_status
	exit $?
}

bail_out()
{
	echo "Bail out! $*"
	exit 255
}

# exit_status: 0 when every planned check ran and passed.  After
# plan_no_plan it prints the plan first.
exit_status()
{
	if [ "$tap_no_plan" = yes ]; then
		echo "1..$tap_run"
	elif [ "$tap_run" -ne "$tap_planned" ]; then
		diag "planned $tap_planned checks, ran $tap_run"
		return 1
	fi
	[ "$tap_failed" -eq 0 ]
}

# --- The tests' opening ------------------------------------------------------

# tap_need_prog PATH: PATH is a program make check builds; without it the
# test cannot run at all (bail out).
tap_need_prog()
{
	[ -x "$1" ] || bail_out "$1 not built"
}

# tap_skip_without_prog PATH WHY: PATH is a program configure may leave
# out; without it the whole test is a skip, saying WHY.
tap_skip_without_prog()
{
	[ -x "$1" ] || plan_skip_all "$(basename "$1") not built ($2)"
}

# tap_tmpdir NAME: a new directory $tmpdir (${TMPDIR:-/tmp}/NAME.XXXXXX)
# for the test's files, removed when the test exits, after the commands
# tap_at_exit adds; a hangup, interrupt or termination exits 1, so it is
# removed then too.  $OUT and $ERR are run_cmd's files in it.  Bails out
# if the directory cannot be made.
tap_tmpdir()
{
	tmpdir=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX") ||
		bail_out "mktemp failed"
	OUT=$tmpdir/stdout
	ERR=$tmpdir/stderr
	tap_exit_commands=
	trap 'eval "${tap_exit_commands:-:}"; rm -rf "$tmpdir"' EXIT
	trap 'exit 1' HUP INT TERM
}

# tap_at_exit COMMAND: the shell command COMMAND runs when the test exits
# (in the order added), before $tmpdir is removed; $? is still the exit
# status when the first one starts.
tap_at_exit()
{
	tap_exit_commands="${tap_exit_commands:+$tap_exit_commands
}$1"
}

# run_cmd SECONDS COMMAND [ARG]...: COMMAND's stdout into $OUT and its
# stderr into $ERR (tap_tmpdir), sent SIGTERM after SECONDS if it has not
# ended (status 124: a hang), and SIGKILL 10 s later (status 137):
# pagebench and rpcsim catch SIGTERM to end after the run in progress,
# which never ends when the run hangs; its exit status in $status, and
# returned.
run_cmd()
{
	tap_seconds=$1
	shift
	timeout -k 10 "$tap_seconds" "$@" >"$OUT" 2>"$ERR"
	status=$?
	return "$status"
}

# wait_for SECONDS COMMAND...: until COMMAND succeeds, trying ten times a
# second; 1 after SECONDS (a bound on waiting for another process, never
# a delay to make a result come out).
wait_for()
{
	tries=$(($1 * 10))
	shift
	while ! "$@"; do
		tries=$((tries - 1))
		[ "$tries" -gt 0 ] || return 1
		sleep 0.1
	done
}

# pid_gone PID: the process PID has ended (or never was).
pid_gone()
{
	! kill -0 "$1" 2>/dev/null
}

# wait_pid PID SECONDS: wait for the test's background command PID to
# end, at most SECONDS; its exit status in $status, or 124 when it was
# still running then (killed: a hang, not a wait for the suite's timeout).
wait_pid()
{
	if wait_for "$2" pid_gone "$1"; then
		wait "$1"
		status=$?
	else
		kill -KILL "$1" 2>/dev/null
		wait "$1"
		status=124
	fi
}

# file_has FILE PATTERN...: each PATTERN (a basic regular expression, as
# grep takes it) matches a line of FILE.
file_has()
{
	fh_file=$1
	shift
	for fh_pattern in "$@"; do
		grep -q -- "$fh_pattern" "$fh_file" || return 1
	done
}

# python3: under make check, the interpreter configure found (PP_PYTHON3,
# its own path, not a version manager's shim, which costs a third of a
# second a start), else the one in PATH.
case ${PP_PYTHON3:-no} in
no) ;;
*) python3() { "$PP_PYTHON3" "$@"; } ;;
esac

# have_python: python3 is there (many tests check JSON with it).
have_python()
{
	command -v python3 >/dev/null 2>&1
}

# json_edit FILE STATEMENT...: FILE's JSON document as doc, the Python
# STATEMENTs run on it in turn, and doc written back to FILE (a result
# file set by hand).
json_edit()
{
	python3 - "$@" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
for statement in sys.argv[2:]:
    exec(statement)
json.dump(doc, open(sys.argv[1], "w"))
EOF
}

# keep_gnuplot: $tmpdir/keep-gnuplot, a stand-in for gnuplot (as
# RPCSIM_GNUPLOT) that keeps the script it is given as $tmpdir/kept.gp,
# where a test reads the data and titles drawn, and writes a stand-in
# picture where the script says.
keep_gnuplot()
{
	cat >"$tmpdir/keep-gnuplot" <<EOF
#!/bin/sh
cp "\$1" "$tmpdir/kept.gp" || exit 1
out=\$(sed -n "s/^set output '\\(.*\\)'\$/\\1/p" "\$1")
echo '<svg/>' >"\$out"
EOF
	chmod +x "$tmpdir/keep-gnuplot"
}

# --- A program's command line --------------------------------------------------
# For the tests of a program that has a run function (run ARGS...: the
# program's $OUT, $ERR and $status, as run_cmd leaves them).

# help_entry HELP OPTION: the lines of --help text HELP that describe
# --OPTION (its line and the ones under it, up to the next option or
# heading); nothing when it is not there.
help_entry()
{
	printf '%s\n' "$1" | awk -v opt="--$2" '
		/^ +(-[a-zA-Z], )?--[a-z]/ {
			on = index($0, opt "=") || index($0, opt " ") ||
			     $0 ~ (opt "$")
		}
		/^[A-Z]/ { on = 0 }
		on'
}

# check_help_defaults HELP OPTION...: --help text HELP describes each
# --OPTION with its default.  One check per OPTION.
check_help_defaults()
{
	chd_help=$1
	shift
	for chd_name in "$@"; do
		chd_entry=$(help_entry "$chd_help" "$chd_name")
		printf '%s' "$chd_entry" | grep -q default
		ok $? "--help lists --$chd_name with its default" ||
			diag "$chd_entry"
	done
}

# check_bad_inputs NAME TABLE [ARG]...: each line of TABLE is
# "ARGS<tab>TEXT"; run ARGS [ARG]... must exit 2 with nothing on stdout
# and one line on stderr, starting "NAME: " and naming TEXT.  Two checks
# per line.
check_bad_inputs()
{
	cbi_name=$1
	cbi_table=$2
	shift 2
	while IFS='	' read -r cbi_args cbi_text; do
		# shellcheck disable=SC2086 # ARGS are several words
		run $cbi_args "$@" </dev/null
		[ "$status" -eq 2 ] && [ ! -s "$OUT" ]
		ok $? "bad input '$cbi_args' exits 2, prints nothing on stdout" ||
			diag "exit $status"
		[ "$(wc -l <"$ERR")" -eq 1 ] && grep -qF -- "$cbi_text" "$ERR" &&
			[ "$(head -c $((${#cbi_name} + 2)) "$ERR")" = "$cbi_name: " ]
		ok $? "bad input '$cbi_args' explained in one line naming '$cbi_text'" ||
			diag "$(cat "$ERR")"
	done <<EOF_TABLE
$cbi_table
EOF_TABLE
}
