#!/bin/sh
# SPDX-License-Identifier: MIT
#
# pagebench in smoke mode (a few pages per configuration: the format, not
# the numbers): --help lists every option with its default; one greppable
# line per configuration with every key; the glibc baseline is glibc's own
# aligned_alloc and the jemalloc one is jemalloc's mallocx; the table and
# the ratio lines; --json is one valid document; bad input exits 2 with
# one line naming the option and the value.
#
# The baselines in child programs, DPDK's rte_mempool (pagebench-mempool)
# and tcmalloc (pagebench-tcmalloc), are checked when configure built them
# (config.h says which) and skipped, saying so, otherwise: their header
# lines (which library, the EAL arguments), rows, table rows and ratios,
# JSON, --interleave, that the mempool child leaves nothing in TMPDIR,
# that the children refuse to run by hand, that a child failing at start
# is named with how it ended and that pagebench waits for its children;
# when not built, that naming one is a usage error and the default run
# notes it is left out.  Real runs of 1 ms of the baselines' array loops
# check that every page goes back (a bounded peak memory, a mempool not
# drained).

# Option lists in variables are split into words on purpose.
# shellcheck disable=SC2086
# shellcheck source=tests/pagebench/common.sh
. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/pagebench/common.sh"
tap_tmpdir pagebench-test

options="allocators api bulk variant free profile je-tcache je-batch runs
run-ms pin interleave results"
num='[0-9]+\.[0-9]+'
line_re="^pagebench allocator=[a-z]+ api=(single|list|array) bulk=[0-9]+"
line_re="$line_re( variant=[a-z-]+ free=(release|put))? runs=[0-9]+"
line_re="$line_re pages_per_run=[0-9]+ ns_per_page=$num min_ns=$num"
line_re="$line_re max_ns=$num spread_pct=$num tsc_per_page=($num|n/a)\$"

bad_inputs=$(cat <<'TABLE'
--bulk=0	--bulk=0
--bulk=129	--bulk=129
--bulk=1,,2	--bulk=1,,2
--bulk=4,	--bulk=4,
--bulk=,4	--bulk=,4
--bulk=64,1,64	--bulk=64,1,64: 64 given twice
--api=single,single	--api=single,single: 'single' given twice
--allocators=,buddy	--allocators=,buddy
--variant=,merged	--variant=,merged
--allocators=lifo,glibc --api=list	--api=list: only libpagepool's pools (buddy, jemalloc, a plugin) have the list API, and --allocators names none: nothing to measure
--runs=0	--runs=0
--runs=1001	--runs=1001: expected an integer from 1 to 1000
--runs=x	--runs=x
--api=single,	--api=single,: expected single, list, array, comma-separated, or all
--allocators=lifo,,glibc	--allocators=lifo,,glibc: expected
--allocators=plugin	--allocators=plugin: the plugin allocator needs --backend=plugin:PATH.so
--run-ms=0	--run-ms=0
--variant=v5	--variant=v5
--allocators=hoard	--allocators=hoard
--api=vector	--api=vector
--free=drop	--free=drop
--profile=fat	--profile=fat: expected lean or kernel
--je-tcache=maybe	--je-tcache=maybe
--pin=2	--pin=2
--bogus	--bogus
-xj	unknown option '-x'
-jx	unknown option '-x'
--smoke=1	option '--smoke' takes no value (in '--smoke=1')
--bulk	--bulk
stray	stray
TABLE
)
# ./configure --without-jemalloc: no jemalloc backend and no mallocx
# baseline.  Naming either is a usage error saying so; the checks of their
# lines check that they are left out instead.
if [ "${PP_WITH_JEMALLOC:-yes}" = no ]; then
	no_jemalloc="this build has no jemalloc"
	bad_inputs=$(printf '%s\n%s\n%s\n' "$bad_inputs" \
		"--allocators=jemalloc	--allocators=jemalloc: the jemalloc baseline was not built ($no_jemalloc" \
		"--allocators=lifo,mallocx	--allocators=lifo,mallocx: the mallocx baseline was not built ($no_jemalloc")
