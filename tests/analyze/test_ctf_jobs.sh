#!/bin/sh
# SPDX-License-Identifier: MIT
#
# rpcsim-analyze --jobs=N on hand-made CTF traces (tests/analyze/ctfgen.py):
# workers by stream file, their events merged by time, ties at one
# nanosecond taken as one graph's muxer takes them; workers over time
# ranges, on random traces and on known figures; errors in one worker's
# file, a trace without timestamps, files of one stream instance, a
# libbabeltrace2 crash; and the temporary files removed, also when a
# signal ends the reading or kills a worker.  Each against --jobs=1's
# results.  Needs python3, not LTTng.

# shellcheck source=tests/analyze/ctf_common.sh
. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/analyze/ctf_common.sh"
plan_no_plan
tap_tmpdir test-analyze-ctf-jobs

###########################################################################
# --jobs: a trace in two stream files (one per CPU, as LTTng writes them),
# both threads migrating between them, a discard in one: the workers'
# events merged by time give what one process gives, and the right one
mkdir -p "$tmpdir/multi/trace"
python3 "$CTFGEN" --vpid --index "$tmpdir/multi/trace" <<'EOF'
stream 0
100 run_start vtid=1 vpid=10 mode=2 run=0 threads=2 mode_name=array
1000 entry vtid=1 vpid=10 mode=2 slots=4
1200 alloc_bulk vtid=1 vpid=10 requested=4 populated=4 allocated=4
4000 exit vtid=2 vpid=10 latency_ns=1500 allocated=4
5000 entry vtid=1 vpid=10 mode=2
packet
9000 exit vtid=1 vpid=10 latency_ns=3500
20000 run_end vtid=1 vpid=10 mode=2 run=0 calls=5 latency_sum_ns=8100
stream 1
2000 entry vtid=2 vpid=10 mode=2
2500 request vtid=2 vpid=10 op=1 bytes=4096 request_pages=1
3000 exit vtid=1 vpid=10 latency_ns=1800
6000 entry vtid=2 vpid=10 mode=2
6100 err vtid=2 vpid=10 requested=2 allocated=1
packet discarded=2
7000 exit vtid=2 vpid=10 latency_ns=900
8000 entry vtid=2 vpid=10 mode=2
8500 exit vtid=2 vpid=10 latency_ns=400
EOF
for jobs in 1 2; do
	timeout 30 "$ANALYZE" --jobs=$jobs --json "$tmpdir/multi" \
		>"$tmpdir/multi$jobs.json" 2>"$tmpdir/multi$jobs.err"
	echo $? >"$tmpdir/multi$jobs.rc"
	timeout 30 "$ANALYZE" --jobs=$jobs "$tmpdir/multi" \
		>"$tmpdir/multi$jobs.out" 2>>"$tmpdir/multi$jobs.err"
	echo $? >>"$tmpdir/multi$jobs.rc"
