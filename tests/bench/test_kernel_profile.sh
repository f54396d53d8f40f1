#!/bin/sh
# SPDX-License-Identifier: MIT
#
# bench/kernel-profile.sh with pagebench in smoke mode (a few pages per
# configuration: the table's format and arithmetic, never the timing):
# the command and header, the published table's source, one row per API
# and bulk size with the published cycles, their ns at 3.6 GHz and the
# ratios, each "lab / single" the quotient of the lab's figures and each
# "off by" the distance between the two ratios, and a summary line whose
# counts agree with the rows; --help says how it is used, also after
# --builddir and pagebench's options; a build without pagebench exits 1.
# With --kernel=FILE (a file of kernel-bench.sh --output, made up here)
# the reference columns are FILE's ticks and ns, its ratios to single and
# the distances to the lab's, held to the same targets, with FILE's
# kernel named (and TCG's caveat when it ran there); a file that is none
# is refused with exit 2; a kernel without the list call (6.14 on) gets
# its rows and a line saying why no page_pool prediction.

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
# shellcheck source=tests/utils/tap.sh
. "$top_srcdir/tests/utils/tap.sh"
# shellcheck source=tests/bench/common.sh
. "$top_srcdir/tests/bench/common.sh"

tap_need_prog "$top_builddir/pagebench/pagebench"
bench_script kernel-profile.sh

plan_tests 17

run --help
[ "$status" -eq 0 ] && grep -q '^Usage: kernel-profile.sh \[--builddir=DIR\]' "$OUT" &&
	grep -q -- '--profile=kernel --free=put' "$OUT"
ok $? "--help: the usage and pagebench's options" || diag "status $status"

# --help is the script's wherever it comes: not handed to pagebench.
run --builddir="$top_builddir" --smoke --help
[ "$status" -eq 0 ] && grep -q '^Usage: kernel-profile.sh \[--builddir=DIR\]' "$OUT" &&
	! grep -q 'pagebench \[OPTION\]' "$OUT"
ok $? "--help after --builddir and a pagebench option: the script's usage" ||
	diag "status $status: $(head -n 5 "$OUT")"

run --builddir="$top_builddir" --smoke --runs=1
[ "$status" -eq 0 ]
ok $? "--smoke: exit 0" || diag "status $status: $(head -c 1000 "$ERR")"
grep -q '^    \$ pagebench --allocators=buddy --profile=kernel --free=put --api=all --bulk=1,2,3,4,8,16,32,64,128' "$OUT" &&
	grep -q '^    .*buddy profile: kernel$' "$OUT"
ok $? "the command as run, and the header saying the kernel profile ran" ||
	diag "$(head -n 12 "$OUT")"
grep -q 'Jesper Dangaard Brouer, linux-mm, 30 March 2021' "$OUT" &&
	grep -q 'mm-bulk-rebase-v5r9' "$OUT"
ok $? "the published table's source" || diag "$(sed -n '/^Published/,/^$/p' "$OUT")"
rows=$(api_rows)
[ "$(printf '%s\n' "$rows" | wc -l)" -eq 19 ] &&
	[ "$(api_configs "$rows")" = \
	" single 1 , list 1 , list 2 , list 3 , list 4 , list 8 , list 16 , list 32 , list 64 , list 128 , array 1 , array 2 , array 3 , array 4 , array 8 , array 16 , array 32 , array 64 , array 128 ," ]
ok $? "one row per API and bulk size, single first" || diag "$rows"
# The published cycles, and ns at 3.6 GHz.
printf '%s\n' "$rows" | awk -F'|' '
	BEGIN { split("199 206 154 145 142 142 137 135 134 133 202 144 134 128 120 116 113 110 110", c, " ") }
	{ n++; if ($7 + 0 != c[n] || sprintf("%.1f", c[n] / 3.6) + 0 != $8 + 0) bad = 1 }
	END { exit bad }'
ok $? "the published cycles per row, and their ns at 3.6 GHz" || diag "$rows"
# lab / single is the quotient of the lab's ns; off by, the distance
# between the lab's ratio and the published one (within rounding).
printf '%s\n' "$rows" | awk -F'|' '
	function near(a, b) { return a - b < 0.0015 && b - a < 0.0015 }
	NR == 1 { single = $4; pub = $7; next }
	{
		r = $4 / single; p = $7 / pub
		if (!near($6 + 0, r) || !near($9 + 0, p) ||
		    (100 * (r - p) / p) - ($10 + 0) > 0.2 ||
		    ($10 + 0) - (100 * (r - p) / p) > 0.2)
			bad = 1
	}
	END { exit bad }'
