#!/bin/sh
# SPDX-License-Identifier: MIT
#
# pagebench --output-format=text|json|csv and --output=FILE, as rpcsim's:
# CSV is a header line and one row per configuration with the fields of
# its text line; --json is --output-format=json, the last given decides;
# FILE is replaced whole when the run succeeds and left as it was when it
# fails.  And what each figure is, against the figures it comes from: a
# line's median between its fastest and slowest run and its spread from
# them, the JSON's from its runs_ns (an even number of runs too), each
# table cell and ratio from the lines, tsc_per_page as ns_per_page in TSC
# ticks, --smoke's pages_per_run (4 rounds), free= and config as the
# options said.  Smoke runs and runs of 1 ms: arithmetic, never timings.

# shellcheck source=tests/pagebench/common.sh
. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/pagebench/common.sh"
tap_tmpdir test-pagebench-output
plan_tests 17

set -- --smoke --pin=off --allocators=lifo,buddy --api=single,array --bulk=1,64

# --- csv -------------------------------------------------------------------------
run_cmd 60 "$PAGEBENCH" "$@" --output-format=csv
cp "$OUT" "$tmpdir/csv"
run_cmd 60 "$PAGEBENCH" "$@"
grep '^pagebench allocator=' "$OUT" >"$tmpdir/lines"
[ "$(head -n 1 "$tmpdir/csv")" = \
  "allocator,api,bulk,variant,free,runs,pages_per_run,ns_per_page,min_ns,max_ns,spread_pct,tsc_per_page" ] &&
	[ "$(($(wc -l <"$tmpdir/csv") - 1))" -eq "$(wc -l <"$tmpdir/lines")" ] &&
	[ "$(wc -l <"$tmpdir/lines")" -eq 6 ]
ok $? "csv: a header line, then a row per configuration (6)" ||
	diag "$(cat "$tmpdir/csv")"
# each row: the text line's allocator, api, bulk and runs, 12 fields
tail -n +2 "$tmpdir/csv" | awk -F, 'NF != 12 { bad = 1 }
	{ printf "pagebench allocator=%s api=%s bulk=%s%s runs=%s\n", $1, $2, $3,
	  $4 == "" ? "" : " variant=" $4 " free=" $5, $6 }
	END { exit bad }' >"$tmpdir/fromcsv"
st=$?
sed 's/ pages_per_run=.*//' "$tmpdir/lines" | cmp -s - "$tmpdir/fromcsv" && [ "$st" -eq 0 ]
ok $? "csv: each row holds its text line's fields, in the same order" ||
	diag "$(diff "$tmpdir/fromcsv" "$tmpdir/lines")"
if have_python; then
	python3 - "$tmpdir/csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 6
for r in rows:
    assert float(r["ns_per_page"]) > 0 and int(r["runs"]) == 3, r
PY
	ok $? "csv: read by Python's csv module, numbers where numbers belong"
else
	skip 1 "no python3"
fi

# --- json, and the last of --json and --output-format deciding --------------------
run_cmd 60 "$PAGEBENCH" "$@" --output-format=json
[ "$status" -eq 0 ] && [ "$(head -c 1 "$OUT")" = "{" ] && grep -q '"results"' "$OUT"
ok $? "--output-format=json: the JSON document"
run_cmd 60 "$PAGEBENCH" "$@" --output-format=csv --json
[ "$status" -eq 0 ] && [ "$(head -c 1 "$OUT")" = "{" ]
ok $? "--output-format=csv --json: JSON, the last given"
run_cmd 60 "$PAGEBENCH" "$@" --json --output-format=text
[ "$status" -eq 0 ] && grep -q '^pagebench allocator=' "$OUT"
ok $? "--json --output-format=text: text, the last given"

