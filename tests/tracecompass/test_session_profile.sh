#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The session profile tracecompass/rpcsim-session.lttng, as
# doc/tracing.md says to use it: valid against LTTng's own session
# schema, naming no output folder (no one's home in it), loaded with
# "lttng load --override-url" into a session daemon this test started
# itself, then three rpcsim processes recorded at once (nfsd consumer
# with --alloc=list and 2 threads, nfsd with --alloc=array and 3
# threads, page_pool consumer; 300 requests or packets each).  The trace must hold their events with
# the vpid, vtid and procname contexts, and the Trace Compass analyses,
# run by tc_state.py over it (babeltrace2's text), must give each process
# its own rows: its pid and name, its own current run, its own threads
# (the ones its events came from, no other's), its own bulk outcome
# counts and page_pool pools, each matching that process's events.
#
# Its own LTTNG_HOME and, as root, its own /var/run/lttng and session
# daemon, stopped by its pid (lttng_isolate, tests/utils/lttng.sh): the
# user's LTTng configuration, sessions and daemon are never seen or
# touched.  Skipped, saying why, without LTTng, python3 or an rpcsim
# built with LTTng-UST.

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
# shellcheck source=tests/utils/tap.sh
. "$top_srcdir/tests/utils/tap.sh"
# shellcheck source=tests/utils/lttng.sh
. "$top_srcdir/tests/utils/lttng.sh"

RPCSIM=$top_builddir/rpcsim/rpcsim
profile=$top_srcdir/tracecompass/rpcsim-session.lttng
# shellcheck source=tests/tracecompass/tc_state.sh
. "$top_srcdir/tests/tracecompass/tc_state.sh"

have_python || plan_skip_all "python3 missing"
grep -q '^#define HAVE_LTTNG_UST 1' "$top_builddir/config.h" 2>/dev/null ||
	plan_skip_all "rpcsim built without LTTng-UST tracepoints"
# Runs this script again, isolated, before anything is printed.
lttng_test_isolated "$0" "$@"

plan_tests 16
tap_tmpdir tc-session
tap_at_exit lttng_cleanup

# 1. The file itself.
schema=/usr/share/xml/lttng/session.xsd
if ! command -v xmllint >/dev/null 2>&1; then
	skip 1 "xmllint missing (apt-get install libxml2-utils)"
elif [ ! -f "$schema" ]; then
	skip 1 "LTTng's session schema is not at $schema"
else
	xmllint --noout --schema "$schema" "$profile" >"$tmpdir/out" 2>&1
	ok $? "rpcsim-session.lttng is valid against LTTng's session schema" ||
		diag "$(cat "$tmpdir/out")"
fi
# shellcheck disable=SC2016 # a literal $HOME
! grep -n -E '<output>|<path>|/home/|/root|~/|\$HOME' "$profile" >"$tmpdir/out"
ok $? "it names no output folder and no home" || diag "$(cat "$tmpdir/out")"

# 2. Loaded into our own daemon, the output given at load time.
lttng_sessiond_up >"$tmpdir/why" 2>&1 || bail_out "$(cat "$tmpdir/why")"
diag "lttng-sessiond pid $lttng_started_pid ($PP_LTTNG_ISOLATED)"
s=tc-$$
trace=$tmpdir/trace
lttng_sessions="$lttng_sessions $s"
lttng_cmd load -i "$profile" --override-url="file://$trace" \
	--override-name="$s" rpcsim >"$tmpdir/load.out" 2>&1 &&
	lttng_cmd list "$s" >"$tmpdir/list.out" 2>&1
ok $? "lttng load -i rpcsim-session.lttng --override-url=file://DIR" ||
	diag "$(cat "$tmpdir/load.out" "$tmpdir/list.out" 2>/dev/null)"
grep -q "Trace output: $trace/\?\$" "$tmpdir/list.out" &&
	grep -q 'rpcsim:\* (type: tracepoint) \[enabled\]' "$tmpdir/list.out" &&
	grep -q 'pagepool:mm_page_alloc_bulk (type: tracepoint) \[enabled\]' "$tmpdir/list.out" &&
	grep -q 'page_pool:\* (type: tracepoint) \[enabled\]' "$tmpdir/list.out"
ok $? "the loaded session writes to DIR and records the three providers' events" ||
	diag "$(cat "$tmpdir/list.out")"

# 3. Three processes at once.  --requests is shared by a run's threads,
# and on a busy machine a thread that starts late can find none left
# (a row fewer); one untimed request per thread (--warmup) gives every
# thread a call of its own.
lttng_cmd start "$s" >"$tmpdir/start.out" 2>&1 ||
	bail_out "lttng start: $(cat "$tmpdir/start.out")"
