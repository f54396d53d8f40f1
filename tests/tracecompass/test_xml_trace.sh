#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The Trace Compass XML analyses against real traces: rpcsim --trace
# --trace-events=all records every rpcsim and pagepool event with the
# vtid, vpid and procname contexts, once with the nfsd consumer and once
# with the page_pool one (its page_pool events), babeltrace2 prints the
# traces' metadata, and every event, field and context the analyses read
# must be in it (check_xml.py --metadata); the headers' parse
# (test_xml.sh) must agree with it on every event both have, and a wrong
# field must still be refused.
# Its own LTTNG_HOME and session daemon, stopped by its pid, as every
# LTTng test (tests/utils/lttng.sh); skipped without LTTng or python3.

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
# shellcheck source=tests/utils/tap.sh
. "$top_srcdir/tests/utils/tap.sh"
# shellcheck source=tests/utils/lttng.sh
. "$top_srcdir/tests/utils/lttng.sh"

RPCSIM=$top_builddir/rpcsim/rpcsim
have_python || plan_skip_all "python3 missing"
if ! "$RPCSIM" --help 2>/dev/null | grep -q -- '--trace\[=DIR\]'; then
	plan_skip_all "rpcsim built without LTTng-UST"
fi
# Runs this script again, isolated, before anything is printed.
lttng_test_isolated "$0" "$@"

check=$top_srcdir/tests/tracecompass/check_xml.py
headers="$top_srcdir/tracepoints/rpcsim_tp.h $top_srcdir/tracepoints/pagepool_tp.h $top_srcdir/tracepoints/page_pool_tp.h"
xmls=$(ls "$top_srcdir"/tracecompass/*.xml)
tap_tmpdir tc-xml-trace
tap_at_exit lttng_cleanup

plan_tests 7
lttng_sessiond_up >"$tmpdir/why" || bail_out "$(cat "$tmpdir/why")"

timeout 120 "$RPCSIM" --alloc=array --requests=200 --threads=2 \
	--trace="$tmpdir/trace" --trace-events=all --quiet \
	>"$tmpdir/rpcsim.out" 2>"$tmpdir/rpcsim.err"
st=$?
ok $st "rpcsim --trace --trace-events=all records a trace" ||
	diag "exit $st" "$(head -c 2000 "$tmpdir/rpcsim.err")"
timeout 120 "$RPCSIM" --consumer=page_pool --alloc=array --threads=2 \
	--trace="$tmpdir/trace-pp" --trace-events=all --quiet \
	>"$tmpdir/rpcsim-pp.out" 2>"$tmpdir/rpcsim-pp.err"
st=$?
ok $st "rpcsim --consumer=page_pool --trace --trace-events=all records a trace" ||
	diag "exit $st" "$(head -c 2000 "$tmpdir/rpcsim-pp.err")"

# The metadata of the stream folder(s); one per ABI, one here.
: >"$tmpdir/metadata.txt"
find "$tmpdir/trace" "$tmpdir/trace-pp" -type f -name metadata >"$tmpdir/metadata.list"
while read -r md; do
	babeltrace2 -o ctf-metadata "$(dirname "$md")" >>"$tmpdir/metadata.txt" ||
		echo "babeltrace2 failed on $md" >>"$tmpdir/metadata.err"
done <"$tmpdir/metadata.list"
[ -s "$tmpdir/metadata.txt" ] && [ ! -s "$tmpdir/metadata.err" ]
ok $? "babeltrace2 -o ctf-metadata prints the trace's metadata" ||
	diag "$(cat "$tmpdir/metadata.err" 2>/dev/null)"

python3 "$check" --names --metadata "$tmpdir/metadata.txt" -- \
	>"$tmpdir/trace-names" 2>&1
grep -q '^context .*\bprocname\b.*\bvpid\b.*\bvtid\b' "$tmpdir/trace-names" &&
	grep -q '^page_pool:page_pool_alloc_slow .*\blatency_ns\b' "$tmpdir/trace-names" &&
	grep -q '^rpcsim:svc_alloc_arg_entry .*\bmode\b' "$tmpdir/trace-names"
ok $? "the metadata names the events, their fields and the three contexts" ||
	diag "$(cat "$tmpdir/trace-names")"

# Every event of the trace that the headers declare has the same fields
# in both, and every rpcsim event is in the trace.
# shellcheck disable=SC2086 # $headers is two paths
python3 "$check" --names $headers -- >"$tmpdir/header-names" 2>&1
python3 - "$tmpdir/header-names" "$tmpdir/trace-names" >"$tmpdir/diff" <<'PY'
import sys
def load(p):
    return {l.split()[0]: set(l.split()[1:]) for l in open(p) if l.strip()}
h, t = load(sys.argv[1]), load(sys.argv[2])
bad = ["%s: headers %s, trace %s" % (e, sorted(h[e]), sorted(t[e]))
       for e in sorted(h) if e in t and h[e] != t[e]]
bad += ["%s is not in the trace" % e for e in sorted(h)
        if e.startswith(("rpcsim:", "page_pool:")) and e not in t]
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
ok $? "the headers' events and fields are the trace's" ||
	diag "$(cat "$tmpdir/diff")"
diag "events in the trace: $(cut -d' ' -f1 "$tmpdir/trace-names" | tr '\n' ' ')"

# shellcheck disable=SC2086 # $xmls is two paths
python3 "$check" --metadata "$tmpdir/metadata.txt" -- $xmls >"$tmpdir/out" 2>&1
ok $? "every event, field and context the analyses read is in the trace" ||
	diag "$(cat "$tmpdir/out")"

sed 's/value="alloc_calls"/value="allocator_calls"/' \
	"$top_srcdir/tracecompass/rpcsim-latency.xml" >"$tmpdir/bad.xml"
python3 "$check" --metadata "$tmpdir/metadata.txt" -- "$tmpdir/bad.xml" \
	>"$tmpdir/out" 2>&1
st=$?
[ $st -eq 1 ] && grep -q "unknown field 'allocator_calls'" "$tmpdir/out"
ok $? "a field the trace does not have is refused" ||
	diag "exit $st" "$(cat "$tmpdir/out")"

exit_status
