#!/bin/sh
# SPDX-License-Identifier: MIT
#
# rpcsim --sweep: a 2x2 grid run directly, and the same grid's --plan run
# through GNU parallel, give tables of the same structure and settings
# (rpcsim-compare --sweep builds the second); a sweep run again resumes
# (finished points are not run, a missing, different or broken one is); an
# interrupted point leaves no file; a point that fails, or is killed from
# outside, is named and the sweep goes on (exit 1); points from another
# host are marked, a backend's own pcp lists are not; a grid of all 12
# keys reads back;
# --plot draws the means the result files hold, and rpcsim-compare --sweep
# draws the same figure from the folder;
# bad input, a point's bad combination too, is one line and exit 2.  Structure and settings only: the
# timings of 50 requests say nothing.

# Option lists in variables are split into words on purpose.
# shellcheck disable=SC2086
# shellcheck source=tests/rpcsim/common.sh
. "$top_srcdir/tests/rpcsim/common.sh"


plan_tests 39

have_python || skip_rest "python3 is needed to read the result files"

# Small runs: 50 requests, a small file and pool, two runs per mode.
FIXED="--alloc=all --repeat=2 --requests=50 --file-size=1m --pool-size=16m"
GRID="--sweep=threads=1,2 --sweep=pcp-batch=31,63"
NAMES="threads-1_pcp-batch-31 threads-1_pcp-batch-63 threads-2_pcp-batch-31 threads-2_pcp-batch-63"

# files DIR: the names of DIR's result files, one line.
files()
{
	find "$1" -mindepth 1 -maxdepth 1 -printf '%f\n' | LC_ALL=C sort |
		tr '\n' ' ' | sed 's/ $//'
}

# rows FILE: the table's structure: the title line, the header, and each
# row's point and swept values (the timings left out).
rows()
{
	sed -n -e '/^sweep: /p' -e '/^point  /p' \
		-e 's/^ *\([0-9][0-9]*\)  *\([0-9]*\)  *\([0-9]*\)  .*/\1 \2 \3/p' "$1"
}

# settings DIR: each result file's name, point and recorded settings.
settings()
{
	python3 - "$1" <<'EOF'
import json, os, sys
d = sys.argv[1]
for f in sorted(os.listdir(d)):
    s = json.load(open(os.path.join(d, f)))["sweep"]
    print(f, s["point"], s["points"], s["name"], json.dumps(s["values"]),
          s["settings"])
EOF
}

# --- the grid run directly ---------------------------------------------------
run $FIXED $GRID --results="$tmpdir/direct"
cp "$OUT" "$tmpdir/direct.out"
[ "$status" -eq 0 ] && [ ! -s "$ERR" ] &&
	[ "$(files "$tmpdir/direct")" = "$(echo $NAMES | sed 's/\([^ ]*\)/\1.json/g')" ]
ok $? "2x2 grid: exit 0, one result file per point, named by its settings" ||
	diag "exit $status; $(cat "$ERR"); files: $(files "$tmpdir/direct")"

expected="sweep: 4 of 4 points (threads=1,2 x pcp-batch=31,63)
point  threads  pcp-batch     single       +-   change       list       +-   change      array       +-   change
1 1 31
2 1 63
3 2 31
4 2 63"
[ "$(rows "$tmpdir/direct.out")" = "$expected" ]
ok $? "2x2 grid: a row per point in grid order, a column group per mode" ||
	diag "$(cat "$tmpdir/direct.out")"

n=$(grep -c '^ *[1-4]  .* base$\|^ *[1-4]  .*%$' "$tmpdir/direct.out")
first=$(sed -n 's/^ *1  *1  *31  .*/x/p' "$tmpdir/direct.out")
[ "$n" -eq 4 ] && [ "$first" = x ] &&
	[ "$(grep -c '^ *1  *1  *31 .*base .*base .*base$' "$tmpdir/direct.out")" -eq 1 ] &&
	! grep -q '\*$' "$tmpdir/direct.out"
ok $? "2x2 grid: the first point is each mode's base, the others a change; nothing marked" ||
	diag "$(cat "$tmpdir/direct.out")"

