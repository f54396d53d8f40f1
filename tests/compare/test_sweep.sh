#!/bin/sh
# SPDX-License-Identifier: MIT
#
# rpcsim-compare --sweep=DIR refuses a folder that is not a sweep: each
# file that cannot be a point of the grid (a point twice, a point number
# outside 1..points or not an integer, a grid of a value more, a value
# outside the grid, a mean that no run measures, a mode unknown or twice,
# no runs, no calls, other --requests or --repeat than the other points,
# a consumer or page_pool settings rpcsim never writes, a null mean where
# the calls were timed)
# is named with the field at fault in one line, no table is printed and
# the exit status is 1.  pagebench result files beside them are read as
# strictly: a figure out of range, a name or bulk size pagebench has not,
# a configuration twice, runs_ns not one number per run, no result, a run
# cut short are each one line, exit 1, the file's rows left out.
# The files are read as input files are (common/files.h): a *.json that
# is /dev/zero or a FIFO is refused at once, not read or waited on.
# Tables of figures set by hand check every cell: the means, the runs'
# stddev ('-' for one run), the changes against point 1 (across folders,
# against each folder's own), pagebench's spread and change; the notes
# of a point marked and of a pcp point that ran other lists (never of
# pcp=auto, which names none).

# shellcheck source=tests/rpcsim/common.sh
. "$top_srcdir/tests/rpcsim/common.sh"

plan_tests 90

have_python || skip_rest "python3 is needed to edit the result files"

# One real 2x2 sweep, edited copy by copy.
run --alloc=all --repeat=2 --requests=50 --file-size=1m --pool-size=16m \
	--sweep=threads=1,2 --sweep=pcp-batch=31,63 --results="$tmpdir/good" \
	--quiet
[ "$status" -eq 0 ] && compare_sweep "$tmpdir/good" && [ ! -s "$ERR" ] &&
	grep -q '^sweep: 4 of 4 points' "$OUT"
ok $? "the sweep as written: its table, exit 0" ||
	diag "exit $status: $(cat "$ERR")"

P1=threads-1_pcp-batch-31.json
P2=threads-1_pcp-batch-63.json

# refused CASE FILE PATTERN PYTHON: a copy of the sweep $sweep (good: the
# one above) whose FILE is changed by PYTHON (doc is its document; written
# back with NaN allowed) must be refused: exit 1, no table, one line
# naming FILE and PATTERN.
n=0
sweep=good
refused()
{
	n=$((n + 1))
	d="$tmpdir/bad$n"
	cp -r "$tmpdir/$sweep" "$d"
	json_edit "$d/$2" "$4"
	compare_sweep "$d"
	[ "$status" -eq 1 ] && [ ! -s "$OUT" ] &&
		[ "$(wc -l <"$ERR")" -eq 1 ] &&
		grep -q "^rpcsim-compare: $d/$2: $3" "$ERR"
	ok $? "$1: exit 1, one line naming the file and the field" ||
		diag "exit $status: $(cat "$ERR")" "$(head -3 "$OUT")"
}

refused "a value of a key twice" "$P1" \
	"sweep.keys\\[1\\].values\\[2\\]: '31' given twice$" \
	'doc["sweep"]["keys"][1]["values"] += ["31"]'
# Two values each given twice: the first repeat in the list is named.
refused "two values of a key twice" "$P1" \
	"sweep.keys\\[1\\].values\\[2\\]: '63' given twice$" \
	'doc["sweep"]["keys"][1]["values"] = ["31", "63", "63", "31"]'
refused "interrupted as a string" "$P2" 'interrupted: "yes": expected true or false$' \
	'doc["interrupted"] = "yes"'
refused "point 0" "$P2" 'sweep.point: 0: expected an integer 1 to 4$' \
	'doc["sweep"]["point"] = 0'
refused "point -1" "$P2" 'sweep.point: -1: expected an integer 1 to 4$' \
	'doc["sweep"]["point"] = -1'
refused "point 1.5" "$P2" 'sweep.point: 1.5: expected an integer 1 to 4$' \
	'doc["sweep"]["point"] = 1.5'
refused "point 99" "$P2" 'sweep.point: 99: expected an integer 1 to 4$' \
	'doc["sweep"]["point"] = 99'
refused "point as a string" "$P2" 'sweep.point: "2": expected an integer' \
	'doc["sweep"]["point"] = "2"'
refused "points other than the grid's" "$P2" \
	'sweep.points: 5, but its grid (sweep.keys) has 4 points$' \
	'doc["sweep"]["points"] = 5'
# A grid of one value more of a key, with the points it would have had:
# the values differ, not only the count of points.
refused "a grid with a value more of a key" "$P2" \
	"sweep.keys: a point of another sweep (other keys or values than $tmpdir/bad$((n + 1))/$P1's)$" \
	'doc["sweep"]["keys"][0]["values"].append("3")'
refused "a value outside the grid" "$P2" \
	"sweep.values.threads: '3' is no value of the grid's threads$" \
	'doc["sweep"]["values"]["threads"] = "3"'
