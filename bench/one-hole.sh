#!/bin/sh
# SPDX-License-Identifier: MIT
#
# one-hole.sh: what refilling a WRITE's one hole costs, and where the time
# goes.  rpcsim's one-page refills (its "by refill: 1 page" figures) come
# out cheaper with the array call than with a single page in the plain
# build, though the array call does the bulk path's work besides the
# page.  This builds bench/one-hole.c against the libpagepool of a build
# tree and times four ways of refilling one hole among 259 populated
# slots (s: the pre-5.13 loop, r: the same scan stepping over runs of
# populated slots, a: the bulk array call, p: the page alone), round
# after round in turn (s r a p s r a p ...) on one CPU, and prints each
# way's median ns a refill and the scans' ns per populated slot.  A
# benchmark, not a test.
#
#   sh bench/one-hole.sh [--builddir=DIR] [--rounds=N] [--iterations=N] [--cpu=N]

set -u
# shellcheck source=bench/common.sh
. "$(dirname "$0")/common.sh"

me=one-hole.sh
builddir=build rounds=9 iterations=2000000 cpu=''

usage()
{
	cat <<EOF
Usage: $me [--builddir=DIR] [--rounds=N] [--iterations=N] [--cpu=N]
Time four ways of refilling one hole among 259 populated slots (an
rq_pages[] after a WRITE) with the libpagepool of build tree DIR
(default: build), each way's refill and put --iterations times a run
(1..100000000, default 2000000), the ways in turn for --rounds rounds
(1..1000, default 9), all on CPU --cpu (default: the first this shell
may run on).  Prints each
way's median ns a refill and the two scans' ns per populated slot.
PAGEPOOL_PROFILE (default here: kernel, as rpcsim's) and PAGEPOOL_PCP
apply.  Ways:
  s  pre-5.13 svc_alloc_arg(): each slot, while empty, pp_alloc_page()
  r  the same scan stepping over a run of populated slots in its own loop
  a  one pp_alloc_pages_bulk_array() over the 259 slots (5.13's)
  p  pp_alloc_page() into the hole alone, no scan
Exit status: 0 done, 1 runtime failure (no libpagepool built, the driver
not building or failing), 2 bad command line, 128 + N ended by signal N
(the run in progress is ended too).
EOF
}

# count OPTION VALUE MAX: VALUE is a count from 1 to MAX (bench_count).
count()
{
	bench_count "$2" "$3" || {
		echo "$me: $1: '$2' is not a count from 1 to $3" >&2
		exit 2
	}
}

for arg in "$@"; do
	case $arg in
	--builddir=*)
		builddir=${arg#*=}
		if [ -z "$builddir" ]; then
			echo "$me: --builddir: '' is not a build tree" >&2
			exit 2
		fi
		;;
	--rounds=*) rounds=${arg#*=}; count --rounds "$rounds" 1000 ;;
	--iterations=*)
		iterations=${arg#*=}
		count --iterations "$iterations" 100000000
		;;
	--cpu=*)
		cpu=${arg#*=}
		if [ -z "$cpu" ]; then
			echo "$me: --cpu: '' is not a CPU number" >&2
			exit 2
		fi
		;;
	-h|--help) usage; exit 0 ;;
	*)
		echo "$me: '$arg': not an option (--builddir, --rounds, --iterations, --cpu, --help)" >&2
		exit 2
		;;
	esac
done
bench_cpu "$me" "it keeps the ways on one CPU"
srcdir=$(cd "$(dirname "$0")/.." && pwd)
case $builddir in /*) ;; *) builddir=$(pwd)/$builddir ;; esac
libdir=$builddir/alloc/.libs
if [ ! -f "$libdir/libpagepool.so" ]; then
	echo "$me: --builddir=$builddir: no alloc/.libs/libpagepool.so there (run make first)" >&2
	exit 1
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/one-hole.XXXXXX") || exit 1
# A signal ends the run in progress by its pid (bench_run_child).
bench_traps 'rm -rf "$tmp"'
# A sanitizer build's driver is built with the same sanitizer, as rpcsim
# is in that build: its scans are instrumented as rpcsim's loops are.
san=$(sed -n 's/^SAN_CFLAGS = //p' "$builddir/Makefile" 2>/dev/null)
bench_cc "$me" "$srcdir" "$builddir" bench/one-hole.c "$tmp/one-hole"
: "${PAGEPOOL_PROFILE:=kernel}"
export PAGEPOOL_PROFILE

echo "rounds $rounds of $iterations refills, CPU $cpu, PAGEPOOL_PROFILE=$PAGEPOOL_PROFILE${PAGEPOOL_PCP:+ PAGEPOOL_PCP=$PAGEPOOL_PCP}, $builddir${san:+ ($san)}"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
i=0
while [ "$i" -lt "$rounds" ]; do
	for way in s r a p; do
		bench_run_child taskset -c "$cpu" "$tmp/one-hole" $way \
			"$iterations" >>"$tmp/out" || {
			echo "$me: one-hole $way failed" >&2
			exit 1
		}
	done
	i=$((i + 1))
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
awk "$bench_awk_median"'
{ runs[$1] = runs[$1] " " $2 }
END {
	what["s"] = "pre-5.13 loop + pp_alloc_page()"
	what["r"] = "run-skipping scan + pp_alloc_page()"
	what["a"] = "pp_alloc_pages_bulk_array(259)"
	what["p"] = "pp_alloc_page() alone"
	printf "%-4s %-38s %10s\n", "way", "refill of one hole (and its put)", "median ns"
	split("s r a p", ways, " ")
	for (k = 1; k <= 4; k++) {
		m[ways[k]] = median(runs[ways[k]])
		printf "%-4s %-38s %10.1f\n", ways[k], what[ways[k]], m[ways[k]]
	}
	printf "per populated slot (258): s %.2f ns, r %.2f ns, s/r %.2f; a/s %.2f\n",
	       (m["s"] - m["p"]) / 258, (m["r"] - m["p"]) / 258,
	       (m["r"] > m["p"] ? (m["s"] - m["p"]) / (m["r"] - m["p"]) : 0),
	       (m["s"] > 0 ? m["a"] / m["s"] : 0)
}' "$tmp/out"
