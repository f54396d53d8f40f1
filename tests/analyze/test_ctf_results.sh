#!/bin/sh
# SPDX-License-Identifier: MIT
#
# rpcsim-analyze on small hand-made CTF traces (tests/analyze/ctfgen.py),
# where every timestamp is known: exact results of both latency methods,
# the check between them, the calls by refill size, pairing across
# threads and discards, events outside runs, runs and modes, processes
# apart, both encodings of the schema, a trace without an rpcsim event,
# two traces with the same thread ids (in one worker of --jobs=2 too).
# Incomplete and corrupted traces: test_ctf_damaged.sh; --jobs:
# test_ctf_jobs.sh.  Needs python3, not LTTng.

# shellcheck source=tests/analyze/ctf_common.sh
. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/analyze/ctf_common.sh"
plan_no_plan
tap_tmpdir test-analyze-ctf-results

has_line()
{
	grep -qxF "$2" "$tmpdir/$1.out" || {
		diag "no line '$2' in:" "$(cat "$tmpdir/$1.out")"
		return 1
	}
}

###########################################################################
# exact: two threads interleaved, a discard between two packets
trace exact <<'EOF'
1000 run_start mode=2 run=0 mode_name=array threads=2
2000 entry vtid=10 mode=2
2100 entry vtid=11 mode=2
2200 alloc_bulk vtid=10 requested=3 allocated=3 variant=1
4300 exit vtid=10 latency_ns=2000 allocated=3 alloc_calls=1
4500 exit vtid=11 latency_ns=2200 allocated=2 alloc_calls=1
packet discarded=7
5000 entry vtid=10 mode=2
5100 entry vtid=11 mode=2
6000 err vtid=11 requested=3
9000 exit vtid=11 latency_ns=3700 allocated=3 alloc_calls=2 retries=1
9500 exit vtid=10 latency_ns=4000 allocated=3 alloc_calls=1
10000 run_end mode=2 run=0 calls=4 latency_sum_ns=11900 pages=11 no_progress=1
EOF
rc_is exact 0
ok $? "exact: exit status 0"
has_line exact "Bulk array:   2.975 us per call over 4 calls"
ok $? "exact: the seed's line"
j exact '(lambda s: (s["count"], s["sum_ns"], s["mean_ns"], s["min_ns"], s["max_ns"]) == (4, 11900, 2975.0, 2000, 4000))(mode(2)["latency_ns"])'
ok $? "exact: latency_ns statistics"
j exact 'mode(2)["latency_ns"]["stddev_ns"] == 1021.029'
ok $? "exact: sample stddev of latency_ns"
# entry/exit distances: 2300, 2400, 3900, 4500
j exact '(lambda s: (s["count"], s["sum_ns"], s["min_ns"], s["max_ns"]) == (4, 13100, 2300, 4500))(mode(2)["timestamps"])'
ok $? "exact: timestamp latencies paired per thread"
# differences 300, 200, 200, 500
j exact '(lambda x: (x["mean_ns"], x["median_ns"], x["min_ns"], x["max_ns"], x["negative"], x["ok"]) == (300.0, 200, 200, 500, 0, True))(mode(2)["difference"])'
ok $? "exact: timestamps - latency_ns"
j exact 'mode(2)["run_end"]["calls_match"] and mode(2)["run_end"]["mean_ns"] == 2975.0'
ok $? "exact: run_end agrees"
j exact '(mode(2)["pages_per_call"], mode(2)["alloc_calls_per_call"], mode(2)["svc_alloc_arg_err"], mode(2)["retries"], mode(2)["pagepool_per_call"]) == (2.75, 1.25, 1, 1, {"mm_page_alloc_bulk": 0.25})'
ok $? "exact: per-call figures"
j exact 'mode(2)["runs"][0]["run"] == 0 and mode(2)["runs"][0]["config"]["mode_name"] == "array" and mode(2)["runs"][0]["config"]["threads"] == 2'
ok $? "exact: the run's configuration"
j exact 'd["discarded_events"] == 7 and d["discarded_events_records"] == 1'
ok $? "exact: discarded events counted"
err_has exact 'discarded 7 events'
ok $? "exact: discard warning"
sh -c "[ \$(wc -l <'$tmpdir/exact.err') -eq 1 ]"
ok $? "exact: no other warning"

