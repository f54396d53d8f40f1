#!/bin/sh
# SPDX-License-Identifier: MIT
#
# rpcsim --plot and rpcsim-analyze --plot: with gnuplot, a non-empty
# picture of the type the name asks for (PNG signature and size, SVG with
# every mode's seed-shaped line in its key), temporary files removed;
# without gnuplot (RPCSIM_GNUPLOT naming nothing), exit 1 with a message
# before any run; gnuplot failing or drawing nothing: exit 1, its message,
# no file; a name of another type, or a bad RPCSIM_GNUPLOT_SECONDS (each
# of the three tools): exit 2.  rpcsim-analyze reads a small
# hand-made CTF trace (tests/analyze/ctfgen.py), so no LTTng is needed.
# rpcsim-compare --plot on the committed fixtures: a stand-in gnuplot keeps
# the script, whose data and titles are checked (one series per file in
# each mode's panel, the values of --json, the differing settings named
# once, a mean of 0 missing on the log axis),
# then the real gnuplot draws it.

# shellcheck source=tests/utils/tap.sh
. "$top_srcdir/tests/utils/tap.sh"

RPCSIM=${RPCSIM:-$top_builddir/rpcsim/rpcsim}
ANALYZE=${ANALYZE:-$top_builddir/analyze/rpcsim-analyze}
CTFGEN=$top_srcdir/tests/analyze/ctfgen.py
traces=$top_srcdir/tests/analyze/traces

tap_need_prog "$RPCSIM"
tap_tmpdir test-plot
# The plot module's own temporary directories go here, to see them go.
mkdir "$tmpdir/t"

# run PROGRAM ARGS...: $status, $OUT, $ERR, with TMPDIR=$tmpdir/t.
run()
{
	run_cmd 120 env TMPDIR="$tmpdir/t" "$@"
}

# one_line STATUS TEXT: the last run exited STATUS with one stderr line
# containing TEXT.
one_line()
{
	[ "$status" -eq "$1" ] && [ "$(wc -l <"$ERR")" -eq 1 ] &&
		grep -qF -- "$2" "$ERR"
}

have_analyze()
{
	[ -x "$ANALYZE" ] && have_python
}

plan_tests 47

# Stand-ins for gnuplot: one failing with a message, one drawing nothing.
printf '#!/bin/sh\necho "\\"plot.gp\\" line 3: boom" >&2\nexit 1\n' \
	>"$tmpdir/bad-gnuplot"
printf '#!/bin/sh\nexit 0\n' >"$tmpdir/lazy-gnuplot"
chmod +x "$tmpdir/bad-gnuplot" "$tmpdir/lazy-gnuplot"

# --- usage: the type comes from the name ---------------------------------------
run "$RPCSIM" --plot="$tmpdir/latency.pdf" -n 10
one_line 2 "--plot=$tmpdir/latency.pdf: expected a file name ending in .svg or .png" &&
	[ ! -s "$OUT" ]
ok $? "rpcsim --plot=x.pdf exits 2 naming the option and what is accepted" ||
	diag "exit $status: $(cat "$ERR")"
run "$RPCSIM" --plot=.svg -n 10
one_line 2 "--plot=.svg: expected a file name"
ok $? "rpcsim --plot=.svg (no name) exits 2" || diag "exit $status: $(cat "$ERR")"
if [ -x "$ANALYZE" ]; then
	run "$ANALYZE" --plot="$tmpdir/latency.jpg" "$tmpdir"
	one_line 2 "--plot=$tmpdir/latency.jpg: expected a file name ending in .svg or .png"
	ok $? "rpcsim-analyze --plot=x.jpg exits 2" || diag "exit $status: $(cat "$ERR")"
else
	skip 1 "rpcsim-analyze not built"
fi

# --- no gnuplot: exit 1 before running -------------------------------------------
run env RPCSIM_GNUPLOT="$tmpdir/nowhere/gnuplot" "$RPCSIM" -n 10 \
	--plot="$tmpdir/none.png"
