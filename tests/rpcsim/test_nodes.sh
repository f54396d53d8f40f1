#!/bin/sh
# SPDX-License-Identifier: MIT
#
# rpcsim --nodes=N: the pool gets N nodes, each mode's counters a line per
# node in /proc/vmstat's words, whose numa_hit + numa_miss add up over the
# nodes to what the nodes handed out (numa_hit + numa_miss = pages
# allocated on the node; foreign mirrors miss); one node prints none;
# bad values and other backends are usage errors.

# shellcheck source=tests/rpcsim/common.sh
. "$top_srcdir/tests/rpcsim/common.sh"

plan_tests 10

# node_lines: the "node N:" lines of $OUT.
node_lines()
{
	grep -Ec '^  node [0-9]+: +numa_hit [0-9]+, numa_miss [0-9]+, numa_foreign [0-9]+, numa_local [0-9]+, numa_other [0-9]+, bulk_fallback_remote [0-9]+$' "$OUT"
}

# sum FIELD: FIELD's values over the node lines of $OUT, added.
sum()
{
	sed -n "s/^  node [0-9]*: .*[ ,]$1 \\([0-9]*\\).*/\\1/p" "$OUT" |
		awk '{ s += $1 } END { print s + 0 }'
}

run --alloc=array --requests=300 --file-size=2m --threads=2 --nodes=3
ran_ok "--nodes=3 runs"
[ "$(node_lines)" -eq 3 ]
ok $? "three node lines after the mode's counters" || diag "$(cat "$OUT")"
[ "$(sum numa_miss)" -eq "$(sum numa_foreign)" ] &&
	[ "$(sum numa_hit)" -gt 0 ] &&
	[ "$(($(sum numa_hit) + $(sum numa_miss)))" -eq \
	  "$(($(sum numa_local) + $(sum numa_other)))" ]
ok $? "each page counted once as hit or miss and once as local or other; misses mirrored as foreign" ||
	diag "$(grep '^  node' "$OUT")"

run --alloc=all --requests=200 --file-size=2m --threads=2
ran_ok "one node (the default) runs"
[ "$(node_lines)" -eq 0 ]
ok $? "one node: no node lines (the output is as before)"

check_bad_inputs rpcsim "--nodes=0	--nodes=0
--nodes=9	expected an integer from 1 to 8" --requests=10
run --nodes=2 --backend=jemalloc --requests=10
[ "$status" -eq 2 ] && grep -Eq "only buddy pools have nodes|no jemalloc" "$ERR"
ok $? "--nodes=2 --backend=jemalloc is a usage error" || diag "$(cat "$ERR")"