python3 - "$tmpdir/direct" <<'EOF'
import json, os, sys
d = sys.argv[1]
want = {"threads-1_pcp-batch-31": (1, 1, 31), "threads-1_pcp-batch-63": (2, 1, 63),
        "threads-2_pcp-batch-31": (3, 2, 31), "threads-2_pcp-batch-63": (4, 2, 63)}
for name, (point, threads, batch) in want.items():
    doc = json.load(open(os.path.join(d, name + ".json")))
    s, c = doc["sweep"], doc["config"]
    assert s["point"] == point and s["points"] == 4, s
    assert s["values"] == {"threads": str(threads), "pcp-batch": str(batch)}, s
    assert s["keys"] == [{"key": "threads", "values": ["1", "2"]},
                         {"key": "pcp-batch", "values": ["31", "63"]}], s
    assert c["threads"] == threads and c["pcp_batch"] == batch, c
    assert c["pcp_high"] == 6 * batch and c["requests"] == 50, c
    assert [m["mode"] for m in doc["modes"]] == ["single", "list", "array"]
    assert all(m["runs"] == 2 for m in doc["modes"])
    assert doc["host"] and doc["build"]["version"] == doc["version"]
    assert doc["build"]["pcp_impl"] == c["pcp_impl"]
EOF
ok $? "each result file records its point, the grid, its settings, host and build"

"$COMPARE" --sweep="$tmpdir/direct" >"$tmpdir/compare.out" 2>"$ERR"
status=$?
[ "$status" -eq 0 ] && [ ! -s "$ERR" ] &&
	sed -n '/^sweep: /,$p' "$tmpdir/direct.out" | cmp -s - "$tmpdir/compare.out"
ok $? "rpcsim-compare --sweep prints the very table rpcsim --sweep ended with" ||
	diag "exit $status; $(cat "$ERR"); $(diff "$tmpdir/compare.out" "$tmpdir/direct.out")"

# --- --plan, and the plan through GNU parallel ------------------------------
run $FIXED $GRID --results="$tmpdir/planned" --plan
cp "$OUT" "$tmpdir/plan"
[ "$status" -eq 0 ] && [ "$(wc -l <"$tmpdir/plan")" -eq 4 ] &&
	[ ! -e "$tmpdir/planned" ] &&
	[ "$(sed 's/.* --point=\([0-9]*\)$/\1/' "$tmpdir/plan" | tr '\n' ' ')" = "1 2 3 4 " ] &&
	[ "$(grep -c -- "--sweep=threads=1,2 --sweep=pcp-batch=31,63 --results=$tmpdir/planned" "$tmpdir/plan")" -eq 4 ] &&
	[ "$(grep -c -- '--alloc=all --file-size=1m --requests=50 --repeat=2 --pool-size=16m' "$tmpdir/plan")" -eq 4 ]
ok $? "--plan: one self-contained command per point, nothing run" ||
	diag "exit $status; $(cat "$tmpdir/plan")"

if command -v parallel >/dev/null 2>&1; then
	# PARALLEL_HOME: its caches in the test's folder, not ~/.parallel.
	PARALLEL_HOME=$tmpdir/parallel-home parallel --will-cite -j2 \
		<"$tmpdir/plan" >"$tmpdir/parallel.out" 2>"$ERR"
	status=$?
	[ "$status" -eq 0 ] && [ ! -s "$ERR" ] &&
		[ "$(files "$tmpdir/planned")" = "$(files "$tmpdir/direct")" ] &&
		[ "$(grep -c '^point [1-4]/4 ' "$tmpdir/parallel.out")" -eq 4 ]
	ok $? "the plan's lines under GNU parallel: the same result files" ||
		diag "exit $status; $(cat "$ERR")"
	"$COMPARE" --sweep="$tmpdir/planned" >"$tmpdir/planned.out" 2>"$ERR"
	status=$?
	[ "$status" -eq 0 ] && [ -n "$(rows "$tmpdir/planned.out")" ] &&
		[ "$(rows "$tmpdir/planned.out")" = "$(rows "$tmpdir/direct.out")" ] &&
		[ "$(settings "$tmpdir/planned")" = "$(settings "$tmpdir/direct")" ]
	ok $? "rpcsim-compare --sweep of parallel's folder: the direct table's structure and settings" ||
		diag "exit $status; $(cat "$ERR"); $(diff "$tmpdir/planned.out" "$tmpdir/direct.out")"
