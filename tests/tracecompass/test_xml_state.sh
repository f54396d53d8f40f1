#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The Trace Compass state providers (tracecompass/rpcsim-threads.xml,
# rpcsim-bulk.xml, rpcsim-page-pool.xml) run by tc_state.py, a small
# interpreter of the data-driven elements they use, over hand-written
# events of three processes whose events interleave: process 100
# (rpcsim, threads 101 and 102), process 200 (lt-rpcsim, thread 201) and
# process 300 (in another pid namespace: its thread is also vtid 101).
# The state systems they build must keep each process's rows apart (a
# thread under its own process only, the current run of each process its
# own, even with a vtid two processes share), give each thread the
# states its events say, each bulk call its outcome (full, partial,
# fallback reasons, recorded as enumeration labels or, the same events
# again, as integers) and
# each page_pool its slow path and pages in flight.  The interpreter
# must refuse what it does not interpret rather than guess.  Needs
# python3 only; test_session_profile.sh runs the same on a real trace.

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
# shellcheck source=tests/utils/tap.sh
. "$top_srcdir/tests/utils/tap.sh"

have_python || plan_skip_all "python3 missing"

# shellcheck source=tests/tracecompass/tc_state.sh
. "$top_srcdir/tests/tracecompass/tc_state.sh"
tap_tmpdir tc-state

plan_tests 19

cat >"$tmpdir/events" <<'EOF'
# process 100 starts a list run, then process 200 an array run, while
# 100's runs; 300 (another pid namespace) reuses vtid 101
1000 rpcsim:run_start vpid=100 vtid=100 procname=rpcsim mode_name=list mode=list/1
1100 rpcsim:svc_alloc_arg_entry vpid=100 vtid=101 procname=rpcsim slots=16 holes=16 mode=list/1
1150 pagepool:mm_page_alloc_bulk vpid=100 vtid=101 procname=rpcsim requested=16 populated=0 allocated=16 variant=list/0 fallback=none/0
1200 rpcsim:run_start vpid=200 vtid=200 procname=lt-rpcsim mode_name=array mode=array/2
1250 rpcsim:svc_alloc_arg_entry vpid=100 vtid=102 procname=rpcsim slots=16 holes=16 mode=list/1
1300 rpcsim:svc_alloc_arg_entry vpid=200 vtid=201 procname=lt-rpcsim slots=8 holes=8 mode=array/2
1310 pagepool:mm_page_alloc_bulk vpid=200 vtid=201 procname=lt-rpcsim requested=8 populated=0 allocated=0 variant=array/1 fallback=empty/4
1320 rpcsim:svc_alloc_arg_err vpid=200 vtid=201 procname=lt-rpcsim requested=8 allocated=0
1330 rpcsim:run_start vpid=300 vtid=300 procname=rpcsim mode_name=single mode=single/0
1340 rpcsim:svc_alloc_arg_entry vpid=300 vtid=101 procname=rpcsim slots=2 holes=2 mode=single/0
1350 pagepool:mm_page_alloc_bulk vpid=100 vtid=102 procname=rpcsim requested=16 populated=4 allocated=8 variant=array/1 fallback=none/0
1360 pagepool:mm_page_alloc_bulk vpid=100 vtid=102 procname=rpcsim requested=16 populated=8 allocated=8 variant=array/1 fallback=none/0
1400 rpcsim:svc_alloc_arg_exit vpid=100 vtid=101 procname=rpcsim allocated=16 alloc_calls=1 retries=0 latency_ns=290
1450 pagepool:mm_page_alloc_bulk vpid=100 vtid=101 procname=rpcsim requested=16 populated=0 allocated=1 variant=list/0 fallback=watermark/2
1460 pagepool:mm_page_alloc_bulk vpid=100 vtid=101 procname=rpcsim requested=16 populated=1 allocated=1 variant=array/1 fallback=trylock/3
1470 pagepool:mm_page_alloc_bulk vpid=100 vtid=101 procname=rpcsim requested=16 populated=2 allocated=1 variant=array/1 fallback=9
1500 rpcsim:svc_alloc_arg_exit vpid=200 vtid=201 procname=lt-rpcsim allocated=8 alloc_calls=2 retries=1 latency_ns=190
1510 pagepool:mm_page_alloc_bulk vpid=200 vtid=201 procname=lt-rpcsim requested=1 populated=0 allocated=1 variant=array/1 fallback=one_page/1
1600 rpcsim:request vpid=100 vtid=102 procname=rpcsim op=READ/0 bytes=4096 request_pages=1
1700 rpcsim:run_end vpid=200 vtid=200 procname=lt-rpcsim mode=array/2 run=1 calls=1
1800 rpcsim:run_end vpid=100 vtid=100 procname=rpcsim mode=list/1 run=1 calls=2
1900 rpcsim:run_end vpid=300 vtid=300 procname=rpcsim mode=single/0 run=1 calls=0
# page_pool: the same pool address in processes 200 and 100
2000 page_pool:page_pool_state_hold vpid=200 vtid=202 procname=lt-rpcsim pool=0xaaa0 pfn=1 hold=1
2001 page_pool:page_pool_state_hold vpid=200 vtid=202 procname=lt-rpcsim pool=0xaaa0 pfn=2 hold=2
2002 page_pool:page_pool_state_hold vpid=100 vtid=103 procname=rpcsim pool=0xaaa0 pfn=7 hold=1
2003 page_pool:page_pool_state_hold vpid=200 vtid=202 procname=lt-rpcsim pool=0xaaa0 pfn=3 hold=3
2010 page_pool:page_pool_alloc_slow vpid=200 vtid=202 procname=lt-rpcsim pool=0xaaa0 mode=array/2 allocated=3 alloc_calls=1 latency_ns=700
2011 page_pool:page_pool_alloc_slow vpid=100 vtid=103 procname=rpcsim pool=0xaaa0 mode=single/0 allocated=1 alloc_calls=1 latency_ns=300
2020 page_pool:page_pool_state_release vpid=200 vtid=203 procname=lt-rpcsim pool=0xaaa0 pfn=1 release=1
2021 page_pool:page_pool_state_release vpid=200 vtid=203 procname=lt-rpcsim pool=0xaaa0 pfn=2 release=2
2030 page_pool:page_pool_alloc_slow vpid=200 vtid=202 procname=lt-rpcsim pool=0xaaa0 mode=array/2 allocated=0 alloc_calls=1 latency_ns=500
2040 page_pool:page_pool_release vpid=200 vtid=200 procname=lt-rpcsim pool=0xaaa0 inflight=1 hold=3 release=2
EOF