###########################################################################
# by refill: latency_ns split by the exit's allocated, at most one page or
# more, as rpcsim splits its calls (common/by_refill.h).  Values below
# 128 ns have a bucket each, so the percentiles are exact.
trace refill <<'EOF'
1000 run_start mode=1 run=0 mode_name=list threads=1
2000 entry vtid=10 mode=1
2200 exit vtid=10 latency_ns=100 allocated=1 alloc_calls=1
3000 entry vtid=10 mode=1
3200 exit vtid=10 latency_ns=60 allocated=0
4000 entry vtid=10 mode=1
4200 exit vtid=10 latency_ns=90 allocated=2 alloc_calls=1
5000 entry vtid=10 mode=1
5200 exit vtid=10 latency_ns=110 allocated=65 alloc_calls=1
6000 entry vtid=10 mode=1
6200 exit vtid=10 latency_ns=120 allocated=259 alloc_calls=1
7000 run_end mode=1 run=0 calls=5 latency_sum_ns=480
8000 run_start mode=0 run=0 mode_name=single threads=1
9000 entry vtid=10 mode=0
9200 exit vtid=10 latency_ns=70 allocated=1 alloc_calls=1
10000 run_end mode=0 run=0 calls=1 latency_sum_ns=70
EOF
rc_is refill 0
ok $? "refill: exit status 0"
has_line refill "  by refill: 1 page: mean 0.080, p50 0.060 us (2 calls); more: mean 0.107, p50 0.110 us (3 calls)"
ok $? "refill: rpcsim's by refill line, a call of 0 pages in the 1-page kind, of 2 in the other"
has_line refill "  by refill: 1 page: mean 0.070, p50 0.070 us (1 calls); more: no calls"
ok $? "refill: a kind without a call: no calls"
j refill 'all(g["by_refill"] == {"one_page": {"calls": 2, "mean_us": 0.08, "p50_us": 0.06, "p90_us": 0.1}, "more_pages": {"calls": 3, "mean_us": 0.1066666667, "p50_us": 0.11, "p90_us": 0.12}} for g in (mode(1), mode(1)["runs"][0]))'
ok $? "refill: by_refill of the mode and of its run, rpcsim's keys"
j refill 'mode(0)["by_refill"]["more_pages"] == {"calls": 0, "mean_us": None, "p50_us": None, "p90_us": None}'
ok $? "refill: a kind without a call: 0 calls, null figures"

###########################################################################
# warm-up: rpcsim --warmup's calls come before their run's run_start and
# rpcsim's figures leave them out; so do the mode's here when its runs
# were recorded whole, and the calls left out are on the no run line.
trace warmup <<'EOF'
1000 entry vtid=10 mode=2
1100 exit vtid=10 latency_ns=500 allocated=1 alloc_calls=1
2000 run_start mode=2 run=1 mode_name=array threads=1
2100 entry vtid=10 mode=2
2200 exit vtid=10 latency_ns=100 allocated=65 alloc_calls=1
2300 entry vtid=10 mode=2
2400 exit vtid=10 latency_ns=60 allocated=1 alloc_calls=1
3000 run_end mode=2 run=1 calls=2 latency_sum_ns=160
EOF
rc_is warmup 0
ok $? "warmup: exit status 0"
has_line warmup "Bulk array:   0.080 us per call over 2 calls" &&
	grep -q "^  no run: *0.500 us per call over 1 calls.*; left out of the figures above: calls outside the runs (rpcsim --warmup's, before run_start)$" "$tmpdir/warmup.out"
ok $? "warmup: the mode's figures are its run's, the call before run_start left out and said so" ||
	diag "$(cat "$tmpdir/warmup.out")"
[ ! -s "$tmpdir/warmup.err" ]
ok $? "warmup: no warning (the trace's calls are run_end's)" ||
	diag "$(cat "$tmpdir/warmup.err")"
j warmup 'mode(2)["calls"] == 2 and mode(2)["calls_outside_runs"] == 1 and mode(2)["by_refill"]["one_page"]["calls"] == 1 and [r["run"] for r in mode(2)["runs"]] == [None, 1] and mode(2)["runs"][0]["calls"] == 1'
ok $? "warmup: JSON: 2 calls, 1 outside the runs, its kind not counted, the no-run group listed"

# A call after its run's run_end is outside the run too: run_end closes
# the run, and the call is left out with the warm-up's.
trace afterend <<'EOF'
1000 run_start mode=2 run=1 mode_name=array threads=1
1100 entry vtid=1 mode=2
1200 exit vtid=1 latency_ns=100 allocated=1 alloc_calls=1
1300 run_end mode=2 run=1 calls=1 latency_sum_ns=100
1400 entry vtid=1 mode=2
1500 exit vtid=1 latency_ns=900 allocated=1 alloc_calls=1
EOF
rc_is afterend 0 && has_line afterend "Bulk array:   0.100 us per call over 1 calls" &&
	grep -q "^  no run: *0.900 us per call over 1 calls.*; left out of the figures above: calls outside the runs" "$tmpdir/afterend.out" &&
	j afterend 'mode(2)["calls"] == 1 and mode(2)["calls_outside_runs"] == 1'
ok $? "a call after run_end: outside the run, left out of the mode's figures" ||
	diag "$(cat "$tmpdir/afterend.out" "$tmpdir/afterend.err")"

# A call is its entry's: one that began before run_start (a warm-up call
# still running) is outside the run even though its exit is inside it.
trace acrossstart <<'EOF'
1000 entry vtid=1 mode=2
1100 run_start mode=2 run=1 mode_name=array threads=1
1200 exit vtid=1 latency_ns=200 allocated=1 alloc_calls=1
1300 entry vtid=1 mode=2
1400 exit vtid=1 latency_ns=100 allocated=1 alloc_calls=1
1500 run_end mode=2 run=1 calls=1 latency_sum_ns=100
EOF
rc_is acrossstart 0 && has_line acrossstart "Bulk array:   0.100 us per call over 1 calls" &&
	j acrossstart 'mode(2)["calls"] == 1 and mode(2)["calls_outside_runs"] == 1 and mode(2)["run_end"]["calls_match"]'
ok $? "a call across run_start: its entry's, outside the run" ||
	diag "$(cat "$tmpdir/acrossstart.out" "$tmpdir/acrossstart.err")"

