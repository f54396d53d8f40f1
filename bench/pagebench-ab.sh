#!/bin/sh
# SPDX-License-Identifier: MIT
#
# pagebench-ab.sh: compare two builds of pagebench (and so of libpagepool)
# on this machine, the way a change to a fast path is judged here: the two
# run in turn, A B A B ..., for a number of rounds, so that a shared
# machine's noise falls on both alike; then one line per configuration
# with each side's median ns per page over the rounds and the ratio B/A.
# Each round is one pagebench run of each build, with the options given,
# both on the same CPU (--cpu; pagebench pins itself to the CPU it starts
# on, and the two CPUs of the development machine ran the same build at
# 7.5 and 12.5 ns a page for minutes, which turned a 3 % change into 8 %,
# or into 50 % either way).  A benchmark, not a test.
#
#   sh bench/pagebench-ab.sh --a=OLD/build --b=NEW/build [--rounds=N] \
#       [--cpu=N] [PAGEBENCH OPTION]...

set -u
# shellcheck source=bench/common.sh
. "$(dirname "$0")/common.sh"

a='' b='' rounds=9 cpu=''

usage()
{
	cat <<EOF
Usage: pagebench-ab.sh --a=DIR --b=DIR [--rounds=N] [--cpu=N] [PAGEBENCH OPTION]...
Run DIR/pagebench/pagebench of build A, then of build B, N times (1..1000,
default 9), and print per configuration the median ns per page of each
and B/A; a configuration that only one side printed gets '-' for the
other side and for B/A, and a warning on stderr naming it.
Every run is on CPU --cpu (taskset; default: the first CPU this shell may
run on), so that both sides meet the same CPU.  These options may come
anywhere; the other options go, in their order, to every pagebench run
(default: --allocators=buddy --api=single,array --bulk=64 --runs=3).
Exit status: 0 done, 1 runtime failure (a build missing, pagebench
failing), 2 bad command line, 128 + N ended by signal N (the pagebench
in progress is ended too).
EOF
}

# This script's options wherever they are; the rest, in their order,
# stay in "$@" for pagebench.
for arg do
	shift
	case $arg in
	--a=*) a=${arg#*=} ;;
	--b=*) b=${arg#*=} ;;
	--rounds=*) rounds=${arg#*=} ;;
	--cpu=*)
		cpu=${arg#*=}
		if [ -z "$cpu" ]; then
			echo "pagebench-ab.sh: --cpu: '' is not a CPU number" >&2
			exit 2
		fi
		;;
	-h|--help) usage; exit 0 ;;
	*) set -- "$@" "$arg" ;;
	esac
done
if ! bench_count "$rounds" 1000; then
	echo "pagebench-ab.sh: --rounds: '$rounds' is not a count from 1 to 1000" >&2
	exit 2
fi
bench_cpu pagebench-ab.sh "it puts both sides on one CPU"
for side in "$a" "$b"; do
	if [ -z "$side" ]; then
		echo "pagebench-ab.sh: --a and --b are required (build trees)" >&2
		exit 2
	fi
	if [ ! -x "$side/pagebench/pagebench" ]; then
		echo "pagebench-ab.sh: $side/pagebench/pagebench not built" >&2
		exit 1
	fi
done
[ $# -gt 0 ] || set -- --allocators=buddy --api=single,array --bulk=64 --runs=3

out=$(mktemp "${TMPDIR:-/tmp}/pagebench-ab.XXXXXX") || exit 1
# A signal ends the pagebench in progress by its pid (bench_run_child).
bench_traps 'rm -f "$out" "$out.run"'

echo "rounds $rounds, A $a, B $b, CPU $cpu, pagebench $*"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
i=0
while [ "$i" -lt "$rounds" ]; do
	for side in A B; do
		if [ $side = A ]; then dir=$a; else dir=$b; fi
		bench_run_child taskset -c "$cpu" "$dir/pagebench/pagebench" \
			"$@" >"$out.run" || {
			echo "pagebench-ab.sh: $dir/pagebench/pagebench failed" >&2
			rm -f "$out.run"
			exit 1
		}
		sed -n "s/^pagebench allocator=/$side allocator=/p" "$out.run" >>"$out" || exit 1
	done
	i=$((i + 1))
done
rm -f "$out.run"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
awk "$bench_awk_median"'
{
	key = ""
	for (i = 2; i <= NF; i++) {
		if ($i ~ /^(allocator|api|bulk|variant|free)=/)
			key = key (key == "" ? "" : " ") $i
		if ($i ~ /^ns_per_page=/)
			ns = substr($i, 13)
	}
	if (!(key in seen)) {
		seen[key] = 1
		order[++n] = key
	}
	runs[key, $1] = runs[key, $1] " " ns
	seen_by[key, $1] = 1
}
END {
	printf "%-50s %9s %9s %7s\n", "configuration", "A ns", "B ns", "B/A"
	for (k = 1; k <= n; k++) {
		# A side that never printed the configuration has no median:
		# "-", never the 0 of an empty list.
		ma = ((order[k], "A") in seen_by) ? median(runs[order[k], "A"]) : "-"
		mb = ((order[k], "B") in seen_by) ? median(runs[order[k], "B"]) : "-"
		if (ma == "-" || mb == "-") {
			printf "pagebench-ab.sh: warning: %s: only %s printed it\n",
			       order[k], (ma == "-" ? "B" : "A") > "/dev/stderr"
		}
		printf "%-50s %9s %9s %7s\n", order[k],
		       (ma == "-" ? "-" : sprintf("%.3f", ma)),
		       (mb == "-" ? "-" : sprintf("%.3f", mb)),
		       (ma == "-" || mb == "-" || ma <= 0 ? "-" : sprintf("%.3f", mb / ma))
	}
}' "$out"