done
[ "$(cat "$tmpdir/multi1.rc")" = "0
0" ] && [ "$(cat "$tmpdir/multi2.rc")" = "0
0" ]
ok $? "--jobs=2 on two stream files: exit 0, as --jobs=1"
cmp -s "$tmpdir/multi1.json" "$tmpdir/multi2.json" &&
	cmp -s "$tmpdir/multi1.out" "$tmpdir/multi2.out" &&
	cmp -s "$tmpdir/multi1.err" "$tmpdir/multi2.err"
ok $? "--jobs=2 on two stream files: the same JSON, text and warnings as --jobs=1"
cp "$tmpdir/multi2.json" "$tmpdir/multi.json"
j multi 'mode(2)["calls"] == 5 and mode(2)["pairing"]["paired"] == 3 and mode(2)["timestamps"]["sum_ns"] == 4500 and mode(2)["pairing"]["across_discard"] == 2 and mode(2)["pairing"]["entry_twice"] == 0 and mode(2)["pairing"]["exit_no_entry"] == 0'
ok $? "--jobs=2: calls paired across stream files, closed by the other file's discard"
# a temporary directory of its own, removed (TMPDIR: none of anyone else's)
mkdir "$tmpdir/tmpdir"
TMPDIR=$tmpdir/tmpdir timeout 30 "$ANALYZE" --jobs=2 "$tmpdir/multi" \
	>/dev/null 2>&1
sh -c "[ -z \"\$(ls -A '$tmpdir/tmpdir')\" ]"
ok $? "--jobs=2: its temporary directory removed"

# --jobs by file, events of one nanosecond in two workers' files: one
# graph's muxer orders them by their streams (trace UUID, one with a UUID
# first; trace name, one with a name first; stream class, stream id),
# then by message (an event, a discard of events, then of packets), for
# events by event class id, and last by the streams' paths, and so must
# the merge (merge.c, mux_cmp()), whichever worker has which file (the
# biggest file goes to worker 0).  Mostly a run_start and another
# thread's entry at 1000 ns: whether that call is in the run says which
# came first.  Each trace is made so that a level left out would give
# the other order: the later levels, and the worker order, say the
# other.  Traces without index, so that the split is by file.
# tie_is NAME EXPR: --jobs=1 and --jobs=2 (by file) on $tmpdir/NAME give
# the same JSON, of which EXPR is true (j)
tie_is()
{
	for ti_jobs in 1 2; do
		timeout 30 "$ANALYZE" -v --partial --jobs=$ti_jobs --json \
			"$tmpdir/$1" >"$tmpdir/$1.$ti_jobs.json" \
			2>"$tmpdir/$1.$ti_jobs.err"
	done
	cp "$tmpdir/$1.2.json" "$tmpdir/$1.json"
	grep -q "^rpcsim-analyze: --jobs=2: 2 workers over whole stream files" "$tmpdir/$1.2.err" &&
		j "$1" "$2" &&
		cmp -s "$tmpdir/$1.1.json" "$tmpdir/$1.2.json" || {
		diag "$(cat "$tmpdir/$1.2.err")"
		diag "$(diff "$tmpdir/$1.1.json" "$tmpdir/$1.2.json" | head -n 20)"
		return 1
	}
}
# tie NAME EXPECT: tie_is, mode 2's (run, calls) are EXPECT
tie()
{
	tie_is "$1" "[(r['run'], r['calls']) for r in mode(2)['runs']] == $2"
}
# the run's thread: its run_start at 1000 ns and N calls
run_at_1000()
{
	echo "1000 run_start vtid=1 mode=2 run=0 mode_name=array"
	rn_i=0
	while [ $rn_i -lt "$1" ]; do
		echo "$((1100 + rn_i * 200)) entry vtid=1 mode=2"
		echo "$((1200 + rn_i * 200)) exit vtid=1 latency_ns=50"
		rn_i=$((rn_i + 1))
	done
	echo "9000 run_end vtid=1 mode=2 run=0 calls=$(($1 + 1)) latency_sum_ns=1"
}
# the other thread: its entry at 1000 ns, exit at 1010, then N calls
entry_at_1000()
{
	echo "1000 entry vtid=2 mode=2"
	echo "1010 exit vtid=2 latency_ns=5"
	en_i=0
	while [ $en_i -lt "$1" ]; do
		echo "$((1020 + en_i * 300)) entry vtid=2 mode=2"
		echo "$((1030 + en_i * 300)) exit vtid=2 latency_ns=5"
		en_i=$((en_i + 1))
	done
}
# one trace, streams numbered by their files: stream_0 first, worker 0
# holding stream_0 (the bigger), then stream_1
mkdir -p "$tmpdir/tie_a1/trace" "$tmpdir/tie_a2/trace"
{ echo "stream 0"; run_at_1000 4; echo "stream 1"; entry_at_1000 0; } |
	python3 "$CTFGEN" "$tmpdir/tie_a1/trace"
tie tie_a1 "[(0, 5)]"
ok $? "--jobs=2 by file, one ns in two stream files: stream_0's run_start first, as one graph (worker 0's file)"
{ echo "stream 0"; entry_at_1000 0; echo "stream 1"; run_at_1000 4; } |
	python3 "$CTFGEN" "$tmpdir/tie_a2/trace"
tie tie_a2 "[(None, 1), (0, 4)]"
ok $? "--jobs=2 by file, one ns in two stream files: stream_0's entry first, as one graph (worker 1's file)"
# stream instance ids, as LTTng writes them, order the streams, not
# their files' names: stream_1 (instance 3) before stream_0 (instance 5)
mkdir -p "$tmpdir/tie_inst/trace"
{ echo "stream 0 instance=5"; run_at_1000 4;
  echo "stream 1 instance=3"; entry_at_1000 0; } |
	python3 "$CTFGEN" --instance --uuid=6b0c1a5a-0000-4000-8000-000000000001 \
		"$tmpdir/tie_inst/trace"
tie tie_inst "[(None, 1), (0, 4)]"
ok $? "--jobs=2 by file, stream instance ids: the stream of the lower id first, whatever its file's name"
# two traces without UUID, alike in stream ids: the event class ids
# (run_start's 0 before the entry's), whichever trace is bigger
mkdir -p "$tmpdir/tie_ecid/a" "$tmpdir/tie_ecid/b"
entry_at_1000 6 | python3 "$CTFGEN" "$tmpdir/tie_ecid/a"
run_at_1000 0 | python3 "$CTFGEN" "$tmpdir/tie_ecid/b"
tie tie_ecid "[(0, 7)]"
ok $? "--jobs=2 by file, two traces alike but for their events: the event class of the lower id first"
# an empty stream file (--partial reads the trace without it): one
# graph has no stream for it, and leaves it out when it numbers a
# trace's streams by their files, so a's stream_1 is its stream 0, alike
# in id to b's stream_0, and the event class ids decide: a's run_start
# first, whatever the worker
mkdir -p "$tmpdir/tie_empty/a" "$tmpdir/tie_empty/b"
{ echo "stream 1"; run_at_1000 0; } | python3 "$CTFGEN" "$tmpdir/tie_empty/a"
: >"$tmpdir/tie_empty/a/stream_0"
entry_at_1000 6 | python3 "$CTFGEN" "$tmpdir/tie_empty/b"
tie tie_empty "[(0, 7)]"
ok $? "--jobs=2 by file, an empty stream file before another: workers all the same, the file not counted in the stream ids"
# two traces with UUIDs: the trace of the lower UUID first
mkdir -p "$tmpdir/tie_uuid/a" "$tmpdir/tie_uuid/b"
entry_at_1000 0 | python3 "$CTFGEN" --uuid=6b0c1a5a-0000-4000-8000-000000000001 \
	"$tmpdir/tie_uuid/a"
run_at_1000 4 | python3 "$CTFGEN" --uuid=6b0c1a5a-0000-4000-8000-000000000002 \
	"$tmpdir/tie_uuid/b"
tie tie_uuid "[(None, 1), (0, 4)]"
ok $? "--jobs=2 by file, two traces with UUIDs: the trace of the lower UUID first, whatever its events"
# one trace with a UUID, one without (the smaller file, worker 1's): the
# one with it first
mkdir -p "$tmpdir/tie_hasuuid/a" "$tmpdir/tie_hasuuid/b"
run_at_1000 4 | python3 "$CTFGEN" "$tmpdir/tie_hasuuid/a"
entry_at_1000 0 | python3 "$CTFGEN" --uuid=6b0c1a5a-0000-4000-8000-000000000003 \
	"$tmpdir/tie_hasuuid/b"
tie tie_hasuuid "[(None, 1), (0, 4)]"
ok $? "--jobs=2 by file, a trace with a UUID and one without: the one with it first, whatever its events and path"
# trace names: libbabeltrace2 names a trace after its environment's
# hostname, as LTTng writes it (a trace without one is named ""): the
# names in order, whatever the events and the paths
mkdir -p "$tmpdir/tie_names/a" "$tmpdir/tie_names/b"
run_at_1000 4 | python3 "$CTFGEN" --hostname=beta "$tmpdir/tie_names/a"
entry_at_1000 0 | python3 "$CTFGEN" --hostname=alpha "$tmpdir/tie_names/b"
tie tie_names "[(None, 1), (0, 4)]"
ok $? "--jobs=2 by file, two traces without UUID, named alpha and beta: alpha's first"
# stream classes (LTTng writes one per channel): the stream of the lower
# class first, though its id (its file's rank) is the higher
mkdir -p "$tmpdir/tie_class/trace"
{ echo "stream 0 class=1"; run_at_1000 4;
  echo "stream 1 class=0"; entry_at_1000 0; } |
	python3 "$CTFGEN" "$tmpdir/tie_class/trace"
tie tie_class "[(None, 1), (0, 4)]"
ok $? "--jobs=2 by file, streams of two classes: the lower class first, whatever the stream ids"
# traces alike in all that: an event before a discard of events.  Trace
# a's first packet ends with its run_start at 1000 ns, and the discard
# its second packet records begins there (its beginning is that packet's
# end); trace b's entry at 1000 ns comes before the discard, and the call
# is open across it: not timed by timestamps.
mkdir -p "$tmpdir/tie_disc/a" "$tmpdir/tie_disc/b"
python3 "$CTFGEN" "$tmpdir/tie_disc/a" <<'EOF'
1000 run_start vtid=1 mode=2 run=0 mode_name=array
packet discarded=2
3000 request vtid=1 op=0 bytes=4096 request_pages=1
EOF
printf '1000 entry vtid=2 mode=2\n2000 exit vtid=2 latency_ns=900\n' |
	python3 "$CTFGEN" "$tmpdir/tie_disc/b"
tie_is tie_disc 'mode(2)["pairing"]["across_discard"] == 1 and mode(2)["pairing"]["paired"] == 0 and [(r["run"], r["calls"]) for r in mode(2)["runs"]] == [(0, 1)]'
ok $? "--jobs=2 by file, another trace's discard at the same ns: the event first, its call open across the discard"
# ... a discard of events before a discard of packets: with two counts no
# gap can lose at 1000 ns, the trace is refused for the first one, in b
# (the smaller file, the later path), whose events_discarded jumped; a's
# packet sequence number jumped too
mkdir -p "$tmpdir/tie_losses/a" "$tmpdir/tie_losses/b"
python3 "$CTFGEN" --seq "$tmpdir/tie_losses/a" <<'EOF'
1000 request vtid=1 op=0 bytes=4096 request_pages=1
packet seq=72057594037927937
2000 request vtid=1 op=0 bytes=4096 request_pages=1
3000 request vtid=1 op=0 bytes=4096 request_pages=1
EOF
python3 "$CTFGEN" "$tmpdir/tie_losses/b" <<'EOF'
1000 request vtid=2 op=0 bytes=4096 request_pages=1
packet discarded=72057594037927936
2000 request vtid=2 op=0 bytes=4096 request_pages=1
EOF
for jobs in 1 2; do
	timeout 30 "$ANALYZE" --jobs=$jobs "$tmpdir/tie_losses" \
		>"$tmpdir/tie_losses$jobs.out" 2>"$tmpdir/tie_losses$jobs.err"
	echo $? >"$tmpdir/tie_losses$jobs.rc"
done
[ "$(cat "$tmpdir/tie_losses1.rc")" = 1 ] &&
	[ "$(cat "$tmpdir/tie_losses2.rc")" = 1 ] &&
	grep -qxF "rpcsim-analyze: $tmpdir/tie_losses: corrupted trace: $tmpdir/tie_losses/b/stream_0: its count of discarded events (events_discarded) jumped by 72,057,594,037,927,936, more than the 281,474,976,710,656 one gap can lose" "$tmpdir/tie_losses1.err" &&
	cmp -s "$tmpdir/tie_losses1.err" "$tmpdir/tie_losses2.err"
ok $? "--jobs=2 by file, discards of events and of packets at the same ns in two traces: the events' first, as --jobs=1 names it" ||
	diag "jobs=1: $(cat "$tmpdir/tie_losses1.err")" "jobs=2: $(cat "$tmpdir/tie_losses2.err")"
# traces alike in all but their paths, the same event (run_start) at the
# same ns: the stream of the lower path first.  Both traces are one
# process (no vpid), so the run_start that comes last is the run of the
# call that follows: b's, of another mode, and the call is in none.
mkdir -p "$tmpdir/tie_path/a" "$tmpdir/tie_path/b"
echo "1000 run_start vtid=1 mode=2 run=0 mode_name=array" |
	python3 "$CTFGEN" "$tmpdir/tie_path/a"
python3 "$CTFGEN" "$tmpdir/tie_path/b" <<'EOF'
1000 run_start vtid=2 mode=1 run=0 mode_name=list
1100 entry vtid=3 mode=2
1200 exit vtid=3 latency_ns=50
EOF
tie tie_path "[(None, 1), (0, 0)]"
ok $? "--jobs=2 by file, two traces alike but for their paths: the lower path first, whatever the worker"

# --jobs by time: one trace with an index and no discard is cut into time
# ranges, each worker folding its own and the parent merging what they
# folded.  Random traces (fixed seeds) of two processes, threads that
# migrate between two stream files, runs of each mode one after another,
# calls that straddle packets and cuts, lost entries and exits, errs,
# requests and pagepool events: for every --jobs, the same JSON, text
# and warnings as --jobs=1, and -v says the ranges were folded apart
# (not read again in one process).
gen_random()
{
	python3 - "$1" "$2" <<'PYEOF'
import random, sys
rnd = random.Random(int(sys.argv[1]))
late = sys.argv[2] == "late"
streams = {0: [], 1: []}
t = 1000
def ev(text, stream=None):
    global t
    t += rnd.choice((0, 1, 7, 40, 130))
    streams[rnd.randrange(2) if stream is None else stream].append(
        "%d %s" % (t, text))
def run(vpid, tids, mode, run_no, calls, pid=None):
    ev("run_start vtid=%d vpid=%d mode=%d run=%d threads=%d mode_name=m%d"
       " pid=%d" % (tids[0], vpid, mode, run_no, len(tids), mode,
                    vpid if pid is None else pid))
    n = 0
    open_ = {}
    for _ in range(calls):
        tid = rnd.choice(tids)
        c = "vtid=%d vpid=%d" % (tid, vpid)
        if tid in open_:
            if rnd.random() < 0.3:
                ev("err %s requested=4 allocated=%d" % (c, rnd.randrange(4)))
            if rnd.random() < 0.04:
                del open_[tid]          # the exit is lost: entry_twice
                continue
            ev("exit %s latency_ns=%d allocated=%d alloc_calls=1 retries=%d"
               % (c, rnd.randrange(50, 5000), rnd.randrange(1, 9),
                  rnd.randrange(2)))
            del open_[tid]
            n += 1
        else:
            if rnd.random() < 0.03:     # the entry is lost: exit_no_entry
                ev("exit %s latency_ns=77" % c)
                n += 1
                continue
            ev("entry %s mode=%d slots=%d holes=%d" % (c, mode, rnd.randrange(9),
                                                      rnd.randrange(3)))
            open_[tid] = 1
            if rnd.random() < 0.5:
                ev("alloc_bulk %s requested=8 populated=%d allocated=%d variant=%d"
                   % (c, rnd.randrange(9), rnd.randrange(9), rnd.randrange(2)))
        if rnd.random() < 0.2:
            ev("request vtid=%d vpid=%d op=%d bytes=4096 request_pages=1"
               % (rnd.choice(tids), vpid, rnd.randrange(2)))
    ev("run_end vtid=%d vpid=%d mode=%d run=%d calls=%d latency_sum_ns=1"
       % (tids[0], vpid, mode, run_no, n))
if late:
    # events of a process outside any run, late in the trace: a range
    # that begins before them cannot stand in for what came in
    for mode in range(3):
        run(10, [1, 2, 3], mode, 0, 300)
    for _ in range(40):
        ev("request vtid=7 vpid=20 op=1 bytes=4096 request_pages=1")
        ev("alloc_bulk vtid=7 vpid=20 requested=8 populated=8 allocated=8")
    run(20, [7, 8], 1, 0, 200)
else:
    for mode in range(3):
        run(10, [1, 2, 3], mode, 0, 300)
        # the last run_start of process 20 carries another pid
        run(20, [7, 8], 2 - mode, mode, 150, 21 if mode == 2 else None)
    # a run started twice, the second far from the first
    run(10, [1, 2, 3], 0, 0, 20)
for n in (0, 1):
    print("stream %d" % n)
    for i, line in enumerate(streams[n]):
        if i and i % 37 == 0:
            print("packet")
        print(line)
PYEOF
}
# by_time NAME JOBS...: NAME's results under each --jobs, against --jobs=1
# (--partial: a random trace may hold fewer calls than its run_end says)
by_time()
{
	bt_name=$1
	shift
	timeout 60 "$ANALYZE" --partial --jobs=1 --json "$tmpdir/$bt_name" \
		>"$tmpdir/$bt_name.1.json" 2>"$tmpdir/$bt_name.1.err"
	timeout 60 "$ANALYZE" --partial --jobs=1 "$tmpdir/$bt_name" \
		>"$tmpdir/$bt_name.1.out" 2>>"$tmpdir/$bt_name.1.err"
	[ -s "$tmpdir/$bt_name.1.json" ] || {
		diag "--jobs=1 printed no JSON: $(cat "$tmpdir/$bt_name.1.err")"
		return 1
	}
	for bt_jobs in "$@"; do
		timeout 60 "$ANALYZE" --partial --jobs="$bt_jobs" --json "$tmpdir/$bt_name" \
			>"$tmpdir/$bt_name.n.json" 2>"$tmpdir/$bt_name.n.err"
		timeout 60 "$ANALYZE" --partial --jobs="$bt_jobs" "$tmpdir/$bt_name" \
			>"$tmpdir/$bt_name.n.out" 2>>"$tmpdir/$bt_name.n.err"
		timeout 60 "$ANALYZE" --partial -v --jobs="$bt_jobs" "$tmpdir/$bt_name" \
			>/dev/null 2>"$tmpdir/$bt_name.$bt_jobs.v"
		# LeakSanitizer's "Unable to get registers from thread N" is
		# what a worker killed in its leak check leaves (a note, not a
		# report).  The reader no longer kills a worker that closed
		# its pipe (analyze/reader.c, kill_workers()); the instant
		# between its check and the kill remains.
		for bt_err in "$tmpdir/$bt_name.1.err" "$tmpdir/$bt_name.n.err"; do
			sed '/^==[0-9]*==Unable to get registers from thread [0-9]*\.$/d' \
				"$bt_err" >"$bt_err.f" && mv "$bt_err.f" "$bt_err"
		done
		if ! cmp -s "$tmpdir/$bt_name.1.json" "$tmpdir/$bt_name.n.json" ||
		   ! cmp -s "$tmpdir/$bt_name.1.out" "$tmpdir/$bt_name.n.out" ||
		   ! cmp -s "$tmpdir/$bt_name.1.err" "$tmpdir/$bt_name.n.err"; then
			diag "--jobs=$bt_jobs differs from --jobs=1:"
			diag "$(diff "$tmpdir/$bt_name.1.json" "$tmpdir/$bt_name.n.json" | head -n 20)"
			diag "$(diff "$tmpdir/$bt_name.1.err" "$tmpdir/$bt_name.n.err" | head -n 5)"
			return 1
		fi
	done
}
for seed in 1 2 3; do
	mkdir -p "$tmpdir/rt$seed/trace"
	gen_random $seed early | python3 "$CTFGEN" --vpid --seq --index "$tmpdir/rt$seed/trace"
	by_time rt$seed 2 3 4 7
	ok $? "--jobs=2,3,4,7 by time, random trace $seed: the same JSON, text and warnings as --jobs=1"
	grep -q "^rpcsim-analyze: --jobs=7: 7 workers over time ranges of 2 stream files, each folding its own; about [0-9,]* bytes decoded twice at the edges\$" "$tmpdir/rt$seed.7.v" &&
		grep -q "^rpcsim-analyze: --jobs=2: 2 workers over time ranges" "$tmpdir/rt$seed.2.v" &&
		! grep -q "read again in one process" "$tmpdir/rt$seed".*.v
	ok $? "--jobs by time, random trace $seed: -v says the ranges were folded apart, none read again" ||
		diag "$(cat "$tmpdir/rt$seed".*.v)"
done
j rt1.1 'mode(0)["pairing"]["entry_twice"] > 0 and mode(0)["pairing"]["exit_no_entry"] > 0 and mode(1)["pairing"]["paired"] > 0 and len(d["modes"]) == 6'
ok $? "random trace 1 holds lost entries and exits, three modes of two processes" ||
	diag "$(head -c 2000 "$tmpdir/rt1.1.json")"
grep -q "run_start" "$tmpdir/rt1.1.err" && grep -q "pid" "$tmpdir/rt1.1.err"
ok $? "random trace 1: a run started twice and run_starts of two pids in one process, warned" ||
	diag "$(cat "$tmpdir/rt1.1.err")"
mkdir -p "$tmpdir/rtlate/trace"
gen_random 4 late | python3 "$CTFGEN" --vpid --seq --index "$tmpdir/rtlate/trace"
by_time rtlate 2 4
ok $? "--jobs by time, a process's events outside any run in a later range: the results of --jobs=1"
grep -q "^rpcsim-analyze: worker [0-9]*: what it counted depends on what came before its range in a way it could not stand in for: read again in one process\$" "$tmpdir/rtlate.4.v"
ok $? "... read again in one process, and -v says why" || diag "$(cat "$tmpdir/rtlate.4.v")"
# Known figures, not only --jobs=1's: a mode of two runs whose calls
# each straddle a packet edge, so that every cut by time falls inside a
# call.  latency_ns: run 0 100 and 300 ns, run 1 500 and 900 ns;
# timestamps: 150 and 450, then 650 and 1000 ns.  The sample standard
# deviations, worked out by hand: runs 141.421 and 282.843 (latency_ns),
# 212.132 and 247.487 (timestamps); the mode's, the runs merged (sums of
# squares added), 341.565 and 356.780.  Each --jobs gives them itself.
mkdir -p "$tmpdir/known/trace"
python3 "$CTFGEN" --index "$tmpdir/known/trace" <<'EOF'
1000 run_start mode=2 run=0 mode_name=array threads=2
2000 entry vtid=1 mode=2
packet
2150 exit vtid=1 latency_ns=100 allocated=1 alloc_calls=1
3000 entry vtid=2 mode=2
packet
3450 exit vtid=2 latency_ns=300 allocated=1 alloc_calls=1
4000 run_end mode=2 run=0 calls=2 latency_sum_ns=400
5000 run_start mode=2 run=1 mode_name=array threads=2
6000 entry vtid=1 mode=2
packet
6650 exit vtid=1 latency_ns=500 allocated=1 alloc_calls=1
7000 entry vtid=2 mode=2
packet
8000 exit vtid=2 latency_ns=900 allocated=1 alloc_calls=1
9000 run_end mode=2 run=1 calls=2 latency_sum_ns=1400
EOF
for jobs in 1 2 3; do
	t_opts="-v --jobs=$jobs"
	analyze_again known
	t_opts=
	cp "$tmpdir/known.json" "$tmpdir/known$jobs.json"
	k_split=true
	[ $jobs = 1 ] ||
		grep -q "^rpcsim-analyze: --jobs=$jobs: $jobs workers over time ranges" "$tmpdir/known.jerr" ||
		k_split=false
	rc_is known 0 && $k_split &&
		j known '(lambda m: ((m["latency_ns"]["count"], m["latency_ns"]["sum_ns"], m["latency_ns"]["stddev_ns"]), (m["timestamps"]["count"], m["timestamps"]["sum_ns"], m["timestamps"]["stddev_ns"]), m["pairing"]["paired"], [(r["run"], r["latency_ns"]["stddev_ns"], r["timestamps"]["stddev_ns"]) for r in m["runs"]]) == ((4, 1800, 341.565), (4, 2250, 356.78), 4, [(0, 141.421, 212.132), (1, 282.843, 247.487)]))(mode(2))'
	ok $? "--jobs=$jobs, calls across every packet edge: the standard deviations worked out by hand, of each run and of the mode" ||
		diag "$(cat "$tmpdir/known.jerr")"
done
# A cut placed for balance alone falls inside a packet of each file, and
# both workers decode that packet up to it; the planner moves it to a
# packet's edge when that leaves the slowest worker less.  Two streams of
# 400 entry and exit events 10 ns apart, in packets of 100 and of 150
# events, the second stream 600 ns later: the balanced cut decoded
# 3,620 bytes twice, at an edge it decodes 336, under a quarter of the
# smallest packet.
mkdir -p "$tmpdir/rtedge/trace"
python3 - <<'PYEOF' | python3 "$CTFGEN" --vpid --seq --index "$tmpdir/rtedge/trace"
ev = {0: [], 1: []}
for s, per in ((0, 100), (1, 150)):
    for i in range(400):
        t = 1000 + (600 if s else 0) + 10 * i
        if i and i % per == 0:
            ev[s].append("packet")
        if i % 2 == 0:
            ev[s].append("%d entry vtid=%d vpid=1 mode=0 slots=9 holes=1"
                         % (t, s + 1))
        else:
            ev[s].append("%d exit vtid=%d vpid=1 latency_ns=100 allocated=1"
                         " alloc_calls=1" % (t, s + 1))
ev[0].insert(0, "999 run_start vtid=1 vpid=1 mode=0 run=0 threads=2"
                " mode_name=m0 pid=1")
ev[0].append("5610 run_end vtid=1 vpid=1 mode=0 run=0 calls=400"
             " latency_sum_ns=40000")
for s in (0, 1):
    print("stream %d" % s)
    print("\n".join(ev[s]))
PYEOF
by_time rtedge 2
ok $? "--jobs=2 by time, packets of 100 and 150 events: the results of --jobs=1"
twice=$(sed -n 's/.*about \([0-9,]*\) bytes decoded twice.*/\1/p' "$tmpdir/rtedge.2.v" | tr -d ,)
smallest=$(packet_sizes "$tmpdir/rtedge/trace/index"/*.idx | sort -n | head -n 1)
[ -n "$twice" ] && [ -n "$smallest" ] && [ $((twice * 4)) -lt "$smallest" ]
ok $? "... the cut at a packet's edge: $twice bytes decoded twice, under a quarter of the smallest packet ($smallest)" ||
	diag "$(cat "$tmpdir/rtedge.2.v")"
# an index whose times are not its packets': the worker whose packet it
# is finds out, and the trace is read again in one process
cp -r "$tmpdir/rt1" "$tmpdir/rtidx"
python3 - "$tmpdir/rtidx/trace/index/stream_0.idx" <<'PYEOF'
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
off = 16 + 3 * 72 + 32                  # packet 3's timestamp_end
te = struct.unpack_from(">Q", b, off)[0]
struct.pack_into(">Q", b, off, te - 1)
open(sys.argv[1], "wb").write(b)
PYEOF
by_time rtidx 2 3
ok $? "--jobs by time, an index whose times differ from its packets': the results of --jobs=1" &&
	grep -q "^rpcsim-analyze: worker [0-9]*: its range cannot be read apart" "$tmpdir/rtidx.3.v"
ok $? "... read again in one process, and -v says why" || diag "$(cat "$tmpdir/rtidx.3.v")"
mkdir "$tmpdir/tmpdir2"
TMPDIR=$tmpdir/tmpdir2 timeout 30 "$ANALYZE" --jobs=3 "$tmpdir/rt1" >/dev/null 2>&1 &&
	sh -c "[ -z \"\$(ls -A '$tmpdir/tmpdir2')\" ]"
ok $? "--jobs=3 by time: the copies and the temporary directory removed"

# ... and removed when a signal ends the reading: a trace of 200,000
# events in two files, long enough to be caught while the workers read
# it; SIGTERM to the tool and to its reading process (its child), as a
# timeout or a closed terminal would.  No pgrep (procps may be missing):
# /proc gives the child.
mkdir -p "$tmpdir/big/trace" "$tmpdir/sigtmp"
awk 'BEGIN {
	print "stream 0"
	print "100 run_start vtid=1 vpid=10 mode=2 run=0 threads=2 mode_name=array"
	for (s = 0; s < 2; s++) {
		t = 1000 + s * 500
		if (s == 1)
			print "stream 1"
		for (i = 0; i < 50000; i++) {
			printf "%d entry vtid=%d vpid=10 mode=2\n", t, s + 1
			printf "%d exit vtid=%d vpid=10 latency_ns=500\n", t + 500, s + 1
			t += 1000
			if (i % 2000 == 1999 && i < 49999)
				print "packet"
		}
		if (s == 0)
			print "900000000 run_end vtid=1 vpid=10 mode=2 run=0 calls=100000 latency_sum_ns=50000000"
	}
}' | python3 "$CTFGEN" --vpid --index "$tmpdir/big/trace"
# children_of PID: the pids whose parent is PID (the kernel's list, or a
# walk of /proc where it has none)
children_of()
{
	if [ -r "/proc/$1/task/$1/children" ]; then
		cat "/proc/$1/task/$1/children"
		return
	fi
	for st in /proc/[0-9]*/stat; do
		[ "$(sed 's/^.*) //' "$st" 2>/dev/null | cut -d' ' -f2)" = "$1" ] &&
			basename "$(dirname "$st")"
	done
}
# proc_states PID...: "PID (state S, parent P)" of each that is there
# (Z: a zombie not yet reaped), "PID (gone)" of the others
proc_states()
{
	for ps_pid in "$@"; do
		if [ -r "/proc/$ps_pid/stat" ]; then
			# shellcheck disable=SC2046 # the fields after "(comm) "
			set -- $(sed 's/^.*) //' "/proc/$ps_pid/stat" 2>/dev/null)
			printf '%s (state %s, parent %s) ' "$ps_pid" "${1:-?}" "${2:-?}"
		else
			printf '%s (gone) ' "$ps_pid"
		fi
	done
}
# any_alive PID...: one of them still runs
any_alive()
{
	for aa_pid in "$@"; do
		kill -0 "$aa_pid" 2>/dev/null && return 0
	done
	return 1
}
# first_running PID...: the first of them that runs (not gone, not a
# zombie: a worker done with its share exits before the others)
first_running()
{
	for fr_pid in "$@"; do
		case $(sed 's/^.*) //' "/proc/$fr_pid/stat" 2>/dev/null) in
		'' | Z* | X*) ;;
		*) echo "$fr_pid"; return 0 ;;
		esac
	done
	return 1
}
# caught SIG WHERE: run --jobs=2 on the big trace, and once its temporary
# directory is there, stop the reading process and its workers
# (SIGSTOP), send SIG to WHERE (reader: the reading process; top: the
# tool, which forwards it; both; worker: the first worker still
# running; one that has exited takes no signal), and let
# them go on (SIGCONT): what the signal does no longer depends on when
# it came.  Sets $status (the tool's exit status) and $c_err (its
# stderr); false if the reading ended before it could be caught, 5
# times in a row.
caught()
{
	c_try=0
	while [ $c_try -lt 5 ]; do
		catch_once "$@"
		c_once=$?
		[ $c_once -ne 1 ] && return $c_once
		c_try=$((c_try + 1))
	done
	return 1
}
catch_once()
{
	rm -rf "$tmpdir/sigtmp"
	mkdir "$tmpdir/sigtmp"
	# (ASan would take a SIGSEGV for a crash of its own and exit 1)
	c_asan=$ASAN_OPTIONS
	[ "$1" = SEGV ] && c_asan=${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0
	# Every signal at its default (env execs the tool: $! is its pid):
	# under nohup SIGHUP comes ignored, and the tool rightly keeps it so.
	TMPDIR=$tmpdir/sigtmp ASAN_OPTIONS=$c_asan env --default-signal \
		"$ANALYZE" --jobs=2 "$tmpdir/big" >/dev/null 2>"$tmpdir/sig.err" &
	top=$!
	n=0
	while [ -z "$(ls -A "$tmpdir/sigtmp")" ] && kill -0 $top 2>/dev/null &&
		[ $n -lt 3000 ]; do
		sleep 0.01
		n=$((n + 1))
	done
	reader=$(children_of $top)
	workers=
	for r in $reader; do
		workers="$workers $(children_of "$r")"
	done
	# shellcheck disable=SC2086 # lists of pids
	kill -STOP $reader $workers 2>/dev/null
	# shellcheck disable=SC2086
	if [ -z "$reader" ] || [ -z "$(echo $workers)" ] ||
	   [ -z "$(ls -A "$tmpdir/sigtmp")" ] ||
	   ! c_worker=$(first_running $workers); then
		# shellcheck disable=SC2086
		kill -CONT $reader $workers 2>/dev/null
		wait_pid $top 120
		return 1
	fi
	# shellcheck disable=SC2086 # lists of pids
	case $2 in
	reader) kill -"$1" $reader ;;
	top) kill -"$1" $top ;;
	both) kill -"$1" $reader $top ;;
	worker) kill -"$1" "$c_worker" ;;
	esac
	# shellcheck disable=SC2086
	kill -CONT $reader $workers 2>/dev/null
	# a tool that outlives its signal is a hang (124), not a wait for
	# CI's limit; its reader and workers are then reported below
	wait_pid $top 120
	c_err=$(cat "$tmpdir/sig.err")
	# $reader and its workers are gone when the tool is: it waited
	# for the one, and the one for the others
	# shellcheck disable=SC2086
	! any_alive $reader $workers || {
		diag "still running after the tool ended: $(proc_states $reader $workers)"
		return 2
	}
}
# signal_in TEXT: N of "killed by signal N"
signal_in()
{
	echo "$1" | sed -n 's/.* killed by signal \([0-9]*\) .*/\1/p'
}
left_none()
{
	[ -z "$(ls -A "$tmpdir/sigtmp")" ] || {
		diag "left: $(ls -AR "$tmpdir/sigtmp" | head -n 8)"
		return 1
	}
}
caught TERM both; c_rc=$?
if [ $c_rc -ne 1 ]; then
	[ $c_rc -eq 0 ] && [ "$status" -eq 143 ] && left_none
	ok $? "--jobs=2 ended by SIGTERM while reading: its temporary directory removed" ||
		diag "exit $status: $c_err"
