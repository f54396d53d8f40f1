#!/bin/sh
# SPDX-License-Identifier: MIT
#
# pagebench in smoke mode (a few pages per configuration: the format, not
# the numbers): --help lists every option with its default; one greppable
# line per configuration with every key; the glibc baseline is glibc's own
# aligned_alloc and the jemalloc one is jemalloc's mallocx; the table and
# the ratio lines; --json is one valid document; bad input exits 2 with
# one line naming the option and the value.

# Option lists in variables are split into words on purpose.
# shellcheck disable=SC2086
# shellcheck source=tests/utils/tap.sh
. "$top_srcdir/tests/utils/tap.sh"

PAGEBENCH=${PAGEBENCH:-$top_builddir/pagebench/pagebench}
[ -x "$PAGEBENCH" ] || bail_out "$PAGEBENCH not built"
tmpdir=$(mktemp -d "${TMPDIR:-/tmp}/pagebench-test.XXXXXX") ||
	bail_out "mktemp failed"
trap 'rm -rf "$tmpdir"' EXIT
OUT=$tmpdir/stdout
ERR=$tmpdir/stderr

run()
{
	timeout 120 "$PAGEBENCH" "$@" >"$OUT" 2>"$ERR"
	status=$?
}

options="allocators api bulk variant free je-tcache je-batch runs run-ms pin"
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
--runs=0	--runs=0
--runs=x	--runs=x
--run-ms=0	--run-ms=0
--variant=v5	--variant=v5
--allocators=tcmalloc	--allocators=tcmalloc
--api=vector	--api=vector
--free=drop	--free=drop
--je-tcache=maybe	--je-tcache=maybe
--pin=2	--pin=2
--bogus	--bogus
--bulk	--bulk
stray	stray
TABLE
)
nr_options=$(echo $options | wc -w)
nr_bad=$(printf '%s\n' "$bad_inputs" | wc -l)
plan_tests $((2 + nr_options + 8 + 2 * nr_bad))

run --help
[ "$status" -eq 0 ] && [ ! -s "$ERR" ]
ok $? "--help exits 0, nothing on stderr"
help=$(cat "$OUT")
for name in $options; do
	entry=$(printf '%s\n' "$help" | awk -v opt="--$name" '
		/^ +(-[a-zA-Z], )?--[a-z]/ {
			on = index($0, opt "=") || index($0, opt " ") ||
			     $0 ~ (opt "$")
		}
		/^[A-Z]/ { on = 0 }
		on')
	printf '%s' "$entry" | grep -q default
	ok $? "--help lists --$name with its default" || diag "$entry"
done
run --version
grep -Eq '^pagebench [0-9.]+ \(libpagepool [0-9.]+\)$' "$OUT"
ok $? "--version names pagebench's and the library's versions"

# Every allocator, API and bulk size: 2 x (1 + 8 + 8) + 3 x (1 + 8).
run --smoke
[ "$status" -eq 0 ] && [ ! -s "$ERR" ]
ok $? "--smoke runs every configuration" || diag "exit $status: $(cat "$ERR")"
lines=$(grep -c '^pagebench allocator=' "$OUT")
bad=$(grep '^pagebench allocator=' "$OUT" | grep -Evc "$line_re")
[ "$lines" -eq 61 ] && [ "$bad" -eq 0 ]
ok $? "--smoke: 61 lines, one per configuration, every key ($lines, $bad bad)" ||
	diag "$(grep '^pagebench allocator=' "$OUT" | grep -Ev "$line_re" | head -3)"
grep -q "^  glibc baseline: aligned_alloc from .*libc\\.so" "$OUT" &&
	grep -q "^  jemalloc baseline: mallocx from .*libjemalloc\\.so" "$OUT"
ok $? "the glibc baseline is libc's aligned_alloc, the jemalloc one libjemalloc's mallocx" ||
	diag "$(grep baseline "$OUT")"
grep -Eq "^buddy +array( +$num){8}\$" "$OUT" &&
	grep -Eq "^lifo +array( +$num){8}\$" "$OUT" &&
	grep -Eq "^bulk 64: buddy array / lifo floor = $num""x, glibc / buddy array = $num""x, mallocx / buddy array = $num""x\$" "$OUT" &&
	grep -Eq "^single page: mallocx\\+sdallocx / buddy = $num""x\$" "$OUT"
ok $? "the table and the ratio lines the performance target reads" ||
	diag "$(tail -n 20 "$OUT")"

run --smoke --allocators=buddy,jemalloc --api=array --bulk=4 --variant=all --free=put
[ "$status" -eq 0 ] &&
	[ "$(grep -c '^pagebench allocator=.* api=array bulk=4 variant=.* free=put ' "$OUT")" -eq 10 ]
ok $? "--variant=all --free=put: every variant on both backends" ||
	diag "exit $status: $(grep '^pagebench' "$OUT")"
for v in merged stop-at-first-populated batched-stats no-single-fallback pure-output; do
	grep -q "variant=$v " "$OUT" || { false; break; }
done
ok $? "--variant=all: each variant named on its line"

run --smoke --allocators=lifo,glibc --api=single --bulk=2 --je-tcache=off --je-batch=off --pin=off
[ "$status" -eq 0 ] && [ "$(grep -c '^pagebench allocator=' "$OUT")" -eq 2 ]
ok $? "--allocators and --api select the rows" || diag "$(cat "$OUT" "$ERR")"

if command -v python3 >/dev/null 2>&1; then
	run --smoke --json
	python3 - "$OUT" <<'PY'
import json, sys

def no_constants(name):
    raise ValueError("non-JSON number " + name)

doc = json.load(open(sys.argv[1]), parse_constant=no_constants)
assert doc["program"] == "pagebench"
assert doc["machine"]["cpu"]
assert "libc" in doc["config"]["glibc_from"]
res = doc["results"]
assert len(res) == 61, len(res)
for r in res:
    assert r["min_ns"] <= r["ns_per_page"] <= r["max_ns"], r
    assert len(r["runs_ns"]) == doc["config"]["runs"], r
    assert (r["variant"] is None) == (r["allocator"] not in
                                      ("buddy", "jemalloc") or
                                      r["api"] == "single"), r
PY
	ok $? "--json: one valid document, 61 results with their runs"
else
	skip 1 "python3 not found"
fi

while IFS='	' read -r args text; do
	run $args </dev/null
	[ "$status" -eq 2 ] && [ ! -s "$OUT" ]
	ok $? "bad input '$args' exits 2, prints nothing on stdout" ||
		diag "exit $status"
	[ "$(wc -l <"$ERR")" -eq 1 ] && grep -qF -- "$text" "$ERR" &&
		grep -q '^pagebench: ' "$ERR"
	ok $? "bad input '$args' explained in one line naming '$text'" ||
		diag "$(cat "$ERR")"
done <<EOF_TABLE
$bad_inputs
EOF_TABLE

exit_status
