#!/bin/sh
# SPDX-License-Identifier: MIT
#
# bench-analyze.sh: how fast rpcsim-analyze reads a trace, against
# babeltrace2 --output-format=dummy on the same trace (the decoding
# floor: the same source.ctf.fs -> muxer graph, no work per event).
# rpcsim-analyze --jobs=1 (one graph, as babeltrace2) must be at least
# 80 % as fast: time(bt2) / time(ours) >= 0.80; rpcsim-analyze --jobs=N
# (N decoding processes, default the online CPUs) is held to
# --target-ratio (default 1.5: 1.5 times as fast as the floor).  Not part
# of "make check".
#
# It records a trace of tracegen (tests/tracegen, built by "make check"
# or "make -C tests tracegen") with a blocking channel, so that nothing
# is discarded, then times each reader REPEAT times, interleaved (bt2,
# --jobs=1, --jobs=N, bt2, ...), after one untimed run each (page cache
# warm), and compares the medians.  The load average before and after
# says whether the machine was busy.
#
# The recording is kept away from the user's LTTng state: a session
# daemon of its own, a LTTNG_HOME of its own and, as root, a private
# /run (tests/utils/lttng.sh).  Where that cannot be had it refuses
# (exit 1, the reason) unless given --use-running-sessiond.
#
# Run from the build tree:  sh $srcdir/analyze/bench-analyze.sh [OPTION]...

set -u

events=2000000
repeat=5
jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
target_ratio=1.5
trace=
keep=no
builddir=.
min_ratio=0.80
use_running=no

usage()
{
	cat <<EOF
Usage: bench-analyze.sh [OPTION]...
Time rpcsim-analyze against babeltrace2 --output-format=dummy on one trace.

  --events=N      events to record, about: 10..1000000000 (tracegen
                  makes ten events a call; default $events)
  --repeat=N      timed runs of each reader, 1..1000; the median is
                  compared (default $repeat)
  --trace=DIR     time this existing trace instead of recording one
  --keep          keep the recorded trace (printed path)
  --builddir=DIR  build tree holding analyze/rpcsim-analyze and
                  tests/tracegen (default: the current directory)
  --min-ratio=R   exit 1 if time(babeltrace2) / time(rpcsim-analyze
                  with --jobs=1) < R, a decimal number above 0
                  (default $min_ratio)
  --jobs=N        the parallel run's --jobs, 1..256 (default $jobs, the
                  online CPUs)
  --target-ratio=R  exit 1 if time(babeltrace2) / time(rpcsim-analyze
                  with --jobs=N) < R, a decimal number above 0
                  (default $target_ratio)
  --use-running-sessiond
                  record even where the recording cannot be kept away
                  from the user's LTTng session daemon (default: refuse,
                  exit 1): then a session daemon that answers is used,
                  the user's included
  -h, --help      this help

Exit status: 0 both ratios met, 1 a ratio missed or a runtime failure
(a tool missing or failing, no isolation), 2 bad command line, 128 + N
ended by signal N (HUP, INT, TERM; the reading in progress ended too).
EOF
}

for arg in "$@"; do
	case $arg in
	--events=*) events=${arg#*=} ;;
	--repeat=*) repeat=${arg#*=} ;;
	--trace=*) trace=${arg#*=} ;;
	--keep) keep=yes ;;
	--builddir=*) builddir=${arg#*=} ;;
	--min-ratio=*) min_ratio=${arg#*=} ;;
	--jobs=*) jobs=${arg#*=} ;;
	--target-ratio=*) target_ratio=${arg#*=} ;;
	--use-running-sessiond) use_running=yes ;;
	-h|--help) usage; exit 0 ;;
	*)
		echo "bench-analyze.sh: unknown option '$arg': see --help" >&2
		exit 2
		;;
	esac
