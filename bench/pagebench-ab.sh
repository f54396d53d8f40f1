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
Run DIR/pagebench/pagebench of build A, then of build B, N times (default
9), and print per configuration the median ns per page of each and B/A.
Every run is on CPU --cpu (taskset; default: the first CPU this shell may
run on), so that both sides meet the same CPU.  The other options go to
every pagebench run (default: --allocators=buddy --api=single,array
--bulk=64 --runs=3).
EOF
}

while [ $# -gt 0 ]; do
	case $1 in
	--a=*) a=${1#*=} ;;
	--b=*) b=${1#*=} ;;
	--rounds=*) rounds=${1#*=} ;;
	--cpu=*) cpu=${1#*=} ;;
	-h|--help) usage; exit 0 ;;
	*) break ;;
	esac
	shift
done
case $rounds in
''|*[!0-9]*|0)
	echo "pagebench-ab.sh: --rounds: '$rounds' is not a count of 1 or more" >&2
	exit 2
	;;
esac
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
trap 'rm -f "$out" "$out.run"' EXIT
trap 'exit 1' HUP INT PIPE TERM

echo "rounds $rounds, A $a, B $b, CPU $cpu, pagebench $*"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
i=0
while [ "$i" -lt "$rounds" ]; do
	for side in A B; do
		if [ $side = A ]; then dir=$a; else dir=$b; fi
		taskset -c "$cpu" "$dir/pagebench/pagebench" "$@" >"$out.run" || {
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
}
END {
	printf "%-50s %9s %9s %7s\n", "configuration", "A ns", "B ns", "B/A"
	for (k = 1; k <= n; k++) {
		ma = median(runs[order[k], "A"])
		mb = median(runs[order[k], "B"])
		printf "%-50s %9.3f %9.3f %7.3f\n", order[k], ma, mb,
		       (ma > 0 ? mb / ma : 0)
	}
}' "$out"
