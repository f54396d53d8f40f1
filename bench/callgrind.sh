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
set -eu
srcdir=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
case $build in /*) ;; *) build=$(pwd)/$build ;; esac
lib=$build/alloc/.libs/libpagepool.so
if [ ! -f "$lib" ]; then
	echo "callgrind.sh: BUILD_DIR '$build': no alloc/.libs/libpagepool.so there (run make first)" >&2
	exit 2
fi
command -v valgrind >/dev/null || {
	echo "callgrind.sh: valgrind not found" >&2
	exit 1
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
${CC:-cc} -O2 -I"$srcdir/include" -I"$build/include" \
	"$srcdir/bench/callgrind-driver.c" -o "$tmp/driver" \
	-L"$build/alloc/.libs" -lpagepool -Wl,-rpath,"$build/alloc/.libs"
for mode in a l s; do
	PAGEPOOL_PCP=lock valgrind --tool=callgrind \
		--callgrind-out-file="$tmp/out.$mode" "$tmp/driver" $mode \
		>"$tmp/log.$mode" 2>&1 || { cat "$tmp/log.$mode" >&2; exit 1; }
	ir=$(sed -n 's/^summary: *//p' "$tmp/out.$mode")
	echo "$mode $ir"
done
