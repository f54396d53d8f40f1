#!/bin/sh
# SPDX-License-Identifier: MIT
#
# rpcsim-compare --output-format=text|json|csv and --output=FILE, as
# rpcsim's: CSV is a header line and one row per metric, mode and file,
# holding the figures of the JSON document (quoted where a path needs it,
# empty where the JSON document has null); --json is
# --output-format=json; FILE is replaced when the comparison succeeds
# and left as it was when it fails or SIGINT ends it (common/files.c's
# guard), and a SIGINT ignored when it started stays ignored.

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
# shellcheck source=tests/utils/tap.sh
. "$top_srcdir/tests/utils/tap.sh"

COMPARE=$top_builddir/compare/rpcsim-compare
fix=$top_srcdir/tests/compare/fixtures
tap_tmpdir test-compare-output
plan_tests 17

run_cmd 30 "$COMPARE" --output-format=csv "$fix/plain.json" "$fix/asan.json" "$fix/jemalloc.json"
cp "$OUT" "$tmpdir/csv"
[ "$status" -eq 0 ] && [ ! -s "$ERR" ] &&
	[ "$(head -n 1 "$tmpdir/csv")" = "metric,mode,file,runs,mean,stddev,change_pct,ci95_half_width,noise" ]
ok $? "csv: exit 0, the header line" || diag "$(cat "$ERR")"
run_cmd 30 "$COMPARE" --json "$fix/plain.json" "$fix/asan.json" "$fix/jemalloc.json"
cp "$OUT" "$tmpdir/json"
if have_python; then
	python3 - "$tmpdir/csv" "$tmpdir/json" <<'PY'
import csv, json, math, sys
rows = list(csv.DictReader(open(sys.argv[1])))
doc = json.load(open(sys.argv[2]))
files = [f["path"] for f in doc["files"]]
want = []
for m in doc["metrics"]:
    for r in m["rows"]:
        cells = [r["base"]] + r["new"]
        for i, c in enumerate(cells):
            want.append((m["metric"], r["mode"], i, c))
assert len(rows) == len(want), (len(rows), len(want))
def close(a, b):
    return math.isclose(float(a), b, rel_tol=1e-5, abs_tol=1e-9)
for row, (metric, mode, i, c) in zip(rows, want):
    assert row["metric"] == metric and row["mode"] == mode, (row, metric, mode)
    assert row["file"] == files[i], (row, files[i])
    if c is None:
        assert row["runs"] == "0" and row["mean"] == "", row
        continue
    assert int(row["runs"]) == c["runs"] and close(row["mean"], c["mean"]), (row, c)
    assert close(row["stddev"], c["stddev"]), (row, c)
    if i == 0:
        assert row["change_pct"] == "" and row["noise"] == "", row
        continue
    if c.get("change_pct") is None:
        assert row["change_pct"] == "", row
    else:
        assert close(row["change_pct"], c["change_pct"]), (row, c)
    assert row["noise"] == c["noise"], (row, c)
    ci = c.get("ci95")
    assert (row["ci95_half_width"] == "") == (ci is None), (row, c)
    if ci:
        assert close(row["ci95_half_width"], ci["half_width"]), (row, ci)
PY
	ok $? "csv: a row per metric, mode and file, the JSON document's figures"
else
	skip 1 "no python3"
fi
# A refill kind no run made (null figures): no runs, no figures; not 0.
run_cmd 30 "$COMPARE" --output-format=csv -m by_refill.one_page "$fix/refill.json" "$fix/refill-read.json"
[ "$status" -eq 0 ] &&
	grep -qxF "by_refill.one_page.latency_us.mean,array,$fix/refill-read.json,0,,,,," "$OUT" &&
	grep -qF "by_refill.one_page.calls_per_call,array,$fix/refill-read.json,3,0,0,-100," "$OUT"
ok $? "csv: a refill kind without calls has runs 0 and empty figures, its share 0" ||
	diag "$(grep ',array,' "$OUT")"
# A path with a comma and a quote is one field, quoted (RFC 4180); a file
# of one run has a change but no interval: ci95_half_width empty, noise
# unknown.
odd=$tmpdir/one,\"run\".json
cp "$fix/one-run.json" "$odd"
run_cmd 30 "$COMPARE" --output-format=csv -m latency_us.mean "$fix/plain.json" "$odd"
if have_python; then
	python3 - "$OUT" "$odd" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
odd = [r for r in rows if r["file"] == sys.argv[2]]
assert len(rows) == 6 and len(odd) == 3, rows
PY
	ok $? "csv: a path holding a comma and a quote is one quoted field" ||
		diag "$(cat "$OUT")"
else
	skip 1 "no python3"
fi
[ "$status" -eq 0 ] &&
	[ "$(grep -c '^latency_us\.mean,[a-z]*,".*/one,""run"".json",1,[0-9.e-]*,0,[-+0-9.e]*,,unknown$' "$OUT")" -eq 3 ]
ok $? "csv: one run against three: a change, no interval (empty), noise unknown" ||
	diag "$(cat "$OUT")"
run_cmd 30 "$COMPARE" --output-format=json "$fix/plain.json" "$fix/asan.json" "$fix/jemalloc.json"
cmp -s "$OUT" "$tmpdir/json"
ok $? "--output-format=json: what --json writes"
run_cmd 30 "$COMPARE" --json --output-format=text "$fix/plain.json" "$fix/asan.json"
[ "$status" -eq 0 ] && [ "$(head -c 1 "$OUT")" != "{" ]
ok $? "--json --output-format=text: text, the last given"

