#!/bin/sh
# SPDX-License-Identifier: MIT
#
# rpcsim --consumer=page_pool --trace with a real LTTng session: the
# page_pool:* events babeltrace2 reads back agree with rpcsim's JSON (one
# page_pool_alloc_slow per refill, their pages and mean latency; one
# state_hold per page taken from the allocator, one state_release per page
# given back; one page_pool_release per RX queue with nothing in flight),
# text mode says where the trace is, and no session is left behind.
# Isolated from the user's LTTng state as test_trace.sh is; skipped, not
# passed, without LTTng or that isolation.

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
# shellcheck source=tests/utils/lttng.sh
. "$top_srcdir/tests/utils/lttng.sh"
# Runs this script again, isolated, before anything is printed.
lttng_test_isolated "$0" "$@"

# shellcheck source=tests/rpcsim/common.sh
. "$top_srcdir/tests/rpcsim/common.sh"

if ! "$RPCSIM" --help | grep -q -- '--trace\[=DIR\]'; then
	echo "1..0 # SKIP rpcsim built without LTTng-UST"
	exit 0
fi
if ! have_python || ! command -v babeltrace2 >/dev/null 2>&1; then
	echo "1..0 # SKIP python3 or babeltrace2 missing"
	exit 0
fi

plan_tests 8
tap_at_exit lttng_cleanup
lttng_sessiond_up >"$tmpdir/why" || bail_out "$(cat "$tmpdir/why")"

# agree RPCSIM_JSON BABELTRACE_TEXT PID: what differs between the two.
agree()
{
	python3 - "$1" "$2" "$3" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
pid = sys.argv[3]
ev = {}
for line in open(sys.argv[2]):
    m = re.search(r"page_pool:(\w+): .*vpid = (\d+)", line)
    if not m or m.group(2) != pid:
        continue
    f = dict(re.findall(r"(\w+) = (-?\d+)", line.split("}, {", 2)[-1]))
    ev.setdefault(m.group(1), []).append(f)
m = d["modes"][0]
pp = m["page_pool"]
bad = []
lost = d["trace"]["discarded_events"] + d["trace"]["lost_packets"]
slow = ev.get("page_pool_alloc_slow", [])
if lost:
    print("the tracer lost events (%d): nothing to compare" % lost)
    sys.exit(0)
if len(slow) != pp["refills"]:
    bad.append("%d alloc_slow events, %d refills" % (len(slow), pp["refills"]))
if sum(int(f["allocated"]) for f in slow) != pp["refill_pages"]:
    bad.append("alloc_slow pages differ from refill_pages")
mean = sum(int(f["latency_ns"]) for f in slow) / max(len(slow), 1) / 1000
if abs(mean - m["mean_us"]) > 0.01 * m["mean_us"] + 0.001:
    bad.append("mean %.3f us in the trace, %.3f in rpcsim" % (mean, m["mean_us"]))
if len(ev.get("page_pool_state_hold", [])) != pp["hold"]:
    bad.append("state_hold events != hold %d" % pp["hold"])
if len(ev.get("page_pool_state_release", [])) != pp["release"]:
    bad.append("state_release events != release %d" % pp["release"])
rel = ev.get("page_pool_release", [])
if len(rel) != d["config"]["threads"] or \
   any(f["inflight"] != "0" or f["hold"] != f["release"] for f in rel):
    bad.append("page_pool_release: %s" % rel)
print("; ".join(bad) if bad else "%d refills, mean %.3f us" % (len(slow), mean))
sys.exit(1 if bad else 0)
PY
}

dir=$tmpdir/trace-pp
# Spawned, for its pid: the events of other processes are left out.
spawn --consumer=page_pool --threads=2 --requests=20000 \
	--free-mix=ring:1,held:1 --trace="$dir" --json
wait_bounded "$pid" "$RPCSIM_TIMEOUT"
ran_ok "rpcsim --consumer=page_pool --trace: runs"
cp "$OUT" "$tmpdir/rpcsim.json"
babeltrace2 "$dir" >"$tmpdir/bt.txt" 2>"$ERR"
ok $? "babeltrace2 reads the trace" || diag "$(head -c 1000 "$ERR")"
grep -q 'page_pool:page_pool_alloc_slow: ' "$tmpdir/bt.txt" &&
	grep -q 'page_pool:page_pool_state_hold: ' "$tmpdir/bt.txt" &&
	grep -q 'page_pool:page_pool_state_release: ' "$tmpdir/bt.txt" &&
	grep -q 'page_pool:page_pool_release: ' "$tmpdir/bt.txt"
ok $? "the trace has the four page_pool events"
! grep -q ' rpcsim:svc_alloc_arg' "$tmpdir/bt.txt"
ok $? "and no svc_alloc_arg events: this consumer does not fire them"
res=$(agree "$tmpdir/rpcsim.json" "$tmpdir/bt.txt" "$pid")
ok $? "trace and rpcsim agree ($res)"

run --consumer=page_pool --threads=1 --requests=2000 --trace="$tmpdir/t2"
ran_ok "rpcsim --consumer=page_pool --trace, text output: runs"
grep -q "^Trace $tmpdir/t2: its page_pool:\* events" "$OUT"
ok $? "text output says where the trace is" || diag "$(tail -n 3 "$OUT")"
lttng_cmd list 2>/dev/null | grep -q 'rpcsim-[0-9]*-[0-9]*'
[ $? -ne 0 ]
ok $? "no rpcsim session is left behind"