# --- what the figures are -------------------------------------------------------
# Every allocator and API at bulk 1 and 64, freed by put: each figure
# against the others it is computed from (arithmetic, never a timing).
all="--smoke --pin=off --allocators=all --api=all --bulk=1,64 --free=put"
# shellcheck disable=SC2086
run_cmd 60 "$PAGEBENCH" $all
cp "$OUT" "$tmpdir/all.txt"
# shellcheck disable=SC2086
run_cmd 60 "$PAGEBENCH" $all --output-format=csv
cp "$OUT" "$tmpdir/all.csv"
# shellcheck disable=SC2086
run_cmd 60 "$PAGEBENCH" $all --runs=2 --json --je-tcache=off --interleave
cp "$OUT" "$tmpdir/runs2.json"
run_cmd 60 "$PAGEBENCH" --smoke --pin=off --allocators=lifo,buddy --api=single,array \
	--bulk=1,64 --json --je-batch=off
cp "$OUT" "$tmpdir/runs3.json"
if have_python; then
	python3 - "$tmpdir" <<'PY'
import csv, json, re, sys

d = sys.argv[1]
text = open(d + "/all.txt").read().splitlines()

def near(a, b, tol):
    return abs(a - b) <= tol

# Lines: key (allocator, api, bulk) -> fields; 3 decimals each.
lines = {}
for l in text:
    if l.startswith("pagebench allocator="):
        f = dict(kv.split("=", 1) for kv in l.split()[1:])
        lines[(f["allocator"], f["api"], int(f["bulk"]))] = f
ok = [True] * 5
for k, f in lines.items():
    med, lo, hi = (float(f[x]) for x in ("ns_per_page", "min_ns", "max_ns"))
    sp = float(f["spread_pct"])
    if not lo <= med <= hi:
        ok[0] = False; print("# min/median/max", k, lo, med, hi)
    # spread from the printed figures: each off by up to 0.0005
    cands = [100 * (h - l) / m for h in (hi - 5e-4, hi + 5e-4)
             for l in (lo - 5e-4, lo + 5e-4) for m in (med - 5e-4, med + 5e-4)
             if m > 0]
    if not min(cands) - 0.051 <= sp <= max(cands) + 0.051:
        ok[0] = False; print("# spread", k, sp, min(cands), max(cands))
    if "variant" in f and f["free"] != "put":
        ok[1] = False; print("# free", k, f["free"])
    if f["pages_per_run"] != str(4 * int(f["bulk"])):
        ok[4] = False; print("# pages_per_run", k, f["pages_per_run"])

# The table: a row per allocator and API, a column per bulk size.
head = [i for i, l in enumerate(text) if l.startswith("allocator ")]
assert len(head) == 1, head
bulks = [int(x) for x in text[head[0]].split()[2:]]
cells = 0
for l in text[head[0] + 1:]:
    w = l.split()
    if not w or w[0] in ("bulk", "single"):
        break
    for b, v in zip(bulks, w[2:]):
        if v == "-":
            continue
        cells += 1
        f = lines.get((w[0], w[1], b))
        if not f or not near(float(v), float(f["ns_per_page"]), 0.0056):
            ok[1] = False; print("# cell", w[0], w[1], b, v, f and f["ns_per_page"])
if cells != len(lines):
    ok[1] = False; print("# cells", cells, "lines", len(lines))
# the header's line and the table's title
if not any(re.search(r"; bulk rounds free by put$", l) for l in text) or \
   not any(re.search(r"^ns per page .* contract, free by put$", l) for l in text):
    ok[1] = False; print("# headings do not say free by put")

# The ratio lines: quotients of two lines' medians.
def ns(a, api, b):
    return float(lines[(a, api, b)]["ns_per_page"])
