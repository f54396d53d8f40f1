#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Instructions per path of libpagepool's fast paths under callgrind
# (deterministic, unlike times): builds bench/callgrind-driver.c against
# the libpagepool of BUILD_DIR (default: build) and prints, for each path
# (a: bulk array, l: bulk list, s: single page), the total instruction
# count of the run (20,000 x 64 pages).  Compare two builds, or a build
# before and after a change.  The pcp lists run with the lock
# implementation: rseq sections do not run under valgrind.
#
#   sh bench/callgrind.sh [BUILD_DIR]

set -u

me=callgrind.sh

usage()
{
	cat <<USAGE
Usage: $me [BUILD_DIR]
Build bench/callgrind-driver.c against the libpagepool of BUILD_DIR
(default: build, relative to the current directory) and print, for each
path (a: bulk array + release, l: bulk list + release, s: single page +
put), callgrind's total instruction count of 20,000 rounds of 64 pages,
with PAGEPOOL_PCP=lock (rseq sections do not run under valgrind).
PAGEPOOL_PROFILE applies.  Needs valgrind (apt-get install valgrind).
Exit status: 0 done, 1 runtime failure (no libpagepool in BUILD_DIR, no
valgrind, a failed build or run), 2 bad command line.
USAGE
}

build=
for arg do
	case $arg in
	-h|--help) usage; exit 0 ;;
	-*)
		echo "$me: unknown option '$arg'; see --help" >&2
		exit 2
		;;
	*)
		if [ -n "$build" ]; then
			echo "$me: '$arg': one BUILD_DIR only ('$build' given first); see --help" >&2
			exit 2
		fi
		build=$arg
		;;
	esac
done
srcdir=$(cd "$(dirname "$0")/.." && pwd) || exit 1
build=${build:-build}
case $build in /*) ;; *) build=$(pwd)/$build ;; esac
lib=$build/alloc/.libs/libpagepool.so
if [ ! -f "$lib" ]; then
	echo "$me: BUILD_DIR '$build': no alloc/.libs/libpagepool.so there (run make first)" >&2
	exit 1
fi
command -v valgrind >/dev/null 2>&1 || {
	echo "$me: valgrind not found (apt-get install valgrind)" >&2
	exit 1
}

# shellcheck source=bench/common.sh
. "$srcdir/bench/common.sh"
tmp=
cleanup()
{
	[ -z "$tmp" ] || rm -rf "$tmp"
}
bench_traps cleanup
tmp=$(mktemp -d "${TMPDIR:-/tmp}/callgrind.XXXXXX") || exit 1

bench_cc "$me" "$srcdir" "$build" bench/callgrind-driver.c "$tmp/driver"
for mode in a l s; do
	# In the background, waited for: a signal's trap ends it by its pid.
	bench_run_child env PAGEPOOL_PCP=lock valgrind --tool=callgrind \
		--callgrind-out-file="$tmp/out.$mode" "$tmp/driver" $mode \
		>"$tmp/log.$mode" 2>&1
	rc=$?
	if [ $rc -ne 0 ]; then
		cat "$tmp/log.$mode" >&2
		echo "$me: valgrind --tool=callgrind of path $mode failed (exit $rc)" >&2
		exit 1
	fi
	ir=$(sed -n 's/^summary: *//p' "$tmp/out.$mode" 2>/dev/null)
	if [ -z "$ir" ]; then
		echo "$me: path $mode: no summary line in callgrind's output" >&2
		exit 1
	fi
	echo "$mode $ir"
done
