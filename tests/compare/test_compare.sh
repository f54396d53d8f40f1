#!/bin/sh
# SPDX-License-Identifier: MIT
#
# rpcsim-compare on committed fixtures, real outputs of this project:
#   plain.json    rpcsim --alloc=all --repeat=3 --requests=4000 --json
#   asan.json     the same from an --enable-asan build
#   one-run.json  rpcsim --alloc=all --requests=4000 --pcp-batch=31 --json
#   trace.json    rpcsim-analyze --json of rpcsim --alloc=all --repeat=2
#                 --requests=2000 --trace --trace-events=all
#   jemalloc.json rpcsim --backend=jemalloc --alloc=all --repeat=3
#                 --requests=4000 --json, from a later rpcsim (its own
#                 alloc_calls_per_call, backend settings)
#   refill.json   rpcsim --alloc=all --repeat=3 --requests=4000 --json,
#                 from an rpcsim with by_refill (the histograms, which
#                 rpcsim-compare does not read, taken out)
#   refill-read.json  the same with --mix=read:1,write:0: no call refills
#                 one page, whose figures are null
# The tables must equal the golden files in expected/ byte for byte; every
# number of --json is recomputed here from the fixtures (mean, sample
# stddev, %change, Welch's interval and verdict, with a t quantile of its
# own: Simpson's rule on the t density and Newton's method, not the C code's
# incomplete beta); the marks of the text agree with it, and hand-set run
# values put marks on both sides of the noise boundary and cells on the
# edges of their rules (a spread of exactly 2 %, a base of 0, a value far
# below the table's largest, column titles of files named alike).
# The refill kinds' metrics (by_refill.*) are recomputed the same way,
# null figures as no sample; they are tabled after latency_us's, and
# files without by_refill compare as before.
# Broken or foreign files exit 1, bad usage exits 2, each with one line.

# shellcheck source=tests/utils/tap.sh
. "$top_srcdir/tests/utils/tap.sh"

COMPARE=${COMPARE:-$top_builddir/compare/rpcsim-compare}
fixtures=$top_srcdir/tests/compare/fixtures
expected=$top_srcdir/tests/compare/expected

tap_need_prog "$COMPARE"
tap_tmpdir test-compare

# run [ARGS...]: rpcsim-compare in the fixtures' folder (so that file
# names print as in the golden files); $status, $OUT, $ERR.
run()
{
	run_cmd 60 env -C "$fixtures" "$COMPARE" "$@"
}

# golden NAME ARGS...: the tables equal expected/NAME.txt.
golden()
{
	g_name=$1
	shift
	run "$@"
	[ "$status" -eq 0 ] && [ ! -s "$ERR" ]
	ok $? "$g_name: exits 0, nothing on stderr" ||
		diag "exit $status: $(head -c 1000 "$ERR")"
	diff -u "$expected/$g_name.txt" "$OUT" >"$tmpdir/diff"
	ok $? "$g_name: the tables equal expected/$g_name.txt" ||
		diag "$(head -n 40 "$tmpdir/diff")"
}

# mean_files SETS: for each NAME: {MODE: [MEAN, ...]} of the Python dict
# SETS, $tmpdir/NAME.json: plain.json with those modes only, as many runs
# as means, each run's mean_us its mean.
mean_files()
{
	python3 - "$fixtures/plain.json" "$tmpdir" "$1" <<'PY'
import ast, json, sys
src, tmp = sys.argv[1], sys.argv[2]
for name, modes in ast.literal_eval(sys.argv[3]).items():
    d = json.load(open(src))
    d["modes"] = [m for m in d["modes"] if m["mode"] in modes]
    for m in d["modes"]:
        vals = modes[m["mode"]]
        m["per_run"] = m["per_run"][:len(vals)]
        for r, v in zip(m["per_run"], vals):
            r["mean_us"] = v
    json.dump(d, open("%s/%s.json" % (tmp, name), "w"))
PY
}

# fails STATUS TEXT ARGS...: exit STATUS, nothing on stdout, one line on
# stderr starting with "rpcsim-compare: " and containing TEXT.
fails()
{
	f_status=$1
	f_text=$2
	shift 2
	run "$@"
	[ "$status" -eq "$f_status" ] && [ ! -s "$OUT" ] &&
		[ "$(wc -l <"$ERR")" -eq 1 ] &&
		grep -q '^rpcsim-compare: ' "$ERR" &&
		grep -qF -- "$f_text" "$ERR"
	ok $? "'$*' exits $f_status with one line naming '$f_text'" ||
		diag "exit $status: $(cat "$ERR")"
}

plan_tests 107

# --- the tables ----------------------------------------------------------
golden plain-asan plain.json asan.json
golden three plain.json asan.json one-run.json
golden mixed trace.json plain.json
golden selected --metrics=latency_us.p99,vmstat.bulk_fallback --all \
	plain.json asan.json
golden backends --metrics=latency_us.mean,alloc_calls,vmstat.zone_lock \
	plain.json jemalloc.json

# A kernel-profile run without CONFIG_DEBUG_LIST's checks says so in its
# description (the checks are the profile's default).
sed 's/    "debug_checks": false,/    "debug_checks": false,\n    "profile": "kernel",\n    "debug_list": false,/' \
	"$fixtures/plain.json" >"$tmpdir/nolist.json"
run -m latency_us.mean plain.json "$tmpdir/nolist.json"
[ "$status" -eq 0 ] && [ "$(grep -c 'list checks off' "$OUT")" -eq 1 ] &&
	grep -q '^      rpcsim 0.1.0, plain build, list checks off, 2 threads' "$OUT"
ok $? "a kernel-profile run with debug_list false: 'list checks off' in its description only" ||
	diag "exit $status: $(grep -A1 '^new:' "$OUT")"

run -m latency_us.mean plain.json asan.json
[ "$status" -eq 0 ] && [ "$(grep -c '/latency_us' "$OUT")" -eq 3 ] &&
	! grep -q 'requests_per_s' "$OUT"
ok $? "--metrics keeps only the tables asked for"

run plain.json asan.json
grep -q '^Zero in every file (--all shows them): .*vmstat.alloc_fail_per_call' \
	"$OUT" && ! grep -q '/vmstat.alloc_fail_per_call' "$OUT"
ok $? "metrics that are 0 everywhere are named, not tabled, without --all"

(cd "$fixtures" && timeout 60 "$COMPARE" plain.json - <asan.json) \
	>"$OUT" 2>"$ERR"
status=$?
[ "$status" -eq 0 ] && grep -q '^new:  (stdin)$' "$OUT" &&
	grep -q '+134.9% .*single/latency_us.mean$' "$OUT"
ok $? "'-' reads a file from standard input"