refused "a value of another point" "$P2" \
	"sweep.values.pcp-batch: '31', but point 2 of the grid has pcp-batch=63$" \
	'doc["sweep"]["values"]["pcp-batch"] = "31"'
refused "a mean of -5" "$P2" 'modes\[0\].mean_us: -5: expected a finite number 0 to 1e+09$' \
	'doc["modes"][0]["mean_us"] = -5'
refused "a mean of NaN" "$P2" 'modes\[0\].mean_us: NaN: expected a finite number' \
	'doc["modes"][0]["mean_us"] = float("nan")'
refused "a mean of 1e308" "$P2" 'modes\[0\].mean_us: 1e+308: expected a finite number' \
	'doc["modes"][0]["mean_us"] = 1e308'
refused "a null mean (only an untimed page_pool point has one)" "$P2" \
	'modes\[0\].mean_us: null: expected a number (null only in a page_pool point whose calls were not timed)$' \
	'doc["modes"][0]["mean_us"] = None'
refused "no mean" "$P2" 'modes\[0\].mean_us: missing: expected a number$' \
	'del doc["modes"][0]["mean_us"]'
refused "a mean as a string" "$P2" 'modes\[0\].mean_us: "fast": not a number$' \
	'doc["modes"][0]["mean_us"] = "fast"'
refused "a mean longer than the runs" "$P2" \
	'modes\[0\].mean_us: 5e+06: longer than the mode.s [0-9.e+-]* s of runs (elapsed_s)$' \
	'doc["modes"][0]["mean_us"] = 5e6; doc["modes"][0]["elapsed_s"] = 1'
refused "per_run as an object" "$P2" 'modes\[0\].per_run: not an array$' \
	'doc["modes"][0]["per_run"] = {}'
refused "a spread across runs as a string" "$P2" \
	'modes\[1\].across_runs.stddev_us: "x": not a number$' \
	'doc["modes"][1]["across_runs"]["stddev_us"] = "x"'
refused "a mode's runs of more than 10^9 s" "$P2" \
	'modes\[0\].elapsed_s: 2000000000.0: expected a finite number 0 to 1e+09$' \
	'doc["modes"][0]["elapsed_s"] = 2e9'
# rpcsim's longest mode, 1000 runs of 10^6 s (--repeat, --duration), is read
d="$tmpdir/long"
cp -r "$tmpdir/good" "$d"
json_edit "$d/$P2" 'doc["modes"][0]["elapsed_s"] = 1e9'
compare_sweep "$d"
[ "$status" -eq 0 ] && [ ! -s "$ERR" ]
ok $? "a mode of 10^9 s of runs (--repeat=1000 --duration=1000000): read" ||
	diag "exit $status: $(cat "$ERR")"
refused "an unknown mode" "$P2" "modes\[1\].mode: 'bogus': expected single, list or array$" \
	'doc["modes"][1]["mode"] = "bogus"'
refused "a mode twice" "$P2" "modes\[3\].mode: 'single' given twice$" \
	'doc["modes"].append(doc["modes"][0])'
refused "no mode" "$P2" 'modes: empty' 'doc["modes"] = []'
refused "an empty per_run" "$P2" 'modes\[0\].per_run: 0 runs, but runs is 2$' \
	'doc["modes"][0]["per_run"] = []'
refused "0 calls" "$P2" 'modes\[2\].calls: 0: expected an integer 1 to ' \
	'doc["modes"][2]["calls"] = 0'
# json-c reads an integer beyond its range as the nearest it holds:
# 10^30 calls would pass for 2^64 - 1, and 2^63 for 2^63 - 1 (within
# the bound of calls).
refused "10^30 calls" "$P2" \
	'modes\[0\].calls: 18446744073709551615 or more: expected an integer 1 to 9223372036854775807$' \
	'doc["modes"][0]["calls"] = 10**30'
refused "2^63 calls" "$P2" \
	'modes\[1\].calls: 9223372036854775808: expected an integer 1 to 9223372036854775807$' \
	'doc["modes"][1]["calls"] = 2**63'
refused "point -10^30" "$P2" 'sweep.point: -9223372036854775808 or less: expected an integer 1 to 4$' \
	'doc["sweep"]["point"] = -10**30'
refused "a run of 0 calls" "$P2" 'modes\[0\].per_run\[1\].calls: 0: expected an integer 1 to ' \
	'doc["modes"][0]["per_run"][1]["calls"] = 0'
refused "other --requests" "$P2" \
	"config.requests: 100, but 50 in $tmpdir/bad$((n + 1))/$P1: the points of a sweep run with the same settings" \
	'doc["config"]["requests"] = 100'
refused "other --repeat" "$P2" \
	"config.repeat: 3, but 2 in $tmpdir/bad$((n + 1))/$P1" \
	'doc["config"]["repeat"] = 3'
refused "another program" "$P2" 'not an rpcsim --sweep result (no "program": "rpcsim")$' \
	'doc["program"] = "pagebench-like"'
refused "a consumer rpcsim has not" "$P2" 'config.consumer: "foo": expected "nfsd" or "page_pool"$' \
	'doc["config"]["consumer"] = "foo"'

