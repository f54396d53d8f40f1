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