ok $? "lab / single, v5r9 / single and the distance between them, row by row" ||
	diag "$rows"
# The summary counts the rows that meet each target.  The script decides
# on unrounded figures and prints rounded ones (ns to 0.01, the distance
# to 0.1 %), so a row within rounding of a bound may count either way:
# the counts must lie between those of the rows clearly in and those of
# the rows in or near.
printf '%s\n' "$rows" | awk -F'|' -v sum="$(grep '^time per page within 2x' "$OUT")" '
	{
		ns = $4 + 0; pns = ($7 + 0) / 3.6
		tlo += ns - 0.005 >= pns / 2 && ns + 0.005 <= pns * 2
		thi += ns + 0.005 >= pns / 2 && ns - 0.005 <= pns * 2
	}
	NR > 1 {
		d = $10 + 0; if (d < 0) d = -d
		rlo += d + 0.05 <= 20; rhi += d - 0.05 <= 20
	}
	END {
		if (split(sum, w, /[:;] */) < 4) exit 1
		split(w[2], a, " "); split(w[4], b, " ")
		t = a[1] + 0; r = b[1] + 0
		exit !(a[3] == 19 && b[3] == 18 && t >= tlo && t <= thi &&
		       r >= rlo && r <= rhi)
	}'
ok $? "the summary line counts the rows that meet each target" ||
	diag "$(grep -A1 '^time per page' "$OUT")"
# pp_predicted ROWS REF: $OUT's page_pool line gives (single - array@64)
# / (single - list@64) of the lab's ROWS (within their rounding to
# 0.01 ns), or says the lab's list gains nothing, and then REF.
pp_predicted()
{
	pp_line=$(sed -n 's/^(single - array@64) \/ (single - list@64) per page: //p' "$OUT")
	printf '%s\n' "$1" | awk -F'|' -v line="$pp_line" -v ref="$2" '
	$2 ~ /single/ { s = $4 } $2 ~ /list/ && $3 == 64 { l = $4 } $2 ~ /array/ && $3 == 64 { a = $4 }
	END {
		if (line !~ ("^lab [0-9.]+, " ref " \\(the kernel.s XDP run: 2\\.82\\)$"))
			exit s <= l ? line !~ ("^lab - \\(no list gain\\), " ref " ") : 1
		split(line, w, /[ ,]+/); p = (s - a) / (s - l)
		exit !(s > l && w[2] - p < 0.006 && p - w[2] < 0.006)
	}'
}
# v5r9's from its cycles: 89 / 65.
pp_predicted "$rows" "v5r9 1.37"
ok $? "page_pool's array gain / list gain as the lab's rows and v5r9's predict it" ||
	diag "'$pp_line'; $rows"

# --kernel=FILE: a made-up measurement, single 100 ns, list@n 90 - n/2,
# array@n 80 - n/4 (ns), ticks 2.5 times ns; list@128's line missing, so
# its row is left out; run under TCG.  The kernel's line, single's and
# the array's end in CR LF, as after an editor that writes them: read
# alike.
kfile=$tmpdir/kernel.txt
{
	echo "ppkbench: tag=7 ran=tcg"
	printf 'ppkbench: tag=7 kernel=9.9.9-test pages=512 runs=3 tsc_khz=2500000 init_on_alloc=1 list=1\r\n'
	printf 'ppkbench: tag=7 api=single bulk=1 ns_per_page=100.000 ticks_per_page=250.000\r\n'
	for n in 1 2 3 4 8 16 32 64; do
		awk -v n="$n" 'BEGIN { printf("ppkbench: tag=7 api=list bulk=%d ns_per_page=%.3f ticks_per_page=%.3f\n", n, 90 - n / 2, 2.5 * (90 - n / 2)) }'
	done
	for n in 1 2 3 4 8 16 32 64 128; do
		awk -v n="$n" 'BEGIN { printf("ppkbench: tag=7 api=array bulk=%d ns_per_page=%.3f ticks_per_page=%.3f\r\n", n, 80 - n / 4, 2.5 * (80 - n / 4)) }'
	done
	echo "ppkbench: tag=7 free_pages_before=1000 free_pages_after=1000"
} >"$kfile"
run --builddir="$top_builddir" --smoke --runs=1 --kernel="$kfile"
[ "$status" -eq 0 ] && grep -q "^Kernel: Linux 9.9.9-test measured by kernel-bench.sh ($kfile)" "$OUT" &&
	grep -q '^512 pages; init_on_alloc on\.$' "$OUT" &&
	grep -q "^It ran under QEMU's TCG: its figures are the emulator's" "$OUT" &&
	! grep -q 'v5r9' "$OUT" &&
	grep -q '^| API | bulk | lab ns/page | lab ticks | lab / single | kernel ticks | kernel ns | kernel / single | ratio off by |$' "$OUT"
