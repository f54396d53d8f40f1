#!/bin/sh
# SPDX-License-Identifier: MIT
#
# rpcsim-analyze on hand-made traces of page_pool:* events (ctfgen.py):
# the per-mode refill figures, exact; each pool's hold/release balance:
# a balanced pool, a leak (holds > releases at destroy), a pool never
# destroyed, counts that disagree with page_pool_release (lost events),
# a pool pointer used again after its release; --pid; --jobs reads the
# same.  Needs python3, not LTTng.  tests/rpcsim/test_page_pool_trace.sh
# holds the analysis of a real trace against rpcsim's own figures.

# shellcheck source=tests/analyze/ctf_common.sh
. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/analyze/ctf_common.sh"
plan_no_plan
tap_tmpdir test-analyze-page-pool

# j FILE EXPR: EXPR is true of the JSON document d; mode(pid, m) and
# pools(pid, addr) pick from its "page_pool".
j()
{
	python3 - "$1" "$2" <<'EOF' 2>"$tmpdir/j.err"
import json, sys
d = json.load(open(sys.argv[1]))
pp = d.get("page_pool", {})
def mode(pid, m):
    return [x for x in pp["modes"] if x["pid"] == pid and x["mode"] == m][0]
def pools(pid, addr):
    return [x for x in pp["pools"] if x["pid"] == pid and x["pool"] == addr]
sys.exit(0 if eval("(" + sys.argv[2] + ")") else 1)
EOF
	j_rc=$?
	[ "$j_rc" -eq 0 ] || diag "false: $2" "$(cat "$tmpdir/j.err")"
	return "$j_rc"
}

# Process 7: pool 0x1000 refills in array mode twice (16 + 8 pages, 3 and
# 5 us), every page comes back; pool 0x2000 (list) keeps one page at
# destroy; pool 0x3000 is never destroyed.  Process 8: pool 0x1000
# (another process's pointer) in single mode, whose page_pool_release
# says 0 in flight though one release event is missing; then pool 0x1000
# again after its release: a new pool.  Two stream files, as per CPU.
mkdir -p "$tmpdir/pp"
python3 "$CTFGEN" --vpid "$tmpdir/pp" <<'EOF'
100 pp_slow pool=4096 mode=array allocated=16 alloc_calls=1 latency_ns=3000 vpid=7
110 pp_hold pool=4096 pfn=1 hold=1 vpid=7
120 pp_hold pool=4096 pfn=2 hold=2 vpid=7
130 pp_slow pool=4096 mode=array allocated=8 alloc_calls=1 latency_ns=5000 vpid=7
140 pp_slow pool=8192 mode=list allocated=4 alloc_calls=2 latency_ns=7001 vpid=7
150 pp_hold pool=8192 pfn=9 hold=1 vpid=7
160 pp_hold pool=8192 pfn=10 hold=2 vpid=7
170 pp_put pool=4096 pfn=1 release=1 vpid=7
180 pp_put pool=8192 pfn=9 release=1 vpid=7
stream 1
200 pp_put pool=4096 pfn=2 release=2 vpid=7
210 pp_destroy pool=4096 inflight=0 hold=2 release=2 vpid=7
220 pp_destroy pool=8192 inflight=1 hold=2 release=1 vpid=7
230 pp_hold pool=12288 pfn=20 hold=1 vpid=7
300 pp_slow pool=4096 mode=single allocated=1 alloc_calls=1 latency_ns=1000 vpid=8
310 pp_hold pool=4096 pfn=5 hold=1 vpid=8
320 pp_slow pool=4096 mode=single allocated=0 alloc_calls=1 latency_ns=2000 vpid=8
330 pp_destroy pool=4096 inflight=0 hold=1 release=1 vpid=8
340 pp_hold pool=4096 pfn=6 hold=1 vpid=8
350 pp_put pool=4096 pfn=6 release=1 vpid=8
360 pp_destroy pool=4096 inflight=0 hold=1 release=1 vpid=8
EOF
ok $? "ctfgen writes page_pool events"

