#!/bin/sh
# SPDX-License-Identifier: MIT
#
# --tcp-read=SIZE: a record longer than SIZE comes in pieces, and after
# each short read its received pages go aside (svc_tcp_save_pages()), the
# thread goes through svc_alloc_arg() again to refill their slots, and the
# next read puts those fresh pages and takes the record's back
# (svc_tcp_restore_pages()).  Checked exactly on one thread: the calls,
# short reads and pages that follow from the record's size, the refill
# kinds, the requests served unchanged, every page back, a piece ending
# inside a page setting that page aside too, a warm-up's short reads
# counted nowhere; then the
# pieces' data survive odd sizes on two threads, a run that stops inside
# a record gives every page back, and the text and JSON say what ran.

# Option lists in variables are split into words on purpose.
# shellcheck disable=SC2086
# shellcheck source=tests/rpcsim/common.sh
. "$top_srcdir/tests/rpcsim/common.sh"

plan_tests 16

# check EXPR...: evaluate a python expression on the first mode of the
# JSON document in $OUT (m) and its config (c); exit 0 when true.
check()
{
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
m, c = d["modes"][0], d["config"]
sys.exit(0 if eval("(" + sys.argv[2] + ")") else 1)' "$OUT" "$1"
}

# 50 WRITEs of 256 KiB on one thread, read 64 KiB at a time: a record of
# 256 KiB and its header comes in 5 pieces, so 4 short reads, each
# followed by a refill of the pages received so far: 16, 32, 48 and 64.
# The first call fills all 259 slots; each later request's first call
# refills the one reply page the WRITE before it left.  The holes the
# save left start at slot 0, and the pool has room to spare: each call
# asks the allocator once for all its holes (single: once per page) and
# never waits, but for a bulk call whose pcp trylock failed (lock pcp
# lists, as under ThreadSanitizer), which gets one page and goes round.
n=50
pages=$((259 + (n - 1) + n * (16 + 32 + 48 + 64)))
for mode in single list array; do
	run --alloc=$mode --threads=1 --requests=$n --mix=read:0,write:1 \
		--file-size=2m --tcp-read=64k --json
	[ "$status" -eq 0 ] &&
		check "m['requests'] == $n and m['writes'] == $n and
		       m['short_reads'] == 4 * $n and
		       m['calls'] == 5 * $n and m['pages'] == $pages and
		       m['by_refill']['one_page']['calls'] == $n - 1 and
		       m['by_refill']['more_pages']['calls'] == 4 * $n + 1"
	ok $? "--alloc=$mode --tcp-read=64k: $((5 * n)) calls, $((4 * n)) short reads, $pages pages for $n WRITEs" ||
		diag "exit $status: $(head -c 600 "$ERR")$(python3 -c 'import json, sys
m = json.load(open(sys.argv[1]))["modes"][0]
print({k: m.get(k) for k in ("calls", "requests", "short_reads", "pages")})' "$OUT" 2>/dev/null)"
	per_call=calls one=call
	[ "$mode" = single ] && per_call=pages one=page
	[ "$status" -eq 0 ] &&
		check "m['no_progress'] == 0 and
		       (m['alloc_calls'] == m['$per_call'] and m['waits'] == 0 or
			'$mode' != 'single' and
			m['counters']['bulk_fallback_trylock'] > 0)"
	ok $? "--alloc=$mode --tcp-read=64k: one allocator call per $one, no wait" ||
		diag "$(python3 -c 'import json, sys
m = json.load(open(sys.argv[1]))["modes"][0]
print({k: m.get(k) for k in ("calls", "pages", "alloc_calls", "no_progress", "waits")}, m["counters"]["bulk_fallback_trylock"])' "$OUT" 2>/dev/null)"
done

