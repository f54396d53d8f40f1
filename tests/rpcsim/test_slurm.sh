#!/bin/sh
# SPDX-License-Identifier: MIT
#
# rpcsim --sweep ... --plan=slurm: the sbatch script (a job array of one
# task per point, --exclusive, a log per task, the throttle of
# --plan=slurm:K), whose srun runs for task N exactly the words of
# --plan's line N, with spaces and quotes in the paths (a stand-in srun
# prints them); a grid larger than Slurm's default MaxArraySize, in parts
# (task N of a part runs point N + RPCSIM_POINT_BASE); refused values of
# --plan.  Then the script on a real
# one-node Slurm of the test's own (tests/utils/slurm.sh: munged,
# slurmctld and slurmd on loopback, started and stopped by pid), submitted
# from a folder whose name holds a space into a --results folder whose
# name holds a space and a quote, and rpcsim-compare --sweep reads every
# point's result.  That part is skipped with the reason when Slurm or
# MUNGE is not installed (.ci/run installs them) or not as root.

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
# shellcheck source=tests/rpcsim/common.sh
. "$top_srcdir/tests/rpcsim/common.sh"
# shellcheck source=tests/utils/slurm.sh
. "$top_srcdir/tests/utils/slurm.sh"

plan_tests 22

res="$tmpdir/my res/it's"
GRID="--sweep=threads=1,2"
FIXED="--alloc=array --requests=200 --file-size=1m"

# shellcheck disable=SC2086
run $FIXED $GRID --results="$res" --plan=slurm
cp "$OUT" "$tmpdir/job.sh"
[ "$status" -eq 0 ] && [ "$(head -n 1 "$tmpdir/job.sh")" = '#!/bin/sh' ] &&
	grep -qx '#SBATCH --array=1-2%2' "$tmpdir/job.sh" &&
	grep -qx '#SBATCH --exclusive' "$tmpdir/job.sh" &&
	grep -qx '#SBATCH --nodes=1' "$tmpdir/job.sh" &&
	grep -qx '#SBATCH --output=rpcsim-sweep-%A_%a.out' "$tmpdir/job.sh" &&
	grep -q '^exec srun --ntasks=1 ' "$tmpdir/job.sh" &&
	grep -q -- '--point="$((SLURM_ARRAY_TASK_ID + ${RPCSIM_POINT_BASE:-0}))"$' "$tmpdir/job.sh" &&
	! grep -q 'RPCSIM_POINT_BASE=' "$tmpdir/job.sh" && [ ! -s "$ERR" ] &&
	sh -n "$tmpdir/job.sh" && [ ! -e "$res" ]
ok $? "--plan=slurm: an sbatch script, one array task per point, exclusive, a log per task; nothing run" ||
	diag "exit $status: $(cat "$tmpdir/job.sh" "$ERR")"

# shellcheck disable=SC2086
run $FIXED $GRID --results="$res" --plan=slurm:1
[ "$status" -eq 0 ] && grep -qx '#SBATCH --array=1-2%1' "$OUT"
ok $? "--plan=slurm:1: one task at a time" || diag "exit $status: $(head -n 12 "$OUT")"

# A stand-in srun: its arguments, one a line, after --ntasks=1.
mkdir "$tmpdir/bin"
cat >"$tmpdir/bin/srun" <<'EOF'
#!/bin/sh
[ "$1" = --ntasks=1 ] || exit 3
shift
printf '%s\n' "$@"
EOF
chmod +x "$tmpdir/bin/srun"
# shellcheck disable=SC2086
run $FIXED $GRID --results="$res" --plan
sed -n 2p "$OUT" >"$tmpdir/line2"
# the words of the plan's line 3, as a shell reads them
eval "set -- $(cat "$tmpdir/line2")"
printf '%s\n' "$@" >"$tmpdir/want2"
PATH="$tmpdir/bin:$PATH" SLURM_ARRAY_TASK_ID=2 sh "$tmpdir/job.sh" \
	>"$tmpdir/got2" 2>"$ERR"
