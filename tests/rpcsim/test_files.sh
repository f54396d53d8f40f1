#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The files rpcsim, rpcsim-analyze and pagebench read and write
# (common/files.h): --output=FILE is replaced only by a run that
# succeeds (a failed one leaves the old FILE, and no temporary file);
# a FIFO in place of a result file is refused, not waited on, by rpcsim
# --sweep's resume and pagebench --results; a truncated result file is
# said before its point runs again.  And the sweep's command lines:
# --plan refuses a control character in a line's arguments, gives
# --results as an absolute path, and a '\,' in a --sweep value is a
# comma (a plugin path with one can be swept).  The commands that could
# block run under timeout 10.

# shellcheck source=tests/rpcsim/common.sh
. "$top_srcdir/tests/rpcsim/common.sh"

ANALYZE=$top_builddir/analyze/rpcsim-analyze
PAGEBENCH=$top_builddir/pagebench/pagebench

plan_tests 18

have_python || skip_rest "python3 is needed to read the result files"

SMALL="--alloc=array --repeat=1 --requests=20 --file-size=1m --pool-size=16m"

# hidden DIR: the hidden (temporary) files left in DIR.
hidden()
{
	find "$1" -maxdepth 1 -name '.*' ! -name . ! -name .. | wc -l
}

# kept PROGRAM FILE OLD WHAT: the last run, PROGRAM --output=FILE, failed
# (exit 1), FILE still holds OLD, no temporary file is left beside it,
# and PROGRAM said so ("... not written: the WHAT failed ...").
kept()
{
	if [ "$status" -eq 1 ] && [ "$(cat "$2")" = "$3" ] &&
	   [ "$(hidden "$(dirname "$2")")" -eq 0 ] &&
	   grep -q "^$1: --output=$2: not written: the $4 failed (exit 1); the file is as it was\$" "$ERR"; then
		return 0
	fi
	diag "exit $status: $(cat "$ERR")" "$(cat "$2")"
	return 1
}

# A gnuplot that fails: the run measures, then fails at its plot.
printf '#!/bin/sh\nexit 3\n' >"$tmpdir/bad-gnuplot"
chmod +x "$tmpdir/bad-gnuplot"

# --- --output=FILE ------------------------------------------------------
mkdir "$tmpdir/out"
echo "the old report" >"$tmpdir/out/report.txt"
run_env RPCSIM_GNUPLOT="$tmpdir/bad-gnuplot" $SMALL \
	--plot="$tmpdir/out/x.svg" --output="$tmpdir/out/report.txt"
kept rpcsim "$tmpdir/out/report.txt" "the old report" run
ok $? "rpcsim --output=FILE, the run failing: FILE untouched, no temporary file, said"

run $SMALL --output="$tmpdir/out/report.txt"
[ "$status" -eq 0 ] && [ ! -s "$ERR" ] && [ ! -s "$OUT" ] &&
	grep -q '^rpcsim ' "$tmpdir/out/report.txt" &&
	[ "$(hidden "$tmpdir/out")" -eq 0 ]
ok $? "rpcsim --output=FILE, the run succeeding: FILE replaced by the report" ||
	diag "exit $status: $(cat "$ERR")"

run $SMALL --output=/dev/null
[ "$status" -eq 0 ] && [ ! -s "$ERR" ] && [ -c /dev/null ]
ok $? "rpcsim --output=/dev/null: written to, not replaced" ||
	diag "exit $status: $(cat "$ERR")"

# A full disk: exit 1, and every line of stderr says why (none ends at
# its colon).
if [ -c /dev/full ]; then
	run $SMALL --output=/dev/full
	[ "$status" -eq 1 ] && [ -s "$ERR" ] && ! grep -q ': *$' "$ERR" &&
		grep -q '^rpcsim: --output=/dev/full: writing /dev/full: ' "$ERR"
	ok $? "rpcsim --output=/dev/full: exit 1, each message with its reason" ||
		diag "exit $status: $(cat "$ERR")"
else
	skip 1 "no /dev/full"
fi

