#!/bin/sh
# SPDX-License-Identifier: MIT
#
# trace-overhead.sh: what LTTng-UST tracepoints cost rpcsim when they are
# compiled in but no session records them.  Builds (or reuses) a second
# tree configured with the traced tree's own configure arguments plus
# --disable-lttng-ust, then runs the same rpcsim workload in both,
# alternating, and compares requests/s and the mean svc_alloc_arg()
# latency, each difference against the runs' spread.  The runs are kept
# away from the user's LTTng session daemon (tests/utils/lttng.sh), or
# the script refuses unless --use-running-sessiond.  A benchmark, not a
# test: "make bench" runs it.
#
# Run from a build tree:  sh $srcdir/bench/trace-overhead.sh [OPTION]...

set -u

me=trace-overhead.sh
top=$(cd "$(dirname "$0")/.." && pwd) || exit 1
# shellcheck source=bench/common.sh
. "$top/bench/common.sh"

repeat=5
duration=2
builddir=.
untraced=
alloc=all
use_running=no

usage()
{
	cat <<EOF
Usage: $me [OPTION]...
Compare rpcsim built with tracepoints (no session) and without them.

  --repeat=N       runs of each build, alternating, 2..1000: the noise
                   is the runs' spread (default $repeat)
  --duration=S     seconds per mode per run, as rpcsim takes it (0.5,
                   500ms, 5s, 2m; default $duration)
  --alloc=MODE     rpcsim --alloc value: single, list, array or all
                   (default $alloc)
  --builddir=DIR   the traced build tree (default: the current directory)
  --untraced=DIR   a tree configured with --disable-lttng-ust (default:
                   BUILDDIR/bench/notrace, configured with BUILDDIR's
                   own configure arguments plus --disable-lttng-ust, and
                   built, when it is missing or BUILDDIR's arguments
                   changed)
  --use-running-sessiond
                   run even where the runs cannot be kept away from the
                   user's LTTng session daemon (default: refuse, exit 1):
                   a session of the user's may then record the traced runs
  -h, --help       this help

The runs see no LTTng session daemon of the user's: they run with a
LTTNG_HOME of their own and, as root or in the tracing group, in a
private mount namespace (tests/utils/lttng.sh), so that no session can
record the traced build.  Needs python3 (it reads rpcsim's JSON).
Exit status: 0 the runs completed, 1 runtime failure (a build missing
or failing, rpcsim failing, no isolation), 2 bad command line.
EOF
}

# bad OPTION=VALUE WHAT: the one-line usage error.
bad()
{
	echo "$me: $1: expected $2" >&2
	exit 2
}

for arg in "$@"; do
	case $arg in
	--repeat=*) repeat=${arg#*=} ;;
	--duration=*) duration=${arg#*=} ;;
	--alloc=*) alloc=${arg#*=} ;;
	--builddir=*) builddir=${arg#*=} ;;
	--untraced=*) untraced=${arg#*=}; [ -n "$untraced" ] ||
		bad "--untraced=" "a build directory" ;;
	--use-running-sessiond) use_running=yes ;;
	-h|--help) usage; exit 0 ;;
	--repeat|--duration|--alloc|--builddir|--untraced)
		echo "$me: $arg: expected $arg=VALUE; see --help" >&2
		exit 2
		;;
	*)
		echo "$me: unknown option '$arg'; see --help" >&2
		exit 2
		;;
	esac
done
bench_count "$repeat" 1000 ||
	bad "--repeat=$repeat" "an integer from 2 to 1000 (the noise is the runs' spread)"
[ "$repeat" -ge 2 ] ||
	bad "--repeat=$repeat" "an integer from 2 to 1000 (the noise is the runs' spread)"
# rpcsim's own --duration and --alloc, checked here so that a bad value
# is a usage error before anything is built or run.
if ! echo "$duration" | grep -Eq '^([0-9]+\.?[0-9]*|\.[0-9]+)(ms|s|m)?$' ||
	! echo "$duration" | awk '{
		n = $0; m = 1
		if (n ~ /ms$/) m = 0.001; else if (n ~ /m$/) m = 60
		sub(/(ms|s|m)$/, "", n)
		exit !(length(n) <= 16 && n * m > 0 && n * m <= 1000000) }'
then
	bad "--duration=$duration" "a duration above 0 and at most 1000000 s (0.5, 500ms, 5s, 2m)"
fi
case $alloc in
single|list|array|all) ;;
*) bad "--alloc=$alloc" "single, list, array or all" ;;
esac
[ -n "$builddir" ] || bad "--builddir=" "a build directory"

if ! command -v python3 >/dev/null 2>&1; then
	echo "$me: python3 not found (it reads rpcsim's JSON)" >&2
	exit 1
fi
traced=$builddir/rpcsim/rpcsim
if [ ! -x "$traced" ]; then
	echo "$me: --builddir=$builddir: no rpcsim/rpcsim built there (scripts/setup.sh, or --builddir=DIR)" >&2
	exit 1
fi
builddir=$(cd "$builddir" && pwd) || exit 1
traced=$builddir/rpcsim/rpcsim
if [ -n "$untraced" ] && [ ! -x "$untraced/rpcsim/rpcsim" ]; then
	echo "$me: --untraced=$untraced: no rpcsim/rpcsim built there" >&2
	exit 1