timeout 30 "$ANALYZE" "$tmpdir/pp" >"$tmpdir/pp.out" 2>"$tmpdir/pp.err"
ok $? "a trace of page_pool events only is analysed" ||
	diag "$(cat "$tmpdir/pp.err")"
file_has "$tmpdir/pp.out" \
	'^Bulk array (pid 7):  4.000 us per refill over 2 refills$' \
	'^Bulk list (pid 7):  7.001 us per refill over 1 refills$' \
	'^Single page (pid 8):  1.500 us per refill over 2 refills$'
ok $? "text: the seed-style line per mode and process" ||
	diag "$(cat "$tmpdir/pp.out")"
file_has "$tmpdir/pp.out" \
	'^  pool 0x1000 (pid 7, array): 2 holds, 2 releases, 0 in flight at destroy: balanced$' \
	'^  pool 0x2000 (pid 7, list): 2 holds, 1 releases, 1 in flight at destroy: a leak$' \
	'^  pool 0x3000 (pid 7): 1 holds, 0 releases, not destroyed in the trace, 1 pages held$'
ok $? "text: balanced, leaked and never destroyed pools" ||
	diag "$(cat "$tmpdir/pp.out")"
file_has "$tmpdir/pp.err" \
	'warning: page_pool 0x2000 (pid 7): .*a leak' \
	'warning: page_pool 0x3000 (pid 7): .*not destroyed' \
	'warning: page_pool 0x1000 (pid 8): 1 holds, 0 releases, 0 in flight at destroy: but holds - releases is 1 (events lost?)' &&
	[ "$(grep -c warning "$tmpdir/pp.err")" -eq 3 ]
ok $? "a warning per pool that does not balance, none for the others" ||
	diag "$(cat "$tmpdir/pp.err")"

timeout 30 "$ANALYZE" --json "$tmpdir/pp" >"$tmpdir/pp.json" 2>/dev/null
ok $? "--json: exit 0"
j "$tmpdir/pp.json" 'pp["events"] == 20 and d["rpcsim_events"] == 0 and d["modes"] == []'
ok $? "--json: the page_pool events counted apart from the runs"
j "$tmpdir/pp.json" 'mode(7, "array") == {"pid": 7, "mode": "array",
    "refills": 2, "pages": 24, "alloc_calls": 2, "empty": 0,
    "pages_per_refill": 12.0, "mean_ns": 4000.0, "mean_us": 4.0,
    "min_ns": 3000, "max_ns": 5000, "sum_ns": 8000}'
ok $? "--json: array mode's refills, exact"
j "$tmpdir/pp.json" 'mode(7, "list")["alloc_calls"] == 2 and
    mode(7, "list")["mean_us"] == 7.001 and
    mode(8, "single")["empty"] == 1 and mode(8, "single")["pages"] == 1 and
    len(pp["modes"]) == 3'
ok $? "--json: list and single modes, a refill that got no page"
j "$tmpdir/pp.json" '[p["balanced"] for p in pools(7, "0x1000")] == [True] and
    pools(7, "0x1000")[0]["inflight"] == 0 and
    pools(7, "0x2000")[0]["balanced"] is False and
    pools(7, "0x2000")[0]["inflight"] == 1 and
    pools(7, "0x2000")[0]["holds"] - pools(7, "0x2000")[0]["releases"] == 1 and
    pools(7, "0x3000")[0]["destroyed"] is False and
    pools(7, "0x3000")[0]["inflight"] is None'
ok $? "--json: the balance of process 7's pools"
j "$tmpdir/pp.json" '[(p["holds"], p["releases"], p["balanced"], p["mode"])
    for p in pools(8, "0x1000")] == [(1, 0, False, "single"), (1, 1, True, None)]'
ok $? "--json: a pointer used again after its release is a new pool"
j "$tmpdir/pp.json" 'len(d["warnings"]) == 3'
ok $? "--json: the three warnings"

