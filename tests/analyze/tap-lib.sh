# SPDX-License-Identifier: MIT
# Minimal TAP for the analyze shell tests (sourced).  The plan is printed
# at the end by tap_done, which TAP allows.
#
#   tap_check "description" command args...   # ok if the command succeeds
#   tap_ok "description" / tap_not_ok "description"
#   tap_skip "reason"                           # one skipped check
#   tap_skip_all "reason"                       # 1..0 # SKIP, exit 0
#   tap_diag "text"
#   tap_done                                    # plan, exit status

tap_n=0
tap_failed=0

tap_ok()
{
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $*"
}

tap_not_ok()
{
	tap_n=$((tap_n + 1))
	tap_failed=$((tap_failed + 1))
	echo "not ok $tap_n - $*"
}

tap_check()
{
	tap_desc=$1
	shift
	if "$@"; then
		tap_ok "$tap_desc"
	else
		tap_not_ok "$tap_desc"
	fi
}

tap_skip()
{
	tap_n=$((tap_n + 1))
	echo "ok $tap_n # SKIP $*"
}

tap_skip_all()
{
	echo "1..0 # SKIP $*"
	exit 0
}

tap_diag()
{
	printf '%s\n' "$@" | sed 's/^/# /'
}

tap_done()
{
	echo "1..$tap_n"
	[ "$tap_failed" -eq 0 ]
	exit $?
}