else
	skip 1 "the reading ended before a signal could reach it"
fi
# every signal that ends a process, to the tool (which forwards it) or
# to its reading process: the copies removed, the workers stopped, the
# tool ended by the signal (from its reading process: said, exit 1)
for sig in HUP USR1 USR2 ALRM PIPE; do
	where=top
	[ $sig = USR1 ] && where=reader
	caught $sig $where; c_rc=$?
	if [ $c_rc -eq 1 ]; then
		skip 1 "SIG$sig: the reading ended before a signal could reach it"
		continue
	fi
	if [ $where = top ]; then
		[ $c_rc -eq 0 ] && [ "$status" -gt 128 ] &&
			[ "$(kill -l "$status")" = $sig ] &&
			[ -z "$c_err" ] && left_none
	else
		[ $c_rc -eq 0 ] && [ "$status" -eq 1 ] &&
			echo "$c_err" | grep -qx "rpcsim-analyze: $tmpdir/big: the reading process was killed by signal [0-9]* (.*)" &&
			[ "$(kill -l "$(signal_in "$c_err")")" = $sig ] && left_none
	fi
	ok $? "--jobs=2, SIG$sig to the $where while reading: copies and temporary directory removed, ended as the signal says" ||
		diag "exit $status: $c_err"
done
# a worker killed: said as such, not as a trace it could not read
for sig in KILL SEGV; do
	caught $sig worker; c_rc=$?
	if [ $c_rc -eq 1 ]; then
		skip 1 "a worker killed by SIG$sig: the reading ended first"
		continue
	fi
	[ $c_rc -eq 0 ] && [ "$status" -eq 1 ] &&
		echo "$c_err" | grep -qx "rpcsim-analyze: decoding worker [0-9]* killed by signal [0-9]* (.*)" &&
		[ "$(kill -l "$(signal_in "$c_err")")" = $sig ] &&
		! echo "$c_err" | grep -q corrupted && left_none
	ok $? "--jobs=2, a worker killed by SIG$sig: said so, exit 1, temporary directory removed" ||
		diag "exit $status: $c_err"
