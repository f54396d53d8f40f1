#!/bin/sh
# SPDX-License-Identifier: MIT
#
# --json is one valid JSON document (no NaN or Infinity) whose numbers
# agree: calls are the sum over threads and equal the requests, bytes
# read and written are the READs' and WRITEs' I/O, each request's reply
# is one completion (the warm-up's not counted), pages per call is
# pages / calls, percentiles are ordered and each is the one its
# histogram gives, every page allocated was freed at exit, --repeat gives
# one entry per run and the across-run figures are those of the runs'
# means, and the text's latency figures are the JSON's.
#
# libpagepool's per-CPU event counters can currently lose updates when
# threads race on one CPU's counters, so pgalloc == pgfree is only
# checked where nothing races; elsewhere rpcsim's own books and the pool's
# page state are.

# Option lists in variables are split into words on purpose.
# shellcheck disable=SC2086
# shellcheck source=tests/rpcsim/common.sh
. "$top_srcdir/tests/rpcsim/common.sh"

plan_tests 14

have_python || skip_rest "python3 not found"

# check_json EXPECTED_REQUESTS EXPECTED_RUNS [exact-counters]: check $OUT.
check_json()
{
	python3 - "$OUT" "$@" <<'PY'
import json, math, sys

path, requests, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
exact = len(sys.argv) > 4

def no_constants(name):
    raise ValueError("non-JSON number " + name)

with open(path) as f:
    doc = json.load(f, parse_constant=no_constants)
errors = []

def check(cond, what):
    if not cond:
        errors.append(what)

def latency(o, where):
    p = o["percentiles_us"]
    check(o["min_us"] <= p["p50"] <= p["p90"] <= p["p99"] <= p["p99.9"]
          <= o["max_us"], where + ": percentiles out of order")
    check(o["min_us"] <= o["mean_us"] <= o["max_us"],
          where + ": mean outside min..max")
    check(o["stddev_us"] >= 0, where + ": negative stddev")
    # The calls by refill size: every call in one kind; a READ leaves
    # two holes or more (the head page and at least one spliced page), a
    # WRITE one, so the one-page refills are the calls after a WRITE:
    # the writes but for each thread's first call and its last request.
    b = o["by_refill"]
    one, more = b["one_page"], b["more_pages"]
    check(one["calls"] + more["calls"] == o["calls"],
          where + ": by_refill calls != calls")
    check(abs(one["calls"] - o["writes"]) <= cfg["threads"] * o.get("runs", 1),
          where + ": one-page refills %d, writes %d" % (one["calls"],
                                                        o["writes"]))
    for k in (one, more):
        if k["calls"]:
            check(o["min_us"] <= k["p50_us"] <= k["p90_us"] <= o["max_us"],
                  where + ": by_refill percentiles out of order")
    # Each percentile is the middle of the bucket its rank (ceil(pct% of
    # the calls)) falls in, within min..max: the histogram's own buckets
    # say which, to the nanosecond.
    h = o["histogram"]["buckets"]
    lo_ns, hi_ns = round(o["min_us"] * 1000), round(o["max_us"] * 1000)
    for key, pct in (("p50", 50), ("p90", 90), ("p99", 99), ("p99.9", 99.9),
                     ("p99.99", 99.99)):
        rank = min(max(math.ceil(pct / 100.0 * o["calls"]), 1), o["calls"])
        seen = 0
        for lo, hi, c in h:
            seen += c
            if seen >= rank:
                break
        v = min(max(lo + (hi - lo) // 2, lo_ns), hi_ns)
        check(round(p[key] * 1000) == v,
              "%s: %s %r us, its histogram gives %d ns" %
              (where, key, p[key], v))
    if one["calls"] and more["calls"]:
        mean = (one["mean_us"] * one["calls"] + more["mean_us"] *
                more["calls"]) / o["calls"]
        check(abs(mean - o["mean_us"]) <= 1e-3 + 1e-6 * o["mean_us"],
              where + ": by_refill means do not make the mean")

cfg = doc["config"]
check(doc["program"] == "rpcsim", "program")
check(cfg["rq_pages"] == (cfg["sv_max_mesg"] + 8192) // 4096, "rq_pages")
for m in doc["modes"]:
    name = m["mode"]
    check(m["runs"] == runs and len(m["per_run"]) == runs,
          name + ": run count")
    check(m["calls"] == sum(r["calls"] for r in m["per_run"]),
          name + ": calls != sum over runs")
    check(m["requests"] == requests * runs, name + ": requests")
    latency(m, name)
    a = m["across_runs"]
    check(a["min_us"] <= a["trimmed_mean_us"] <= a["max_us"],
          name + ": trimmed mean outside min..max")
    # The across-run figures are those of the runs' means: sample stddev
    # (n - 1), and with three runs or more one lowest and one highest
    # dropped from the trimmed mean.  The means come through the JSON's
    # 10 significant digits, hence the relative 1e-7.
    means = sorted(r["mean_us"] for r in m["per_run"])
    avg = sum(means) / len(means)
    sd = (sum((x - avg) ** 2 for x in means) / (len(means) - 1)) ** 0.5 \
        if len(means) > 1 else 0
    kept = means[1:-1] if len(means) >= 3 else means
    want = {"n": len(means), "avg_us": avg, "stddev_us": sd,
            "min_us": means[0], "max_us": means[-1],
            "trimmed_mean_us": sum(kept) / len(kept),
            "trimmed": 2 if len(means) >= 3 else 0}
    for k, v in want.items():
        check(abs(a[k] - v) <= 1e-9 + 1e-7 * abs(v),
              "%s: across_runs %s %r, the runs' means give %r" %
              (name, k, a[k], v))
    for r in m["per_run"]:
        w = "%s run %d" % (name, r["run"])
        t = r["threads"]
        check(len(t) == cfg["threads"], w + ": thread count")
        check(r["calls"] == sum(x["calls"] for x in t),
              w + ": calls != sum over threads")
        check(r["pages"] == sum(x["pages"] for x in t),
              w + ": pages != sum over threads")
        check(r["calls"] == requests and r["requests"] == requests,
              w + ": calls/requests != --requests")
        check(r["reads"] + r["writes"] == r["requests"], w + ": mix")
        check(r["bytes_read"] == r["reads"] * cfg["io_size"] and
              r["bytes_written"] == r["writes"] * cfg["io_size"],
              "%s: %d bytes read, %d written, for %d READs and %d WRITEs"
              % (w, r["bytes_read"], r["bytes_written"], r["reads"],
                 r["writes"]))
        # One reply to the completion thread per request of the run, the
        # warm-up's before it not counted; none when released inline.
        want = r["requests"] if cfg["completion"] == "thread" else 0
        check(r["completions"] == want,
              "%s: %d completions, %d expected" % (w, r["completions"],
                                                   want))
        check(abs(r["pages_per_call"] - r["pages"] / r["calls"]) < 1e-6,
              w + ": pages_per_call")
        latency(r, w)
        e = r["pool_at_exit"]
        check(e["leaked"] == 0 and e["nr_free"] + e["nr_pcp"] ==
              e["nr_pages"], w + ": pages missing at exit")
        acc = r["accounting"]
        check(acc["pages_allocated"] - acc["pages_released"] == 0,
              w + ": pages allocated - pages released != 0")
        check(acc["cache_gets"] == acc["cache_puts"],
              w + ": page-cache references")
        if exact:
            check(e["pgalloc"] - e["pgfree"] == 0 and
                  e["counters_consistent"],
                  w + ": pool pgalloc - pgfree != 0")
            check(e["pgalloc"] == acc["pages_allocated"],
                  w + ": pool pgalloc != pages rpcsim allocated")
            check(r["counters"]["pgalloc"] == r["pages"],
                  w + ": pool pgalloc in the run != pages refilled")
for e in errors:
    print(e)
sys.exit(1 if errors else 0)
PY
}

# 2000 calls a mode: p99.9 (the 1998th) and p99.99 (the 2000th) are
# different calls, so a p99.99 read at the wrong rank can show.
run --alloc=all --requests=2000 --threads=3 --file-size=2m --json
ran_ok "--json --alloc=all runs"
check_json 2000 1 >"$tmpdir/why" 2>&1
ok $? "--json --alloc=all: valid, calls = sum over threads, nothing leaked" ||
	diag "$(cat "$tmpdir/why")"

# A warm-up before each run: its requests in none of the run's figures.
run --alloc=array --repeat=3 --requests=200 --threads=2 --file-size=2m \
	--warmup=7 --json
ran_ok "--json --repeat=3 --warmup=7 runs"
check_json 200 3 >"$tmpdir/why" 2>&1
ok $? "--json --repeat=3 --warmup=7: three runs, across-run statistics consistent" ||
	diag "$(cat "$tmpdir/why")"

# One thread, inline release: nothing races, so the pool's own counters
# must agree exactly with rpcsim's books (pgalloc - pgfree == 0).
run --alloc=all --requests=300 --threads=1 --completion=inline \
	--file-size=2m --json
ran_ok "--json single-threaded runs"
check_json 300 1 exact >"$tmpdir/why" 2>&1
ok $? "--json single-threaded: pool pgalloc - pgfree == 0 at exit" ||
	diag "$(cat "$tmpdir/why")"
[ ! -s "$ERR" ]
ok $? "--json single-threaded: nothing on stderr" || diag "$(cat "$ERR")"

# The document stays valid with odd settings (1-byte I/O, tiny payload).
run --alloc=list --requests=50 --io-size=1 --max-payload=1 --mix=read:1 \
	--file-size=4k --json
[ "$status" -eq 0 ] && check_json 50 1 >"$tmpdir/why" 2>&1
ok $? "--json with 1-byte I/O and a 1-byte max payload" ||
	diag "exit $status: $(cat "$ERR" "$tmpdir/why" 2>/dev/null)"

# Raw data out: each histogram's buckets add up to its calls, in order,
# and p99.99 is there; text and JSON in one run, into --output's file.
run --alloc=array --requests=300 --threads=2 --file-size=2m \
	--output-format=text,json --output="$tmpdir/both.out"
[ "$status" -eq 0 ] && [ ! -s "$OUT" ] &&
	grep -q '^Bulk array: .* per call' "$tmpdir/both.out"
ok $? "--output-format=text,json --output=FILE: the text in FILE, nothing on stdout" ||
	diag "exit $status: $(cat "$ERR")"
python3 - "$tmpdir/both.out" >"$tmpdir/why" 2>&1 <<'PY'
import json, sys
s = open(sys.argv[1]).read()
d = json.loads(s[s.index("\n{\n") + 1:])
bad = []
for m in d["modes"]:
    for x in [m] + m["per_run"]:
        h = x["histogram"]
        b = h["buckets"]
        if h["unit"] != "ns" or sum(c for _, _, c in b) != x["calls"]:
            bad.append("%s: buckets hold %d of %d calls" %
                       (m["mode"], sum(c for _, _, c in b), x["calls"]))
        if any(lo > hi for lo, hi, _ in b) or \
           any(b[i][1] >= b[i + 1][0] for i in range(len(b) - 1)):
            bad.append("%s: buckets out of order" % m["mode"])
        p = x["percentiles_us"]
        if not p["p99.9"] <= p["p99.99"] <= x["max_us"] + 0.001:
            bad.append("%s: p99.99 %s" % (m["mode"], p))
# The text's latency figures are the JSON's, to its 3 decimals (the
# percentiles and max are whole ns: exact; mean and stddev within the
# last decimal's rounding).
m = d["modes"][0]
p = m["percentiles_us"]
want = {"mean_us": m["mean_us"], "stddev_us": m["stddev_us"],
        "p50_us": p["p50"], "p90_us": p["p90"], "p99_us": p["p99"],
        "p99.9_us": p["p99.9"], "max_us": m["max_us"]}
summary = dict(kv.split("=", 1) for kv in
               [l for l in s.splitlines() if l.startswith("SUMMARY ")][0]
               .split()[1:])
lat = [l for l in s.splitlines() if l.startswith("  latency:")][0]
shown = {"stddev_us": lat.split("stddev ")[1].split(" us")[0],
         "max_us": lat.split("max ")[1].split(" us")[0]}
for k in ("p50", "p90", "p99", "p99.9"):
    shown[k + "_us"] = lat.split(" %s " % k)[1].split(",")[0]
for k, v in want.items():
    for where, text in (("SUMMARY", summary.get(k)), ("latency:", shown.get(k))):
        if text is not None and abs(float(text) - v) > 0.0005 + 1e-9:
            bad.append("%s %s %s, the JSON's %r" % (where, k, text, v))
print("; ".join(bad) or "ok")
sys.exit(1 if bad else 0)
PY
ok $? "  then the JSON document: each histogram's buckets hold its calls, p99.99; the text's latency figures match it" ||
	diag "$(cat "$tmpdir/why")"
# READs only, no warm-up: every call refills more than one page, so the
# one-page kind is empty: "no calls" in the text, null figures in the JSON.
run --alloc=array --requests=50 --threads=1 --mix=read:1,write:0 \
	--output-format=text,json --output="$tmpdir/reads.out"
[ "$status" -eq 0 ] &&
	grep -Eq '^  by refill: 1 page: no calls; more: mean [0-9.]+, p50 [0-9.]+ us \(50 calls\)$' \
		"$tmpdir/reads.out" &&
	python3 - "$tmpdir/reads.out" <<'PY'
import json, sys
s = open(sys.argv[1]).read()
d = json.loads(s[s.index("\n{\n") + 1:])
b = d["modes"][0]["by_refill"]
one, more = b["one_page"], b["more_pages"]
sys.exit(not (one == {"calls": 0, "mean_us": None, "p50_us": None,
                      "p90_us": None} and more["calls"] == 50 and
              more["p50_us"] > 0))
PY
ok $? "--mix=read:1,write:0: no one-page refills, said as such, null figures" ||
	diag "exit $status: $(grep -A1 'by refill' "$tmpdir/reads.out") $(cat "$ERR")"
# The defaults --help states, as the config holds them: 3 threads, so
# that the queue depth's (2 x threads) is told from others; only
# --requests given, so no duration.
run --requests=1 --threads=3 --file-size=1m --json
[ "$status" -eq 0 ] && python3 - "$OUT" >"$tmpdir/why" 2>&1 <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))["config"]
want = {"alloc": "array", "mix": {"read": 1, "write": 1},
        "io_size": 262144, "max_payload": 1048576, "pool_size": 1 << 30,
        "duration_s": None, "requests": 1, "tcp_read": None,
        "completion": "thread", "queue_depth": 6, "pcp_batch": 63,
        "pcp_high": 6 * 63, "retry_wait_us": 1000, "seed": 1, "repeat": 1,
        "warmup": 0, "backend": "buddy", "bulk_variant": "merged"}
bad = {k: c[k] for k, v in want.items() if c[k] != v}
print(bad or "ok")
sys.exit(1 if bad else 0)
PY
ok $? "--json: the config holds the defaults --help states" ||
	diag "exit $status: $(cat "$ERR" "$tmpdir/why")"
run --output-format=xml
[ "$status" -eq 2 ] && grep -q "output-format=xml.*text, json or text,json" "$ERR"
ok $? "--output-format=xml: exit 2, names the accepted formats" || diag "$(cat "$ERR")"
run --requests=10 --output="$tmpdir/no/such/dir/out"
[ "$status" -eq 1 ] && grep -q "output=.*No such file or directory" "$ERR"
ok $? "--output into a missing folder: exit 1 with the cause" || diag "$(cat "$ERR")"

exit_status
