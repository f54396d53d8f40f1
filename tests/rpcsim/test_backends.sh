#!/bin/sh
# SPDX-License-Identifier: MIT
#
# rpcsim --backend, --bulk-variant and --profile (and the jemalloc
# knobs): --help
# lists them with their defaults; bad values exit 2 with one line naming
# the option and the value; every backend x variant runs the same
# workload, says which it ran in the configuration block, on the SUMMARY
# line and in --json, and gives every page back; the v5 contract makes
# svc_alloc_arg() call the allocator more than once; --je-tcache-slots
# restarts rpcsim under a MALLOC_CONF that gives the caches that size;
# the profile is kernel by default, PAGEPOOL_PROFILE's, --profile's, and
# lean for another backend (where --profile=kernel is a usage error).

# Option lists in variables are split into words on purpose.
# shellcheck disable=SC2086
# shellcheck source=tests/rpcsim/common.sh
. "$top_srcdir/tests/rpcsim/common.sh"

small="--file-size=2m --threads=2 --requests=300"
variants="merged stop-at-first-populated batched-stats no-single-fallback
pure-output"
options="backend bulk-variant profile je-tcache je-tcache-slots je-batch"

# ARGS<TAB>TEXT the one line must contain
bad_inputs=$(cat <<'TABLE'
--backend=foo	--backend=foo
--backend=	--backend=
--backend=Buddy	--backend=Buddy
--bulk-variant=v5	--bulk-variant=v5
--bulk-variant=	--bulk-variant=
--profile=fast	--profile=fast: expected kernel or lean
--profile=	--profile=
--backend=jemalloc --profile=kernel	--profile=kernel: only with --backend=buddy
--je-tcache=off	--je-tcache=off: only with --backend=jemalloc
--je-batch=off	--je-batch=off: only with --backend=jemalloc
--je-tcache-slots=64	--je-tcache-slots=64: only with --backend=jemalloc
--backend=jemalloc --je-tcache=maybe	--je-tcache=maybe
--backend=jemalloc --je-batch=1	--je-batch=1
--backend=jemalloc --je-tcache-slots=33	--je-tcache-slots=33
--backend=jemalloc --je-tcache-slots=0	--je-tcache-slots=0
--backend=jemalloc --je-tcache-slots=65536	--je-tcache-slots=65536
--backend=jemalloc --je-tcache-slots=x	--je-tcache-slots=x
--backend=jemalloc --je-tcache=off --je-tcache-slots=64	--je-tcache-slots=64: only with --je-tcache=on
--backend=jemalloc --pool-size=8m	pages for jemalloc
TABLE
)

# ./configure --without-jemalloc: --backend=jemalloc is a usage error,
# and every check that runs the jemalloc backend is skipped, saying so.
if [ "${PP_WITH_JEMALLOC:-yes}" = no ]; then
	no_jemalloc="libpagepool built without jemalloc (./configure --without-jemalloc)"
	bad_inputs=$(printf '%s\n' "$bad_inputs" | grep -v '^--backend=jemalloc')
	bad_inputs=$(printf '%s\n%s\n' "$bad_inputs" \
		"--backend=jemalloc	--backend=jemalloc: this build has no jemalloc")
else
	no_jemalloc=
fi

nr_options=$(echo $options | wc -w)
nr_bad=$(printf '%s\n' "$bad_inputs" | wc -l)
nr_variants=$(echo $variants | wc -w)
plan_tests $((nr_options + 2 * nr_bad + 2 * 2 * nr_variants + 4 + 3 + 3 + 1))

run --help
check_help_defaults "$(cat "$OUT")" $options

check_bad_inputs rpcsim "$bad_inputs" $small

