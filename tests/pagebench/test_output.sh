#!/bin/sh
# SPDX-License-Identifier: MIT
#
# pagebench --output-format=text|json|csv and --output=FILE, as rpcsim's:
# CSV is a header line and one row per configuration with the fields of
# its text line; --json is --output-format=json, the last given decides;
# FILE is replaced whole when the run succeeds and left as it was when it
# fails.  Smoke runs: formats only.

# shellcheck source=tests/pagebench/common.sh
. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/pagebench/common.sh"
tap_tmpdir test-pagebench-output
plan_tests 10

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