fi

# tests/utils/lttng.sh: away from the user's LTTng state, or not at all
# unless asked.  Before anything is printed or any trap is set: this
# may run the script again in a mount namespace of its own.
# shellcheck source=tests/utils/lttng.sh
. "$top/tests/utils/lttng.sh"
# Isolated whenever it can be; --use-running-sessiond only lets it run
# where it cannot.
if why=$(lttng_can_isolate); then
	lttng_isolate "$0" "$@"
elif [ "$use_running" = no ]; then
	echo "$me: $why; --use-running-sessiond runs anyway, where a session of the user's may record the traced runs" >&2
	exit 1
fi

out=
cleanup()
{
	[ -z "$out" ] || rm -rf "$out"
	lttng_cleanup
}
bench_traps cleanup

"$traced" --help | grep -q -- '--trace\[=DIR\]' || {
	echo "$me: $builddir was configured without LTTng-UST" >&2
	exit 1
}
srcdir=$(sed -n "s/^abs_top_srcdir = //p" "$builddir/Makefile")
if [ -z "$untraced" ]; then
	untraced=$builddir/bench/notrace
	# The traced tree's own configure arguments (a sanitizer, CFLAGS,
	# --without-jemalloc...), so that the two builds differ by the
	# tracepoints alone.
	config=$(cd "$builddir" && ./config.status --config) || {
		echo "$me: $builddir/config.status --config failed" >&2
		exit 1
	}
	if [ ! -f "$untraced/config.status" ] ||
		[ "$(cat "$untraced/trace-overhead.config" 2>/dev/null)" != "$config" ]
	then
		echo "$me: configuring $untraced: ${config:+$config }--disable-lttng-ust" >&2
		mkdir -p "$untraced" && rm -f "$untraced/trace-overhead.config" &&
		(
			eval "set -- $config"
			for a do
				shift
				case $a in
				--enable-lttng-ust|--enable-lttng-ust=*|\
				--disable-lttng-ust|--with-lttng-ust|\
				--with-lttng-ust=*|--without-lttng-ust) ;;
				*) set -- "$@" "$a" ;;
				esac
			done
			cd "$untraced" &&
				exec "$srcdir/configure" -q "$@" --disable-lttng-ust
		) >/dev/null && printf '%s\n' "$config" >"$untraced/trace-overhead.config" || {
			echo "$me: configuring $untraced failed" >&2
			exit 1
		}
	fi
	bench_run_child make -C "$untraced" -j"$(nproc)" >/dev/null || {
		echo "$me: building $untraced failed" >&2
		exit 1
	}
fi
plain=$untraced/rpcsim/rpcsim
if "$plain" --help | grep -q -- '--trace\[=DIR\]'; then
	echo "$me: $untraced has tracepoints; configure it with --disable-lttng-ust" >&2
	exit 1
fi

out=$(mktemp -d "${TMPDIR:-/tmp}/trace-overhead.XXXXXX") || exit 1

echo "rpcsim --alloc=$alloc --duration=$duration, $repeat runs per build, alternating"
echo "machine: $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
i=1
while [ $i -le "$repeat" ]; do
	for b in traced plain; do
		eval bin=\$$b
		bench_run_child "$bin" --alloc="$alloc" --duration="$duration" --json \
			>"$out/$b-$i.json" || {
			echo "$me: $bin --alloc=$alloc --duration=$duration --json failed" >&2
			exit 1
		}
	done
	i=$((i + 1))
done

python3 - "$out" "$repeat" <<'PY'
import json, statistics, sys
out, n = sys.argv[1], int(sys.argv[2])

def load(build):
    res = {}
    for i in range(1, n + 1):
        for m in json.load(open("%s/%s-%d.json" % (out, build, i)))["modes"]:
            d = res.setdefault(m["label"], {"rps": [], "mean": []})
            d["rps"].append(m["requests_per_s"])
            d["mean"].append(m["mean_us"])
    return res

def cell(v, fmt):
    avg, sd = statistics.mean(v), statistics.pstdev(v)
    return (fmt % avg) + (" ±%.1f%%" % (100 * sd / avg) if avg else "")

traced, plain = load("traced"), load("plain")
print("%-12s %20s %20s %8s %18s %18s %8s" % ("", "requests/s untraced",
      "requests/s traced", "%change", "mean us untraced", "mean us traced",
      "%change"))
for label in plain:
    a, b = plain[label], traced[label]
    ra, rb = statistics.mean(a["rps"]), statistics.mean(b["rps"])
    ma, mb = statistics.mean(a["mean"]), statistics.mean(b["mean"])
    noise = statistics.pstdev(a["rps"]) + statistics.pstdev(b["rps"])
    print("%-12s %20s %20s %+7.1f%% %18s %18s %+7.1f%%  %s" % (label + ":",
          cell(a["rps"], "%.0f"), cell(b["rps"], "%.0f"), 100 * (rb - ra) / ra,
          cell(a["mean"], "%.3f"), cell(b["mean"], "%.3f"),
          100 * (mb - ma) / ma,
          "within noise" if abs(rb - ra) <= noise else "beyond noise"))
PY