[ $? -eq 0 ] && [ -s "$tmpdir/want2" ] && cmp -s "$tmpdir/got2" "$tmpdir/want2" &&
	grep -qx -- "--results=$res" "$tmpdir/got2"
ok $? "task 2 runs the words of --plan's line 2, the quote and the space kept" ||
	diag "$(diff "$tmpdir/want2" "$tmpdir/got2")"

# A grid of more points than a job array holds where MaxArraySize is
# Slurm's default (1001: task ids up to 1000): the array holds the first
# 1000, the head gives each part's sbatch line, task N of a part runs
# point N + RPCSIM_POINT_BASE.
big="--sweep=threads=$(seq -s, 1 50) --sweep=pcp-batch=$(seq -s, 1 50)"
# shellcheck disable=SC2086
run $FIXED $big --results="$res" --plan=slurm:300
cp "$OUT" "$tmpdir/big.sh"
[ "$status" -eq 0 ] && grep -qx '#SBATCH --array=1-1000%300' "$tmpdir/big.sh" &&
	[ "$(grep -c '^#   sbatch --array=' "$tmpdir/big.sh")" -eq 3 ] &&
	grep -qx '#   sbatch --array=1-500%300 --export=ALL,RPCSIM_POINT_BASE=2000 FILE' "$tmpdir/big.sh" &&
	grep -qx '# or, where MaxArraySize is above 2500: sbatch --array=1-2500%300 FILE' "$tmpdir/big.sh" &&
	sed -n 2p "$tmpdir/big.sh" | grep -q 'task N runs point N + RPCSIM_POINT_BASE of 2500,$' &&
	grep -q 'Submit with "sbatch FILE" in the parts below;' "$tmpdir/big.sh" &&
	! grep -q '^#.*RPCSIM_POINT_BASE\|parts below' "$tmpdir/job.sh" &&
	[ "$(wc -l <"$ERR")" -eq 1 ] &&
	grep -q '^rpcsim: --plan=slurm: 2500 points, more than a Slurm job array holds by default' "$ERR"
ok $? "--plan=slurm, 2500 points: an array of 1000, three parts at the head, which says so, said on stderr" ||
	diag "exit $status: $(head -n 18 "$tmpdir/big.sh"; cat "$ERR")"