one_line 1 "gnuplot not found: RPCSIM_GNUPLOT=$tmpdir/nowhere/gnuplot" &&
	grep -q 'apt-get install gnuplot' "$ERR" && [ ! -s "$OUT" ] &&
	[ ! -e "$tmpdir/none.png" ]
ok $? "rpcsim without gnuplot exits 1 with how to get it, before any run" ||
	diag "exit $status: $(cat "$ERR") $(head -c 300 "$OUT")"
run env RPCSIM_GNUPLOT=no-such-gnuplot-anywhere "$RPCSIM" -n 10 \
	--plot="$tmpdir/none.svg"
one_line 1 "gnuplot not found" && [ ! -s "$OUT" ]
ok $? "a gnuplot name not in PATH: exit 1" || diag "exit $status: $(cat "$ERR")"
if [ -x "$ANALYZE" ]; then
	run env RPCSIM_GNUPLOT="$tmpdir/nowhere/gnuplot" "$ANALYZE" \
		--plot="$tmpdir/none.png" "$tmpdir"
	one_line 1 "gnuplot not found" && [ ! -s "$OUT" ]
	ok $? "rpcsim-analyze without gnuplot exits 1 before reading the trace" ||
		diag "exit $status: $(cat "$ERR")"
else
	skip 1 "rpcsim-analyze not built"
fi
run env RPCSIM_GNUPLOT="$tmpdir/lazy-gnuplot" "$RPCSIM" -n 10 \
	--plot="$tmpdir/no/such/dir/x.png"
one_line 1 "no directory $tmpdir/no/such/dir" && [ ! -s "$OUT" ]
ok $? "a plot in a missing directory: exit 1 before any run" ||
	diag "exit $status: $(cat "$ERR")"

# --- gnuplot failing ---------------------------------------------------------------
run env RPCSIM_GNUPLOT="$tmpdir/bad-gnuplot" "$RPCSIM" -n 200 -q \
	--plot="$tmpdir/bad.svg"
one_line 1 "failed (exit status 1): \"plot.gp\" line 3: boom" &&
	[ ! -e "$tmpdir/bad.svg" ] && grep -q '^Bulk array: ' "$OUT"
ok $? "gnuplot failing: exit 1 with its message, results printed, no file" ||
	diag "exit $status: $(cat "$ERR")"
run env RPCSIM_GNUPLOT="$tmpdir/lazy-gnuplot" "$RPCSIM" -n 200 -q \
	--plot="$tmpdir/lazy.png"
one_line 1 "gnuplot wrote no picture" && [ ! -e "$tmpdir/lazy.png" ]
ok $? "gnuplot drawing nothing: exit 1, no file" ||
	diag "exit $status: $(cat "$ERR")"

# --- gnuplot never finishing: the wait is bounded ------------------------------
# A gnuplot on PATH that sleeps (and says its pid, to see it go); with
# RPCSIM_GNUPLOT_SECONDS=2 each tool must stop it, say so and exit 1.  A
# hang fails after 30 s rather than holding up the suite.
mkdir "$tmpdir/bin"
printf '#!/bin/sh\necho $$ >"%s/sleepy.pid"\nexec sleep 600\n' "$tmpdir" \
	>"$tmpdir/bin/gnuplot"
chmod +x "$tmpdir/bin/gnuplot"
# sleepy PROGRAM ARGS...: run it with that gnuplot, bounded
sleepy()
{
	rm -f "$tmpdir/sleepy.pid"
	TMPDIR=$tmpdir/t PATH="$tmpdir/bin:$PATH" RPCSIM_GNUPLOT_SECONDS=2 \
		timeout -k 5 30 "$@" >"$OUT" 2>"$ERR"
	status=$?
}
# gone: the sleeping gnuplot was stopped (our fake's pid, nobody else's)
gone()
{
	[ -s "$tmpdir/sleepy.pid" ] && ! kill -0 "$(cat "$tmpdir/sleepy.pid")" 2>/dev/null
}
sleepy "$RPCSIM" -n 200 -q --plot="$tmpdir/sleepy.png"
one_line 1 "did not finish drawing within 2 s (RPCSIM_GNUPLOT_SECONDS), so it was stopped" &&
	[ ! -e "$tmpdir/sleepy.png" ] && grep -q '^Bulk array: ' "$OUT" && gone
