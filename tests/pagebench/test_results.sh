#!/bin/sh
# SPDX-License-Identifier: MIT
#
# pagebench --results=DIR and rpcsim-compare --sweep=DIR over it: the run
# writes one file, named by the options that say what is measured (and
# PAGEPOOL_PCP), holding its --json document with the host, build and
# settings records rpcsim's sweep points carry; the same run again finds
# it and runs nothing, other settings run again and replace it;
# rpcsim-compare tabulates pagebench's files in a table of their own,
# beside an rpcsim sweep's in the same folder, and marks another host;
# a bad --results is one line, exit 2 for the value, 1 for a folder that
# cannot be made or a file that cannot be written at the end.  Smoke runs of a few rows: the format and the counts,
# never the timings.

# Option lists in variables are split into words on purpose.
# shellcheck disable=SC2086
# shellcheck source=tests/pagebench/common.sh
. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/pagebench/common.sh"
RPCSIM=${RPCSIM:-$top_builddir/rpcsim/rpcsim}
COMPARE=$top_builddir/compare/rpcsim-compare
tap_tmpdir pagebench-results
# The file's name holds PAGEPOOL_PCP when it is set: only where we set it.
unset PAGEPOOL_PCP

plan_tests 22

# compare DIR [ARG]...: rpcsim-compare --sweep=DIR, as run.
compare()
{
	run_cmd 60 "$COMPARE" --sweep="$@"
}

# files DIR: every name in DIR, hidden ones too, one line.
files()
{
	ls -A "$1" | LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//'
}

D=$tmpdir/res
# Six rows: buddy and lifo, single at 1 and array at 1 and 64.
SHORT="--smoke --runs=1 --run-ms=1"
WHAT="--allocators=buddy,lifo --api=single,array --bulk=1,64"
NAME=pagebench_allocators-buddy-lifo_api-single-array_bulk-1-64
SETTINGS="--allocators=buddy,lifo --api=single,array --bulk=1,64 --runs=1 --run-ms=1 --smoke"

# --- the file --------------------------------------------------------------
run $WHAT $SHORT --results="$D"
[ "$status" -eq 0 ] && [ ! -s "$ERR" ] &&
	[ "$(files "$D")" = "$NAME.json" ] &&
	[ "$(grep -c '^pagebench allocator=' "$OUT")" -eq 6 ] &&
	[ "$(tail -n 1 "$OUT")" = "Result file: $D/$NAME.json" ]
ok $? "--results: exit 0, the usual text, one file named by what is measured, nothing else left" ||
	diag "exit $status; $(cat "$ERR"); files: $(files "$D" 2>&1)"

if have_python; then
	"$RPCSIM" --requests=20 --threads=1 --file-size=1m --json \
		>"$tmpdir/rpcsim.json" 2>/dev/null
	python3 - "$D/$NAME.json" "$NAME" "$SETTINGS" "$tmpdir/rpcsim.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
rp = json.load(open(sys.argv[4]))
assert doc["program"] == "pagebench" and doc["version"], doc
# The records rpcsim's result files carry, with the same fields.
assert doc["host"], doc
assert sorted(doc["build"]) == sorted(rp["build"]), (doc["build"], rp["build"])
assert doc["build"]["version"] == doc["version"], doc["build"]
assert doc["build"]["pcp_impl"] == doc["config"]["pcp_impl"], doc
s = doc["sweep"]
assert s["name"] == sys.argv[2] and s["settings"] == sys.argv[3], s
assert s["values"] == {"allocators": "buddy,lifo", "api": "single,array",
                       "bulk": "1,64"}, s
# The --json document, whole.
rows = [(r["allocator"], r["api"], r["bulk"]) for r in doc["results"]]
assert rows == [("buddy", "single", 1), ("buddy", "array", 1),
                ("buddy", "array", 64), ("lifo", "single", 1),
                ("lifo", "array", 1), ("lifo", "array", 64)], rows
assert doc["config"]["runs"] == 1 and doc["config"]["smoke"] is True
PY
	ok $? "the file: the --json document with host, build (rpcsim's fields) and sweep.name, settings, values"
else
	skip 1 "python3 missing"
fi
cp "$D/$NAME.json" "$tmpdir/keep.json"

# --- resume ----------------------------------------------------------------
# The same settings in another order: the same run.
run --bulk=1,64 --smoke --run-ms=1 --api=single,array --runs=1 \
	--allocators=buddy,lifo --results="$D"
