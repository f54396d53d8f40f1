#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Latency over time and the histogram's buckets for other tools:
# --interval=SECONDS adds each run's intervals to the JSON (start, calls,
# mean, p50, p99; the calls of the intervals add up to the run's, the
# figures are null where no call ended, p50 <= p99 within the run's min
# and max), and a fifth panel to --plot; --histogram=FILE writes each
# mode's buckets as CSV (mode,lower_ns,upper_ns,count), whose counts add
# up to the mode's calls and whose midpoints give its mean within the
# buckets' 1 %.  Bad values and combinations are refused in one line.

# shellcheck source=tests/rpcsim/common.sh
. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/rpcsim/common.sh"

have_python || plan_skip_all "python3 is needed to read the JSON and CSV"
plan_tests 23

FIXED="--alloc=all --file-size=1m"

run $FIXED --duration=1 --repeat=2 --interval=0.2 --json
cp "$OUT" "$tmpdir/iv.json"
[ "$status" -eq 0 ] && why=$(python3 - "$tmpdir/iv.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
bad = []
for m in d["modes"]:
    for r in m["per_run"]:
        iv = r.get("intervals")
        where = "%s run %s" % (m["mode"], r["run"])
        if not iv:
            bad.append(where + ": no intervals")
            continue
        rows = iv["rows"]
        if iv["interval_s"] != 0.2 or iv["beyond"] != 0:
            bad.append(where + ": interval_s %r beyond %r" %
                       (iv["interval_s"], iv["beyond"]))
        if not 5 <= len(rows) <= 8:
            bad.append(where + ": %d intervals for 1 s" % len(rows))
        if sum(x["calls"] for x in rows) != r["calls"]:
            bad.append(where + ": intervals hold %d calls, the run %d" %
                       (sum(x["calls"] for x in rows), r["calls"]))
        for k, x in enumerate(rows):
            if abs(x["start_s"] - 0.2 * k) > 1e-9:
                bad.append(where + ": row %d starts at %r" % (k, x["start_s"]))
            figs = (x["mean_us"], x["p50_us"], x["p99_us"])
            if x["calls"] == 0:
                if figs != (None, None, None):
                    bad.append(where + ": empty row %d with figures" % k)
            elif not (r["min_us"] <= x["p50_us"] <= x["p99_us"] <= r["max_us"]
                      and r["min_us"] <= x["mean_us"] <= r["max_us"]):
                bad.append(where + ": row %d figures %r outside %r..%r" %
                           (k, figs, r["min_us"], r["max_us"]))
print("; ".join(bad))
sys.exit(1 if bad else 0)
EOF
)
ok $? "--interval=0.2: each run's intervals, their calls adding up to the run's, figures in its range" ||
	diag "exit $status: $why $(head -c 300 "$ERR")"

run $FIXED --requests=300 --json
[ "$status" -eq 0 ] && ! grep -q '"intervals"' "$OUT"
ok $? "without --interval: no intervals member" || diag "exit $status"

run $FIXED --requests=3000 --repeat=2 --json --histogram="$tmpdir/h.csv"
[ "$status" -eq 0 ] && why=$(python3 - "$OUT" "$tmpdir/h.csv" <<'EOF'
import csv, json, sys
d = json.load(open(sys.argv[1]))
rows = list(csv.reader(open(sys.argv[2])))
bad = []
if rows[0] != ["mode", "lower_ns", "upper_ns", "count"]:
    bad.append("header %r" % rows[0])
by = {}
for r in rows[1:]:
    mode, lo, hi, n = r[0], int(r[1]), int(r[2]), int(r[3])
    if lo > hi or n <= 0:
        bad.append("row %r" % r)
    prev = by.setdefault(mode, [])
    if prev and prev[-1][1] >= lo:
        bad.append("%s: buckets out of order at %r" % (mode, r))
    prev.append((lo, hi, n))
for m in d["modes"]:
    b = by.get(m["mode"], [])
    calls = sum(n for _, _, n in b)
    if calls != m["calls"]:
        bad.append("%s: %d calls in the CSV, %d in the JSON" %
                   (m["mode"], calls, m["calls"]))
        continue
    mean = sum((lo + hi) / 2 * n for lo, hi, n in b) / calls / 1000
    if abs(mean - m["mean_us"]) > 0.01 * m["mean_us"] + 0.001:
        bad.append("%s: mean %.4f from the buckets, %.4f" %
                   (m["mode"], mean, m["mean_us"]))
if sorted(by) != sorted(m["mode"] for m in d["modes"]):
    bad.append("modes %r" % sorted(by))
print("; ".join(bad))
sys.exit(1 if bad else 0)
EOF
)
ok $? "--histogram=FILE: CSV buckets per mode adding up to its calls, their midpoints giving its mean" ||
	diag "exit $status: $why"

: >"$tmpdir/before"
run $FIXED --requests=300 --histogram="$tmpdir/no-such-dir/h.csv"
[ "$status" -eq 1 ] && [ ! -s "$OUT" ] &&
	grep -q "^rpcsim: --histogram=$tmpdir/no-such-dir/h.csv: cannot create " "$ERR"
ok $? "--histogram into a missing folder: exit 1 before any run" ||
	diag "exit $status: $(cat "$ERR")"

check_bad_inputs rpcsim "--interval=0	--interval=0: expected a duration above 0
--interval=0.0005	--interval=0.0005: expected a duration of 1ms or more
--interval=x	--interval=x: expected a duration above 0
--interval=0.001 --duration=100	--interval=0.001: 100000 intervals in --duration=100, at most 10000
--consumer=page_pool --interval=1	--interval=1: only with --consumer=nfsd
--histogram=	--histogram=: expected a file name
--sweep=threads=1,2 --results=$tmpdir/sw --histogram=$tmpdir/h2.csv	--histogram=$tmpdir/h2.csv: not with --sweep
--sweep=threads=1,2 --results=$tmpdir/sw --interval=1	--interval=1: not with --sweep"
[ ! -e "$tmpdir/sw" ]
ok $? "  nothing run for the refused ones" || diag "$(ls "$tmpdir/sw")"

if run_cmd 60 sh -c 'command -v gnuplot'; then
	run $FIXED --duration=1 --interval=0.25 --plot="$tmpdir/t.svg" -q
	[ "$status" -eq 0 ] && grep -q 'Latency over time' "$tmpdir/t.svg"
	ok $? "--plot with --interval: a panel of latency over time" ||
		diag "exit $status: $(cat "$ERR")"
	run $FIXED --requests=300 --plot="$tmpdir/u.svg" -q
	[ "$status" -eq 0 ] && [ -s "$tmpdir/u.svg" ] &&
		! grep -q 'Latency over time' "$tmpdir/u.svg"
	ok $? "  and without it, none" || diag "exit $status: $(cat "$ERR")"
else
	skip 2 "no gnuplot"
fi

exit_status