ok $? "rpcsim, gnuplot never finishing: stopped after 2 s, exit 1, results printed (exit $status)" ||
	diag "exit $status: $(cat "$ERR")"
if have_analyze; then
	mkdir -p "$tmpdir/tiny/ust"
	python3 "$CTFGEN" "$tmpdir/tiny/ust" <"$traces/one-call.txt"
	sleepy "$ANALYZE" --plot="$tmpdir/sleepy.svg" "$tmpdir/tiny"
	one_line 1 "did not finish drawing within 2 s" &&
		[ ! -e "$tmpdir/sleepy.svg" ] && gone
	ok $? "rpcsim-analyze, gnuplot never finishing: stopped after 2 s, exit 1 (exit $status)" ||
		diag "exit $status: $(cat "$ERR")"
else
	skip 1 "rpcsim-analyze or python3 missing"
fi
# A bad RPCSIM_GNUPLOT_SECONDS with --plot is bad usage, as a bad
# PAGEPOOL_PCP is: one line, exit 2, before anything runs or is read;
# without --plot nothing reads it.
run env RPCSIM_GNUPLOT_SECONDS=0x10 "$RPCSIM" -n 10 --plot="$tmpdir/x.png"
[ "$status" -eq 2 ] && [ "$(cat "$ERR")" = "rpcsim: RPCSIM_GNUPLOT_SECONDS=0x10: expected a number of seconds from 1 to 86400" ] &&
	[ ! -s "$OUT" ]
ok $? "rpcsim, a bad RPCSIM_GNUPLOT_SECONDS: exit 2 before any run" ||
	diag "exit $status: $(cat "$ERR")"
run env RPCSIM_GNUPLOT_SECONDS=0 "$RPCSIM" -n 10 -q
[ "$status" -eq 0 ] && [ ! -s "$ERR" ]
ok $? "rpcsim, a bad RPCSIM_GNUPLOT_SECONDS without --plot: not read" ||
	diag "exit $status: $(cat "$ERR")"
if have_analyze; then
	run env RPCSIM_GNUPLOT_SECONDS=0 "$ANALYZE" --plot="$tmpdir/x.svg" \
		"$tmpdir/tiny"
	[ "$status" -eq 2 ] && [ "$(cat "$ERR")" = "rpcsim-analyze: RPCSIM_GNUPLOT_SECONDS=0: expected a number of seconds from 1 to 86400" ] &&
		[ ! -s "$OUT" ]
	ok $? "rpcsim-analyze, a bad RPCSIM_GNUPLOT_SECONDS: exit 2, no report" ||
		diag "exit $status: $(cat "$ERR")"
else
	skip 1 "rpcsim-analyze or python3 missing"
fi
fixtures=$top_srcdir/tests/compare/fixtures
run env RPCSIM_GNUPLOT_SECONDS=86401 "$top_builddir/compare/rpcsim-compare" \
	--plot="$tmpdir/x.svg" "$fixtures/plain.json" "$fixtures/asan.json"
[ "$status" -eq 2 ] && [ "$(cat "$ERR")" = "rpcsim-compare: RPCSIM_GNUPLOT_SECONDS=86401: expected a number of seconds from 1 to 86400" ] &&
	[ ! -s "$OUT" ]
ok $? "rpcsim-compare, a bad RPCSIM_GNUPLOT_SECONDS: exit 2, no tables" ||
	diag "exit $status: $(cat "$ERR")"
# before the folder is read: a missing one would be exit 1
run env RPCSIM_GNUPLOT_SECONDS= "$top_builddir/compare/rpcsim-compare" \
	--sweep="$tmpdir/nosuch" --plot="$tmpdir/x.svg"
[ "$status" -eq 2 ] && [ "$(cat "$ERR")" = "rpcsim-compare: RPCSIM_GNUPLOT_SECONDS=: expected a number of seconds from 1 to 86400" ]
ok $? "rpcsim-compare --sweep, a bad RPCSIM_GNUPLOT_SECONDS: exit 2 before the folder is read" ||
	diag "exit $status: $(cat "$ERR")"

