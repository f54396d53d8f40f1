#!/bin/sh
# SPDX-License-Identifier: MIT
#
# plugin-cost.sh: what an allocator costs behind <pagepool/backend.h>'s
# table, next to the buddy backend whose paths are inline.  The plugin is
# examples/backend-lifo, a per-CPU LIFO over the zone's pages: the same
# job as the buddy backend's pcp lists, through the table (an indirect
# call per callback, the library's checks of each page a plugin hands
# out, the generic paths around them).  One pagebench run with
# --interleave, buddy on the lock pcp lists (what every non-buddy backend
# runs), so the two sides differ by the table and the plugin's own code.
# A benchmark, not a test: "make bench-plugin" runs it; the figures it
# gives back the claim of <pagepool/backend.h> that describing the
# built-in backends through the table would cost their fast paths.
#
# Run from a build tree:  sh $srcdir/bench/plugin-cost.sh [OPTION]...
# Options other than --builddir go to pagebench, after its defaults.

set -u

# shellcheck source=bench/common.sh
. "$(dirname "$0")/common.sh"

builddir=.
defaults="--allocators=buddy --api=single,list,array --bulk=64 --runs=11 --interleave"

# --builddir and -h/--help wherever they come; the other options go to
# pagebench in their order.
for arg do
	shift
	case $arg in
	--builddir=*)
		builddir=${arg#*=}
		if [ -z "$builddir" ]; then
			echo "plugin-cost.sh: --builddir: '' is not a build tree" >&2
			exit 2
		fi
		;;
	-h|--help)
		cat <<USAGE
Usage: plugin-cost.sh [--builddir=DIR] [PAGEBENCH OPTION]...
buddy (lock pcp lists) against examples/backend-lifo as a plugin: one
interleaved pagebench run, as a Markdown table.
pagebench runs with: $defaults --backend=plugin:LIFO
then the options given.  DIR: the build tree (default: the current one).
USAGE
		exit 0
		;;
	*) set -- "$@" "$arg" ;;
	esac
done

pagebench=$builddir/pagebench/pagebench
lifo=$builddir/tests/unit/plugin/.libs/backend-lifo.so
if [ ! -x "$pagebench" ] || [ ! -f "$lifo" ]; then
	echo "plugin-cost.sh: $pagebench or $lifo not built (make, then make -C tests unit/plugin/backend-lifo.la)" >&2
	exit 1
fi
out=$(mktemp "${TMPDIR:-/tmp}/plugin-cost.XXXXXX") || exit 1
# A signal ends the pagebench run by its pid (bench_run_child).
bench_traps 'rm -f "$out"'

# shellcheck disable=SC2086
set -- $defaults --backend=plugin:"$lifo" "$@"
pb_run "$out" "$pagebench" PAGEPOOL_PCP=lock -- "$@" || exit $?
echo "| API | bulk | buddy ns/page | plugin ns/page | plugin / buddy |"
echo "| --- | ---: | ---: | ---: | ---: |"
pb_columns "$out" | awk '
{
	key = $2 " | " $3
	if (!(key in seen)) {
		seen[key] = 1
		order[++n] = key
	}
	ns[$1 "/" key] = $4
}
END {
	for (i = 1; i <= n; i++) {
		b = ns["buddy/" order[i]]
		p = ns["plugin/" order[i]]
		if (b == "" || p == "")
			continue
		printf "| %s | %.2f | %.2f | %.2fx |\n", order[i], b, p,
		       (b > 0 ? p / b : 0)
	}
}'
