#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Live analysis: rpcsim --trace-live sends its run to a real lttng-relayd
# on loopback (ports of its own, output folder in the test's tmpdir),
# while rpcsim-analyze --live follows it through babeltrace2's lttng-live
# source.  Checked: interval lines appear before the end of the run, and
# their calls and means add up to the whole run's; the
# whole-run report at the end is the one rpcsim-analyze prints for the
# trace the relay daemon wrote; that trace agrees with rpcsim's own
# figures; bad URLs and no relay daemon are one-line errors (exit 2 and
# 1).
#
# It never sees or touches the user's LTTng state: its own LTTNG_HOME and
# (as root) its own /var/run/lttng, its own session daemon and relay
# daemon, each stopped by its pid (lttng_isolate, tests/utils/lttng.sh).
# Skipped without lttng-relayd, babeltrace2's lttng-live source or that
# isolation.  Every process is bounded by timeout.

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
# shellcheck source=tests/utils/tap.sh
. "$top_srcdir/tests/utils/tap.sh"
plan_no_plan
# shellcheck source=tests/utils/lttng.sh
. "$top_srcdir/tests/utils/lttng.sh"

ANALYZE=$top_builddir/analyze/rpcsim-analyze
RPCSIM=$top_builddir/rpcsim/rpcsim

tap_skip_without_prog "$ANALYZE" "configure found no libbabeltrace2"
tap_skip_without_prog "$RPCSIM" "rpcsim not built"
"$RPCSIM" --help | grep -q -- '--trace-live' ||
	plan_skip_all "rpcsim built without LTTng-UST"
command -v lttng-relayd >/dev/null 2>&1 ||
	plan_skip_all "lttng-relayd missing (apt-get install lttng-tools)"
babeltrace2 help source.ctf.lttng-live >/dev/null 2>&1 ||
	plan_skip_all "babeltrace2's source.ctf.lttng-live missing"
have_python || plan_skip_all "python3 missing (it picks free ports and checks the JSON)"
# Runs this script again, isolated, before anything is printed.
lttng_test_isolated "$0" "$@"

tap_tmpdir test-live
relay_pid=
relay_down()
{
	[ -n "$relay_pid" ] || return 0
	kill "$relay_pid" 2>/dev/null
	i=0
	while kill -0 "$relay_pid" 2>/dev/null && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	kill -9 "$relay_pid" 2>/dev/null
	wait "$relay_pid" 2>/dev/null
	relay_pid=
}
tap_at_exit lttng_cleanup
tap_at_exit relay_down

lttng_sessiond_up >"$tmpdir/why" 2>&1 || bail_out "$(cat "$tmpdir/why")"
diag "lttng-sessiond pid $lttng_started_pid, LTTNG_HOME $LTTNG_HOME ($PP_LTTNG_ISOLATED)"

###########################################################################
# Bad URLs and no relay daemon: before any is started

# one_line NAME STATUS PATTERN SECONDS COMMAND...: COMMAND, killed after
# SECONDS, exits STATUS with one line on stderr, matching PATTERN (grep);
# its stdout and stderr in $tmpdir/NAME.out and .err.
one_line()
{
	ol_name=$1 ol_status=$2 ol_pattern=$3 ol_seconds=$4
	shift 4
	timeout "$ol_seconds" "$@" >"$tmpdir/$ol_name.out" 2>"$tmpdir/$ol_name.err"
	ol_st=$?
	if [ $ol_st -eq "$ol_status" ] &&
	   [ "$(wc -l <"$tmpdir/$ol_name.err")" -eq 1 ] &&
	   grep -q -- "$ol_pattern" "$tmpdir/$ol_name.err"; then
		return 0
	fi
	diag "exit $ol_st" "$(cat "$tmpdir/$ol_name.err")"
	return 1
}

one_line b1 2 "invalid --live 'net://localhost/host/x': accepted net://HOST" \
	20 "$ANALYZE" --live=net://localhost/host/x
ok $? "rpcsim-analyze --live without SESSION: exit 2, one line"

timeout 20 "$ANALYZE" --live=net://127.0.0.1:1/host/h/s --json x >"$tmpdir/b2.out" 2>"$tmpdir/b2.err"
st=$?
[ $st -eq 2 ] && grep -q "give one of them" "$tmpdir/b2.err"
ok $? "rpcsim-analyze --live and a TRACE: exit 2" || diag "exit $st" "$(cat "$tmpdir/b2.err")"

