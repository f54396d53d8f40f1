#!/bin/sh
# SPDX-License-Identifier: MIT
#
# seed-order.sh: does the seed's order (single page slower than bulk list,
# bulk list slower than bulk array) hold, in the plain and the ASan build,
# at several thread counts, and are the pcp trylock failures, the bulk
# trylock fallbacks and the retry waits as rare as they should be?  Runs
# rpcsim --alloc=all --json in both builds, alternating run by run so
# that a machine's drift hits both, and prints one table.  The targets
# are reported, not enforced: a benchmark, not a test ("make bench").
#
#   sh bench/seed-order.sh [OPTION]...

set -u

me=seed-order.sh
top=$(cd "$(dirname "$0")/.." && pwd) || exit 1
# shellcheck source=bench/common.sh
. "$top/bench/common.sh"
plain=${PP_PLAIN_BUILD:-$top/build}
asan=${PP_ASAN_BUILD:-$top/build-asan}
threads=1,2,8
repeat=3
duration=
requests=
profile=
tcp_read=

usage()
{
	cat <<EOF
Usage: $me [OPTION]...
Run rpcsim --alloc=all in the plain and the AddressSanitizer build at each
thread count, the builds alternating run by run, and print one table: per
build, thread count and mode, the mean and median svc_alloc_arg() latency,
pcp trylock failures and bulk trylock fallbacks per 1,000 allocator calls,
retry waits, and whether the targets hold.

  --plain=DIR      the plain build tree (default: \$PP_PLAIN_BUILD, else
                   build/ at the top of the source tree)
  --asan=DIR       the --enable-asan build tree (default: \$PP_ASAN_BUILD,
                   else build-asan/ at the top); when it is missing, only
                   the plain build runs (and the other way round)
  --threads=LIST   rpcsim --threads values, comma-separated, each 1..4096
                   (default: $threads)
  --repeat=N       runs of each mode per build and thread count, 1..1000;
                   each run is one rpcsim process (default: $repeat)
  --duration=S     seconds per mode per run, passed to rpcsim (default: 2,
                   so the defaults take 2 to 2.5 minutes: 3 runs x 3
                   thread counts x 2 builds x 3 modes x 2 s = 108 s, plus
                   each process's start-up; none when only --requests is
                   given)
  --requests=N     requests per mode per run, passed to rpcsim
                   (default: no limit)
  --profile=NAME   the pools' profile, passed to rpcsim: kernel or lean
                   (default: rpcsim's, kernel)
  --tcp-read=SIZE  passed to rpcsim: the bytes of a record one socket
                   read finds, 0 or 1k..64m (k, m suffixes); a longer
                   record (a WRITE's) comes in pieces, each short read
                   one more svc_alloc_arg() call (default: rpcsim's, 0,
                   whole records)
  -h, --help       this help

Targets, per build, thread count and mode: pcp trylock failures and bulk
trylock fallbacks below 0.1 per 1,000 allocator calls, no retry waits;
per build and thread count: single > list > array by mean and by median.
A second table puts each build and thread count's ratios of the means
(single/list, single/array, list/array) beside the seed's (4.00, 5.45,
1.36), with the stretch targets for the ASan build: at least 2.5, 3.5 and
1.15.
Exit status: 0 the runs completed (whether or not the targets hold),
1 runtime failure (rpcsim failed, no build found, no python3), 2 bad
command line, 128 + N ended by signal N (HUP, INT, TERM: the rpcsim in
progress is ended too).
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
	--plain=*) plain=${arg#*=} ;;
	--asan=*) asan=${arg#*=} ;;
	--threads=*) threads=${arg#*=} ;;
	--repeat=*) repeat=${arg#*=} ;;
	--duration=*)
		duration=${arg#*=}
		[ -n "$duration" ] || bad "--duration=" \
			"a number of seconds above 0 and at most 1000000 (decimals allowed)"
		;;
	--requests=*)
		requests=${arg#*=}
		[ -n "$requests" ] ||
			bad "--requests=" "an integer from 1 to 1000000000000000"
		;;
	--profile=*)
		profile=${arg#*=}
		[ -n "$profile" ] || bad "--profile=" "kernel or lean"
		;;
	--tcp-read=*)
		tcp_read=${arg#*=}
		[ -n "$tcp_read" ] || bad "--tcp-read=" "0 or a size from 1k to 64m"
		;;
	-h|--help) usage; exit 0 ;;
	--plain|--asan|--threads|--repeat|--duration|--requests|--profile|\
	--tcp-read)
		echo "$me: $arg: expected $arg=VALUE; see --help" >&2
		exit 2
		;;
	-*) echo "$me: unknown option '$arg'; see --help" >&2; exit 2 ;;
	*) echo "$me: unexpected argument '$arg'; see --help" >&2; exit 2 ;;
	esac
