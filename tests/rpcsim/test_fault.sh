#!/bin/sh
# SPDX-License-Identifier: MIT
#
# rpcsim under libpagepool's fault injection (PAGEPOOL_FAULT): a pool that
# cannot be mapped is a clear runtime error; failing pcp trylocks send the
# bulk calls to their one-page fallback and rpcsim keeps making progress,
# counting the extra calls and waits (an array call that came back short,
# under either array contract, is repeated at once, not waited on); a buddy allocator that keeps pages
# back still serves a pool with room to spare, and one that keeps too many
# makes every thread wait: rpcsim says the run stalled and exits 1 instead
# of hanging; a run that starves before the stall window is over is
# refused too, never a mean over the few calls that got through.  Every run that ends checks that every page came back.

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/rpcsim/common.sh"

if ! have_python; then
	echo "1..0 # SKIP python3 missing"
	exit 0
fi
plan_tests 26

# json KEY...: python expression over the first mode of $OUT's document.
json()
{
	python3 -c 'import json, sys
m = json.load(open(sys.argv[1]))["modes"][0]
print(eval(sys.argv[2]))' "$OUT" "$1"
}

run_env PAGEPOOL_FAULT=mmap --requests=10
[ "$status" -eq 1 ] && grep -q 'cannot create a .*pool of .*Cannot allocate memory' "$ERR"
ok $? "PAGEPOOL_FAULT=mmap: exit 1, the pool cannot be created (exit $status)"
[ "$(wc -l <"$ERR")" -eq 1 ]
ok $? "  in one line"

run_env PAGEPOOL_FAULT=trylock=200 --requests=10
[ "$status" -eq 1 ] && grep -q "PAGEPOOL_FAULT='trylock=200': expected" "$ERR"
ok $? "a bad PAGEPOOL_FAULT: exit 1 and what it accepts (exit $status)"
run_env PAGEPOOL_FAULT=buddy-empty=1,buddy-empty=2 --requests=10
[ "$status" -eq 1 ] && grep -q "PAGEPOOL_FAULT='buddy-empty=1,buddy-empty=2': buddy-empty given twice" "$ERR"
ok $? "a PAGEPOOL_FAULT key given twice: exit 1, the key named, not the last kept (exit $status)"

# Half the trylocks fail: list mode gets one page back whenever its bulk
# call falls back, runs dry and waits (Chuck Lever's list loop); it still
# serves every request.
run_env PAGEPOOL_FAULT=trylock=50 --alloc=list --requests=2000 \
	--retry-wait=10 --json
ran_ok "trylock=50, list: every request served"
[ "$(json 'm["calls"]')" -eq 2000 ] &&
[ "$(json 'm["counters"]["bulk_fallback_trylock"]')" -gt 0 ] &&
[ "$(json 'm["waits"]')" -gt 0 ]
ok $? "trylock=50, list: fallbacks ($(json 'm["counters"]["bulk_fallback_trylock"]')) and waits ($(json 'm["waits"]')) counted"
# wait_s is in seconds: each wait sleeps at least --retry-wait (10 us),
# and the threads cannot wait longer than they ran (threads x elapsed_s).
# A wrong unit is off by 1000 at least: beyond one bound or the other.
python3 -c 'import json, sys
d = json.load(open(sys.argv[1])); m = d["modes"][0]
assert m["waits"] * 10e-6 <= m["wait_s"] <= d["config"]["threads"] * m["elapsed_s"]' "$OUT"
ok $? "trylock=50, list: wait_s in seconds, between waits x --retry-wait and threads x elapsed_s ($(json 'm["wait_s"]') s)"

run_env PAGEPOOL_FAULT=trylock=50 --alloc=array --requests=2000 --json
ran_ok "trylock=50, array: every request served"
python3 -c 'import json, sys
m = json.load(open(sys.argv[1]))["modes"][0]
sys.exit(not (m["calls"] == 2000 and m["alloc_calls_per_call"] > 1.0 and
              m["counters"]["bulk_fallback_trylock"] > 0))' "$OUT"
ok $? "trylock=50, array: more than one allocator call per svc_alloc_arg ($(json 'm["alloc_calls_per_call"]'))"
# The output-only array (the 2025 proposal's consumer): a call that came
# back short made progress, so it calls again at once; only a call that
# got nothing waits, and the pool has pages to spare.
run_env PAGEPOOL_FAULT=trylock=50 --alloc=array --bulk-variant=pure-output \
	--requests=2000 --json