else
	no_jemalloc=
fi
nr_options=$(echo $options | wc -w)
nr_bad=$(printf '%s\n' "$bad_inputs" | wc -l)

# The child baselines this build has: NAME:CONFIG_H_MACRO:PROGRAM.
children="mempool:HAVE_DPDK:pagebench-mempool tcmalloc:HAVE_TCMALLOC:pagebench-tcmalloc"
built=
not_built=
for c in $children; do
	name=${c%%:*}
	macro=${c#*:}
	macro=${macro%%:*}
	if grep -q "^#define $macro 1" "$top_builddir/config.h"; then
		built="$built $name"
	else
		not_built="$not_built $name"
	fi
done
nr_built=$(echo $built | wc -w)
nr_not_built=$(echo $not_built | wc -w)
# The per-CPU floor runs where the library has rseq lists and glibc
# registered rseq; --help names it among the baselines not built if not.
percpu=9
"$PAGEBENCH" --help 2>/dev/null | grep -q '^ *not built here:.*percpu' &&
	percpu=0
# Per child built: 5 checks; per child not built: those 5 skipped, and 3.
plan_tests $((2 + nr_options + 12 + 2 * nr_bad + 5 * nr_built + 8 * nr_not_built + 1 + 4 + 1 + 4))

run --help
[ "$status" -eq 0 ] && [ ! -s "$ERR" ]
ok $? "--help exits 0, nothing on stderr"
check_help_defaults "$(cat "$OUT")" $options
run --version
grep -Eq '^pagebench \(pagepool\) [0-9.]+, libpagepool [0-9.]+$' "$OUT"
ok $? "--version names pagebench's and the library's versions"

# Every allocator, API and bulk size: 2 x (1 + 8 + 8) + 4 x (1 + 8) (the
# per-CPU floor's 9 where it runs), and 1 + 8 per child baseline built.  TMPDIR: the mempool child's own files.
mkdir "$tmpdir/tmp"
TMPDIR=$tmpdir/tmp run --smoke
[ "$status" -eq 0 ] && [ ! -s "$ERR" ]
ok $? "--smoke runs every configuration" || diag "exit $status: $(cat "$ERR")"
cp "$OUT" "$tmpdir/full"
nr_lines=$((70 + percpu + 9 * nr_built))
# Without jemalloc: no jemalloc backend (1 + 8 + 8), no mallocx (1 + 8).
[ -z "$no_jemalloc" ] || nr_lines=$((nr_lines - 26))
lines=$(grep -c '^pagebench allocator=' "$OUT")
bad=$(grep '^pagebench allocator=' "$OUT" | grep -Evc "$line_re")
[ "$lines" -eq "$nr_lines" ] && [ "$bad" -eq 0 ]
ok $? "--smoke: $nr_lines lines, one per configuration, every key ($lines, $bad bad)" ||
	diag "$(grep '^pagebench allocator=' "$OUT" | grep -Ev "$line_re" | head -3)"
if [ -n "$no_jemalloc" ]; then
	grep -q "^  glibc baseline: aligned_alloc from .*libc\\.so" "$OUT" &&
		! grep -q "mallocx from" "$OUT" &&
		grep -q "^  jemalloc baseline: not built, left out ($no_jemalloc: ./configure --without-jemalloc)\$" "$OUT" &&
		grep -q "^  mallocx baseline: not built, left out ($no_jemalloc: ./configure --without-jemalloc)\$" "$OUT"
	ok $? "the glibc baseline is libc's aligned_alloc; jemalloc and mallocx left out: $no_jemalloc" ||
		diag "$(grep baseline "$OUT")"
else
	grep -q "^  glibc baseline: aligned_alloc from .*libc\\.so" "$OUT" &&
		grep -q "^  jemalloc baseline: mallocx from .*libjemalloc\\.so" "$OUT"
	ok $? "the glibc baseline is libc's aligned_alloc, the jemalloc one libjemalloc's mallocx" ||
		diag "$(grep baseline "$OUT")"
fi
pcp=$(PAGEPOOL_PCP=lock "$PAGEBENCH" --smoke --allocators=buddy --api=single --bulk=1 | grep '^  buddy pcp lists: ')
pcp_json=$(PAGEPOOL_PCP=lock "$PAGEBENCH" --smoke --json --allocators=buddy --api=single --bulk=1 | grep -c '"pcp_impl": "lock"')
# Twice in the JSON: the run's config and the build record (results.h).
grep -Eq "^  buddy pcp lists: (rseq|lock)" "$OUT" && [ "$pcp" = "  buddy pcp lists: lock" ] && [ "$pcp_json" -eq 2 ]
ok $? "the header and the JSON say which pcp implementation the buddy pools run" ||
	diag "$(grep 'pcp lists' "$OUT"); PAGEPOOL_PCP=lock: '$pcp', json $pcp_json"
# The profile: lean by default, PAGEPOOL_PROFILE's, --profile's over it.
prof_default=$("$PAGEBENCH" --smoke --allocators=buddy --api=single --bulk=1 | grep '^  buddy profile: ')
prof_env=$(PAGEPOOL_PROFILE=kernel "$PAGEBENCH" --smoke --allocators=buddy --api=single --bulk=1 | grep '^  buddy profile: ')
prof_opt=$(PAGEPOOL_PROFILE=kernel "$PAGEBENCH" --smoke --profile=lean --allocators=buddy --api=list --bulk=8 --free=put | grep '^  buddy profile: ')
prof_json=$("$PAGEBENCH" --smoke --json --profile=kernel --allocators=buddy --api=all --bulk=1,8 --free=put | grep -c '"profile": "kernel"')
# CONFIG_DEBUG_LIST's checks: a line of the kernel profile's header.
dl_on=$(PAGEPOOL_PROFILE=kernel "$PAGEBENCH" --smoke --allocators=buddy --api=single --bulk=1 | grep -c "^  buddy list checks: on (CONFIG_DEBUG_LIST's")
dl_off=$(PAGEPOOL_DEBUG_LIST=0 "$PAGEBENCH" --smoke --profile=kernel --allocators=buddy --api=single --bulk=1 | grep -c '^  buddy list checks: off')
dl_lean=$("$PAGEBENCH" --smoke --allocators=buddy --api=single --bulk=1 | grep -c 'list checks')
[ "$dl_on" -eq 1 ] && [ "$dl_off" -eq 1 ] && [ "$dl_lean" -eq 0 ] &&
[ "$prof_default" = "  buddy profile: lean" ] &&
	[ "$prof_env" = "  buddy profile: kernel" ] &&
	[ "$prof_opt" = "  buddy profile: lean" ] && [ "$prof_json" -eq 1 ]
ok $? "the header and the JSON say which profile the buddy pools run: lean, PAGEPOOL_PROFILE's, --profile's" ||
	diag "default '$prof_default', env '$prof_env', option '$prof_opt', json $prof_json; list checks $dl_on $dl_off $dl_lean"
# What the header reports, pagebench reads itself, as rpcsim does: a
# value it cannot read is a usage error before anything runs; --profile
# over a bad PAGEPOOL_PROFILE wins, as over a good one.  (The main run's
# output is kept for the checks after.)
cp "$OUT" "$OUT.main" && cp "$ERR" "$ERR.main" || exit 1
bad_env=
for v in PAGEPOOL_PCP=bogus PAGEPOOL_PROFILE=bogus PAGEPOOL_DEBUG=yes \
	PAGEPOOL_DEBUG_LIST=2; do
	run_cmd 120 env "$v" "$PAGEBENCH" --smoke --allocators=buddy --api=single --bulk=1
	case $v in
	PAGEPOOL_PCP=*) want="pagebench: $v: expected auto, rseq or lock" ;;
	PAGEPOOL_PROFILE=*) want="pagebench: $v: expected lean or kernel" ;;
	PAGEPOOL_DEBUG=*) want="pagebench: $v: expected 0 (debug checks off) or 1 (on)" ;;
	*) want="pagebench: $v: expected 0 (list checks off) or 1 (on)" ;;
	esac
	{ [ "$status" -eq 2 ] && [ ! -s "$OUT" ] && [ "$(cat "$ERR")" = "$want" ]; } ||
		bad_env="$bad_env $v (exit $status: $(cat "$ERR"))"
