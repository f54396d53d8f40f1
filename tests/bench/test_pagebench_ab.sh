#!/bin/sh
# SPDX-License-Identifier: MIT
#
# bench/pagebench-ab.sh with pagebench in smoke mode (a few pages per
# configuration: the table's format and arithmetic, never the timing):
# this build as both A and B gives the header, the load lines, one row per
# configuration with both medians and B/A equal to their quotient, and
# each median the median of the rounds' figures; a configuration only
# one side printed gets '-' for the other and for B/A, and a warning
# naming it; the script's options and --help are its own wherever they
# come among pagebench's; --help says how it is used; bad input (a
# --rounds of 00 or of 20 digits too) exits 2 with one line naming the
# option; a build without pagebench exits 1.

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
# shellcheck source=tests/utils/tap.sh
. "$top_srcdir/tests/utils/tap.sh"
# shellcheck source=tests/bench/common.sh
. "$top_srcdir/tests/bench/common.sh"

tap_need_prog "$top_builddir/pagebench/pagebench"
bench_script pagebench-ab.sh

plan_tests 22

run --help
ok $? "--help exits 0" ||
	diag "status $status"
grep -q '^Usage: pagebench-ab.sh --a=DIR --b=DIR' "$OUT"
ok $? "--help prints the usage"

# Three rounds of the same build on both sides, two configurations.
run --a="$top_builddir" --b="$top_builddir" --rounds=3 --smoke \
	--allocators=buddy --api=single,array --bulk=64
ok $? "this build as A and B: exit 0" ||
	diag "status $status: $(cat "$ERR")"
[ "$(grep -c '^load average \(before\|after\):' "$OUT")" = 2 ] &&
	head -n 1 "$OUT" | grep -q '^rounds 3, A .*, B .*, pagebench --smoke'
ok $? "the header and the load average before and after" ||
	diag "$(cat "$OUT")"
grep -q '^configuration  *A ns  *B ns  *B/A$' "$OUT"
ok $? "the table's header line" ||
	diag "$(cat "$OUT")"
rows=$(sed -n '/^configuration/,$p' "$OUT" | sed 1d)
[ "$(printf '%s\n' "$rows" | grep -c 'allocator=buddy api=single bulk=1 ')" = 1 ] &&
	[ "$(printf '%s\n' "$rows" | grep -c 'allocator=buddy api=array bulk=64 variant=merged free=release ')" = 1 ] &&
	[ "$(printf '%s\n' "$rows" | wc -l)" = 2 ]
ok $? "one row per configuration" ||
	diag "$rows"
printf '%s\n' "$rows" | awk '
{
	a = $(NF - 2); b = $(NF - 1); r = $NF
	if (a <= 0 || b <= 0)
		exit 1
	d = b / a - r
	if (d > 0.001 || d < -0.001)
		exit 1
}'
ok $? "B/A is B's median over A's" ||
	diag "$rows"

# A side whose pagebench prints known figures: the median is computed.
mkdir -p "$tmpdir/fake/pagebench"
cat >"$tmpdir/fake/pagebench/pagebench" <<'EOF'
#!/bin/sh
# Prints the next of 5, 1, 3 ns per page, one per call.
n=$(cat "$0.n" 2>/dev/null || echo 0)
echo $((n + 1)) >"$0.n"
set -- 5 1 3
shift $((n % 3))
echo "pagebench allocator=buddy api=single bulk=1 runs=1 pages_per_run=9 ns_per_page=$1.000 min_ns=1 max_ns=1 spread_pct=0 tsc_per_page=1"
EOF
chmod +x "$tmpdir/fake/pagebench/pagebench"
run --a="$tmpdir/fake" --b="$tmpdir/fake" --rounds=3
# A gets 5, 3, 1 (calls 1, 3, 5); B gets 1, 5, 3: both medians 3.
grep -q '^allocator=buddy api=single bulk=1  *3\.000  *3\.000  *1\.000$' "$OUT"
ok $? "each side's figure is the median of its rounds" ||
	diag "$(cat "$OUT")"

# A configuration that one side alone prints: no median for the other
# side (never an invented 0), no B/A, and a warning naming it.
mkdir -p "$tmpdir/more/pagebench"
cat >"$tmpdir/more/pagebench/pagebench" <<'EOF'
#!/bin/sh
echo "$*" >>"$0.args"
echo "pagebench allocator=buddy api=single bulk=1 runs=1 pages_per_run=9 ns_per_page=6.000 min_ns=1 max_ns=1 spread_pct=0 tsc_per_page=1"
echo "pagebench allocator=lifo api=single bulk=1 runs=1 pages_per_run=9 ns_per_page=1.000 min_ns=1 max_ns=1 spread_pct=0 tsc_per_page=1"
EOF
chmod +x "$tmpdir/more/pagebench/pagebench"
rm -f "$tmpdir/fake/pagebench/pagebench.n"
run --a="$tmpdir/fake" --b="$tmpdir/more" --rounds=1
[ "$status" = 0 ] &&
	grep -q '^allocator=buddy api=single bulk=1  *5\.000  *6\.000  *1\.200$' "$OUT" &&
	grep -q '^allocator=lifo api=single bulk=1  *-  *1\.000  *-$' "$OUT" &&
	[ "$(cat "$ERR")" = "pagebench-ab.sh: warning: allocator=lifo api=single bulk=1: only B printed it" ]