done

[ -n "$plain" ] || bad "--plain=" "a build directory"
[ -n "$asan" ] || bad "--asan=" "a build directory"
bench_counts "$threads" 4096
case $? in
1) bad "--threads=$threads" "thread counts 1..4096 separated by commas" ;;
2) bad "--threads=$threads" "each thread count once" ;;
esac
bench_count "$repeat" 1000 || bad "--repeat=$repeat" "an integer from 1 to 1000"
case $profile in
''|kernel|lean) ;;
*) bad "--profile=$profile" "kernel or lean" ;;
esac
# rpcsim's own range for --tcp-read, checked here so that a bad value
# is a usage error before any run; compared inside awk, where a product
# too large for the shell's integers is only a number.
if [ -n "$tcp_read" ] && ! echo "$tcp_read" | awk '
	/^[0-9]+(k|K|KiB|m|M|MiB)?$/ {
		n = $0; m = 1
		if (n ~ /(k|K|KiB)$/) m = 1024
		if (n ~ /(m|M|MiB)$/) m = 1048576
		sub(/[kKmM](iB)?$/, "", n)
		b = n * m
		exit !(length(n) <= 8 && (b == 0 || (b >= 1024 && b <= 67108864)))
	}
	{ exit 1 }'
then
	bad "--tcp-read=$tcp_read" "0 or a size from 1k to 64m"
fi
if [ -n "$requests" ]; then
	bench_count "$requests" 1000000000000000 ||
		bad "--requests=$requests" "an integer from 1 to 1000000000000000"
elif [ -z "$duration" ]; then
	duration=2
fi
if [ -n "$duration" ]; then
	if ! echo "$duration" | grep -Eq '^([0-9]+\.?[0-9]*|\.[0-9]+)$' ||
		! awk -v d="$duration" 'BEGIN { exit !(d > 0 && d <= 1000000) }'
	then
		bad "--duration=$duration" \
			"a number of seconds above 0 and at most 1000000 (decimals allowed)"
	fi
fi

# dir_of BUILD: the tree of the plain or the asan build.
dir_of()
{
	case $1 in plain) echo "$plain" ;; asan) echo "$asan" ;; esac
}

# The builds that exist; say how to make a missing one.
builds=
for b in plain asan; do
	dir=$(dir_of "$b")
	if [ -x "$dir/rpcsim/rpcsim" ]; then
		dir=$(cd "$dir" && pwd) || exit 1
		case $b in plain) plain=$dir ;; asan) asan=$dir ;; esac
		builds="$builds $b"
		continue
	fi
	case $b in
	plain) how="BUILD_DIR=$dir $top/scripts/setup.sh" ;;
	asan) how="BUILD_DIR=$dir $top/scripts/setup.sh --enable-asan" ;;
	esac
	echo "$me: no $b build in $dir (rpcsim/rpcsim not built); make it with: $how" >&2
done
if [ -z "$builds" ]; then
	echo "$me: neither build found; nothing to run" >&2
	exit 1
fi
[ "$builds" = " plain asan" ] ||
	echo "$me: running the$builds build only" >&2
# Before any run: the table is made from rpcsim's JSON with python3.
if ! command -v python3 >/dev/null 2>&1; then
	echo "$me: python3 not found (it reads rpcsim's JSON)" >&2
	exit 1
fi

out=$(mktemp -d "${TMPDIR:-/tmp}/seed-order.XXXXXX") || exit 1
# A signal ends the rpcsim in progress by its pid (bench_run_child).
bench_traps 'rm -rf "$out"'