# run_end.calls_match: the run's calls in the trace equal rpcsim's count;
# more calls in the trace than run_end counted is no match either.
trace runmore <<'EOF'
1000 run_start mode=2 run=1 mode_name=array threads=1
1100 entry vtid=1 mode=2
1200 exit vtid=1 latency_ns=100 allocated=1 alloc_calls=1
1300 entry vtid=1 mode=2
1400 exit vtid=1 latency_ns=100 allocated=1 alloc_calls=1
1500 run_end mode=2 run=1 calls=1 latency_sum_ns=100
EOF
j runmore 'mode(2)["calls"] == 2 and not mode(2)["run_end"]["calls_match"]' &&
	j acrossstart 'mode(2)["run_end"]["calls_match"]'
ok $? "run_end: calls_match only when the trace's calls are run_end's count"

# The same without the run_start (a session started late): the run's
# calls are outside any run too, and every call counts.
trace latestart <<'EOF'
1000 entry vtid=10 mode=2
1100 exit vtid=10 latency_ns=500 allocated=1 alloc_calls=1
2100 entry vtid=10 mode=2
2200 exit vtid=10 latency_ns=100 allocated=65 alloc_calls=1
3000 run_end mode=2 run=1 calls=1 latency_sum_ns=100
EOF
has_line latestart "Bulk array:   0.300 us per call over 2 calls" &&
	! grep -q "left out" "$tmpdir/latestart.out"
ok $? "late start: a run without run_start leaves every call counted" ||
	diag "$(cat "$tmpdir/latestart.out")"
j latestart 'mode(2)["calls"] == 2 and mode(2)["calls_outside_runs"] == 0'
ok $? "late start: JSON: 2 calls, none left out"

###########################################################################
# methods disagree
trace negative <<'EOF'
1000 entry mode=0
2000 exit latency_ns=3000
3000 entry mode=0
4000 exit latency_ns=3000
EOF
rc_is negative 0
ok $? "negative: exit status 0"
err_has negative 'Single page: timestamps give shorter calls'
ok $? "negative: timestamps shorter than latency_ns flagged"
j negative 'not mode(0)["difference"]["ok"] and mode(0)["difference"]["negative"] == 2 and any("shorter" in w for w in d["warnings"])'
ok $? "negative: flagged in JSON"

# differences of -1, 0 and +1 ns: a difference of exactly 0 is not
# negative, one of -1 is
trace zero_diff <<'EOF'
1000 entry mode=0
3000 exit latency_ns=2001
4000 entry mode=0
6000 exit latency_ns=2000
7000 entry mode=0
9000 exit latency_ns=1999
EOF
rc_is zero_diff 0 &&
	j zero_diff '(lambda x: (x["count"], x["negative"], x["min_ns"], x["median_ns"], x["max_ns"], x["mean_ns"], x["ok"]) == (3, 1, -1, 0, 1, 0.0, True))(mode(0)["difference"])'
ok $? "difference of exactly 0 ns: not counted negative (-1, 0, +1: 1 negative)"

trace slow <<'EOF'
0 entry mode=1
5000 exit latency_ns=3000
10000 entry mode=1
15000 exit latency_ns=3000
EOF
err_has slow 'Bulk list: timestamps - latency_ns is +2.000 us per call (median'
ok $? "slow: 2 us per call between the methods flagged"
timeout 30 "$ANALYZE" --tracepoint-cost=1000 "$tmpdir/slow" >"$tmpdir/slow1.out" \
	2>"$tmpdir/slow1.err"
err_lacks slow1 'latency_ns is'
ok $? "slow: accepted with --tracepoint-cost=1000"

{
	i=0
	while [ $i -lt 99 ]; do
		echo "$((i * 10000)) entry mode=2"
		echo "$((i * 10000 + 3100)) exit latency_ns=3000"
		i=$((i + 1))
	done
	echo "1000000 entry mode=2"
	echo "1103000 exit latency_ns=3000"
} >"$tmpdir/tail.script"
trace tail <"$tmpdir/tail.script"
err_has tail 'Bulk array: mean timestamps - latency_ns is +1.099 us.*median call differs by +0.100 us and 1 calls'
ok $? "tail: one preempted call in 100 moves the mean: flagged with the median"

###########################################################################
# pairing
trace discard <<'EOF'
500 run_start mode=2 run=0
1000 entry vtid=10 mode=2
packet discarded=5
3000 exit vtid=10 latency_ns=1500
4000 entry vtid=10 mode=2
6000 exit vtid=10 latency_ns=1500
7000 run_end mode=2 run=0 calls=3 latency_sum_ns=4500
EOF
j discard 'mode(2)["calls"] == 2 and mode(2)["pairing"]["across_discard"] == 1 and mode(2)["pairing"]["paired"] == 1 and mode(2)["pairing"]["exit_no_entry"] == 0 and mode(2)["timestamps"]["sum_ns"] == 2000'
ok $? "discard: a call open across a discard is not timed, its exit counts"
err_has discard 'counted 3: events were discarded'
ok $? "discard: count differing from run_end blamed on the discard"
# The exit of the call open across the discard closes it: the thread's
# next exit, with no entry before it, is one without entry, not a second
# exit of that call.
trace discard2 <<'EOF'
500 run_start mode=2 run=0
1000 entry vtid=10 mode=2
packet discarded=5
3000 exit vtid=10 latency_ns=1500
3500 exit vtid=10 latency_ns=700
4000 entry vtid=10 mode=2
6000 exit vtid=10 latency_ns=1500
7000 run_end mode=2 run=0 calls=4 latency_sum_ns=4400
EOF
j discard2 '(lambda p: (p["across_discard"], p["exit_no_entry"], p["paired"]) == (1, 1, 1))(mode(2)["pairing"]) and mode(2)["calls"] == 3' &&
	err_has discard2 'Bulk array: unmatched svc_alloc_arg events: 0 entries without exit, 1 exits without entry, 0 entries twice in a row on one thread, 1 calls open across a discard'
