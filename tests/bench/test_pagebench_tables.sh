#!/bin/sh
# SPDX-License-Identifier: MIT
#
# bench/pagebench-baselines.sh and bench/plugin-cost.sh, the pagebench
# table scripts without a test of their own, with a stand-in pagebench
# (nothing timed): a pagebench built without mempool and tcmalloc (its
# --help says "not built here") runs the baselines' defaults without
# them, said in one line on stderr, the table made of the rest; asked
# for by name, a missing one stays pagebench's usage error (exit 2);
# --help after --builddir or a pagebench option is the script's own
# (exit 0, pagebench not run); an empty --builddir= exits 2.

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
# shellcheck source=tests/utils/tap.sh
. "$top_srcdir/tests/utils/tap.sh"
# shellcheck source=tests/bench/common.sh
. "$top_srcdir/tests/bench/common.sh"

bench_script pagebench-baselines.sh

plan_tests 8

# A pagebench without mempool and tcmalloc: --help says so; a run notes
# its arguments and prints a line per allocator asked (the last
# --allocators), or refuses a missing one as pagebench does.
F=$tmpdir/fake
mkdir -p "$F/pagebench"
cat >"$F/pagebench/pagebench" <<'SH'
#!/bin/sh
for a do
	case $a in
	--help) printf 'Usage: pagebench [OPTION]...\n                          not built here: mempool, tcmalloc\n'; exit 0 ;;
	--allocators=*) list=${a#*=} ;;
	esac
done
echo "$*" >>"$0.args"
for a in $(echo "$list" | tr , ' '); do
	case $a in mempool|tcmalloc)
		echo "pagebench: --allocators=$list: $a was not built (./configure --with-...)" >&2
		exit 2 ;;
	esac
done
printf 'pagebench stand-in\n\n'
for a in $(echo "$list" | tr , ' '); do
	echo "pagebench allocator=$a api=single bulk=1 runs=1 pages_per_run=9 ns_per_page=2.000 min_ns=2 max_ns=2 spread_pct=0 tsc_per_page=5"
done
SH
chmod +x "$F/pagebench/pagebench"

run --builddir="$F"
[ "$status" -eq 0 ] &&
	[ "$(cat "$ERR")" = "pagebench-baselines.sh: not built in this pagebench, left out of the defaults: mempool,tcmalloc" ] &&
	grep -q '^--allocators=buddy,lifo,contract,percpu --api=single,array ' "$F/pagebench/pagebench.args"
ok $? "no mempool or tcmalloc built: left out of the defaults, said in one line" ||
	diag "exit $status: $(cat "$ERR" "$F/pagebench/pagebench.args")"
[ "$(grep -c '^| \(buddy\|lifo\|contract\|percpu\) | single | 1 | 2\.00 |' "$OUT")" -eq 4 ]
ok $? "  the table of the allocators that ran" || diag "$(cat "$OUT")"

run --builddir="$F" --allocators=buddy,mempool
[ "$status" -eq 2 ] && grep -q '^pagebench: --allocators=buddy,mempool: mempool was not built' "$ERR"
ok $? "mempool asked for by name: pagebench's usage error, exit 2" ||
	diag "exit $status: $(cat "$ERR")"

rm -f "$F/pagebench/pagebench.args"
run --builddir="$F" --runs=3 --help
[ "$status" -eq 0 ] && grep -q '^Usage: pagebench-baselines.sh \[--builddir=DIR\]' "$OUT" &&
	[ ! -f "$F/pagebench/pagebench.args" ]
ok $? "--help after --builddir and a pagebench option: the usage, nothing run" ||
	diag "exit $status: $(cat "$OUT" "$ERR")"
run --builddir=
[ "$status" -eq 2 ] && [ "$(wc -l <"$ERR")" -eq 1 ] && grep -q -- "--builddir: ''" "$ERR"
ok $? "an empty --builddir=: exit 2, one line" || diag "exit $status: $(cat "$ERR")"

# SIGTERM while pagebench runs (pb_main, as every table script): the
# script ends (143), and so do the pagebench it started and its
# temporary file.
mkdir -p "$tmpdir/slow/pagebench"
cat >"$tmpdir/slow/pagebench/pagebench" <<EOF
#!/bin/sh
case \$* in *--help*) exec "$F/pagebench/pagebench" --help ;; esac
echo \$\$ >"$tmpdir/slow/pid"
exec sleep 30
EOF
chmod +x "$tmpdir/slow/pagebench/pagebench"
sigterm_run "$tmpdir/slow/pid" --builddir="$tmpdir/slow"
sigterm_ok "SIGTERM mid-run: exit 143, its pagebench ended, no temporary file left" pagebench

SCRIPT=$top_srcdir/bench/plugin-cost.sh
run --builddir="$F" --runs=3 --help
[ "$status" -eq 0 ] && grep -q '^Usage: plugin-cost.sh \[--builddir=DIR\]' "$OUT" &&
	[ ! -f "$F/pagebench/pagebench.args" ]
ok $? "plugin-cost.sh: --help after --builddir and a pagebench option: the usage, nothing run" ||
	diag "exit $status: $(cat "$OUT" "$ERR")"
run --runs=3 --builddir="$tmpdir/none"
[ "$status" -eq 1 ] && grep -q "^plugin-cost.sh: $tmpdir/none/pagebench/pagebench or .* not built" "$ERR"
ok $? "plugin-cost.sh: --builddir after a pagebench option is still its own" ||
	diag "exit $status: $(cat "$ERR")"

exit_status