"$RPCSIM" --alloc=list --requests=300 --warmup=1 --threads=2 --seed=1 --quiet \
	>"$tmpdir/a.out" 2>"$tmpdir/a.err" &
pid_a=$!
"$RPCSIM" --alloc=array --requests=300 --warmup=1 --threads=3 --seed=2 --quiet \
	>"$tmpdir/b.out" 2>"$tmpdir/b.err" &
pid_b=$!
"$RPCSIM" --consumer=page_pool --alloc=array --threads=2 --requests=300 --quiet \
	>"$tmpdir/c.out" 2>"$tmpdir/c.err" &
pid_c=$!
wait_pid $pid_a 120
st_a=$status
wait_pid $pid_b 120
st_b=$status
wait_pid $pid_c 120
st_c=$status
lttng_cmd stop "$s" >"$tmpdir/stop.out" 2>&1
st_stop=$?
lttng_cmd destroy "$s" >/dev/null 2>&1
lttng_sessions=$(echo "$lttng_sessions" | sed "s/ $s//")
[ $st_a -eq 0 ] && [ $st_b -eq 0 ] && [ $st_c -eq 0 ] && [ $st_stop -eq 0 ]
ok $? "three rpcsim processes ran under the session (pids $pid_a, $pid_b, $pid_c)" ||
	diag "exit $st_a $st_b $st_c, stop $st_stop" \
		"$(cat "$tmpdir/a.err" "$tmpdir/b.err" "$tmpdir/c.err" "$tmpdir/stop.out")"
diag "lttng stop: $(tr '\n' ' ' <"$tmpdir/stop.out")"

timeout 300 babeltrace2 --clock-cycles --names=all --no-delta "$trace" \
	>"$tmpdir/trace.txt" 2>"$tmpdir/bt.err"
st=$?
[ $st -eq 0 ] && [ -s "$tmpdir/trace.txt" ]
ok $? "babeltrace2 reads the trace ($(wc -l <"$tmpdir/trace.txt") events)" ||
	diag "exit $st" "$(head -c 2000 "$tmpdir/bt.err")"

# The events, read as tc_state.py reads them, for the checks below.
cat >"$tmpdir/events.py" <<PY
import collections, sys
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, "$top_srcdir/tests/tracecompass")
import tc_state
A, B, C = $pid_a, $pid_b, $pid_c
EV = list(tc_state.babeltrace_events("$tmpdir/trace.txt"))
def count(name, **match):
    return collections.Counter(
        tuple(e["context"].get(k) if k in ("vpid", "vtid") else
              e["fields"].get(k) for k in ("vpid",) + tuple(match))
        for e in EV if e["name"] == name)
PY
# check DESCRIPTION: the Python on stdin exits 0 (state JSONs as
# T, BULK, PP: {"PATH": [[ts, value], ...]}).
check()
{
	{
		cat "$tmpdir/events.py"
		cat <<'PY'
import json
T = json.load(open(sys.argv[1]))
BULK = json.load(open(sys.argv[2]))
PP = json.load(open(sys.argv[3]))
def kids(d, p):
    return sorted(k[len(p) + 1:] for k in d
                  if k.startswith(p + "/") and "/" not in k[len(p) + 1:])
def values(d, p):
    return [v for _, v in d.get(p, [])]
def now(d, p):
    return d[p][-1][1] if d.get(p) else None
bad = []
PY
		cat
		cat <<'PY'
print("\n".join(map(str, bad)))
sys.exit(1 if bad else 0)
PY
	} >"$tmpdir/check.py"
	python3 "$tmpdir/check.py" "$tmpdir/threads.json" "$tmpdir/bulk.json" \
		"$tmpdir/page-pool.json" >"$tmpdir/check.out" 2>&1
	ok $? "$1" || diag "$(head -c 3000 "$tmpdir/check.out")"
}

tc_state_all "the trace" --babeltrace "$tmpdir/trace.txt"

check "every event carries vpid, vtid and procname, from our three processes only" <<'PY'
for e in EV:
    c = e["context"]
    if set(c) < {"vpid", "vtid", "procname"}:
        bad.append("%s: contexts %s" % (e["name"], sorted(c)))
        break
pids = {e["context"].get("vpid") for e in EV}
if pids != {A, B, C}:
    bad.append("processes in the trace: %s, not %s" % (sorted(pids), [A, B, C]))
names = {e["context"].get("procname") for e in EV}
if not all(str(n).endswith("rpcsim") for n in names):
    bad.append("procnames %s" % names)
