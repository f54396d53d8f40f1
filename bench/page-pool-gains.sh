#!/bin/sh
# SPDX-License-Identifier: MIT
#
# page-pool-gains.sh: the page_pool consumer's packet rate per refill
# mode, read the way the kernel's XDP measurement of the bulk refill was
# reported (change against single: list +4.49 %, array +12.68 %), with
# enough interleaved runs to read it on a small shared machine.  Each
# round runs rpcsim --consumer=page_pool --alloc=all --repeat=N (the
# modes' runs interleaved in one process) for every thread count and
# free mix in turn, so that a machine's drift hits every configuration.
# Its default mixes: rpcsim's, where nine pages in ten are recycled, and
# released:1, the kernel test's, where every packet takes a page from the
# allocator and its skb frees it on the same CPU.  The refills are not
# timed unless asked (rpcsim --call-timing=off): the kernel's measurement
# read no clock per refill, and rpcsim's two clock reads per refill would
# cost a single-page refill per page what a bulk one pays per 64.
# A benchmark, not a test ("make bench" does not run it: minutes).
#
#   sh bench/page-pool-gains.sh [OPTION]...

set -u

me=page-pool-gains.sh
top=$(cd "$(dirname "$0")/.." && pwd) || exit 1
# shellcheck source=bench/common.sh
. "$top/bench/common.sh"
builddir=$top/build
threads=1,2
rounds=4
repeat=3
duration=1
profile=
call_timing=off
mixes=
mix_given=

usage()
{
	cat <<EOF
Usage: $me [OPTION]...
Run rpcsim --consumer=page_pool --alloc=all in rounds, every thread count
and free mix once per round, and print per configuration the median
packet rate of each mode over its runs, its change against single, the
refill's time per page and the allocator's time per packet; then the
array's gain over the list's gain beside the kernel's, from the medians
and from one run of each mode at a time (the median, range and count at
the kernel's 2.82 of the gains' ratio in each round's k-th runs of
single, list and array).

  --builddir=DIR   the build tree whose rpcsim runs (default: build/ at
                   the top of the source tree)
  --threads=LIST   RX queues (rpcsim --threads), comma-separated, each
                   1..64 (default: $threads)
  --free-mix=MIX   passed to rpcsim as --free-mix ("default": rpcsim's
                   own); may be given more than once, each a
                   configuration (default: rpcsim's own mix,
                   direct:6,ring:3,held:1, and released:1, where every
                   page goes back to the allocator on the CPU that took
                   it, as in the kernel's 2021 XDP test: its veth turned
                   each frame into an skb, released from the pool)
  --rounds=N       rounds, 1..100 (default: $rounds)
  --repeat=N       runs of each mode per rpcsim process, 1..100
                   (default: $repeat)
  --duration=S     seconds per run, passed to rpcsim (default: $duration;
                   the defaults take about 3 minutes: 4 rounds x 4
                   configurations x 3 modes x 3 runs x 1 s)
  --profile=NAME   the pools' profile, passed to rpcsim: kernel or lean
                   (default: rpcsim's, kernel)
  --call-timing=on|off  passed to rpcsim: on times every refill (two
                   clock reads around it, a single-page refill's per
                   page, a bulk refill's per 64 pages) and adds the
                   refill's ns per page and the allocator's ns per
                   packet; off reads no clock, as the kernel's
                   measurement did (default: $call_timing)
  -h, --help       this help

The kernel's figures (Jesper Dangaard Brouer, "net: page_pool: use
alloc_pages_bulk in refill code path", v6 9/9, 25 March 2021): baseline
3,771,046 packets/s, list +4.49 %, array +12.68 %: the array gains 2.82
times what the list gains, in one run of each on the v6r5 branch; the
same test's list refill had gained 13.1 to 18.8 % on the three branches
before it (doc/results/2026-12-06-page-pool-kernel-series.md).  What the
allocator alone predicts for that ratio, from page_bench04_bulk on the
series' v5r9 branch (22 March 2021, cycles per page at bulk 64: single
199, list 134, array 110): (199 - 110) / (199 - 134) = 1.37.
Exit status: 0 the runs completed, 1 runtime failure (rpcsim failed or
is not built), 2 bad command line (an rpcsim usage error included),
128 + N ended by signal N (HUP, INT, TERM; the rpcsim in progress is
ended too).
EOF
}

bad()
{
	echo "$me: $1: expected $2" >&2
	exit 2
}

nl='
'
for arg in "$@"; do
	case $arg in
	--builddir=*) builddir=${arg#*=} ;;
	--threads=*) threads=${arg#*=} ;;
	--free-mix=*)
		case ${arg#*=} in
		''|*"$nl"*) bad "--free-mix=${arg#*=}" "rpcsim's --free-mix value" ;;
		esac
		mixes=$mixes${arg#*=}$nl
		mix_given=1
		;;
	--rounds=*) rounds=${arg#*=} ;;
	--repeat=*) repeat=${arg#*=} ;;
	--duration=*) duration=${arg#*=} ;;
	--profile=*) profile=${arg#*=} ;;
	--call-timing=*) call_timing=${arg#*=} ;;
	-h|--help) usage; exit 0 ;;
	--builddir|--threads|--free-mix|--rounds|--repeat|--duration|--profile|\
	--call-timing)
		echo "$me: $arg: expected $arg=VALUE; see --help" >&2
		exit 2
		;;
	-*) echo "$me: unknown option '$arg'; see --help" >&2; exit 2 ;;
	*) echo "$me: unexpected argument '$arg'; see --help" >&2; exit 2 ;;
	esac