length=
[ -n "$duration" ] && length="--duration=$duration"
[ -n "$requests" ] && length="$length --requests=$requests"
[ -n "$profile" ] && length="$length --profile=$profile"
[ -n "$tcp_read" ] && length="$length --tcp-read=$tcp_read"
cut -d' ' -f1-3 /proc/loadavg >"$out/load-start"

# Round by round, each thread count in each build in turn: any drift of
# the machine during the whole run hits every cell alike.
i=1
while [ "$i" -le "$repeat" ]; do
	for t in $(echo "$threads" | tr , ' '); do
		for b in $builds; do
			dir=$(dir_of "$b")
			[ -t 2 ] && printf '%s: run %d of %d, %s build, %d threads\r' \
				"$me" "$i" "$repeat" "$b" "$t" >&2
			f=$out/$b-t$t-r$i
			# $length is two options or one, split on purpose.
			# shellcheck disable=SC2086
			if ! bench_run_child "$dir/rpcsim/rpcsim" --alloc=all \
				--repeat=1 --threads="$t" $length --json \
				>"$f.json" 2>"$f.err"; then
				[ -t 2 ] && echo >&2
				echo "$me: $dir/rpcsim/rpcsim --alloc=all --repeat=1 --threads=$t $length --json failed:" >&2
				cat "$f.err" >&2
				exit 1
			fi
		done
	done
	i=$((i + 1))
done
[ -t 2 ] && echo >&2
cut -d' ' -f1-3 /proc/loadavg >"$out/load-end"

# $builds is one word per build, split on purpose.
# shellcheck disable=SC2086
python3 - "$out" "$threads" "$repeat" "$plain" "$asan" "$length" $builds <<'PY'
import json, statistics, sys

out, threads, repeat, plain, asan, length = sys.argv[1:7]
builds = sys.argv[7:]
threads = [int(t) for t in threads.split(",")]
repeat = int(repeat)
dirs = {"plain": plain, "asan": asan}
MODES = ("single", "list", "array")
API_CALLS = ("alloc_single_calls", "alloc_bulk_list_calls",
             "alloc_bulk_array_calls")
LIMIT = 0.1   # per 1,000 allocator calls
# rpcsim's by_refill: calls that refilled one page (after a WRITE, its
# reply page) and calls that refilled more (after a READ).
REFILLS = ("one_page", "more_pages")

def fail(msg):
    print("seed-order.sh: " + msg, file=sys.stderr)
    sys.exit(1)

def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        fail("%s: not rpcsim's JSON: %s" % (path, e))

def impl(cfg):
    v = cfg.get("pcp_impl")
    if v is None:
        return "?"
    return v if isinstance(v, str) else json.dumps(v, separators=(",", ":"))

cells, info = {}, {}
for b in builds:
    info[b] = {"impl": set(), "asan": set(), "version": set(),
               "profile": set()}
    for t in threads:
        for i in range(1, repeat + 1):
            doc = load("%s/%s-t%d-r%d.json" % (out, b, t, i))
            try:
                cfg = doc["config"]
                info[b]["impl"].add(impl(cfg))
                info[b]["profile"].add(str(cfg.get("profile", "lean")))
                info[b]["asan"].add(bool(cfg.get("asan")))
                info[b]["version"].add(doc.get("version", "?"))
                for m in doc["modes"]:
                    c = cells.setdefault((b, t, m["mode"]), {
                        "calls": 0, "sum_us": 0.0, "means": [], "p50s": [],
                        "alloc_calls": 0, "trylock_fail": 0,
                        "fallback_trylock": 0, "waits": 0,
                        "refill_p50s": {k: [] for k in REFILLS}})
                    k = m["counters"]
                    c["calls"] += m["calls"]
                    c["sum_us"] += m["mean_us"] * m["calls"]
                    c["means"].append(m["mean_us"])
                    c["p50s"].append(m["percentiles_us"]["p50"])
                    c["alloc_calls"] += sum(k[n] for n in API_CALLS)
                    c["trylock_fail"] += k["pcp_trylock_fail"]
                    c["fallback_trylock"] += k["bulk_fallback_trylock"]
                    c["waits"] += m["waits"]
                    for r in REFILLS:
                        v = m.get("by_refill", {}).get(r, {}).get("p50_us")
                        if isinstance(v, (int, float)):
                            c["refill_p50s"][r].append(v)
            except (KeyError, TypeError) as e:
                fail("%s-t%d-r%d.json: no %s in rpcsim's JSON" % (b, t, i, e))

