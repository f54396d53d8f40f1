#!/bin/sh
# SPDX-License-Identifier: MIT
#
# rpcsim-analyze's command line and its errors on paths that hold no
# usable trace; no LTTng needed.  Bad usage: exit status 2 and one line
# naming the option, the value and what is accepted.  A missing,
# unreadable or broken trace: exit status 1 and a message naming it.

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
# shellcheck source=tests/utils/tap.sh
. "$top_srcdir/tests/utils/tap.sh"
plan_no_plan

ANALYZE=${ANALYZE:-$top_builddir/analyze/rpcsim-analyze}
tap_skip_without_prog "$ANALYZE" "configure found no libbabeltrace2"

tap_tmpdir test-analyze-cli
# The unreadable folders below must not keep it.
tap_at_exit 'chmod -R u+rwx "$tmpdir" 2>/dev/null'

# run ARGS...: rpcsim-analyze's $OUT, $ERR, $status, and $err: its stderr
run()
{
	run_cmd 30 "$ANALYZE" "$@"
	err=$(cat "$ERR")
}

err_has()
{
	for w in "$@"; do
		case $err in
		*"$w"*) ;;
		*)
			diag "no '$w' in: $err"
			return 1
			;;
		esac
	done
}

# status N WORDS...: exit status N and WORDS on stderr
status()
{
	[ "$status" -eq "$1" ] || {
		diag "exit status $status, not $1: $err"
		return 1
	}
	shift
	err_has "$@"
}

# usage DESCRIPTION WORDS -- ARGS...: exit 2, one line with WORDS
usage()
{
	u_desc=$1
	shift
	u_words=
	while [ "$1" != -- ]; do
		u_words="$u_words $1"
		shift
	done
	shift
	run "$@"
	# shellcheck disable=SC2086
	sh -c "[ $status -eq 2 ] && [ \$(wc -l <'$ERR') -eq 1 ]"
	ok $? "$u_desc: exit status 2, one line"
	# shellcheck disable=SC2086
	err_has $u_words
	ok $? "$u_desc: names${u_words}"
}

usage "no TRACE" TRACE accepted --
usage "unknown long option" "'--bogus'" --help -- --bogus "$tmpdir"
usage "unknown short option" "'-x'" --help -- -x "$tmpdir"
usage "bad --tracepoint-cost" --tracepoint-cost "'abc'" accepted -- \
	--tracepoint-cost=abc "$tmpdir"
usage "negative --tracepoint-cost" --tracepoint-cost "'-5'" accepted -- \
	--tracepoint-cost=-5 "$tmpdir"
usage "too large --tracepoint-cost" --tracepoint-cost 1000000 -- \
	-c 99999999 "$tmpdir"
usage "--tracepoint-cost without value" --tracepoint-cost -- \
	"$tmpdir" --tracepoint-cost
usage "bad --pid" --pid "'x1'" "process id" -- --pid=x1 "$tmpdir"
usage "too large --pid" --pid 4194304 -- --pid=4194305 "$tmpdir"
usage "--pid without value" --pid "process id" -- "$tmpdir" --pid
usage "--pid twice" "--pid given twice" "--pid=12, then --pid=34" -- --pid=12 --pid=34 "$tmpdir"
usage "--jobs=0" --jobs "'0'" "1..256" -- --jobs=0 "$tmpdir"
usage "too large --jobs" --jobs "'257'" "1..256" -- --jobs=257 "$tmpdir"
usage "bad --jobs" --jobs "'2x'" "1..256" -- --jobs=2x "$tmpdir"
usage "--jobs without value" --jobs "1..256" -- "$tmpdir" --jobs
usage "bad --output-format" "'xml'" "text, json or text,json" -- \
	--output-format=xml "$tmpdir"
usage "--output without value" "'-o'" "file name" -- "$tmpdir" -o
# A value given to an option that takes none: say so, and name the
# option typed, not the "-j" getopt_long() reports for it.
usage "--json=1" "'--json'" "takes no value" -- --json=1 "$tmpdir"
sh -c "! grep -q \"'-j'\" '$ERR'"
ok $? "--json=1: no '-j' that was never typed"
usage "--verbose=2" "'--verbose'" "takes no value" -- --verbose=2 "$tmpdir"
usage "--js=1 (a prefix of --json)" "'--json'" "takes no value" -- --js=1 "$tmpdir"

run --help
sh -c "[ $status -eq 0 ] && [ ! -s '$ERR' ]"
ok $? "--help: exit status 0, nothing on stderr"
sh -c "for o in --json --tracepoint-cost --verbose --help --version 'default 300'; do grep -q -e \"\$o\" '$OUT' || exit 1; done"
ok $? "--help lists every option, with the default"
run --version
sh -c "[ $status -eq 0 ] && grep -q rpcsim-analyze '$OUT'"
ok $? "--version: exit status 0"

