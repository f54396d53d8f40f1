#!/bin/sh
# SPDX-License-Identifier: MIT
#
# bench/callgrind.sh's command line and its ending, with a stand-in
# valgrind (nothing counted): --help says how it is used; an option it
# does not have, or two build trees, exits 2 with one line; a build tree
# without libpagepool exits 1 with one line; SIGTERM while valgrind
# runs ends the script (143), the valgrind it started and its temporary
# directory.

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
# shellcheck source=tests/utils/tap.sh
. "$top_srcdir/tests/utils/tap.sh"
# shellcheck source=tests/bench/common.sh
. "$top_srcdir/tests/bench/common.sh"

top_builddir=$(cd "$top_builddir" && pwd) || bail_out "no $top_builddir"
bench_script callgrind.sh

plan_tests 6

run --help
[ "$status" -eq 0 ] && [ ! -s "$ERR" ] && grep -q '^Usage: callgrind.sh \[BUILD_DIR\]' "$OUT"
ok $? "--help: the usage, exit 0" || diag "exit $status: $(cat "$OUT" "$ERR")"
run --bogus
[ "$status" -eq 2 ] && [ ! -s "$OUT" ] && [ "$(wc -l <"$ERR")" -eq 1 ] &&
	grep -q "^callgrind.sh: unknown option '--bogus'" "$ERR"
ok $? "an unknown option: exit 2, one line" || diag "exit $status: $(cat "$ERR")"
run "$tmpdir/a" "$tmpdir/b"
[ "$status" -eq 2 ] && [ "$(wc -l <"$ERR")" -eq 1 ] && grep -q "one BUILD_DIR only" "$ERR"
ok $? "two build trees: exit 2, one line" || diag "exit $status: $(cat "$ERR")"
run "$tmpdir"
[ "$status" -eq 1 ] && [ "$(wc -l <"$ERR")" -eq 1 ] &&
	grep -q "^callgrind.sh: BUILD_DIR '$tmpdir': no alloc/.libs/libpagepool.so" "$ERR"
ok $? "a build tree without libpagepool: exit 1, one line naming it" ||
	diag "exit $status: $(cat "$ERR")"

# A valgrind that never ends: SIGTERM to the script ends it too, and the
# temporary directory goes.
if [ ! -f "$top_builddir/alloc/.libs/libpagepool.so" ] ||
	! command -v "${CC:-cc}" >/dev/null 2>&1; then
	skip 2 "no libpagepool in $top_builddir or no C compiler"
	exit_status
	exit $?
fi
mkdir -p "$tmpdir/bin" "$tmpdir/t"
printf '#!/bin/sh\necho $$ >"%s/valgrind.pid"\nexec sleep 30\n' "$tmpdir" \
	>"$tmpdir/bin/valgrind"
chmod +x "$tmpdir/bin/valgrind"
PATH=$tmpdir/bin:$PATH TMPDIR=$tmpdir/t sh "$SCRIPT" "$top_builddir" \
	>"$OUT" 2>"$ERR" &
pid=$!
wait_for 60 test -s "$tmpdir/valgrind.pid"
kill -TERM "$pid"
wait_pid "$pid" 20
vpid=$(cat "$tmpdir/valgrind.pid" 2>/dev/null)
[ "$status" -eq 143 ] && [ -n "$vpid" ] && wait_for 10 pid_gone "$vpid"
ok $? "SIGTERM while valgrind runs: exit 143, valgrind ended" ||
	diag "exit $status, valgrind pid $vpid: $(cat "$ERR")"
[ -z "$(ls "$tmpdir/t")" ] && [ ! -s "$OUT" ]
ok $? "  no temporary file left, no count printed" ||
	diag "left: $(ls "$tmpdir/t"); stdout: $(cat "$OUT")"
[ -n "$vpid" ] && kill "$vpid" 2>/dev/null

exit_status