done

# an error in one worker's file: the one line --jobs=1 prints, the
# trace's own path in it
cp -r "$tmpdir/multi" "$tmpdir/multibad"
python3 - "$tmpdir/multibad/trace/stream_1" <<'EOF'
import sys
p = sys.argv[1]
b = bytearray(open(p, "rb").read())
i = b.find(bytes.fromhex("c11ffcc1"), 1)   # the second packet's magic
b[i:i + 4] = b"\0\0\0\0"
open(p, "wb").write(b)
EOF
for idx in with without; do
	[ $idx = without ] && rm -r "$tmpdir/multibad/trace/index"
	for jobs in 1 2; do
		timeout 30 "$ANALYZE" --jobs=$jobs "$tmpdir/multibad" \
			>"$tmpdir/multibad$jobs.out" 2>"$tmpdir/multibad$jobs.err"
		echo $? >"$tmpdir/multibad$jobs.rc"
	done
	[ "$(cat "$tmpdir/multibad1.rc")" = 1 ] &&
		[ "$(cat "$tmpdir/multibad2.rc")" = 1 ] &&
		[ ! -s "$tmpdir/multibad2.out" ] &&
		[ "$(wc -l <"$tmpdir/multibad2.err")" -eq 1 ] &&
		grep -q 'Invalid CTF magic number' "$tmpdir/multibad2.err" &&
		! grep -q 'rpcsim-analyze\.' "$tmpdir/multibad2.err" &&
		cmp -s "$tmpdir/multibad1.err" "$tmpdir/multibad2.err" || {
		diag "jobs=1: $(cat "$tmpdir/multibad1.err")"
		diag "jobs=2: $(cat "$tmpdir/multibad2.err")"
		false
	}
	ok $? "--jobs=2, a bad packet in one stream file ($idx index): exit 1, the line --jobs=1 prints"
