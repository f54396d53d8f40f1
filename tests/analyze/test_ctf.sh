#!/bin/sh
# SPDX-License-Identifier: MIT
#
# rpcsim-analyze on small hand-made CTF traces (tests/analyze/ctfgen.py),
# where every timestamp is known: exact results of both latency methods,
# the check between them, pairing across threads and discards, events
# outside runs, unknown modes.  Needs python3, not LTTng.

# shellcheck source=tests/analyze/ctf_common.sh
. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/analyze/ctf_common.sh"
plan_no_plan
tap_tmpdir test-analyze-ctf

# trace NAME [--no-vtid] < script: $tmpdir/NAME/trace, then analyze it as
# text ($tmpdir/NAME.{out,err,rc}) and JSON ($tmpdir/NAME.json, .jerr, .jrc),
# with the options in $t_opts
t_opts=
trace()
{
	t_name=$1
	shift
	mkdir -p "$tmpdir/$t_name/trace"
	python3 "$CTFGEN" "$@" "$tmpdir/$t_name/trace" || return 1
	analyze_again "$t_name"
}

# analyze_again NAME: analyze $tmpdir/NAME again (after changing it)
analyze_again()
{
	# shellcheck disable=SC2086 # $t_opts: none or several words
	timeout 30 "$ANALYZE" $t_opts "$tmpdir/$1" >"$tmpdir/$1.out" \
		2>"$tmpdir/$1.err"
	echo $? >"$tmpdir/$1.rc"
	# shellcheck disable=SC2086
	timeout 30 "$ANALYZE" $t_opts --json "$tmpdir/$1" >"$tmpdir/$1.json" \
		2>"$tmpdir/$1.jerr"
	echo $? >"$tmpdir/$1.jrc"
}

# refused_as NAME PATTERN WORDS: exit 1 both ways, nothing on stdout or
# in the JSON, one line on stderr matching PATTERN (grep) and naming WORDS
refused_as()
{
	rc_is "$1" 1 && [ ! -s "$tmpdir/$1.out" ] && [ ! -s "$tmpdir/$1.json" ] &&
		[ "$(wc -l <"$tmpdir/$1.err")" -eq 1 ] &&
		grep -q "$2" "$tmpdir/$1.err" &&
		grep -qF -- "$3" "$tmpdir/$1.err" || {
		diag "exit $(cat "$tmpdir/$1.rc"): $(cat "$tmpdir/$1.err")"
		return 1
	}
}

# incomplete NAME WORDS: refused, the one line saying the trace is
# incomplete and naming WORDS
incomplete()
{
	refused_as "$1" 'incomplete trace' "$2"
}

rc_is()
{
	[ "$(cat "$tmpdir/$1.rc")" = "$2" ] && [ "$(cat "$tmpdir/$1.jrc")" = "$2" ]
}

# j NAME EXPR: EXPR is true of the JSON document d (mode(n): its mode n).
# The document must parse, with no NaN or Infinity.
j()
{
	python3 - "$tmpdir/$1.json" "$2" <<'EOF' 2>"$tmpdir/j.err"
import json, sys
def no_constant(c):
    raise ValueError("non-finite number " + c)
d = json.load(open(sys.argv[1]), parse_constant=no_constant)
def mode(n):
    return [m for m in d["modes"] if m["mode"] == n][0]
sys.exit(0 if eval(sys.argv[2]) else 1)
EOF
	j_rc=$?
	[ "$j_rc" -eq 0 ] || diag "false: $2" "$(cat "$tmpdir/j.err")"
	return "$j_rc"
}

has_line()
{
	grep -qxF "$2" "$tmpdir/$1.out" || {
		diag "no line '$2' in:" "$(cat "$tmpdir/$1.out")"
		return 1
	}
}

err_has()
{
	grep -q "$2" "$tmpdir/$1.err" || {
		diag "no '$2' in:" "$(cat "$tmpdir/$1.err")"
		return 1
	}
}

