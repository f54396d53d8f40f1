#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Each allocation mode runs, with the reply pages released on a completion
# thread and inline, and prints its line in the seed's shape:
#	Bulk array:   4.590 us per call over 517,442 calls
# --alloc=all ends with the seed's three-line table, under the ratios of
# its means; --repeat adds the across-run statistics; --quiet prints only
# the per-call line; the allocator's debug checks (poisoned free pages)
# find no use after free.

# Option lists in variables are split into words on purpose.
# shellcheck disable=SC2086
# shellcheck source=tests/rpcsim/common.sh
. "$top_srcdir/tests/rpcsim/common.sh"

small="--file-size=2m --threads=2"
num='[0-9]+\.[0-9]{3}'
calls='[0-9]{1,3}(,[0-9]{3})*'

plan_tests 26

# seed_line LABEL: $OUT has exactly one line of LABEL's in the seed's shape.
seed_line()
{
	[ "$(grep -Ec "^$1: +$num us per call over $calls calls\$" "$OUT")" -eq 1 ]
}

for mode in single list array; do
	case $mode in
	single)	label="Single page" ;;
	list)	label="Bulk list" ;;
	array)	label="Bulk array" ;;
	esac
	for where in thread inline; do
		run --alloc=$mode --completion=$where --requests=300 $small
		ran_ok "--alloc=$mode --completion=$where runs"
		seed_line "$label" && grep -q "^SUMMARY alloc=$mode " "$OUT" &&
			[ "$(summary calls)" = 300 ]
		ok $? "--alloc=$mode --completion=$where: '$label:' line and SUMMARY" ||
			diag "$(cat "$OUT")"
	done
done

# --alloc=all: the three lines in the seed's order and columns, last.
run --alloc=all --requests=300 $small
ran_ok "--alloc=all runs"
tail -n 3 "$OUT" >"$tmpdir/table"
tail_re=" us per call over $calls calls\$"
{
	sed -n 1p "$tmpdir/table" | grep -Eq "^Single page: +$num$tail_re" &&
	sed -n 2p "$tmpdir/table" | grep -Eq "^Bulk list:  +$num$tail_re" &&
	sed -n 3p "$tmpdir/table" | grep -Eq "^Bulk array: +$num$tail_re"
}
ok $? "--alloc=all ends with the seed's three-line table" || diag "$(cat "$OUT")"
# Under 100 us the numbers line up as in the seed: "%-12s%7.3f".
cols=$(awk '{ print index($0, " us per call") }' "$tmpdir/table" | sort -u | wc -l)
[ "$cols" -eq 1 ]
ok $? "--alloc=all table columns line up" || diag "$(cat "$tmpdir/table")"
tail -n 4 "$OUT" | head -n 1 |
	grep -Eq '^ratios: single/list [0-9.]+x, single/array [0-9.]+x, list/array [0-9.]+x$'
ok $? "--alloc=all: the ratios of the means above the table" ||
	diag "$(tail -n 4 "$OUT")"
# Each ratio is the first mode's mean over the second's: the table's
# means, rounded to 3 decimals, give it within that rounding (each mean
# off by 0.0005 at most) and the ratio's own (0.005).
tail -n 4 "$OUT" | awk '
NR == 1 { for (i = 2; i <= NF; i += 2) { r[$i] = $(i + 1) + 0 } }
/^Single page:/ { us["single"] = $3 }
/^Bulk list:/ { us["list"] = $3 }
/^Bulk array:/ { us["array"] = $3 }
END {
	split("single/list single/array list/array", k, " ")
	for (i = 1; i <= 3; i++) {
		split(k[i], ab, "/")
		a = us[ab[1]]; b = us[ab[2]]; q = a / b
		tol = 0.005 + q * (0.0005 / a + 0.0005 / b) + 1e-9
		if (r[k[i]] - q > tol || q - r[k[i]] > tol) {
			print k[i] " " r[k[i]] "x, the means give " q
			bad = 1
		}
	}
	exit bad
}' >"$tmpdir/why"
ok $? "--alloc=all: each ratio is the quotient of the table's means" ||
	diag "$(cat "$tmpdir/why") $(tail -n 4 "$OUT")"
missing=
for key in "pcp_refill" "zone_lock" "bulk_fallback_trylock" "bulk_partial" \
	   "no-progress calls" "pages per call" "requests/s" "stddev" "p99.9"; do
	grep -q "$key" "$OUT" || missing="$missing '$key'"
done
[ -z "$missing" ]
ok $? "report shows latency, refill, retries and pool counters" ||
	diag "missing:$missing"

# --repeat: kunit's avg/stddev and stats --trim-outliers' min-max(mean).
run --alloc=array --repeat=3 --requests=200 $small
ran_ok "--repeat=3 runs"
runs_re="runs: +avg $num us, stddev $num us over 3 runs;"
runs_re="$runs_re min-max\\(mean\\) $num-$num\\($num\\) us"
grep -Eq "$runs_re" "$OUT" &&
	[ "$(grep -c '^  \[run [1-3]/3\] Bulk array: ' "$OUT")" -eq 3 ] &&
	[ "$(summary calls)" = 600 ]
ok $? "--repeat=3 reports avg/stddev and min-max(trimmed mean) over 3 runs" ||
	diag "$(cat "$OUT")"

# --quiet: the per-call line only; with --alloc=all, the table only.
run --alloc=list --quiet --requests=100 $small
[ "$status" -eq 0 ] && [ "$(wc -l <"$OUT")" -eq 1 ] && seed_line "Bulk list"
ok $? "--quiet prints only the per-call line" || diag "$(cat "$OUT")"
run --alloc=all --quiet --requests=100 $small
[ "$status" -eq 0 ] && [ "$(wc -l <"$OUT")" -eq 4 ]
ok $? "--quiet --alloc=all prints only the ratios and the table" || diag "$(cat "$OUT")"

# --duration stops a run on time (generous bound: sanitizer builds).
start=$(date +%s)
run --alloc=array --duration=0.5 $small
end=$(date +%s)
[ "$status" -eq 0 ] && [ $((end - start)) -le 20 ] && seed_line "Bulk array"
ok $? "--duration=0.5 stops the run ($((end - start)) s)"

# Poisoned free pages: any write by rpcsim after a put is caught.
run_env PAGEPOOL_DEBUG=1 --alloc=all --requests=300 --warmup=20 $small
ran_ok "allocator debug checks find nothing (PAGEPOOL_DEBUG=1, --warmup)"

# The progress line appears when stderr is a terminal.
if command -v script >/dev/null 2>&1 &&
   script -qec true /dev/null >/dev/null 2>&1; then
	script -qec "'$RPCSIM' --alloc=array --duration=2.5 $small" \
		/dev/null >"$OUT" 2>&1 </dev/null
	grep -q 'calls/s' "$OUT" && grep -q 'pages/call' "$OUT"
	ok $? "a progress line on a terminal" || diag "$(head -c 1000 "$OUT")"
else
	skip 1 "script(1) is not available"
fi
run --alloc=array --requests=100 $small
! grep -q 'calls/s' "$ERR"
ok $? "no progress line when stderr is not a terminal"

exit_status