done

# a count of discarded events no gap can lose, in one worker's file: the
# stream is named as one process names it (as libbabeltrace2 does, from
# /), also when the trace is given by a relative path
mkdir -p "$tmpdir/lossbad/trace"
python3 "$CTFGEN" "$tmpdir/lossbad/trace" <<'EOF'
stream 0
1000 entry vtid=1 mode=2
packet discarded=72057594037927936
2000 exit vtid=1 latency_ns=900
stream 1
1500 entry vtid=2 mode=2
2500 exit vtid=2 latency_ns=900
EOF
for jobs in 1 2; do
	(cd "$tmpdir" && timeout 30 "$ANALYZE" --jobs=$jobs lossbad \
		>"$tmpdir/lossbad$jobs.out" 2>"$tmpdir/lossbad$jobs.err")
	echo $? >"$tmpdir/lossbad$jobs.rc"
done
[ "$(cat "$tmpdir/lossbad1.rc")" = 1 ] && [ "$(cat "$tmpdir/lossbad2.rc")" = 1 ] &&
	[ ! -s "$tmpdir/lossbad2.out" ] &&
	[ "$(wc -l <"$tmpdir/lossbad2.err")" -eq 1 ] &&
	grep -qxF "rpcsim-analyze: lossbad: corrupted trace: $tmpdir/lossbad/trace/stream_0: its count of discarded events (events_discarded) jumped by 72,057,594,037,927,936, more than the 281,474,976,710,656 one gap can lose" "$tmpdir/lossbad1.err" &&
	cmp -s "$tmpdir/lossbad1.err" "$tmpdir/lossbad2.err"
