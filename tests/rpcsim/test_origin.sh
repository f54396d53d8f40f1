#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Results that say where they came from: rpcsim's and pagebench's JSON
# record the host, the CPU model, the online CPUs, the kernel release and
# architecture (each against /proc/cpuinfo, getconf and uname), the start
# time (UTC, ISO 8601, between the test's clock readings around the run),
# Slurm's job and array ids when its variables are set (null otherwise),
# and whether a signal cut the run short.  A run stopped by SIGINT writes
# its JSON marked so (also into --output=FILE, saying it on stderr);
# rpcsim-compare prints each file's origin, refuses an interrupted file
# unless --partial (then marks it), and a sweep folder never takes one as
# a point.

# shellcheck source=tests/rpcsim/common.sh
. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/rpcsim/common.sh"

PAGEBENCH=${PAGEBENCH:-$top_builddir/pagebench/pagebench}

have_python || plan_skip_all "python3 is needed to read the JSON"
plan_tests 9

FIXED="--alloc=array --requests=200 --file-size=1m"
cpu=$(sed -n 's/^model name[^:]*: *//p' /proc/cpuinfo | head -n 1)
export want_cpu="${cpu:-unknown}" want_cpus="$(getconf _NPROCESSORS_ONLN)" \
	want_kernel="$(uname -r)" want_arch="$(uname -m)" want_host="$(hostname)"

# origin FILE T0 T1 [SLURM]: the document's origin is this machine's,
# started within [T0, T1] (epoch seconds), with SLURM "JOB ARRAY TASK"
# or none, not interrupted.
origin()
{
	python3 - "$@" <<'EOF'
import calendar, json, os, sys, time
d = json.load(open(sys.argv[1]))
t0, t1 = int(sys.argv[2]), int(sys.argv[3])
m = d["machine"]
bad = []
for key, want in (("cpu", os.environ["want_cpu"]),
                  ("kernel", os.environ["want_kernel"]),
                  ("arch", os.environ["want_arch"])):
    if m.get(key) != want:
        bad.append("machine.%s %r, expected %r" % (key, m.get(key), want))
if m.get("online_cpus") != int(os.environ["want_cpus"]):
    bad.append("machine.online_cpus %r" % m.get("online_cpus"))
if d.get("host") != os.environ["want_host"]:
    bad.append("host %r" % d.get("host"))
started = d.get("started", "")
try:
    t = calendar.timegm(time.strptime(started, "%Y-%m-%dT%H:%M:%SZ"))
    if not t0 <= t <= t1:
        bad.append("started %s outside the run" % started)
except ValueError:
    bad.append("started %r: not ISO 8601 UTC" % started)
if len(sys.argv) > 4:
    want = dict(zip(("job_id", "array_job_id", "array_task_id"),
                    sys.argv[4].split()))
    if d.get("slurm") != want:
        bad.append("slurm %r, expected %r" % (d.get("slurm"), want))
elif d.get("slurm") is not None:
    bad.append("slurm %r outside a job" % d.get("slurm"))
if d.get("interrupted") is not False or d.get("signal") is not None:
    bad.append("interrupted %r, signal %r" % (d.get("interrupted"),
                                              d.get("signal")))
print("; ".join(bad))
sys.exit(1 if bad else 0)
EOF
}

t0=$(date +%s)
run $FIXED --json
t1=$(date +%s)
cp "$OUT" "$tmpdir/plain.json"
[ "$status" -eq 0 ] && why=$(origin "$tmpdir/plain.json" "$t0" "$t1")
ok $? "rpcsim --json: host, CPU model, online CPUs, kernel, arch, start time; no Slurm job, not interrupted" ||
	diag "exit $status: $why $(head -c 300 "$ERR")"

t0=$(date +%s)
run_cmd "$RPCSIM_TIMEOUT" env SLURM_JOB_ID=77 SLURM_ARRAY_JOB_ID=70 \
	SLURM_ARRAY_TASK_ID=7 "$RPCSIM" $FIXED --json
t1=$(date +%s)
[ "$status" -eq 0 ] && why=$(origin "$OUT" "$t0" "$t1" "77 70 7")
ok $? "in a Slurm array task: its job, array job and task ids" ||
	diag "exit $status: $why"

if [ -x "$PAGEBENCH" ]; then
	t0=$(date +%s)
	run_cmd 120 "$PAGEBENCH" --smoke --json
	t1=$(date +%s)
	[ "$status" -eq 0 ] && why=$(origin "$OUT" "$t0" "$t1") &&
		python3 -c 'import json, sys
t = json.load(open(sys.argv[1]))["machine"]["tsc_ghz"]
sys.exit(not (t is None or t > 0))' "$OUT"
	ok $? "pagebench --json: the same origin, and its TSC rate" ||
		diag "exit $status: $why"
