#!/bin/sh
# SPDX-License-Identifier: MIT
#
# pagebench-baselines.sh: doc/pagebench.md's comparison of the baselines a user
# would pick (DPDK's rte_mempool, tcmalloc) beside libpagepool's buddy
# allocator and the floors (LIFO; LIFO plus the per-page contract; that on
# per-CPU rseq lists), as a Markdown table ready to paste, then the
# targets (buddy, and each floor, against mempool and tcmalloc): one
# pagebench run with --interleave (every configuration warmed up, then run
# k of each in turn, so that a shared machine's noise falls on all alike),
# the median, fastest and slowest run in ns per page, TSC ticks, and each
# row against the floor at the same API and bulk.  A benchmark, not a
# test: "make bench-baselines" runs it.
#
# Run from a build tree:  sh $srcdir/bench/pagebench-baselines.sh [OPTION]...
# Options other than --builddir go to pagebench, after its defaults (so
# that --runs=21 or --bulk=1,16,64 override them).  mempool and tcmalloc
# are optional at configure time: a pagebench built without one (its
# --help says "not built here") runs the defaults without it, said in
# one line on stderr; asked for by name it stays pagebench's error.

set -u

# shellcheck source=bench/common.sh
. "$(dirname "$0")/common.sh"

allocators=buddy,mempool,tcmalloc,lifo,contract,percpu
rest="--api=single,array --bulk=1,64 --runs=11 --interleave"
defaults="--allocators=$allocators $rest"
pb_help_more="A baseline this pagebench was not built with is left out of the defaults."

# The default allocators this pagebench has: those its --help lists as
# "not built here" are left out, and said so.
drop_unbuilt()
{
	missing=$("$pb_bin" --help | sed -n 's/^ *not built here: //p' | tr -d ' ')
	[ -n "$missing" ] || return 0
	kept=
	for a in $(echo "$allocators" | tr , ' '); do
		case ,$missing, in *,"$a",*) continue ;; esac
		kept=$kept${kept:+,}$a
	done
	defaults="--allocators=$kept $rest"
	echo "pagebench-baselines.sh: not built in this pagebench, left out of the defaults: $missing" >&2
}
pb_before_run=drop_unbuilt

pb_main pagebench-baselines.sh \
	"One interleaved pagebench run of the baselines, as a Markdown table." "$@"
echo "| allocator | API | bulk | median ns/page | fastest-slowest | spread | TSC ticks | / lifo |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"
pb_columns "$pb_file" | awk '
{
	n++
	alloc[n] = $1; api[n] = $2; bulk[n] = $3; ns[n] = $4; lo[n] = $5
	hi[n] = $6; spread[n] = $7; tsc[n] = $8
	if ($1 == "lifo")
		floor[$2 "/" $3] = $4
	at[$1 "/" $2 "/" $3] = $4
}
# "A / B = R" of the medians at @key, or nothing if one is missing.
function against(a, b, key) {
	if (!((a "/" key) in at) || !((b "/" key) in at) || at[b "/" key] <= 0)
		return ""
	return sprintf("%s / %s = %.2fx", a, b, at[a "/" key] / at[b "/" key])
}
function targets(what, key, base, goal,    line, r, i, n, names) {
	n = split("buddy contract percpu", names, " ")
	line = ""
	for (i = 1; i <= n; i++) {
		r = against(names[i], base, key)
		if (r != "")
			line = line (line == "" ? "" : ", ") r
	}
	if (line != "")
		printf "\n%s (target %s): %s\n", what, goal, line
}
END {
	for (i = 1; i <= n; i++) {
		key = api[i] "/" bulk[i]
		ratio = "-"
		if ((key in floor) && floor[key] > 0)
			ratio = sprintf("%.2fx", ns[i] / floor[key])
		printf "| %s | %s | %s | %.2f | %.2f-%.2f | %.0f %% | %s | %s |\n",
		       alloc[i], api[i], bulk[i], ns[i], lo[i], hi[i],
		       spread[i], tsc[i], ratio
	}
	# The issue-10 targets, and the floors against them.
	targets("array at 64", "array/64", "mempool", "1.20x or less")
	targets("single page", "single/1", "tcmalloc", "1.00x or less")
}'