done
run_cmd 120 env PAGEPOOL_PROFILE=bogus "$PAGEBENCH" --smoke --profile=kernel --allocators=buddy --api=single --bulk=1
[ -z "$bad_env" ] && [ "$status" -eq 0 ] && grep -q '^  buddy profile: kernel$' "$OUT"
ok $? "PAGEPOOL_PCP, PAGEPOOL_PROFILE, PAGEPOOL_DEBUG or PAGEPOOL_DEBUG_LIST it cannot read: exit 2, one line; --profile over a bad PAGEPOOL_PROFILE runs" ||
	diag "$bad_env; --profile=kernel: exit $status"
mv "$OUT.main" "$OUT" && mv "$ERR.main" "$ERR" || exit 1
if [ -n "$no_jemalloc" ]; then
	# No mallocx ratios; the single-page line has the children's, if any.
	grep -Eq "^buddy +array( +$num){8}\$" "$OUT" &&
		grep -Eq "^lifo +array( +$num){8}\$" "$OUT" &&
		grep -Eq "^bulk 64: buddy array / lifo floor = $num""x, glibc / buddy array = $num""x(, [a-z]+ / buddy array = $num""x)*\$" "$OUT" &&
		! grep -Eq "^(bulk 64|single page): .*mallocx" "$OUT" &&
		! grep -Eq "^(jemalloc|mallocx) " "$OUT"
