#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Sweeps on several machines: --results=DIR/%h writes each machine's
# points into a folder named after it (the --plan lines keep %h, expanded
# where they run); rpcsim-compare --sweep=DIR of such folders prints each
# folder's table, then per mode one table of the points across them, side
# by side, each folder's change against its own first point.  The
# machines are played by UTS namespaces through GNU parallel --onall and
# tests/utils/uts-ssh.sh as its ssh (skipped without parallel or without
# the right to make a namespace); with --results=./DIR, GNU parallel's
# --workdir and --return (and rsync).  Then folders made by hand: one
# folder alone is the sweep's, another grid is named and not tabulated
# across, --plot is refused for several folders, a bad placeholder is a
# usage error.  Structure and values only: the timings of 40 requests say
# nothing.

# Option lists in variables are split into words on purpose.
# shellcheck disable=SC2086
# shellcheck source=tests/rpcsim/common.sh
. "$top_srcdir/tests/rpcsim/common.sh"

UTS_SSH=$top_srcdir/tests/utils/uts-ssh.sh

plan_tests 13

have_python || skip_rest "python3 is needed to read the result files"

FIXED="--alloc=all --requests=40 --file-size=1m --pool-size=16m"
GRID="--sweep=threads=1,2 --sweep=io-size=64k,256k"

# hosts DIR: "FOLDER=HOST ..." for each result file of DIR/*/.
hosts()
{
	python3 - "$1" <<'PYEOF'
import json, os, sys
d = sys.argv[1]
out = []
for sub in sorted(os.listdir(d)):
    for f in sorted(os.listdir(os.path.join(d, sub))):
        out.append(sub + "=" + json.load(open(os.path.join(d, sub, f)))["host"])
print(" ".join(sorted(set(out))))
PYEOF
}

# mean FILE MODE: the mode's mean per call in us, as the tables print it.
mean()
{
	python3 -c '
import json, sys
for m in json.load(open(sys.argv[1]))["modes"]:
    if m["mode"] == sys.argv[2]:
        print("%.3f" % m["mean_us"])' "$1" "$2"
}

# --- %h ----------------------------------------------------------------------
host=$(hostname)
run $FIXED $GRID --results="$tmpdir/one/%h"
[ "$status" -eq 0 ] && [ "$(find "$tmpdir/one/$host" -name '*.json' | wc -l)" -eq 4 ]
ok $? "--results=DIR/%h: the points go into DIR/<this host's name>, parents made" ||
	diag "exit $status; $(cat "$ERR"); $(find "$tmpdir/one")"

run $FIXED $GRID --results="$tmpdir/one/%h" --plan
[ "$status" -eq 0 ] && [ "$(grep -c -- "--results=$tmpdir/one/%h --point=" "$OUT")" -eq 4 ]
ok $? "--plan keeps %h in each line, for the machine that runs it" ||
	diag "exit $status; $(cat "$OUT" "$ERR")"

run $FIXED $GRID --results="$tmpdir/bad/%q"
[ "$status" -eq 2 ] && [ "$(wc -l <"$ERR")" -eq 1 ] &&
	grep -q "^rpcsim: --results=$tmpdir/bad/%q: '%q' is no placeholder (%h: this host's name, %%: a %)\$" "$ERR" &&
	[ ! -e "$tmpdir/bad" ]
ok $? "--results with another %: one line naming it and the placeholders, exit 2" ||
	diag "exit $status; $(cat "$ERR")"

# %% is a %: DIR/a%%b writes into DIR/a%b.
run --alloc=single --requests=40 --file-size=1m --pool-size=16m \
	--sweep=threads=1 --results="$tmpdir/pct/a%%b" --quiet
[ "$status" -eq 0 ] && [ -f "$tmpdir/pct/a%b/threads-1.json" ] &&
	[ "$(find "$tmpdir/pct" -name '*.json' | wc -l)" -eq 1 ]
ok $? "--results=DIR/a%%b: the point's file goes into DIR/a%b" ||
	diag "exit $status; $(cat "$ERR"); $(find "$tmpdir/pct")"

"$COMPARE" --sweep="$tmpdir/one" >"$tmpdir/one.out" 2>"$ERR" &&
	"$COMPARE" --sweep="$tmpdir/one/$host" >"$tmpdir/host.out" 2>>"$ERR" &&
	cmp -s "$tmpdir/one.out" "$tmpdir/host.out" && ! grep -q '^== ' "$tmpdir/one.out"
ok $? "rpcsim-compare --sweep=DIR with one machine's folder: that folder's table" ||
	diag "$(cat "$ERR"; diff "$tmpdir/one.out" "$tmpdir/host.out")"

# --- three machines through GNU parallel ---------------------------------------
if ! command -v parallel >/dev/null 2>&1; then
	skip 5 "GNU parallel not installed"
elif ! unshare --uts true 2>/dev/null; then
	skip 5 "no right to make a UTS namespace (unshare --uts): the machines cannot be played"