done

[ -n "$builddir" ] || bad "--builddir=" "a build directory"
bench_counts "$threads" 64
case $? in
1) bad "--threads=$threads" "RX queue counts 1..64 separated by commas" ;;
2) bad "--threads=$threads" "each count once" ;;
esac
bench_count "$rounds" 100 || bad "--rounds=$rounds" "an integer from 1 to 100"
bench_count "$repeat" 100 || bad "--repeat=$repeat" "an integer from 1 to 100"
case $profile in
''|kernel|lean) ;;
*) bad "--profile=$profile" "kernel or lean" ;;
esac
case $call_timing in
on|off) ;;
*) bad "--call-timing=$call_timing" "on or off" ;;
esac
# rpcsim checks --duration (and each --free-mix) itself: its usage error
# comes through on the first run, exit 2
[ -n "$mix_given" ] || mixes="default${nl}released:1$nl"

rpcsim=$builddir/rpcsim/rpcsim
if [ ! -x "$rpcsim" ]; then
	echo "$me: $rpcsim: not built (scripts/setup.sh, or --builddir=DIR)" >&2
	exit 1
fi
if ! command -v python3 >/dev/null 2>&1; then
	echo "$me: python3 not found (it reads rpcsim's JSON)" >&2
	exit 1
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/page-pool-gains.XXXXXX") || exit 1
# A signal ends the rpcsim in progress by its pid (bench_run_child).
bench_traps 'rm -rf "$tmp"'

# said once the runs are done: an rpcsim usage error leaves stdout empty
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
r=1
while [ "$r" -le "$rounds" ]; do
	for t in $(echo "$threads" | tr , ' '); do
		i=0
		# One mix a line; in this shell, not a pipeline's subshell,
		# so that the traps above end the rpcsim it runs.
		set -f
		ifs=$IFS
		IFS=$nl
		for mix in $mixes; do
			IFS=$ifs
			set +f
			i=$((i + 1))
			set -- --consumer=page_pool --alloc=all --threads="$t" \
				--repeat="$repeat" --duration="$duration" \
				--call-timing="$call_timing" --output-format=json
			[ -n "$profile" ] && set -- "$@" --profile="$profile"
			[ "$mix" = default ] || set -- "$@" --free-mix="$mix"
			bench_run_child "$rpcsim" "$@" >"$tmp/r$r-t$t-m$i.json" \
				2>"$tmp/err"
			rc=$?
			if [ $rc -eq 2 ]; then
				# rpcsim's one line naming the value
				sed "s/^/$me: /" "$tmp/err" >&2
				exit 2
			elif [ $rc -gt 128 ]; then
				# a signal (Ctrl-C): nothing to report
				exit $rc
			elif [ $rc -ne 0 ]; then
				sed "s/^/$me: /" "$tmp/err" >&2
				echo "$me: rpcsim $* failed (exit $rc)" >&2
				exit 1
			fi
			printf '%s\t%s\t%s\n' "$t" "$i" "$mix" >>"$tmp/configs.r$r"
		done
		IFS=$ifs
		set +f
	done
	r=$((r + 1))