echo "the old analysis" >"$tmpdir/out/analysis.txt"
run_cmd 60 "$ANALYZE" --output="$tmpdir/out/analysis.txt" "$tmpdir/no-trace"
kept rpcsim-analyze "$tmpdir/out/analysis.txt" "the old analysis" analysis
ok $? "rpcsim-analyze --output=FILE, the analysis failing: FILE untouched"

# --- result files that are no result ----------------------------------------
GRID="--sweep=threads=1,2 --results=$tmpdir/res"
run $SMALL $GRID --quiet
ran_ok "a sweep of two points"

mv "$tmpdir/res/threads-2.json" "$tmpdir/whole.json"
head -c 300 "$tmpdir/whole.json" >"$tmpdir/res/threads-2.json"
run $SMALL $GRID --quiet
[ "$status" -eq 0 ] &&
	grep -q "^rpcsim: point 2: $tmpdir/res/threads-2.json is truncated (not JSON: the document ends early (truncated?)); running it again$" "$ERR" &&
	python3 -c 'import json, sys; json.load(open(sys.argv[1]))' \
		"$tmpdir/res/threads-2.json"
ok $? "a truncated result file: said on stderr, run again, replaced" ||
	diag "exit $status: $(cat "$ERR")"

rm "$tmpdir/res/threads-2.json"
mkfifo "$tmpdir/res/threads-2.json"
run_cmd 10 "$RPCSIM" $SMALL $GRID --quiet
[ "$status" -eq 1 ] && [ -p "$tmpdir/res/threads-2.json" ] &&
	grep -q "^rpcsim: point 2: $tmpdir/res/threads-2.json: not a regular file (a FIFO), not replaced by a result; remove it or choose another --results$" "$ERR"
ok $? "a FIFO as a result file: rpcsim --sweep refuses the point, not waiting, exit 1" ||
	diag "exit $status: $(cat "$ERR")"

if [ -x "$PAGEBENCH" ]; then
	mkdir "$tmpdir/pb"
	mkfifo "$tmpdir/pb/pagebench_allocators-lifo_api-single_bulk-1.json"
	run_cmd 10 "$PAGEBENCH" --allocators=lifo --api=single --bulk=1 \
		--smoke --runs=1 --run-ms=1 --results="$tmpdir/pb"
	[ "$status" -eq 1 ] &&
		grep -q "^pagebench: $tmpdir/pb/pagebench_allocators-lifo_api-single_bulk-1.json: not a regular file (a FIFO), not replaced by a result" "$ERR"
	ok $? "a FIFO as pagebench's result file: refused, not waited on, exit 1" ||
		diag "exit $status: $(cat "$ERR")"
else
	skip 1 "no pagebench"
fi

# --- --plan ------------------------------------------------------------------
run --sweep=threads=1,2 --results="$(printf 'res\nx')" --plan
[ "$status" -eq 2 ] && [ ! -s "$OUT" ] && [ "$(wc -l <"$ERR")" -eq 1 ] &&
	grep -q '^rpcsim: --results=res\\nx: a control character (\\x0a) in it: each line of --plan must stay one line; expected no control characters$' "$ERR"
ok $? "--plan with a newline in --results: one line, exit 2, no plan" ||
	diag "exit $status: $(cat "$ERR" "$OUT")"

run --sweep=threads=1,2 "--backend=plugin:/a$(printf '\t')b.so" --results=r \
	--plan
[ "$status" -eq 2 ] && [ ! -s "$OUT" ] && [ "$(wc -l <"$ERR")" -eq 1 ] &&
	grep -q '^rpcsim: --backend=plugin:/a\\x09b.so: a control character (\\x09) in it' "$ERR"
ok $? "--plan with a tab in another option: refused, exit 2" ||
	diag "exit $status: $(cat "$ERR" "$OUT")"

mkdir "$tmpdir/wd%x"
(cd "$tmpdir/wd%x" && "$RPCSIM" --sweep=threads=1,2 --results=res/%h \
	--plan) >"$OUT" 2>"$ERR"
status=$?
[ "$status" -eq 0 ] && [ "$(wc -l <"$OUT")" -eq 2 ] &&
	[ "$(grep -c -- " --results=$tmpdir/wd%%x/res/%h --point=[12]\$" "$OUT")" -eq 2 ]