ok $? "a configuration B alone printed: '-' for A and B/A, one warning naming it" ||
	diag "status $status: $(cat "$OUT" "$ERR")"

# The script's options after pagebench's are still its own; pagebench
# gets the rest in their order.
rm -f "$tmpdir/more/pagebench/pagebench.args"
run --allocators=buddy --a="$tmpdir/more" --api=single --b="$tmpdir/more" --rounds=1
[ "$status" = 0 ] &&
	[ "$(sort -u "$tmpdir/more/pagebench/pagebench.args")" = "--allocators=buddy --api=single" ]
ok $? "--a, --b and --rounds after pagebench's options: taken, the rest to pagebench" ||
	diag "status $status: $(cat "$ERR" "$tmpdir/more/pagebench/pagebench.args")"
rm -f "$tmpdir/more/pagebench/pagebench.args"
run --smoke --a="$tmpdir/more" --b="$tmpdir/more" --help
[ "$status" = 0 ] && grep -q '^Usage: pagebench-ab.sh' "$OUT" &&
	[ ! -f "$tmpdir/more/pagebench/pagebench.args" ]
ok $? "--help after a pagebench option: the usage, exit 0, nothing run" ||
	diag "status $status: $(cat "$OUT" "$ERR")"

# Both sides run on the CPU --cpu names: a pagebench that reports the
# CPUs it may run on.
allowed=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)
first=${allowed%%[,-]*}
last=$(printf '%s\n' "$allowed" | tr ',' '\n' | sed 's/.*-//' | tail -n 1)
where=$tmpdir/where/pagebench/pagebench
mkdir -p "$tmpdir/where/pagebench"
{
	echo '#!/bin/sh'
	echo "sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status >>\"\$0.cpus\""
	echo 'echo "pagebench allocator=buddy api=single bulk=1 runs=1 pages_per_run=9 ns_per_page=1.000 min_ns=1 max_ns=1 spread_pct=0 tsc_per_page=1"'
} >"$where"
chmod +x "$where"
run --a="$tmpdir/where" --b="$tmpdir/where" --rounds=2
[ "$status" = 0 ] && [ "$(sort -u "$where.cpus")" = "$first" ] &&
	head -n 1 "$OUT" | grep -q ", CPU $first, "
ok $? "by default every run is on the first CPU allowed ($first), said in the header" ||
	diag "status $status: $(cat "$ERR" "$where.cpus")"
rm -f "$where.cpus"
run --a="$tmpdir/where" --b="$tmpdir/where" --rounds=2 --cpu="$last"
[ "$status" = 0 ] && [ "$(sort -u "$where.cpus")" = "$last" ] &&
	[ "$(wc -l <"$where.cpus")" = 4 ]
ok $? "--cpu=$last: all four runs on CPU $last" ||
	diag "status $status: $(cat "$ERR" "$where.cpus")"

# bad_input ARGS... -- WHAT: exit 2, nothing on stdout, one line naming it.
bad_input()
{
	what=$1
	shift
	run "$@"
	[ "$status" = 2 ] && [ ! -s "$OUT" ] &&
		[ "$(wc -l <"$ERR")" = 1 ] && grep -q -- "$what" "$ERR"
	ok $? "bad input $* exits 2 with one line naming $what" ||
		diag "status $status, stderr: $(cat "$ERR")"
}
bad_input --rounds --a="$top_builddir" --b="$top_builddir" --rounds=0
bad_input --rounds --a="$top_builddir" --b="$top_builddir" --rounds=x
bad_input "--rounds: '00'" --a="$top_builddir" --b="$top_builddir" --rounds=00
bad_input "--rounds: '99999999999999999999'" --a="$top_builddir" --b="$top_builddir" --rounds=99999999999999999999
bad_input '--a and --b' --a="$top_builddir"
bad_input "--cpu: 'x' is not a CPU number" --a="$top_builddir" --b="$top_builddir" --cpu=x
bad_input '--cpu=99999: not a CPU this shell may run on' --a="$top_builddir" --b="$top_builddir" --cpu=99999

run --a="$top_builddir" --b="$tmpdir/nowhere"
[ "$status" = 1 ] && grep -q 'nowhere/pagebench/pagebench not built' "$ERR"
ok $? "a build without pagebench: exit 1, named" ||
	diag "status $status, stderr: $(cat "$ERR")"
# SIGTERM while pagebench runs: the script ends (143), and so do the
# pagebench it started and its temporary file.
sleeper "$tmpdir/slow/pagebench/pagebench" "$tmpdir/slow/pid"
sigterm_run "$tmpdir/slow/pid" --a="$tmpdir/slow" --b="$tmpdir/slow" --rounds=1
sigterm_ok "SIGTERM mid-run: exit 143, its pagebench ended, no temporary file left" pagebench

exit_status