[ "$status" -eq 0 ] && [ ! -s "$ERR" ] &&
	[ "$(cat "$OUT")" = "pagebench: $D/$NAME.json holds these settings already: not run again (remove it to run again)" ] &&
	cmp -s "$tmpdir/keep.json" "$D/$NAME.json"
ok $? "the same settings again: one line, nothing run, the file untouched" ||
	diag "exit $status; $(cat "$OUT" "$ERR")"

run $WHAT --smoke --runs=2 --run-ms=1 --results="$D"
[ "$status" -eq 0 ] && [ "$(wc -l <"$ERR")" -eq 1 ] &&
	grep -qF "pagebench: $D/$NAME.json holds other settings ($SETTINGS); pagebench runs again with --allocators=buddy,lifo --api=single,array --bulk=1,64 --runs=2 " "$ERR" &&
	[ "$(grep -c '^pagebench allocator=' "$OUT")" -eq 6 ] &&
	grep -q '"settings": ".* --runs=2 ' "$D/$NAME.json" &&
	[ "$(files "$D")" = "$NAME.json" ]
ok $? "other settings under the same name: said in one line, run again, the file replaced" ||
	diag "exit $status; $(cat "$ERR")"

# A file cut short: one line naming the tool once, run again, replaced.
head -c 200 "$D/$NAME.json" >"$tmpdir/cut.json"
cp "$tmpdir/cut.json" "$D/$NAME.json"
run $WHAT --smoke --runs=2 --run-ms=1 --results="$D"
[ "$status" -eq 0 ] && [ "$(wc -l <"$ERR")" -eq 1 ] &&
	grep -q "^pagebench: $D/$NAME.json is truncated (.*); running it again$" "$ERR" &&
	grep -q '"settings": ".* --runs=2 ' "$D/$NAME.json"
ok $? "a truncated file: one line, pagebench named once, run again, replaced" ||
	diag "exit $status; $(cat "$ERR")"

# A second file: another pcp implementation and --free.
NAME2=pagebench_allocators-buddy-lifo_api-single-array_bulk-64_free-put_pcp-lock
PAGEPOOL_PCP=lock run --allocators=buddy,lifo --api=single,array --bulk=64 \
	--free=put $SHORT --results="$D"
[ "$status" -eq 0 ] && [ ! -s "$ERR" ] &&
	[ "$(files "$D")" = "$NAME.json $NAME2.json" ] &&
	grep -q '"settings": ".* --free=put --smoke PAGEPOOL_PCP=lock"' "$D/$NAME2.json"
ok $? "PAGEPOOL_PCP names the file as pcp and is among its settings" ||
	diag "exit $status; $(cat "$ERR"); files: $(files "$D")"

# --- rpcsim-compare --sweep ------------------------------------------------
# Rows: file 1 has 6, file 2 has 4 (single 1 and array 64 of each).
# A build without rseq lists (TSan; a kernel or glibc without rseq) runs
# the lock lists in both files: pcp is then shared, not a column.
if grep -q '"pcp_impl": "lock"' "$D/$NAME.json"; then
	pcp_col=
	pcp_re=
else
	pcp_col=' +pcp'
	pcp_re=' +(rseq|lock)'
fi
num='[0-9]+\.[0-9]{3}'
row_re="^(buddy|lifo) +(single|array) +(1|64) +(-|merged) +[12]$pcp_re +(release|put) +$num +([0-9.]+%|-) +(base|[-+][0-9.]+%|-)\$"
compare "$D"
cp "$OUT" "$tmpdir/table"
[ "$status" -eq 0 ] && [ ! -s "$ERR" ] &&
	[ "$(head -n 1 "$OUT")" = "pagebench: 10 rows of 2 result files" ] &&
	grep -Eq "^allocator +api +bulk +variant +file$pcp_col +free +ns/page +spread +change\$" "$OUT" &&
	[ "$(grep -Ec "$row_re" "$OUT")" -eq 10 ] &&
	! grep -q '^sweep: ' "$OUT"
ok $? "rpcsim-compare --sweep: pagebench's table, a row per configuration and file, the differing settings as columns" ||
	diag "exit $status; $(cat "$OUT" "$ERR")"

# Each configuration of both files: file 1's row is the base, file 2's
# a change; those of file 1 alone have none.
[ "$(grep -Ec '^(buddy|lifo) +(single +1|array +64) +(-|merged) +1 .* base$' "$OUT")" -eq 4 ] &&
	[ "$(grep -Ec '^(buddy|lifo) +(single +1|array +64) +(-|merged) +2 .* [-+][0-9.]+%$' "$OUT")" -eq 4 ] &&
	[ "$(grep -Ec '^(buddy|lifo) +array +1 +(-|merged) +1 .* -$' "$OUT")" -eq 2 ] &&
	[ "$(grep -A1 -E '^buddy +single +1 +- +1 ' "$OUT" | grep -Ec '^buddy +single +1 +- +2 ')" -eq 1 ]
