#!/bin/sh
# SPDX-License-Identifier: MIT
#
# rpcsim on a backend plugin that is not trusted (tests/install/bad-plugin.c
# built in the tree, PP_BAD_PLUGIN picks its mistake).  A callback that
# never returns cannot keep rpcsim alive: --stop-grace seconds after the
# deadline or a signal the watchdog names the thread and the callback, and
# rpcsim exits 1 (deadline) or 128 + the signal's number.  The plugin
# says on stdout when it blocks: a signal sent before that would end
# rpcsim the ordinary way.  Every run here is
# bounded by STOP_BOUND: a regression is a failure, not a hang.

# shellcheck source=tests/rpcsim/common.sh
. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/rpcsim/common.sh"

PLUGIN=$top_builddir/tests/rpcsim/.libs/bad-plugin.so
[ -f "$PLUGIN" ] || bail_out "$PLUGIN not built (make check builds it)"

plan_tests 10

small="--backend=plugin:$PLUGIN --threads=1 --file-size=1m --stop-grace=1"

# took_since T0: whole seconds from T0 (date +%s) to now.
took_since()
{
	echo $(( $(date +%s) - $1 ))
}

# 1. The deadline passes while both server threads are stuck in the
#    plugin's fill: one line naming the thread, the callback and the
#    plugin, then exit 1, a second of grace after the deadline.  (One
#    server thread: a second one could be waiting for the pcp lock the
#    first holds around the callback, in no callback itself.)
t0=$(date +%s)
run_bounded PP_BAD_PLUGIN=block $small --alloc=array --duration=0.5
took=$(took_since "$t0")
[ "$status" -eq 1 ] &&
	grep -q "^rpcsim: server thread 1 did not return from the fill callback of backend plugin $PLUGIN within 1 s of the run's deadline; ending rpcsim without checking the pool\$" "$ERR"
ok $? "fill never returns: the watchdog ends rpcsim after the deadline, exit 1 (exit $status after $took s)" ||
	diag "$(head -c 2000 "$ERR")"
# then each watched thread's call stack: the stuck one's in the plugin,
# the main thread's too, nothing else
sed -n '/^rpcsim: where server thread 1 was:$/,/^rpcsim: where /p' "$ERR" |
	grep -q '/bad-plugin\.so(' &&
	grep -q '^rpcsim: where the main thread was:$' "$ERR" &&
	[ "$(grep -c -v -e '^rpcsim: ' -e '(.*)\[0x[0-9a-f]*\]$' "$ERR")" -eq 0 ]
ok $? "  then where each watched thread was, the stuck one in the plugin" ||
	diag "$(head -c 2000 "$ERR")"

# 2. The single-page mode is stuck in alloc; SIGTERM, then the grace.
spawn PP_BAD_PLUGIN=block $small --alloc=single --duration=60
signal_started TERM '^bad-plugin: blocked'
[ "$status" -eq 143 ] &&
	grep -q "^rpcsim: server thread 1 did not return from the alloc callback of backend plugin $PLUGIN within 1 s of SIGTERM" "$ERR"
ok $? "alloc never returns: SIGTERM ends rpcsim after the grace, exit 143 (exit $status after $took s)" ||
	diag "$(head -c 2000 "$ERR")"

# 3. SIGINT too.
spawn PP_BAD_PLUGIN=block $small --alloc=array --duration=60
signal_started INT '^bad-plugin: blocked'
[ "$status" -eq 130 ] && grep -q "within 1 s of SIGINT" "$ERR"
ok $? "SIGINT ends it as well, exit 130 (exit $status after $took s)" ||
	diag "$(head -c 2000 "$ERR")"

# 4. The main thread itself stuck in a fill, the page cache before any
#    run: only a signal can end that, and it does.
spawn PP_BAD_PLUGIN=block-all $small --duration=60
signal_started INT '^bad-plugin: blocked'
[ "$status" -eq 130 ] &&
	grep -q "^rpcsim: the main thread did not return from the fill callback of backend plugin $PLUGIN within 1 s of SIGINT" "$ERR"
ok $? "the main thread stuck in fill: SIGINT ends rpcsim, exit 130 (exit $status after $took s)" ||
	diag "$(head -c 2000 "$ERR")"

# 5. The default grace is documented and used: 5 s.
"$RPCSIM" --help | grep -q -- '--stop-grace=SECONDS' &&
	"$RPCSIM" --help | grep -A4 -- '--stop-grace=SECONDS' | grep -q '(default: 5)'
ok $? "--help gives --stop-grace and its default of 5 s"

# 6. A plugin that behaves: its runs end as usual, exit 0, with the
#    default grace.  1 s, which keeps the stuck cases above quick, can
#    pass on a loaded machine without any plugin being stuck: a CI run
#    saw every thread waiting on another after the deadline, beside
#    test_slurm.sh's daemons starting.
run_bounded --backend=plugin:"$PLUGIN" --threads=1 --file-size=1m --duration=0.5
ran_ok "the same plugin without a mistake: exit 0"

# 7. --stop-grace is checked like any number of seconds.
run $small --stop-grace=0x10 --duration=0.5
[ "$status" -eq 2 ] && grep -q -- '--stop-grace' "$ERR"
ok $? "--stop-grace=0x10: exit 2, named (exit $status)" || diag "$(cat "$ERR")"

# 8. A plugin whose nr_held is wrong (it claims 226 free pages it does not
#    hold) is named, with its claim and the pool's count: not a leak of
#    pages that are all back.
run_env PP_BAD_PLUGIN=lie $small --alloc=array --requests=100
[ "$status" -eq 1 ] &&
	grep -q "^rpcsim: backend plugin $PLUGIN: after Bulk array run 1 its nr_held says it holds 226 free pages, the pool counts 0 (0 taken from the zone and not given back, 0 in use): the plugin's count is wrong" "$ERR"
ok $? "nr_held lies: the plugin is named with its claim and the pool's count, exit 1 (exit $status)" ||
	diag "$(head -c 2000 "$ERR")"
! grep -q 'rpcsim: leak:' "$ERR"
ok $? "  and no leak is reported" || diag "$(head -c 2000 "$ERR")"

exit_status
exit $?