ok $? "--jobs=2, a count no gap can lose in one stream file, the trace given relative: exit 1, the line --jobs=1 prints" ||
	diag "jobs=1: $(cat "$tmpdir/lossbad1.err")" "jobs=2: $(cat "$tmpdir/lossbad2.err")"

# timestamps that go back within a stream (an empty last packet at 0):
# --jobs=1's muxer refuses the trace; a worker reading that stream file
# alone has no muxer and must refuse it as well
mkdir -p "$tmpdir/back/trace"
python3 "$CTFGEN" --index "$tmpdir/back/trace" <<'EOF'
1000 run_start mode=2 run=0 mode_name=array threads=2
2000 entry vtid=10 mode=2
4300 exit vtid=10 latency_ns=2000 allocated=3 alloc_calls=1
packet
stream 1
2100 entry vtid=11 mode=2
4500 exit vtid=11 latency_ns=2200 allocated=2 alloc_calls=1
10000 run_end mode=2 run=0 calls=2 latency_sum_ns=4200 pages=5 no_progress=0
EOF
for jobs in 1 2; do
	timeout 30 "$ANALYZE" --jobs=$jobs "$tmpdir/back" \
		>"$tmpdir/back$jobs.out" 2>"$tmpdir/back$jobs.err"
	echo $? >"$tmpdir/back$jobs.rc"