else
	grep -Eq "^buddy +array( +$num){8}\$" "$OUT" &&
		grep -Eq "^lifo +array( +$num){8}\$" "$OUT" &&
		grep -Eq "^bulk 64: buddy array / lifo floor = $num""x, glibc / buddy array = $num""x, mallocx / buddy array = $num""x(, [a-z]+ / buddy array = $num""x)*\$" "$OUT" &&
		grep -Eq "^single page: mallocx\\+sdallocx / buddy = $num""x(, [a-z]+ / buddy = $num""x)*\$" "$OUT"
fi
ok $? "the table and the ratio lines the performance target reads" ||
	diag "$(tail -n 20 "$OUT")"

if [ -n "$no_jemalloc" ]; then
	backends=buddy nr_backends=1
else
	backends=buddy,jemalloc nr_backends=2
fi
run --smoke --allocators=$backends --api=array --bulk=4 --variant=all --free=put
[ "$status" -eq 0 ] &&
	[ "$(grep -c '^pagebench allocator=.* api=array bulk=4 variant=.* free=put ' "$OUT")" -eq $((5 * nr_backends)) ]
ok $? "--variant=all --free=put: every variant on every backend ($backends)" ||
	diag "exit $status: $(grep '^pagebench' "$OUT")"
for v in merged stop-at-first-populated batched-stats no-single-fallback pure-output; do
	grep -q "variant=$v " "$OUT" || { false; break; }
done
ok $? "--variant=all: each variant named on its line"

run --smoke --allocators=lifo,glibc --api=single --bulk=2 --je-tcache=off --je-batch=off --pin=off
[ "$status" -eq 0 ] && [ "$(grep -c '^pagebench allocator=' "$OUT")" -eq 2 ]
ok $? "--allocators and --api select the rows" || diag "$(cat "$OUT" "$ERR")"
# --pin, on by default: the header says so, and pagebench runs on one
# CPU, as the children it starts do (the mempool child's EAL is given
# that one); --pin=off (the run above): not said.
head -n 1 "$tmpdir/full" | grep -q ', pinned to one$' &&
	! head -n 1 "$OUT" | grep -q 'pinned' &&
	{ ! grep -q '^  mempool baseline: ' "$tmpdir/full" ||
		grep -Eq '^    EAL .* --lcores=0@\([0-9]+\) ' "$tmpdir/full"; }
ok $? "--pin: on by default, said in the header, one CPU for the children too; --pin=off: not said" ||
	diag "$(head -n 1 "$tmpdir/full"; grep 'EAL' "$tmpdir/full"; head -n 1 "$OUT")"

