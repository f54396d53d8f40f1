#!/bin/sh
# SPDX-License-Identifier: MIT
#
# A by-hand LTTng session, as doc/tracing.md's recipe records it, on a machine
# where several rpcsim processes run at the same time:
#   1. three processes into one session: rpcsim-analyze reports each one
#      apart (never merged), and each one's calls and mean are the ones
#      that process measured itself, and so are its calls by refill size
#      (B serves READs only: no call refills one page); --pid selects one;
#      C reads its WRITEs in 64 KiB pieces, and its svc_tcp_recv_short
#      events are the short reads rpcsim counted, with the kernel's two
#      counts; each run's entry, exit, request and bulk fields, its
#      run_start's configuration and its run_end add up to what its
#      process counted (C on the jemalloc backend);
#   2. the trace schema: every field the providers emitted into that real
#      trace is a row of the schema (rpcsim-analyze --schema), and every
#      row's report key is in rpcsim-analyze --json: nothing is emitted
#      and left unread; a failed single page's mm_page_alloc has a pfn of
#      all ones;
#   3. the enumerations: babeltrace2 prints mode, op, backend, contract,
#      bulk API and fallback by name;
#   4. the log levels: --loglevel=TRACE_INFO records the run summaries
#      (run_start, run_end) and nothing per call, nor any pagepool event.
#
# It never sees or touches the user's LTTng state (lttng_isolate,
# tests/utils/lttng.sh): its own LTTNG_HOME and, as root, its own
# /var/run/lttng and session daemon, stopped by its pid.

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
# shellcheck source=tests/utils/tap.sh
. "$top_srcdir/tests/utils/tap.sh"
# shellcheck source=tests/utils/lttng.sh
. "$top_srcdir/tests/utils/lttng.sh"

ANALYZE=$top_builddir/analyze/rpcsim-analyze
RPCSIM=$top_builddir/rpcsim/rpcsim

tap_skip_without_prog "$ANALYZE" "configure found no libbabeltrace2"
grep -q '^#define HAVE_LTTNG_UST 1' "$top_builddir/config.h" 2>/dev/null ||
	plan_skip_all "rpcsim built without LTTng-UST tracepoints"
lttng_test_isolated "$0" "$@"
have_python || plan_skip_all "python3 missing (it checks the JSON)"

plan_tests 18
tap_tmpdir test-session
tap_at_exit lttng_cleanup
lttng_sessiond_up >"$tmpdir/why" 2>&1 || bail_out "$(cat "$tmpdir/why")"
diag "lttng-sessiond pid $lttng_started_pid ($PP_LTTNG_ISOLATED)"

# session NAME DIR EVENT_OPTS...: create, channel, events, contexts, start
session()
{
	s_name=$1-$$
	s_dir=$2
	shift 2
	lttng_cmd create "$s_name" --output="$s_dir" >/dev/null &&
	lttng_cmd enable-channel -u -s "$s_name" c0 --subbuf-size=4M \
		--num-subbuf=4 >/dev/null &&
	lttng_cmd enable-event -u -s "$s_name" -c c0 "$@" >/dev/null &&
	lttng_cmd add-context -u -s "$s_name" -c c0 -t vtid -t vpid \
		-t procname >/dev/null &&
	lttng_cmd start "$s_name" >/dev/null
}

# done_session NAME: stop (flushes) and destroy
done_session()
{
	lttng_cmd stop "$1-$$" >"$tmpdir/stop.out" 2>&1
	lttng_cmd destroy "$1-$$" >/dev/null 2>&1
}

# 1. Three processes, one session.
if ! session two "$tmpdir/two" 'rpcsim:*,pagepool:*'; then
	bail_out "cannot set up the session"
fi
# Different thread counts and seeds: two runs of one mode (array), which
# the analysis used to merge.  B serves READs only, so that each of its
# calls refills more than one page.  C runs on the jemalloc backend, so
# that its run_start's backend (1) and contract (0) differ.  A warms up
# first (50 untimed requests a thread, before its run_start), which
# neither rpcsim's figures nor the analysis's count.
"$RPCSIM" --alloc=array --requests=3000 --threads=2 --seed=1 --warmup=50 --json \
	>"$tmpdir/a.json" 2>"$tmpdir/a.err" &