[ -z "$(ls -A "$tmpdir/t")" ]
ok $? "no temporary file is left behind by failures" || diag "$(ls -A "$tmpdir/t")"

# --- rpcsim-compare --plot ---------------------------------------------------
COMPARE=${COMPARE:-$top_builddir/compare/rpcsim-compare}
fixtures=$top_srcdir/tests/compare/fixtures
keep_gnuplot
# cmp_run ARGS...: rpcsim-compare in the fixtures' folder.
cmp_run()
{
	(cd "$fixtures" && TMPDIR=$tmpdir/t timeout 120 "$COMPARE" "$@") \
		>"$OUT" 2>"$ERR"
	status=$?
}
cmp_run --plot="$tmpdir/c.pdf" plain.json asan.json
one_line 2 "--plot=$tmpdir/c.pdf: expected a file name ending in .svg or .png" &&
	[ ! -s "$OUT" ]
ok $? "rpcsim-compare --plot=x.pdf exits 2 naming the option and what is accepted" ||
	diag "exit $status: $(cat "$ERR")"
cmp_run plain.json asan.json --plot
one_line 2 "option '--plot' needs a value: a file name ending in .svg or .png"
ok $? "rpcsim-compare --plot without a value exits 2" ||
	diag "exit $status: $(cat "$ERR")"
RPCSIM_GNUPLOT="$tmpdir/nowhere/gnuplot" cmp_run --plot="$tmpdir/c.svg" \
	plain.json no-such-file.json
one_line 1 "--plot=$tmpdir/c.svg: gnuplot not found" && [ ! -s "$OUT" ]
ok $? "rpcsim-compare without gnuplot exits 1 before reading the files" ||
	diag "exit $status: $(cat "$ERR")"
RPCSIM_GNUPLOT="$tmpdir/bad-gnuplot" cmp_run --plot="$tmpdir/c.svg" \
	plain.json asan.json
one_line 1 "failed (exit status 1): \"plot.gp\" line 3: boom" &&
	[ ! -e "$tmpdir/c.svg" ] && grep -q 'single/latency_us.mean' "$OUT"
ok $? "gnuplot failing: exit 1 with its message, the tables printed, no file" ||
	diag "exit $status: $(cat "$ERR")"

RPCSIM_GNUPLOT="$tmpdir/keep-gnuplot" cmp_run --plot="$tmpdir/c.svg" \
	plain.json asan.json one-run.json
[ "$status" -eq 0 ] && [ ! -s "$ERR" ] && [ -s "$tmpdir/c.svg" ] &&
	grep -qxF "Plot: $tmpdir/c.svg (each file's latency per mode, and the change of the mean with its 95 % interval)" "$OUT"
ok $? "rpcsim-compare --plot=FILE.svg: exit 0, the picture, the report names it" ||
	diag "exit $status: $(cat "$ERR")"
# The first plot command (the single mode's panel), continuation lines too.
awk '/^plot /{ n++ } n == 1' "$tmpdir/kept.gp" | awk '/^plot |^     /' >"$tmpdir/p1"
[ "$(grep -c 'with yerrorlines' "$tmpdir/p1")" -eq 3 ] &&
	grep -q "^plot \$m0f0 .*title 'plain: asan=false, pcp_batch=63, pcp_high=378, repeat=3'" "$tmpdir/p1" &&
	grep -q "\$m0f1 .*title 'asan: asan=true, pcp_batch=63, pcp_high=378, repeat=3'" "$tmpdir/p1" &&
	grep -q "\$m0f2 .*title 'one-run: asan=false, pcp_batch=31, pcp_high=186, repeat=1'" "$tmpdir/p1"
ok $? "a mode's panel has one series per file, each titled with its values of the differing settings" ||
	diag "$(cat "$tmpdir/p1")"
[ "$(grep -c '^plot ' "$tmpdir/kept.gp")" -eq 4 ] &&
	[ "$(grep -c '^\$m[0-9]f[0-9] << EOD$' "$tmpdir/kept.gp")" -eq 9 ] &&
	[ "$(grep -c '^\$change[12] << EOD$' "$tmpdir/kept.gp")" -eq 2 ]
