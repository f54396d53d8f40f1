#!/bin/sh
# SPDX-License-Identifier: MIT
#
# rpcsim's command line: --help lists every option with its default,
# --version, and bad input: each case exits 2 with one line on stderr that
# names the option and the value, and nothing on stdout; a pool too small
# is refused with the pages it must hold, which add up, and is the
# smallest that runs.

# Option lists in variables are split into words on purpose.
# shellcheck disable=SC2086
# shellcheck source=tests/rpcsim/common.sh
. "$top_srcdir/tests/rpcsim/common.sh"

# option|value-taking: every long option rpcsim has.
options="alloc:1 threads:1 duration:1 requests:1 mix:1 io-size:1
max-payload:1 pool-size:1 file-size:1 pcp-batch:1 pcp-high:1 completion:1
queue-depth:1 seed:1 repeat:1 warmup:1 retry-wait:1 json:0 quiet:0 help:0
version:0"

# ARGS<TAB>TEXT the one line must contain
bad_inputs=$(cat <<'TABLE'
--bogus	--bogus
--bogus=1	--bogus
-x	-x
--alloc=foo	--alloc=foo
--alloc=	--alloc=
--threads=0	--threads=0
--threads=-1	--threads=-1
--threads=abc	--threads=abc
--threads=4097	--threads=4097
--threads= 2	--threads=
--requests=0	--requests=0
--repeat=0	--repeat=0
--duration=0	--duration=0
--duration=-1	--duration=-1
--duration=abc	--duration=abc
--duration=nan	--duration=nan
--duration=0x10	--duration=0x10
--duration=1e3	--duration=1e3
--duration=inf	--duration=inf
--duration=+1	--duration=+1
--duration=1.2.3	--duration=1.2.3
--warmup=0x10	--warmup=0x10
--retry-wait=1e3	--retry-wait=1e3
--requests=+5	--requests=+5
--io-size=0x10k	--io-size=0x10k
--io-size=12q	--io-size=12q
--io-size=0	--io-size=0
--io-size=-5	--io-size=-5
--io-size=2m	--io-size=2m
--max-payload=0	--max-payload=0
--pool-size=99999999999999999999	--pool-size=99999999999999999999
--pool-size=17179869184g	--pool-size=17179869184g
--pool-size=5000	--pool-size=5000
--pool-size=1m	at least
--file-size=64k	--file-size=64k
--file-size=65g	--file-size=65g
--file-size=2g	at least
--tcp-read=512	--tcp-read=512
--tcp-read=65m	--tcp-read=65m
--tcp-read=1x	--tcp-read=1x
--tcp-read=4k --consumer=page_pool	--tcp-read=4k
--mix=read:0,write:0	--mix=read:0,write:0
--mix=read:0	--mix=read:0
--mix=foo:1	--mix=foo:1
--mix=read:1,read:2	--mix=read:1,read:2
--mix=read:-1,write:1	--mix=read:-1,write:1
--mix=read	--mix=read
--completion=foo	--completion=foo
--pcp-batch=0	--pcp-batch=0
--pcp-high=10	--pcp-high=10
--queue-depth=0	--queue-depth=0
--seed=-5	--seed=-5
--seed=18446744073709551616	--seed=18446744073709551616
--warmup=x	--warmup=x
--retry-wait=-1	--retry-wait=-1
--threads	--threads
--json=1	option '--json' takes no value (in '--json=1')
--quie=1	option '--quiet' takes no value (in '--quie=1')
stray	stray
TABLE
)

nr_options=$(echo $options | wc -w)
nr_bad=$(printf '%s\n' "$bad_inputs" | wc -l)
# min_pool_cases: rpcsim's refusal of a pool too small, per layout
# (a 1 MiB page cache keeps the runs short)
min_pool_cases="--threads=2 --file-size=1m
--threads=3 --completion=inline --file-size=1m
--threads=2 --tcp-read=4k --file-size=1m
--consumer=page_pool --threads=2"
plan_tests $((4 + nr_options + 2 * nr_bad + 2 * 4))

run --help
ran_ok "--help exits 0"
help=$(cat "$OUT")
test -z "$(cat "$ERR")"
ok $? "--help writes nothing to stderr"

# Split --help into one entry per option, then check each.
for o in $options; do
	name=${o%:*}
	takes=${o#*:}
	entry=$(help_entry "$help" "$name")
	if [ -z "$entry" ]; then
		fail "--help lists --$name"
	elif [ "$takes" = 1 ] && ! printf '%s' "$entry" | grep -q default; then
		fail "--help lists --$name with its default"
		diag "$entry"
	elif [ "$takes" = 1 ]; then
		pass "--help lists --$name with its default"
	else
		pass "--help lists --$name"
	fi
done

run --version
ran_ok "--version exits 0"
grep -Eq '^rpcsim \(pagepool\) [0-9.]+, libpagepool [0-9.]+, (lttng-ust [0-9.]+|without lttng-ust)$' "$OUT"
ok $? "--version names rpcsim's and the library's versions and the tracing build"

check_bad_inputs rpcsim "$bad_inputs"

# The smallest pool: the refusal names what it must hold, the terms add
# up to the pages it asks for, and that many pages run while one fewer
# are refused.
while read -r args; do
	run --pool-size=4k --requests=1 $args
	pages=
	if ! have_python; then
		skip 2 "python3 missing"
		continue
	fi
	pages=$(python3 - "$ERR" <<'PY'
import re, sys
msg = open(sys.argv[1]).read()
m = re.search(r"too small for (.*); expected at least (\d+)k \((\d+) pages\)",
              msg)
terms, k, n = m.group(1), int(m.group(2)), int(m.group(3))
nfsd = re.fullmatch(r"(\d+) threads x (\d+) rq_pages(?: \(\+ (\d+) set aside "
                    r"by --tcp-read\))? \+ (\d+) queued reply pages \+ (\d+) "
                    r"page-cache pages \+ a (\d+)-page min watermark", terms)
rxq = re.fullmatch(r"(\d+) RX queues x \((\d+) cache \+ (\d+) ring \+ (\d+) "
                   r"packet pages\) \+ (\d+) queued packets x (\d+) pages \+ "
                   r"a (\d+)-page min watermark", terms)
if nfsd:
    t, rq, aside, q, f, w = (int(x or 0) for x in nfsd.groups())
    total = t * (rq + aside) + q + f + w
else:
    t, c, r, p, q, p2, w = (int(x) for x in rxq.groups())
    total = t * (c + r + p) + q * p2 + w
if total == n and k == 4 * n:
    print(n)
PY
)
	[ "$status" -eq 2 ] && [ -n "$pages" ]
	ok $? "$args: a pool too small is refused, its terms adding up to the pages asked for" ||
		diag "exit $status: $(cat "$ERR")"
	[ -n "$pages" ] || pages=2
	run --pool-size=$((pages * 4))k --requests=1 $args
	ok_status=$status
	run --pool-size=$(((pages - 1) * 4))k --requests=1 $args
	[ "$ok_status" -eq 0 ] && [ "$status" -eq 2 ] &&
		grep -q "too small" "$ERR"
	ok $? "$args: $pages pages run, one fewer are refused" ||
		diag "exit $ok_status, then $status: $(cat "$ERR")"
done <<EOF_CASES
$min_pool_cases
EOF_CASES

exit_status