for b in builds:
    want = b == "asan"
    if info[b]["asan"] != {want}:
        print("seed-order.sh: warning: --%s=%s is %s AddressSanitizer build"
              % (b, dirs[b], "not an" if want else "an"), file=sys.stderr)

def per_k(n, calls):
    return 1000.0 * n / calls if calls else float("nan")

def yn(cond):
    return "yes" if cond else "no"

with open(out + "/load-start") as f:
    load_start = f.read().strip()
with open(out + "/load-end") as f:
    load_end = f.read().strip()
cpu = "?"
with open("/proc/cpuinfo") as f:
    for line in f:
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break

print("seed order: rpcsim --alloc=all %s, %d run%s per mode, build and thread "
      "count, the builds alternating run by run"
      % (length.strip(), repeat, "" if repeat == 1 else "s"))
print("machine: %s, %d CPUs" % (cpu, len(
    [l for l in open("/proc/cpuinfo") if l.startswith("processor")])))
for b in builds:
    print("%-6s %s (rpcsim %s, pcp implementation %s, profile %s)"
          % (b + ":", dirs[b], ",".join(sorted(info[b]["version"])),
             ",".join(sorted(info[b]["impl"])),
             ",".join(sorted(info[b]["profile"]))))
print("load average at start: %s" % load_start)
print()

cols = ("build", "threads", "mode", "runs", "calls", "alloc_calls",
        "mean_us", "p50_us", "trylock_fail/1k", "fallback_trylock/1k",
        "waits", "fail<0.1", "fallback<0.1", "no_waits", "order_mean",
        "order_p50")
fmt = ("%-5s %7s %-6s %4s %10s %11s %13s %8s %15s %19s %5s "
       "%8s %12s %8s %10s %9s")
print(fmt % cols)
held = {"counters": 0, "waits": 0, "mean": 0, "p50": 0}
nr_cells = nr_groups = 0
for b in builds:
    for t in threads:
        g = {m: cells[(b, t, m)] for m in MODES}
        for c in g.values():
            c["mean"] = c["sum_us"] / c["calls"] if c["calls"] else 0.0
            c["p50"] = statistics.median(c["p50s"])
        order_mean = g["single"]["mean"] > g["list"]["mean"] > g["array"]["mean"]
        order_p50 = g["single"]["p50"] > g["list"]["p50"] > g["array"]["p50"]
        nr_groups += 1
        held["mean"] += order_mean
        held["p50"] += order_p50
        for m in MODES:
            c = g[m]
            fail_k = per_k(c["trylock_fail"], c["alloc_calls"])
            fb_k = per_k(c["fallback_trylock"], c["alloc_calls"])
            mean = "%.3f" % c["mean"]
            if len(c["means"]) > 1 and c["mean"] > 0:
                mean += " ±%.0f%%" % (100 * statistics.pstdev(c["means"])
                                       / statistics.mean(c["means"]))
            nr_cells += 1
            held["counters"] += fail_k < LIMIT and fb_k < LIMIT
            held["waits"] += c["waits"] == 0
            print(fmt % (b, t, m, len(c["means"]), "{:,}".format(c["calls"]),
                         "{:,}".format(c["alloc_calls"]), mean,
                         "%.3f" % c["p50"], "%.3f" % fail_k, "%.3f" % fb_k,
                         c["waits"], yn(fail_k < LIMIT), yn(fb_k < LIMIT),
                         yn(c["waits"] == 0), yn(order_mean), yn(order_p50)))
print()
# The median of all the calls lies where the two kinds of refill meet
# when each is about half the calls (the default read:1,write:1): each
# kind's own median, and its order, beside it.
print("medians by refill size (us; the median of the runs' medians of the "
      "calls that refilled one page, a WRITE's reply page, and of those that "
      "refilled more, a READ's)")