done
srcdir=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=bench/common.sh
. "$srcdir/bench/common.sh"
{ bench_count "$events" 1000000000 && [ "$events" -ge 10 ]; } || {
	echo "bench-analyze.sh: invalid --events '$events': accepted an integer 10..1000000000 (tracegen makes ten events a call)" >&2
	exit 2
}
bench_count "$jobs" 256 || {
	echo "bench-analyze.sh: invalid --jobs '$jobs': accepted an integer 1..256" >&2
	exit 2
}
bench_count "$repeat" 1000 || {
	echo "bench-analyze.sh: invalid --repeat '$repeat': accepted an integer 1..1000" >&2
	exit 2
}
# ratio OPTION VALUE: VALUE is a decimal number above 0.
ratio()
{
	if ! echo "$2" | grep -Eq '^([0-9]{1,6}(\.[0-9]{0,6})?|\.[0-9]{1,6})$' ||
		! awk -v r="$2" 'BEGIN { exit !(r > 0) }'; then
		echo "bench-analyze.sh: invalid $1 '$2': accepted a decimal number above 0 (0.8, 1.5)" >&2
		exit 2
	fi
}
ratio --min-ratio "$min_ratio"
ratio --target-ratio "$target_ratio"
[ -n "$builddir" ] || {
	echo "bench-analyze.sh: invalid --builddir '': accepted a build directory" >&2
	exit 2
}
analyze=$builddir/analyze/rpcsim-analyze
tracegen=$builddir/tests/tracegen
[ -x "$analyze" ] || {
	echo "bench-analyze.sh: $analyze not built (run make, or give --builddir)" >&2
	exit 1
}
command -v babeltrace2 >/dev/null 2>&1 || {
	echo "bench-analyze.sh: babeltrace2 missing: apt-get install babeltrace2" >&2
	exit 1
}

# shellcheck source=tests/utils/lttng.sh
. "$srcdir/tests/utils/lttng.sh"
# Record with a session daemon of its own, away from the user's LTTng
# state (tests/utils/lttng.sh); where that cannot be had, only when
# asked (--use-running-sessiond): else the recording could go to the
# user's daemon, and a session of theirs could record it.
# Isolated whenever it can be; the option only lets it record where it
# cannot.
if [ -z "$trace" ]; then
	if why=$(lttng_can_isolate); then
		lttng_isolate "$0" "$@"
	elif [ "$use_running" = no ]; then
		echo "bench-analyze.sh: $why; --use-running-sessiond records anyway, with a session daemon that answers (the user's included)" >&2
		exit 1
	fi
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-analyze.XXXXXX") || exit 1
cleanup()
{
	lttng_cleanup
	if [ "$keep" = yes ] && [ -d "$tmp/trace" ]; then
		echo "bench-analyze.sh: trace kept in $tmp/trace"
		rm -rf "$tmp/times"
	else
		rm -rf "$tmp"
	fi
}
bench_traps cleanup

if [ -z "$trace" ]; then
	[ -x "$tracegen" ] || {
		echo "bench-analyze.sh: $tracegen not built: make -C $builddir/tests tracegen" >&2
		exit 1
	}
	if why=$(lttng_missing); then
		echo "bench-analyze.sh: LTTng tools $why" >&2
		exit 1
	fi
	lttng_sessiond_up >"$tmp/sessiond.msg" 2>&1 || {
		echo "bench-analyze.sh: $(cat "$tmp/sessiond.msg")" >&2
		exit 1
	}
	# only tracegen's events, under a name of its own (lttng-lib.sh)
	lttng_procname_link "$(cd "$(dirname "$tracegen")" && pwd)/$(basename "$tracegen")" "$tmp" ||
		exit 1
	tg=$lttng_procname_path
	# Per call: entry, exit, mm_page_alloc_bulk, 2 mm_page_alloc_zone_locked;
	# an svc_alloc_arg_err every 100 calls.  Two threads.
	calls=$((events / 10))
	gen()
	{
		LTTNG_UST_ALLOW_BLOCKING=1 timeout 600 "$tg" --threads=2 \
			--calls="$calls" --no-spin --pagepool --err-every=100 \
			>/dev/null
	}
	echo "bench-analyze.sh: recording about $events events of tracegen..."
	lttng_record bench "$tmp/trace" \
		"--subbuf-size=4M --num-subbuf=8 --blocking-timeout=inf" \
		"rpcsim:*,pagepool:*" vtid -- gen || {
		echo "bench-analyze.sh: recording failed" >&2
		exit 1
	}
	trace=$tmp/trace
fi

now()
{
	date +%s.%N
}