# Every backend x variant: the same array workload, reported as such.
for backend in buddy jemalloc; do
	if [ "$backend" = jemalloc ] && [ -n "$no_jemalloc" ]; then
		skip $((2 * nr_variants)) "$no_jemalloc"
		continue
	fi
	for v in $variants; do
		run --backend=$backend --bulk-variant=$v --alloc=array $small
		[ "$status" -eq 0 ] && [ ! -s "$ERR" ] &&
			[ "$(summary calls)" = 300 ]
		ok $? "--backend=$backend --bulk-variant=$v runs, nothing leaked" ||
			diag "exit $status: $(head -c 1000 "$ERR")"
		grep -q "^SUMMARY alloc=array backend=$backend bulk_variant=$v " "$OUT" &&
			grep -q "^  bulk API:   $v contract" "$OUT" &&
			grep -q "^  allocator:  $backend" "$OUT"
		ok $? "--backend=$backend --bulk-variant=$v: configuration block and SUMMARY say so" ||
			diag "$(grep -E '^(SUMMARY|  allocator|  bulk API)' "$OUT")"
	done
done

# The v5 contract stops at the populated slot after the holes: a second
# call finds the array full.  The merged one needs a single call.  One
# thread, inline release: no pcp trylock fails, which would add calls.
alone="--file-size=2m --threads=1 --completion=inline --requests=300"
run --bulk-variant=merged --alloc=array $alone
merged_calls=$(summary alloc_calls_per_call)
run --bulk-variant=stop-at-first-populated --alloc=array $alone
stop_calls=$(summary alloc_calls_per_call)
awk -v m="$merged_calls" -v s="$stop_calls" 'BEGIN { exit !(m < 1.05 && s >= 1.9) }'
ok $? "stop-at-first-populated: about 2 allocator calls per svc_alloc_arg, merged 1 ($stop_calls, $merged_calls)"

if [ -n "$no_jemalloc" ]; then
	skip 3 "$no_jemalloc"
else
	# The knobs are reported.
	run --backend=jemalloc --je-tcache=off --je-batch=off --alloc=array $small
	[ "$status" -eq 0 ] && grep -q "^  allocator:  jemalloc .*no thread cache; bulk through one mallocx() per page" "$OUT"
	ok $? "--je-tcache=off --je-batch=off: run and reported" ||
		diag "exit $status: $(grep allocator "$OUT") $(head -c 500 "$ERR")"

	# jemalloc sizes its thread caches at start: rpcsim restarts itself.
	run --backend=jemalloc --je-tcache-slots=64 --alloc=single $small
	[ "$status" -eq 0 ] && grep -q "thread cache per CPU, 64 slots for 4 KiB" "$OUT" &&
		[ "$(grep -c '^rpcsim ' "$OUT")" -eq 1 ]
	ok $? "--je-tcache-slots=64: restarted with MALLOC_CONF, caches of 64 slots, one report" ||
		diag "exit $status: $(grep allocator "$OUT") $(head -c 500 "$ERR")"
	run_env MALLOC_CONF=tcache_nslots_small_min:32,tcache_nslots_small_max:32 \
		--backend=jemalloc --alloc=single $small
	[ "$status" -eq 0 ] && grep -q "thread cache per CPU, 32 slots for 4 KiB" "$OUT"
	ok $? "MALLOC_CONF in the environment: the slot count it gives is reported" ||
		diag "exit $status: $(grep allocator "$OUT")"
fi

# The profile: kernel by default, then PAGEPOOL_PROFILE's, --profile's.
run --alloc=array $small
[ "$status" -eq 0 ] && [ "$(summary profile)" = kernel ] &&
	grep -q "^  profile:    kernel (the steps of 5.13's page allocator" "$OUT"
ok $? "the kernel profile by default: configuration block and SUMMARY say so" ||
	diag "exit $status: $(grep -E '^(SUMMARY|  profile)' "$OUT")"
run_env PAGEPOOL_PROFILE=lean --alloc=array $small
p_env=$(summary profile)
run_env PAGEPOOL_PROFILE=lean --profile=kernel --alloc=array $small
p_opt=$(summary profile)
run_env PAGEPOOL_PROFILE=fast --alloc=array $small
[ "$p_env" = lean ] && [ "$p_opt" = kernel ] && [ "$status" -eq 2 ] &&
	grep -q "^rpcsim: PAGEPOOL_PROFILE=fast: expected lean or kernel" "$ERR"
