#!/bin/sh
# SPDX-License-Identifier: MIT
#
# lttng-analyses (Debian's python3-lttnganalyses) on rpcsim's traces, with
# doc/tracing.md's recipe: one period per svc_alloc_arg() call, from
# rpcsim:svc_alloc_arg_entry to the rpcsim:svc_alloc_arg_exit of the same
# thread (the vtid context), and lttng-periodstats-mi's statistics of them.
#
# 1. A hand-made trace (tests/analyze/ctfgen.py, no LTTng needed) where
#    two threads' calls overlap: the recipe gives the exact per-thread
#    durations (the vtid term matters: without it the first exit closes
#    both calls), and the same mean as rpcsim-analyze's timestamps.
# 2. A real trace of rpcsim --trace (one mode, a few hundred calls on two
#    threads): as many periods as rpcsim-analyze pairs by timestamps, and
#    the mean duration within 3 % of rpcsim-analyze's timestamp mean.
#    Needs LTTng, run as the other LTTng tests are: its own LTTNG_HOME and
#    session daemon, stopped by its pid (tests/utils/lttng.sh).
#
# Skipped without lttng-analyses; part 2 without LTTng or rpcsim --trace.

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
# shellcheck source=tests/utils/tap.sh
. "$top_srcdir/tests/utils/tap.sh"
# shellcheck source=tests/utils/lttng.sh
. "$top_srcdir/tests/utils/lttng.sh"

if ! command -v lttng-periodstats-mi >/dev/null 2>&1; then
	plan_skip_all "lttng-analyses not installed (apt-get install python3-lttnganalyses)"
fi
have_python || plan_skip_all "python3 missing"

RPCSIM=$top_builddir/rpcsim/rpcsim
ANALYZE=$top_builddir/analyze/rpcsim-analyze
CTFGEN=$top_srcdir/tests/analyze/ctfgen.py

# Why part 2 cannot run here, if it cannot; else isolate (re-runs this
# script before anything is printed).
no_live=
if ! "$RPCSIM" --help 2>/dev/null | grep -q -- '--trace\[=DIR\]'; then
	no_live="rpcsim built without LTTng-UST"
elif why=$(lttng_missing); then
	no_live=$why
elif ! why=$(lttng_can_isolate); then
	no_live=$why
else
	lttng_isolate "$0" "$@"
fi

tap_tmpdir lttng-analyses
tap_at_exit lttng_cleanup

# doc/tracing.md's period: a call, per thread.
# shellcheck disable=SC2016 # lttng-analyses' own $ names
PERIOD='alloc : $evt.$name == "rpcsim:svc_alloc_arg_entry" : $evt.$name == "rpcsim:svc_alloc_arg_exit" && $evt.vtid == $begin.$evt.vtid'
# The same without the thread: what not to do.
# shellcheck disable=SC2016
PERIOD_ANY='alloc : $evt.$name == "rpcsim:svc_alloc_arg_entry" : $evt.$name == "rpcsim:svc_alloc_arg_exit"'

# periodstats TRACE PERIOD OUT: "COUNT MEAN_NS" of the period named alloc.
periodstats()
{
	timeout 300 lttng-periodstats-mi --period "$2" "$1" >"$3.json" 2>"$3.err" ||
		return 1
	python3 - "$3.json" <<'PY'
import json, sys
res = json.load(open(sys.argv[1]))["results"]
rows = [row for table in res if table.get("class") == "per_period_stats"
        for row in table["data"] if row[0]["value"] == "alloc"]
if len(rows) != 1:
    sys.exit("%d rows for the period alloc" % len(rows))
# name, count, min, avg, max, stdev, runtime
print(rows[0][1]["value"], rows[0][3]["value"])
PY
}

# analyzed TRACE: "COUNT MEAN_NS" of rpcsim-analyze's timestamp latency,
# over every mode in the trace (one here).
analyzed()
{
	timeout 120 "$ANALYZE" --json "$1" 2>"$tmpdir/analyze.err" |
	python3 -c '
import json, sys
modes = json.load(sys.stdin)["modes"]
stamps = [m["timestamps"] for m in modes if m.get("timestamps")]
n = sum(s["count"] for s in stamps)
print(n, sum(s["sum_ns"] for s in stamps) / n if n else 0)'
}

