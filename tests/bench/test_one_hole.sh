#!/bin/sh
# SPDX-License-Identifier: MIT
#
# bench/one-hole.sh with a few refills a run (its table and arithmetic,
# never the timing): --help names the four ways; a run prints the header,
# the load lines, one row per way and the per-slot line computed from the
# rows; every refill's page comes back (the driver fails otherwise: the
# pool's destroy refuses a pool with pages out); bad input (counts of 20
# digits, a leading 0) exits 2 with one line naming the option, and the
# driver refuses a count strtol() cannot hold instead of running for
# ever; a build tree without libpagepool, or a
# pool that cannot be made (a bad PAGEPOOL_PROFILE), exits 1 saying why.

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
# shellcheck source=tests/utils/tap.sh
. "$top_srcdir/tests/utils/tap.sh"
# shellcheck source=tests/bench/common.sh
. "$top_srcdir/tests/bench/common.sh"

top_builddir=$(cd "$top_builddir" && pwd) || bail_out "no $top_builddir"
[ -f "$top_builddir/alloc/.libs/libpagepool.so" ] ||
	plan_skip_all "no alloc/.libs/libpagepool.so in $top_builddir"
command -v "${CC:-cc}" >/dev/null || plan_skip_all "no C compiler"
bench_script one-hole.sh

plan_tests 16

run --help
ok $? "--help exits 0" ||
	diag "status $status"
[ "$(grep -c '^  [srap]  ' "$OUT")" = 4 ] && grep -q '^Usage: one-hole.sh' "$OUT"
ok $? "--help gives the usage and the four ways" ||
	diag "$(cat "$OUT")"

for profile in kernel lean; do
	PAGEPOOL_PROFILE=$profile run --builddir="$top_builddir" --rounds=3 \
		--iterations=2000
	ok $? "$profile: exit 0" ||
		diag "status $status: $(cat "$ERR")"
done
head -n 1 "$OUT" | grep -q "^rounds 3 of 2000 refills, CPU [0-9]*, PAGEPOOL_PROFILE=lean, $top_builddir" &&
	[ "$(grep -c '^load average \(before\|after\):' "$OUT")" = 2 ]
ok $? "the header names the rounds, the profile and the build; the load lines" ||
	diag "$(cat "$OUT")"
rows=$(sed -n '/^way /,/^per populated/p' "$OUT" | sed '1d;$d')
[ "$(printf '%s\n' "$rows" | awk '$1 ~ /^[srap]$/ && $NF > 0' | wc -l)" = 4 ] &&
	[ "$(printf '%s\n' "$rows" | wc -l)" = 4 ]
ok $? "one row per way, each with a median above 0" ||
	diag "$(cat "$OUT")"
# The last line from the rows: (s - p) / 258, (r - p) / 258, their
# quotient, a / s.
printf '%s\n' "$rows" | awk -v line="$(tail -n 1 "$OUT")" '
{ m[$1] = $NF }
function near(x, y) { return x - y < 0.006 && y - x < 0.006 }
END {
	n = split(line, f, /[ ,;]+/)
	# per populated slot (258): s S ns, r R ns, s/r Q; a/s A
	if (f[5] != "s" || f[8] != "r" || f[11] != "s/r" || f[13] != "a/s")
		exit 1
	s = (m["s"] - m["p"]) / 258; r = (m["r"] - m["p"]) / 258
	exit !(near(f[6], s) && near(f[9], r) &&
	       (r <= 0 || near(f[12], s / r)) && near(f[14], m["a"] / m["s"]))
}'
ok $? "the per-slot line is computed from the rows" ||
	diag "$(cat "$OUT")"

run --rounds=0
[ "$status" = 2 ] && [ "$(wc -l <"$ERR")" = 1 ] && grep -q -- "--rounds: '0'" "$ERR"
ok $? "--rounds=0: exit 2, one line naming it" ||
	diag "status $status: $(cat "$ERR")"
run --iterations=1e6
[ "$status" = 2 ] && [ "$(wc -l <"$ERR")" = 1 ] && grep -q -- "--iterations: '1e6'" "$ERR"
ok $? "--iterations=1e6: exit 2, one line naming it" ||
	diag "status $status: $(cat "$ERR")"
for bad in --rounds=99999999999999999999 --rounds=00 \
	--iterations=99999999999999999999; do
	run $bad
	[ "$status" = 2 ] && [ "$(wc -l <"$ERR")" = 1 ] &&
		grep -q -- "^one-hole.sh: ${bad%%=*}: '${bad#*=}' is not a count from 1 to " "$ERR"
	ok $? "$bad: exit 2, one line naming it" ||
		diag "status $status: $(cat "$ERR")"
done
# The driver itself: a count beyond LONG_MAX was clamped by strtol() and
# ran for ever.
libdir=$top_builddir/alloc/.libs
${CC:-cc} -O2 -I"$top_srcdir/include" -I"$top_builddir/include" \
	"$top_srcdir/bench/one-hole.c" -o "$tmpdir/one-hole" -L"$libdir" \
	-lpagepool -Wl,-rpath,"$libdir" 2>"$ERR" &&
	run_cmd 20 "$tmpdir/one-hole" p 99999999999999999999
[ "$status" = 2 ] && grep -q "^one-hole: ROUNDS '99999999999999999999' is not a count from 1 to " "$ERR"
ok $? "the driver: a count of 20 digits, exit 2 at once, not a clamped run" ||
	diag "status $status: $(cat "$ERR")"
run --cpu=x
[ "$status" = 2 ] && [ "$(wc -l <"$ERR")" = 1 ] && grep -q -- "--cpu: 'x'" "$ERR"
ok $? "--cpu=x: exit 2, one line naming it" ||
	diag "status $status: $(cat "$ERR")"
PAGEPOOL_PROFILE=fast run --builddir="$top_builddir" --rounds=1 --iterations=10
[ "$status" = 1 ] && grep -q "PAGEPOOL_PROFILE='fast': expected lean or kernel" "$ERR" &&
	grep -q "^one-hole: no pool: Invalid argument$" "$ERR"
ok $? "a pool that cannot be made: exit 1, the library's line and the cause" ||
	diag "status $status: $(cat "$ERR")"
run --builddir="$tmpdir"
[ "$status" = 1 ] && [ "$(wc -l <"$ERR")" = 1 ] && grep -q "no alloc/.libs/libpagepool.so" "$ERR"
ok $? "a build tree without libpagepool: exit 1, one line" ||
	diag "status $status: $(cat "$ERR")"