else
	skip 2 "GNU parallel is not installed (apt-get install parallel)"
fi

# --- resume ----------------------------------------------------------------
cp -p "$tmpdir/direct/threads-1_pcp-batch-31.json" "$tmpdir/keep1.json"
cp -p "$tmpdir/direct/threads-2_pcp-batch-31.json" "$tmpdir/keep3.json"
rm "$tmpdir/direct/threads-1_pcp-batch-63.json"
json_edit "$tmpdir/direct/threads-2_pcp-batch-63.json" 'doc["sweep"]["settings"] = doc["sweep"]["settings"].replace("--requests=50", "--requests=60")'
run $FIXED $GRID --results="$tmpdir/direct"
[ "$status" -eq 0 ] &&
	[ "$(grep -c '^point [13]/4 .*: done already' "$OUT")" -eq 2 ] &&
	grep -q '^point 2/4 threads-1_pcp-batch-63: single .* per call$' "$OUT" &&
	grep -q '^point 4/4 threads-2_pcp-batch-63: single .* per call$' "$OUT" &&
	cmp -s "$tmpdir/keep1.json" "$tmpdir/direct/threads-1_pcp-batch-31.json" &&
	cmp -s "$tmpdir/keep3.json" "$tmpdir/direct/threads-2_pcp-batch-31.json"
ok $? "resume: finished points are not run again, a missing one is" ||
	diag "exit $status; $(cat "$OUT" "$ERR")"
grep -q 'threads-2_pcp-batch-63.json holds other settings (.*--requests=60' "$ERR" &&
	! grep -q requests=60 "$tmpdir/direct/threads-2_pcp-batch-63.json"
ok $? "resume: a file of other settings is run again and replaced, with a note" ||
	diag "$(cat "$ERR")"
[ "$(files "$tmpdir/direct")" = "$(echo $NAMES | sed 's/\([^ ]*\)/\1.json/g')" ] &&
	[ "$(rows "$OUT")" = "$expected" ]
ok $? "resume: the table again has every point, no file left behind" ||
	diag "$(files "$tmpdir/direct")"
# A file of the right settings without its modes (not a point's result,
# whatever it says): run again, not "done already".
json_edit "$tmpdir/direct/threads-1_pcp-batch-63.json" 'del doc["modes"]'
run $FIXED $GRID --results="$tmpdir/direct"
[ "$status" -eq 0 ] &&
	[ "$(grep -c 'done already' "$OUT")" -eq 3 ] &&
	grep -q '^point 2/4 threads-1_pcp-batch-63: single .* per call$' "$OUT" &&
	grep -q 'threads-1_pcp-batch-63.json is unusable (not a result of rpcsim (no "program": "rpcsim", sweep.settings or modes)); running it again$' "$ERR" &&
	python3 -c 'import json, sys
sys.exit("modes" not in json.load(open(sys.argv[1])))' \
		"$tmpdir/direct/threads-1_pcp-batch-63.json"
ok $? "resume: a file without its modes is run again and replaced" ||
	diag "exit $status; $(cat "$OUT" "$ERR")"

# PAGEPOOL_PROFILE is --profile's default: a point run under another
# profile is another point's settings, run again, not "done already".
run_env PAGEPOOL_PROFILE=lean --requests=50 --alloc=single --file-size=1m \
	--pool-size=16m --sweep=threads=1 --results="$tmpdir/profile" --quiet
run_env PAGEPOOL_PROFILE=kernel --requests=50 --alloc=single --file-size=1m \
	--pool-size=16m --sweep=threads=1 --results="$tmpdir/profile"
[ "$status" -eq 0 ] && ! grep -q 'done already' "$OUT" &&
	grep -q 'threads-1.json holds other settings (.*PAGEPOOL_PROFILE=lean' "$ERR" &&
	python3 -c 'import json, sys