ok $? "a configuration's rows stand together: the first file's is the base, the other's its change" ||
	diag "$(cat "$OUT")"

grep -Eq '^every file: (pcp lock; )?profile (lean|kernel); list-debug (on|off); je-tcache on; je-batch on$' "$OUT" &&
	grep -q "^file 1: $NAME.json: host [^;]*; build pagebench [0-9.]*, libpagepool [0-9.]*, configure '[^;]*'; 2 runs of ~1 ms (smoke: numbers meaningless); settings --allocators=buddy,lifo .*--runs=2 " "$OUT" &&
	grep -q "^file 2: $NAME2.json: host .*; 1 run of ~1 ms .* PAGEPOOL_PCP=lock\$" "$OUT" &&
	! grep -q '\*' "$OUT"
ok $? "below the table: the settings every file shares, then each file, where it ran and its settings" ||
	diag "$(cat "$OUT")"

# Files of the two profiles: the profile is a column, each row its own
# (and the list checks, which only the kernel profile runs by default,
# one too unless PAGEPOOL_DEBUG_LIST turned them off for both).
mkdir "$tmpdir/profiles"
for p in lean kernel; do
	run --allocators=buddy --api=single --bulk=1 $SHORT --profile=$p \
		--results="$tmpdir/profiles" || break
done
compare "$tmpdir/profiles"
[ "$status" -eq 0 ] &&
	grep -Eq '^allocator +api +bulk +variant +file +profile( +list-debug)? +ns/page ' "$OUT" &&
	grep -Eq '^buddy +single +1 +- +1 +kernel ' "$OUT" &&
	grep -Eq '^buddy +single +1 +- +2 +lean ' "$OUT" &&
	! grep -q '^every file: .*profile' "$OUT"
ok $? "files of the two profiles: profile is a column, not a shared setting" ||
	diag "exit $status; $(cat "$OUT" "$ERR")"

# Beside an rpcsim sweep: its table first, as rpcsim prints it, then
# pagebench's; rpcsim --sweep itself keeps to its own points.
if [ -x "$RPCSIM" ]; then
	SWEEP="--alloc=all --repeat=2 --requests=50 --file-size=1m --pool-size=16m --sweep=threads=1,2"
	timeout 120 "$RPCSIM" $SWEEP --results="$D" >"$tmpdir/sweep.out" 2>"$ERR"
	status=$?
	[ "$status" -eq 0 ] && [ ! -s "$ERR" ] && grep -q '^sweep: 2 of 2 points' "$tmpdir/sweep.out" &&
		! grep -q pagebench "$tmpdir/sweep.out"
	ok $? "rpcsim --sweep into the same folder: its points and table alone" ||
		diag "exit $status; $(cat "$ERR" "$tmpdir/sweep.out")"
	compare "$D"
	sed -n '/^sweep: /,$p' "$tmpdir/sweep.out" >"$tmpdir/sweep.table"
	n=$(wc -l <"$tmpdir/sweep.table")
	[ "$status" -eq 0 ] && [ ! -s "$ERR" ] &&
		head -n "$n" "$OUT" | cmp -s - "$tmpdir/sweep.table" &&
		[ "$(sed -n "$((n + 1))p" "$OUT")" = "" ] &&
		sed -n "$((n + 2)),\$p" "$OUT" | cmp -s - "$tmpdir/table"
	ok $? "a mixed folder: the rpcsim sweep's table, a blank line, pagebench's table; never one table" ||
		diag "exit $status; $(cat "$ERR" "$OUT")"
	rm "$D"/threads-*.json
else
	skip 2 "rpcsim not built"
fi

# Another host: file 2's rows marked, where it ran named.
cp -r "$D" "$tmpdir/mixed"
if have_python; then
	python3 - "$tmpdir/mixed/$NAME2.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
doc["host"] = "elsewhere"
json.dump(doc, open(sys.argv[1], "w"))
PY
	compare "$tmpdir/mixed"
	[ "$status" -eq 0 ] &&
		grep -Eq '^allocator .* change +where$' "$OUT" &&
		[ "$(grep -Ec '^(buddy|lifo) +(single|array) +[0-9]+ +(-|merged) +2 .*  \*$' "$OUT")" -eq 4 ] &&
		[ "$(grep -Ec '^(buddy|lifo) +(single|array) +[0-9]+ +(-|merged) +1 .*[0-9%e-]$' "$OUT")" -eq 6 ] &&
		grep -q "^\* file 2: $NAME2.json: host elsewhere; " "$OUT" &&
		grep -q '^4 rows marked \*: run on another host or build than file 1' "$OUT"
	ok $? "a file from another host: its rows marked *, the host named" ||
		diag "exit $status; $(cat "$OUT" "$ERR")"