# page_pool points: whether their calls were timed is config.page_pool's
# call_timing, and a fault there is named there, not as a null mean.
run --consumer=page_pool --alloc=all --requests=200 --call-timing=off \
	--sweep=threads=1,2 --results="$tmpdir/untimed" --quiet
[ "$status" -eq 0 ] && compare_sweep "$tmpdir/untimed" && [ ! -s "$ERR" ]
ok $? "a page_pool sweep of calls not timed: its table, exit 0" ||
	diag "exit $status: $(cat "$ERR")"
run --consumer=page_pool --alloc=array --requests=200 \
	--sweep=threads=1,2 --results="$tmpdir/timed" --quiet
[ "$status" -eq 0 ] && compare_sweep "$tmpdir/timed" && [ ! -s "$ERR" ]
ok $? "a page_pool sweep of timed calls: its table, exit 0" ||
	diag "exit $status: $(cat "$ERR")"
PP1=threads-1.json
sweep=untimed
refused "call_timing as a string" "$PP1" \
	'config.page_pool.call_timing: "false": expected true or false$' \
	'doc["config"]["page_pool"]["call_timing"] = "false"'
refused "no call_timing (an older rpcsim: timed), null means" "$PP1" \
	'modes\[0\].mean_us: null: expected a number (null only where config.page_pool.call_timing is false; here it is missing: the calls were timed)$' \
	'del doc["config"]["page_pool"]["call_timing"]'
refused "no config.page_pool" "$PP1" \
	'config.page_pool: missing: expected the page_pool consumer.s settings (config.consumer is "page_pool")$' \
	'del doc["config"]["page_pool"]'
refused "config.page_pool not an object" "$PP1" \
	'config.page_pool: \[\]: expected the page_pool consumer.s settings (an object)$' \
	'doc["config"]["page_pool"] = []'
sweep=timed
refused "a null mean in a run of timed calls" "$PP1" \
	'modes\[0\].per_run\[0\].mean_us: null: expected a number (null only where config.page_pool.call_timing is false; here it is true)$' \
	'doc["modes"][0]["per_run"][0]["mean_us"] = None'
sweep=good

# pcp swept: a point whose file says other lists ran than its value names
# is shown so, with a note (lock asked for, rseq in its config).
run --alloc=single --requests=50 --file-size=1m --pool-size=16m \
	--sweep=pcp=lock,rseq --results="$tmpdir/pcp" --quiet
json_edit "$tmpdir/pcp/pcp-lock.json" 'doc["config"]["pcp_impl"] = "rseq"'
compare_sweep "$tmpdir/pcp"
[ "$status" -eq 0 ] && grep -q '^    1  lock (ran: rseq)  ' "$OUT" &&
	grep -qx 'point 1: pcp=lock ran the rseq lists (the result file does not say why)' "$OUT"
ok $? "pcp=lock whose file says the rseq lists ran: the row and a note say so" ||
	diag "exit $status: $(cat "$ERR")" "$(cat "$OUT")"
# pcp=auto names no implementation: whichever lists ran (rseq or lock,
# never "auto") are the ones it asked for, no row says what ran.
run --alloc=single --requests=50 --file-size=1m --pool-size=16m \
	--sweep=pcp=auto,lock --results="$tmpdir/pcpauto" --quiet
compare_sweep "$tmpdir/pcpauto"
[ "$status" -eq 0 ] && grep -q '^    1  auto  ' "$OUT" &&
	! grep -q '(ran: ' "$OUT" && grep -q '; pcp lists as swept$' "$OUT"
ok $? "pcp=auto: what ran is what it asked for, never marked" ||
	diag "exit $status: $(cat "$ERR")" "$(cat "$OUT")"

# point_twice FOLDER COPY DESCRIPTION: the good folder as FOLDER with
# point 1 copied to COPY: exit 1, no table, the copy and point 1 named.
point_twice()
{
	d="$tmpdir/$1"
	cp -r "$tmpdir/good" "$d"
	cp "$d/$P1" "$d/$2"
	compare_sweep "$d"
	[ "$status" -eq 1 ] && [ ! -s "$OUT" ] &&
		grep -q "^rpcsim-compare: $d/$2: sweep.point: 1 again ($d/$P1 is that point too): one file per point$" "$ERR"
	ok $? "$3" || diag "exit $status: $(cat "$ERR")" "$(head -3 "$OUT")"
}
# A point twice: "5 of 4 points" was the table.
point_twice twice zz-copy.json "a point twice: exit 1, both files named, no table"
# ... also when the copy is read right after the point it repeats (its
# name sorts next): every point read before it is looked at, the last too.
point_twice twice-next "${P1%.json}x.json" \
	"a point twice, the copy read right after it: exit 1, both named"

