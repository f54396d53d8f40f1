#!/bin/sh
# SPDX-License-Identifier: MIT
#
# What rpcsim --trace does beside the latencies test_trace.sh checks, and
# how it fails: --trace-events=all records every pagepool event, and
# each bulk call's fallback reason as rpcsim counted it (a pool at its
# minimum, where the watermark refuses most bulk calls); the
# plain lttng create/enable-event/start/stop workflow on the providers;
# a truncated and a corrupted rpcsim trace; a run that a deadline or a
# terminal's signal ends takes its session with it; a folder that holds
# a trace, or that another rpcsim records into, is refused; another
# rpcsim running meanwhile is not recorded; a failed analysis of the
# run's own trace fails the run; a full file system
# under the trace is said as such (as root); and --trace with no session
# daemon.  Nothing here times anything but to catch a hang: it runs
# beside other tests.  Isolated from the user's LTTng state as
# test_trace.sh is (lttng_isolate, tests/utils/lttng.sh); skipped, not
# passed, without LTTng or when that isolation cannot be had.

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
# shellcheck source=tests/utils/lttng.sh
. "$top_srcdir/tests/utils/lttng.sh"
# Runs this script again, isolated, before anything is printed.
lttng_test_isolated "$0" "$@"

# shellcheck source=tests/rpcsim/common.sh
. "$top_srcdir/tests/rpcsim/common.sh"
need_trace analyze

plan_tests 34
full_mount=
tap_at_exit 'st=$?; [ $st -eq 0 ] || diag "exit status $st (planned $tap_planned, ran $tap_run, failed $tap_failed)"'
tap_at_exit '[ -z "$full_mount" ] || umount "$full_mount" || diag "umount $full_mount failed"'
tap_at_exit lttng_cleanup
lttng_sessiond_up >"$tmpdir/why" || bail_out "$(cat "$tmpdir/why")"
diag "lttng-sessiond pid $lttng_started_pid, LTTNG_HOME $LTTNG_HOME ($PP_LTTNG_ISOLATED)"

# The trace that sections 3 and 5 start from: one array run.
run --alloc=array --requests=1000 --threads=2 --trace="$tmpdir/trace-array" --quiet
ran_ok "rpcsim --alloc=array --trace: a trace to start from"

# 1. Every pagepool event shows up with --trace-events=all.
run --alloc=all --requests=300 --trace="$tmpdir/trace-pp" --trace-events=all --quiet
ran_ok "rpcsim --trace-events=all: runs"
babeltrace2 "$tmpdir/trace-pp" 2>/dev/null | sed -n 's/.* \(pagepool:[a-z_]*\): .*/\1/p' |
	sort -u >"$tmpdir/pp-events"
for ev in mm_page_alloc_bulk mm_page_alloc_zone_locked mm_page_free \
	  mm_page_free_batched mm_page_pcpu_drain; do
	grep -qx "pagepool:$ev" "$tmpdir/pp-events"
	ok $? "--trace-events=all records pagepool:$ev"