pid_a=$!
"$RPCSIM" --alloc=array --requests=2000 --threads=1 --seed=2 \
	--mix=read:1,write:0 --json \
	>"$tmpdir/b.json" 2>"$tmpdir/b.err" &
pid_b=$!
"$RPCSIM" --alloc=list --requests=300 --threads=1 --seed=3 --tcp-read=64k \
	--backend=jemalloc --json >"$tmpdir/tcp.json" 2>"$tmpdir/tcp.err" &
pid_c=$!
wait_pid $pid_a 120
st_a=$status
wait_pid $pid_b 120
st_b=$status
wait_pid $pid_c 120
st_c=$status
done_session two
ok $(( st_a || st_b || st_c )) "three rpcsim processes ran (exit $st_a, $st_b, $st_c)" ||
	diag "$(cat "$tmpdir/a.err" "$tmpdir/b.err" "$tmpdir/tcp.err")"
diag "pids $pid_a, $pid_b and $pid_c; lttng stop: $(cat "$tmpdir/stop.out")"

timeout 120 "$ANALYZE" --json "$tmpdir/two" >"$tmpdir/two.json" 2>"$tmpdir/two.err"
ok $? "rpcsim-analyze reads the trace of all three" ||
	diag "$(cat "$tmpdir/two.err")"

# --jobs: the stream files (one per CPU and buffer) decoded by several
# processes, merged by time, give the document one process gives
nstreams=$(find "$tmpdir/two" -path '*/index' -prune -o -type f ! -name metadata -print | wc -l)
timeout 120 "$ANALYZE" --jobs=1 --json "$tmpdir/two" >"$tmpdir/two-j1.json" \
	2>"$tmpdir/two-j1.err"
st1=$?
timeout 120 "$ANALYZE" --jobs=2 --json "$tmpdir/two" >"$tmpdir/two-j2.json" \
	2>"$tmpdir/two-j2.err"
st2=$?
[ "$nstreams" -ge 2 ] && [ $st1 -eq 0 ] && [ $st2 -eq 0 ] &&
	cmp -s "$tmpdir/two-j1.json" "$tmpdir/two-j2.json" &&
	cmp -s "$tmpdir/two-j1.err" "$tmpdir/two-j2.err"
ok $? "--jobs=2 on $nstreams stream files: the JSON and warnings of --jobs=1" ||
	diag "exit $st1, $st2; $(diff "$tmpdir/two-j1.json" "$tmpdir/two-j2.json" | head -20)"

# split RPCSIM_JSON PID: that process's figures against its own
split()
{
	python3 - "$tmpdir/two.json" "$1" "$2" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))
r = json.load(open(sys.argv[2]))
pid = int(sys.argv[3])
rm = [m for m in r["modes"] if m["mode"] == "array"][0]
am = [m for m in a["modes"] if m["pid"] == pid]
bad = []
if len(am) != 1:
    print("%d modes of pid %d in the report: %s" %
          (len(am), pid, [(m["pid"], m["label"]) for m in a["modes"]]))
    sys.exit(1)
am = am[0]
if am["procname"] is None or not am["procname"].endswith("rpcsim"):
    bad.append("procname %r" % am["procname"])
if am["calls"] != rm["calls"]:
    bad.append("calls %d in the trace, %d measured" % (am["calls"], rm["calls"]))
warm = r["config"]["warmup"] * r["config"]["threads"]
if am["calls_outside_runs"] != warm:
    bad.append("%d calls outside the run left out, %d warm-up calls"
               % (am["calls_outside_runs"], warm))
mean_r = rm["mean_us"] * 1000.0
mean_a = am["latency_ns"]["mean_ns"]
if abs(mean_a - mean_r) > 0.01 * mean_r + 1:
    bad.append("mean %.1f ns in the trace, %.1f ns measured" % (mean_a, mean_r))