done
[ "$(cat "$tmpdir/back1.rc")" = 1 ] && [ "$(cat "$tmpdir/back2.rc")" = 1 ] &&
	[ ! -s "$tmpdir/back2.out" ] && [ "$(wc -l <"$tmpdir/back2.err")" -eq 1 ] &&
	grep -q "^rpcsim-analyze: $tmpdir/back/trace: cannot read trace: .*ts=0, last-returned-ts=4300" "$tmpdir/back1.err" &&
	grep -q "^rpcsim-analyze: $tmpdir/back/trace: cannot read trace: a message's timestamp is less than the last one of its stream: ts=0, last-returned-ts=4300" "$tmpdir/back2.err"
ok $? "--jobs=2, a stream whose timestamps go back: refused, exit 1, as --jobs=1 refuses it" ||
	diag "jobs=1: $(cat "$tmpdir/back1.rc") $(cat "$tmpdir/back1.err"); jobs=2: $(cat "$tmpdir/back2.rc") $(cat "$tmpdir/back2.err")"

# without timestamps (no clock: the header fields renamed), records
# cannot be merged by time: read again in one process, same results
cp -r "$tmpdir/multi" "$tmpdir/noclock"
rm -r "$tmpdir/noclock/trace/index"
sed -e 's/uint64_clock_t timestamp;/uint64_clock_t tstamp;/' \
	-e 's/timestamp_begin;/tsb;/' -e 's/timestamp_end;/tse;/' \
	-e 's/ map = clock.monotonic.value;//' -e '/^clock {/d' \
	"$tmpdir/multi/trace/metadata" \
	>"$tmpdir/noclock/trace/metadata"