# A hidden *.json (an editor's or a copy's) is no result file of the folder.
d="$tmpdir/hidden"
cp -r "$tmpdir/good" "$d"
cp "$d/$P1" "$d/.$P1"
compare_sweep "$d"
[ "$status" -eq 0 ] && [ ! -s "$ERR" ] && grep -q '^sweep: 4 of 4 points' "$OUT"
ok $? "a hidden copy of a point: not read" || diag "exit $status: $(cat "$ERR")"
# Sub-folders without a result file (empty, or of other files) are no
# machine's folder: the table is DIR's own, no "== DIR ==" headings.
d="$tmpdir/subs"
cp -r "$tmpdir/good" "$d"
mkdir "$d/empty" "$d/notes"
echo notes >"$d/notes/README"
compare_sweep "$d"
[ "$status" -eq 0 ] && [ ! -s "$ERR" ] && grep -q '^sweep: 4 of 4 points' "$OUT" &&
	! grep -q '^== ' "$OUT"
ok $? "sub-folders without a result file: DIR's own table, no folders" ||
	diag "exit $status: $(cat "$ERR")" "$(head -n 3 "$OUT")"
# DIR's own result files beside one folder of them: two folders' tables,
# DIR's first, not the folder's alone.
d="$tmpdir/own"
cp -r "$tmpdir/good" "$d"
cp -r "$tmpdir/good" "$d/sub"
compare_sweep "$d"
[ "$status" -eq 0 ] && [ ! -s "$ERR" ] &&
	[ "$(grep '^== ' "$OUT" | tr '\n' ' ')" = "== $d == == $d/sub == " ] &&
	grep -q '^across 2 folders: single, ' "$OUT"
ok $? "DIR's own files and one folder: both tables, and the table across them" ||
	diag "exit $status: $(cat "$ERR")" "$(grep -e '^==' -e '^across' "$OUT")"

# --- the tables hold the largest figures read -------------------------------
# aligned FILE: every table of FILE (its lines from a "point" header to the
# next blank line) has lines of one length: the columns hold their cells.
aligned()
{
	awk '/^point / { t = 1; n = length($0); next }
	     /^$/ { t = 0 }
	     t && length($0) != n { bad = 1; print "misaligned: " $0 }
	     END { exit bad }' "$1"
}
d="$tmpdir/wide"
cp -r "$tmpdir/good" "$d"
json_edit "$d/$P2" 'doc["modes"][0]["mean_us"] = 1234567.5' \
	'doc["modes"][0]["elapsed_s"] = 100'
compare_sweep "$d"
[ "$status" -eq 0 ] && grep -q ' 1234567\.500 ' "$OUT" && aligned "$OUT"
ok $? "a mean of 1234567.5 us: the latency table's columns widen, aligned" ||
	diag "exit $status: $(cat "$ERR")" "$(cat "$OUT")"
mkdir "$tmpdir/hosts"
cp -r "$tmpdir/good" "$tmpdir/hosts/a"
cp -r "$d" "$tmpdir/hosts/b"
compare_sweep "$tmpdir/hosts"
[ "$status" -eq 0 ] && grep -q ' 1234567\.500 ' "$OUT" && aligned "$OUT"
ok $? "... and the table across folders" ||
	diag "exit $status: $(cat "$ERR")" "$(cat "$OUT")"
d="$tmpdir/fast"
cp -r "$tmpdir/untimed" "$d"
json_edit "$d/threads-2.json" 'doc["modes"][1]["page_pool"]["packets_per_s"] = 1e12'
compare_sweep "$d"
[ "$status" -eq 0 ] && grep -q ' 1000000\.000 ' "$OUT" && aligned "$OUT"
ok $? "10^12 packets/s: the packet table's columns widen, aligned" ||
	diag "exit $status: $(cat "$ERR")" "$(cat "$OUT")"
compare_sweep "$tmpdir/good"
aligned "$OUT" &&
	grep -qx 'point  threads  pcp-batch     single       +-   change       list       +-   change      array       +-   change' "$OUT" &&
	[ "$(grep -Ec '^    [1-4] +[12] +(31|63)(  [ 0-9.]{9} [ 0-9.-]{8} [ 0-9.%+base-]{8}){3}$' "$OUT")" -eq 4 ]
ok $? "ordinary figures: the columns as they were (9, 8, 8)" ||
	diag "$(cat "$OUT")"

# --- the tables' figures, set by hand ----------------------------------------
# Each mode's mean per point (single, list, array), as the result files
# say; the change is 100 * (mean - point 1's) / point 1's:
#   point 1: 2.0, 4.0, 8.0   base, base, base
#   point 2: 3.0, 4.0, 6.0   +50.0%, +0.0%, -25.0%
#   point 3: 1.0, 5.0, 12.0  -50.0%, +25.0%, +50.0%
#   point 4: 2.5, 3.0, 10.0  +25.0%, -25.0%, +25.0%
# hand: two runs a point, the runs' stddev 0.125, 0.25, 0.5, 1 by point;
# one: a run a point (no stddev: "-"), point 4 from another host.
python3 - "$tmpdir/good" "$tmpdir/hand" "$tmpdir/one" <<'EOF'
import json, os, sys
means = {1: (2.0, 4.0, 8.0), 2: (3.0, 4.0, 6.0), 3: (1.0, 5.0, 12.0),
         4: (2.5, 3.0, 10.0)}