# The core's store-to-load forwarding in the header: measured on x86-64
# for a real run (cycles per load-add-store round trip, the core clock
# beside it), never with --smoke (the run above), nowhere else.  Its
# bounds only catch a unit gone wrong: the figures are timings, and with
# every chain's best of five preempted on a busy machine the cycles have
# come out below the one a quiet core gives.
grep -q 'store-to-load' "$OUT" && smoke_fwd=1 || smoke_fwd=
run --allocators=lifo --api=single --runs=1 --run-ms=1 --pin=off
fwd=$(sed -n 's/^  store-to-load forwarding: \([0-9.]*\) core cycles per load-add-store round trip through one address (core \([0-9.]*\) GHz)$/\1 \2/p' "$OUT")
if [ "$(uname -m)" = x86_64 ]; then
	[ "$status" -eq 0 ] && [ -z "$smoke_fwd" ] && [ -n "$fwd" ] &&
		echo "$fwd" | awk '{ exit !($1 > 0 && $1 < 1000 && $2 > 0.01 && $2 < 100) }'
else
	[ "$status" -eq 0 ] && [ -z "$smoke_fwd" ] && [ -z "$fwd" ]
fi
ok $? "the header's store-to-load forwarding: cycles and core clock, not with --smoke" ||
	diag "exit $status, '$fwd', smoke '$smoke_fwd': $(head -n 4 "$OUT")"

if have_python; then
	run --smoke --json
	python3 - "$OUT" "$nr_lines" "${no_jemalloc:+no}" <<'PY'
import json, sys

def no_constants(name):
    raise ValueError("non-JSON number " + name)

doc = json.load(open(sys.argv[1]), parse_constant=no_constants)
assert doc["program"] == "pagebench"
assert doc["machine"]["cpu"]
assert "libc" in doc["config"]["glibc_from"]
if sys.argv[3] == "no":
    # --without-jemalloc: nothing to say about jemalloc, said as null.
    assert doc["config"]["mallocx_from"] is None, doc["config"]
    assert doc["config"]["jemalloc_tcache_slots"] is None, doc["config"]
else:
    assert "jemalloc" in doc["config"]["mallocx_from"], doc["config"]
    assert doc["config"]["jemalloc_tcache_slots"] >= 0, doc["config"]
res = doc["results"]
assert len(res) == int(sys.argv[2]), (len(res), sys.argv[2])
for r in res:
    assert r["min_ns"] <= r["ns_per_page"] <= r["max_ns"], r
    assert len(r["runs_ns"]) == doc["config"]["runs"], r
    assert (r["variant"] is None) == (r["allocator"] not in
                                      ("buddy", "jemalloc") or
                                      r["api"] == "single"), r
PY
	ok $? "--json: one valid document, $nr_lines results with their runs"
else
	skip 1 "python3 not found"
fi

check_bad_inputs pagebench "$bad_inputs"

# --- the child baselines ----------------------------------------------------
# Their header lines in the full smoke run: where each comes from.
header_re_mempool='^  mempool baseline: DPDK [0-9.]+ rte_mempool_get/put\[_bulk\] from .*librte_mempool\.so.*, cache 512 on lcore 0, ops [a-z_]+ \(child .*/pagebench-mempool\)$'
header_re_tcmalloc='^  tcmalloc baseline: gperftools [0-9.]+ aligned_alloc\(4096, 4096\) \+ free\(\) from .*libtcmalloc[a-z_]*\.so.* \(child .*/pagebench-tcmalloc\)$'

