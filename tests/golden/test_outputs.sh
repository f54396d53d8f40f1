#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The deterministic outputs stay as they are: rpcsim-analyze's text and
# JSON on a fixed trace (tests/golden/trace.txt, which
# tests/analyze/ctfgen.py writes, every timestamp known), the --help of
# every program, and the shape of rpcsim --json (its key paths; the
# values are timings).  Each must equal
# its copy in tests/golden/expected/ byte for byte; examples/pp-numa's
# output must equal the one doc/library.md shows.  rpcsim-compare has
# its own golden tables (tests/compare/expected/).  A change meant to
# alter one of these updates the copy in the same commit:
#
#	GOLDEN_UPDATE=1 make -C build/tests check TESTS=golden/test_outputs.sh
#
# rewrites them in the source tree (then read the diff).

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
# shellcheck source=tests/utils/tap.sh
. "$top_srcdir/tests/utils/tap.sh"
plan_tests 9

expected=$top_srcdir/tests/golden/expected
RPCSIM=$top_builddir/rpcsim/rpcsim
ANALYZE=$top_builddir/analyze/rpcsim-analyze
COMPARE=$top_builddir/compare/rpcsim-compare
PAGEBENCH=$top_builddir/pagebench/pagebench

tap_tmpdir test-golden

# golden NAME FILE: FILE equals expected/NAME (or becomes it).
golden()
{
	if [ -n "${GOLDEN_UPDATE:-}" ]; then
		cp "$2" "$expected/$1" && diag "updated expected/$1"
	fi
	diff -u "$expected/$1" "$2" >"$tmpdir/diff" 2>&1
	ok $? "$1 equals tests/golden/expected/$1" ||
		diag "$(head -n 40 "$tmpdir/diff")"
}

# 1. rpcsim-analyze on a fixed trace: two runs of each mode, two threads,
#    a retry, a discard.
if [ -x "$ANALYZE" ] && have_python; then
	mkdir -p "$tmpdir/t/trace"
	python3 "$top_srcdir/tests/analyze/ctfgen.py" "$tmpdir/t/trace" \
		<"$top_srcdir/tests/golden/trace.txt"
	"$ANALYZE" --partial "$tmpdir/t" >"$tmpdir/out" 2>"$tmpdir/err"
	echo "exit $?" >>"$tmpdir/out"
	sed "s|$tmpdir|TMP|g" "$tmpdir/err" >>"$tmpdir/out"
	golden analyze-text.txt "$tmpdir/out"
	"$ANALYZE" --partial --json "$tmpdir/t" >"$tmpdir/json" 2>/dev/null
	sed "s|$tmpdir|TMP|g" "$tmpdir/json" >"$tmpdir/out"
	golden analyze-json.json "$tmpdir/out"
else
	skip 2 "rpcsim-analyze not built or python3 missing"
fi

# 2. --help: the full build's (LTTng-UST in rpcsim, babeltrace2 for
#    rpcsim-analyze, every allocator pagebench knows).
if "$RPCSIM" --help 2>/dev/null | grep -q -- '--trace\[=DIR\]'; then
	"$RPCSIM" --help >"$tmpdir/out" 2>&1
	golden rpcsim-help.txt "$tmpdir/out"
else
	skip 1 "rpcsim built without LTTng-UST: its --help differs"
fi
if [ -x "$ANALYZE" ]; then
	"$ANALYZE" --help >"$tmpdir/out" 2>&1
	golden rpcsim-analyze-help.txt "$tmpdir/out"
else
	skip 1 "rpcsim-analyze not built"
fi
"$COMPARE" --help >"$tmpdir/out" 2>&1
golden rpcsim-compare-help.txt "$tmpdir/out"
"$PAGEBENCH" --help >"$tmpdir/out" 2>&1
if grep -q 'not built here:' "$tmpdir/out"; then
	skip 1 "pagebench built without some of its allocators: its --help names them"
else
	golden pagebench-help.txt "$tmpdir/out"
fi

# 3. The shape of rpcsim --json: every key path, arrays folded.
if have_python; then
	"$RPCSIM" --requests=20 --threads=1 --file-size=1m --json \
		2>"$tmpdir/err" | python3 -c '
import json, sys
def walk(x, p):
    if isinstance(x, dict):
        for k, v in x.items():
            yield from walk(v, p + "." + k)
    elif isinstance(x, list):
        for v in x:
            yield from walk(v, p + "[]")
    else:
        yield p
print("\n".join(sorted(set(walk(json.load(sys.stdin), "")))))' \
		>"$tmpdir/out"
	golden rpcsim-json-keys.txt "$tmpdir/out"
else
	skip 1 "python3 missing"
fi

# 4. The examples: doc/library.md shows pp-numa's whole output (a pool of
#    two nodes, one CPU list: deterministic on the default pcp lists, the
#    lock for a pool with fewer lists than CPUs); pp-example runs the
#    three APIs and gives every page back (pgalloc = pgfree = 32: a
#    single page, 16 on the list, 15 into the array, whose slot 3 holds
#    the single page).
doc_block()
{
	awk -v cmd="    \$ $1" '
		$0 == cmd { on = 1; next }
		on && /^    / { sub(/^    /, ""); print; next }
		on && /^$/ { next }
		on { exit }' "$top_srcdir/doc/library.md"
}
env -u PAGEPOOL_PCP -u PAGEPOOL_PROFILE "$top_builddir/examples/pp-numa" \
	>"$tmpdir/numa" 2>&1
echo "exit $?" >>"$tmpdir/numa"
{ doc_block build/examples/pp-numa; echo "exit 0"; } >"$tmpdir/numa.doc"
diff -u "$tmpdir/numa.doc" "$tmpdir/numa" >"$tmpdir/diff" 2>&1
ok $? "examples/pp-numa prints what doc/library.md shows" ||
	diag "$(head -n 40 "$tmpdir/diff")"
"$top_builddir/examples/pp-example" >"$tmpdir/example" 2>&1
rc=$?
[ $rc -eq 0 ] &&
	grep -q '^single page: pfn [0-9]* at 0x' "$tmpdir/example" &&
	grep -qx 'bulk list:   16 pages' "$tmpdir/example" &&
	grep -qx 'bulk array:  16 of 16 slots populated, slot 3 kept' \
		"$tmpdir/example" &&
	grep -qx 'pgalloc 32' "$tmpdir/example" &&
	grep -qx 'pgfree 32' "$tmpdir/example"
ok $? "examples/pp-example: the three APIs, every page back (exit $rc)" ||
	diag "$(cat "$tmpdir/example")"

exit_status
exit $?