ok $? "PAGEPOOL_PROFILE sets the default, --profile wins, a bad one exits 2 naming it" ||
	diag "env $p_env, option $p_opt, bad: exit $status $(head -c 300 "$ERR")"
# CONFIG_DEBUG_LIST's checks: on with the kernel profile, off by
# PAGEPOOL_DEBUG_LIST=0, not a line of the lean profile; the JSON says.
run --alloc=list $small
dl_on=$(grep -c "^  list debug: on (CONFIG_DEBUG_LIST's" "$OUT")
run_env PAGEPOOL_DEBUG_LIST=0 --alloc=list $small
dl_off=$(grep -c "^  list debug: off (PAGEPOOL_DEBUG_LIST=0)" "$OUT")
run --profile=lean --alloc=list $small
dl_lean=$(grep -c "list debug" "$OUT")
run_env PAGEPOOL_DEBUG_LIST=0 --alloc=list $small --json
dl_json=$(grep -c '"debug_list": false' "$OUT")
[ "$dl_on" -eq 1 ] && [ "$dl_off" -eq 1 ] && [ "$dl_lean" -eq 0 ] &&
	[ "$dl_json" -eq 1 ]
ok $? "list debug: on with the kernel profile, off with PAGEPOOL_DEBUG_LIST=0, no line with lean; JSON debug_list" ||
	diag "on $dl_on off $dl_off lean $dl_lean json $dl_json"
if [ -n "$no_jemalloc" ]; then
	skip 1 "$no_jemalloc"
else
	run --backend=jemalloc --alloc=array $small
	[ "$status" -eq 0 ] && [ "$(summary profile)" = lean ] &&
		! grep -q "^  profile:" "$OUT"
	ok $? "--backend=jemalloc runs its own paths: SUMMARY says lean, no profile line" ||
		diag "exit $status: $(grep -E '^(SUMMARY|  profile)' "$OUT")"
fi

# --json carries the backend, the variant and the jemalloc knobs.
if have_python; then
	for args in "--backend=buddy --bulk-variant=pure-output" \
		    "--backend=jemalloc --bulk-variant=no-single-fallback --je-tcache=off"; do
		case $args in
		*jemalloc*)
			if [ -n "$no_jemalloc" ]; then
				skip 1 "$no_jemalloc"
				continue
			fi
			;;
		esac
		run $args --alloc=all $small --json
		python3 - "$OUT" "$args" <<'PY'
import json, sys

doc = json.load(open(sys.argv[1]))
cfg = doc["config"]
args = dict(a[2:].split("=") for a in sys.argv[2].split())
assert cfg["backend"] == args["backend"], cfg["backend"]
assert cfg["bulk_variant"] == args["bulk-variant"], cfg["bulk_variant"]
if args["backend"] == "jemalloc":
    je = cfg["jemalloc"]
    assert je["tcache"] is False and je["tcache_slots"] == 0, je
    assert je["batch_alloc"] is True and je["headroom_pages"] > 0, je
else:
    assert cfg["jemalloc"] is None
for m in doc["modes"]:
    assert m["alloc_calls"] >= m["calls"] > 0, m["mode"]
    for r in m["per_run"]:
        e = r["pool_at_exit"]
        assert e["leaked"] == 0, e
        assert e["nr_free"] + e["nr_pcp"] + e["nr_backend"] == e["nr_pages"], e
        assert (e["nr_backend"] > 0) == (args["backend"] == "jemalloc"), e
PY
		ok $? "--json $args: config names backend, variant, knobs; nothing leaked"
	done
else
	skip 2 "python3 not found"
fi

# A leak is still caught with jemalloc in front.
if [ -n "$no_jemalloc" ]; then
	skip 1 "$no_jemalloc"
else
	run_env RPCSIM_LEAK_PAGES=3 --backend=jemalloc --alloc=array $small
	[ "$status" -eq 1 ] && grep -q "leak" "$ERR"
	ok $? "--backend=jemalloc: pages kept by rpcsim are reported, exit 1" ||
		diag "exit $status: $(head -c 500 "$ERR")"
fi

exit_status