doc = json.load(open(sys.argv[1]))
sys.exit(not (doc["config"]["profile"] == "kernel" and
              "PAGEPOOL_PROFILE=kernel" in doc["sweep"]["settings"]))' \
		"$tmpdir/profile/threads-1.json"
ok $? "resume: a point of another PAGEPOOL_PROFILE is run again" ||
	diag "exit $status; $(cat "$OUT" "$ERR")"

# jemalloc reads MALLOC_CONF when it starts (the jemalloc backend's
# tunables): a point's file records it, and a point run without it is
# another point's settings, as pagebench --results has it.
run_env MALLOC_CONF=dirty_decay_ms:1000 --requests=50 --alloc=single \
	--file-size=1m --pool-size=16m --sweep=threads=1 \
	--results="$tmpdir/mconf" --quiet
run --requests=50 --alloc=single --file-size=1m --pool-size=16m \
	--sweep=threads=1 --results="$tmpdir/mconf"
[ "$status" -eq 0 ] && ! grep -q 'done already' "$OUT" &&
	grep -q 'threads-1.json holds other settings (.*MALLOC_CONF=dirty_decay_ms:1000' "$ERR"
ok $? "resume: a point of another MALLOC_CONF is run again" ||
	diag "exit $status: $(head -c 1000 "$ERR")"

# A point's file from another grid (threads=1,2, then 1,4) holds the same
# settings but another sweep: it is run again and replaced, so that the
# table reads this grid's points (it used to be "done already", then the
# table refused it as "a point of another sweep", exit 1).
run --requests=50 --alloc=single --file-size=1m --pool-size=16m \
	--sweep=threads=1,2 --results="$tmpdir/grid" --quiet
run --requests=50 --alloc=single --file-size=1m --pool-size=16m \
	--sweep=threads=1,4 --results="$tmpdir/grid"
[ "$status" -eq 0 ] && ! grep -q 'done already' "$OUT" &&
	grep -q 'threads-1.json holds these settings from another sweep' "$ERR" &&
	python3 -c 'import json, sys
doc = json.load(open(sys.argv[1]))
sys.exit(doc["sweep"]["keys"][0]["values"] != ["1", "4"])' \
		"$tmpdir/grid/threads-1.json"
ok $? "resume: a point of another grid is run again, the table made (exit $status)" ||
	diag "$(head -c 1000 "$ERR")"

# An interrupted point writes nothing (its file appears whole or not at all).
timeout --preserve-status -s INT 1 "$RPCSIM" $GRID --duration=30 --file-size=1m \
	--pool-size=16m --results="$tmpdir/stopped" --point=1 >"$OUT" 2>"$ERR"
status=$?
[ "$status" -eq 130 ] && [ -z "$(files "$tmpdir/stopped" 2>/dev/null)" ] &&
	grep -q '^point 1/4 threads-1_pcp-batch-31: stopped, no result file$' "$OUT"
ok $? "an interrupted point leaves no result file, not even a temporary one" ||
	diag "exit $status; $(files "$tmpdir/stopped")"
# The whole sweep interrupted: the point it stopped says so, once.
timeout --preserve-status -s INT 1 "$RPCSIM" $GRID --duration=30 --file-size=1m \
	--pool-size=16m --results="$tmpdir/stopped2" >"$OUT" 2>"$ERR"
status=$?
[ "$status" -eq 130 ] && [ -z "$(files "$tmpdir/stopped2" 2>/dev/null)" ] &&
	[ "$(cat "$ERR")" = "rpcsim: interrupted by SIGINT" ] &&
	grep -q '^point 1/4 threads-1_pcp-batch-31: stopped, no result file$' "$OUT"
ok $? "an interrupted sweep: no result file, one line saying so" ||
	diag "exit $status; $(cat "$ERR"; files "$tmpdir/stopped2")"

# A point that fails (a plugin that is not there): named, the sweep goes
# on, the table of the others, exit 1.
run --alloc=single --requests=50 --file-size=1m --pool-size=16m \
	--sweep=backend=buddy,plugin:/nonexistent.so --results="$tmpdir/fails" --quiet