# By refill size, the mode and its one run (rpcsim's per_run, the
# report's run with a run_start): every call in one kind, the one-page
# calls those rpcsim counted, the kinds' means making the mean.
timed = [x for x in am["runs"] if x["config"]]
for where, a_, r_ in (("mode", am, rm),
                      ("run", timed[0] if timed else None, rm["per_run"][0])):
    if a_ is None:
        break
    b = a_["by_refill"]
    one, more = b["one_page"], b["more_pages"]
    if one["calls"] + more["calls"] != a_["calls"]:
        bad.append("%s: by_refill calls %d + %d, calls %d"
                   % (where, one["calls"], more["calls"], a_["calls"]))
    if one["calls"] != r_["by_refill"]["one_page"]["calls"]:
        bad.append("%s: %d one-page calls in the trace, %d measured"
                   % (where, one["calls"], r_["by_refill"]["one_page"]["calls"]))
    mean = sum(k["mean_us"] * k["calls"] for k in (one, more) if k["calls"])
    if a_["calls"] and abs(mean / a_["calls"] - a_["mean_us"]) > 1e-3:
        bad.append("%s: by_refill means make %.4f us, mean %.4f us"
                   % (where, mean / a_["calls"], a_["mean_us"]))
runs = am["runs"]
if [x["config"]["pid"] for x in runs if x["config"]] != [pid]:
    bad.append("runs %s" % [(x["run"], x["config"]) for x in runs])
elif am["run_end"] is None or not am["run_end"]["calls_match"]:
    bad.append("run_end %s" % am["run_end"])
print("; ".join(bad) if bad else "pid %d: %d calls, mean %.1f ns (rpcsim %.1f), "
      "%d of one page" % (pid, am["calls"], mean_a, mean_r,
                          am["by_refill"]["one_page"]["calls"]))
sys.exit(1 if bad else 0)
PY
}
out=$(split "$tmpdir/a.json" $pid_a)
ok $? "process A reported apart, with its own calls, mean and calls by refill size, its warm-up left out" || true
diag "$out"
out=$(split "$tmpdir/b.json" $pid_b)
ok $? "process B reported apart, with its own calls, mean and calls by refill size" || true
diag "$out"
# C: each WRITE record (256 KiB of data, its header, its marker) read
# 64 KiB at a time is 4 short reads, after 64, 128, 192 and 256 KiB less
# the marker (the kernel's received); expected, the record less its
# marker, is one length for every WRITE.
python3 - "$tmpdir/two.json" "$tmpdir/tcp.json" $pid_c >"$tmpdir/tcp.out" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))
r = json.load(open(sys.argv[2]))
m = [m for m in a["modes"] if m["pid"] == int(sys.argv[3])][0]
rm = r["modes"][0]
bad = []
writes = m["request"]["op"]["WRITE"]
rs = m["recv_short"]
if rm["short_reads"] != rs["events"] or rs["events"] != 4 * writes:
    bad.append("%d svc_tcp_recv_short, rpcsim %d, %d WRITEs"
               % (rs["events"], rm["short_reads"], writes))
if m["run_end"]["short_reads"] != rs["events"]:
    bad.append("run_end short_reads %s" % m["run_end"]["short_reads"])
if rs["received"] != writes * (65536 * (1 + 2 + 3 + 4) - 4 * 4):
    bad.append("received %d" % rs["received"])
if writes == 0 or rs["expected"] % rs["events"] or \
        not 262144 < rs["expected"] // rs["events"] < 262144 + 4096:
    bad.append("expected %d over %d short reads" % (rs["expected"], rs["events"]))
if m["calls"] != 300 + rs["events"]:
    bad.append("calls %d" % m["calls"])
cfg = [x["config"] for x in m["runs"] if x["config"]]
if [c["tcp_read"] for c in cfg] != [65536]:
    bad.append("config %s" % cfg)
print("; ".join(bad) if bad else "pid %s: %d WRITEs, %d short reads"
      % (sys.argv[3], writes, rs["events"]))
sys.exit(1 if bad else 0)
PY
ok $? "process C: its svc_tcp_recv_short events are rpcsim's short reads, with the kernel's counts" || true
diag "$(cat "$tmpdir/tcp.out")"
# Each process's timed run, field by field, against what that process
# counted itself: every call's entry and exit, every request, every bulk
# call and the run's own run_start and run_end.  A field that records
# the wrong value (two arguments swapped, one off) has the right format;
# only these sums tell (rpcsim says tcp_read null for whole records,
# the trace 0).  No call waits here (a pool of 1 GiB), so every
# call that entered exited.
python3 - "$tmpdir/two.json" "$tmpdir/a.json" $pid_a "$tmpdir/b.json" $pid_b \
	"$tmpdir/tcp.json" $pid_c >"$tmpdir/fields.out" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))