# --- the numbers, recomputed -----------------------------------------------
# check_json: every cell of $OUT (rpcsim-compare --json of the files named
# in it) against the fixtures' per-run values; the text output in $1 has
# the same noise marks; at least $min_cells new cells checked.
min_cells=30
check_json()
{
	python3 - "$OUT" "$fixtures" "$1" "$min_cells" <<'PY'
import json, math, os, sys

out, fixtures, text = sys.argv[1], sys.argv[2], sys.argv[3]
min_cells = int(sys.argv[4])
doc = json.load(open(out))
errors = []

def refill(r, metric):
    # by_refill.KIND.calls_per_call: the kind's share of the calls;
    # by_refill.KIND.latency_us.X: its figure, none when null or when
    # the kind made no call (whatever the figure says)
    _, kind, what = metric.split(".", 2)
    k = r.get("by_refill", {}).get(kind)
    if k is None:
        return []
    if what == "calls_per_call":
        return [k["calls"] / r["calls"]]
    fig = {"latency_us.mean": "mean_us", "latency_us.p50": "p50_us",
           "latency_us.p90": "p90_us"}[what]
    if k.get("calls") == 0 or k.get(fig) is None:
        return []
    return [k[fig]]

loaded = {}

def samples(path, mode, metric):
    if path not in loaded:
        loaded[path] = json.load(open(os.path.join(fixtures, path)))
    d = loaded[path]
    if d.get("program") == "rpcsim":
        m = [x for x in d["modes"] if x["mode"] == mode]
        if not m:
            return []
        vals = []
        for r in m[0]["per_run"]:
            if r["calls"] <= 0:
                continue
            if metric.startswith("by_refill."):
                vals += refill(r, metric)
            elif metric == "latency_us.mean":
                vals.append(r["mean_us"])
            elif metric.startswith("latency_us.p"):
                vals.append(r["percentiles_us"][metric[len("latency_us."):]])
            elif metric == "requests_per_s":
                vals.append(r["requests_per_s"])
            elif metric == "pages_per_call":
                vals.append(r["pages_per_call"])
            elif metric == "no_progress_per_call":
                vals.append(r["no_progress"] / r["calls"])
            elif metric == "waits_per_call":
                vals.append(r["waits"] / r["calls"])
            elif metric == "alloc_calls_per_call" and "alloc_calls_per_call" in r:
                vals.append(r["alloc_calls_per_call"])
            elif metric == "alloc_calls_per_call":
                c = r["counters"]
                vals.append((c["alloc_single_calls"] + c["alloc_bulk_list_calls"]
                             + c["alloc_bulk_array_calls"]) / r["calls"])
            elif metric.startswith("vmstat."):
                # a counter of a later rpcsim: none in an older file
                key = metric[len("vmstat."):-len("_per_call")]
                if key in r["counters"]:
                    vals.append(r["counters"][key] / r["calls"])
            else:
                return []
        return vals
    labels = {"Single page": "single", "Bulk list": "list",
              "Bulk array": "array"}
    m = [x for x in d["modes"] if labels.get(x["label"]) == mode]
    if not m:
        return []
    vals = []
    for g in m[0]["runs"]:
        if g["run"] is None or g["calls"] <= 0:
            continue
        if metric.startswith("by_refill."):
            vals += refill(g, metric)
        elif metric == "latency_us.mean":
            vals.append(g["latency_ns"]["mean_ns"] / 1000)
        elif metric.startswith("latency_us.p"):
            k = metric[len("latency_us."):].replace(".", "_") + "_ns"
            vals.append(g["latency_ns"][k] / 1000)
        elif metric == "timestamps_us.mean":
            vals.append(g["timestamps"]["mean_ns"] / 1000)
        elif metric == "pages_per_call":
            vals.append(g["pages_per_call"])
        elif metric == "alloc_calls_per_call":
            vals.append(g["alloc_calls_per_call"])
        elif metric == "no_progress_per_call":
            vals.append(g["svc_alloc_arg_err_per_call"])
        elif metric.startswith("trace."):
            key = metric[len("trace."):-len("_per_call")]
            vals.append(g["pagepool_per_call"].get(key, 0))
        else:
            return []
    return vals

def stats(v):
    mean = sum(v) / len(v)
    # the sample standard deviation (n - 1); 0 for one run
    sd = (math.sqrt(sum((x - mean) ** 2 for x in v) / (len(v) - 1))
          if len(v) > 1 else 0.0)
    return mean, sd

def close(a, b):
    return abs(a - b) <= 1e-4 * max(1.0, abs(a), abs(b))

def t_pdf(x, df):
    c = math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2))
    return c / math.sqrt(df * math.pi) * (1 + x * x / df) ** (-(df + 1) / 2)

def t_cdf(t, df, steps=600):
    # Simpson's rule on [0, atan t] after x = tan u: a finite interval
    b = math.atan(t)
    h = b / steps
    f = lambda u: t_pdf(math.tan(u), df) / math.cos(u) ** 2
    acc = f(0) + f(b) + sum((4 if k % 2 else 2) * f(k * h)
                            for k in range(1, steps))
    return 0.5 + acc * h / 3

def t975(df):
    # Newton's method from the normal quantile, below every t quantile:
    # the CDF is concave for t > 0, so each step stays below the root
    # and moves up to it (a handful of steps, where bisection took 40)
    t = 1.959964
    for _ in range(100):
        step = (0.975 - t_cdf(t, df)) / t_pdf(t, df)
        t += step
        if abs(step) < 1e-12 * t:
            break
    return t

def welch(b, n):
    mb, _ = stats(b)
    mn, _ = stats(n)
    vb = stats(b)[1] ** 2 / len(b)
    vn = stats(n)[1] ** 2 / len(n)
    se = math.sqrt(vb + vn)
    if se == 0 or len(set(b)) == 1 and len(set(n)) == 1:
        return mn - mb, 0.0, None
    df = (vb + vn) ** 2 / (vb ** 2 / (len(b) - 1) + vn ** 2 / (len(n) - 1))
    return mn - mb, t975(df) * se, df

marks = {}
for line in open(text, encoding="utf-8"):
    if "/" in line and line.rstrip().split()[-1].count("/") == 1:
        row = line.rstrip().split()[-1]
        marks[row] = line