ratios = 0
for l in text:
    if l.startswith("bulk 64: ") or l.startswith("single page: "):
        bulk, api = (64, "array") if l.startswith("bulk") else (1, "single")
        for part in l.split(": ", 1)[1].split(", "):
            m = re.fullmatch(r"(\S+)(?: \S+)? / (\S+)(?: \S+)? = ([0-9.]+)x", part)
            num = m.group(1).replace("+sdallocx", "")
            den = "lifo" if "floor" in part else "buddy"
            want = ns(num, api, bulk) / ns(den, api, bulk)
            ratios += 1
            if not near(float(m.group(3)), want, 0.0051 + want * 0.01):
                ok[2] = False; print("# ratio", part, want)
if ratios < 2:
    ok[2] = False; print("# ratios", ratios)

# CSV: the same fields; free only where there is a variant.
for r in csv.DictReader(open(d + "/all.csv")):
    if not float(r["min_ns"]) <= float(r["ns_per_page"]) <= float(r["max_ns"]):
        ok[3] = False; print("# csv min/median/max", r)
    if r["free"] != ("put" if r["variant"] else ""):
        ok[3] = False; print("# csv free", r)
    if int(r["pages_per_run"]) != 4 * int(r["bulk"]):
        ok[4] = False; print("# csv pages_per_run", r)
for i, v in enumerate(ok):
    print("check%d %s" % (i, "ok" if v else "bad"))
PY
else
	echo "no python3"
fi >"$tmpdir/checks"
grep '^#' "$tmpdir/checks" | head -n 10 | while read -r l; do diag "$l"; done
# check N DESCRIPTION: the Python checks' verdict N as a TAP line.
check()
{
	if ! have_python; then
		skip 1 "no python3"
	else
		grep -qx "check$1 ok" "$tmpdir/checks"
		ok $? "$2"
	fi
}
check 0 "text: each line's median within its fastest and slowest run, spread_pct = 100 * (max - min) / median"
check 1 "text: each table cell is its line's median under its bulk size; lines and headings say free by put"
check 2 "text: each ratio under the table is the quotient of the two lines' medians"
check 3 "csv: min_ns <= ns_per_page <= max_ns; free in the rows with a variant only"

if have_python; then
	python3 - "$tmpdir/runs2.json" "$tmpdir/runs3.json" >"$tmpdir/jsonchecks" 2>&1 <<'PY'
import json, sys

bad = []
for path in sys.argv[1:]:
    doc = json.load(open(path))
    n = doc["config"]["runs"]
    for r in doc["results"]:
        k = (path[-10:], r["allocator"], r["api"], r["bulk"])
        v = sorted(r["runs_ns"])
        med = v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2
        # 4 decimals each: the median of rounded figures is within 1e-4
        if len(v) != n or abs(r["ns_per_page"] - med) > 1.1e-4:
            bad.append(("median", k, r["ns_per_page"], v))
        if abs(r["min_ns"] - v[0]) > 1e-9 or abs(r["max_ns"] - v[-1]) > 1e-9:
            bad.append(("min/max", k, r["min_ns"], r["max_ns"], v))
        want = 100 * (v[-1] - v[0]) / med
        if abs(r["spread_pct"] - want) > 0.0051 + 100 * 3e-4 / med * (1 + want / 100):
            bad.append(("spread", k, r["spread_pct"], want))
        if r["pages_per_run"] != 4 * r["bulk"]:
            bad.append(("pages_per_run", k, r["pages_per_run"]))
c2 = json.load(open(sys.argv[1]))["config"]
c3 = json.load(open(sys.argv[2]))["config"]
if (c2["runs"], c2["free"], c2["je_tcache"], c2["je_batch_alloc"], c2["interleave"],
    c2["smoke"]) != (2, "put", False, True, True, True) or \
   (c3["runs"], c3["free"], c3["je_tcache"], c3["je_batch_alloc"], c3["interleave"]) != \
   (3, "release", True, False, False):
    bad.append(("config", c2, c3))
for b in bad[:10]:
    print("#", b)
sys.exit(1 if bad else 0)
PY
	ok $? "json: ns_per_page the median of runs_ns (2 runs: their mean; 3: the middle), min_ns and max_ns the extremes, spread_pct from them; config as the options said" ||
		diag "$(cat "$tmpdir/jsonchecks")"