tc_state_all "the events" --script "$tmpdir/events"

# expect NAME DESCRIPTION: the Python expression on stdin is true of
# $tmpdir/NAME.json (h(path): the path's history, [[ts, value], ...];
# now(path): its last value; kids(path): its children's names).
expect()
{
	{
		cat <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
def h(p):
    return d.get(p)
def now(p):
    return d[p][-1][1] if d.get(p) else None
def kids(p):
    return sorted(k[len(p) + 1:] for k in d
                  if k.startswith(p + "/") and "/" not in k[len(p) + 1:])
PY
		printf "r = (\n%s\n)\n" "$(cat)"
		cat <<'PY'
if r is not True:
    print("false; the state system:")
    for k in sorted(d):
        print("  %s %s" % (k, d[k]))
    sys.exit(1)
PY
	} >"$tmpdir/expect.py"
	python3 "$tmpdir/expect.py" "$tmpdir/$1.json" >"$tmpdir/expect.out" 2>&1
	ok $? "$2" || diag "$(head -c 3000 "$tmpdir/expect.out")"
}

# 1. Threads: rows per process.
expect threads "threads: one row per process, its procname shown" <<'PY'
kids("Processes") == ["100", "200", "300"] and
    h("Processes/100") == [[1000, "rpcsim"]] and
    h("Processes/200") == [[1200, "lt-rpcsim"]] and
    h("Processes/300") == [[1330, "rpcsim"]]
PY
expect threads "threads: each thread under its own process only" <<'PY'
kids("Processes/100/Threads") == ["101", "102"] and
    kids("Processes/200/Threads") == ["201"] and
    kids("Processes/300/Threads") == ["101"]
PY
expect threads "threads: the current run per process, not overwritten by another's" <<'PY'
h("Processes/100/Run") == [[1000, "list"], [1800, None]] and
    h("Processes/200/Run") == [[1200, "array"], [1700, None]] and
    h("Processes/300/Run") == [[1330, "single"], [1900, None]]
PY
expect threads "threads: a vtid two processes share keeps two rows" <<'PY'
h("Processes/100/Threads/101") == [[1100, 2], [1400, 1]] and
    h("Processes/300/Threads/101") == [[1340, 2]]
PY
expect threads "threads: ALLOCATING, WAITING, SERVING from entry, err, exit and request" <<'PY'
h("Processes/200/Threads/201") == [[1300, 2], [1320, 3], [1500, 1]] and
    h("Processes/100/Threads/102") == [[1250, 2], [1600, 1]]
PY

# 2. Bulk: FULL 1, PARTIAL 2, ONE_PAGE 3, WATERMARK 4, TRYLOCK 5, EMPTY 6,
# OTHER 7, cleared at the allocating call's exit.
# The rows of 103 and 202 are empty: their page_pool_alloc_slow clears
# a bulk state they never had (Trace Compass makes the attribute).
expect bulk "bulk: a row per process and thread" <<'PY'
kids("Processes") == ["100", "200"] and
    kids("Processes/100/Threads") == ["101", "102", "103"] and
    kids("Processes/200/Threads") == ["201", "202"] and
    h("Processes/200/Threads/202") == [[2010, None]]