paths = [f["path"] for f in doc["files"]]
cells = 0
for metric in doc["metrics"]:
    name = metric["metric"]
    for row in metric["rows"]:
        mode = row["mode"]
        base = samples(paths[0], mode, name)
        if bool(base) != (row["base"] is not None):
            errors.append("%s/%s: base presence" % (mode, name))
            continue
        if base:
            bm, bsd = stats(base)
            if not (close(row["base"]["mean"], bm) and
                    close(row["base"]["stddev"], bsd)):
                errors.append("%s/%s: base %r vs %r %r" %
                              (mode, name, row["base"], bm, bsd))
        for i, cell in enumerate(row["new"]):
            new = samples(paths[i + 1], mode, name)
            if bool(new) != (cell is not None):
                errors.append("%s/%s: new %d presence" % (mode, name, i))
                continue
            if not new:
                continue
            cells += 1
            nm, nsd = stats(new)
            if not (close(cell["mean"], nm) and close(cell["stddev"], nsd)):
                errors.append("%s/%s new %d: %r vs %r %r" %
                              (mode, name, i, cell, nm, nsd))
            if not base:
                continue
            if bm != 0 and not close(cell["change_pct"],
                                     100 * (nm - bm) / abs(bm)):
                errors.append("%s/%s new %d: change %r" %
                              (mode, name, i, cell["change_pct"]))
            if len(base) < 2 or len(new) < 2:
                want = "unknown"
                if cell["ci95"] is not None:
                    errors.append("%s/%s new %d: ci95 with one run" %
                                  (mode, name, i))
            else:
                d, half, df = welch(base, new)
                ci = cell["ci95"]
                if not (close(ci["difference"], d) and
                        abs(ci["half_width"] - half) <=
                        1e-4 * max(abs(half), 1e-9) and
                        ci["n_base"] == len(base) and
                        ci["n_new"] == len(new) and
                        (df is None) == (ci["df"] is None) and
                        (df is None or close(ci["df"], df))):
                    errors.append("%s/%s new %d: ci95 %r, expected %r %r %r"
                                  % (mode, name, i, ci, d, half, df))
                want = "beyond" if abs(d) > half else "within"
            if cell["noise"] != want:
                errors.append("%s/%s new %d: noise %s, expected %s" %
                              (mode, name, i, cell["noise"], want))
            line = marks.get("%s/%s" % (mode, name))
            if line is None:
                errors.append("%s/%s: no text row" % (mode, name))
                continue
            # columns: base 20, then per new file " " + %change (10) +
            # " " + CI (8) + " " + mark + value (10) + " ±NN%" (6) + n (4)
            got = line[20 + i * 42 + 21]
            mark = {"within": "~", "unknown": "?", "beyond": " "}[want]
            if got != mark:
                errors.append("%s/%s new %d: mark %r, expected %r" %
                              (mode, name, i, got, mark))
if cells < min_cells:
    errors.append("only %d cells checked" % cells)
for e in errors[:20]:
    print(e)
sys.exit(1 if errors else 0)
PY
}

# recomputed DESCRIPTION FILE...: rpcsim-compare FILE... as text and as
# --json, every number of the --json recomputed by check_json.
recomputed()
{
	rc_desc=$1
	shift
	run "$@"
	cp "$OUT" "$tmpdir/text.txt"
	run --json "$@"
	check_json "$tmpdir/text.txt" >"$tmpdir/py" 2>&1
	ok $? "$rc_desc" || diag "$(cat "$tmpdir/py")"
}

if have_python; then
	run --json plain.json asan.json one-run.json
	[ "$status" -eq 0 ] && python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$OUT"
	ok $? "--json is one valid JSON document"
	recomputed "--json: every mean, stddev, %change and noise verdict recomputed from the fixtures" \
		plain.json asan.json one-run.json
	recomputed "--json of rpcsim vs rpcsim-analyze documents recomputed" \
		plain.json trace.json
	recomputed "--json of two rpcsim versions (old and new fields) recomputed" \
		plain.json jemalloc.json
	# no_progress and waits are a run's totals, 0 in every fixture (a
	# table of zeros, not shown): set here, each run's differently.
	python3 - "$fixtures" "$tmpdir" <<'PY'
import json, sys
for src, k in (("plain.json", 1), ("asan.json", 2)):
    d = json.load(open("%s/%s" % (sys.argv[1], src)))
    for i, m in enumerate(d["modes"]):
        for r, run in enumerate(m["per_run"]):
            run["no_progress"] = 40 * k + 30 * i + 17 * r
            run["waits"] = 9 * k + 5 * r
    json.dump(d, open("%s/stalls-%s" % (sys.argv[2], src), "w"))
PY
	min_cells=6
	recomputed "--json of no_progress and waits: each run's total per call" \
		-m no_progress,waits "$tmpdir/stalls-plain.json" \
		"$tmpdir/stalls-asan.json"
	min_cells=30
else
	skip 5 "python3 not found"
fi

# --- by refill kind ---------------------------------------------------------
# refill-read.json made no one-page call (null figures); plain.json is
# from an rpcsim without by_refill.
golden refill -m by_refill refill.json refill-read.json plain.json

run refill.json refill-read.json
order=$(sed -n 's|^ .*  array/||p' "$OUT" | head -n 14 | tr '\n' ' ')
[ "$status" -eq 0 ] && [ "$order" = "latency_us.mean latency_us.p50 \
latency_us.p90 latency_us.p99 latency_us.p99.9 \
by_refill.one_page.latency_us.mean by_refill.one_page.latency_us.p50 \
by_refill.one_page.latency_us.p90 by_refill.one_page.calls_per_call \
by_refill.more_pages.latency_us.mean by_refill.more_pages.latency_us.p50 \
by_refill.more_pages.latency_us.p90 by_refill.more_pages.calls_per_call \
requests_per_s " ]
ok $? "by default the refill kinds' tables come right after latency_us's" ||
	diag "exit $status; tables: $order"

fails 2 "--metrics=by_refill: no metric of these files starts with 'by_refill'; accepted: latency_us.mean" \
	-m by_refill plain.json asan.json

if have_python; then
	# A side without the number, either way round: '-', no %change.
	run -m by_refill plain.json refill.json
	blank=$(grep -c '^         -                     ' "$OUT")
	run --json -m by_refill refill.json plain.json
	python3 - "$OUT" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
assert len(doc["metrics"]) == 8, [m["metric"] for m in doc["metrics"]]
for m in doc["metrics"]:
    for r in m["rows"]:
        assert r["base"]["runs"] == 3 and r["new"] == [None], (m["metric"], r)