for name in $built; do
	eval "header_re=\$header_re_$name"
	grep -Eq "$header_re" "$tmpdir/full"
	ok $? "$name: the header names the library it runs and its child program" ||
		diag "$(grep "baseline" "$tmpdir/full")"
	[ "$(grep -c "^pagebench allocator=$name api=single bulk=1 " "$tmpdir/full")" -eq 1 ] &&
		[ "$(grep -c "^pagebench allocator=$name api=array " "$tmpdir/full")" -eq 8 ] &&
		[ "$(grep -c "^pagebench allocator=$name api=list " "$tmpdir/full")" -eq 0 ] &&
		grep -Eq "^$name +single +$num( +-){7}\$" "$tmpdir/full" &&
		grep -Eq "^$name +array( +$num){8}\$" "$tmpdir/full" &&
		grep -Eq "^bulk 64: .*, $name / buddy array = $num""x" "$tmpdir/full" &&
		grep -Eq "^single page: .*$name / buddy = $num""x" "$tmpdir/full"
	ok $? "$name: single and array lines, its table rows, its ratios" ||
		diag "$(grep -E "$name|^bulk 64|^single page" "$tmpdir/full")"

	run --smoke --allocators="$name,lifo" --api=single,array --bulk=4,64 --interleave --pin=off
	[ "$status" -eq 0 ] && [ ! -s "$ERR" ] &&
		[ "$(grep -c "^pagebench allocator=$name " "$OUT")" -eq 3 ] &&
		[ "$(grep -c '^pagebench allocator=' "$OUT")" -eq 6 ] &&
		grep -q "per configuration, interleaved" "$OUT"
	ok $? "$name: --allocators=$name,lifo --interleave --pin=off selects its rows" ||
		diag "exit $status: $(cat "$ERR" "$OUT")"

	if have_python; then
		run --smoke --allocators="$name" --bulk=64 --json
		python3 - "$OUT" "$name" <<'PY'
import json, sys

doc = json.load(open(sys.argv[1]))
name = sys.argv[2]
child = doc["config"]["children"][name]
assert child["built"] is True and child["ran"] is True, child
assert child["path"].endswith("/pagebench-" + name), child
assert child["version"] and child["from"], child
if name == "mempool":
    args = child["eal_args"].split()
    for a in ("--no-huge", "--no-pci", "--no-shconf", "--no-telemetry",
              "--iova-mode=va", "--log-level=error"):
        assert a in args, (a, args)
    assert any(a.startswith("--file-prefix=pagebench-") for a in args), args
    assert child["cache_size"] == 512 and child["elt_size"] == 4096, child
rows = [(r["allocator"], r["api"], r["bulk"]) for r in doc["results"]]
assert rows == [(name, "single", 1), (name, "array", 64)], rows
PY
		ok $? "$name: --json says what the child ran and gives its rows"
	else
		skip 1 "python3 not found"
	fi

	program=$top_builddir/pagebench/pagebench-$name
	timeout 60 "$program" </dev/null >"$OUT" 2>"$ERR"
	status=$?
	[ "$status" -eq 2 ] && [ ! -s "$OUT" ] && [ "$(wc -l <"$ERR")" -eq 1 ] &&
		grep -q "^pagebench-$name: .*pagebench(1)" "$ERR"
	ok $? "$name: pagebench-$name refuses to run by hand (exit 2, one line)" ||
		diag "exit $status: $(cat "$ERR")"
done

for name in $not_built; do
	skip 5 "the $name baseline is not built here (see configure's summary)"
	grep -q "^  $name baseline: not built, left out (.*)\$" "$tmpdir/full"
	ok $? "$name not built: the default run says it is left out, and why" ||
		diag "$(grep baseline "$tmpdir/full")"
	run --smoke --allocators="buddy,$name"
	[ "$status" -eq 2 ] && [ ! -s "$OUT" ] && [ "$(wc -l <"$ERR")" -eq 1 ] &&
		grep -q "^pagebench: --allocators=buddy,$name: the $name baseline was not built (.*); expected .*, or all\$" "$ERR"
	ok $? "$name not built: --allocators=buddy,$name is a usage error naming it (exit 2)" ||
		diag "exit $status: $(cat "$ERR")"
	! grep -Eq "^(pagebench allocator=)?$name " "$tmpdir/full"
	ok $? "$name not built: no lines, no table rows"
done