sds = {1: 0.125, 2: 0.25, 3: 0.5, 4: 1.0}
for d in sys.argv[2:]:
    one = d.endswith("/one")
    os.mkdir(d)
    for f in os.listdir(sys.argv[1]):
        doc = json.load(open(os.path.join(sys.argv[1], f)))
        pt = doc["sweep"]["point"]
        for k, m in enumerate(doc["modes"]):
            m["mean_us"] = means[pt][k]
            # rpcsim's stddev of one run is 0
            m["across_runs"]["stddev_us"] = 0 if one else sds[pt]
            if one:
                m["runs"] = m["across_runs"]["n"] = 1
                m["per_run"] = m["per_run"][:1]
        if one:
            doc["config"]["repeat"] = 1
            if pt == 4:
                doc["host"] = "elsewhere"
        json.dump(doc, open(os.path.join(d, f), "w"))
EOF
compare_sweep "$tmpdir/hand"
[ "$status" -eq 0 ] && [ "$(grep '^ *[1-4]  ' "$OUT")" = "\
    1        1         31      2.000    0.125     base      4.000    0.125     base      8.000    0.125     base
    2        1         63      3.000    0.250   +50.0%      4.000    0.250    +0.0%      6.000    0.250   -25.0%
    3        2         31      1.000    0.500   -50.0%      5.000    0.500   +25.0%     12.000    0.500   +50.0%
    4        2         63      2.500    1.000   +25.0%      3.000    1.000   -25.0%     10.000    1.000   +25.0%" ]
ok $? "set by hand: each mode's mean, the runs' stddev, the change against point 1" ||
	diag "exit $status: $(cat "$ERR")" "$(cat "$OUT")"
compare_sweep "$tmpdir/one"
[ "$status" -eq 0 ] && [ "$(grep '^ *[1-4]  ' "$OUT")" = "\
    1        1         31      2.000        -     base      4.000        -     base      8.000        -     base
    2        1         63      3.000        -   +50.0%      4.000        -    +0.0%      6.000        -   -25.0%
    3        2         31      1.000        -   -50.0%      5.000        -   +25.0%     12.000        -   +50.0%
    4        2         63      2.500        -   +25.0%      3.000        -   -25.0%     10.000        -   +25.0%  *" ]
ok $? "one run a point: no stddev ('-'), whatever the file says of one run" ||
	diag "exit $status: $(cat "$ERR")" "$(cat "$OUT")"
grep -qx '1 point marked \*: run on another host or build than point 1; their changes compare machines too' "$OUT"
ok $? "one point from another host: '1 point marked *'" || diag "$(tail -n 3 "$OUT")"
mkdir "$tmpdir/two"
cp -r "$tmpdir/hand" "$tmpdir/two/a"
cp -r "$tmpdir/one" "$tmpdir/two/b"
compare_sweep "$tmpdir/two"
[ "$status" -eq 0 ] &&
	[ "$(sed -n '/^across 2 folders: single,/,/^across 2 folders: list,/p' \
		"$OUT" | grep '^ *[1-4]  ')" = "\
    1        1         31      2.000     base      2.000     base
    2        1         63      3.000   +50.0%      3.000   +50.0%
    3        2         31      1.000   -50.0%      1.000   -50.0%
    4        2         63      2.500   +25.0%      2.500   +25.0%" ]
ok $? "across folders: each folder's mean and its change against its own point 1" ||
	diag "exit $status: $(cat "$ERR")" "$(sed -n '/^across/,$p' "$OUT")"
# A grid of a value more (threads=1,2,3: the same four points, two
# missing) is another grid: no table across them.
mkdir "$tmpdir/grids"
cp -r "$tmpdir/hand" "$tmpdir/grids/a"
cp -r "$tmpdir/hand" "$tmpdir/grids/b"
for f in "$tmpdir"/grids/b/*.json; do
	json_edit "$f" 'doc["sweep"]["keys"][0]["values"].append("3")' \
		'doc["sweep"]["points"] = 6'
done
compare_sweep "$tmpdir/grids"
[ "$status" -eq 0 ] && grep -q '^sweep: 4 of 6 points' "$OUT" &&
	grep -qx "no table across the folders: $tmpdir/grids/b holds another grid than $tmpdir/grids/a" "$OUT" &&
	! grep -q '^across ' "$OUT"
ok $? "folders of grids differing by a value: each table, none across" ||
	diag "exit $status: $(cat "$ERR")" "$(cat "$OUT")"

# rpcsim's largest grid, 100000 points (three of them run): read at once
# (each value checked against the others by sorting), the point column as
# wide as its last point.
d="$tmpdir/big"
mkdir "$d"
python3 - "$tmpdir/good/$P1" "$d" <<'EOF'
import json, sys
base = json.load(open(sys.argv[1]))
values = [str(v) for v in range(1, 100001)]
for p in (1, 2, 100000):
    doc = json.loads(json.dumps(base))
    sw = doc["sweep"]
    sw.update(point=p, points=100000, name="seed-%d" % p,
              keys=[{"key": "seed", "values": values}],
              values={"seed": str(p)})
    sw["settings"] = sw["settings"].replace("--pcp-batch=31", "") + \
        " --pcp-batch=31 --seed=%d" % p
    doc["config"]["seed"] = p
    json.dump(doc, open("%s/seed-%d.json" % (sys.argv[2], p), "w"))
EOF
run_cmd 60 "$COMPARE" --sweep="$d"
[ "$status" -eq 0 ] && grep -q '^ point    seed ' "$OUT" &&
	grep -q '^     2       2 ' "$OUT" && grep -q '^100000  100000 ' "$OUT"
ok $? "a grid of 100000 points: read, the point column 6 wide" ||
	diag "exit $status: $(cut -c1-200 "$ERR")" "$(grep -v '^sweep: ' "$OUT" | cut -c1-120 | head -n 12)"

# --- pagebench result files ------------------------------------------------
# Read as strictly as the points: a file refused is one line naming it and
# the field, exit 1, its rows left out; the other file is tabulated.
PAGEBENCH=$top_builddir/pagebench/pagebench
PB1=pagebench_allocators-buddy-lifo_api-single-array_bulk-1-64.json
run_cmd 60 "$PAGEBENCH" --allocators=buddy,lifo --api=single,array \
	--bulk=1,64 --smoke --runs=2 --run-ms=1 --results="$tmpdir/pb"
run_cmd 60 "$PAGEBENCH" --allocators=buddy --api=array --bulk=64 --smoke \
	--runs=1 --run-ms=1 --results="$tmpdir/pb"
compare_sweep "$tmpdir/pb"
[ "$status" -eq 0 ] && [ ! -s "$ERR" ] &&
	[ "$(head -n 1 "$OUT")" = "pagebench: 7 rows of 2 result files" ]
ok $? "two pagebench files: their table, exit 0" ||
	diag "exit $status: $(cat "$ERR")" "$(head -n 3 "$OUT")"
# The configurations in the order the files (in name order) first give
# them, each one's rows together, by file.
python3 - "$OUT" "$tmpdir/pb" <<'EOF'
import json, os, sys
rows = [l.split() for l in open(sys.argv[1])
        if l.split() and l.split()[0] in ("buddy", "lifo")]
want = []
for f in sorted(os.listdir(sys.argv[2])):
    for r in json.load(open(os.path.join(sys.argv[2], f)))["results"]:
        c = [r["allocator"], r["api"], str(r["bulk"]), r["variant"] or "-"]
        if c not in want:
            want.append(c)
got = []
for r in rows:
    if not got or got[-1] != r[:4]:
        got.append(r[:4])
assert got == want, (got, want)
assert [r[4] for r in rows if r[:3] == ["buddy", "array", "64"]] == ["1", "2"], rows
EOF
ok $? "pagebench's rows: configurations as the files first give them, each one's rows by file" ||
	diag "$(cat "$OUT")"
# A point refused beside them: its folder's exit status is 1 whatever
# pagebench's table gives; no rpcsim table, pagebench's alone.
d="$tmpdir/pbpoint"
cp -r "$tmpdir/good" "$d"
cp "$tmpdir"/pb/*.json "$d/"
json_edit "$d/$P2" 'doc["sweep"]["point"] = 99'
compare_sweep "$d"
[ "$status" -eq 1 ] && [ "$(wc -l <"$ERR")" -eq 1 ] &&
	grep -q "^rpcsim-compare: $d/$P2: sweep.point: 99: " "$ERR" &&
	[ "$(head -n 1 "$OUT")" = "pagebench: 7 rows of 2 result files" ] &&
	! grep -q '^sweep: ' "$OUT"
ok $? "a point refused beside pagebench files: exit 1, pagebench's table alone, first" ||
	diag "exit $status: $(cat "$ERR")" "$(head -n 3 "$OUT")"

# pb_refused_in FILE ROWS DESCRIPTION PATTERN PYTHON: the pagebench
# folder with FILE changed by PYTHON is refused: one line naming FILE and
# PATTERN, exit 1, the other file's ROWS rows alone tabulated.
pb_refused_in()
{
	n=$((n + 1))
	d="$tmpdir/bad$n"
	cp -r "$tmpdir/pb" "$d"
	json_edit "$d/$1" "$5"
	compare_sweep "$d"
	[ "$status" -eq 1 ] && [ "$(wc -l <"$ERR")" -eq 1 ] &&
		grep -q "^rpcsim-compare: $d/$1: $4" "$ERR" &&
		[ "$(head -n 1 "$OUT")" = "pagebench: $2 of 1 result file" ]
	ok $? "$3" || diag "exit $status: $(cat "$ERR")" "$(head -n 3 "$OUT")"
}
# pb_refused CASE PATTERN PYTHON: the same of $PB1, file 2's 1 row left.
pb_refused()
{
	pb_refused_in "$PB1" "1 row" \
		"pagebench: $1: exit 1, one line naming the file and the field" \
		"$2" "$3"
}
pb_refused "ns_per_page NaN" \
	'results\[0\].ns_per_page: NaN: expected a finite number 0 to 1e+12$' \
	'doc["results"][0]["ns_per_page"] = float("nan")'
pb_refused "ns_per_page -1" \
	'results\[1\].ns_per_page: -1: expected a finite number 0 to 1e+12$' \
	'doc["results"][1]["ns_per_page"] = -1'
pb_refused "ns_per_page 1e300" \
	'results\[2\].ns_per_page: 1e+300: expected a finite number 0 to 1e+12$' \
	'doc["results"][2]["ns_per_page"] = 1e300'
pb_refused "bulk -3" 'results\[1\].bulk: -3: expected an integer 1 to 128$' \
	'doc["results"][1]["bulk"] = -3'
pb_refused "bulk 64 of the single API" \
	'results\[0\].bulk: 64: the single API takes one page at a time (bulk 1)$' \
	'doc["results"][0]["bulk"] = 64'
pb_refused "a run cut short" \
	'interrupted: a run cut short by SIGINT, not a result (pagebench --results writes no file when cut short)$' \
	'doc["interrupted"] = True; doc["signal"] = "SIGINT"'
pb_refused "an allocator pagebench has not" \
	'results\[0\].allocator: "foo": expected buddy, jemalloc, plugin, glibc, mallocx, mempool, tcmalloc, lifo, contract or percpu$' \
	'doc["results"][0]["allocator"] = "foo"'
pb_refused "an unknown bulk contract" \
	'results\[1\].variant: "fast": expected null or merged, ' \
	'doc["results"][1]["variant"] = "fast"'
pb_refused "runs_ns [\"a\"]" 'results\[0\].runs_ns: 1 run, but config.runs is 2$' \
	'doc["results"][0]["runs_ns"] = ["a"]'
pb_refused "runs_ns as a string" 'results\[0\].runs_ns: not an array$' \
	'doc["results"][0]["runs_ns"] = "fast"'
pb_refused "a run's time as a string" 'results\[0\].runs_ns\[1\]: "a": not a number$' \
	'doc["results"][0]["runs_ns"][1] = "a"'
pb_refused "results []" 'results: empty: expected a configuration or more$' \
	'doc["results"] = []'
pb_refused "a configuration twice" \
	'results\[2\]: buddy array bulk 1 merged again (results\[1\] is that configuration too): one row per configuration$' \
	'doc["results"][2] = doc["results"][1]'
pb_refused "config.runs 0" 'config.runs: 0: expected an integer 1 to 1000$' \
	'doc["config"]["runs"] = 0'
pb_refused "config.run_ms 0.05" \
	'config.run_ms: 0.05: expected a finite number 0.1 to 10000$' \
	'doc["config"]["run_ms"] = 0.05'
# By hand: buddy array 64 takes 40 ns with a spread of 0 in file 1 (two
# runs: "0.0%"), 50 ns in file 2 (one run: "-"): +25.0% against file 1.
PB2=$(cd "$tmpdir/pb" && ls | grep -vxF "$PB1")
d="$tmpdir/pbhand"
cp -r "$tmpdir/pb" "$d"
python3 - "$d/$PB1" "$d/$PB2" <<'EOF'
import json, sys
for path, ns in zip(sys.argv[1:], (40, 50)):
    doc = json.load(open(path))
    for r in doc["results"]:
        if (r["allocator"], r["api"], r["bulk"]) == ("buddy", "array", 64):
            r["ns_per_page"] = ns
            r["spread_pct"] = 0
    json.dump(doc, open(path, "w"))
EOF
compare_sweep "$d"
[ "$status" -eq 0 ] &&
	grep -Eqx 'buddy +array +64 +merged +1 +40\.000 +0\.0% +base' "$OUT" &&
	grep -Eqx 'buddy +array +64 +merged +2 +50\.000 +- +\+25\.0%' "$OUT"
ok $? "pagebench set by hand: a spread of 0 is 0.0%, the change against file 1's median" ||
	diag "exit $status: $(cat "$ERR")" "$(cat "$OUT")"
# A configuration twice in the second file: named by its own index.
pb_refused_in "$PB2" "6 rows" \
	"pagebench: a configuration twice in the second file, named by its index there" \
	'results\[1\]: buddy array bulk 64 merged again (results\[0\] is that configuration too)' \
	'doc["results"].append(doc["results"][0])'
# the shortest runs pagebench takes (0.1 ms, less its rounding slack)
run_cmd 60 "$PAGEBENCH" --allocators=lifo --api=array --bulk=64 --smoke \
	--runs=1 --run-ms=0.0999999995 --results="$tmpdir/pbshort"
compare_sweep "$tmpdir/pbshort"
[ "$status" -eq 0 ] && [ ! -s "$ERR" ] &&
	grep -q '"run_ms": 0.0999999995' "$tmpdir"/pbshort/*.json
ok $? "pagebench --run-ms=0.0999999995 (accepted there): its file is read" ||
	diag "exit $status: $(cat "$ERR")"

# Every name pagebench takes is one the reader takes (plugin comes from
# --backend=plugin:PATH, not --allocators).
names=$( { "$PAGEBENCH" --allocators=bogus; "$PAGEBENCH" --api=bogus
	"$PAGEBENCH" --variant=bogus; } 2>&1 |
	sed -n 's/.*; expected \(.*\), comma-separated, or all$/\1/p' |
	tr -d ',')
python3 - "$tmpdir/pb/$PB1" "$tmpdir/names" $names plugin <<'EOF'
import json, os, sys
doc = json.load(open(sys.argv[1]))
os.mkdir(sys.argv[2])
for i, name in enumerate(sys.argv[3:]):
    d = json.loads(json.dumps(doc))
    r = d["results"][1]
    if name in ("single", "list", "array"):
        r["api"] = name
        r["bulk"] = 1 if name == "single" else 64
    elif name in ("merged", "stop-at-first-populated", "batched-stats",
                  "no-single-fallback", "pure-output"):
        r["variant"] = name
    else:
        r["allocator"] = name
    d["results"] = [r]
    json.dump(d, open("%s/%02d.json" % (sys.argv[2], i), "w"))
EOF
compare_sweep "$tmpdir/names"
[ "$status" -eq 0 ] && [ ! -s "$ERR" ] && [ "$(echo $names | wc -w)" -ge 17 ] &&
	grep -q "^pagebench: $(($(echo $names | wc -w) + 1)) rows of " "$OUT"
ok $? "every allocator, API and contract pagebench has is read" ||
	diag "exit $status: $(cat "$ERR"); names: $names"

# Folders of which one holds pagebench's files alone: each folder's tables,
# no table across one folder of points.
mkdir "$tmpdir/withpb"
cp -r "$tmpdir/good" "$tmpdir/withpb/a"
cp -r "$tmpdir/pb" "$tmpdir/withpb/b"
compare_sweep "$tmpdir/withpb"
[ "$status" -eq 0 ] && [ ! -s "$ERR" ] &&
	grep -qx "== $tmpdir/withpb/b ==" "$OUT" &&
	grep -q '^pagebench: 7 rows of 2 result files$' "$OUT" &&
	! grep -q '^across ' "$OUT"
ok $? "a folder of points beside one of pagebench files: no table across one folder" ||
	diag "exit $status: $(cat "$ERR")" "$(sed -n '/^across/,$p' "$OUT")"
# DIR's own files, first, are pagebench's alone (pagebench --results=DIR
# beside rpcsim --results=DIR/%h): the machines' folders are compared
# with each other.
d="$tmpdir/pbtop"
mkdir "$d"
cp "$tmpdir"/pb/*.json "$d/"
cp -r "$tmpdir/hand" "$d/m1"
cp -r "$tmpdir/hand" "$d/m2"
compare_sweep "$d"
[ "$status" -eq 0 ] && [ "$(head -n 1 "$OUT")" = "== $d ==" ] &&
	grep -q '^across 2 folders: single, ' "$OUT" &&
	! grep -q '^no table across' "$OUT"
ok $? "DIR's own files pagebench's, two folders of points: the table across them" ||
	diag "exit $status: $(cat "$ERR")" "$(grep -e '^==' -e 'across' "$OUT")"

# --- input files that are not regular files -------------------------------
d="$tmpdir/zero"
cp -r "$tmpdir/good" "$d"
ln -s /dev/zero "$d/zero.json"
run_cmd 10 "$COMPARE" --sweep="$d"
[ "$status" -eq 1 ] &&
	grep -q "^rpcsim-compare: $d/zero.json: not a regular file (a character device)$" "$ERR"
ok $? "a *.json that is /dev/zero: refused at once, exit 1" ||
	diag "exit $status: $(cat "$ERR")"

d="$tmpdir/fifo"
cp -r "$tmpdir/good" "$d"
rm "$d/$P2"
mkfifo "$d/$P2"
run_cmd 10 "$COMPARE" --sweep="$d"
[ "$status" -eq 1 ] &&
	grep -q "^rpcsim-compare: $d/$P2: not a regular file (a FIFO)$" "$ERR"
ok $? "a FIFO as a result file: refused, not waited on, exit 1" ||
	diag "exit $status: $(cat "$ERR")"

run_cmd 10 "$COMPARE" "$tmpdir/good/$P1" "$d/$P2"
[ "$status" -eq 1 ] &&
	grep -q "^rpcsim-compare: $d/$P2: not a regular file (a FIFO)$" "$ERR"
ok $? "rpcsim-compare BASE NEW with NEW a FIFO: refused, exit 1" ||
	diag "exit $status: $(cat "$ERR")"

run_cmd 10 "$COMPARE" "$tmpdir/good/$P1" /dev/zero
[ "$status" -eq 1 ] &&
	grep -q "^rpcsim-compare: /dev/zero: not a regular file (a character device)$" "$ERR"
ok $? "rpcsim-compare BASE /dev/zero: refused, exit 1" ||
	diag "exit $status: $(cat "$ERR")"

# Larger than the bound of an input file (64 MiB): refused unread.
truncate -s 65M "$tmpdir/big.json" 2>/dev/null ||
	dd if=/dev/zero of="$tmpdir/big.json" bs=1 count=0 seek=65M 2>/dev/null
run_cmd 10 "$COMPARE" "$tmpdir/good/$P1" "$tmpdir/big.json"
[ "$status" -eq 1 ] &&
	grep -q "^rpcsim-compare: $tmpdir/big.json: larger than 64 MiB (the bound of an input file)$" "$ERR"
ok $? "a file above 64 MiB: refused, exit 1" ||
	diag "exit $status: $(cat "$ERR")"

exit_status