[ "$status" -eq 0 ] && python3 -c 'import json, sys
m = json.load(open(sys.argv[1]))["modes"][0]
sys.exit(not (m["calls"] == 2000 and m["alloc_calls_per_call"] > 1.0 and
              m["counters"]["bulk_fallback_trylock"] > 0 and
              m["no_progress"] == 0 and m["waits"] == 0))' "$OUT"
ok $? "trylock=50, pure-output array: short calls repeated at once, none counted as no progress, no wait" ||
	diag "exit $status: $(python3 -c 'import json, sys
m = json.load(open(sys.argv[1]))["modes"][0]
print({k: m[k] for k in ("calls", "alloc_calls_per_call", "no_progress", "waits")})' "$OUT" 2>&1)"

run_env PAGEPOOL_FAULT=trylock=100 --alloc=single --requests=500 --json
ran_ok "trylock=100, single: every page from the buddy lists, every request served"
[ "$(json 'm["counters"]["pcp_refill"]')" -eq 0 ]
ok $? "trylock=100, single: no pcp list was ever used"

# Buddy keeps 1000 pages back from a pool 2000 pages above the minimum.
run --threads=2 --requests=10 --json
min=$(python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["config"]["min_pool_pages"])' "$OUT" 2>/dev/null)
if [ -n "$min" ]; then
	run_env PAGEPOOL_FAULT=buddy-empty=1000 --threads=2 \
		--pool-size=$(( (min + 2000) * 4 ))k --requests=2000
	ran_ok "buddy-empty=1000 with 2000 pages to spare: every request served"
	pass "  (minimum pool $min pages)"

	# And with the buddy allocator keeping back all but ~100 pages
	# beyond the page cache: no thread can fill its rq_pages.
	start=$(date +%s)
	run_env PAGEPOOL_FAULT=buddy-empty=$((min - 16384 - 100)) --threads=2 \
		--pool-size=$((min * 4))k --requests=2000 --retry-wait=100
	took=$(( $(date +%s) - start ))
	[ "$status" -eq 1 ] && grep -q 'stalled: every server thread waited for pages' "$ERR"
	ok $? "pool too small: rpcsim reports the stall and exits 1 (exit $status after ${took} s)"
	! grep -q 'leak' "$ERR"
	ok $? "  and every page still comes back"
	[ "$took" -lt 30 ]
	ok $? "  within seconds, not a hang"
else
	skip 5 "no min_pool_pages in rpcsim's JSON configuration"
fi

# The default 1 GiB pool with all but 600 pages kept back: a call or a
# few complete, then both threads wait until the deadline, which comes
# before the 2 s stall window.  The failed calls and the waits are
# counted, and the run is refused: exit 1, in one line.
for mode in single list array; do
	run_env PAGEPOOL_FAULT=buddy-empty=261544 --file-size=1m \
		--alloc=$mode --duration=1.5
	[ "$status" -eq 1 ] &&
		grep -q "run 1: the pool starved: [0-9]* of [0-9]* allocator calls failed" "$ERR" &&
		[ "$(wc -l <"$ERR")" -eq 1 ]
	ok $? "starved before the stall window, $mode: exit 1, said in one line (exit $status)" ||
		diag "$(head -c 1000 "$ERR")"
	waits=$(sed -n 's/.*waited for pages \([0-9]*\) times.*/\1/p' "$ERR")
	! grep -q 'leak' "$ERR" && [ "${waits:-0}" -gt 0 ]
	ok $? "  $mode: the waits it did are counted ($waits), every page back"
	# The calls that got no page are what starved it: counted among
	# the allocator calls, which got the pages there were too, and in
	# single and array mode each wait follows one (the list mode also
	# waits when a call got some pages but too few).
	failed=$(sed -n 's/.*the pool starved: \([0-9]*\) of [0-9]* allocator calls failed.*/\1/p' "$ERR")
	total=$(sed -n 's/.*the pool starved: [0-9]* of \([0-9]*\) allocator calls failed.*/\1/p' "$ERR")
	[ "${failed:-0}" -gt 0 ] && [ "$failed" -lt "${total:-0}" ] &&
		{ [ "$mode" = list ] || [ "$failed" -ge "${waits:-0}" ]; }
	ok $? "  $mode: the failed allocator calls are counted among the calls ($failed of $total, $waits waits)"
done

exit_status
exit $?