# close A B PERCENT: A and B differ by at most PERCENT % of B.
close()
{
	python3 -c 'import sys; a, b, p = map(float, sys.argv[1:]); sys.exit(abs(a - b) > p / 100 * b)' "$@"
}

plan_tests 8

# 1. Overlapping calls of threads 1 and 2: 1000, 400 and 300 ns.
mkdir "$tmpdir/handmade"
python3 "$CTFGEN" "$tmpdir/handmade" <<'EOF_SCRIPT'
1000 entry vtid=1 mode=1 slots=4 holes=4
1100 entry vtid=2 mode=1 slots=4 holes=4
1500 exit vtid=2 allocated=4 alloc_calls=1 latency_ns=390
2000 exit vtid=1 allocated=4 alloc_calls=1 latency_ns=990
3000 entry vtid=2 mode=1 slots=4 holes=4
3300 exit vtid=2 allocated=4 alloc_calls=1 latency_ns=290
EOF_SCRIPT
ok $? "ctfgen.py writes the hand-made trace"
res=$(periodstats "$tmpdir/handmade" "$PERIOD" "$tmpdir/h")
st=$?
[ $st -eq 0 ] && [ "${res% *}" = 3 ] && close "${res#* }" 566.6667 0.001
ok $? "per-thread periods: 3 calls, mean (1000 + 400 + 300) / 3 ns ($res)" ||
	diag "exit $st" "$(cat "$tmpdir/h.err")"
res_any=$(periodstats "$tmpdir/handmade" "$PERIOD_ANY" "$tmpdir/a")
[ "${res_any% *}" = 3 ] && close "${res_any#* }" 400 0.001
ok $? "without the vtid term the first exit ends both calls ($res_any)" ||
	diag "$(cat "$tmpdir/a.err")"
if [ -x "$ANALYZE" ]; then
	ana=$(analyzed "$tmpdir/handmade")
	[ "${ana% *}" = 3 ] && close "${res#* }" "${ana#* }" 0.01
	ok $? "rpcsim-analyze's timestamps agree on the hand-made trace ($ana)" ||
		diag "$(cat "$tmpdir/analyze.err")"
else
	skip 1 "rpcsim-analyze not built"
fi

# 2. A real trace.
if [ -n "$no_live" ]; then
	skip 4 "$no_live"
	exit_status
	exit $?
fi
if [ ! -x "$ANALYZE" ]; then
	skip 4 "rpcsim-analyze not built"
	exit_status
	exit $?
fi
lttng_sessiond_up >"$tmpdir/why" || bail_out "$(cat "$tmpdir/why")"
timeout 120 "$RPCSIM" --alloc=list --requests=600 --threads=2 \
	--trace="$tmpdir/live" --quiet >"$tmpdir/rpcsim.out" 2>"$tmpdir/rpcsim.err"
st=$?
ok $st "rpcsim --alloc=list --trace records a trace" ||
	diag "exit $st" "$(head -c 2000 "$tmpdir/rpcsim.err")"
ana=$(analyzed "$tmpdir/live")
[ "${ana% *}" -gt 0 ] 2>/dev/null
ok $? "rpcsim-analyze pairs the calls by timestamps ($ana)" ||
	diag "$(cat "$tmpdir/analyze.err")"
res=$(periodstats "$tmpdir/live" "$PERIOD" "$tmpdir/l")
st=$?
[ $st -eq 0 ] && [ "${res% *}" = "${ana% *}" ]
ok $? "lttng-periodstats finds as many periods as rpcsim-analyze pairs ($res)" ||
	diag "exit $st" "$(cat "$tmpdir/l.err")"
close "${res#* }" "${ana#* }" 3
ok $? "mean duration within 3 % of rpcsim-analyze's timestamp mean (${res#* } ns vs ${ana#* } ns)"

exit_status