PY
	[ $? -eq 0 ] && [ "$blank" -eq 24 ]
	ok $? "no by_refill on one side (an older rpcsim): its cells '-', no %change, either way round" ||
		diag "rows of a base without it printed '-' and no change: $blank of 24"

	# by_refill alone: the t quantiles of every other table cost seconds
	min_cells=15
	recomputed "--json of by_refill recomputed: the means of the runs' values, null figures no sample" \
		-m by_refill refill.json refill-read.json plain.json
	run --json refill.json refill-read.json
	[ "$(grep -c '"metric": "by_refill\.' "$OUT")" -eq 8 ]
	ok $? "--json has the eight by_refill metrics"

	# Hand-set: array's run 2 made no one-page call (null figures), run 3
	# neither but says 0 (an rpcsim before the null figures); list's run 1
	# has a null mean alone.
	python3 - "$fixtures/refill.json" "$tmpdir/nulls.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
m = {x["mode"]: x for x in d["modes"]}
m["array"]["per_run"][1]["by_refill"]["one_page"] = {
    "calls": 0, "mean_us": None, "p50_us": None, "p90_us": None}
m["array"]["per_run"][2]["by_refill"]["one_page"] = {
    "calls": 0, "mean_us": 0, "p50_us": 0, "p90_us": 0}
m["list"]["per_run"][0]["by_refill"]["one_page"]["mean_us"] = None
json.dump(d, open(sys.argv[2], "w"), indent=1)
PY
	run --json -m by_refill.one_page refill.json "$tmpdir/nulls.json"
	python3 - "$OUT" "$tmpdir/nulls.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
d = json.load(open(sys.argv[2]))
runs = {x["mode"]: x["per_run"] for x in d["modes"]}
cell = {(m["metric"], r["mode"]): r["new"][0]
        for m in doc["metrics"] for r in m["rows"]}
def near(a, b):
    # --json writes 6 significant digits
    return abs(a - b) <= 1e-5 * max(1e-3, abs(b))
def same(c, want):
    assert c["runs"] == len(want), (c, want)
    assert all(near(a, b) for a, b in zip(c["values"], want)), (c, want)
    assert near(c["mean"], sum(want) / len(want)), (c, want)
a = runs["array"]
for fig, key in (("mean", "mean_us"), ("p50", "p50_us"), ("p90", "p90_us")):
    same(cell[("by_refill.one_page.latency_us." + fig, "array")],
         [a[0]["by_refill"]["one_page"][key]])
same(cell[("by_refill.one_page.calls_per_call", "array")],
     [a[0]["by_refill"]["one_page"]["calls"] / a[0]["calls"], 0, 0])
l = runs["list"]
same(cell[("by_refill.one_page.latency_us.mean", "list")],
     [r["by_refill"]["one_page"]["mean_us"] for r in l[1:]])
same(cell[("by_refill.one_page.latency_us.p50", "list")],
     [r["by_refill"]["one_page"]["p50_us"] for r in l])
PY
	ok $? "null figures, and a kind's without calls, are no sample, never 0: n counts the rest"
	run -m by_refill.one_page.latency_us.mean refill.json "$tmpdir/nulls.json"
	grep -Eq '^ +[0-9.]+ .* 3 +[-+0-9.]+% +\? +[0-9.]+ +1  array/by_refill\.one_page\.latency_us\.mean$' "$OUT"
	ok $? "text: the run left with the number, n 1, the change unknown '?'" ||
		diag "$(grep 'array/' "$OUT")"

	# rpcsim-analyze's runs say by_refill as rpcsim's do; the second run
	# of each mode made no one-page call.
	python3 - "$fixtures/trace.json" "$tmpdir/trace-refill.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for i, m in enumerate(d["modes"]):
    for r, g in enumerate(m["runs"]):
        one = g["calls"] // 2 if r == 0 else 0
        f = 0.25 + 0.01 * i + 0.002 * r
        g["by_refill"] = {
            "one_page": {"calls": one,
                         "mean_us": f if one else None,
                         "p50_us": f - 0.05 if one else None,
                         "p90_us": f + 0.1 if one else None},
            "more_pages": {"calls": g["calls"] - one, "mean_us": 4 * f,
                           "p50_us": 3 * f, "p90_us": 5 * f}}
json.dump(d, open(sys.argv[2], "w"), indent=1)
PY
	min_cells=24
	recomputed "--json of rpcsim-analyze's by_refill against rpcsim's recomputed" \
		-m by_refill "$tmpdir/trace-refill.json" refill.json
	min_cells=30
else
	skip 6 "python3 not found"
fi

# --- the noise marks, on hand-set run values -------------------------------
# Welch's test by hand: t(0.975, 4) = 2.776, t(0.975, 1) = 12.706.
# array: base 1.0, 1.1, 1.2 (mean 1.1, sample stddev 0.1).
#   far:   1.5, 1.6, 1.7   +0.5 +/- 2.776 * sqrt(2 * 0.01 / 3) = 0.227:
#          +45.5% ±20.6%, a change (no mark)
#   near:  1.15, 1.25, 1.35  +0.15 +/- 0.227: +13.6% ±20.6% ~
#   lone:  1.0               one run: ?
#   tight: 2.0, 2.01, 2.02   df 2.04, t 4.223: +0.91 +/- 0.245,
#          +82.7% ±22.3%, a change; its own spread 0.5 % is not shown (2 %
#          or less)
# list: base 2.0, 2.0 (no spread).
#   far:   2.5, 2.5          neither side varies: exactly +25.0% ±0.0%, a
#                            change
#   near:  2.0, 2.0, 2.0     exactly 0: 0.0% ±0.0% ~
#   lone:  2.0               ?
#   tight: 2.0, 2.02         df 1: +0.01 +/- 12.706 * 0.01 = 0.127:
#                            +0.5% ±6.4% ~
if have_python; then
	mean_files '{
    "base":  {"array": [1.0, 1.1, 1.2], "list": [2.0, 2.0]},
    "far":   {"array": [1.5, 1.6, 1.7], "list": [2.5, 2.5]},
    "near":  {"array": [1.15, 1.25, 1.35], "list": [2.0, 2.0, 2.0]},
    "lone":  {"array": [1.0], "list": [2.0]},
    "tight": {"array": [2.0, 2.01, 2.02], "list": [2.0, 2.02]},
}'
	(cd "$tmpdir" && timeout 60 "$COMPARE" -m latency_us.mean base.json \
		far.json near.json lone.json tight.json) >"$OUT" 2>"$ERR"
	status=$?
	[ "$status" -eq 0 ]
	ok $? "hand-set runs: exit 0" || diag "$(cat "$ERR")"
	want="     1.100 ±  9%   3     +45.5%   ±20.6%       1.600 ±  6%   3     +13.6%   ±20.6% ~     1.250 ±  8%   3      -9.1%          ?     1.000         1     +82.7%   ±22.3%       2.010         3  array/latency_us.mean"
	grep -qxF -- "$want" "$OUT"
	ok $? "array: a change unmarked, within the noise '~', one run '?', a spread of 2 % or less not shown" ||
		diag "$(grep array/ "$OUT")"
	want="     2.000         2     +25.0%    ±0.0%       2.500         2       0.0%    ±0.0% ~     2.000         3       0.0%          ?     2.000         1      +0.5%    ±6.4% ~     2.010         2  list/latency_us.mean"
	grep -qxF -- "$want" "$OUT"
	ok $? "list: without spread an exact change, exactly 0 within the noise; df 1 gives a wide interval" ||
		diag "$(grep list/ "$OUT")"
	(cd "$tmpdir" && timeout 60 "$COMPARE" --json -m latency_us.mean \
		base.json far.json tight.json) >"$OUT" 2>"$ERR"
	python3 - "$OUT" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