[ "$status" -eq 1 ] &&
	grep -qx 'rpcsim: --sweep: point 2 failed (exit 1); the sweep goes on' "$ERR" &&
	grep -q '^sweep: 1 of 2 points ' "$OUT" &&
	grep -qx 'missing (no result file): point 2' "$OUT"
ok $? "a point that fails: named, the others tabulated, exit 1" ||
	diag "exit $status; $(cat "$ERR")"

# A point killed from outside (the OOM killer, kill -9) is a point that
# failed, said so, and the sweep goes on: not a silent stop with the
# point's 137.  Point 1 runs the test plugin that never returns
# (PP_BAD_PLUGIN=block-all, tests/install/bad-plugin.c: it says so on
# stdout), point 2 the buddy allocator.
# point_pid: the pid of the sweep's child running point 1 (/proc: no pgrep).
point_pid()
{
	for c in $(cat "/proc/$pid/task/$pid/children" 2>/dev/null); do
		tr '\0' ' ' <"/proc/$c/cmdline" 2>/dev/null |
			grep -q -- ' --point=1 $' && echo "$c" && return 0
	done
	return 1
}
blocked() { grep -q '^bad-plugin: blocked$' "$OUT"; }
PLUGIN=$top_builddir/tests/rpcsim/.libs/bad-plugin.so
if [ -f "$PLUGIN" ]; then
	PP_BAD_PLUGIN=block-all "$RPCSIM" --alloc=single --requests=50 \
		--file-size=1m --pool-size=16m \
		--sweep=backend=plugin:"$PLUGIN",buddy --results="$tmpdir/killed" \
		>"$OUT" 2>"$ERR" </dev/null &
	pid=$!
	wait_for 30 blocked && kill -KILL "$(point_pid)"
	wait_pid "$pid" 30
	[ "$status" -eq 1 ] &&
		[ "$(cat "$ERR")" = "rpcsim: --sweep: point 1 failed (killed by SIGKILL); the sweep goes on" ] &&
		grep -q '^point 2/2 backend-buddy: single ' "$OUT" &&
		grep -qx 'missing (no result file): point 1' "$OUT"
	ok $? "a point killed by SIGKILL: named as failed, the sweep goes on, exit 1" ||
		diag "exit $status; $(cat "$ERR")"
else
	skip 1 "$PLUGIN not built (make check builds it)"
fi

# --- mixed hosts and builds, missing points ----------------------------------
cp -r "$tmpdir/direct" "$tmpdir/mixed"
json_edit "$tmpdir/mixed/threads-2_pcp-batch-31.json" 'doc["host"] = "elsewhere"'
json_edit "$tmpdir/mixed/threads-1_pcp-batch-63.json" 'doc["build"]["configure"] = "--with-elsewhere"'
rm "$tmpdir/mixed/threads-2_pcp-batch-63.json"
compare_sweep "$tmpdir/mixed"
[ "$status" -eq 0 ] && grep -q '^sweep: 3 of 4 points' "$OUT" &&
	grep -q '^ *2  *1  *63  .*  \*$' "$OUT" &&
	grep -q '^ *3  *2  *31  .*  \*$' "$OUT" &&
	! grep -q '^ *1  .*\*$' "$OUT" &&
	grep -q "^\* point 2: host .*; build .*configure '--with-elsewhere'" "$OUT" &&
	grep -q '^\* point 3: host elsewhere[ ;]' "$OUT" &&
	grep -q '^2 points marked \*: run on another host or build' "$OUT"
ok $? "points from another host or build are marked, and where they ran named" ||
	diag "exit $status; $(cat "$OUT" "$ERR")"
grep -q '^missing (no result file): point 4$' "$OUT"
ok $? "a point of the grid without a result file is listed as missing"

# A point whose backend is not buddy runs the lock lists, whatever the
# build: not marked as another build, and said so below the table.
cp -r "$tmpdir/direct" "$tmpdir/backend"
json_edit "$tmpdir/backend/threads-2_pcp-batch-31.json" 'doc["config"]["backend"] = "plugin"' \
	'doc["config"]["plugin"] = "/opt/mine.so"' \
	'doc["build"]["pcp_impl"] = "lock" if doc["build"]["pcp_impl"] != "lock" else "rseq"'