else
	skip 1 "no pagebench in this build"
fi

# Cut short: the text first (its pool line says the handlers are set),
# then the JSON of what ended, marked.
spawn --alloc=all --duration=30 --file-size=1m --output-format=text,json
signal_started INT
sed -n '/^{/,$p' "$OUT" >"$tmpdir/int.json"
[ "$status" -eq 130 ] && python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(not (d["interrupted"] is True and d["signal"] == "SIGINT"))' \
	"$tmpdir/int.json"
ok $? "stopped by SIGINT: exit 130, the JSON says interrupted by SIGINT" ||
	diag "exit $status: $(tail -c 300 "$OUT") $(cat "$ERR")"

echo old >"$tmpdir/out.json"
spawn --alloc=all --duration=30 --file-size=1m --output-format=text,json \
	--output="$tmpdir/out.json"
# started(), but in --output's temporary file (.out.json.XXXXXX)
n=0
until cat "$tmpdir"/.out.json.* 2>/dev/null | grep -q '^  pool:' ||
	[ $n -gt 600 ]; do
	sleep 0.1
	n=$((n + 1))
done
kill -INT "$pid"
wait_bounded "$pid" "$STOP_BOUND"
sed -n '/^{/,$p' "$tmpdir/out.json" >"$tmpdir/out-doc.json"
[ "$status" -eq 130 ] &&
	grep -q "^rpcsim: --output=$tmpdir/out.json: what was measured before SIGINT, marked as interrupted\$" "$ERR" &&
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(not d["interrupted"])' "$tmpdir/out-doc.json" &&
	[ -z "$(ls -a "$tmpdir" | grep '^\.out\.json\.')" ]
ok $? "--output=FILE cut short: FILE holds the partial document, marked, and stderr says so" ||
	diag "exit $status after $n waits: $(cat "$ERR"; head -c 300 "$tmpdir/out.json")"

run_cmd 60 "$COMPARE" "$tmpdir/plain.json" "$tmpdir/plain.json"
[ "$status" -eq 0 ] &&
	grep -q "^      host $want_host: $want_cpu, $want_cpus CPUs\\{0,1\\}, Linux $want_kernel $want_arch; started [0-9T:-]*Z\$" "$OUT"
ok $? "rpcsim-compare: each file's origin under its description" ||
	diag "exit $status: $(head -n 8 "$OUT") $(cat "$ERR")"

# rpcsim-compare on a document marked cut short: the plain run's, marked
# (the one of the signal test above may hold no call at all when the
# signal came before its first run ended, as in a slow sanitizer build).
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
d["interrupted"] = True
d["signal"] = "SIGINT"
json.dump(d, open(sys.argv[2], "w"))' "$tmpdir/plain.json" "$tmpdir/int.json"
run_cmd 60 "$COMPARE" "$tmpdir/plain.json" "$tmpdir/int.json"
[ "$status" -eq 1 ] && [ ! -s "$OUT" ] && [ "$(wc -l <"$ERR")" -eq 1 ] &&
	grep -q "^rpcsim-compare: $tmpdir/int.json: a run cut short by SIGINT (\"interrupted\": true): its figures are partial; --partial compares it anyway, marked\$" "$ERR"
ok $? "rpcsim-compare: an interrupted file refused, one line naming it and the signal, exit 1" ||
	diag "exit $status: $(cat "$ERR")"

run_cmd 60 "$COMPARE" --partial "$tmpdir/plain.json" "$tmpdir/int.json"
[ "$status" -eq 0 ] &&
	grep -q '^      INTERRUPTED by SIGINT: partial figures (--partial)$' "$OUT" &&
	[ "$(grep -c INTERRUPTED "$OUT")" -eq 1 ]
ok $? "rpcsim-compare --partial: compared, the interrupted file marked" ||
	diag "exit $status: $(head -n 10 "$OUT") $(cat "$ERR")"

# A point's file marked interrupted (rpcsim --point writes none so; one
# put there by hand) is no point of a sweep.
run $FIXED --sweep=threads=1,2 --results="$tmpdir/sw"
python3 -c 'import json, sys
p = sys.argv[1]
d = json.load(open(p))
d["interrupted"] = True
d["signal"] = "SIGTERM"
json.dump(d, open(p, "w"))' "$tmpdir/sw/threads-2.json"
run_cmd 60 "$COMPARE" --sweep="$tmpdir/sw"
[ "$status" -eq 1 ] &&
	grep -q "^rpcsim-compare: $tmpdir/sw/threads-2.json: interrupted: a run cut short by SIGTERM, not a point" "$ERR"
ok $? "rpcsim-compare --sweep: a file marked interrupted is refused as a point" ||
	diag "exit $status: $(cat "$ERR")"

exit_status