for jobs in 1 2; do
	timeout 30 "$ANALYZE" --partial --jobs=$jobs --json "$tmpdir/noclock" \
		>"$tmpdir/noclock$jobs.json" 2>"$tmpdir/noclock$jobs.err"
	echo $? >"$tmpdir/noclock$jobs.rc"
done
cp "$tmpdir/noclock2.json" "$tmpdir/noclock.json"
[ "$(cat "$tmpdir/noclock1.rc")" = 0 ] && [ "$(cat "$tmpdir/noclock2.rc")" = 0 ] &&
	cmp -s "$tmpdir/noclock1.json" "$tmpdir/noclock2.json" &&
	cmp -s "$tmpdir/noclock1.err" "$tmpdir/noclock2.err" &&
	j noclock 'mode(2)["calls"] == 5 and mode(2)["pairing"]["no_timestamp"] == 5 and mode(2)["pairing"]["paired"] == 0'
ok $? "--jobs=2 on a trace without timestamps: read in one process, the results of --jobs=1"

# two files of one stream instance (an LTTng trace's stream file and a
# copy of it): one graph reads them as one stream and keeps each packet
# once; --jobs=2 must not give each file to a worker of its own
mkdir -p "$tmpdir/twofiles/trace"
cp "$top_srcdir/fuzz/trace-base/metadata" "$top_srcdir/fuzz/trace-base/stream" \
	"$tmpdir/twofiles/trace/"
cp "$tmpdir/twofiles/trace/stream" "$tmpdir/twofiles/trace/stream2"
for jobs in 1 2; do
	timeout 30 "$ANALYZE" -v --partial --jobs=$jobs --json "$tmpdir/twofiles" \
		>"$tmpdir/twofiles$jobs.json" 2>"$tmpdir/twofiles$jobs.err"
	echo $? >"$tmpdir/twofiles$jobs.rc"
done
[ "$(cat "$tmpdir/twofiles1.rc")" = 0 ] && [ "$(cat "$tmpdir/twofiles2.rc")" = 0 ] &&
	cmp -s "$tmpdir/twofiles1.json" "$tmpdir/twofiles2.json" &&
	grep -q '^rpcsim-analyze: --jobs=2: files of one stream instance: read in one process$' "$tmpdir/twofiles2.err"
ok $? "--jobs=2, two files of one stream instance: read in one process, the results of --jobs=1" ||
	diag "jobs=1: $(cat "$tmpdir/twofiles1.rc") jobs=2: $(cat "$tmpdir/twofiles2.rc") $(cat "$tmpdir/twofiles2.err"); $(diff "$tmpdir/twofiles1.json" "$tmpdir/twofiles2.json" | head -5)"

# a clock declared without its frequency: libbabeltrace2 2.0.4's CTF
# plugin divides by zero on it (SIGFPE), in the reading process with
# --jobs=1 and in each decoding worker with --jobs=2; both say the trace
# made libbabeltrace2 crash, not that a worker was killed
cp -r "$tmpdir/multi" "$tmpdir/nofreq"
sed 's/ freq = / f2eq = /' "$tmpdir/multi/trace/metadata" \
	>"$tmpdir/nofreq/trace/metadata"
for jobs in 1 2; do
	timeout 30 "$ANALYZE" --jobs=$jobs "$tmpdir/nofreq" \
		>"$tmpdir/nofreq$jobs.out" 2>"$tmpdir/nofreq$jobs.err"
	echo $? >"$tmpdir/nofreq$jobs.rc"
done
ok=0
for jobs in 1 2; do
	[ "$(cat "$tmpdir/nofreq$jobs.rc")" = 1 ] &&
		[ ! -s "$tmpdir/nofreq$jobs.out" ] &&
		[ "$(wc -l <"$tmpdir/nofreq$jobs.err")" -eq 1 ] &&
		grep -qF "rpcsim-analyze: $tmpdir/nofreq: cannot read trace: libbabeltrace2 crashed on it (Floating point exception): the trace is corrupted" "$tmpdir/nofreq$jobs.err" ||
		{ ok=1; diag "jobs=$jobs: exit $(cat "$tmpdir/nofreq$jobs.rc"): $(cat "$tmpdir/nofreq$jobs.err")"; }
done
ok $ok "a clock without freq (libbabeltrace2's SIGFPE): --jobs=1 and --jobs=2 both say libbabeltrace2 crashed on the trace, exit 1"

exit_status