# runtime errors: exit 1, the path named
run "$tmpdir/no/such/dir"
[ "$status" -eq 1 ]
ok $? "missing path: exit status 1"
sh -c "grep -q '$tmpdir/no/such/dir: No such file' '$ERR' && [ \$(wc -l <'$ERR') -eq 1 ]"
ok $? "missing path: named, one line"

mkdir -p "$tmpdir/empty/a/b"
run "$tmpdir/empty"
[ "$status" -eq 1 ]
ok $? "no trace below a directory: exit status 1"
err_has "$tmpdir/empty" "no CTF trace"
ok $? "no trace below a directory: says so"

: >"$tmpdir/file"
run "$tmpdir/file"
status 1 "$tmpdir/file" "not a directory"
ok $? "a file, not a directory: exit status 1, says so"

mkdir -p "$tmpdir/text/ust/uid/0/64-bit"
echo 'this is not TSDL {' >"$tmpdir/text/ust/uid/0/64-bit/metadata"
run "$tmpdir/text"
[ "$status" -eq 1 ]
ok $? "garbage metadata: exit status 1"
err_has "$tmpdir/text/ust/uid/0/64-bit"
ok $? "garbage metadata: names the trace directory"

# A packetized metadata file whose first packet claims 4096 bytes but is
# cut at 100: babeltrace2 2.0.4 would spin forever on it.
mkdir -p "$tmpdir/cut/ust/uid/0/64-bit"
{
	printf '\127\035\321\165'		# magic 0x75d11d57, little endian
	printf '0123456789abcdef'		# uuid
	printf '\000\000\000\000'		# checksum
	printf '\000\200\000\000'		# content_size 32768 bits
	printf '\000\200\000\000'		# packet_size 32768 bits
	printf '\000\000\000\001\010'		# schemes, version 1.8
	printf '/* CTF 1.8 */ %63s' ' '
} >"$tmpdir/cut/ust/uid/0/64-bit/metadata"
run "$tmpdir/cut"
[ "$status" -eq 1 ]
ok $? "cut metadata packet: exit status 1, no hang"
err_has "$tmpdir/cut/ust/uid/0/64-bit" "is cut"
ok $? "cut metadata packet: says it is cut"

run "$tmpdir/empty" "$tmpdir/no/such"
sh -c "[ $status -eq 1 ] && [ \$(wc -l <'$ERR') -eq 2 ]"
ok $? "several paths, all bad: exit status 1, one line each"

# The kernel's pseudo file systems hold no trace: one line, at once (a
# walk of /proc took 16 s and printed a line per folder it could not
# open; /proc/self/root led it through the whole file system).
for d in /proc /proc/self /sys; do
	[ -d "$d" ] || { skip 1 "$d: not there"; continue; }
	run "$d"
	sh -c "[ $status -eq 1 ] && [ \$(wc -l <'$ERR') -eq 1 ] && grep -q 'never a trace' '$ERR'"
	ok $? "$d: exit status 1, one line saying it is no trace folder"
done

# Folders below that cannot be read: one line for all of them.
mkdir -p "$tmpdir/many/a" "$tmpdir/many/b" "$tmpdir/many/c"
chmod 000 "$tmpdir/many/a" "$tmpdir/many/b" "$tmpdir/many/c"
as=
if [ "$(id -u)" -eq 0 ]; then
	chmod 755 "$tmpdir"
	if command -v runuser >/dev/null 2>&1 &&
	   runuser -u nobody -- test -x "$ANALYZE" 2>/dev/null; then
		as="runuser -u nobody --"
	else
		as=skip
	fi
fi
if [ "$as" = skip ]; then
	skip 1 "unreadable folders: root reads everything, and nobody cannot run $ANALYZE"
else
	$as timeout 30 "$ANALYZE" "$tmpdir/many" >"$OUT" 2>"$ERR"
	status=$?
	sh -c "[ $status -eq 1 ] && [ \$(wc -l <'$ERR') -eq 1 ] && grep -q '3 directories below it cannot be read' '$ERR'"
	ok $? "3 unreadable folders below: exit status 1, one line counting them" ||
		diag "$(cat "$ERR")"
fi

if [ "$(id -u)" -eq 0 ]; then
	skip 1 "unreadable directory: root reads everything"
else
	mkdir -p "$tmpdir/locked/inner"
	chmod 000 "$tmpdir/locked"
	run "$tmpdir/locked"
	status 1 "$tmpdir/locked"
	ok $? "unreadable directory: exit status 1, named"
fi

exit_status