else
	run $FIXED $GRID --results="$tmpdir/three/%h" --plan
	printf 'alpha\nbeta\ngamma\n' >"$tmpdir/hosts"
	# PARALLEL_HOME: its caches in the test's folder, not ~/.parallel.
	PARALLEL_HOME=$tmpdir/parallel-home timeout 300 parallel --will-cite \
		--ssh="sh $UTS_SSH" -j1 --onall \
		--sshloginfile "$tmpdir/hosts" <"$OUT" >"$tmpdir/par.out" 2>&1
	pstatus=$?
	[ $pstatus -eq 0 ] &&
		[ "$(hosts "$tmpdir/three")" = "alpha=alpha beta=beta gamma=gamma" ] &&
		[ "$(find "$tmpdir/three" -name '*.json' | wc -l)" -eq 12 ]
	ok $? "--plan | parallel --onall on three machines: a folder each, four points each, the host recorded" ||
		diag "exit $pstatus; $(tail -n 5 "$tmpdir/par.out"); $(hosts "$tmpdir/three")"

	compare_sweep "$tmpdir/three"
	[ "$status" -eq 0 ] && [ ! -s "$ERR" ] &&
		[ "$(grep '^== ' "$OUT" | tr '\n' ' ')" = "== $tmpdir/three/alpha == == $tmpdir/three/beta == == $tmpdir/three/gamma == " ] &&
		[ "$(grep -c '^host \(alpha\|beta\|gamma\) (.*); build ' "$OUT")" -eq 3 ] &&
		! grep -q '\*$' "$OUT"
	ok $? "rpcsim-compare --sweep: each machine's table under its folder, its own host, nothing marked" ||
		diag "exit $status; $(cat "$ERR"; head -n 40 "$OUT")"

	grep -q '^across 3 folders: array, mean per call in us' "$OUT" &&
		grep -q '^across 3 folders: single, mean per call in us' "$OUT" &&
		grep -Eq '^point +threads +io-size +alpha +change +beta +change +gamma +change$' "$OUT"
	ok $? "then a table across the machines per mode, a column pair per machine" ||
		diag "$(sed -n '/^across/,$p' "$OUT")"

	# Every cell of the array table: that machine's mean for that point.
	want=
	i=0
	for name in threads-1_io-size-64k threads-1_io-size-256k threads-2_io-size-64k threads-2_io-size-256k; do
		i=$((i + 1))
		want="$want$i"
		for h in alpha beta gamma; do
			want="$want $(mean "$tmpdir/three/$h/$name.json" array)"
		done
		want="$want;"
	done
	got=$(awk '/^across 3 folders: array/ {on = 1; next}
		   on && /^across/ {on = 0}
		   on && $1 ~ /^[0-9]+$/ {printf "%s %s %s %s;", $1, $4, $6, $8}' "$OUT")
	[ "$got" = "$want" ]
	ok $? "its cells are each machine's means, read back from the result files" ||
		diag "got  $got
want $want"

	# Without a shared folder: --results=./DIR stays relative in the
	# lines, each machine writes under parallel's --workdir, --return
	# copies the folder back (here the "machines" share the files, so
	# the copies come from the work folder into the caller's).
	if ! command -v rsync >/dev/null 2>&1; then
		skip 1 "no rsync (GNU parallel's --return needs it)"
	else
		mkdir "$tmpdir/local"
		(cd "$tmpdir/local" &&
			"$RPCSIM" $FIXED --sweep=threads=1,2 --results=./res/%h \
				--plan >"$tmpdir/plan-rel" 2>"$ERR" &&
			PARALLEL_HOME=$tmpdir/parallel-home timeout 300 \
			parallel --will-cite --ssh="sh $UTS_SSH" -j1 --onall \
				--sshloginfile "$tmpdir/hosts" \
				--workdir "$tmpdir/remote" --return res \
				<"$tmpdir/plan-rel" >"$tmpdir/par2.out" 2>&1)
		pstatus=$?
		[ $pstatus -eq 0 ] &&
			[ "$(grep -c -- ' --results=./res/%h --point=' "$tmpdir/plan-rel")" -eq 2 ] &&
			[ "$(find "$tmpdir/remote/res" -name '*.json' | wc -l)" -eq 6 ] &&
			[ "$(hosts "$tmpdir/local/res")" = "alpha=alpha beta=beta gamma=gamma" ] &&
			[ "$(find "$tmpdir/local/res" -name '*.json' | wc -l)" -eq 6 ]
		ok $? "--results=./DIR: written under parallel's --workdir on each machine, brought back by --return" ||
			diag "exit $pstatus; $(cat "$tmpdir/plan-rel" "$ERR"; tail -n 5 "$tmpdir/par2.out"; find "$tmpdir/local" "$tmpdir/remote" 2>&1 | head -20)"
	fi
fi

# --- folders made by hand ---------------------------------------------------------
mkdir -p "$tmpdir/mixed"
cp -r "$tmpdir/one/$host" "$tmpdir/mixed/a"
run $FIXED --sweep=threads=1,2 --results="$tmpdir/mixed/b"
compare_sweep "$tmpdir/mixed"
[ "$status" -eq 0 ] && grep -q "^== $tmpdir/mixed/b ==" "$OUT" &&
	grep -q "^no table across the folders: $tmpdir/mixed/b holds another grid than $tmpdir/mixed/a\$" "$OUT" &&
	! grep -q '^across ' "$OUT"
ok $? "folders of two grids: each table, and no table across them, saying why" ||
	diag "exit $status; $(cat "$ERR"; tail -n 5 "$OUT")"

compare_sweep "$tmpdir/mixed" --plot="$tmpdir/p.svg"
[ "$status" -eq 2 ] && [ "$(wc -l <"$ERR")" -eq 1 ] &&
	grep -q "^rpcsim-compare: --plot=$tmpdir/p.svg: one folder at a time ($tmpdir/mixed has folders of result files: give one of them)\$" "$ERR"
ok $? "--plot of several folders: one line, exit 2" ||
	diag "exit $status; $(cat "$ERR")"

mkdir -p "$tmpdir/empty/sub"
compare_sweep "$tmpdir/empty"
[ "$status" -eq 1 ] && grep -q "no \*.json result file in it, nor in a folder of it" "$ERR"
ok $? "a folder with no result file anywhere: exit 1, said" ||
	diag "exit $status; $(cat "$ERR")"

exit_status
exit $?
