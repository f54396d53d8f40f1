#!/bin/sh
# SPDX-License-Identifier: MIT
#
# rpcsim --consumer=page_pool --trace with a real LTTng session: the
# page_pool:* events babeltrace2 reads back agree with rpcsim's JSON (one
# page_pool_alloc_slow per refill, their pages and mean latency; one
# state_hold per page taken from the allocator, one state_release per page
# given back, each with its pool's running count; one page_pool_release
# per RX queue with nothing in flight); rpcsim-analyze reads the same
# from it (refills, their pages, allocator calls and mean per refill,
# each pool's holds and releases, balanced); text mode prints
# rpcsim-analyze's figures after rpcsim's own, and no session is left
# behind.
# Isolated from the user's LTTng state as test_trace.sh is; skipped, not
# passed, without LTTng or that isolation.

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
# shellcheck source=tests/utils/lttng.sh
. "$top_srcdir/tests/utils/lttng.sh"
# Runs this script again, isolated, before anything is printed.
lttng_test_isolated "$0" "$@"

# shellcheck source=tests/rpcsim/common.sh
. "$top_srcdir/tests/rpcsim/common.sh"

need_trace
if ! have_python || ! command -v babeltrace2 >/dev/null 2>&1 ||
	[ ! -x "$ANALYZE" ]; then
	echo "1..0 # SKIP python3, babeltrace2 or rpcsim-analyze missing"
	exit 0
fi

plan_tests 11
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
    f["pool"] = re.search(r"pool = (0x[0-9A-Fa-f]+)", line).group(1)
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
# each pool's running counts: its state_hold events carry hold 1, 2, ...
# up to their number, its state_release events release likewise (the
# releases come from several threads: in any order)
for kind, key in (("page_pool_state_hold", "hold"),
                  ("page_pool_state_release", "release")):
    per = {}
    for f in ev.get(kind, []):
        per.setdefault(f["pool"], []).append(int(f[key]))
    for pool, counts in sorted(per.items()):
        if sorted(counts) != list(range(1, len(counts) + 1)):
            bad.append("%s of pool %s: %s counts, not 1 to %d"
                       % (kind, pool, key, len(counts)))
rel = ev.get("page_pool_release", [])
if len(rel) != d["config"]["threads"] or \
   any(f["inflight"] != "0" or f["hold"] != f["release"] for f in rel):
    bad.append("page_pool_release: %s" % rel)
print("; ".join(bad) if bad else "%d refills, mean %.3f us" % (len(slow), mean))
sys.exit(1 if bad else 0)
PY
}

# analysis RPCSIM_JSON ANALYZE_JSON PID: what differs between rpcsim's
# figures and rpcsim-analyze's of its trace.
analysis()
{
	python3 - "$1" "$2" "$3" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
a = json.load(open(sys.argv[2]))
pid = int(sys.argv[3])
if d["trace"]["discarded_events"] + d["trace"]["lost_packets"]:
    print("the tracer lost events: nothing to compare")
    sys.exit(0)
bad = []
pp = a.get("page_pool", {"modes": [], "pools": []})
for m in d["modes"]:
    r = m["page_pool"]
    am = [x for x in pp["modes"] if x["pid"] == pid and x["mode"] == m["mode"]]
    if len(am) != 1:
        bad.append("%s: %d modes in the analysis" % (m["mode"], len(am)))
        continue
    am = am[0]
    if am["refills"] != r["refills"] or am["pages"] != r["refill_pages"]:
        bad.append("%s: %d refills of %d pages, rpcsim %d of %d" % (
            m["mode"], am["refills"], am["pages"], r["refills"], r["refill_pages"]))
    if am["alloc_calls"] != m["alloc_calls"]:
        bad.append("%s: %d allocator calls, rpcsim %d" % (m["mode"], am["alloc_calls"], m["alloc_calls"]))
    if am["empty"] != m["no_progress"]:
        bad.append("%s: %d refills got no page, rpcsim %d" % (m["mode"], am["empty"], m["no_progress"]))
    # the same latency values: the same mean, to rpcsim's 3 decimals
    if round(am["mean_us"], 3) != round(m["mean_us"], 3):
        bad.append("%s: mean %.3f us, rpcsim %.3f" % (m["mode"], am["mean_us"], m["mean_us"]))
pools = [p for p in pp["pools"] if p["pid"] == pid]
hold = sum(m["page_pool"]["hold"] for m in d["modes"])
release = sum(m["page_pool"]["release"] for m in d["modes"])
runs = sum(m.get("runs", 1) for m in d["modes"])
if len(pools) != d["config"]["threads"] * runs:
    bad.append("%d pools, rpcsim ran %d" % (len(pools), d["config"]["threads"] * runs))
if sum(p["holds"] for p in pools) != hold or sum(p["releases"] for p in pools) != release:
    bad.append("holds/releases %d/%d, rpcsim %d/%d" % (
        sum(p["holds"] for p in pools), sum(p["releases"] for p in pools), hold, release))
if not all(p["balanced"] and p["inflight"] == 0 for p in pools):
    bad.append("a pool does not balance: %s" % [p["balance"] for p in pools])
if a["warnings"]:
    bad.append("warnings: %s" % a["warnings"])
print("; ".join(bad) if bad else "%d pools balanced, %s" % (len(pools),
      ", ".join("%s %d refills" % (x["mode"], x["refills"]) for x in pp["modes"])))
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
timeout 120 "$ANALYZE" --json --pid="$pid" "$dir" >"$tmpdir/analyze.json" 2>"$ERR"
ok $? "rpcsim-analyze --json reads the page_pool trace" ||
	diag "$(head -c 1000 "$ERR")"
res=$(analysis "$tmpdir/rpcsim.json" "$tmpdir/analyze.json" "$pid")
ok $? "rpcsim-analyze agrees with rpcsim ($res)"

run --consumer=page_pool --alloc=all --threads=1 --requests=2000 \
	--trace="$tmpdir/t2"
ran_ok "rpcsim --consumer=page_pool --trace, text output: runs"
grep -qx "Trace $tmpdir/t2, as rpcsim-analyze reads it:" "$OUT"
ok $? "text output prints the trace's analysis" || diag "$(tail -n 3 "$OUT")"
n=0
for m in 'Single page' 'Bulk list' 'Bulk array'; do
	grep -q "^$m: *[0-9.]* us per refill over [0-9,]* refills$" "$OUT" &&
		n=$((n + 1))
done
[ "$n" -eq 3 ] && [ "$(grep -c '^  pool 0x[0-9a-f]* (pid [0-9]*, [a-z]*): .*: balanced$' "$OUT")" -eq 3 ]
ok $? "each mode's refills and its balanced pool, beside rpcsim's figures" ||
	diag "$(tail -n 12 "$OUT")"
lttng_cmd list 2>/dev/null | grep -q 'rpcsim-[0-9]*-[0-9]*'
[ $? -ne 0 ]
ok $? "no rpcsim session is left behind"