rows = {r["mode"]: r for r in doc["metrics"][0]["rows"]}
far = rows["array"]["new"][0]["ci95"]
exact = rows["list"]["new"][0]["ci95"]
tight = rows["list"]["new"][1]["ci95"]
def near(a, b):
    return abs(a - b) <= 1e-5 * max(1, abs(b))
# 2.776445 * sqrt(2 * 0.01 / 3), and 12.706205 * 0.01, by hand
assert far["n_base"] == 3 and far["n_new"] == 3, far
assert near(far["difference"], 0.5) and near(far["df"], 4), far
assert near(far["t"], 2.776445) and near(far["half_width"], 0.226697), far
assert near(far["low"], 0.5 - 0.226697) and near(far["high"], 0.726697), far
assert near(far["difference_pct"], 45.4545) and near(far["half_width_pct"], 20.6088), far
assert rows["array"]["new"][0]["noise"] == "beyond", rows["array"]
assert exact["half_width"] == 0 and exact["df"] is None and exact["t"] is None, exact
assert rows["list"]["new"][0]["noise"] == "beyond", rows["list"]
assert near(tight["df"], 1) and near(tight["half_width"], 0.12706205), tight
assert rows["list"]["new"][1]["noise"] == "within", rows["list"]
PY
	ok $? "--json ci95: n, difference, df, t, interval and its percentages as computed by hand"
else
	skip 4 "python3 not found"
fi

# --- the cells' edges, on hand-set run values -------------------------------
# edge against other (-m latency_us.mean), each figure by hand:
#   array: 98, 100, 102 both: mean 100, sample stddev sqrt(8 / 2) = 2,
#          exactly 2 %: not shown (only above 2 %); se = sqrt(2 * 4 / 3),
#          t(0.975, 4) = 2.776445: half 4.534 of 100, "±4.5%", within ~
#   list:  0, 0 against 0, 0, 0: exactly 0, "0.0%", "±0.0%", ~
#   single: 0, 0, 0 against 1.5, 1.5: no spread, an exact change from a
#          base of 0: %change and CI "n/a", no mark
# The table's largest mean is 100: one decimal, 0 as "0", 1.5 as "1.5".
# small against itself: its largest mean 1.5 gives three decimals; 0.0123
# keeps two digits at them ("0.012"), 0.00543 would keep one ("0.005"):
# three significant digits instead, "0.00543".
if have_python; then
	mean_files '{
    "edge":  {"single": [0.0, 0.0, 0.0], "list": [0.0, 0.0],
              "array": [98.0, 100.0, 102.0]},
    "other": {"single": [1.5, 1.5], "list": [0.0, 0.0, 0.0],
              "array": [98.0, 100.0, 102.0]},
    "small": {"single": [0.0123, 0.0123], "list": [0.00543, 0.00543],
              "array": [1.5, 1.5, 1.5]},
}'
	(cd "$tmpdir" && timeout 60 "$COMPARE" -m latency_us.mean edge.json \
		other.json) >"$OUT" 2>"$ERR"
	status=$?
	want="     100.0         3       0.0%    ±4.5% ~     100.0         3  array/latency_us.mean"
	[ "$status" -eq 0 ] && grep -qxF -- "$want" "$OUT"
	ok $? "a spread of exactly 2 % is not shown (only above 2 %)" ||
		diag "exit $status: $(cat "$ERR")" "$(grep array/ "$OUT")"
	want="         0         3        n/a      n/a         1.5         2  single/latency_us.mean"
	want2="         0         2       0.0%    ±0.0% ~         0         3  list/latency_us.mean"
	grep -qxF -- "$want" "$OUT" && grep -qxF -- "$want2" "$OUT"
	ok $? "a base of 0: an exact change is n/a, its interval n/a too; 0 against 0 is 0.0% ±0.0% ~" ||
		diag "$(grep -e single/ -e list/ "$OUT")"
	(cd "$tmpdir" && timeout 60 "$COMPARE" -m latency_us.mean small.json \
		small.json) >"$OUT" 2>"$ERR"
	status=$?
	[ "$status" -eq 0 ] &&
		grep -qx '     0\.012         2 .*  single/latency_us\.mean' "$OUT" &&
		grep -qx '   0\.00543         2 .*  list/latency_us\.mean' "$OUT" &&
		grep -qx '     1\.500         3 .*  array/latency_us\.mean' "$OUT"
	ok $? "a value that would keep one digit at the table's decimals: three significant digits" ||
		diag "exit $status: $(grep /latency "$OUT")"
else
	skip 3 "python3 not found"
fi

# Three files of one name: the columns base, new and new2; a name without
# ".json" is the column whole.
mkdir "$tmpdir/c1" "$tmpdir/c2" "$tmpdir/c3"
for d in c1 c2 c3; do cp "$fixtures/plain.json" "$tmpdir/$d/x.json"; done
run "$tmpdir/c1/x.json" "$tmpdir/c2/x.json" "$tmpdir/c3/x.json"
[ "$status" -eq 0 ] &&
	grep -qx "new:  $tmpdir/c2/x.json (column \"new\")" "$OUT" &&
	grep -qx "new:  $tmpdir/c3/x.json (column \"new2\")" "$OUT" &&
	grep -Eqx 'base {16} new {39}new2' "$OUT"
ok $? "three files named alike: columns base, new, new2" ||
	diag "exit $status: $(grep -e '^new:' -e '^base' "$OUT")"
cp "$fixtures/plain.json" "$tmpdir/plainjson"
run -m latency_us.mean plain.json "$tmpdir/plainjson"
[ "$status" -eq 0 ] && grep -Eqx 'plain {16}plainjson' "$OUT"
ok $? "a file named without .json: its whole name is its column" ||
	diag "exit $status: $(sed -n '/^plain/p' "$OUT")"

# --- broken input: exit 1 ------------------------------------------------------
printf '{"program": "rpcsim", "modes": [' >"$tmpdir/truncated.json"
printf 'not json\n' >"$tmpdir/garbage.json"
: >"$tmpdir/empty.json"
printf '{"program": "pagebench", "results": []}\n' >"$tmpdir/foreign.json"
printf '[1, 2, 3]\n' >"$tmpdir/array.json"
# edit FIXTURE OUT PYTHON: OUT is FIXTURE with d (the document) changed
# by PYTHON.
edit()
{
	python3 - "$fixtures/$1" "$tmpdir/$2" "$3" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
exec(sys.argv[3])
open(sys.argv[2], "w").write(json.dumps(d, indent=1) + "\n")
EOF
}
# edited FIXTURE OUT PYTHON TEXT: edit, then FIXTURE and OUT, in that
# order, fail: exit 1, one line naming TEXT.
edited()
{
	edit "$1" "$2" "$3"
	fails 1 "$4" "$1" "$tmpdir/$2"
}
printf '{"program": "rpcsim", "config": {}, "modes": []}\n' >"$tmpdir/nomode.json"
fails 1 "missing.json: cannot open" plain.json "$tmpdir/missing.json"
fails 1 "truncated.json: not JSON: the document ends early (truncated?)" \
	plain.json "$tmpdir/truncated.json"
