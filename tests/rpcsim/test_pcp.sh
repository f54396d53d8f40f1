#!/bin/sh
# SPDX-License-Identifier: MIT
#
# rpcsim on libpagepool's pcp implementations (PAGEPOOL_PCP): rseq asked
# for where glibc does not register rseq (GLIBC_TUNABLES=
# glibc.pthread.rseq=0) serves every request of every mode on the lock,
# with the library's one-line notice once for the three pools and no
# restart counted, and a sweep of pcp=rseq,lock there says on its rseq
# row, in rpcsim's table and rpcsim-compare's, that the lock lists ran
# and why (config.pcp_unavailable in the point's file), not "rseq" as
# swept; rseq where it is supported serves them quietly; a
# PAGEPOOL_PCP the library cannot read stops rpcsim with exit 1 and the
# library's line naming the variable.  Every run that ends checks that
# every page came back (rpcsim exits 1 otherwise).

# shellcheck source=tests/rpcsim/common.sh
. "$top_srcdir/tests/rpcsim/common.sh"

if ! have_python; then
	echo "1..0 # SKIP python3 missing"
	exit 0
fi
plan_tests 12

# every_mode EXPR: EXPR (python, over m, one mode of $OUT) holds for all.
every_mode()
{
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(not (len(d["modes"]) == 3 and
              all(eval(sys.argv[2]) for m in d["modes"])))' "$OUT" "$1"
}

restarts='sum(v for k, v in m["counters"].items() if k.startswith("pcp_restart_"))'

# PAGEPOOL_PCP=rseq without glibc's rseq: the lock, one notice.
tunables=${GLIBC_TUNABLES:+$GLIBC_TUNABLES:}glibc.pthread.rseq=0
timeout "$RPCSIM_TIMEOUT" env PAGEPOOL_PCP=rseq GLIBC_TUNABLES="$tunables" \
	"$RPCSIM" --alloc=all --requests=2000 --json >"$OUT" 2>"$ERR"
status=$?
ran_ok "PAGEPOOL_PCP=rseq, glibc.pthread.rseq=0, --alloc=all: every request served"
[ "$(wc -l <"$ERR")" -eq 1 ] &&
	grep -q '^pagepool: rseq per-CPU lists unavailable (.*): using the lock implementation$' "$ERR"
ok $? "  the library's notice, one line for three pools" || diag "$(cat "$ERR")"
every_mode "m['calls'] == 2000 and $restarts == 0"
ok $? "  2000 calls per mode, no rseq restart counted"

# A sweep of pcp=rseq,lock without glibc's rseq: both points ran the lock
# lists, and the rseq row says so.
timeout "$RPCSIM_TIMEOUT" env GLIBC_TUNABLES="$tunables" "$RPCSIM" \
	--alloc=array --requests=50 --file-size=1m --pool-size=16m \
	--sweep=pcp=rseq,lock --results="$tmpdir/norseq" >"$OUT" 2>"$ERR"
status=$?
cp "$OUT" "$tmpdir/norseq.out"
row1='^ *1  rseq (ran: lock, rseq unavailable)  '
note='^point 1: pcp=rseq ran the lock lists (rseq unavailable: .*)$'
[ "$status" -eq 0 ] && grep -q "$row1" "$OUT" &&
	grep -q '^ *2  *lock  ' "$OUT" && grep -q "$note" "$OUT" &&
	grep -q '; pcp lists as swept, but where a row says what ran$' "$OUT"
ok $? "sweep pcp=rseq,lock without rseq: the rseq row says the lock lists ran, and why" ||
	diag "exit $status" "$(cat "$OUT" "$ERR")"
python3 -c 'import json, sys
c = json.load(open(sys.argv[1]))["config"]
sys.exit(not (c["pcp_impl"] == "lock" and c["pcp_unavailable"]))' \
	"$tmpdir/norseq/pcp-rseq.json"
ok $? "  its result file records the lock lists and why (config.pcp_unavailable)"
compare_sweep "$tmpdir/norseq"
[ "$status" -eq 0 ] && grep -q "$row1" "$OUT" && grep -q "$note" "$OUT"
ok $? "  rpcsim-compare --sweep says the same" ||
	diag "exit $status" "$(cat "$OUT" "$ERR")"

# PAGEPOOL_PCP=rseq where rseq works.
if why=$("$top_builddir/tests/utils/rseq-supported"); then
	run_env PAGEPOOL_PCP=rseq --alloc=all --requests=2000 --json
	ran_ok "PAGEPOOL_PCP=rseq, --alloc=all: every request served"
	[ ! -s "$ERR" ]
	ok $? "  nothing on stderr" || diag "$(cat "$ERR")"
	every_mode "m['calls'] == 2000"
	ok $? "  2000 calls per mode"
else
	skip 3 "no rseq pcp lists here: $why"
fi

# Bad input: one line naming the variable, its value and what is accepted,
# before anything runs (exit 2, as for a bad option).
run_env PAGEPOOL_PCP=bogus --requests=10
[ "$status" -eq 2 ] && [ "$(cat "$ERR")" = "rpcsim: PAGEPOOL_PCP=bogus: expected auto, rseq or lock" ] && [ ! -s "$OUT" ]
ok $? "PAGEPOOL_PCP=bogus: exit 2, one line naming the variable (exit $status)" ||
	diag "$(cat "$ERR")"
run_env PAGEPOOL_PCP= --requests=10
[ "$status" -eq 2 ] && [ "$(cat "$ERR")" = "rpcsim: PAGEPOOL_PCP=: expected auto, rseq or lock" ] && [ ! -s "$OUT" ]
ok $? "PAGEPOOL_PCP empty: exit 2, one line naming the variable (exit $status)" ||
	diag "$(cat "$ERR")"
# libpagepool's debug switches, 0 or 1: checked by rpcsim too, not left to
# the first pool (exit 1 after the configuration block)
bad=
for v in PAGEPOOL_DEBUG=yes PAGEPOOL_DEBUG_LIST=2 PAGEPOOL_DEBUG_LIST=; do
	case $v in
	PAGEPOOL_DEBUG=*) what="debug checks" ;;
	*) what="list checks" ;;
	esac
	run_env "$v" --requests=10
	[ "$status" -eq 2 ] && [ ! -s "$OUT" ] &&
		[ "$(cat "$ERR")" = "rpcsim: $v: expected 0 ($what off) or 1 (on)" ] ||
		bad="$bad $v (exit $status: $(cat "$ERR"))"
done
[ -z "$bad" ]
ok $? "PAGEPOOL_DEBUG or PAGEPOOL_DEBUG_LIST not 0 or 1: exit 2, one line, nothing run" ||
	diag "$bad"

exit_status
exit $?