compare_sweep "$tmpdir/backend"
[ "$status" -eq 0 ] && ! grep -q '\*$' "$OUT" &&
	grep -q '^point 3: pcp lists [a-z]* (backend plugin /opt/mine.so.s)$' "$OUT" &&
	grep -q '^(every backend but buddy runs the lock pcp lists: this point is not from another build)$' "$OUT"
ok $? "a backend's own pcp lists are not taken for another build, and said so" ||
	diag "exit $status; $(cat "$OUT" "$ERR")"

# A file of another sweep, or not a result at all, is named: exit 1.
echo '{"program": "other"}' >"$tmpdir/mixed/foreign.json"
compare_sweep "$tmpdir/mixed"
[ "$status" -eq 1 ] && grep -q 'foreign.json: not an rpcsim --sweep result' "$ERR"
ok $? "rpcsim-compare --sweep: a file that is no sweep point is named, exit 1" ||
	diag "exit $status; $(cat "$ERR")"

# --- --plot: the figure of the sweep, from rpcsim and from the folder --------
# gnuplot's stand-in keeps the script, which holds the data drawn.
keep_gnuplot
run_env RPCSIM_GNUPLOT="$tmpdir/keep-gnuplot" $FIXED --sweep=threads=1,2 \
	--results="$tmpdir/plot" --plot="$tmpdir/sweep.svg"
mv "$tmpdir/kept.gp" "$tmpdir/direct.gp" 2>/dev/null
[ "$status" -eq 0 ] && [ ! -s "$ERR" ] && [ -s "$tmpdir/sweep.svg" ] &&
	grep -q "^Plot: $tmpdir/sweep.svg (latency per call against threads)$" \
		"$OUT" &&
	grep -q "^set xtics ('1' 0, '2' 1)$" "$tmpdir/direct.gp" &&
	grep -q "title 'single'" "$tmpdir/direct.gp" &&
	grep -q "title 'list'" "$tmpdir/direct.gp" &&
	grep -q "title 'array'" "$tmpdir/direct.gp"
ok $? "--sweep --plot: exit 0, the picture, the swept values on the x axis, a line per mode" ||
	diag "exit $status; $(cat "$ERR"); $(cat "$OUT")"

# Each mode's line is its means in the result files, point by point.
python3 - "$tmpdir/direct.gp" "$tmpdir/plot" >"$tmpdir/plot.check" <<'EOF'
import json, os, sys
script, d = sys.argv[1], sys.argv[2]
blocks, cur = [], None
for line in open(script):
    line = line.rstrip("\n")
    if line.endswith("<< EOD"):
        cur = []
    elif line == "EOD":
        blocks.append(cur)
        cur = None
    elif cur is not None:
        cur.append([float(x) for x in line.split()])
points = [json.load(open(os.path.join(d, f)))
          for f in ("threads-1.json", "threads-2.json")]
bad = 0
for k, mode in enumerate(("single", "list", "array")):
    for x, doc in enumerate(points):
        m = [m for m in doc["modes"] if m["mode"] == mode][0]
        row = blocks[k][x]
        if row[0] != x or abs(row[1] - m["mean_us"]) > 5e-6:
            print("mode", mode, "point", x + 1, "drawn", row,
                  "file", m["mean_us"])
            bad += 1
print("blocks", len(blocks), "bad", bad)
EOF
[ "$(tail -n 1 "$tmpdir/plot.check")" = "blocks 3 bad 0" ]
ok $? "--sweep --plot: each mode's line is its means in the result files" ||
	diag "$(cat "$tmpdir/plot.check")"

env RPCSIM_GNUPLOT="$tmpdir/keep-gnuplot" "$COMPARE" --sweep="$tmpdir/plot" \
	--plot="$tmpdir/folder.svg" >"$OUT" 2>"$ERR"
status=$?
mv "$tmpdir/kept.gp" "$tmpdir/folder.gp" 2>/dev/null
[ "$status" -eq 0 ] && [ -s "$tmpdir/folder.svg" ] &&
	[ "$(grep -v '^set output ' "$tmpdir/direct.gp")" = \
	  "$(grep -v '^set output ' "$tmpdir/folder.gp")" ]