else
	skip 1 "no python3"
fi
# tsc_per_page is the median in TSC ticks: both clocks read around the
# same runs, so per row it is ns_per_page times the TSC rate the document
# records (within 25%, where 0.2% is seen; a figure per call rather than
# per page, or one clock's figure for the other, is off by 2x to 64x).
# Runs of 1 ms, not smoke runs: a few pages are too few beside the
# clocks' own reads.
run_cmd 60 "$PAGEBENCH" --pin=off --allocators=all --api=single,array --bulk=1,64 \
	--runs=3 --run-ms=1 --json
if ! have_python; then
	skip 1 "no python3"
elif [ "$status" -eq 0 ] && grep -q '"tsc_ghz": null' "$OUT"; then
	skip 1 "no TSC here"
else
	python3 - "$OUT" >"$tmpdir/tscchecks" 2>&1 <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
ghz = doc["machine"]["tsc_ghz"]
bad = [(r["allocator"], r["api"], r["bulk"], r["ns_per_page"], r["tsc_per_page"])
       for r in doc["results"]
       if not 0.75 <= r["tsc_per_page"] / (r["ns_per_page"] * ghz) <= 1.25]
print("# TSC %s GHz; rows off: %s" % (ghz, bad[:5]))
sys.exit(1 if bad or len(doc["results"]) < 10 else 0)
PY
	ok $? "tsc_per_page is ns_per_page in TSC ticks, in every row (the child baselines' too)" ||
		diag "exit $status: $(cat "$tmpdir/tscchecks" "$ERR")"
fi
check 4 "--smoke: pages_per_run is 4 rounds of the bulk size in every line and CSV row, the child baselines' too"

# --- --output=FILE -----------------------------------------------------------------
echo old >"$tmpdir/out.txt"
run_cmd 60 "$PAGEBENCH" "$@" --output="$tmpdir/out.txt"
[ "$status" -eq 0 ] && [ ! -s "$OUT" ] && [ ! -s "$ERR" ] &&
	grep -q '^ns per page' "$tmpdir/out.txt" &&
	[ "$(grep -c '^pagebench allocator=' "$tmpdir/out.txt")" -eq 6 ]
ok $? "--output=FILE: the report in FILE, nothing on stdout" ||
	diag "status $status: $(cat "$ERR")"
run_cmd 60 "$PAGEBENCH" "$@" -o "$tmpdir/out.csv" --output-format=csv
[ "$status" -eq 0 ] && [ ! -s "$OUT" ] &&
	[ "$(head -n 1 "$tmpdir/out.csv")" = "$(head -n 1 "$tmpdir/csv")" ] &&
	[ "$(wc -l <"$tmpdir/out.csv")" -eq 7 ]
ok $? "-o FILE --output-format=csv: the CSV in FILE"
echo old >"$tmpdir/keep.txt"
run_cmd 60 "$PAGEBENCH" --smoke --pin=off --backend=plugin:/nonexistent.so \
	--output="$tmpdir/keep.txt"
[ "$status" -eq 1 ] && [ "$(cat "$tmpdir/keep.txt")" = old ] &&
	[ -z "$(find "$tmpdir" -name '.keep.txt.*')" ]
ok $? "--output=FILE: a run that fails leaves FILE as it was, no temporary file" ||
	diag "status $status: $(cat "$ERR"); $(ls -a "$tmpdir")"
run_cmd 60 "$PAGEBENCH" --smoke --output="$tmpdir/no/such/dir/x"
[ "$status" -eq 1 ] && [ "$(wc -l <"$ERR")" -eq 1 ] &&
	grep -q "^pagebench: --output=$tmpdir/no/such/dir/x: " "$ERR"
ok $? "--output=FILE in a missing folder: exit 1 before any run, one line" ||
	diag "status $status: $(cat "$ERR")"

exit_status