# The two floors with the contract: their rows; the per-CPU one wherever
# the thread runs (--pin=off: a list per CPU, a stash past them).
floors=contract
[ "$percpu" -eq 0 ] || floors=contract,percpu
run --smoke --allocators=$floors --api=single,array --bulk=1,64 --pin=off --interleave
[ "$status" -eq 0 ] && [ ! -s "$ERR" ] &&
	[ "$(grep -Ec "^pagebench allocator=(contract|percpu) api=(single bulk=1|array bulk=(1|64)) " "$OUT")" -eq $((percpu ? 6 : 3)) ] &&
	grep -Eq "^contract +array +$num +$num\$" "$OUT"
ok $? "--allocators=$floors: the floors' rows, single and array" ||
	diag "exit $status: $(cat "$ERR" "$OUT")"
if [ "$percpu" -eq 9 ]; then
	run --smoke --allocators=percpu --bulk=1,2,4,8,16,32,64,128 --pin=off
	[ "$status" -eq 0 ] && [ ! -s "$ERR" ] &&
		[ "$(grep -c "^pagebench allocator=percpu " "$OUT")" -eq 9 ] &&
		grep -Eq "^percpu +array( +$num){8}\$" "$OUT"
	ok $? "--allocators=percpu: single and every bulk size, unpinned" ||
		diag "exit $status: $(cat "$ERR" "$OUT")"
else
	skip 1 "the per-CPU floor does not run here"
fi
# Without rseq (glibc's tunable off) the per-CPU floor cannot run: named,
# a usage error saying why; by default, left out, with a note.
GLIBC_TUNABLES=glibc.pthread.rseq=0 run --smoke --allocators=percpu
[ "$status" -eq 2 ] && [ ! -s "$OUT" ] && [ "$(wc -l <"$ERR")" -eq 1 ] &&
	grep -q "^pagebench: --allocators=percpu: the percpu baseline was not built (.*rseq.*); expected .*contract, comma-separated, or all\$" "$ERR"
ok $? "without rseq: --allocators=percpu is a usage error saying why (exit 2)" ||
	diag "exit $status: $(cat "$ERR")"
GLIBC_TUNABLES=glibc.pthread.rseq=0 run --smoke --api=single --bulk=1
[ "$status" -eq 0 ] &&
	grep -q "^  percpu baseline: not built, left out (.*rseq.*)\$" "$OUT" &&
	! grep -q "^pagebench allocator=percpu " "$OUT" &&
	grep -q "^pagebench allocator=contract api=single " "$OUT"
ok $? "without rseq: the default run leaves the per-CPU floor out, saying why" ||
	diag "exit $status: $(cat "$ERR" "$OUT")"

# A pool that cannot give the pages asked for fails the run (exit 1),
# naming the call, rather than measuring fewer pages: none at all for one
# page, 16 of a bulk of 64 (PAGEPOOL_FAULT=buddy-empty: the buddy
# allocator says it is empty once that many pages are left).
starved=
for f in single:65536:'pp_alloc_page failed' \
	array:65520:'pp_alloc_pages_bulk_array: [1-9][0-9]* of 64' \
	list:65520:'pp_alloc_pages_bulk_list: [1-9][0-9]* of 64'; do
	api=${f%%:*} rest=${f#*:}
	PAGEPOOL_FAULT=buddy-empty=${rest%%:*} run --smoke --pin=off \
		--allocators=buddy --api="$api" --bulk=64
	{ [ "$status" -eq 1 ] && ! grep -q '^pagebench allocator=' "$OUT" &&
		[ "$(wc -l <"$ERR")" -eq 1 ] && grep -qx "pagebench: ${rest#*:}" "$ERR"; } ||
		starved="$starved $api: exit $status, $(cat "$ERR");"
done
[ -z "$starved" ]
ok $? "a starved pool: exit 1, no figure, one line naming the call that came short (single, array, list)" ||
	diag "$starved"

# A child baseline that fails as it starts: its own message first, then
# pagebench's, naming how it ended; exit 1 (pagebench(1), EXIT STATUS).
# The tcmalloc child refuses an aligned_alloc() that is not tcmalloc's,
# as with jemalloc's preloaded.
je=$(sed -n 's/^  jemalloc baseline: mallocx from \([^,]*\), .*/\1/p' "$tmpdir/full")
case " $built " in
*" tcmalloc "*) have_tcmalloc=yes ;;
*) have_tcmalloc= ;;
esac
if [ -z "$have_tcmalloc" ] || [ -z "$je" ]; then
	skip 1 "needs the tcmalloc baseline and jemalloc"