fails 1 "garbage.json: not JSON" plain.json "$tmpdir/garbage.json"
fails 1 "empty.json: empty" plain.json "$tmpdir/empty.json"
fails 1 "foreign.json: neither rpcsim --json nor rpcsim-analyze --json" \
	plain.json "$tmpdir/foreign.json"
fails 1 "array.json: neither rpcsim --json nor rpcsim-analyze --json" \
	"$tmpdir/array.json" plain.json
fails 1 "nomode.json: no mode with any call" plain.json "$tmpdir/nomode.json"
# Every file is checked against the schema rpcsim and rpcsim-analyze
# write; the first fault is named by its JSON path.
if have_python; then
	edited plain.json member.json 'del d["modes"][0]["per_run"][1]["mean_us"]' \
		'member.json: modes[0].per_run[1]: no member "mean_us"'
	sed 's/"mean_us": [0-9.e+-]*/"mean_us": NaN/' "$fixtures/plain.json" \
		>"$tmpdir/nan.json"
	fails 1 "nan.json: modes[0].mean_us: not a finite number (NaN)" \
		"$tmpdir/nan.json" plain.json
	edited plain.json bogus.json 'd["modes"][1]["mode"] = "bogus"' \
		'bogus.json: modes[1].mode: "bogus": expected "single", "list" or "array"'
	edited plain.json twice.json 'd["modes"][2]["mode"] = "single"; d["modes"][2]["label"] = "Single page"' \
		'twice.json: modes[2].mode: "single" given twice (also modes[0])'
	edited plain.json label.json 'd["modes"][0]["label"] = "Bulk array"' \
		'label.json: modes[0].label: "Bulk array": the single mode is labelled "Single page"'
	edited plain.json runtwice.json 'd["modes"][0]["per_run"][1]["run"] = 1' \
		'runtwice.json: modes[0].per_run[1].run: run 1 given twice (also per_run[0])'
	edited plain.json nullcfg.json 'd["config"] = None' \
		"nullcfg.json: config: null: expected an object"
	sed 's/"calls": [0-9]*/"calls": 1e308/' "$fixtures/plain.json" >"$tmpdir/huge.json"
	fails 1 "huge.json: modes[0].calls: 1e308: expected an integer, 0 or more" \
		plain.json "$tmpdir/huge.json"
	# beyond json-c's integers: read as 2^64 - 1, which it is not
	edited plain.json bigcalls.json 'd["modes"][0]["per_run"][0]["calls"] = 10**30' \
		"bigcalls.json: modes[0].per_run[0].calls: 18446744073709551615 or more: out of range: expected an integer, 0 or more, at most 18446744073709551614"
	edited plain.json bigcount.json 'd["modes"][1]["per_run"][1]["counters"]["pgalloc"] = -10**30' \
		"bigcount.json: modes[1].per_run[1].counters.pgalloc: -9223372036854775808 or less: expected an integer, 0 or more"
	edited jemalloc.json bigslots.json 'd["config"]["jemalloc"]["tcache_slots"] = -10**30' \
		"bigslots.json: config.jemalloc.tcache_slots: -9223372036854775808 or less: out of range: expected an integer, at least -9223372036854775807"
	edited plain.json negative.json 'd["modes"][0]["per_run"][0]["counters"]["pgalloc"] = -5' \
		"negative.json: modes[0].per_run[0].counters.pgalloc: -5: expected an integer, 0 or more"
	# A figure below 0 (a double, not a count): the reader takes figures
	# as the schema let them through, so the schema is where it stops.
	edited plain.json negmean.json 'd["modes"][0]["per_run"][0]["mean_us"] = -1.5' \
		"negmean.json: modes[0].per_run[0].mean_us: -1.5: expected a finite number, 0 or more or null"
	edited plain.json badcfg.json 'd["config"]["completion"] = "elsewhere"' \
		'badcfg.json: config.completion: "elsewhere": expected "thread" or "inline"'
	edited trace.json atwice.json 'd["modes"][1]["mode"] = d["modes"][0]["mode"]; d["modes"][1]["label"] = d["modes"][0]["label"]' \
		"atwice.json: modes[1].mode: $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["modes"][0]["mode"])' "$fixtures/trace.json") given twice (also modes[0])"
	edited trace.json alabel.json 'd["modes"][0]["label"] = "Bulk bogus"' \
		'alabel.json: modes[0].label: "Bulk bogus": mode'
	edited trace.json acalls.json 'd["modes"][0]["runs"][0]["calls"] = 1.5' \
		"acalls.json: modes[0].runs[0].calls: 1.5: expected an integer, 0 or more"
	edited refill.json badrefill.json \
		'd["modes"][0]["per_run"][0]["by_refill"]["one_page"]["mean_us"] = "fast"' \
		'badrefill.json: modes[0].per_run[0].by_refill.one_page.mean_us: "fast": expected a finite number, 0 or more or null'
	edited trace.json abadrefill.json 'd["modes"][0]["runs"][0]["by_refill"] = 3' \
		'abadrefill.json: modes[0].runs[0].by_refill'
	# A null figure is called null, not missing, with where null
	# belongs: a latency in a page_pool document of calls not timed.
	edited plain.json nullmean.json 'd["modes"][0]["per_run"][0]["mean_us"] = None' \
		'nullmean.json: modes[0].per_run[0].mean_us: null: expected a number (null only in a page_pool document whose calls were not timed)'
	edited plain.json nullrate.json 'd["modes"][1]["per_run"][2]["requests_per_s"] = None' \
		'nullrate.json: modes[1].per_run[2].requests_per_s: null: expected a number'
	edited plain.json ppnull.json \
		'd["config"]["consumer"] = "page_pool"; d["config"]["page_pool"] = {"call_timing": True}; d["modes"][0]["per_run"][0]["percentiles_us"]["p90"] = None' \
		'ppnull.json: modes[0].per_run[0].percentiles_us.p90: null: expected a number (null only where config.page_pool.call_timing is false; here it is true)'
	edited plain.json ppnotiming.json \
		'd["config"]["consumer"] = "page_pool"; d["config"]["page_pool"] = {}; d["modes"][0]["per_run"][0]["mean_us"] = None' \
		'ppnotiming.json: modes[0].per_run[0].mean_us: null: expected a number (null only where config.page_pool.call_timing is false; here it is missing: the calls were timed)'
	edited plain.json ppnocfg.json 'd["config"]["consumer"] = "page_pool"' \
		'ppnocfg.json: config.page_pool: missing: expected the page_pool consumer'"'"'s settings (config.consumer is "page_pool")'
	edited plain.json consumer.json 'd["config"]["consumer"] = "foo"' \
		'consumer.json: config.consumer: "foo": expected "nfsd" or "page_pool"'
	# Figures no run measures: their sums and squares would overflow
	# into inf and nan in the tables (the --sweep reader's bounds).
	edited plain.json hugemean.json \
		'[r.__setitem__("mean_us", 1.7e308) for r in d["modes"][0]["per_run"]]' \
		'hugemean.json: modes[0].per_run[0].mean_us: 1.7e+308: expected a finite number 0 to 1e+09'
	edited plain.json hugerate.json 'd["modes"][0]["per_run"][1]["requests_per_s"] = 1e308' \
		'hugerate.json: modes[0].per_run[1].requests_per_s: 1e+308: expected a finite number 0 to 1e+12'
	edited plain.json hugepages.json 'd["modes"][2]["per_run"][0]["pages_per_call"] = 3e16' \
		'hugepages.json: modes[2].per_run[0].pages_per_call: 3e+16: expected a finite number 0 to 1e+12'
	edited trace.json ahugemean.json 'd["modes"][0]["runs"][0]["latency_ns"]["mean_ns"] = 2e16' \
		'ahugemean.json: modes[0].runs[0].latency_ns.mean_ns: 2e+16: expected a finite number 0 to 1e+12'
	# A base so near 0 that the change is beyond a double: n/a, as a
	# base of 0, not inf or nan.
	python3 - "$fixtures/plain.json" "$tmpdir/tiny.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["modes"][0]["per_run"]:
    r["mean_us"] = 1e-320
