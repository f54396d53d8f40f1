#!/bin/sh
# SPDX-License-Identifier: MIT
#
# sum-test-results.sh DIR...: add up the automake .trs files below each DIR
# and print "N passed, N failed, N skipped".  Exits 1 if anything failed or
# no test ran.
set -eu

find "$@" -name '*.trs' -exec cat {} + 2>/dev/null |
awk '
/^:test-result: (PASS|XFAIL)/	{ pass++ }
/^:test-result: (FAIL|XPASS|ERROR)/	{ fail++ }
/^:test-result: SKIP/		{ skip++ }
END {
	printf "%d passed, %d failed, %d skipped\n", pass, fail, skip
	exit (fail > 0 || pass == 0) ? 1 : 0
}'