one_line b3 2 "invalid --trace-live 'tcp://localhost': accepted net://HOST.*, the relay daemon's control URL$" \
	20 "$RPCSIM" --trace-live=tcp://localhost
ok $? "rpcsim --trace-live=tcp://...: exit 2, one line"

# babeltrace2 2.0.4 takes the port from the first colon: a bracketed IPv6
# address would fail after the graph is built ("Invalid port"), exit 1.
one_line b4 2 "invalid --live 'net6://\[::1\]:5344/host/h/s': babeltrace2's live URL takes no bracketed IPv6 address: give the relay daemon's host name" \
	20 "$ANALYZE" --live='net6://[::1]:5344/host/h/s'
ok $? "rpcsim-analyze --live=net6://[::1]:...: exit 2, one line naming the limit"

# three ports nothing listens on (bound and let go; the relay daemon
# below takes them a moment later)
set -- $(python3 -c '
import socket
s = [socket.socket() for _ in range(3)]
for x in s:
    x.bind(("127.0.0.1", 0))
print(" ".join(str(x.getsockname()[1]) for x in s))
')
ctl=$1 dat=$2 liv=$3
diag "ports: control $ctl, data $dat, live $liv"

one_line n1 1 "^rpcsim-analyze: --live=net://127.0.0.1:$liv/host/h/s: .*Connection refused" \
	20 "$ANALYZE" --live="net://127.0.0.1:$liv/host/h/s"
ok $? "rpcsim-analyze --live, no relay daemon: exit 1, one line with the cause"

one_line n2 1 "no relay daemon answers at net://127.0.0.1:$ctl:$dat" \
	30 "$RPCSIM" --duration=0.2 --trace-live="net://127.0.0.1:$ctl:$dat"
ok $? "rpcsim --trace-live, no relay daemon: exit 1, one line saying so"
lttng_cmd list >"$tmpdir/n2.list" 2>&1
! grep -q rpcsim- "$tmpdir/n2.list"
ok $? "no session left behind by the failed start" || diag "$(cat "$tmpdir/n2.list")"

###########################################################################
# The relay daemon, rpcsim --trace-live, rpcsim-analyze --live

# relay_up OUTDIR [6]: the relay daemon on the three ports, $relay_pid,
# on 127.0.0.1 (with 6: on ::1); true once its live port answers
relay_up()
{
	mkdir -p "$1"
	if [ "${2:-}" = 6 ]; then
		ru_url="tcp6://[::1]" ru_family=AF_INET6 ru_host=::1
	else
		ru_url="tcp://127.0.0.1" ru_family=AF_INET ru_host=127.0.0.1
	fi
	lttng-relayd -o "$1" -C "$ru_url:$ctl" \
		-D "$ru_url:$dat" -L "$ru_url:$liv" \
		>"$1.log" 2>&1 &
	relay_pid=$!
	i=0
	while [ $i -lt 100 ]; do
		python3 -c "
import socket
s = socket.socket(socket.$ru_family)
s.settimeout(1)
s.connect(('$ru_host', $liv))
" 2>/dev/null && return 0
		kill -0 "$relay_pid" 2>/dev/null || return 1
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

relay_up "$tmpdir/relay"
ok $? "lttng-relayd (pid $relay_pid) listens on its live port" || {
	diag "$(cat "$tmpdir/relay.log")"
	exit_status
	exit $?
}

# live_run NAME DURATION [late]: rpcsim --alloc=all --duration=DURATION
# --trace-live, and rpcsim-analyze --live on it, started as soon as
# rpcsim said the URL, or with "late" once rpcsim's first timed run has
# gone a second (its --progress line); $tmpdir/NAME.{json,err}
# rpcsim's, $tmpdir/NAME-live.{out,err} rpcsim-analyze's; $url, $seen (0:
# an interval line came before rpcsim ended), $rpcsim_st, $analyze_st.
# $live_opts: more rpcsim options.
live_opts=
live_run()
{
	# shellcheck disable=SC2086 # $live_opts: none or several words
	timeout 60 "$RPCSIM" --alloc=all --duration="$2" --threads=1 --json $live_opts \
		--trace-live="net://127.0.0.1:$ctl:$dat" ${3:+--progress} \
		>"$tmpdir/$1.json" 2>"$tmpdir/$1.err" &
	rpcsim_pid=$!
	# its live URL, said on stderr once the session exists
	url=
	i=0
	while [ $i -lt 400 ] && [ -z "$url" ]; do
		url=$(sed -n 's/.*follow it with: rpcsim-analyze --live=\([^;]*\);.*/\1/p' "$tmpdir/$1.err")
		[ -n "$url" ] || sleep 0.025
		i=$((i + 1))
	done
	url=$(echo "$url" | sed "s/:5344\\//:$liv\\//")
	# late: once the first mode's timed run has gone a second (its first
	# progress line), long after its run_start was sent to the relay,
	# whatever the build's speed
	i=0
	while [ -n "${3:-}" ] && [ $i -lt 2400 ] &&
		! grep -q '^rpcsim: .* run 1/1: .* s elapsed' "$tmpdir/$1.err"; do
		sleep 0.025
		i=$((i + 1))
	done
	timeout 60 "$ANALYZE" --live="$url" >"$tmpdir/$1-live.out" \
		2>"$tmpdir/$1-live.err" &
	analyze_pid=$!
	# interval lines while rpcsim still runs
	seen=1
	while kill -0 "$rpcsim_pid" 2>/dev/null; do
		if grep -qs '^t=[0-9]*s .* us (.* calls\{0,1\})' "$tmpdir/$1-live.out"; then
			seen=0
			break
		fi
		sleep 0.1
	done
	wait "$rpcsim_pid"
	rpcsim_st=$?
	wait "$analyze_pid"
	analyze_st=$?
}

# 3 modes x 1.5 s; one thread keeps the tracer from discarding.  Each
# mode warms up first (--warmup: untimed calls before its run_start,
# which neither rpcsim's figures nor the report count, nor the interval
# lines).  The live source starts at the relay daemon's newest packets:
# a viewer slower to attach than the first run_start (live timer 200 ms)
# misses it and says so (checked below); then the run is tried again,
# at most 3 times.
live_opts=--warmup=500
try=1
while :; do
	live_run rpcsim 1.5
	grep -q 'joined after process' "$tmpdir/rpcsim-live.err" &&
		[ $try -lt 3 ] || break
	diag "try $try: rpcsim-analyze --live attached late: $(cat "$tmpdir/rpcsim-live.err")"
	try=$((try + 1))
done
[ -n "$url" ]
ok $? "rpcsim --trace-live says how to follow it ($url)" ||
	diag "$(cat "$tmpdir/rpcsim.err")"
ok $seen "an interval line with per-call latencies before rpcsim ended" ||
	diag "$(cat "$tmpdir/rpcsim-live.out")"
ok $rpcsim_st "rpcsim --trace-live: exit 0" || diag "$(cat "$tmpdir/rpcsim.err")"
ok $analyze_st "rpcsim-analyze --live: exit 0 once the session ended" ||
	diag "exit $analyze_st" "$(cat "$tmpdir/rpcsim-live.err")"
cp "$tmpdir/rpcsim-live.out" "$tmpdir/live.out"

# the trace the relay daemon wrote
dir=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["trace"]["dir"])' "$tmpdir/rpcsim.json" 2>/dev/null)
[ -n "$dir" ] && [ -d "$tmpdir/relay/$dir" ]
ok $? "the relay daemon wrote the trace in $dir, as rpcsim says" ||
	diag "$(cd "$tmpdir/relay" && find . -maxdepth 3)"
relay_down

timeout 60 "$ANALYZE" "$tmpdir/relay/$dir" >"$tmpdir/disk.out" 2>"$tmpdir/disk.err"
ok $? "rpcsim-analyze on the relay daemon's trace: exit 0" ||
	diag "$(cat "$tmpdir/disk.err")"
grep -v '^t=[0-9]*s ' "$tmpdir/live.out" >"$tmpdir/live.final"
# Warm-up calls come before their run_start, and a viewer that attaches
# during the warm-up never sees the packets sent before (doc/tracing.md):
# then, and only then, the live report's event count and its "no run"
# line (the calls the figures leave out) may be lower than on disk; every
# other line must be the same (a TSan CI run under load missed 199 of
# 500 warm-up calls).
no_run()
{
	sed -n 's/^  no run: .* over \([0-9,]*\) calls.*/\1/p' "$1" | tr -d ,
}
warm=
if ! cmp -s "$tmpdir/live.final" "$tmpdir/disk.out"; then
	for f in live.final disk.out; do
		sed -e '/^1 trace, [0-9,]* events (/d' -e '/^  no run: /d' \
			"$tmpdir/$f" >"$tmpdir/$f.cut"
	done
	lw=$(no_run "$tmpdir/live.final") dw=$(no_run "$tmpdir/disk.out")
	cmp -s "$tmpdir/live.final.cut" "$tmpdir/disk.out.cut" &&
		[ -n "$dw" ] && [ "${lw:-0}" -lt "$dw" ] &&
		warm=" but ${lw:-0} of the $dw warm-up calls, the viewer attached during the warm-up"
	[ -n "$warm" ] || warm=no
fi
[ "$warm" != no ] && [ -s "$tmpdir/disk.out" ]
ok $? "--live's whole-run report is the on-disk analysis of the same trace$warm" ||
	diag "$(diff "$tmpdir/live.final" "$tmpdir/disk.out" | head -40)"
grep -q '^t=[0-9]*s ' "$tmpdir/live.final"
[ $? -ne 0 ] && [ "$(grep -c '^t=[0-9]*s ' "$tmpdir/live.out")" -ge 1 ]
ok $? "interval lines, then the report" || diag "$(cat "$tmpdir/live.out")"

# the trace against rpcsim's own figures
timeout 60 "$ANALYZE" --json "$tmpdir/relay/$dir" >"$tmpdir/disk.json" 2>"$tmpdir/diskj.err"
res=$(python3 - "$tmpdir/rpcsim.json" "$tmpdir/disk.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
a = json.load(open(sys.argv[2]))
labels = {"single": "Single page", "list": "Bulk list", "array": "Bulk array"}
lost = r["trace"]["discarded_events"] + r["trace"]["lost_packets"]
bad, said = [], []
for rm in r["modes"]:
    am = [m for m in a["modes"] if m["label"] == labels[rm["mode"]]]
    if len(am) != 1:
        bad.append("%s: %d modes in the trace" % (rm["mode"], len(am)))
        continue
    am = am[0]
    if am["run_end"]["calls"] != rm["calls"]:
        bad.append("%s: run_end says %d calls, rpcsim %d" %
                   (rm["mode"], am["run_end"]["calls"], rm["calls"]))
    if lost == 0 and am["calls"] != rm["calls"]:
        bad.append("%s: %d calls in the trace, %d measured" %
                   (rm["mode"], am["calls"], rm["calls"]))
    said.append("%s %d calls" % (rm["mode"], rm["calls"]))
if len(r["modes"]) != 3:
    bad.append("rpcsim ran %d modes" % len(r["modes"]))
print("; ".join(bad) if bad else ", ".join(said))
sys.exit(1 if bad else 0)
PY
)
ok $? "the relay daemon's trace agrees with rpcsim's figures ($res)"

# every call in exactly one interval line
res=$(python3 - "$tmpdir/live.out" "$tmpdir/disk.json" <<'PY'
import json, re, sys
seen = {}
for line in open(sys.argv[1]):
    if not line.startswith("t="):
        continue
    for mode, n in re.findall(r" (single|list|array) [0-9.]+ us \(([0-9,]+) calls?\)", line):
        seen[mode] = seen.get(mode, 0) + int(n.replace(",", ""))
a = json.load(open(sys.argv[2]))
names = {"Single page": "single", "Bulk list": "list", "Bulk array": "array"}
want = {names[m["label"]]: m["calls"] for m in a["modes"]}
print("%s, report %s" % (seen, want))
sys.exit(0 if seen == want else 1)
PY
)
ok $? "the interval lines add up to the whole run's calls ($res)"
# and their means to the whole run's latency: each line's mean times its
# calls is that line's sum of latency_ns to the line's rounding (0.0005
# us a call), so the sums of a mode's lines are its total within
# 0.0005 us times its calls
res=$(python3 - "$tmpdir/live.out" "$tmpdir/disk.json" <<'PY'
import json, re, sys
total = {}
for line in open(sys.argv[1]):
    if not line.startswith("t="):
        continue
    for mode, us, n in re.findall(r" (single|list|array) ([0-9.]+) us \(([0-9,]+) calls?\)", line):
        total[mode] = total.get(mode, 0) + float(us) * int(n.replace(",", ""))
a = json.load(open(sys.argv[2]))
names = {"Single page": "single", "Bulk list": "list", "Bulk array": "array"}
bad = []
for m in a["modes"]:
    mode = names[m["label"]]
    want = m["latency_ns"]["mean_ns"] * m["calls"] / 1000
    if abs(total.get(mode, 0) - want) > 0.0005 * m["calls"] + 0.01:
        bad.append("%s: the lines make %.3f us, the report %.3f us"
                   % (mode, total.get(mode, 0), want))
print("; ".join(bad) if bad else "%d modes" % len(a["modes"]))
sys.exit(1 if bad else 0)
PY
)
ok $? "the interval lines' means make the whole run's latency ($res)"

# a session the relay daemon does not have: ends, says so
relay_up "$tmpdir/relay2" || diag "$(cat "$tmpdir/relay2.log")"
one_line ns 1 "has no session 'nosession'" \
	30 "$ANALYZE" --live="net://127.0.0.1:$liv/host/nohost/nosession"
ok $? "--live on a session the relay daemon does not have: exit 1, one line"
# a viewer that joins a second into the first timed run: the start is
# missing, said
live_opts=
live_run late 1.5 late
[ "$analyze_st" -eq 1 ] &&
	grep -q "^rpcsim-analyze: --live=$url: incomplete: joined after process [0-9]* had started" "$tmpdir/late-live.err" &&
	[ "$(wc -l <"$tmpdir/late-live.err")" -eq 1 ]
ok $? "--live joining a run late: exit 1, one line saying the start is missing" ||
	diag "exit $analyze_st" "$(cat "$tmpdir/late-live.err")"
# a viewer that joins after a whole run, in the warm-up of the next: no
# run of the process ends without its start, but the first run_start
# that comes is its second (run_seq), so it says so.  (If the previous
# run's run_end is in the newest packet, that says it first.)
timeout 60 "$RPCSIM" --alloc=single --repeat=2 --duration=0.2 --threads=1 \
	--warmup=30000 --trace-live="net://127.0.0.1:$ctl:$dat" \
	>"$tmpdir/between.out" 2>"$tmpdir/between.err" &
rpcsim_pid=$!
i=0
while [ $i -lt 1200 ] && ! grep -q '^  \[run 1/2\]' "$tmpdir/between.out"; do
	sleep 0.025
	i=$((i + 1))
done
sleep 0.3
url=$(sed -n 's/.*follow it with: rpcsim-analyze --live=\([^;]*\);.*/\1/p' "$tmpdir/between.err" |
	sed "s/:5344\\//:$liv\\//")
timeout 60 "$ANALYZE" --live="$url" >"$tmpdir/between-live.out" \
	2>"$tmpdir/between-live.err"
analyze_st=$?
wait "$rpcsim_pid"
rpcsim_st=$?
[ "$rpcsim_st" -eq 0 ] && [ "$analyze_st" -eq 1 ] &&
	grep -q "^rpcsim-analyze: --live=$url: incomplete: joined after process [0-9]* had started" "$tmpdir/between-live.err"
ok $? "--live joining between two runs: exit 1, the missed run said" ||
	diag "exit $rpcsim_st, $analyze_st" "$(cat "$tmpdir/between-live.err")"
diag "$(sed -n 's/.*had started (\([^)]*\)).*/\1/p' "$tmpdir/between-live.err")"

relay_down

# A relay daemon on ::1: rpcsim records to net6://[::1] (lttng takes the
# bracketed address), and the command it prints to follow the session
# has HOST in the address's place, saying why: babeltrace2's live URL
# takes no bracketed IPv6 address (rpcsim-analyze refuses one, above).
if grep -q '^00000000000000000000000000000001 ' /proc/net/if_inet6 2>/dev/null &&
	relay_up "$tmpdir/relay6" 6; then
	timeout 60 "$RPCSIM" --alloc=array --requests=100 --threads=1 \
		--trace-live="net6://[::1]:$ctl:$dat" \
		>"$tmpdir/six.out" 2>"$tmpdir/six.err"
	st=$?
	[ $st -eq 0 ] &&
		grep -q "^rpcsim: --trace-live: session rpcsim-[0-9-]* on the relay daemon at net6://\[::1\]:$ctl:$dat; follow it with: rpcsim-analyze --live=net6://HOST:5344/host/[^/]*/rpcsim-[0-9-]*, HOST a name of the relay daemon's host (a live URL takes no bracketed IPv6 address);" "$tmpdir/six.err"
	ok $? "rpcsim --trace-live=net6://[::1]:...: runs; the command to follow it has HOST, and says why" ||
		diag "exit $st" "$(cat "$tmpdir/six.err")" "$(cat "$tmpdir/relay6.log")"
	relay_down
else
	skip 1 "no IPv6 loopback, or lttng-relayd does not listen on ::1"
fi

exit_status
exit $?