json.dump(d, open(sys.argv[2], "w"))
EOF
	run --metrics=latency_us.mean "$tmpdir/tiny.json" plain.json
	[ "$status" -eq 0 ] &&
		grep -Eq '^ +1e-320 +3 +n/a +n/a .* single/latency_us.mean$' "$OUT" &&
		! grep -Eiq 'inf|nan' "$OUT"
	ok $? "a base mean of 1e-320: its change and interval n/a, no inf or nan" ||
		diag "exit $status: $(cat "$ERR")" "$(grep single/ "$OUT")"
	# A base so small that the change has 300 digits: in the change
	# column's width ("+3.3e+302%"), the row aligned as an ordinary one.
	python3 - "$fixtures/plain.json" "$tmpdir/small.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["modes"][0]["per_run"]:
    r["mean_us"] = 1e-300
json.dump(d, open(sys.argv[2], "w"))
EOF
	run --metrics=latency_us.mean plain.json plain.json
	# the column in characters ('±' is two bytes)
	col=$(grep 'single/latency_us.mean$' "$OUT" |
		python3 -c 'import sys; print(sys.stdin.read().index("  single/"))')
	run --metrics=latency_us.mean "$tmpdir/small.json" plain.json
	row=$(grep 'single/latency_us.mean$' "$OUT")
	[ "$status" -eq 0 ] && [ -n "$col" ] &&
		printf '%s\n' "$row" | grep -Eq ' \+[0-9]\.[0-9]e\+[0-9]+% ' &&
		[ "$(printf '%s\n' "$row" |
			python3 -c 'import sys; print(sys.stdin.read().index("  single/"))')" = "$col" ]
	ok $? "a change of 10^300 percent: short, the row aligned" ||
		diag "exit $status: $(cat "$ERR")" "$row"
	# rpcsim --seed takes any 64-bit value, 2^64 - 1 (json-c's clamp)
	# included: a seed is no count, compared as written
	python3 - "$fixtures/plain.json" "$tmpdir/seed.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["config"]["seed"] = 2**64 - 1
json.dump(d, open(sys.argv[2], "w"))
EOF
	run "$tmpdir/seed.json" "$tmpdir/seed.json"
	[ "$status" -eq 0 ] && [ ! -s "$ERR" ]
	ok $? "a seed of 2^64 - 1, as rpcsim --seed writes it: read" ||
		diag "exit $status: $(cat "$ERR")"
	# A latency of exactly 1e9 us is the bound, not beyond it.
	edit plain.json atmax.json 'd["modes"][0]["per_run"][0]["mean_us"] = 1e9'
	run -m latency_us.mean plain.json "$tmpdir/atmax.json"
	[ "$status" -eq 0 ] && [ ! -s "$ERR" ]
	ok $? "a latency of exactly 1e9 us, the bound: read" ||
		diag "exit $status: $(cat "$ERR")"
	# One process per rpcsim-analyze document; mode numbers are 32-bit.
	edited trace.json procs.json \
		'd["processes"] = [{"pid": 11, "procname": "rpcsim"}, {"pid": 12, "procname": "rpcsim"}]' \
		'procs.json: processes: the trace holds 2 processes; compare one at a time (rpcsim-analyze --pid=N)'
	edited trace.json mode32.json \
		'd["modes"][1]["mode"] = 2**32; d["modes"][1]["label"] = "Mode 4294967296"' \
		"mode32.json: modes[1].mode: 4294967296: expected a mode number (rpcsim's are 0, 1 and 2)"
	edit trace.json modemax.json \
		'd["modes"][1]["mode"] = 2**32 - 1; d["modes"][1]["label"] = "Mode 4294967295"'
	run -m latency_us.mean trace.json "$tmpdir/modemax.json"
	[ "$status" -eq 0 ] && [ ! -s "$ERR" ]
	ok $? "an rpcsim-analyze mode of 2^32 - 1, labelled so: read" ||
		diag "exit $status: $(cat "$ERR")"
	# Runs without config.mode_name (an rpcsim-analyze that did not
	# record it): the mode's label names the row, as rpcsim's mode.
	edit trace.json noname.json \
		'[r["config"].pop("mode_name") for m in d["modes"] for r in m["runs"]]'
	run -m latency_us.mean plain.json trace.json
	grep '/latency_us.mean$' "$OUT" >"$tmpdir/named.rows"
	run -m latency_us.mean plain.json "$tmpdir/noname.json"
	[ "$status" -eq 0 ] && [ "$(grep -c '/latency_us.mean$' "$OUT")" -eq 3 ] &&
		grep '/latency_us.mean$' "$OUT" | cmp -s - "$tmpdir/named.rows"
	ok $? "rpcsim-analyze runs without mode_name: rows by label, as with it" ||
		diag "exit $status: $(cat "$ERR")" "$(grep /latency "$OUT")"
	# The pid of an rpcsim-analyze run differs every run: no setting.
	edit trace.json pid1.json \
		'[r["config"].__setitem__("pid", 101) for m in d["modes"] for r in m["runs"]]'
	edit trace.json pid2.json \
		'[r["config"].__setitem__("pid", 202) for m in d["modes"] for r in m["runs"]]'
	run -m latency_us.mean "$tmpdir/pid1.json" "$tmpdir/pid2.json"
	[ "$status" -eq 0 ] && [ "$(sed -n 5p "$OUT")" = "      same settings as base" ]
	ok $? "rpcsim-analyze documents of two pids: the same settings" ||
		diag "exit $status: $(sed -n 1,6p "$OUT")"
	# The Slurm job of the origin line: the array and task when both are
	# recorded.
	edit plain.json job.json 'd["host"] = "n1"