timeout 30 "$ANALYZE" --json --pid=8 "$tmpdir/pp" >"$tmpdir/pid.json" 2>/dev/null
j "$tmpdir/pid.json" '{m["pid"] for m in pp["modes"]} == {8} and
    {p["pid"] for p in pp["pools"]} == {8} and len(d["warnings"]) == 1'
ok $? "--pid=8: only that process's modes, pools and warnings"

for n in 2 3; do
	timeout 30 "$ANALYZE" --json --jobs=$n "$tmpdir/pp" \
		>"$tmpdir/jobs$n.json" 2>/dev/null &&
		python3 - "$tmpdir/pp.json" "$tmpdir/jobs$n.json" <<'EOF'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
sys.exit(0 if a["page_pool"] == b["page_pool"] and
         a["warnings"] == b["warnings"] else 1)
EOF
	ok $? "--jobs=$n reads the same page_pool figures"
done

# Both consumers in one trace (two rpcsim processes in one session):
# the nfsd runs and the page_pool refills, each reported
mkdir -p "$tmpdir/both"
python3 "$CTFGEN" --vpid "$tmpdir/both" <<'EOF'
1000 run_start mode=2 run=0 mode_name=array threads=1 vpid=5
2000 entry vtid=10 mode=2 vpid=5
4000 exit vtid=10 latency_ns=2000 allocated=3 alloc_calls=1 vpid=5
4100 pp_slow pool=64 mode=list allocated=2 alloc_calls=1 latency_ns=900 vpid=6
4200 pp_hold pool=64 pfn=1 hold=1 vpid=6
4300 pp_put pool=64 pfn=1 release=1 vpid=6
4400 pp_destroy pool=64 inflight=0 hold=1 release=1 vpid=6
5000 run_end mode=2 run=0 calls=1 pages=3 latency_sum_ns=2000 vpid=5
EOF
timeout 30 "$ANALYZE" "$tmpdir/both" >"$tmpdir/both.out" 2>"$tmpdir/both.err"
st=$?
grep -qx 'Bulk array:   2.000 us per call over 1 calls' "$tmpdir/both.out" &&
	grep -qx 'Bulk list:    0.900 us per refill over 1 refills' "$tmpdir/both.out" &&
	grep -qx '  pool 0x40 (pid 6, list): 1 holds, 1 releases, 0 in flight at destroy: balanced' "$tmpdir/both.out" &&
	[ "$st" -eq 0 ] && [ ! -s "$tmpdir/both.err" ]
ok $? "a trace of both consumers reports both" ||
	diag "exit $st" "$(cat "$tmpdir/both.out" "$tmpdir/both.err")"
timeout 30 "$ANALYZE" --json "$tmpdir/both" >"$tmpdir/both.json" 2>/dev/null
j "$tmpdir/both.json" 'd["modes"][0]["runs"][0]["calls"] == 1 and
    mode(6, "list")["refills"] == 1 and pools(6, "0x40")[0]["balanced"]'
ok $? "--json: the nfsd mode and the page_pool figures"

# A pool whose field values disagree with page_pool_release's count
mkdir -p "$tmpdir/lost"
python3 "$CTFGEN" --vpid "$tmpdir/lost" <<'EOF'
10 pp_hold pool=16 pfn=1 hold=1 vpid=3
20 pp_put pool=16 pfn=1 release=1 vpid=3
30 pp_destroy pool=16 inflight=0 hold=2 release=2 vpid=3
EOF
timeout 30 "$ANALYZE" "$tmpdir/lost" >"$tmpdir/lost.out" 2>"$tmpdir/lost.err"
grep -qx '  pool 0x10 (pid 3): 1 holds, 1 releases, 0 in flight at destroy: but the pool counted 2 holds, 2 releases (events lost?)' "$tmpdir/lost.out"
ok $? "a pool that counted more than its events is not balanced" ||
	diag "$(cat "$tmpdir/lost.out")"

exit_status