ok $? "discard: the exit after the lost call's exit is an exit without entry"

# (run_end counted a call the trace lacks: incomplete, so --partial)
t_opts=--partial
trace unmatched <<'EOF'
1000 run_start mode=0 run=3
2000 entry vtid=1 mode=0
3000 entry vtid=1 mode=0
4000 exit vtid=1 latency_ns=500
5000 exit vtid=1 latency_ns=600
6000 entry vtid=2 mode=0
7000 run_end mode=0 run=3 calls=3 latency_sum_ns=1600
EOF
j unmatched '(lambda p: (p["entry_twice"], p["exit_no_entry"], p["entry_no_exit"], p["paired"]) == (1, 1, 1, 1))(mode(0)["pairing"]) and not mode(0)["run_end"]["calls_match"]'
ok $? "unmatched: entry twice, exit without entry, entry without exit; fewer calls than run_end's, no match"
err_has unmatched 'Single page: unmatched svc_alloc_arg events: 1 entries without exit, 1 exits without entry, 1 entries twice'
ok $? "unmatched: reported"
err_has unmatched 'Single page run 3\|Single page: the trace has 2 calls, rpcsim.s run_end counted 3: no discard'
ok $? "unmatched: run_end differing without discard: says so"
t_opts=
analyze_again unmatched
incomplete unmatched "Single page run 3: rpcsim's run_end counted 3 calls, the trace holds 2, and no discard was recorded"
ok $? "unmatched, without --partial: run_end's calls missing, no discard: incomplete, exit 1"

# A trace that ends mid-call, outside any run: the open entry is an entry
# without exit, and the figures per call are per call (per exit, each
# with its latency_ns), not per entry: 8 pages and 3 allocator calls
# over 2 calls.
trace midcall <<'EOF'
2000 entry vtid=1 mode=1
2500 exit vtid=1 latency_ns=400 allocated=6 alloc_calls=2
3000 entry vtid=1 mode=1
3500 exit vtid=1 latency_ns=400 allocated=2 alloc_calls=1
4000 entry vtid=2 mode=1
EOF
rc_is midcall 0 &&
	j midcall '(mode(1)["calls"], mode(1)["pages_per_call"], mode(1)["alloc_calls_per_call"], mode(1)["entry"]["events"], mode(1)["pairing"]["entry_no_exit"]) == (2, 4.0, 1.5, 3, 1)' &&
	grep -q '^  per call:    4\.00 pages allocated, 1\.500 allocator calls' "$tmpdir/midcall.out" &&
	err_has midcall 'Bulk list: unmatched svc_alloc_arg events: 1 entries without exit, 0 exits without entry'
ok $? "a trace ending mid-call outside runs: an entry without exit, pages and allocator calls per call of the 2 calls" ||
	diag "$(cat "$tmpdir/midcall.out")"

trace novtid --no-vtid <<'EOF'
1000 entry mode=2
3000 exit latency_ns=1500
EOF
j novtid 'mode(2)["calls"] == 1 and mode(2)["timestamps"] is None and not d["vtid"]'
ok $? "no vtid: calls counted, timestamps skipped and said so"
err_has novtid 'no vtid context'
ok $? "no vtid: warning"

# A trace that lacks a process's first runs (the session started after
# them): rpcsim numbers its runs (run_seq), so the first one here, its
# third, says two are missing, though every run in it is whole.
trace lost_runs <<'EOF'
1000 run_start mode=1 run=1 mode_name=list run_seq=3
1100 entry vtid=5 mode=1
1200 exit vtid=5 latency_ns=40
1300 run_end mode=1 run=1 calls=1 latency_sum_ns=40
2000 run_start mode=2 run=1 mode_name=array run_seq=4
2100 entry vtid=5 mode=2
2200 exit vtid=5 latency_ns=30
2300 run_end mode=2 run=1 calls=1 latency_sum_ns=30
EOF
rc_is lost_runs 0 &&
	err_has lost_runs '^rpcsim-analyze: warning: rpcsim: the trace starts at its run 3 (Bulk list run 1): the 2 runs before it are not in the trace (the session started after them, or an overwrite-mode channel dropped them)$' &&
	j lost_runs '[r["config"]["run_seq"] for m in d["modes"] for r in m["runs"]] == [3, 4]'
ok $? "a trace without a process's first two runs: said, exit 0"
# with a pid, the process named as the report names it
trace lost_runs_pid --vpid <<'EOF'
1000 run_start vtid=7 vpid=7 mode=2 run=1 mode_name=array run_seq=2 pid=7
1100 entry vtid=8 vpid=7 mode=2
1200 exit vtid=8 vpid=7 latency_ns=30
1300 run_end vtid=7 vpid=7 mode=2 run=1 calls=1 latency_sum_ns=30
EOF
rc_is lost_runs_pid 0 &&
	err_has lost_runs_pid '^rpcsim-analyze: warning: pid 7: the trace starts at its run 2 (Bulk array run 1): the 1 run before it is not in the trace (the session started after it, or an overwrite-mode channel dropped it)$'
