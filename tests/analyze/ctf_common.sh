# SPDX-License-Identifier: MIT
#
# The opening of the tests of rpcsim-analyze on small hand-made traces
# (test_ctf.sh, test_page_pool.sh): where things are, the tests' TAP
# helpers, $ANALYZE and $CTFGEN (tests/analyze/ctfgen.py, which writes
# the traces); the whole test is a skip without rpcsim-analyze or python3.

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
# shellcheck source=tests/utils/tap.sh
. "$top_srcdir/tests/utils/tap.sh"

ANALYZE=${ANALYZE:-$top_builddir/analyze/rpcsim-analyze}
CTFGEN=$top_srcdir/tests/analyze/ctfgen.py
tap_skip_without_prog "$ANALYZE" "configure found no libbabeltrace2"
have_python ||
	plan_skip_all "python3 missing (it writes the traces and checks the JSON)"