else
	LD_PRELOAD=$je run --smoke --pin=off --allocators=tcmalloc --api=single
	[ "$status" -eq 1 ] && [ ! -s "$OUT" ] && [ "$(wc -l <"$ERR")" -eq 2 ] &&
		head -n 1 "$ERR" | grep -q "^pagebench-tcmalloc: aligned_alloc comes from .*jemalloc.*, not from libtcmalloc" &&
		tail -n 1 "$ERR" | grep -q "^pagebench: the tcmalloc baseline: .*/pagebench-tcmalloc exited with status 1\$"
	ok $? "a child that fails at start: its message, then pagebench's saying it exited with status 1; exit 1" ||
		diag "exit $status: $(cat "$ERR")"
fi

# pagebench waits for its children: when it has exited, the mempool
# child (its pid is in its EAL file prefix) has too, its folder removed.
case " $built " in
*" mempool "*)
	TMPDIR=$tmpdir/tmp run --smoke --pin=off --allocators=mempool --api=single
	child=$(sed -n 's/.*--file-prefix=pagebench-\([0-9]*\) .*/\1/p' "$OUT")
	[ "$status" -eq 0 ] && [ -n "$child" ] && ! kill -0 "$child" 2>/dev/null &&
		[ -z "$(ls -A "$tmpdir/tmp")" ]
	ok $? "pagebench has reaped the mempool child when it exits, the child's folder removed" ||
		diag "exit $status, child '$child': $(ls -A "$tmpdir/tmp")"
	;;
*)
	skip 1 "the mempool baseline is not built here" ;;
esac

# Every page back: real runs (not smoke) of the baselines' array API at
# bulk 2, where a page kept per round would be half of them: the two
# passes of 16384 pages that warm up and size a configuration alone would
# hold 64 MiB.  The largest process's peak resident set (pagebench or its
# tcmalloc child) stays below 40 MiB (13 MiB seen); the mempool child,
# whose pool has 4095 objects, would run out of them (exit 1).
heap=glibc
[ -n "$no_jemalloc" ] || heap="$heap,mallocx"
[ -z "$have_tcmalloc" ] || heap="$heap,tcmalloc"
case " $built " in
*" mempool "*) pool=mempool ;;
*) pool= ;;
esac
if have_python; then
	TMPDIR=$tmpdir/tmp python3 - "$PAGEBENCH" "$heap" "$pool" >"$tmpdir/rss" 2>&1 <<'PY'
import resource, subprocess, sys

real = ["--pin=off", "--api=array", "--bulk=2", "--runs=1", "--run-ms=1"]
r = subprocess.run([sys.argv[1], "--allocators=" + sys.argv[2]] + real,
                   capture_output=True, timeout=120)
mib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
print("%s: exit %d, peak %d MiB; %s" % (sys.argv[2], r.returncode, mib,
                                        r.stderr.decode()[:300]))
ok = r.returncode == 0 and mib < 40
if sys.argv[3]:
    r = subprocess.run([sys.argv[1], "--allocators=" + sys.argv[3]] + real,
                       capture_output=True, timeout=120)
    print("%s: exit %d; %s" % (sys.argv[3], r.returncode, r.stderr.decode()[:300]))
    ok = ok and r.returncode == 0
sys.exit(0 if ok else 1)
PY
	ok $? "real runs of $heap${pool:+,$pool} at bulk 2 give every page back: under 40 MiB, the mempool not drained" ||
		diag "$(cat "$tmpdir/rss")"
else
	skip 1 "python3 not found"
fi

# The mempool child's EAL runtime folder went to TMPDIR and was removed.
[ -z "$(ls -A "$tmpdir/tmp")" ]
ok $? "nothing left in TMPDIR after the run" || diag "$(ls -A "$tmpdir/tmp")"

exit_status
