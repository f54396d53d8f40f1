#!/bin/sh
# SPDX-License-Identifier: MIT
#
# trace-overhead.sh: what LTTng-UST tracepoints cost rpcsim when they are
# compiled in but no session records them.  Builds (or reuses) a second
# tree configured with --disable-lttng-ust, then runs the same rpcsim
# workload in both, alternating, and compares requests/s and the mean
# svc_alloc_arg() latency.  A benchmark, not a test: "make bench" runs it.
#
# Run from a build tree:  sh $srcdir/bench/trace-overhead.sh [OPTION]...

set -u

repeat=5
duration=2
builddir=.
untraced=
alloc=all

usage()
{
	cat <<EOF
Usage: trace-overhead.sh [OPTION]...
Compare rpcsim built with tracepoints (no session) and without them.

  --repeat=N       runs of each build, alternating (default $repeat)
  --duration=S     seconds per mode per run (default $duration)
  --alloc=MODE     rpcsim --alloc value (default $alloc)
  --builddir=DIR   the traced build tree (default: the current directory)
  --untraced=DIR   a tree configured with --disable-lttng-ust; configured
                   and built in BUILDDIR/bench/notrace when not given
  -h, --help       this help
EOF
}

for arg in "$@"; do
	case $arg in
	--repeat=*) repeat=${arg#*=} ;;
	--duration=*) duration=${arg#*=} ;;
	--alloc=*) alloc=${arg#*=} ;;
	--builddir=*) builddir=${arg#*=} ;;
	--untraced=*) untraced=${arg#*=} ;;
	-h|--help) usage; exit 0 ;;
	*)
		echo "trace-overhead.sh: unknown option '$arg'; see --help" >&2
		exit 2
		;;
	esac
done
case $repeat in ''|*[!0-9]*|0)
	echo "trace-overhead.sh: --repeat=$repeat: expected a count >= 1" >&2
	exit 2 ;;
esac

builddir=$(cd "$builddir" && pwd) || exit 1
traced=$builddir/rpcsim/rpcsim
[ -x "$traced" ] || { echo "trace-overhead.sh: $traced not built" >&2; exit 1; }
"$traced" --help | grep -q -- '--trace\[=DIR\]' || {
	echo "trace-overhead.sh: $builddir was configured without LTTng-UST" >&2
	exit 1
}
srcdir=$(sed -n "s/^abs_top_srcdir = //p" "$builddir/Makefile")
if [ -z "$untraced" ]; then
	untraced=$builddir/bench/notrace
	if [ ! -f "$untraced/config.status" ]; then
		mkdir -p "$untraced" &&
		(cd "$untraced" && "$srcdir/configure" -q --disable-lttng-ust) ||
			exit 1
	fi
	make -C "$untraced" -j"$(nproc)" >/dev/null || exit 1
fi
plain=$untraced/rpcsim/rpcsim
if "$plain" --help | grep -q -- '--trace\[=DIR\]'; then
	echo "trace-overhead.sh: $untraced has tracepoints; configure it with --disable-lttng-ust" >&2
	exit 1
fi

out=$(mktemp -d "${TMPDIR:-/tmp}/trace-overhead.XXXXXX") || exit 1
trap 'rm -rf "$out"' EXIT

echo "rpcsim --alloc=$alloc --duration=$duration, $repeat runs per build, alternating"
echo "machine: $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
i=1
while [ $i -le "$repeat" ]; do
	for b in traced plain; do
		eval bin=\$$b
		"$bin" --alloc="$alloc" --duration="$duration" --json \
			>"$out/$b-$i.json" || exit 1
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