ok $? "--plan: a relative --results becomes absolute (a % of the folder as %%, %h kept)" ||
	diag "exit $status: $(cat "$ERR" "$OUT")"

# --- a comma in a swept value ------------------------------------------------
LIFO=$top_builddir/tests/unit/plugin/.libs/backend-lifo.so
if [ -f "$LIFO" ]; then
	cp "$LIFO" "$tmpdir/li,fo.so"
	run $SMALL "--sweep=backend=buddy,plugin:$tmpdir/li\\,fo.so" \
		--results="$tmpdir/comma" --quiet
	[ "$status" -eq 0 ] &&
		grep -q "^ *2  plugin:$tmpdir/li,fo.so  " "$OUT" &&
		python3 -c 'import json, sys
c = json.load(open(sys.argv[1]))["config"]
sys.exit(not (c["backend"] == "plugin" and c["plugin"] == sys.argv[2]))' \
			"$(ls "$tmpdir"/comma/backend-plugin*.json)" \
			"$tmpdir/li,fo.so"
	ok $? "--sweep=backend=buddy,plugin:PATH with '\\,' in PATH: the plugin at that path swept" ||
		diag "exit $status: $(cat "$ERR" "$OUT")"
else
	skip 1 "no plugin built"
fi

# --- a point's file name at the longest a file system takes ------------------
# A point writes .NAME.json.XXXXXX, then renames it NAME.json: NAME may
# have 255 - 13 = 242 characters; "backend-plugin-" and the path's 227.
# One more is refused before anything runs (it used to fail each such
# point after its run).
if [ -f "$LIFO" ] && [ ${#tmpdir} -lt 200 ]; then
	n=$((227 - ${#tmpdir} - 4))
	long=$tmpdir/$(printf "%${n}s" "" | tr ' ' l).so
	cp "$LIFO" "$long"
	run $SMALL "--sweep=backend=plugin:$long" --results="$tmpdir/long" --quiet
	f=$(ls "$tmpdir/long")
	[ "$status" -eq 0 ] && [ ${#f} -eq 247 ] && [ "$f" = "backend-plugin-$(echo "$long" | tr / -).json" ]
	ok $? "--sweep: a point's name of 242 characters runs and writes its file" ||
		diag "exit $status: $(cat "$ERR") $f"
	run $SMALL "--sweep=backend=plugin:${long}x" --results="$tmpdir/longer" --quiet
	[ "$status" -eq 2 ] && [ "$(wc -l <"$ERR")" -eq 1 ] && [ ! -e "$tmpdir/longer" ] &&
		grep -q "^rpcsim: --sweep: point 1's result file backend-plugin-.*\.sox\.json has a name of 248 characters, 256 with its temporary file's; expected at most 255: shorter values$" "$ERR"
	ok $? "--sweep: a point's name of 243 characters: one line, exit 2, nothing made" ||
		diag "exit $status: $(cat "$ERR")"
else
	skip 2 "no plugin built, or a temporary folder of 200 characters or more"
fi

run "--sweep=backend=buddy,plugin:/x\\" --results=r --plan
[ "$status" -eq 2 ] && [ "$(wc -l <"$ERR")" -eq 1 ] &&
	grep -q "^rpcsim: --sweep=backend=buddy,plugin:/x\\\\: a '\\\\' ends it; expected '\\\\,' for a ',' in a value, '\\\\\\\\' for a '\\\\'$" "$ERR"
ok $? "--sweep ending in a lone '\\': one line, exit 2" ||
	diag "exit $status: $(cat "$ERR")"

run "--sweep=threads=1\\,2" --results=r --plan
[ "$status" -eq 2 ] && [ "$(wc -l <"$ERR")" -eq 1 ] && grep -q "threads" "$ERR"
ok $? "--sweep=threads=1\\,2: one value '1,2', refused as threads refuses it, exit 2" ||
	diag "exit $status: $(cat "$ERR")"

run --sweep=threads=1,2 --results=r --plan
[ "$status" -eq 0 ] && [ "$(wc -l <"$OUT")" -eq 2 ]
ok $? "--sweep=threads=1,2: still two points" ||
	diag "exit $status: $(cat "$ERR")"

exit_status