# packet_sizes INDEX...: each packet's size in bytes, as the LTTng
# indexes (ctfgen.py --index) list them, a line each, file by file
packet_sizes()
{
	python3 - "$@" <<'PYEOF'
import struct, sys
for f in sys.argv[1:]:
    b = open(f, "rb").read()
    elen = struct.unpack_from(">I", b, 12)[0]
    for o in range(16, len(b), elen):
        print(struct.unpack_from(">Q", b, o + 8)[0] // 8)
PYEOF
}

err_lacks()
{
	! grep -q "$2" "$tmpdir/$1.err" || {
		diag "'$2' in:" "$(cat "$tmpdir/$1.err")"
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
# incomplete traces: exit 1 and what is missing, unless --partial
trace noend <<'EOF'
1000 run_start mode=1 run=1
1100 entry vtid=5 mode=1
1200 exit vtid=5 latency_ns=40
1300 run_end mode=1 run=1 calls=1 latency_sum_ns=40
2000 run_start mode=2 run=1
2100 entry vtid=5 mode=2
2400 exit vtid=5 latency_ns=240
EOF
incomplete noend "Bulk array run 1 started (run_start) but never ended (no run_end)"
ok $? "a mode announced (run_start) and never finished: incomplete, exit 1"
t_opts=--partial
analyze_again noend
t_opts=
sh -c "[ \$(cat '$tmpdir/noend.rc') = 0 ] && grep -q '^Bulk array: ' '$tmpdir/noend.out' && grep -q 'warning: Bulk array: no run_end' '$tmpdir/noend.err'"
ok $? "  with --partial: exit 0, reported, warned"
trace discarded_end <<'EOF'
2000 run_start mode=2 run=1
2100 entry vtid=5 mode=2
packet discarded=3
2400 exit vtid=5 latency_ns=240
EOF
rc_is discarded_end 0
ok $? "  no run_end but a discard recorded: a warning, exit 0"

# Stream files libbabeltrace2 skips without a word: the report would
# miss every event in them.  A whole trace, with LTTng's index.
whole()
{
	rm -rf "${tmpdir:?}/$1"
	mkdir -p "$tmpdir/$1/trace"
	python3 "$CTFGEN" --index "$tmpdir/$1/trace" <<'EOF'
1000 run_start mode=2 run=1
2000 entry vtid=1 mode=2
3000 exit vtid=1 latency_ns=900
packet
4000 entry vtid=1 mode=2
5000 exit vtid=1 latency_ns=900
6000 run_end mode=2 run=1 calls=2 latency_sum_ns=1800
EOF
}
whole good
analyze_again good
rc_is good 0
ok $? "a whole trace with its index: exit 0"
whole empty_stream
: >"$tmpdir/empty_stream/trace/stream_0"
analyze_again empty_stream
incomplete empty_stream "empty_stream/trace/stream_0: empty stream file"
ok $? "a stream file emptied: incomplete, names it"
whole dir_stream
rm "$tmpdir/dir_stream/trace/stream_0"
mkdir "$tmpdir/dir_stream/trace/stream_0"
analyze_again dir_stream
incomplete dir_stream "dir_stream/trace/stream_0: a directory, not a stream file"
ok $? "a stream file replaced by a directory: incomplete"
whole fifo_stream
rm "$tmpdir/fifo_stream/trace/stream_0"
mkfifo "$tmpdir/fifo_stream/trace/stream_0"
analyze_again fifo_stream
incomplete fifo_stream "fifo_stream/trace/stream_0: a FIFO, not a stream file"
ok $? "a stream file replaced by a FIFO: incomplete, no hang"
whole zero_stream
ln -sf /dev/zero "$tmpdir/zero_stream/trace/stream_0"
analyze_again zero_stream
incomplete zero_stream "zero_stream/trace/stream_0: a device, not a stream file"
ok $? "a stream file replaced by a link to /dev/zero: incomplete"
# An index or metadata file that is not a regular file: libbabeltrace2
# opens and reads it blocking (a FIFO stopped it until the indexing
# watchdog called the trace corrupted), --partial or not.  Refused at
# once, one line naming it.
# refused NAME LINE: exit 1 both ways, nothing out, the one line LINE
refused()
{
	rc_is "$1" 1 && [ ! -s "$tmpdir/$1.out" ] && [ ! -s "$tmpdir/$1.json" ] &&
		[ "$(cat "$tmpdir/$1.err")" = "$2" ] || {
		diag "exit $(cat "$tmpdir/$1.rc"): $(cat "$tmpdir/$1.err")"
		return 1
	}
}
for opts in "" "--partial" "--partial --jobs=2"; do
	t_opts=$opts
	whole fifo_index
	rm "$tmpdir/fifo_index/trace/index/stream_0.idx"
	mkfifo "$tmpdir/fifo_index/trace/index/stream_0.idx"
	analyze_again fifo_index
	refused fifo_index "rpcsim-analyze: $tmpdir/fifo_index/trace/index/stream_0.idx: a FIFO, not an index file (LTTng writes a regular file)"
	ok $? "an index file replaced by a FIFO${opts:+ ($opts)}: refused at once, naming it, exit 1"
done
whole dir_index
rm "$tmpdir/dir_index/trace/index/stream_0.idx"
mkdir "$tmpdir/dir_index/trace/index/stream_0.idx"
analyze_again dir_index
refused dir_index "rpcsim-analyze: $tmpdir/dir_index/trace/index/stream_0.idx: a directory, not an index file (LTTng writes a regular file)"
ok $? "an index file replaced by a directory: refused, exit 1"
whole zero_index
ln -sf /dev/zero "$tmpdir/zero_index/trace/index/stream_0.idx"
t_opts=--jobs=2
analyze_again zero_index
t_opts=
refused zero_index "rpcsim-analyze: $tmpdir/zero_index/trace/index/stream_0.idx: a device, not an index file (LTTng writes a regular file)"
ok $? "an index file replaced by a link to /dev/zero (--jobs=2): refused, exit 1"
whole cut_stream
truncate -s 100 "$tmpdir/cut_stream/trace/stream_0"
analyze_again cut_stream
incomplete cut_stream "cut_stream/trace/stream_0: stream file cut: 100 bytes, its index (2 packets) says at least"
ok $? "a stream file shorter than its index says: incomplete"
# --partial reads a stream cut in the middle of a packet (a trace copied
# while written, a full disk) up to its last whole packet, and says how
# much it dropped; it refused the whole trace ("Failed to index CTF stream
# file").  With its index, without it (the packets walked), by --jobs.
mkdir "$tmpdir/cuttmp"
for how in index noindex jobs; do
	whole "cut_$how"
	truncate -s 250 "$tmpdir/cut_$how/trace/stream_0"
	[ $how = noindex ] && rm -r "$tmpdir/cut_$how/trace/index"
	t_opts=--partial
	[ $how = jobs ] && t_opts="--partial --jobs=2"
	TMPDIR=$tmpdir/cuttmp analyze_again "cut_$how"
	t_opts=
	# the first packet's size, from the index (the schema's sizes make it)
	first=$(packet_sizes "$tmpdir/cut_index/trace/index/stream_0.idx" |
		head -n 1)
	rc_is "cut_$how" 0 &&
		grep -qxF "rpcsim-analyze: warning: $tmpdir/cut_$how/trace/stream_0: cut in the middle of a packet: read up to its last whole packet (1 packet, $first bytes), the $((250 - first)) bytes after it dropped" "$tmpdir/cut_$how.err" &&
		j "cut_$how" 'mode(2)["calls"] == 1 and mode(2)["latency_ns"]["sum_ns"] == 900' &&
		[ -z "$(ls -A "$tmpdir/cuttmp")" ]
	ok $? "--partial, a stream file cut in its second packet ($how): its first packet read, the cut said, exit 0" ||
		diag "exit $(cat "$tmpdir/cut_$how.rc"): $(cat "$tmpdir/cut_$how.err")" \
			"left: $(ls -A "$tmpdir/cuttmp")"
done
analyze_again cut_noindex
rc_is cut_noindex 1 && [ ! -s "$tmpdir/cut_noindex.out" ]
ok $? "a stream file cut in its second packet, without --partial: refused, exit 1"
whole gone_stream
rm "$tmpdir/gone_stream/trace/stream_0"
analyze_again gone_stream
incomplete gone_stream "gone_stream/trace/stream_0: stream file missing (index/stream_0.idx lists it)"
ok $? "a stream file the index lists, gone: incomplete"
whole unread_stream
chmod 000 "$tmpdir/unread_stream/trace/stream_0"
if [ "$(id -u)" -ne 0 ]; then
	analyze_again unread_stream
	incomplete unread_stream "unread_stream/trace/stream_0: stream file cannot be read"
	ok $? "an unreadable stream file: incomplete"
elif command -v runuser >/dev/null 2>&1 &&
     runuser -u nobody -- test -x "$ANALYZE" 2>/dev/null; then
	chmod 755 "$tmpdir"
	chmod -R a+rX "$tmpdir/unread_stream"
	chmod 000 "$tmpdir/unread_stream/trace/stream_0"
	runuser -u nobody -- timeout 30 "$ANALYZE" "$tmpdir/unread_stream" \
		>"$tmpdir/unread_stream.out" 2>"$tmpdir/unread_stream.err"
	echo $? >"$tmpdir/unread_stream.rc"
	runuser -u nobody -- timeout 30 "$ANALYZE" --json "$tmpdir/unread_stream" \
		>"$tmpdir/unread_stream.json" 2>/dev/null
	echo $? >"$tmpdir/unread_stream.jrc"
	incomplete unread_stream "unread_stream/trace/stream_0: stream file cannot be read (Permission denied)"
	ok $? "an unreadable stream file (as nobody): incomplete"
else
	skip 1 "an unreadable stream file: root reads everything, and nobody cannot run $ANALYZE"
fi
# A second stream, emptied: --partial reads the first.
whole two_streams
: >"$tmpdir/two_streams/trace/stream_1"
analyze_again two_streams
incomplete two_streams "two_streams/trace/stream_1: empty stream file"
ok $? "one of two stream files emptied: incomplete"
t_opts=--partial
analyze_again two_streams
t_opts=
sh -c "[ \$(cat '$tmpdir/two_streams.rc') = 0 ] && grep -q 'warning: .*stream_1: empty stream file' '$tmpdir/two_streams.err' && grep -q '^Bulk array: .* over 2 calls' '$tmpdir/two_streams.out'"
ok $? "  --partial: a warning, the other stream reported, exit 0"

###########################################################################
# loss counters that go backwards or jump: corruption, not losses
# corrupted NAME WORDS: refused (refused_as), the one line saying
# stream_0 is corrupted and naming WORDS
corrupted()
{
	refused_as "$1" 'corrupted trace: .*stream_0: ' "$2"
}
# packets NAME [--seq] PACKET...: trace NAME, one array run with a call
# across each packet boundary "packet PACKET" (discarded=N; seq=N, with
# --seq), from 2000 ns on, 2000 ns apart.
packets()
{
	p_name=$1
	shift
	p_seq=
	if [ "$1" = --seq ]; then
		p_seq=--seq
		shift
	fi
	p_n=0
	{
		echo "1000 run_start mode=2 run=1"
		for p_packet in "$@"; do
			p_n=$((p_n + 1))
			echo "$((p_n * 2000)) entry vtid=1 mode=2"
			echo "packet $p_packet"
			echo "$((p_n * 2000 + 1000)) exit vtid=1 latency_ns=900"
		done
		echo "6000 run_end mode=2 run=1 calls=$p_n latency_sum_ns=$((p_n * 900))"
	} >"$tmpdir/$p_name.script"
	# shellcheck disable=SC2086 # $p_seq: none or one word
	trace "$p_name" $p_seq <"$tmpdir/$p_name.script"
}
packets back_events discarded=10 discarded=5
corrupted back_events "its count of discarded events (events_discarded) went backwards"
ok $? "events_discarded going backwards (10, then 5): corrupted, exit 1"
packets jump_events discarded=72057594037927936
corrupted jump_events "jumped by 72,057,594,037,927,936"
ok $? "events_discarded with a flipped high byte (2^56): corrupted, exit 1"
packets back_seq --seq seq=7 seq=2
corrupted back_seq "its packet sequence number (packet_seq_num) went backwards"
ok $? "packet_seq_num going backwards (7, then 2): corrupted, exit 1"
packets jump_seq --seq seq=72057594037927937
corrupted jump_seq "packet sequence number (packet_seq_num) jumped by"
ok $? "packet_seq_num with a flipped high byte: corrupted, exit 1"
packets lost_seq --seq seq=5
sh -c "[ \$(cat '$tmpdir/lost_seq.rc') = 0 ] && grep -q 'warning: 4 packets were lost' '$tmpdir/lost_seq.err'"
ok $? "packets really lost (sequence 0, then 5): 4 packets, a warning, exit 0"
# lttng-ust 2.13 writes packets whose events_discarded reads 0 between
# packets that count (a real trace under heavy discard): libbabeltrace2
# reports that 0 as the counter going back, then the next packet's whole
# count as lost.  Lost: what the counter gained over the most it read.
# readings NAME N...: packets with these events_discarded, a call in each
readings()
{
	r_name=$1
	shift
	r_t=1000
	{
		echo "1000 run_start mode=2 run=1"
		for r_n in "$@"; do
			echo "$((r_t + 100)) entry vtid=1 mode=2"
			echo "$((r_t + 1100)) exit vtid=1 latency_ns=900"
			echo "packet discarded=$r_n"
			r_t=$((r_t + 2000))
		done
		echo "$r_t run_end mode=2 run=1 calls=$# latency_sum_ns=$(($# * 900))"
	} >"$tmpdir/$r_name.script"
	trace "$r_name" <"$tmpdir/$r_name.script"
}
readings zero_reading 5 0 9
rc_is zero_reading 0 && j zero_reading 'd["discarded_events"] == 9 and d["discarded_events_records"] == 2' &&
	err_has zero_reading 'warning: the tracer discarded 9 events (2 discard records)' &&
	err_lacks zero_reading corrupted
ok $? "events_discarded reading 0 between 5 and 9 (lttng-ust's): 9 events lost, exit 0"
readings zero_again 5 0 5 0 12
rc_is zero_again 0 && j zero_again 'd["discarded_events"] == 12 and d["discarded_events_records"] == 2'
ok $? "events_discarded 5, 0, 5, 0, 12: 12 events lost in 2 gaps, exit 0"
readings zero_back 10 0 5
corrupted zero_back "its count of discarded events (events_discarded) went backwards"
ok $? "events_discarded 10, 0, then 5: corrupted, exit 1"

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
# graph's muxer orders them by their streams (trace UUID, trace name,
# stream class, stream id), then by event class id, and so must the
# merge, whichever worker has which file (the biggest file goes to
# worker 0).  Here a run_start and another thread's entry at 1000 ns:
# whether that call is in the run says which came first.  Traces
# without index, so that the split is by file.
# tie NAME EXPECT: --jobs=1 and --jobs=2 (by file) on $tmpdir/NAME give
# the same JSON, in which mode 2's (run, calls) are EXPECT
tie()
{
	for ti_jobs in 1 2; do
		timeout 30 "$ANALYZE" -v --partial --jobs=$ti_jobs --json \
			"$tmpdir/$1" >"$tmpdir/$1.$ti_jobs.json" \
			2>"$tmpdir/$1.$ti_jobs.err"
	done
	cp "$tmpdir/$1.2.json" "$tmpdir/$1.json"
	grep -q "^rpcsim-analyze: --jobs=2: 2 workers over whole stream files" "$tmpdir/$1.2.err" &&
		j "$1" "[(r['run'], r['calls']) for r in mode(2)['runs']] == $2" &&
		cmp -s "$tmpdir/$1.1.json" "$tmpdir/$1.2.json" || {
		diag "$(cat "$tmpdir/$1.2.err")"
		diag "$(diff "$tmpdir/$1.1.json" "$tmpdir/$1.2.json" | head -n 20)"
		return 1
	}
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
# two traces with UUIDs: the trace of the lower UUID first
mkdir -p "$tmpdir/tie_uuid/a" "$tmpdir/tie_uuid/b"
entry_at_1000 0 | python3 "$CTFGEN" --uuid=6b0c1a5a-0000-4000-8000-000000000001 \
	"$tmpdir/tie_uuid/a"
run_at_1000 4 | python3 "$CTFGEN" --uuid=6b0c1a5a-0000-4000-8000-000000000002 \
	"$tmpdir/tie_uuid/b"
tie tie_uuid "[(None, 1), (0, 4)]"
ok $? "--jobs=2 by file, two traces with UUIDs: the trace of the lower UUID first, whatever its events"

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
		wait $top
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
	wait $top
	status=$?
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