PY
expect bulk "bulk: full until the exit; labels and integers read alike" <<'PY'
h("Processes/100/Threads/101") ==
    [[1150, 1], [1400, None], [1450, 4], [1460, 5], [1470, 7]]
PY
expect bulk "bulk: partial when populated + allocated < requested, else full" <<'PY'
h("Processes/100/Threads/102") == [[1350, 2], [1360, 1]] and
    now("Processes/100/Threads/102/filled") == 16
PY
expect bulk "bulk: each process counts its own outcomes" <<'PY'
{k: now("Processes/100/Outcomes/" + k) for k in kids("Processes/100/Outcomes")}
    == {"full": 2, "partial": 1, "watermark": 1, "trylock": 1, "other": 1} and
{k: now("Processes/200/Outcomes/" + k) for k in kids("Processes/200/Outcomes")}
    == {"empty": 1, "one_page": 1}
PY
# Traces of earlier versions carry the fallback as a plain integer: the
# same events with every enumeration written as its number alone build
# the same bulk state system (each reason has its label's condition and
# its integer's).
sed 's/=[a-z_]*\/\([0-9]*\)/=\1/g' "$tmpdir/events" >"$tmpdir/events-int"
python3 "$tc" "$xmldir/rpcsim-bulk.xml" --script "$tmpdir/events-int" \
	>"$tmpdir/bulk-int.json" 2>"$tmpdir/bulk-int.err"
st=$?
[ $st -eq 0 ] && ! grep -q '=[a-z_]*/[0-9]' "$tmpdir/events-int" &&
	cmp -s "$tmpdir/bulk.json" "$tmpdir/bulk-int.json"
ok $? "bulk: the same states and counts from integers as from labels" ||
	diag "exit $st" "$(cat "$tmpdir/bulk-int.err")" \
		"$(diff "$tmpdir/bulk.json" "$tmpdir/bulk-int.json" | head -c 2000)"

# 3. page_pool, pool 0xaaa0 = 43680 in both processes.
expect page-pool "page_pool: the same pool address in two processes, two rows" <<'PY'
kids("Processes") == ["100", "200"] and
    kids("Processes/100/Pools") == ["43680"] and
    kids("Processes/200/Pools") == ["43680"]
PY
expect page-pool "page_pool: SLOW from the first page held, FAST or FAILED after the refill" <<'PY'
h("Processes/200/Pools/43680") == [[2000, 2], [2010, 1], [2030, 3], [2040, None]] and
    h("Processes/100/Pools/43680") == [[2002, 2], [2011, 1]]
PY
expect page-pool "page_pool: pages in flight, per pool, then page_pool_release's count" <<'PY'
[v for _, v in h("Processes/200/Pools/43680/inflight")] == [1, 2, 3, 2, 1] and
    now("Processes/100/Pools/43680/inflight") == 1
PY
expect page-pool "page_pool: refills, their pages and the latest latency, per pool" <<'PY'
now("Processes/200/Pools/43680/slow_calls") == 2 and
    now("Processes/200/Pools/43680/slow_pages") == 3 and
    now("Processes/200/Pools/43680/latency_ns") == 500 and
    now("Processes/100/Pools/43680/slow_calls") == 1
PY

# 4. What the interpreter does not know, it refuses.
sed 's/<stateValue type="null" \/>/<stateValue type="script" value="1" \/>/' \
	"$xmldir/rpcsim-threads.xml" >"$tmpdir/script.xml"
python3 "$tc" "$tmpdir/script.xml" --script "$tmpdir/events" \
	>"$tmpdir/out" 2>&1
st=$?
[ $st -eq 2 ] && grep -q "not interpreted: stateValue type script" "$tmpdir/out"
ok $? "a stateValue it does not interpret is refused (exit 2)" ||
	diag "exit $st" "$(cat "$tmpdir/out")"
sed 's/<stateValue type="long" value="1" increment="true" \/>/<stateValue type="int" value="1" increment="true" \/>/' \
	"$xmldir/rpcsim-page-pool.xml" >"$tmpdir/mixed.xml"
python3 "$tc" "$tmpdir/mixed.xml" --script "$tmpdir/events" \
	>"$tmpdir/out" 2>&1
st=$?
! cmp -s "$xmldir/rpcsim-page-pool.xml" "$tmpdir/mixed.xml" && [ $st -eq 2 ] &&
	grep -q "increment of .*inflight (a Integer) by a Long" "$tmpdir/out"
ok $? "an increment Trace Compass would fail on (an Integer by a Long) is refused" ||
	diag "exit $st" "$(cat "$tmpdir/out")"

exit_status