PY

check "threads: a row per nfsd process, named by its pid, showing its procname" <<'PY'
if kids(T, "Processes") != sorted([str(A), str(B)]):
    bad.append("process rows %s" % kids(T, "Processes"))
for p in (A, B):
    if not str(now(T, "Processes/%d" % p)).endswith("rpcsim"):
        bad.append("process %d shows %r" % (p, now(T, "Processes/%d" % p)))
PY
check "threads: each process's current run is its own (list, array)" <<'PY'
if values(T, "Processes/%d/Run" % A) != ["list", None]:
    bad.append("run of %d: %s" % (A, T.get("Processes/%d/Run" % A)))
if values(T, "Processes/%d/Run" % B) != ["array", None]:
    bad.append("run of %d: %s" % (B, T.get("Processes/%d/Run" % B)))
PY
check "threads: each process's threads are the ones its calls came from (2 and 3)" <<'PY'
entries = count("rpcsim:svc_alloc_arg_entry", vtid=1)
for p, n in ((A, 2), (B, 3)):
    rows = kids(T, "Processes/%d/Threads" % p)
    mine = sorted(str(t) for (v, t) in entries if v == p)
    if rows != mine or len(rows) != n:
        bad.append("threads of %d: rows %s, calls from %s" % (p, rows, mine))
    for t in rows:
        allocating = values(T, "Processes/%d/Threads/%s" % (p, t)).count(2)
        if allocating != entries[(p, int(t))]:
            bad.append("%d/%s: %d ALLOCATING, %d entries"
                       % (p, t, allocating, entries[(p, int(t))]))
if set(kids(T, "Processes/%d/Threads" % A)) & set(kids(T, "Processes/%d/Threads" % B)):
    bad.append("a thread row under both processes")
PY
check "bulk: each process's outcome counts add up to its own bulk calls" <<'PY'
calls = count("pagepool:mm_page_alloc_bulk")
for p in (A, B, C):
    outs = {k: now(BULK, "Processes/%d/Outcomes/%s" % (p, k))
            for k in kids(BULK, "Processes/%d/Outcomes" % p)}
    if not calls[(p,)] or sum(outs.values()) != calls[(p,)]:
        bad.append("process %d: outcomes %s, %d bulk calls" % (p, outs, calls[(p,)]))
PY
check "page_pool: only the page_pool process has pools; refills per pool match its events" <<'PY'
if kids(PP, "Processes") != [str(C)]:
    bad.append("page_pool processes %s" % kids(PP, "Processes"))
slow = count("page_pool:page_pool_alloc_slow", pool=1)
pools = kids(PP, "Processes/%d/Pools" % C)
want = sorted({str(e["fields"]["pool"]) for e in EV
               if e["name"].startswith("page_pool:")})
if not slow or pools != want:
    bad.append("pools %s, page_pool events from %s" % (pools, want))
for pool in pools:
    n = now(PP, "Processes/%d/Pools/%s/slow_calls" % (C, pool)) or 0
    if n != slow[(C, int(pool))]:
        bad.append("pool %s: %s slow calls, %d events" % (pool, n, slow[(C, int(pool))]))
PY
check "page_pool: pages in flight at each pool's release are page_pool_release's count" <<'PY'
held = collections.Counter()
releases = 0
for e in EV:
    if e["context"].get("vpid") != C:
        continue
    key = e["fields"].get("pool")
    if e["name"] == "page_pool:page_pool_state_hold":
        held[key] += 1
    elif e["name"] == "page_pool:page_pool_state_release":
        held[key] -= 1
    elif e["name"] == "page_pool:page_pool_release":
        releases += 1
        path = "Processes/%d/Pools/%d/inflight" % (C, key)
        before = [0] + [v for ts, v in PP.get(path, []) if ts < e["ts"]]
        if held[key] != e["fields"]["inflight"] or before[-1] != held[key]:
            bad.append("pool %d: %d in flight by the events, %s by the "
                       "analysis, page_pool_release says %d"
                       % (key, held[key], before[-1:], e["fields"]["inflight"]))
if not releases:
    bad.append("no page_pool_release event")
PY
diag "page_pool's pools (slow calls, in flight at the end): $(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
last = lambda p: d[p][-1][1] if d.get(p) else None
print(", ".join("%s (%s, %s)" % (k.split("/")[3], last(k + "/slow_calls"),
                                 last(k + "/inflight"))
                for k in sorted(d) if k.count("/") == 3))' "$tmpdir/page-pool.json")"

exit_status