ok $? "rpcsim-compare --sweep --plot draws the same figure from the folder" ||
	diag "exit $status; $(cat "$ERR"); $(diff "$tmpdir/direct.gp" "$tmpdir/folder.gp")"

# --- every key rpcsim sweeps, at once --------------------------------------
# rpcsim takes up to 12 --sweep keys (each key once); its table, and
# rpcsim-compare --sweep, read back the points of such a grid too.
ALL_KEYS="--sweep=threads=1 --sweep=pcp-batch=31 --sweep=pcp-high=186
	--sweep=io-size=4k --sweep=max-payload=1m --sweep=mix=read:1,write:1
	--sweep=tcp-read=64k --sweep=alloc=single --sweep=backend=buddy
	--sweep=bulk-variant=merged --sweep=profile=lean --sweep=pcp=auto"
run --requests=50 --file-size=1m --pool-size=16m $ALL_KEYS \
	--results="$tmpdir/allkeys" --quiet
[ "$status" -eq 0 ] && [ ! -s "$ERR" ] &&
	grep -q '^sweep: 1 of 1 points (threads=1 x pcp-batch=31 x .* x pcp=auto)$' "$OUT" &&
	grep -q '^ *1  *1  *31  *186  .* base$' "$OUT"
ok $? "a sweep of all 12 keys: exit 0, its table read back from its own file" ||
	diag "exit $status; $(cat "$ERR" "$OUT")"
compare_sweep "$tmpdir/allkeys"
[ "$status" -eq 0 ] && [ ! -s "$ERR" ] && grep -q '^sweep: 1 of 1 points' "$OUT"
ok $? "rpcsim-compare --sweep reads a point of all 12 keys" ||
	diag "exit $status; $(cat "$ERR")"

# --- bad input: one line naming the option, the value, what is accepted ------
bad()
{
	want=$1
	shift
	run "$@"
	[ "$status" -eq 2 ] && [ ! -s "$OUT" ] && [ "$(wc -l <"$ERR")" -eq 1 ] &&
		grep -q -- "$want" "$ERR"
	ok $? "bad input '$*': exit 2, one line naming '$want'" ||
		diag "exit $status; $(cat "$ERR")"
}
bad "--sweep=nosuch=1,2: unknown key 'nosuch'; expected one of threads, " \
	--sweep=nosuch=1,2 --results="$tmpdir/x"
bad "--sweep=threads=1,x: --threads=x: expected an integer from 1 to" \
	--sweep=threads=1,x --results="$tmpdir/x"
bad "--sweep=mix=read:1/read:x: --mix=read:x: bad weight 'x'" \
	--sweep=mix=read:1/read:x --results="$tmpdir/x"
bad "--sweep: point 1 (max-payload=64k): --io-size=1m: larger than the max payload" \
	--sweep=max-payload=64k,2m --io-size=1m --results="$tmpdir/x"
# Two values that would give one file name: the second point would
# replace the first's result, and the table refuse the folder.
bad "--sweep=backend=plugin:/opt/a_b.so,plugin:/opt/a-b.so: 'plugin:/opt/a_b.so' and 'plugin:/opt/a-b.so' would share one result file (backend-plugin--opt-a-b\\.so\\.json)" \
	--sweep=backend=plugin:/opt/a_b.so,plugin:/opt/a-b.so --results="$tmpdir/x"
bad "--sweep=threads=1,2,.*,65: more than 64 values$" \
	--sweep=threads="$(seq -s, 1 65)" --results="$tmpdir/x"
bad "--point=2: the sweep has 1 point; expected 1 to 1$" \
	--sweep=threads=1 --results="$tmpdir/x" --point=2
# DEL is a control character too: no line of --plan holds one.
bad "--results=$tmpdir/x\\\\x7f: a control character (\\\\x7f) in it" \
	--sweep=threads=1 --results="$tmpdir/x$(printf '\177')" --plan
bad "--plan: only with --sweep=KEY=V1,V2,... and --results=DIR" --plan
bad "--sweep=threads=1,2: needs --results=DIR" --sweep=threads=1,2
[ ! -e "$tmpdir/x" ]
ok $? "bad input creates no results folder"