done
[ "$rounds" -eq 1 ] && rounds_said="1 round" || rounds_said="$rounds rounds"
echo "$me: $rounds_said of rpcsim --consumer=page_pool --alloc=all --repeat=$repeat --duration=$duration --call-timing=$call_timing${profile:+ --profile=$profile}; RX queues $threads; load average $load_before before, $(cut -d' ' -f1-3 /proc/loadavg) after"

python3 - "$tmp" "$rounds" <<'PY'
import json, os, statistics, sys

tmp, rounds = sys.argv[1], int(sys.argv[2])
configs = []
for line in open(os.path.join(tmp, "configs.r1")):
    t, i, mix = line.rstrip("\n").split("\t")
    configs.append((t, i, mix))
for t, i, mix in configs:
    modes = {}
    for r in range(1, rounds + 1):
        doc = json.load(open(os.path.join(tmp, "r%d-t%s-m%s.json" % (r, t, i))))
        for m in doc["modes"]:
            runs = modes.setdefault(m["mode"], [])
            for run in m["per_run"]:
                pp = run["page_pool"]
                # untimed refills (--call-timing=off): no ns figures
                timed = run["mean_us"] is not None
                runs.append((pp["packets_per_s"],
                             pp["ns_per_page"] if timed else None,
                             (run["mean_us"] * 1000 * run["calls"] /
                              pp["packets"] if pp["packets"] else 0.0)
                             if timed else None))
    med = {k: [statistics.median(x[j] for x in v)
               if v[0][j] is not None else None for j in range(3)]
           for k, v in modes.items()}
    ns = lambda v: "-" if v is None else "%.1f" % v
    print()
    print("%s RX queue%s, free mix %s" % (t, "" if t == "1" else "s",
          "rpcsim's default" if mix == "default" else mix))
    print()
    print("| mode | runs | packets/s (median) | change against single | refill ns per page | allocator ns per packet |")
    print("| --- | --- | --- | --- | --- | --- |")
    single = med.get("single", [0])[0]
    gain = {}
    for name in ("single", "list", "array"):
        if name not in med:
            continue
        pps, nspp, nspk = med[name]
        change = "base" if name == "single" else (
            "%+.1f %%" % (100 * (pps / single - 1)) if single else "-")
        if name != "single" and single:
            gain[name] = pps / single - 1
        print("| %s | %d | %.0f | %s | %s | %s |" % (
            name, len(modes[name]), pps, change, ns(nspp), ns(nspk)))
    print()
    if gain.get("list", 0) > 0 and "array" in gain:
        ratio = "%.2f" % (gain["array"] / gain["list"])
    else:
        ratio = "- (no list gain)"
    if all(k in med for k in ("single", "list", "array")) and \
       med["single"][1] is not None and \
       med["single"][1] != med["list"][1]:
        pred = "%.2f" % ((med["single"][1] - med["array"][1]) /
                         (med["single"][1] - med["list"][1]))
    else:
        pred = "-"
    print("array gain / list gain: %s (kernel XDP: 2.82; page_bench04 predicts 1.37); from these refills' ns per page: %s" % (ratio, pred))
    # One run of each mode, as each branch's kernel figures are: the
    # round's k-th runs of single, list and array, side by side.
    if all(k in modes for k in ("single", "list", "array")):
        n = min(len(modes[k]) for k in ("single", "list", "array"))
        one = []
        for i in range(n):
            s1, l1, a1 = (modes[k][i][0] for k in ("single", "list", "array"))
            if s1 > 0 and l1 > s1:
                one.append((a1 / s1 - 1) / (l1 / s1 - 1))
        if one:
            line = ("median %.2f (%.2f to %.2f), 2.82 or more in %d of %d runs"
                    % (statistics.median(one), min(one), max(one),
                       sum(x >= 2.82 for x in one), n))
        else:
            line = "none: no list gain in a run"
        if one and len(one) < n:
            line += " (no list gain in %d)" % (n - len(one))
        print("one run of each mode, as the kernel's figures are: array gain / list gain %s" % line)
PY