ok $? "the same with a pid: the warning names it as the report does"
trace all_runs <<'EOF'
1000 run_start mode=1 run=1 mode_name=list run_seq=1
1100 entry vtid=5 mode=1
1200 exit vtid=5 latency_ns=40
1300 run_end mode=1 run=1 calls=1 latency_sum_ns=40
2000 run_start mode=2 run=1 mode_name=array run_seq=2
2300 run_end mode=2 run=1 calls=0
EOF
rc_is all_runs 0 && err_lacks all_runs 'the trace starts at'
ok $? "a trace from a process's first run: no such warning"

###########################################################################
# modes and runs
trace modes <<'EOF'
100 entry vtid=5 mode=7
200 exit vtid=5 latency_ns=50
300 exit vtid=6 latency_ns=70
1000 run_start mode=1 run=0
1100 entry vtid=5 mode=1
1200 exit vtid=5 latency_ns=40
1300 run_end mode=1 run=0 calls=1 latency_sum_ns=40
2000 run_start mode=1 run=1
2100 entry vtid=5 mode=1
2400 exit vtid=5 latency_ns=240
2500 run_end mode=1 run=1 calls=1 latency_sum_ns=240
EOF
rc_is modes 0
ok $? "modes: exit status 0"
has_line modes "Mode 7:       0.060 us per call over 2 calls"
ok $? "modes: an unknown mode number is labelled with it"
sh -c "grep -qxF 'Bulk list:    0.140 us per call over 2 calls' '$tmpdir/modes.out' && grep -q '^  run 0: *0.040 us' '$tmpdir/modes.out' && grep -q '^  run 1: *0.240 us' '$tmpdir/modes.out'"
ok $? "modes: runs merged per mode, one line per run"
j modes '[m["mode"] for m in d["modes"]] == [1, 7] and [r["run"] for r in mode(1)["runs"]] == [0, 1] and mode(7)["runs"][0]["run"] is None'
ok $? "modes: modes in order, runs listed"

# An entry's own mode says which mode its call is, whatever run is
# current: a Single page call inside a Bulk array run (another thread,
# another rpcsim sharing the streams) is not counted in that run.
trace modes_apart <<'EOF'
1000 run_start mode=2 run=1
1100 entry vtid=1 mode=2
1200 exit vtid=1 latency_ns=100
1300 entry vtid=2 mode=0
1600 exit vtid=2 latency_ns=200
1700 run_end mode=2 run=1 calls=1 latency_sum_ns=100
EOF
rc_is modes_apart 0 &&
	j modes_apart '[(m["mode"], m["calls"], m["latency_ns"]["sum_ns"]) for m in d["modes"]] == [(0, 1, 200), (2, 1, 100)] and [r["run"] for r in mode(0)["runs"]] == [None] and mode(2)["run_end"]["calls_match"]' &&
	err_lacks modes_apart 'counted 1'
ok $? "modes: an entry of another mode during a run: counted in its own mode, outside runs"

# An err belongs to the call open on its thread, whatever the process's
# latest entry or current run: two threads with calls of different modes
# open at once, each err charged to its own thread's mode.  In the run
# (mode 1), thread 2's err is its Bulk array call's, not the run's; out
# of it, thread 1's err is its Bulk list call's, though thread 2's
# array entry came last, and thread 2's its array call's, though thread
# 3's list entry came last.
trace err_modes <<'EOF'
1000 run_start mode=1 run=0
1100 entry vtid=1 mode=1
1200 entry vtid=2 mode=2
1300 err vtid=2 requested=4 allocated=1
1400 exit vtid=1 latency_ns=200 allocated=4 alloc_calls=1
1500 exit vtid=2 latency_ns=250 allocated=4 alloc_calls=2 retries=1
1600 run_end mode=1 run=0 calls=1 latency_sum_ns=200
2000 entry vtid=1 mode=1
2100 entry vtid=2 mode=2
2200 err vtid=1 requested=6 allocated=2
2300 entry vtid=3 mode=1
2400 err vtid=2 requested=8 allocated=3
2500 exit vtid=1 latency_ns=100 allocated=6 alloc_calls=2 retries=1
2600 exit vtid=2 latency_ns=100 allocated=8 alloc_calls=2 retries=1
2700 exit vtid=3 latency_ns=100 allocated=1 alloc_calls=1
EOF
rc_is err_modes 0 &&
	j err_modes '[(r["run"], r["err"]) for r in mode(1)["runs"]] == [(None, {"events": 1, "requested": 6, "allocated": 2}), (0, {"events": 0, "requested": 0, "allocated": 0})] and [(r["run"], r["err"]) for r in mode(2)["runs"]] == [(None, {"events": 2, "requested": 12, "allocated": 4})]'
ok $? "err: charged to the call open on its own thread, not to the run or the latest entry of another mode" ||
	diag "$(cat "$tmpdir/err_modes.out" "$tmpdir/err_modes.err")"