else
	skip 1 "python3 missing"
fi

# A pagebench document that is not a result: named, the rest tabulated.
echo '{"program": "pagebench"}' >"$tmpdir/mixed/broken.json"
compare "$tmpdir/mixed"
[ "$status" -eq 1 ] && [ "$(wc -l <"$ERR")" -eq 1 ] &&
	grep -q "^rpcsim-compare: $tmpdir/mixed/broken.json: not a pagebench result (no results or config)\$" "$ERR" &&
	grep -q '^pagebench: 10 rows of 2 result files$' "$OUT"
ok $? "a broken pagebench file: named in one line, exit 1, the others' table printed" ||
	diag "exit $status; $(cat "$ERR")"

# --plot draws an rpcsim sweep; pagebench's rows alone have none.
if command -v gnuplot >/dev/null 2>&1; then
	compare "$D" --plot="$tmpdir/p.svg"
	[ "$status" -eq 1 ] && [ ! -s "$OUT" ] && [ "$(wc -l <"$ERR")" -eq 1 ] &&
		grep -q "^rpcsim-compare: --plot=$tmpdir/p.svg: no rpcsim --sweep point to draw" "$ERR"
	ok $? "--plot over pagebench's files alone: one line, exit 1" ||
		diag "exit $status; $(cat "$ERR")"
else
	skip 1 "gnuplot missing"
fi

# --- bad --results -----------------------------------------------------------
# fails STATUS TEXT ARGS...: exit STATUS, nothing on stdout, one line.
fails()
{
	want=$1 text=$2
	shift 2
	run "$@"
	[ "$status" -eq "$want" ] && [ ! -s "$OUT" ] &&
		[ "$(wc -l <"$ERR")" -eq 1 ] && grep -qF -- "$text" "$ERR"
	ok $? "$* : exit $want, one line naming '$text'" ||
		diag "exit $status; $(cat "$ERR")"
}
: >"$tmpdir/plain"
fails 2 "pagebench: --results=: expected a folder" $SHORT --results=
fails 2 "pagebench: --json: not with --results=$tmpdir/j" $SHORT --json \
	--results="$tmpdir/j"
fails 1 "pagebench: --results=$tmpdir/plain: Not a directory" $SHORT \
	--results="$tmpdir/plain"
fails 1 "pagebench: --results=$tmpdir/plain/sub: Not a directory" \
	$SHORT --results="$tmpdir/plain/sub"
fails 2 "pagebench: --results=$tmpdir/%x: '%x' is no placeholder (%h: this host's name, %%: a %)" \
	$SHORT --results="$tmpdir/%x"

# A folder that is no longer one when the run ends: the file cannot be
# written, said in one line, exit 1 (pagebench(1), EXIT STATUS), no
# "Result file:" line.  Replaced by a plain file once the first
# configuration's line is out, with four more (1.2 s) to go.
: >"$OUT"
"$PAGEBENCH" --allocators=lifo --api=array --bulk=1,2,4,8,16 --run-ms=100 \
	--runs=3 --pin=off --results="$tmpdir/gone" >"$OUT" 2>"$ERR" &
pid=$!
wait_for 30 grep -q '^pagebench allocator=' "$OUT" && rm -r "$tmpdir/gone" &&
	: >"$tmpdir/gone"
wait_pid "$pid" 60
[ "$status" -eq 1 ] &&
	[ "$(cat "$ERR")" = "pagebench: --results=$tmpdir/gone: Not a directory" ] &&
	! grep -q '^Result file' "$OUT"
ok $? "a result file that cannot be written at the end: one line, exit 1" ||
	diag "exit $status; $(cat "$ERR"); $(tail -n 1 "$OUT")"

# %h: this host's name, missing parents made (a folder per machine).
run $WHAT $SHORT --results="$tmpdir/hosts/%h"
[ "$status" -eq 0 ] && [ "$(files "$tmpdir/hosts/$(hostname)")" = "$NAME.json" ]
ok $? "--results=DIR/%h: the file goes into DIR/<this host's name>, DIR made" ||
	diag "exit $status; $(cat "$ERR"); $(find "$tmpdir/hosts" 2>&1)"

exit_status