bad = []
for path, pid in zip(sys.argv[2::2], sys.argv[3::2]):
    r = json.load(open(path))
    rm, c = r["modes"][0], r["config"]
    m = [m for m in a["modes"] if m["pid"] == int(pid)][0]
    t = [x for x in m["runs"] if x["config"]][0]
    def want(what, got, exp):
        if got != exp:
            bad.append("pid %s: %s %s, rpcsim %s" % (pid, what, got, exp))
    want("entries", t["entry"]["events"], rm["calls"])
    want("exits", t["exit"]["events"], rm["calls"])
    want("entry.slots", t["entry"]["slots"], rm["calls"] * c["rq_pages"])
    # a call fills the holes it found: its entry's holes, its exit's
    # allocated, the pages rpcsim counts
    want("entry.holes", t["entry"]["holes"], rm["pages"])
    want("exit.allocated", t["exit"]["allocated"], rm["pages"])
    want("exit.alloc_calls", t["exit"]["alloc_calls"], rm["alloc_calls"])
    want("exit.retries", t["exit"]["retries"], rm["no_progress"])
    q = t["request"]
    want("requests", q["events"], rm["requests"])
    want("READs", q["op"]["READ"], rm["reads"])
    want("WRITEs", q["op"]["WRITE"], rm["writes"])
    want("request.bytes", q["bytes"], rm["bytes_read"] + rm["bytes_written"])
    # a READ's call fits one page; a WRITE's is its header and io_size
    # bytes of data: io_size / 4096 + 1 pages
    want("request.pages", q["pages"],
         rm["reads"] + rm["writes"] * (c["io_size"] // 4096 + 1))
    # the run's bulk calls: each an allocator call, each fallback for the
    # reason rpcsim counted, and each that did not fall back to one page
    # for want of a pcp list (trylock: a drain, or another thread of the
    # CPU holding the lock list; under ThreadSanitizer's slow threads a
    # run has some), the watermark or pages filled every entry asked
    # for: populated + allocated = requested, or short by at least one
    # entry per such fallback; a list's populated 0
    b, k = t["bulk"], rm["counters"]
    want("bulk calls", b["calls"], rm["alloc_calls"])
    want("bulk API", b["api"], {"list": k["alloc_bulk_list_calls"],
                                "array": k["alloc_bulk_array_calls"]})
    want("bulk.allocated", b["allocated"], rm["pages"])
    fb = b["fallback"]
    for x in ("one_page", "watermark", "trylock", "empty"):
        want(x + " fallbacks", fb[x], k["bulk_fallback_" + x])
    short = fb["watermark"] + fb["trylock"] + fb["empty"]
    filled = b["populated"] + b["allocated"]
    if short == 0:
        want("bulk.populated + allocated", filled, b["requested"])
    elif b["requested"] - filled < short:
        bad.append("pid %s: bulk.populated + allocated %d of %d requested, "
                   "with %d calls short" % (pid, filled, b["requested"],
                                            short))
    if b["api"]["list"]:
        want("a list's bulk.populated", b["populated"], 0)
    e = t["run_end"]
    for f in ("calls", "pages", "requests", "no_progress", "short_reads"):
        want("run_end." + f, e[f], rm[f])
    tc = t["config"]
    for f, v in (("threads", c["threads"]), ("slots", c["rq_pages"]),
                 ("io_size", c["io_size"]), ("max_payload", c["max_payload"]),
                 ("pool_pages", c["pool_pages"]),
                 ("file_pages", c["file_pages"]),
                 ("pcp_batch", c["pcp_batch"]), ("pcp_high", c["pcp_high"]),
                 ("completion", c["completion"]),
                 ("read_weight", c["mix"]["read"]),
                 ("write_weight", c["mix"]["write"]), ("seed", c["seed"]),
                 ("backend", c["backend"]), ("contract", c["bulk_variant"]),
                 ("tcp_read", c["tcp_read"] or 0)):
        want("run_start " + f, tc[f], v)
print("; ".join(bad) if bad else "3 processes' runs agree")
sys.exit(1 if bad else 0)
PY
ok $? "each run's entry, exit, request, bulk, run_start and run_end fields are what its process counted" ||
	diag "$(cat "$tmpdir/fields.out")"
! grep -q "merged\|DIFFER" "$tmpdir/two.err"
ok $? "no run merged, no count differing" || diag "$(cat "$tmpdir/two.err")"

timeout 120 "$ANALYZE" --pid=$pid_b "$tmpdir/two" >"$tmpdir/b.txt" 2>"$tmpdir/b.err2"
[ $? -eq 0 ] && [ "$(grep -c '^Bulk array:' "$tmpdir/b.txt")" -eq 1 ] &&
	! grep -q '^Process' "$tmpdir/b.txt"
ok $? "--pid=$pid_b: one process, one Bulk array line" ||
	diag "$(cat "$tmpdir/b.txt" "$tmpdir/b.err2")"
# B's READs only: rpcsim's words for a kind without a call, in the text
# and (null figures) in the JSON
grep -q '^  by refill: 1 page: no calls; more: mean [0-9.]*, p50 [0-9.]* us (2,000 calls)$' "$tmpdir/b.txt" &&
	python3 - "$tmpdir/two.json" $pid_b <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
m = [m for m in d["modes"] if m["pid"] == int(sys.argv[2])][0]
for g in [m] + m["runs"]:
    if g["by_refill"]["one_page"] != {"calls": 0, "mean_us": None,
                                      "p50_us": None, "p90_us": None}:
        sys.exit("%s" % g["by_refill"])
PY
ok $? "READs only (B): one page: no calls, null figures" ||
	diag "$(grep 'by refill' "$tmpdir/b.txt")"
timeout 120 "$ANALYZE" "$tmpdir/two" >"$tmpdir/two.txt" 2>/dev/null
[ "$(grep -c '^Process pid' "$tmpdir/two.txt")" -eq 3 ]
ok $? "the text report has a section per process" ||
	diag "$(head -n 30 "$tmpdir/two.txt")"
timeout 60 "$ANALYZE" --pid=1 "$tmpdir/two" >/dev/null 2>"$tmpdir/nopid.err"
[ $? -eq 1 ] && grep -q "no event of process 1 (--pid): the trace holds .*$pid_a" "$tmpdir/nopid.err"
ok $? "--pid of a process not in the trace: exit 1, the pids it holds" ||
	diag "$(cat "$tmpdir/nopid.err")"

# 2. The schema against the real trace, and one of a run that stalls
#    (svc_alloc_arg_err happens only then): a pool that PAGEPOOL_FAULT
#    leaves 300 pages short, which rpcsim reports as a stall (exit 1).
min=$(python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["config"]["min_pool_pages"])' "$tmpdir/a.json")
if session stall "$tmpdir/stall" 'rpcsim:*,pagepool:*'; then
	PAGEPOOL_FAULT=buddy-empty=$((min - 16384 - 300)) "$RPCSIM" \
		--threads=2 --pool-size=$((min * 4))k --requests=1000 \
		--retry-wait=100 --alloc=single >/dev/null 2>"$tmpdir/stall.err"
	diag "stalling run: exit $?, $(tail -n 1 "$tmpdir/stall.err")"
	done_session stall
fi
timeout 120 babeltrace2 "$tmpdir/two" >"$tmpdir/two.bt" 2>"$tmpdir/bt.err" &&
	timeout 120 babeltrace2 "$tmpdir/stall" >>"$tmpdir/two.bt" 2>>"$tmpdir/bt.err"
ok $? "babeltrace2 reads both traces" || diag "$(head -n 5 "$tmpdir/bt.err")"
# A single page the allocator could not give: mm_page_alloc says so with
# a pfn of all ones, as the kernel's does.  Only the stalling run fails
# an allocation here, each failed call one svc_alloc_arg_err.
nerr=$(grep -c ' rpcsim:svc_alloc_arg_err: ' "$tmpdir/two.bt")
nfail=$(grep ' pagepool:mm_page_alloc: ' "$tmpdir/two.bt" |
	grep -c 'pfn = 0xFFFFFFFFFFFFFFFF,')
[ "$nerr" -gt 0 ] && [ "$nfail" -eq "$nerr" ]
ok $? "each failed single page is an mm_page_alloc with a pfn of all ones ($nfail, $nerr svc_alloc_arg_err)"
"$ANALYZE" --schema >"$tmpdir/schema.txt"
python3 - "$tmpdir/two.bt" "$tmpdir/schema.txt" "$tmpdir/two.json" >"$tmpdir/schema.out" <<'PY'
import json, re, sys
emitted = {}
for line in open(sys.argv[1]):
    m = re.search(r" (rpcsim:\w+|pagepool:\w+): (.*)$", line)
    if not m:
        continue
    # the payload is the last { ... }; enumerations nest ( ... )
    payload = m.group(2).rsplit("}, {", 1)[-1]
    names = re.findall(r"(?:^|, |\{ )(\w+) = ", payload)
    emitted.setdefault(m.group(1), set()).update(names)
rows = {}
for line in open(sys.argv[2]):
    ev, field, typ, need, key = line.rstrip("\n").split("\t")
    rows.setdefault(ev, {})[field] = key
bad = []
for ev, fields in sorted(emitted.items()):
    if ev not in rows:
        # kmem-shaped events are counted by name (trace_schema.h)
        if ev.startswith("pagepool:") and ev != "pagepool:mm_page_alloc_bulk":
            continue
        bad.append("event %s is not in the schema" % ev)
        continue
    for f in sorted(fields - set(rows[ev])):
        bad.append("%s.%s emitted, not in the schema" % (ev, f))
a = json.load(open(sys.argv[3]))
runs = [r for m in a["modes"] for r in m["runs"] if r["config"]]
for ev, fields in rows.items():
    # rpcsim --consumer=page_pool's events: not in this nfsd session, and
    # reported per pool, not per run (tests/rpcsim/test_page_pool_trace.sh)
    if ev.startswith("page_pool:"):
        continue
    if ev not in emitted:
        bad.append("no %s event in the trace" % ev)
        continue
    for f, key in fields.items():
        for r in runs:
            v = r
            for k in key.split("."):
                v = v.get(k) if isinstance(v, dict) else None
            if v is None:
                bad.append("%s.%s: no %s in a run of the report" % (ev, f, key))
                break
print("\n".join(bad) if bad else "%d events, %d fields checked"
      % (len(rows), sum(len(f) for f in rows.values())))
sys.exit(1 if bad else 0)
PY
ok $? "every emitted field is in the schema, every row is in the report" ||
	true
diag "$(cat "$tmpdir/schema.out")"

# 3. Enumerations by name.
grep -q 'mode = ( "array" : container = 2 )' "$tmpdir/two.bt" &&
	grep -q 'op = ( "\(READ\|WRITE\)" : container = [01] )' "$tmpdir/two.bt" &&
	grep -q 'backend = ( "buddy" : container = 0 )' "$tmpdir/two.bt" &&
	grep -q 'bulk_variant = ( "merged" : container = 0 )' "$tmpdir/two.bt" &&
	grep -q 'variant = ( "array" : container = 1 ), fallback = ( "[a-z_]*" : container = [0-4] )' "$tmpdir/two.bt"
ok $? "babeltrace2 prints mode, op, backend, contract, API, fallback by name" ||
	diag "$(grep -m 3 'run_start\|mm_page_alloc_bulk' "$tmpdir/two.bt")"

# 4. Log levels: the run summaries alone, the allocator's events (all
#    below rpcsim's) left out too.
if session info "$tmpdir/info" 'rpcsim:*,pagepool:*' --loglevel=TRACE_INFO; then
	"$RPCSIM" --alloc=list --requests=500 >/dev/null 2>"$tmpdir/c.err"
	st=$?
	done_session info
	timeout 60 babeltrace2 "$tmpdir/info" 2>/dev/null |
		sed -n 's/.* \([a-z_]*:[a-z_]*\): .*/\1/p' | sort -u >"$tmpdir/info.ev"
	[ $st -eq 0 ] && [ "$(tr '\n' ' ' <"$tmpdir/info.ev")" = "rpcsim:run_end rpcsim:run_start " ]
	ok $? "--loglevel=TRACE_INFO records run_start and run_end only" ||
		diag "exit $st; events: $(cat "$tmpdir/info.ev")"
	timeout 60 "$ANALYZE" "$tmpdir/info" >"$tmpdir/info.txt" 2>&1
	[ $? -eq 0 ] && grep -q '^  run_end: .* us per call over [0-9,]* calls (in-process)  (no per-call event recorded)$' "$tmpdir/info.txt" &&
		! grep -q warning "$tmpdir/info.txt"
	ok $? "rpcsim-analyze reports a summaries-only trace by run_end, no warning" ||
		diag "$(cat "$tmpdir/info.txt")"
else
	fail "the TRACE_INFO session"
	fail "the TRACE_INFO session"
fi
