#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The request stream is a function of the seed: the same seed gives the
# same requests (digest, READ/WRITE counts) whatever the number of threads
# or the allocation mode, a different seed different ones, and --mix sets
# the proportions.

# Option lists in variables are split into words on purpose.
# shellcheck disable=SC2086
# shellcheck source=tests/rpcsim/common.sh
. "$top_srcdir/tests/rpcsim/common.sh"

common="--requests=2000 --file-size=4m"

plan_tests 8

# stream ARGS...: "reads writes digest" of a run.
stream()
{
	run "$@"
	[ "$status" -eq 0 ] || diag "exit $status: $(cat "$ERR")"
	echo "$(summary reads) $(summary writes) $(summary digest)"
}

a=$(stream --seed=42 --threads=1 $common)
b=$(stream --seed=42 --threads=1 $common)
[ -n "${a##* }" ] && [ "$a" = "$b" ]
ok $? "same seed, same requests ($a)" || diag "$a / $b"

c=$(stream --seed=42 --threads=5 $common)
[ "$a" = "$c" ]
ok $? "same seed on 5 threads, same requests" || diag "$a / $c"

d=$(stream --seed=42 --threads=3 --alloc=single --completion=inline $common)
[ "$a" = "$d" ]
ok $? "same seed in another mode, same requests" || diag "$a / $d"

run --seed=42 --threads=2 --alloc=all --repeat=2 $common
# Digests and counts add up over runs: each mode twice stream a.
[ "$status" -eq 0 ] &&
	[ "$(grep -c "^SUMMARY .* reads=$((2 * ${a%% *})) " "$OUT")" -eq 3 ] &&
	[ "$(sed -n 's/^SUMMARY .* digest=//p' "$OUT" | sort -u | wc -l)" -eq 1 ]
ok $? "--alloc=all --repeat=2: every mode and run gets the same stream" ||
	diag "$(grep SUMMARY "$OUT")"

e=$(stream --seed=43 --threads=1 $common)
[ "${a##* }" != "${e##* }" ]
ok $? "another seed, other requests" || diag "$a / $e"

f=$(stream --seed=42 --threads=2 --mix=read:1,write:0 $common)
[ "$f" = "2000 0 ${f##* }" ]
ok $? "--mix=read:1,write:0 serves only READs ($f)"

g=$(stream --seed=42 --threads=2 --mix=write:1 $common)
[ "$g" = "0 2000 ${g##* }" ]
ok $? "--mix=write:1 serves only WRITEs ($g)"

# 3:1 over 2000 requests: 1500 READs expected, sd ~19; allow 6 sd.
h=$(stream --seed=42 --threads=2 --mix=read:3,write:1 $common)
reads=${h%% *}
[ "${reads:-0}" -ge 1385 ] && [ "${reads:-0}" -le 1615 ]
ok $? "--mix=read:3,write:1 serves about 3/4 READs ($reads of 2000)"

exit_status