bfmt = "  %-5s %7s  %10s %7s %7s %5s  %11s %7s %7s %5s"
print(bfmt % ("build", "threads", "one:single", "list", "array", "order",
              "more:single", "list", "array", "order"))
held_refill = {r: 0 for r in REFILLS}
for b in builds:
    for t in threads:
        row = [b, t]
        for r in REFILLS:
            v = [cells[(b, t, m)]["refill_p50s"][r] for m in MODES]
            if all(v):
                p = [statistics.median(x) for x in v]
                ok = p[0] > p[1] > p[2]
                held_refill[r] += ok
                row += ["%.3f" % x for x in p] + [yn(ok)]
            else:
                row += ["-"] * 4
        print(bfmt % tuple(row))
print()
# The seed (Chuck Lever, "[PATCH 0/2] SUNRPC consumer for the bulk page
# allocator", 23 March 2021): 25.007, 6.258 and 4.590 us per call.
SEED = {"single": 25.007, "list": 6.258, "array": 4.590}
PAIRS = (("single", "list", 2.5), ("single", "array", 3.5),
         ("list", "array", 1.15))
rfmt = "  %-5s %7s %12s %13s %11s %8s"
print("ratios of the means beside the seed's (KASAN kernel); stretch, ASan "
      "build: single/list >= 2.5, single/array >= 3.5, list/array >= 1.15")
print(rfmt % ("build", "threads", "single/list", "single/array",
              "list/array", "stretch"))
print(rfmt % ("seed", "-", "%.2f" % (SEED["single"] / SEED["list"]),
              "%.2f" % (SEED["single"] / SEED["array"]),
              "%.2f" % (SEED["list"] / SEED["array"]), "-"))
stretch = [0, 0]
for b in builds:
    for t in threads:
        g = {m: cells[(b, t, m)]["mean"] for m in MODES}
        r = [g[x] / g[y] if g[y] > 0 else float("nan") for x, y, _ in PAIRS]
        held_s = "-"
        if b == "asan":
            ok = all(v >= goal for v, (_, _, goal) in zip(r, PAIRS))
            stretch[0] += ok
            stretch[1] += 1
            held_s = yn(ok)
        print(rfmt % (b, t, "%.2f" % r[0], "%.2f" % r[1], "%.2f" % r[2],
                      held_s))
if stretch[1]:
    print("stretch held in %d of %d ASan thread counts"
          % (stretch[0], stretch[1]))
print()
print("load average at end: %s" % load_end)
print("targets: failures and fallbacks below %.1f per 1,000 allocator calls "
      "in %d of %d cells, no retry waits in %d of %d; single > list > array "
      "by mean in %d of %d build x thread counts, by median in %d of %d"
      % (LIMIT, held["counters"], nr_cells, held["waits"], nr_cells,
         held["mean"], nr_groups, held["p50"], nr_groups))
print("by refill size: single > list > array by the median of the calls "
      "that refilled more than one page in %d of %d, of those that refilled "
      "one page in %d of %d"
      % (held_refill["more_pages"], nr_groups, held_refill["one_page"],
         nr_groups))
print("""
mean_us: mean svc_alloc_arg() latency over every call of the runs (± the
  runs' means' standard deviation relative to it, with 2 runs or more);
  p50_us: the median of the runs' medians.  trylock_fail/1k and
  fallback_trylock/1k: libpagepool's pcp_trylock_fail and
  bulk_fallback_trylock per 1,000 allocator calls, alloc_calls being the
  sum of alloc_single_calls, alloc_bulk_list_calls and
  alloc_bulk_array_calls.  waits: retry waits after an allocator call made
  no progress.  order_mean, order_p50: single > list > array for that build
  and thread count.  The targets are reported, not enforced.  By refill
  size: the list call for one page takes 5.13's single-page path (the
  bulk call hands one missing page to it), so there the list mode adds its
  own work to a single page's; the array call for a WRITE's one hole,
  which lies past populated slots, stays on the bulk path.  The median of
  all the calls is the one kind's or the other's by a hair when each is
  half the calls, as with whole records; with --tcp-read each short read
  of a WRITE adds a call that refills more than one page.""")
PY
