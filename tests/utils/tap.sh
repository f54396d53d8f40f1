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