ok $? "--kernel: the kernel named, its settings, TCG's caveat, the kernel's columns" ||
	diag "status $status: $(head -c 1500 "$OUT") $(cat "$ERR")"
krows=$(api_rows)
[ "$(api_configs "$krows")" = \
	" single 1 , list 1 , list 2 , list 3 , list 4 , list 8 , list 16 , list 32 , list 64 , array 1 , array 2 , array 3 , array 4 , array 8 , array 16 , array 32 , array 64 , array 128 ," ]
ok $? "--kernel: a row for each configuration the kernel measured (no list@128)" ||
	diag "$krows"
printf '%s\n' "$krows" | awk -F'|' '
	function near(a, b, e) { return a - b < e && b - a < e }
	{
		split($2 " " $3, k, " "); n = k[2]
		want = k[1] == "single" ? 100 : k[1] == "list" ? 90 - n / 2 : 80 - n / 4
		if (!near($8 + 0, want, 0.006) || !near($7 + 0, 2.5 * want, 0.06))
			bad = 1
		if (k[1] == "single") { single = $4; next }
		r = $4 / single; p = want / 100
		if (!near($6 + 0, r, 0.0015) || !near($9 + 0, p, 0.0015) ||
		    !near($10 + 0, 100 * (r - p) / p, 0.2))
			bad = 1
	}
	END { exit bad }'
ok $? "--kernel: the kernel's ns and ticks per row, its ratio to single, the distance" ||
	diag "$krows"
grep -q '^time per page within 2x of the kernel: [0-9]* of 18; ratio to single within +-20 %: [0-9]* of 17$' "$OUT"
ok $? "--kernel: the summary counts 18 rows and 17 ratios against the kernel" ||
	diag "$(grep -A1 '^time per page' "$OUT")"
# the made-up kernel's: (100 - 64) / (100 - 58)
pp_predicted "$krows" "kernel 0.86"
ok $? "--kernel: page_pool's prediction from the lab's rows and the kernel's" ||
	diag "'$pp_line'; $krows"
# A kernel from 6.14 on: no list rows, so no list gain to predict from.
grep -v ' api=list ' "$kfile" | sed 's/ list=1/ list=0/' >"$tmpdir/nolist.txt"
run --builddir="$top_builddir" --smoke --runs=1 --kernel="$tmpdir/nolist.txt"
[ "$status" -eq 0 ] &&
	[ "$(api_configs "$(api_rows)")" = " single 1 , array 1 , array 2 , array 3 , array 4 , array 8 , array 16 , array 32 , array 64 , array 128 ," ] &&
	grep -q '^No page_pool prediction against this kernel: it has no bulk list call$' "$OUT" &&
	! grep -q "^page_pool's refill" "$OUT"
ok $? "--kernel: a kernel without the list call: its 10 rows, and no page_pool prediction, said" ||
	diag "status $status: $(api_rows) $(tail -n 4 "$OUT") $(cat "$ERR")"
printf 'ppkbench: tag=7 api=list bulk=1 ns_per_page=1.000 ticks_per_page=2.000\n' >"$tmpdir/nosingle.txt"
printf 'ppkbench: tag=7 api=single bulk=1 ns_per_page=0.000 ticks_per_page=0.000\n' >"$tmpdir/zero.txt"
refused=0
for f in nosingle zero none; do
	run --builddir="$top_builddir" --smoke --kernel="$tmpdir/$f.txt"
	[ "$status" -eq 2 ] && [ "$(wc -l <"$ERR")" -eq 1 ] &&
		grep -q "^kernel-profile.sh: --kernel: '$tmpdir/$f.txt' is not a file of kernel-bench.sh --output with a single-page line above 0 ns$" "$ERR" ||
		refused=$((refused + 1))
done
[ "$refused" -eq 0 ]
ok $? "--kernel: a file without a single-page line, with one of 0 ns, or none, is refused (exit 2)" ||
	diag "status $status: $(cat "$ERR")"