# A mode's figures are those of all its runs: pagepool events per call
# summed over both runs (2 mm_page_alloc_bulk over 3 calls), each run's
# its own
trace pp_runs <<'EOF'
1000 run_start mode=2 run=0
1100 entry vtid=1 mode=2
1150 alloc_bulk vtid=1 requested=4 allocated=4
1200 exit vtid=1 latency_ns=100 allocated=4
1300 run_end mode=2 run=0 calls=1 latency_sum_ns=100
2000 run_start mode=2 run=1
2100 entry vtid=1 mode=2
2150 alloc_bulk vtid=1 requested=4 allocated=4
2200 exit vtid=1 latency_ns=100 allocated=4
2300 entry vtid=1 mode=2
2400 exit vtid=1 latency_ns=100 allocated=4
2500 run_end mode=2 run=1 calls=2 latency_sum_ns=200
EOF
rc_is pp_runs 0 &&
	j pp_runs 'mode(2)["pagepool_per_call"] == {"mm_page_alloc_bulk": 0.666667} and [r["pagepool_per_call"] for r in mode(2)["runs"]] == [{"mm_page_alloc_bulk": 1.0}, {"mm_page_alloc_bulk": 0.5}]' &&
	has_line pp_runs "  pagepool:    mm_page_alloc_bulk 0.667 per call"
ok $? "modes: pagepool events per call of a mode summed over its runs" ||
	diag "$(cat "$tmpdir/pp_runs.out")"

trace orphan <<'EOF'
300 exit vtid=6 latency_ns=70
EOF
j orphan 'd["modes"][0]["mode"] is None and d["modes"][0]["label"] == "Unknown mode" and d["modes"][0]["calls"] == 1'
ok $? "orphan: an exit outside any run and entry: Unknown mode"

###########################################################################
# processes (issue 13): the vpid context splits them, never merged
cat >"$tmpdir/procs.script" <<'EOF'
1000 run_start vtid=100 vpid=100 mode=2 run=1 pid=100
1100 run_start vtid=200 vpid=200 mode=2 run=1 pid=200
2000 entry vtid=101 vpid=100 mode=2
2100 entry vtid=201 vpid=200 mode=2
3000 exit vtid=101 vpid=100 latency_ns=900 allocated=4 alloc_calls=1
4100 exit vtid=201 vpid=200 latency_ns=1900 allocated=4 alloc_calls=1
5000 run_end vtid=100 vpid=100 mode=2 run=1 calls=1 latency_sum_ns=900
5100 run_end vtid=200 vpid=200 mode=2 run=1 calls=1 latency_sum_ns=1900
EOF
trace procs --vpid <"$tmpdir/procs.script"
rc_is procs 0 && j procs 'len(d["modes"]) == 2 and [(m["pid"], m["calls"], m["latency_ns"]["sum_ns"]) for m in d["modes"]] == [(100, 1, 900), (200, 1, 1900)] and [p["pid"] for p in d["processes"]] == [100, 200]'
ok $? "two processes, one (mode, run) each: reported apart, not merged"
err_lacks procs merged
ok $? "  and no run is merged"
[ "$(grep -c '^Process pid' "$tmpdir/procs.out")" -eq 2 ] &&
	has_line procs "Process pid 100:" && has_line procs "Process pid 200:"
ok $? "  the text has one section per process"
timeout 30 "$ANALYZE" --json --pid=200 "$tmpdir/procs" >"$tmpdir/pid200.json" 2>"$tmpdir/pid200.err"
echo $? >"$tmpdir/pid200.rc"
cp "$tmpdir/pid200.rc" "$tmpdir/pid200.jrc"
rc_is pid200 0 && j pid200 'len(d["modes"]) == 1 and d["modes"][0]["pid"] == 200 and d["modes"][0]["mean_us"] == 1.9'
ok $? "--pid=200: that process alone"
timeout 30 "$ANALYZE" --pid=7 "$tmpdir/procs" >/dev/null 2>"$tmpdir/pid7.err"
[ $? -eq 1 ] && grep -q 'no event of process 7 (--pid): the trace holds 100, 200$' "$tmpdir/pid7.err"
ok $? "--pid of no process in the trace: exit 1, the pids it holds" ||
	diag "$(cat "$tmpdir/pid7.err")"
# rpcsim-compare takes one process per document
COMPARE=$top_builddir/compare/rpcsim-compare
if [ -x "$COMPARE" ]; then
	timeout 30 "$COMPARE" "$tmpdir/procs.json" "$tmpdir/pid200.json" >/dev/null 2>"$tmpdir/cmp.err"
	[ $? -eq 1 ] && grep -q 'the trace holds 2 processes; compare one at a time (rpcsim-analyze --pid=N)' "$tmpdir/cmp.err"
	ok $? "rpcsim-compare refuses a document of two processes, saying how to pick one" ||
		diag "$(cat "$tmpdir/cmp.err")"
else
	skip 1 "rpcsim-compare not built (no json-c)"
fi
# Without the vpid context, the run_start pids show the mix.
trace mixed <"$tmpdir/procs.script"
err_has mixed 'runs of several processes (run_start pids differ) share streams without a vpid context'
ok $? "no vpid context, run_starts of two pids: warned, with the recipe"

