# SPDX-License-Identifier: MIT
#
# Shared by the tests that run rpcsim's Trace Compass analyses through
# tc_state.py (test_xml_state.sh on a script of events,
# test_session_profile.sh on a real trace): where the two are, and the
# three analyses run over one input.  Sourced after tap.sh.

tc=$top_srcdir/tests/tracecompass/tc_state.py
xmldir=$top_srcdir/tracecompass

# tc_state_all WHAT OPTION FILE: tc_state.py runs rpcsim-threads.xml,
# rpcsim-bulk.xml and rpcsim-page-pool.xml over FILE (OPTION: --script or
# --babeltrace), each state system into $tmpdir/NAME.json (threads, bulk,
# page-pool): a check each, "tc_state.py runs rpcsim-NAME.xml over WHAT".
tc_state_all()
{
	for tsa_name in threads bulk page-pool; do
		python3 "$tc" "$xmldir/rpcsim-$tsa_name.xml" "$2" "$3" \
			>"$tmpdir/$tsa_name.json" 2>"$tmpdir/$tsa_name.err"
		ok $? "tc_state.py runs rpcsim-$tsa_name.xml over $1" ||
			diag "$(cat "$tmpdir/$tsa_name.err")"
	done
}