# timed NAME CMD...: append the wall time of CMD to $tmp/times/NAME
mkdir -p "$tmp/times"
timed()
{
	t_name=$1
	shift
	t0=$(now)
	# In the background, waited for: a signal ends it by its pid.
	bench_run_child "$@" >/dev/null 2>"$tmp/times/$t_name.err" || {
		echo "bench-analyze.sh: '$*' failed:" >&2
		cat "$tmp/times/$t_name.err" >&2
		exit 1
	}
	t1=$(now)
	echo "$t0 $t1" | awk '{ printf "%.4f\n", $2 - $1 }' >>"$tmp/times/$t_name"
}

median()
{
	sort -n "$1" | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.4f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# warm-up, and the event count
bench_run_child "$analyze" --jobs=1 --json "$trace" >"$tmp/warm.json" \
	2>"$tmp/warm.err" || {
	echo "bench-analyze.sh: rpcsim-analyze failed:" >&2
	cat "$tmp/warm.err" >&2
	exit 1
}
# and the parallel run's results must be the same document
bench_run_child "$analyze" --jobs="$jobs" --json "$trace" \
	>"$tmp/warmn.json" 2>/dev/null &&
	cmp -s "$tmp/warm.json" "$tmp/warmn.json" || {
	echo "bench-analyze.sh: rpcsim-analyze --jobs=$jobs differs from --jobs=1:" >&2
	diff "$tmp/warm.json" "$tmp/warmn.json" | head -20 >&2
	exit 1
}
bench_run_child babeltrace2 --output-format=dummy "$trace" >/dev/null 2>&1
nevents=$(sed -n 's/^  "events": \([0-9]*\),$/\1/p' "$tmp/warm.json")
ndiscarded=$(sed -n 's/^  "discarded_events": \([0-9]*\),$/\1/p' "$tmp/warm.json")
size=$(du -sk "$trace" | awk '{ printf "%.1f MiB", $1 / 1024 }')

load_before=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)
i=0
while [ $i -lt "$repeat" ]; do
	timed bt2 babeltrace2 --output-format=dummy "$trace"
	timed ours1 "$analyze" --jobs=1 "$trace"
	timed oursn "$analyze" --jobs="$jobs" "$trace"
	i=$((i + 1))
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)

bt=$(median "$tmp/times/bt2")
ours1=$(median "$tmp/times/ours1")
oursn=$(median "$tmp/times/oursn")
ratio1=$(echo "$bt $ours1" | awk '{ printf "%.3f", $1 / $2 }')
ration=$(echo "$bt $oursn" | awk '{ printf "%.3f", $1 / $2 }')
nfiles=$(find "$trace" -path '*/index' -prune -o -type f ! -name metadata -print | wc -l)
echo "trace: $trace ($size in $nfiles stream files, $nevents events, $ndiscarded discarded)"
echo "load average before: $load_before; after: $load_after ($(getconf _NPROCESSORS_ONLN 2>/dev/null) CPUs online)"
echo "babeltrace2 --output-format=dummy: median $bt s of $repeat: $(tr '\n' ' ' <"$tmp/times/bt2")"
echo "rpcsim-analyze --jobs=1:           median $ours1 s of $repeat: $(tr '\n' ' ' <"$tmp/times/ours1")"
printf 'rpcsim-analyze --jobs=%-11s median %s s of %s: %s\n' "$jobs:" "$oursn" "$repeat" "$(tr '\n' ' ' <"$tmp/times/oursn")"
echo "$nevents $bt $ours1 $oursn" | awk -v j="$jobs" '{ printf "events/s: babeltrace2 %.0f, --jobs=1 %.0f, --jobs=%s %.0f\n", $1 / $2, $1 / $3, j, $1 / $4 }'
st=0
if echo "$ratio1 $min_ratio" | awk '{ exit !($1 >= $2) }'; then
	echo "ratio time(babeltrace2)/time(--jobs=1) = $ratio1 >= $min_ratio: PASS"
else
	echo "ratio time(babeltrace2)/time(--jobs=1) = $ratio1 < $min_ratio: FAIL"
	st=1
fi
if echo "$ration $target_ratio" | awk '{ exit !($1 >= $2) }'; then
	echo "ratio time(babeltrace2)/time(--jobs=$jobs) = $ration >= $target_ratio: PASS"
else
	echo "ratio time(babeltrace2)/time(--jobs=$jobs) = $ration < $target_ratio: FAIL"
	st=1
fi
exit $st
