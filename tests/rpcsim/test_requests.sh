#!/bin/sh
# SPDX-License-Identifier: MIT
#
# --requests=N stops a run after exactly N requests, over any number of
# threads and in every mode: N svc_alloc_arg() calls, N requests served,
# and every thread's share adds up; --alloc=all's table counts every run's.  With --duration as well, whichever
# comes first wins.

# Option lists in variables are split into words on purpose.
# shellcheck disable=SC2086
# shellcheck source=tests/rpcsim/common.sh
. "$top_srcdir/tests/rpcsim/common.sh"

plan_tests 14

for mode in single list array; do
	for threads in 1 3 7; do
		n=$((threads * 97 + 1))
		run --alloc=$mode --threads=$threads --requests=$n \
			--file-size=2m --quiet
		quiet_calls=$(sed -n 's/.* over \([0-9,]*\) calls$/\1/p' "$OUT" |
			      tr -d ,)
		run --alloc=$mode --threads=$threads --requests=$n \
			--file-size=2m
		[ "$status" -eq 0 ] && [ "$(summary calls)" = "$n" ] &&
			[ "$(summary requests)" = "$n" ] &&
			[ "$quiet_calls" = "$n" ] &&
			[ $(($(summary reads) + $(summary writes))) -eq "$n" ]
		ok $? "--alloc=$mode --threads=$threads --requests=$n stops exactly" ||
			diag "exit $status; $(grep SUMMARY "$OUT")"
	done
done

# One request on many threads: one call, the other threads get none.
run --alloc=array --threads=8 --requests=1 --file-size=2m
[ "$status" -eq 0 ] && [ "$(summary calls)" = 1 ] &&
	[ "$(summary pages_per_call)" = "259.00" ]
ok $? "--requests=1 on 8 threads: one call that fills all 259 slots" ||
	diag "$(grep SUMMARY "$OUT")"

# --repeat: N per run.
run --alloc=list --threads=3 --requests=123 --repeat=4 --file-size=2m
[ "$status" -eq 0 ] && [ "$(summary calls)" = 492 ] &&
	[ "$(grep -c '123 calls' "$OUT")" -eq 4 ]
ok $? "--requests=123 --repeat=4: 123 calls in each of 4 runs" ||
	diag "$(cat "$OUT")"

# --alloc=all --repeat=2: the closing table counts every run's calls.
run --alloc=all --threads=2 --requests=100 --repeat=2 --quiet --file-size=2m
[ "$status" -eq 0 ] && [ "$(tail -n 3 "$OUT" | grep -c ' over 200 calls$')" -eq 3 ]
ok $? "--alloc=all --requests=100 --repeat=2: the table's lines count 200 calls" ||
	diag "$(cat "$OUT")"

# Whichever comes first: the request limit long before a minute is up...
start=$(date +%s)
run --alloc=array --threads=2 --requests=500 --duration=60 --file-size=2m
end=$(date +%s)
[ "$status" -eq 0 ] && [ "$(summary calls)" = 500 ] && [ $((end - start)) -lt 30 ]
ok $? "--requests=500 --duration=60: stops at 500 requests"

# ... and the time limit long before a billion requests are served.
start=$(date +%s)
run --alloc=array --threads=2 --requests=1000000000 --duration=0.5 \
	--file-size=2m
end=$(date +%s)
calls=$(summary calls)
[ "$status" -eq 0 ] && [ "${calls:-0}" -gt 0 ] &&
	[ "$calls" -lt 1000000000 ] && [ $((end - start)) -lt 30 ]
ok $? "--requests=1000000000 --duration=0.5: stops on time ($calls calls)"

exit_status
