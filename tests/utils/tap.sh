# SPDX-License-Identifier: MIT
#
# A small TAP producer for shell tests, with the names of the C helper in
# tap.h: plan_tests, ok, pass, fail, diag, skip, bail_out, exit_status.
# Source it, then:
#
#	plan_tests 2
#	test "$x" = 1; ok $? "x is one"
#	pass "nothing to check"
#	exit $(exit_status)	# or: exit_status; exit $?
#
# Output goes to stdout; automake's tap-driver.sh reads it.

tap_planned=0
tap_run=0
tap_failed=0

plan_tests()
{
	tap_planned=$1
	echo "1..$1"
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

# diag TEXT...: every line of TEXT as a TAP comment.
diag()
{
	printf '%s\n' "$*" | sed 's/^/# /'
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

# exit_status: 0 when every planned check ran and passed.
exit_status()
{
	if [ "$tap_run" -ne "$tap_planned" ]; then
		diag "planned $tap_planned checks, ran $tap_run"
		return 1
	fi
	[ "$tap_failed" -eq 0 ]
}