# A piece that ends past a page boundary sets aside the page it ends in
# too (svc_tcp_save_pages() rounds up): a 16 KiB WRITE's record, 16512
# bytes with its 128-byte header, read 4097 bytes at a time, comes in 5
# pieces, and its 4 short reads leave 2, 3, 4 and 5 holes, 14 pages a
# WRITE, where 4096-byte pieces, or the pages set aside rounded down,
# leave 1, 2, 3 and 4.  After a warm-up, whose pieces and refills count nowhere, each
# request's first call refills the one reply page of the WRITE before.
w=30
bad=
for mode in single list array; do
	run --alloc=$mode --threads=1 --requests=$w --mix=read:0,write:1 \
		--io-size=16k --file-size=1m --tcp-read=4097 --warmup=3 --json
	if ! { [ "$status" -eq 0 ] &&
		check "m['calls'] == 5 * $w and m['short_reads'] == 4 * $w and
		       m['pages'] == 15 * $w and
		       m['by_refill']['one_page']['calls'] == $w"; }; then
		bad=$mode
		break
	fi
done
[ -z "$bad" ]
ok $? "--tcp-read=4097, 16 KiB WRITEs after a warm-up, every mode: $((5 * w)) calls, $((4 * w)) short reads, $((15 * w)) pages" ||
	diag "$bad, exit $status: $(head -c 600 "$ERR")$(python3 -c 'import json, sys
m = json.load(open(sys.argv[1]))["modes"][0]
print({k: m.get(k) for k in ("calls", "short_reads", "pages")})' "$OUT" 2>/dev/null)"

# The same requests served as with whole records: the same digest.
run --alloc=array --threads=1 --requests=$n --mix=read:0,write:1 \
	--file-size=2m --json
whole=$(python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["modes"][0]["digest"])' "$OUT")
run --alloc=array --threads=1 --requests=$n --mix=read:0,write:1 \
	--file-size=2m --tcp-read=64k --json
[ "$status" -eq 0 ] && check "m['digest'] == '$whole' and m['calls'] > $n"
ok $? "the same $n requests served as with whole records (digest $whole)"

# Without --tcp-read: one call per request, no short read, null in JSON.
[ "$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
m = d["modes"][0]
print(m["calls"], m["short_reads"], d["config"]["tcp_read"])' "$OUT" 2>/dev/null)" = "$((5 * n)) $((4 * n)) 65536" ] &&
	run --alloc=array --threads=1 --requests=$n --file-size=2m --json &&
	check "m['calls'] == $n and m['short_reads'] == 0 and
	       c['tcp_read'] is None"
ok $? "JSON: tcp_read 65536 and the short reads; without it null, one call per request"

# A READ's call is one small record: never short at 1k.
run --alloc=list --threads=1 --requests=$n --mix=read:1,write:0 \
	--file-size=2m --tcp-read=1k --json
[ "$status" -eq 0 ] && check "m['calls'] == $n and m['short_reads'] == 0"
ok $? "READs only, --tcp-read=1k: no short read, one call per request"

# Pieces of an odd size on two threads, both kinds of request, the reply
# pages freed inline: every request is decoded from its pages (rpcsim
# exits 1 when one is not) and every page comes back (exit 1 otherwise).
run --alloc=all --threads=2 --requests=300 --file-size=2m \
	--tcp-read=5000 --completion=inline --warmup=5
[ "$status" -eq 0 ] && [ "$(summary requests)" = 300 ] &&
	[ "$(summary calls)" -gt 300 ]
ok $? "--tcp-read=5000, 2 threads, inline, every mode: 300 requests served, every page back ($(summary calls) calls)" ||
	diag "exit $status: $(head -c 1000 "$ERR")"

# The text says it: the workload line and the short reads.
grep -q '^  workload: .*; 5000 B per socket read$' "$OUT" &&
	grep -q '^  refill: .* WRITE; [0-9,]* short reads) in ' "$OUT"
ok $? "the text names the read size and counts the short reads" ||
	diag "$(grep -E 'workload|refill' "$OUT")"

# Each run's line counts requests per second, not calls (5 a request
# here): two runs of n requests each, so the summary's rate, all requests
# over both runs' time, is the harmonic mean of the two lines' rates.
run --alloc=array --threads=1 --requests=$n --mix=read:0,write:1 \
	--file-size=2m --tcp-read=64k --repeat=2
[ "$status" -eq 0 ] && python3 -c 'import re, sys
text = open(sys.argv[1]).read()
rates = [float(r.replace(",", "")) for r in
	 re.findall(r"^  \[run [12]/2\] .*, ([0-9,]+) requests/s$", text, re.M)]
total = float(re.search(r"^SUMMARY .* requests_per_s=([0-9]+) ", text,
			re.M).group(1))
harmonic = 2 / sum(1 / r for r in rates)
sys.exit(0 if len(rates) == 2 and
	 abs(total - harmonic) <= 1 + 1e-3 * total else 1)' "$OUT"
ok $? "--tcp-read=64k --repeat=2: each run's rate is in requests/s, the summary's their harmonic mean" ||
	diag "exit $status: $(grep -E '\[run|^SUMMARY' "$OUT")"

# Stopped inside records: the pool starves (all but 600 pages kept back),
# calls are given up while a record's pages are set aside; they go back.
for mode in list array; do
	run_env PAGEPOOL_FAULT=buddy-empty=261544 --file-size=1m \
		--alloc=$mode --threads=2 --duration=1 --tcp-read=4k
	[ "$status" -eq 1 ] && grep -q 'the pool starved' "$ERR" &&
		! grep -q 'leak' "$ERR"
	ok $? "--tcp-read=4k, $mode, a starved pool: the run refused, every page back" ||
		diag "exit $status: $(head -c 1000 "$ERR")"
done

# The pool must hold what the threads set aside too.
run --threads=8 --tcp-read=4k --pool-size=75m --requests=1
[ "$status" -eq 2 ] &&
	grep -q 'rq_pages (+ 65 set aside by --tcp-read)' "$ERR"
ok $? "the smallest pool counts 65 set-aside pages a thread" ||
	diag "exit $status: $(cat "$ERR")"

exit_status