###########################################################################
# encodings (issue 13): the first version's plain integers and the
# enumerations give the same figures; labels are read either way
cat >"$tmpdir/enc.script" <<'EOF'
1000 run_start mode=1 run=1 mode_name=list
2000 entry vtid=1 mode=1
3000 exit vtid=1 latency_ns=900 allocated=4 alloc_calls=2
3500 request vtid=1 op=1 bytes=8192 request_pages=3
4000 run_end mode=1 run=1 calls=1 latency_sum_ns=900
EOF
trace enc_old --old <"$tmpdir/enc.script"
trace enc_new <"$tmpdir/enc.script"
python3 - "$tmpdir/enc_old.json" "$tmpdir/enc_new.json" <<'EOF'
import json, sys
o, n = (json.load(open(f)) for f in sys.argv[1:3])
def figures(d):
    m = d["modes"][0]
    return (m["mode"], m["calls"], m["latency_ns"], m["timestamps"],
            m["run_end"], m["request"])
sys.exit(0 if figures(o) == figures(n) else 1)
EOF
ok $? "old integer and new enumeration encodings: the same figures"
j enc_old 'd["modes"][0]["runs"][0]["config"]["backend"] is None and d["modes"][0]["runs"][0]["config"]["pid"] is None' &&
	j enc_new 'd["modes"][0]["runs"][0]["config"]["backend"] == "buddy" and d["modes"][0]["runs"][0]["config"]["contract"] == "merged"'
ok $? "backend and contract: absent from the old trace, named from the new"
j enc_new 'mode(1)["request"] == {"events": 1, "op": {"READ": 0, "WRITE": 1}, "bytes": 8192, "pages": 3}'
ok $? "request events: op by label, bytes and pages summed"

# every field of the schema, summed where it is reported
trace sums <<'EOF'
1000 run_start mode=array run=1 backend=jemalloc bulk_variant=pure-output pid=42
2000 entry vtid=1 mode=array slots=259 holes=17
2100 alloc_bulk vtid=1 requested=17 populated=2 allocated=15 variant=array fallback=trylock
2200 err vtid=1 requested=17 allocated=0
3000 exit vtid=1 latency_ns=900 allocated=15 alloc_calls=2 retries=1
4000 run_end mode=array run=1 calls=1 latency_sum_ns=900
EOF
j sums 'mode(2)["entry"] == {"events": 1, "slots": 259, "holes": 17} and mode(2)["err"] == {"events": 1, "requested": 17, "allocated": 0} and mode(2)["bulk"]["fallback"]["trylock"] == 1 and mode(2)["bulk"]["api"]["array"] == 1 and mode(2)["bulk"]["populated"] == 2 and mode(2)["runs"][0]["config"]["backend"] == "jemalloc" and mode(2)["runs"][0]["config"]["contract"] == "pure-output" and mode(2)["runs"][0]["config"]["pid"] == 42'
ok $? "entry, err and bulk fields summed; backend, contract and pid named"
has_line sums "  bulk calls:  1: 17.00 pages asked, 2.00 populated, 15.00 allocated per bulk call; array 1; fallback trylock 1" &&
	has_line sums "  holes:       17.00 NULL slots of 259.00 per call"
ok $? "  and in the text report"

# raw data out: the histogram's buckets, exact bounds, and p99.99
j sums 'mode(2)["latency_ns"]["histogram"] == {"unit": "ns", "buckets_are": "[lowest, highest, count]", "buckets": [[896, 903, 1]]} and mode(2)["latency_ns"]["p99_99_ns"] == 900'
ok $? "--json: latency_ns's histogram (900 ns: bucket 896..903) and p99.99"
timeout 30 "$ANALYZE" --output-format=text,json --output="$tmpdir/sums.both" "$tmpdir/sums" >"$tmpdir/sums.stdout" 2>/dev/null &&
	[ ! -s "$tmpdir/sums.stdout" ] &&
	python3 -c 'import json, sys
s = open(sys.argv[1]).read()
t, js = s.split("\n{\n", 1)
sys.exit(0 if t.startswith("1 trace") and json.loads("{\n" + js)["modes"][0]["calls"] == 1 else 1)' "$tmpdir/sums.both"
ok $? "--output-format=text,json --output=FILE: the text, then the JSON, in FILE"

# a trace of the run summaries alone (--loglevel=TRACE_INFO)
trace summaries <<'EOF'
1000 run_start mode=0 run=1
4000 run_end mode=0 run=1 calls=500 latency_sum_ns=400000
EOF
rc_is summaries 0 && [ ! -s "$tmpdir/summaries.err" ] &&
	has_line summaries "  run_end:     0.800 us per call over 500 calls (in-process)  (no per-call event recorded)"
ok $? "run summaries alone: run_end's figure, no warning, exit 0"
# ... and no mean of no call: the headline says what the trace holds
has_line summaries "Single page: no per-call event in the trace (svc_alloc_arg_exit): it holds 1 run_start, 1 run_end (500 calls, 0.800 us per call in-process)" &&
	! grep -q '0\.000 us\|over 0 calls\|^  per call:' "$tmpdir/summaries.out" &&
	j summaries 'mode(0)["summary"].startswith("Single page: no per-call event in the trace") and mode(0)["mean_us"] is None and mode(0)["runs"][0]["mean_us"] is None and mode(0)["latency_ns"] is None'
ok $? "run summaries alone: no per-call event said, no 0.000 us mean over 0 calls" ||
	diag "$(cat "$tmpdir/summaries.out")"

###########################################################################
# no rpcsim event
trace none <<'EOF'
100 alloc_bulk requested=1
EOF
rc_is none 1
ok $? "no rpcsim event: exit status 1"
err_has none 'no rpcsim or page_pool event among 1 events'
ok $? "no rpcsim event: says so"