# A throttle above a part's tasks: that part's throttle is its tasks.
# shellcheck disable=SC2086
run $FIXED $big --results="$res" --plan=slurm:800
[ "$status" -eq 0 ] && grep -qx '#SBATCH --array=1-1000%800' "$OUT" &&
	[ "$(grep '^#   sbatch --array=' "$OUT" | cut -d' ' -f5)" = "\
--array=1-1000%800
--array=1-1000%800
--array=1-500%500" ]
ok $? "--plan=slurm:800 of 2500 points: the last part of 500 throttled at 500" ||
	diag "exit $status: $(grep '^#   sbatch' "$OUT")"
# shellcheck disable=SC2086
run $FIXED $big --results="$res" --plan
sed -n 2003p "$OUT" >"$tmpdir/line2003"
eval "set -- $(cat "$tmpdir/line2003")"
printf '%s\n' "$@" >"$tmpdir/want2003"
PATH="$tmpdir/bin:$PATH" SLURM_ARRAY_TASK_ID=3 RPCSIM_POINT_BASE=2000 \
	sh "$tmpdir/big.sh" >"$tmpdir/got2003" 2>"$ERR"
[ $? -eq 0 ] && [ -s "$tmpdir/want2003" ] &&
	cmp -s "$tmpdir/got2003" "$tmpdir/want2003" &&
	grep -qx -- "--point=2003" "$tmpdir/got2003"
ok $? "task 3 of the part at RPCSIM_POINT_BASE=2000 runs --plan's line 2003" ||
	diag "$(diff "$tmpdir/want2003" "$tmpdir/got2003")"

PATH="$tmpdir/bin:$PATH" sh "$tmpdir/job.sh" >"$OUT" 2>"$ERR"
status=$?
[ "$status" -ne 0 ] && [ ! -s "$OUT" ] &&
	grep -q 'SLURM_ARRAY_TASK_ID.*run this script with sbatch' "$ERR"
ok $? "the script outside a job array: refused, nothing run" ||
	diag "exit $status: $(cat "$OUT" "$ERR")"

# shellcheck disable=SC2086
check_bad_inputs rpcsim "--plan=slurm:0	--plan=slurm:0: K is the number of tasks that run at once, 1 to 100000
--plan=slurm:x	--plan=slurm:x: K is the number of tasks
--plan=slurm:	--plan=slurm:: K is the number of tasks
--plan=slurmy	--plan=slurmy: expected parallel, slurm or slurm:K (K tasks at a time)
--plan=json	--plan=json: expected parallel, slurm or slurm:K" \
	$FIXED $GRID --results="$res"

# --- on a real one-node Slurm -------------------------------------------------
why=
if sm=$(slurm_missing); then
	why="no$sm (Debian's slurmctld, slurmd, slurm-client, munge)"
elif ! have_python; then
	why="no python3 (to find free ports)"
fi
if [ -z "$why" ]; then
	tap_at_exit slurm_down
	slurm_up "$tmpdir/slurm" || why="$slurm_why"
fi
if [ -n "$why" ]; then
	skip_rest "$why"
fi

mkdir "$tmpdir/sub mit"
cd "$tmpdir/sub mit" || bail_out "cd"
timeout 300 sbatch --wait "$tmpdir/job.sh" >"$OUT" 2>"$ERR"
status=$?
[ "$status" -eq 0 ] && grep -q '^Submitted batch job [0-9]' "$OUT"
ok $? "sbatch --wait: the two tasks ended, exit 0" ||
	diag "exit $status: $(cat "$OUT" "$ERR"; tail -n 5 "$tmpdir/slurm/slurmctld.log")"
job=$(sed -n 's/^Submitted batch job \([0-9]*\).*/\1/p' "$OUT")
logs=$(ls "$tmpdir/sub mit" | grep -c "^rpcsim-sweep-${job}_[1-2]\\.out\$")
named=0
for t in 1 2; do
	grep -q "^point $t/2 " "$tmpdir/sub mit/rpcsim-sweep-${job}_$t.out" \
		2>/dev/null && named=$((named + 1))
done
[ "$logs" -eq 2 ] && [ "$named" -eq 2 ]
ok $? "a log per task, rpcsim-sweep-JOB_TASK.out in sbatch's folder, each naming its point" ||
	diag "$(ls "$tmpdir/sub mit"; cat "$tmpdir/sub mit"/*.out)"
[ "$(ls "$res" | grep -c '\.json$')" -eq 2 ]
ok $? "every point's result file in --results" || diag "$(ls -a "$res")"
run_cmd 60 "$COMPARE" --sweep="$res"
[ "$status" -eq 0 ] && grep -q '^sweep: 2 of 2 points' "$OUT"
ok $? "rpcsim-compare --sweep reads the two points" ||
	diag "exit $status: $(cat "$OUT" "$ERR")"
# Submitted again, the points are done: nothing runs again.
timeout 300 sbatch --wait "$tmpdir/job.sh" >"$OUT" 2>"$ERR"
status=$?
job=$(sed -n 's/^Submitted batch job \([0-9]*\).*/\1/p' "$OUT")
[ "$status" -eq 0 ] && [ -n "$job" ] &&
	[ "$(cat "$tmpdir/sub mit/rpcsim-sweep-${job}"_*.out | grep -c ': done already (')" -eq 2 ]
ok $? "submitted again: each task finds its point done" ||
	diag "exit $status: $(cat "$ERR" "$tmpdir/sub mit/rpcsim-sweep-${job}"_*.out 2>&1)"

exit_status