done
# A bulk call without a fallback that filled every entry asked for says
# so: populated (the entries already there, wherever they are: nfsd's
# array has its holes in the middle) + allocated = requested.  So does
# the one-page fallback, taken when the array's only hole is its last
# entry: populated requested - 1, allocated 1.  rpcsim's pool is not
# short here: no call comes back short.
res=$(babeltrace2 "$tmpdir/trace-pp" 2>/dev/null | python3 -c '
import re, sys
n = bad = holes = one = 0
for line in sys.stdin:
    if "pagepool:mm_page_alloc_bulk:" not in line:
        continue
    if "\"one_page\"" in line:
        one += 1
    elif "\"none\"" not in line:
        continue
    f = dict((k, int(v)) for k, v in
             re.findall(r"(requested|populated|allocated) = (\d+)", line))
    n += 1
    bad += f["populated"] + f["allocated"] != f["requested"]
    holes += f["populated"] > 0 and f["allocated"] > 0
print("%d of %d calls, %d with populated entries, %d one-page fallbacks" %
      (n - bad, n, holes, one))
sys.exit(0 if n and not bad and holes and one else 1)')
ok $? "mm_page_alloc_bulk: populated + allocated = requested for every full call ($res)"
# Each fallback reason as rpcsim counted it, in both profiles (each
# traces its own fallbacks): one thread at the smallest pool rpcsim takes
# (its own message names 1452k) finds the free pages under the low
# watermark plus the call's pages, so most bulk calls of both bulk modes
# fall back for the watermark (hundreds each, always some: one thread, a
# fixed seed), some for one page.  The analysis of the trace must count,
# per mode and reason, what rpcsim's JSON counted.
for profile in kernel lean; do
	run --alloc=all --threads=1 --file-size=256k --io-size=64k \
		--pool-size=1452k --profile=$profile --requests=100 \
		--trace="$tmpdir/trace-wm-$profile" --trace-events=all --json
	cp "$OUT" "$tmpdir/wm.json"
	"$ANALYZE" --json "$tmpdir/trace-wm-$profile" >"$tmpdir/wm-analyze.json" \
		2>"$tmpdir/wm.err"
	res=$(python3 - "$tmpdir/wm.json" "$tmpdir/wm-analyze.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
a = json.load(open(sys.argv[2]))
bad, seen = [], []
for rm in r["modes"]:
    am = [m for m in a["modes"] if m["label"] == rm["label"]]
    k = rm["counters"]
    want = {x: k["bulk_fallback_" + x]
            for x in ("one_page", "watermark", "trylock", "empty")}
    got = dict(am[0]["bulk"]["fallback"]) if len(am) == 1 else None
    if got:
        got.pop("none")
    if got != want:
        bad.append("%s: trace %s, rpcsim %s" % (rm["mode"], got, want))
    seen.append("%s %d" % (rm["mode"], want["watermark"]))
ok = not bad and all(m["counters"]["bulk_fallback_watermark"] > 0
                     for m in r["modes"] if m["mode"] != "single")
print("; ".join(bad) if bad else "watermark fallbacks: " + ", ".join(seen))
sys.exit(0 if ok else 1)
PY
)
	ok $? "$profile profile: each fallback reason of mm_page_alloc_bulk is the one rpcsim counted ($res)" ||
		diag "exit $status: $(head -c 500 "$ERR"; cat "$tmpdir/wm.err")"
done

# 2. The plain workflow, by hand: create, enable-event, vtid, start, run,
#    stop, destroy, then babeltrace2.  Other instrumented processes may
#    run meanwhile, so look for this run's own seed.
seed=$$$(date +%N | cut -c1-4)
s=manual-$$-$(date +%s%N)
lttng_sessions="$lttng_sessions $s"
{ lttng_cmd create "$s" --output="$tmpdir/manual" &&
  lttng_cmd enable-event -u -s "$s" 'rpcsim:*' &&
  lttng_cmd add-context -u -s "$s" -t vtid &&
  lttng_cmd start "$s"; } >/dev/null 2>&1
ok $? "lttng create; enable-event -u 'rpcsim:*'; add-context -u -t vtid; start"
run --alloc=list --requests=200 --seed="$seed" --quiet
ran_ok "rpcsim runs under the manual session"
{ lttng_cmd stop "$s" && lttng_cmd destroy "$s"; } >/dev/null 2>&1
ok $? "lttng stop; destroy"
babeltrace2 "$tmpdir/manual" >"$tmpdir/manual.txt" 2>/dev/null
grep -q "rpcsim:run_start: .*vtid = .*mode_name = \"list\".* seed = $seed," "$tmpdir/manual.txt"
ok $? "babeltrace2 prints this run's run_start with its configuration"
n=$(grep -c 'rpcsim:svc_alloc_arg_exit: .*latency_ns = ' "$tmpdir/manual.txt")
[ "$n" -ge 200 ]
ok $? "babeltrace2 prints the svc_alloc_arg_exit events ($n)"

# 3. A truncated and a corrupted rpcsim trace: exit 1 and a message.
# broken_trace NAME DESCRIPTION SPOIL: a copy of the array mode's trace,
# $tmpdir/NAME, whose first stream file over 8 KiB the function SPOIL
# changes (its path the argument): rpcsim-analyze exits 1 with a message.
broken_trace()
{
	cp -r "$tmpdir/trace-array" "$tmpdir/$1"
	stream=$(find "$tmpdir/$1" -type f -name 'rpcsim_*' ! -name '*.idx' -size +8k | head -n 1)
	if [ -z "$stream" ]; then
		skip 1 "no stream file over 8 KiB in the trace"
		return
	fi
	"$3" "$stream"
	timeout 60 "$ANALYZE" "$tmpdir/$1" >/dev/null 2>"$ERR"
	st=$?
	[ $st -eq 1 ] && [ -s "$ERR" ]
	ok $? "$2: exit 1 with a message (exit $st: $(head -n 1 "$ERR"))"
}
# Half of it, and the index that would say how long it was.
cut_in_half()
{
	truncate -s $(($(stat -c %s "$1") / 2 + 3)) "$1"
	rm -rf "$(dirname "$1")/index"
}
# The first packet's header magic (0xc1fc1fc1) becomes zeros.
zero_magic()
{
	printf '\000\000\000\000' | dd of="$1" bs=1 seek=0 conv=notrunc 2>/dev/null
}
broken_trace cut "truncated rpcsim trace" cut_in_half
broken_trace bad "rpcsim trace with a corrupted packet header" zero_magic

# 4. A pool too small for the threads (the buddy allocator keeps pages
#    back): the deadline or a signal ends the run all the same, and the
#    session goes with it, whichever terminating signal it was.
min=$("$RPCSIM" --threads=2 --file-size=1m --requests=1 --json |
	python3 -c 'import json, sys; print(json.load(sys.stdin)["config"]["min_pool_pages"])')
stuck="PAGEPOOL_FAULT=buddy-empty=$((min - 356)) --threads=2 --file-size=1m --pool-size=$((min * 4))k --retry-wait=100"
# shellcheck disable=SC2086 # $stuck is several words
run_bounded $stuck --duration=1 --trace="$tmpdir/trace-stuck"
[ "$status" -eq 1 ] && grep -q 'the pool is too small for this run' "$ERR"
ok $? "stuck pool, --trace, --duration=1: exit 1, the pool is too small (exit $status)" ||
	diag "$(head -c 1000 "$ERR")"
! lttng_cmd list 2>/dev/null | grep -q "rpcsim-$pid-"
ok $? "  and its session is gone"
# Every terminating signal from a terminal, not only SIGINT and SIGTERM.
for sn in INT:2 HUP:1 QUIT:3; do
	sig=${sn%:*}
	code=$((128 + ${sn#*:}))
	# shellcheck disable=SC2086
	spawn $stuck --duration=60 --trace="$tmpdir/trace-stuck-$sig"
	signal_started $sig
	[ "$status" -eq $code ]
	ok $? "stuck pool, --trace, SIG$sig: exit $code (exit $status after $took s)" ||
		diag "$(head -c 1000 "$ERR")"
	! lttng_cmd list 2>/dev/null | grep -q "rpcsim-$pid-"
	ok $? "  and its session is gone"
done

# 5. One trace per folder: a folder that already holds a trace is
#    refused, and so is one another rpcsim is recording into (today both
#    runs "succeed" with one corrupt trace); the trace there is untouched.
before=$(find "$tmpdir/trace-array" -type f -exec cksum {} + | sort)
run --requests=100 --trace="$tmpdir/trace-array" --quiet
[ "$status" -eq 1 ] && grep -q 'already holds a trace' "$ERR" &&
	[ "$(wc -l <"$ERR")" -eq 1 ]
ok $? "--trace onto a folder holding a trace: exit 1, one line saying so (exit $status)" ||
	diag "$(head -c 1000 "$ERR")"
[ "$(find "$tmpdir/trace-array" -type f -exec cksum {} + | sort)" = "$before" ]
ok $? "  and that trace is untouched"
mkdir "$tmpdir/two"
"$RPCSIM" --duration=3 --threads=1 --trace="$tmpdir/two" \
	>"$tmpdir/first.out" 2>"$tmpdir/first.err" </dev/null &
first=$!
i=0
until grep -q '^  trace: ' "$tmpdir/first.out" 2>/dev/null || [ $i -gt 600 ]; do
	sleep 0.1
	i=$((i + 1))
done
run --requests=100 --trace="$tmpdir/two" --quiet
[ "$status" -eq 1 ] && grep -q 'is in use: another rpcsim --trace is recording into it' "$ERR"
ok $? "a second rpcsim --trace into the same folder at once: exit 1, refused (exit $status)" ||
	diag "$(head -c 1000 "$ERR")"
# A session records every instrumented process of the user: rpcsim's
# keeps its own (a filter on its vpid).  Another rpcsim, not traced, runs
# while the first one records: the first one's trace holds one process.
run --requests=300 --threads=1 --quiet
other=$status
kill -0 "$first" 2>/dev/null
during=$?
wait_bounded "$first" 120
[ "$status" -eq 0 ] && grep -q '^Bulk array: .* per call over .* calls$' "$tmpdir/first.out" &&
	! grep -q 'failed\|could not read' "$tmpdir/first.err"
ok $? "  the first run's own trace is whole and analyzed (exit $status)" ||
	diag "$(head -c 1000 "$tmpdir/first.err")"
if [ "$during" -eq 0 ]; then
	babeltrace2 "$tmpdir/two" 2>/dev/null |
		sed -n 's/.* vpid = \([0-9]*\),.*/\1/p' | sort -u >"$tmpdir/two.vpids"
	[ "$other" -eq 0 ] && [ "$(wc -l <"$tmpdir/two.vpids")" -eq 1 ]
	ok $? "  and holds its own events only, not those of an rpcsim run meanwhile (exit $other)" ||
		diag "vpids: $(tr '\n' ' ' <"$tmpdir/two.vpids")"
else
	skip 1 "the first run ended before the other one did (a loaded machine)"
fi
# The analysis of its own trace failing is a failure of the run.
printf '#!/bin/sh\necho "rpcsim-analyze: $1: a broken trace" >&2\nexit 1\n' >"$tmpdir/bad-analyze"
chmod +x "$tmpdir/bad-analyze"
run_env RPCSIM_ANALYZE="$tmpdir/bad-analyze" --requests=100 \
	--trace="$tmpdir/trace-unread" --quiet
[ "$status" -eq 1 ] && grep -q 'could not read this run.s own trace' "$ERR"
ok $? "rpcsim-analyze failing on rpcsim's own trace: exit 1, not 0 (exit $status)" ||
	diag "$(head -c 1000 "$ERR")"

# 6. The trace's file system fills up (a 2 MiB tmpfs of our own, about
#    40 MB of events): rpcsim says that it is full and where, not only
#    lttng's "Rotation failure on consumer", and exits 1.
if [ "$(id -u)" -eq 0 ] && mkdir "$tmpdir/full" &&
   mount -t tmpfs -o size=2m tmpfs "$tmpdir/full" 2>/dev/null; then
	full_mount=$tmpdir/full
	run --requests=20000 --threads=1 --trace-events=all \
		--trace="$tmpdir/full/t" --quiet
	[ "$status" -eq 1 ] && grep -q "the trace's file system is full: .*/full/t is on .*/full, which has" "$ERR"
	ok $? "a full file system under the trace: exit 1, said with the folder and the mount point (exit $status)" ||
		diag "$(head -c 1000 "$ERR")"
	umount "$full_mount" && full_mount=
else
	skip 1 "mounting a tmpfs needs root"
fi

# 7. No session daemon: as an unprivileged user with an empty LTTNG_HOME,
#    nothing answers; rpcsim says so and how to start one, exit 1.
if [ "$(id -u)" -eq 0 ] && command -v runuser >/dev/null 2>&1 &&
   runuser -u nobody -- test -x "$RPCSIM" 2>/dev/null; then
	home=$tmpdir/nobody-home
	mkdir -p "$home" && chmod 777 "$home" "$tmpdir"
	timeout 60 runuser -u nobody -- env LTTNG_HOME="$home" \
		LTTNG_UST_REGISTER_TIMEOUT=0 "$RPCSIM" --requests=10 \
		--trace="$home/t" >/dev/null 2>"$ERR"
	st=$?
	[ $st -eq 1 ] && grep -q 'no LTTng session daemon answers: start one with' "$ERR"
	ok $? "--trace without a session daemon: exit 1 and how to start one (exit $st)"
	[ ! -e "$home/t" ]
	ok $? "--trace without a session daemon leaves no folder behind"
else
	skip 2 "needs root, runuser and a build tree the nobody user can run"
fi

exit_status
exit $?