ok $? "three modes and three files: 4 panels, 9 profiles, 2 changes" ||
	diag "$(grep -c '^plot ' "$tmpdir/kept.gp") plots"
grep -q "^set multiplot layout 2,2 title 'plain vs asan vs one-run: differing settings asan, pcp_batch, pcp_high, repeat'" \
	"$tmpdir/kept.gp"
ok $? "the figure's title names the files and the settings that differ" ||
	diag "$(grep multiplot "$tmpdir/kept.gp")"
if have_python; then
	cmp_run --json plain.json asan.json one-run.json
	python3 - "$tmpdir/kept.gp" "$OUT" <<'PY'
import json, re, sys
gp = open(sys.argv[1]).read()
doc = json.load(open(sys.argv[2]))
blocks = dict(re.findall(r"^\$(\w+) << EOD\n(.*?)^EOD$", gp, re.M | re.S))
modes = ["single", "list", "array"]
names = ["latency_us.mean", "latency_us.p50", "latency_us.p90",
         "latency_us.p99", "latency_us.p99.9"]
cells = {}
for m in doc["metrics"]:
    for r in m["rows"]:
        cells[(m["metric"], r["mode"])] = [r["base"]] + r["new"]
bad = []
def near(a, b):
    return abs(a - b) <= 1e-5 * max(abs(b), 1e-9)
for mi, mode in enumerate(modes):
    for fi in range(3):
        rows = [l.split() for l in blocks["m%df%d" % (mi, fi)].splitlines()
                if not l.startswith("#")]
        for k, name in enumerate(names):
            c = cells[(name, mode)][fi]
            x, mean, sd, n = rows[k]
            if not (near(float(mean), c["mean"]) and
                    near(float(sd), c["stddev"]) and int(n) == c["runs"]):
                bad.append((mode, fi, name, rows[k], c["mean"], c["stddev"]))
for fi in (1, 2):
    rows = [l.split() for l in blocks["change%d" % fi].splitlines()
            if not l.startswith("#")]
    for mi, mode in enumerate(modes):
        c = cells[("latency_us.mean", mode)][fi]
        half = c["ci95"]["half_width_pct"] if c["ci95"] else 0
        if not (near(float(rows[mi][1]), c["change_pct"]) and
                abs(float(rows[mi][2]) - half) <= 1e-5 * max(half, 1)):
            bad.append((mode, fi, rows[mi], c["change_pct"], half))
print(bad)
sys.exit(1 if bad else 0)
PY
	ok $? "the plotted means, stddevs, runs, changes and intervals are those of --json"
else
	skip 1 "python3 not found"
fi
cp "$tmpdir/kept.gp" "$tmpdir/kept1.gp"
RPCSIM_GNUPLOT="$tmpdir/keep-gnuplot" cmp_run --json --plot="$tmpdir/c2.svg" \
	plain.json asan.json one-run.json
