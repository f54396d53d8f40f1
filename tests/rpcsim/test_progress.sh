#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The progress line: once a second on stderr, on a terminal only, or on
# any stderr with --progress (a line each second, no escape codes), with
# the run's ETA: from its deadline (--duration), or from the requests it
# has left at its rate so far (--requests), the sooner, and the pages
# refilled per call so far.  Not with --quiet.
# The waits are bounded; what is checked does not depend on the speed.

# shellcheck source=tests/rpcsim/common.sh
. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/rpcsim/common.sh"

plan_tests 9

line='^rpcsim: Single page run 1/1: [0-9,]+ calls/s, [0-9.]+ pages/call, [0-9]+ s elapsed'

# --duration: 2.5 s, so at least the line of second 1, its ETA 2 s at most;
# READs only, so that pages/call is known (below)
run_bounded --progress --duration=2.5 --threads=1 --alloc=single \
	--mix=read:1,write:0
cp "$ERR" "$tmpdir/duration"
[ "$status" -eq 0 ] && grep -Eq "$line, ETA [0-9]+ s\$" "$tmpdir/duration" &&
	[ "$(grep -cvE "$line, ETA [0-9]+ s\$" "$tmpdir/duration")" -eq 0 ]
ok $? "--progress --duration: a line each second with the ETA, nothing else" ||
	diag "status $status: $(cat "$tmpdir/duration")"
sed -E 's/.*ETA ([0-9]+) s$/\1/' "$tmpdir/duration" |
	awk '$1 > 2 { bad = 1 } END { exit bad }'
ok $? "--progress --duration=2.5: the ETA is the time left, 2 s at most"
# pages/call: the pages refilled so far over the calls, with READs only
# 259 for the first call and 65 (the reply's head and 64 spliced pages)
# for each after it; 0.0 while no call has completed
sed -E 's/.*calls\/s, ([0-9.]+) pages\/call,.*/\1/' "$tmpdir/duration" |
	awk '!($1 == 0 || ($1 >= 65 && $1 <= 259)) { bad = 1 } END { exit bad }'
ok $? "--progress: pages per call over the calls so far (READs only: 65 to 259)" ||
	diag "$(cat "$tmpdir/duration")"
! grep -q "$(printf '\r\033')" "$tmpdir/duration"
ok $? "--progress without a terminal: lines, no carriage return or escape code"
grep -q '^Single page' "$OUT" || grep -q 'Single page' "$OUT"
ok $? "--progress: the report on stdout as without it"

# spawn_until_line ARGS...: rpcsim ARGS in the background until its first
# progress line (60 s at most), then SIGINT; its status in $status.
spawn_until_line()
{
	spawn "$@"
	i=0
	until grep -Eq "$line" "$ERR" || [ $i -gt 600 ] ||
		! kill -0 "$pid" 2>/dev/null; do
		i=$((i + 1))
		sleep 0.1
	done
	kill -INT "$pid" 2>/dev/null
	wait_bounded "$pid" "$STOP_BOUND"
}

# --requests alone: the ETA from the requests left at the rate so far; so
# many requests that the first line comes long before the end (hours),
# then SIGINT ends the run
spawn_until_line --progress --requests=1000000000000 --threads=1 --alloc=single
grep -Eq "$line, ETA [0-9]+h[0-9]{2}m\$" "$ERR" && [ "$status" -eq 130 ]
ok $? "--progress --requests: the ETA from the requests left, in hours" ||
	diag "status $status: $(cat "$ERR")"

# --tcp-read: a WRITE read 4k at a time makes 66 calls, so by the first
# line the calls are past the 20,000 requests long before the requests
# are: the ETA counts requests left (at least 1 s), not calls (0 s)
spawn_until_line --progress --requests=20000 --threads=1 --alloc=single \
	--mix=read:0,write:1 --tcp-read=4k --file-size=2m
first=$(grep -E "$line" "$ERR" | head -n 1)
printf '%s\n' "$first" |
	grep -Eq ', ETA ([0-9]+ s|[0-9]+m[0-9]{2}s|[0-9]+h[0-9]{2}m)$' &&
	! printf '%s\n' "$first" | grep -q ', ETA 0 s$'
ok $? "--progress --tcp-read: the ETA from the requests left, not the calls" ||
	diag "status $status: $(cat "$ERR")"

run_bounded --progress --quiet --duration=1.5 --threads=1 --alloc=single
[ "$status" -eq 0 ] && ! grep -q 'elapsed' "$ERR"
ok $? "--progress --quiet: no progress line" || diag "$(cat "$ERR")"
run_bounded --duration=1.5 --threads=1 --alloc=single
[ "$status" -eq 0 ] && ! grep -q 'elapsed' "$ERR"
ok $? "stderr no terminal, no --progress: no progress line" || diag "$(cat "$ERR")"

exit_status