trace empty </dev/null
sh -c "[ \$(cat '$tmpdir/empty.rc') = 1 ] && grep -q 'no rpcsim or page_pool event among 0 events' '$tmpdir/empty.err'"
ok $? "no event at all: exit status 1, says so"

###########################################################################
# two traces below one directory, same thread ids: paired per trace
mkdir -p "$tmpdir/two/a" "$tmpdir/two/b"
printf '1000 entry vtid=1 mode=2\n3000 exit vtid=1 latency_ns=1000\n' |
	python3 "$CTFGEN" "$tmpdir/two/a"
printf '2000 entry vtid=1 mode=2\n6000 exit vtid=1 latency_ns=3000\n' |
	python3 "$CTFGEN" "$tmpdir/two/b"
timeout 30 "$ANALYZE" --json "$tmpdir/two" >"$tmpdir/two.json" 2>"$tmpdir/two.err"
j two 'len(d["traces"]) == 2 and mode(2)["calls"] == 2 and mode(2)["timestamps"]["sum_ns"] == 6000 and mode(2)["pairing"]["entry_twice"] == 0'
ok $? "two traces: both found, calls paired within each trace"
# A thread's slot is found by its trace and its vtid, both.  The test
# above holds only if the two slots of vtid 1 happen to hash apart: in
# one process a trace's key is a pointer, so whether they probe into
# each other is luck.  With --jobs=2 (by file: two traces) the parent
# folds with the trace's index as its key, 0 and 1, and vtid 764152
# hashes to the same slot with either in every table of up to 4096
# slots (fold.c, thr_hash()): a lookup by vtid alone would give trace
# b's entry the call trace a has open (an entry twice, then a's exit
# timed from b's entry, b's exit without entry).
mkdir -p "$tmpdir/twoslot/a" "$tmpdir/twoslot/b"
printf '1000 entry vtid=764152 mode=2\n3000 exit vtid=764152 latency_ns=1000\n' |
	python3 "$CTFGEN" "$tmpdir/twoslot/a"
printf '2000 entry vtid=764152 mode=2\n6000 exit vtid=764152 latency_ns=3000\n' |
	python3 "$CTFGEN" "$tmpdir/twoslot/b"
t_opts=--jobs=2
analyze_again twoslot
t_opts=
rc_is twoslot 0 &&
	j twoslot 'len(d["traces"]) == 2 and (lambda p: (p["paired"], p["entry_twice"], p["exit_no_entry"], p["entry_no_exit"]) == (2, 0, 0, 0))(mode(2)["pairing"]) and (lambda s: (s["count"], s["sum_ns"], s["min_ns"], s["max_ns"]) == (2, 6000, 2000, 4000))(mode(2)["timestamps"])'
ok $? "two traces, one vtid whose slots collide (--jobs=2: trace keys 0 and 1): each trace's call paired with its own entry"
# The same two traces in one reader: in one process (--jobs=1), whose
# trace keys are libbabeltrace2's traces, and in one worker of --jobs=2,
# a bigger third trace in the other, which must key each trace's threads
# by its own directory (decode.c, dec_trace()), though neither trace has
# a UUID to tell them by.  -v's "the most bytes one reads" is the big
# trace's file: a and b are the other worker's.
mkdir -p "$tmpdir/oneworker/a" "$tmpdir/oneworker/b" "$tmpdir/oneworker/big"
printf '1000 entry vtid=764152 mode=2\n3000 exit vtid=764152 latency_ns=1000\n' |
	python3 "$CTFGEN" "$tmpdir/oneworker/a"
printf '2000 entry vtid=764152 mode=2\n6000 exit vtid=764152 latency_ns=3000\n' |
	python3 "$CTFGEN" "$tmpdir/oneworker/b"
i=0
while [ $i -lt 20 ]; do
	echo "$((10000 + i * 100)) entry vtid=1 mode=1"
	echo "$((10050 + i * 100)) exit vtid=1 latency_ns=40"
	i=$((i + 1))
done | python3 "$CTFGEN" "$tmpdir/oneworker/big"
big=$(wc -c <"$tmpdir/oneworker/big/stream_0")
for jobs in 1 2; do
	t_opts="-v --jobs=$jobs"
	analyze_again oneworker
	t_opts=
	ow_split=true
	[ $jobs = 1 ] ||
		[ "$(sed -n 's/^rpcsim-analyze: --jobs=2: 2 workers over whole stream files, the most bytes one reads \([0-9,]*\) of .*/\1/p' "$tmpdir/oneworker.jerr" | tr -d ,)" = "$big" ] ||
		ow_split=false
	ow_where="in one process (--jobs=1)"
	[ $jobs = 1 ] || ow_where="in one worker (--jobs=2, a bigger trace in the other)"
	rc_is oneworker 0 && $ow_split &&
		j oneworker 'len(d["traces"]) == 3 and (lambda p: (p["paired"], p["entry_twice"], p["exit_no_entry"], p["entry_no_exit"]) == (2, 0, 0, 0))(mode(2)["pairing"]) and (lambda s: (s["count"], s["sum_ns"], s["min_ns"], s["max_ns"]) == (2, 6000, 2000, 4000))(mode(2)["timestamps"]) and mode(1)["calls"] == 20'
	ok $? "two traces without UUID, one vtid, $ow_where: each trace's call paired with its own entry" ||
		diag "$(cat "$tmpdir/oneworker.jerr")"
done

exit_status
