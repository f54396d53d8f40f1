# SPDX-License-Identifier: MIT
#
# Shared by pagebench's shell tests: where things are, the tests' TAP
# helpers, and how to run pagebench with a time limit, keeping its
# stdout, stderr and exit status.

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
# shellcheck source=tests/utils/tap.sh
. "$top_srcdir/tests/utils/tap.sh"

PAGEBENCH=${PAGEBENCH:-$top_builddir/pagebench/pagebench}
tap_need_prog "$PAGEBENCH"

# run ARGS...: pagebench into $OUT and $ERR, its status in $status.
run()
{
	run_cmd 120 "$PAGEBENCH" "$@"
}