# --- --output=FILE -------------------------------------------------------------------
run_cmd 30 "$COMPARE" "$fix/plain.json" "$fix/asan.json"
cp "$OUT" "$tmpdir/text"
echo old >"$tmpdir/out.txt"
run_cmd 30 "$COMPARE" --output="$tmpdir/out.txt" "$fix/plain.json" "$fix/asan.json"
[ "$status" -eq 0 ] && [ ! -s "$OUT" ] && [ ! -s "$ERR" ] &&
	cmp -s "$tmpdir/text" "$tmpdir/out.txt"
ok $? "--output=FILE: the tables in FILE, nothing on stdout" ||
	diag "status $status: $(cat "$ERR")"
run_cmd 30 "$COMPARE" -o "$tmpdir/out.csv" --output-format=csv "$fix/plain.json" "$fix/asan.json" "$fix/jemalloc.json"
[ "$status" -eq 0 ] && cmp -s "$tmpdir/csv" "$tmpdir/out.csv"
ok $? "-o FILE --output-format=csv: the CSV in FILE"
run_cmd 30 "$COMPARE" --output="$tmpdir/out.txt" "$fix/plain.json" "$tmpdir/missing.json"
[ "$status" -eq 1 ] && cmp -s "$tmpdir/text" "$tmpdir/out.txt" &&
	grep -q "^rpcsim-compare: --output=$tmpdir/out.txt: not written: the comparison failed (exit 1); the file is as it was$" "$ERR" &&
	[ -z "$(find "$tmpdir" -name '.out.txt.*')" ]
ok $? "--output=FILE: a comparison that fails leaves FILE as it was, and says so" ||
	diag "status $status: $(cat "$ERR")"
run_cmd 30 "$COMPARE" --output="$tmpdir/no/such/x" "$fix/plain.json" "$fix/asan.json"
[ "$status" -eq 1 ] && [ "$(wc -l <"$ERR")" -eq 1 ] &&
	grep -q "^rpcsim-compare: --output=$tmpdir/no/such/x: " "$ERR"
ok $? "--output=FILE in a missing folder: exit 1, one line" || diag "$(cat "$ERR")"
run_cmd 30 "$COMPARE" --output-format=csv --sweep="$fix"
[ "$status" -eq 2 ] && [ "$(cat "$ERR")" = "rpcsim-compare: --output-format=csv: not with --sweep (its tables are text)" ]
ok $? "--output-format=csv --sweep: refused, one line" || diag "$(cat "$ERR")"
# The option refused is the one given, --json or --output-format=json.
run_cmd 30 "$COMPARE" --sweep="$fix" --output-format=json
[ "$status" -eq 2 ] && [ "$(cat "$ERR")" = "rpcsim-compare: --output-format=json: not with --sweep (its tables are text)" ]
ok $? "--output-format=json --sweep: refused, naming --output-format=json" ||
	diag "$(cat "$ERR")"
run_cmd 30 "$COMPARE" --sweep="$fix" -j
[ "$status" -eq 2 ] && [ "$(cat "$ERR")" = "rpcsim-compare: --json: not with --sweep (its tables are text)" ]
ok $? "-j --sweep: refused, naming --json" || diag "$(cat "$ERR")"
# --metrics: what the tables show, true of a page_pool sweep's (packets
# per second, alone when untimed) and pagebench's too.
run_cmd 30 "$COMPARE" --sweep="$fix" --metrics=x
[ "$status" -eq 2 ] && [ "$(cat "$ERR")" = "rpcsim-compare: --metrics=x: not with --sweep (its tables' columns are fixed: the latency per call, a page_pool sweep's packets per second, pagebench's ns per page)" ]
ok $? "--metrics --sweep: refused, naming every table's figure" ||
	diag "$(cat "$ERR")"

# --- signals while --output=FILE is written ----------------------------------------------
# rpcsim-compare waits on standard input ('-', a FIFO held open here)
# with FILE's temporary file made; then SIGINT.  Each wait bounded.
tmp_made() { [ -n "$(find "$tmpdir" -name '.sig.txt.*')" ]; }
finish() { wait_pid "$pid" 30; }
mkfifo "$tmpdir/fifo"
echo old >"$tmpdir/sig.txt"
env --default-signal=INT "$COMPARE" --output="$tmpdir/sig.txt" - "$fix/plain.json" \
	<"$tmpdir/fifo" >"$OUT" 2>"$ERR" &
pid=$!
exec 3>"$tmpdir/fifo"
wait_for 30 tmp_made && kill -INT "$pid"
finish
exec 3>&-
[ "$status" -eq 130 ] && [ "$(cat "$tmpdir/sig.txt")" = old ] && ! tmp_made
ok $? "SIGINT while FILE is written: FILE as it was, no temporary file left" ||
	diag "status $status: $(cat "$ERR")"
# ignored when it started (a background job's SIGINT): it stays ignored
env --ignore-signal=INT "$COMPARE" --output="$tmpdir/sig.txt" - "$fix/plain.json" \
	<"$tmpdir/fifo" >"$OUT" 2>"$ERR" &
pid=$!
exec 3>"$tmpdir/fifo"
wait_for 30 tmp_made && kill -INT "$pid"
cat "$fix/asan.json" >&3
exec 3>&-
finish
[ "$status" -eq 0 ] && [ ! -s "$ERR" ] && grep -qx 'base: (stdin)' "$tmpdir/sig.txt" && grep -q 'single/latency_us.mean$' "$tmpdir/sig.txt" &&
	! tmp_made
ok $? "SIGINT ignored when it started: ignored, FILE written at the end" ||
	diag "status $status: $(cat "$ERR")"

exit_status