grep -v '^set output' "$tmpdir/kept1.gp" >"$tmpdir/k1" &&
	grep -v '^set output' "$tmpdir/kept.gp" >"$tmpdir/k2" && cmp -s "$tmpdir/k1" "$tmpdir/k2" &&
	[ "$status" -eq 0 ] && ! grep -q '^Plot:' "$OUT" &&
	{ ! have_python ||
	  python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$OUT"; }
ok $? "the script is the same every time; --json --plot keeps stdout one JSON document" ||
	diag "exit $status: $(diff "$tmpdir/k1" "$tmpdir/k2" | head -n 5)"
RPCSIM_GNUPLOT="$tmpdir/keep-gnuplot" cmp_run --plot="$tmpdir/c3.svg" \
	plain.json plain.json
[ "$status" -eq 0 ] &&
	grep -q "^set multiplot layout 2,2 title 'base vs new: same settings'" "$tmpdir/kept.gp" &&
	[ "$(grep -c '^\$change1 << EOD$' "$tmpdir/kept.gp")" -eq 1 ]
ok $? "two files alike: titled so, one change series" ||
	diag "exit $status: $(grep multiplot "$tmpdir/kept.gp")"
# Two new files that differ from the base in one setting: named once.
cp "$fixtures/asan.json" "$tmpdir/asan2.json"
RPCSIM_GNUPLOT="$tmpdir/keep-gnuplot" cmp_run --plot="$tmpdir/c4.svg" \
	plain.json asan.json "$tmpdir/asan2.json"
[ "$status" -eq 0 ] &&
	grep -q "^set multiplot layout 2,2 title 'plain vs asan vs asan2: differing settings asan' " "$tmpdir/kept.gp"
ok $? "a setting two new files differ in: named once in the title" ||
	diag "exit $status: $(grep multiplot "$tmpdir/kept.gp")"
# A mean of 0 has no place on the log axis: gnuplot's missing value, the
# runs still counted (single's p50 set to 0 in every run; the second
# file's points sit at x + 0.15).
if have_python; then
	python3 - "$fixtures/plain.json" "$tmpdir/p50zero.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["modes"][0]["per_run"]:
    r["percentiles_us"]["p50"] = 0
json.dump(d, open(sys.argv[2], "w"))
PY
	RPCSIM_GNUPLOT="$tmpdir/keep-gnuplot" cmp_run --plot="$tmpdir/c5.svg" \
		plain.json "$tmpdir/p50zero.json"
	[ "$status" -eq 0 ] &&
		sed -n '/^\$m0f1 << EOD$/,/^EOD$/p' "$tmpdir/kept.gp" |
		grep -qx '1\.15 ? ? 3'
	ok $? "a mean of 0 on the log axis: drawn as missing, n kept" ||
		diag "exit $status: $(sed -n '/^\$m0f1 << EOD$/,/^EOD$/p' "$tmpdir/kept.gp")"
else
	skip 1 "python3 not found"
fi

# --- with gnuplot ----------------------------------------------------------------------
if ! command -v gnuplot >/dev/null 2>&1; then
	skip 17 "gnuplot not installed (apt-get install gnuplot-nox)"
	exit_status
	exit $?
fi

# png_size FILE: "WIDTHxHEIGHT" from a PNG's IHDR, or nothing.
png_size()
{
	[ "$(head -c 8 "$1" | od -An -c | tr -d ' \n')" = '211PNG\r\n032\n' ] ||
		return 1
	w=$(od -An -tu1 -j16 -N4 "$1" | awk '{ print $1*16777216 + $2*65536 + $3*256 + $4 }')
	h=$(od -An -tu1 -j20 -N4 "$1" | awk '{ print $1*16777216 + $2*65536 + $3*256 + $4 }')
	echo "${w}x$h"
}

run "$RPCSIM" --alloc=all --requests=3000 --plot="$tmpdir/rpcsim.png"
[ "$status" -eq 0 ] && [ ! -s "$ERR" ]
ok $? "rpcsim --alloc=all --plot=FILE.png exits 0" ||
	diag "exit $status: $(cat "$ERR")"
[ -s "$tmpdir/rpcsim.png" ]
ok $? "the PNG is not empty"
[ "$(png_size "$tmpdir/rpcsim.png")" = 1200x860 ]
ok $? "it is a PNG of 1200x860 pixels" ||
	diag "$(head -c 16 "$tmpdir/rpcsim.png" | od -c | head -n 2)"
grep -qxF "Plot: $tmpdir/rpcsim.png (per-call latency and pages refilled per call of each mode)" \
	"$OUT" && grep -q '^Bulk list: ' "$OUT"
ok $? "the report names the plot after the results"

run "$RPCSIM" --alloc=all --requests=3000 -q --plot="$tmpdir/rpcsim.SVG"
[ "$status" -eq 0 ] && [ -s "$tmpdir/rpcsim.SVG" ]
ok $? "rpcsim --plot=FILE.SVG (any case) exits 0 with a file" ||
	diag "exit $status: $(cat "$ERR")"
head -n 1 "$tmpdir/rpcsim.SVG" | grep -q '^<?xml' && grep -q '<svg' "$tmpdir/rpcsim.SVG"
ok $? "it is an SVG document"
n=0
for mode in "Single page" "Bulk list" "Bulk array"; do
	grep -Eq "$mode: [0-9]+\.[0-9]{3} us per call over [0-9,]+ calls" \
		"$tmpdir/rpcsim.SVG" && n=$((n + 1))
done
[ "$n" -eq 3 ]
ok $? "its key has the seed's per-call line of all three modes"
grep -q 'Pages refilled per call' "$tmpdir/rpcsim.SVG" &&
	grep -q 'Cumulative distribution' "$tmpdir/rpcsim.SVG" &&
	grep -q 'Latency distribution' "$tmpdir/rpcsim.SVG"
ok $? "it has the histogram, the CDF and the pages-per-call panels"
! grep -q '^Plot:' "$OUT"
ok $? "--quiet does not name the plot"

run "$RPCSIM" --requests=500 --json --plot="$tmpdir/json.svg"
[ "$status" -eq 0 ] && [ -s "$tmpdir/json.svg" ] &&
	{ ! have_python ||
	  python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$OUT"; }
ok $? "--json --plot: a plot, and stdout stays one JSON document" ||
	diag "exit $status: $(cat "$ERR")"

[ -z "$(ls -A "$tmpdir/t")" ]
ok $? "no temporary file is left behind" || diag "$(ls -A "$tmpdir/t")"

if have_analyze; then
	mkdir -p "$tmpdir/trace/ust"
	python3 "$CTFGEN" "$tmpdir/trace/ust" <"$traces/two-modes.txt"
	run "$ANALYZE" --plot="$tmpdir/analyze.png" "$tmpdir/trace"
	[ "$status" -eq 0 ] && grep -q '^Bulk array: ' "$OUT"
	ok $? "rpcsim-analyze --plot=FILE.png exits 0 with its report" ||
		diag "exit $status: $(cat "$ERR")"
	[ "$(png_size "$tmpdir/analyze.png")" = 1200x860 ]
	ok $? "rpcsim-analyze drew a 1200x860 PNG"
	run "$ANALYZE" --plot="$tmpdir/analyze.svg" "$tmpdir/trace"
	[ "$status" -eq 0 ] &&
		grep -q 'Single page: 1.283 us per call over 3 calls' "$tmpdir/analyze.svg" &&
		grep -q 'Bulk array: 0.207 us per call over 3 calls' "$tmpdir/analyze.svg"
	ok $? "rpcsim-analyze's SVG has each mode's mean from the trace" ||
		diag "exit $status: $(cat "$ERR")"
else
	skip 3 "rpcsim-analyze not built or python3 missing"
fi

(cd "$fixtures" && TMPDIR=$tmpdir/t timeout 120 "$COMPARE" \
	--plot="$tmpdir/compare.svg" plain.json asan.json) >"$OUT" 2>"$ERR"
status=$?
[ "$status" -eq 0 ] && head -n 1 "$tmpdir/compare.svg" | grep -q '^<?xml' &&
	grep -q 'plain vs asan: differing settings asan' "$tmpdir/compare.svg" &&
	grep -q 'asan: asan=true' "$tmpdir/compare.svg" &&
	grep -q 'plain: asan=false' "$tmpdir/compare.svg"
ok $? "rpcsim-compare --plot: gnuplot draws an SVG titled with the differing setting" ||
	diag "exit $status: $(cat "$ERR")"
(cd "$fixtures" && TMPDIR=$tmpdir/t timeout 120 "$COMPARE" -m latency_us.mean \
	--plot="$tmpdir/compare.png" plain.json asan.json one-run.json) \
	>"$OUT" 2>"$ERR"
status=$?
[ "$status" -eq 0 ] && [ "$(png_size "$tmpdir/compare.png")" = 1200x860 ]
ok $? "rpcsim-compare --plot=FILE.png: a 1200x860 PNG" ||
	diag "exit $status: $(cat "$ERR")"
[ -z "$(ls -A "$tmpdir/t")" ]
ok $? "rpcsim-compare leaves no temporary file" || diag "$(ls -A "$tmpdir/t")"

exit_status
exit $?