d["slurm"] = {"job_id": "12", "array_job_id": "11", "array_task_id": "2"}'
	edit plain.json job2.json 'd["host"] = "n1"
d["slurm"] = {"job_id": "12", "array_job_id": "11", "array_task_id": None}'
	run -m latency_us.mean "$tmpdir/job.json" "$tmpdir/job2.json"
	[ "$status" -eq 0 ] &&
		[ "$(sed -n 3p "$OUT")" = "      host n1; Slurm job 12, array 11 task 2" ] &&
		[ "$(sed -n 6p "$OUT")" = "      host n1; Slurm job 12" ]
	ok $? "the origin line: a Slurm job, its array and task when both are known" ||
		diag "exit $status: $(sed -n 1,7p "$OUT")"
	# A run without calls gives no sample: rpcsim's per_run[2] of single,
	# rpcsim-analyze's runs[1] of single (its latency null, as written).
	edit plain.json nocalls.json 'd["modes"][0]["per_run"][2]["calls"] = 0'
	run --json -m latency_us.mean plain.json "$tmpdir/nocalls.json"
	cp "$OUT" "$tmpdir/nocalls.out"
	edit trace.json anocalls.json 'g = d["modes"][0]["runs"][1]
g.update(calls=0, mean_us=None, latency_ns=None, timestamps=None, difference=None)'
	run --json -m latency_us.mean trace.json "$tmpdir/anocalls.json"
	python3 - "$tmpdir/nocalls.out" "$OUT" <<'PY'
import json, sys
for path in sys.argv[1:]:
    rows = {r["mode"]: r for r in json.load(open(path))["metrics"][0]["rows"]}
    base, new = rows["single"]["base"], rows["single"]["new"][0]
    assert new["runs"] == base["runs"] - 1, (path, base, new)
    assert new["values"] == base["values"][:new["runs"]], (path, base, new)
    assert rows["list"]["new"][0]["values"] == rows["list"]["base"]["values"]
PY
	ok $? "a run without calls (rpcsim's, rpcsim-analyze's): no sample, the others' values"
else
	skip 40 "python3 not found"
fi
fails 1 "not a regular file (a directory)" plain.json "$tmpdir"
# A syntax error's line and column, 1-based.
printf '{"a": x}\n' >"$tmpdir/col1.json"
printf '{\n  "a": x}\n' >"$tmpdir/col2.json"
fails 1 "col1.json: not JSON: unexpected character at line 1, column 7" \
	plain.json "$tmpdir/col1.json"
fails 1 "col2.json: not JSON: unexpected character at line 2, column 8" \
	plain.json "$tmpdir/col2.json"
# Standard input is bounded as a file is: 64 MiB and a byte, refused.
truncate -s 67108865 "$tmpdir/stdin.big"
fails 1 "(stdin): larger than 64 MiB (the bound of an input file)" \
	plain.json - <"$tmpdir/stdin.big"
rm -f "$tmpdir/stdin.big"

# --plot with a stand-in gnuplot (tests/compare/test_plot.sh checks the
# script): exit 0, nothing on stderr; in the ASan tier this is the check
# that the figure's strings and settings are freed.
keep_gnuplot
RPCSIM_GNUPLOT="$tmpdir/keep-gnuplot" run --plot="$tmpdir/cmp.svg" \
	plain.json asan.json one-run.json
[ "$status" -eq 0 ] && [ ! -s "$ERR" ] && [ -s "$tmpdir/kept.gp" ]
ok $? "--plot of three files: exit 0, nothing on stderr" ||
	diag "exit $status: $(head -c 2000 "$ERR")"

# --- bad usage: exit 2 -------------------------------------------------------------
fails 2 "no file given"
fails 2 "one file given" plain.json
fails 2 "unknown option '--bogus'" --bogus plain.json asan.json
fails 2 "unknown option '-x'" -x plain.json asan.json
# the letter, not the word it stands in nor the word before
fails 2 "unknown option '-x'" -jx plain.json asan.json
fails 2 "unknown option '-x'" --json -xj plain.json asan.json
fails 2 "option '--json' takes no value (in '--json=1')" --json=1 plain.json asan.json
fails 2 "--metrics=: expected a comma-separated list" --metrics= plain.json asan.json
fails 2 "--metrics=latency_us,,pages: expected" --metrics=latency_us,,pages \
	plain.json asan.json
fails 2 "--metrics=latency_us,: expected a comma-separated list" \
	--metrics=latency_us, plain.json asan.json
fails 2 "--metrics=nosuch: no metric of these files starts with 'nosuch'; accepted: latency_us.mean" \
	--metrics=nosuch plain.json asan.json
fails 2 "option '--metrics' needs a value" plain.json asan.json --metrics
fails 2 "'-' given 2 times" - -

# --- help and version ---------------------------------------------------------------
run --help
[ "$status" -eq 0 ] && [ ! -s "$ERR" ]
ok $? "--help exits 0, nothing on stderr"
missing=
for o in metrics all json plot help version; do
	grep -q -- "--$o" "$OUT" || missing="$missing --$o"
done
grep -q -- '--metrics=LIST .*' "$OUT" && grep -q 'default: every metric' "$OUT" &&
	[ -z "$missing" ]
ok $? "--help lists every option, --metrics with its default" ||
	diag "missing:$missing"
# --sweep's tables as the man page gives them: page_pool's packets per
# second, alone for points of calls not timed, which --plot cannot draw.
tr -s ' \n' '  ' <"$OUT" >"$tmpdir/help"
grep -q "page_pool points (--consumer=page_pool) add a table of each mode's packets per second in millions" "$tmpdir/help" &&
	grep -q "which stands alone for an untimed folder (points run with --call-timing=off: no latency)" "$tmpdir/help" &&
	grep -q -- "--plot draws the mean against the last swept key, and is refused (exit 1) for an untimed folder" "$tmpdir/help"
ok $? "--help: --sweep's page_pool table, untimed folders and their --plot" ||
	diag "$(cat "$tmpdir/help")"
run --version
[ "$status" -eq 0 ] && grep -Eq '^rpcsim-compare \(pagepool\) [0-9.]+, json-c [0-9.]+$' "$OUT"
ok $? "--version names the version and json-c's"

exit_status
exit $?
