#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Bad input for every command-line tool, from one table: each case must
# exit with the status the table gives, 2 (bad usage) or 1 (runtime
# error: a file or trace that cannot be read, an output that cannot be
# written), with exactly one line on stderr naming the tool, and no crash
# (no signal, no timeout) and no sanitizer report.  A tool that is not
# built is skipped by name.  After the table, a PAGEPOOL_FAULT that
# libpagepool cannot read: named in exactly one line however many times
# the tool looks at the pool configuration, then the tool's own line.
#
# Table lines: STATUS TOOL ARGS...; ARGS are shell words (eval'd, so
# $tmpdir and $fix work), with three markers of the harness's own:
#   @full       stdout goes to /dev/full (the write must fail)
#   @needs=WORD only if TOOL --help mentions WORD, else skipped
#   @py         only if python3 is there (the trace is made with it)

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
# shellcheck source=tests/utils/tap.sh
. "$top_srcdir/tests/utils/tap.sh"

tap_tmpdir test-bad-input
fix=$top_srcdir/tests/compare/fixtures

tool_path()
{
	case $1 in
	rpcsim) echo "$top_builddir/rpcsim/rpcsim" ;;
	rpcsim-analyze) echo "$top_builddir/analyze/rpcsim-analyze" ;;
	pagebench) echo "$top_builddir/pagebench/pagebench" ;;
	rpcsim-compare) echo "$top_builddir/compare/rpcsim-compare" ;;
	*) echo "/nonexistent/$1" ;;
	esac
}

# --- inputs ------------------------------------------------------------------
mkdir "$tmpdir/empty" "$tmpdir/garbage" "$tmpdir/cutmeta" "$tmpdir/btcrash" \
	"$tmpdir/bthang" "$tmpdir/clean" "$tmpdir/nonrpcsim"
echo "this is not a trace" >"$tmpdir/file"
echo "this is not metadata" >"$tmpdir/garbage/metadata"
printf '\001\002\003' >"$tmpdir/garbage/stream"
# fuzz/trace-base's packetized metadata cut in its second packet (the
# case babeltrace2 2.0.4 would loop forever on), with its stream
base=$top_srcdir/fuzz/trace-base
head -c 5000 "$base/metadata" >"$tmpdir/cutmeta/metadata"
cp "$base/stream" "$tmpdir/cutmeta/stream"
# the fuzzer's input that made libbabeltrace2 abort (fuzz/trace.c mode 1,
# flag 0x20: the input after its first byte is the stream, twice)
reg=$top_srcdir/fuzz/regressions/trace/babeltrace2-assert-packet-size-sign
cp "$base/metadata" "$tmpdir/btcrash/metadata"
tail -c +2 "$reg" >"$tmpdir/btcrash/stream"
cp "$tmpdir/btcrash/stream" "$tmpdir/btcrash/stream2"
# and the one it looped on (a packet of size 0), which rpcsim-analyze's
# watchdog stops: 1 s here instead of 10
reg=$top_srcdir/fuzz/regressions/trace/babeltrace2-hang-zero-packet-size
cp "$base/metadata" "$tmpdir/bthang/metadata"
tail -c +2 "$reg" >"$tmpdir/bthang/stream"
cp "$tmpdir/bthang/stream" "$tmpdir/bthang/stream2"
RPCSIM_ANALYZE_INDEX_SECONDS=1
export RPCSIM_ANALYZE_INDEX_SECONDS
if have_python; then
	# a trace rpcsim-analyze reads without a warning, and one without
	# any rpcsim event
	python3 "$top_srcdir/tests/analyze/ctfgen.py" "$tmpdir/clean" \
		<"$top_srcdir/tests/analyze/traces/one-call.txt"
	python3 "$top_srcdir/tests/analyze/ctfgen.py" "$tmpdir/nonrpcsim" <<'EOF'
1000 alloc_bulk vtid=10 requested=3 allocated=3 variant=1
EOF
fi
printf 'not JSON at all\n' >"$tmpdir/nope.json"
printf '{}\n' >"$tmpdir/empty.json"
head -c 100 "$fix/plain.json" >"$tmpdir/cut.json"

# --- the table ---------------------------------------------------------------
cat >"$tmpdir/table" <<'EOF'
2 rpcsim --bogus
2 rpcsim extra-argument
2 rpcsim --threads=0
2 rpcsim --threads=abc
2 rpcsim --threads=4097
2 rpcsim --alloc=foo
2 rpcsim --alloc=
2 rpcsim --io-size=1x
2 rpcsim --io-size=0
2 rpcsim --max-payload=65m
2 rpcsim --mix=read:0,write:0
2 rpcsim --mix=read:1,write
2 rpcsim --duration=-1
2 rpcsim --duration=abc
2 rpcsim --duration=0x10
2 rpcsim --duration=1e1
2 rpcsim --requests=-5
2 rpcsim --repeat=0
2 rpcsim --warmup=x
2 rpcsim --seed=
2 rpcsim --pool-size=4k
2 rpcsim --pool-size=4097
2 rpcsim --pcp-batch=0
2 rpcsim --pcp-batch=8 --pcp-high=1
2 rpcsim --file-size=1
2 rpcsim --completion=elsewhere
2 rpcsim --queue-depth=0
2 rpcsim --retry-wait=-1
2 rpcsim --backend=foo
2 rpcsim --bulk-variant=foo
2 rpcsim --je-tcache=on
2 rpcsim --plot=picture.txt
2 rpcsim @needs=--trace-buffer --trace-buffer=1
2 rpcsim @needs=--trace-events --trace-events=some
1 rpcsim --plot=/nonexistent/dir/x.svg
1 rpcsim @needs=--trace[ --trace=/proc/no/such/dir --requests=10
1 rpcsim @full --requests=20 --threads=1 --pool-size=64m --file-size=1m --quiet
2 rpcsim --sweep=nosuch=1,2 --results="$tmpdir/sweep"
2 rpcsim --sweep=threads=1,x --results="$tmpdir/sweep"
2 rpcsim --sweep=threads=1,,2 --results="$tmpdir/sweep"
2 rpcsim --sweep=threads=1,1 --results="$tmpdir/sweep"
2 rpcsim --sweep=threads=1 --sweep=threads=2 --results="$tmpdir/sweep"
2 rpcsim --sweep=pcp=spin --results="$tmpdir/sweep"
2 rpcsim --sweep=threads=1,2
2 rpcsim --sweep=threads=1 --results=
2 rpcsim --sweep=threads=1 --results="$tmpdir/sweep" --json
2 rpcsim --sweep=threads=1 --results="$tmpdir/sweep" --point=2
2 rpcsim --sweep=max-payload=64k --io-size=1m --results="$tmpdir/sweep"
2 rpcsim --plan
1 rpcsim @full --sweep=threads=1,2 --results="$tmpdir/sweep" --plan
2 rpcsim --point=1
2 rpcsim --results="$tmpdir/sweep"
2 rpcsim-analyze
2 rpcsim-analyze --bogus "$tmpdir/empty"
2 rpcsim-analyze -x "$tmpdir/empty"
2 rpcsim-analyze -c
2 rpcsim-analyze --tracepoint-cost=abc "$tmpdir/empty"
2 rpcsim-analyze --tracepoint-cost=-5 "$tmpdir/empty"
2 rpcsim-analyze --tracepoint-cost=99999999 "$tmpdir/empty"
2 rpcsim-analyze --tracepoint-cost=0x10 "$tmpdir/empty"
2 rpcsim-analyze --json=1 "$tmpdir/empty"
2 rpcsim-analyze --tracepoint-cost=" 300" "$tmpdir/empty"
2 rpcsim-analyze --plot=picture.txt "$tmpdir/empty"
1 rpcsim-analyze /nonexistent/trace
1 rpcsim-analyze "$tmpdir/file"
1 rpcsim-analyze "$tmpdir/empty"
1 rpcsim-analyze "$tmpdir/garbage"
1 rpcsim-analyze "$tmpdir/cutmeta"
1 rpcsim-analyze "$tmpdir/btcrash"
1 rpcsim-analyze --json "$tmpdir/btcrash"
1 rpcsim-analyze "$tmpdir/bthang"
1 rpcsim-analyze --plot=/nonexistent/dir/x.svg "$tmpdir/empty"
1 rpcsim-analyze @py "$tmpdir/nonrpcsim"
1 rpcsim-analyze @py @full "$tmpdir/clean"
1 rpcsim-analyze @py @full --json "$tmpdir/clean"
2 pagebench --bogus
2 pagebench extra-argument
2 pagebench --bulk=0
2 pagebench --bulk=129
2 pagebench --bulk=abc
2 pagebench --allocators=foo
2 pagebench --api=foo
2 pagebench --variant=foo
2 pagebench --runs=0
2 pagebench --run-ms=0
2 pagebench --run-ms=0x10
2 pagebench --json=1
2 pagebench --run-ms=1e2
2 pagebench --runs=0x10
2 pagebench --free=foo
2 pagebench --je-tcache=maybe
2 pagebench --pin=x
1 pagebench @full --smoke
2 pagebench --output-format=xml
2 pagebench --output-format=
2 pagebench --output=
2 pagebench -o
2 pagebench --results="$tmpdir/pbres" --output-format=json
1 pagebench --smoke --output=/nonexistent/dir/out.txt
2 rpcsim-compare
2 rpcsim-compare --bogus a.json b.json
2 rpcsim-compare "$fix/plain.json"
2 rpcsim-compare -m
2 rpcsim-compare --metrics= "$fix/plain.json" "$fix/plain.json"
2 rpcsim-compare --sweep=
2 rpcsim-compare --sweep="$tmpdir/empty" "$fix/plain.json"
2 rpcsim-compare --sweep="$tmpdir/empty" --json
1 rpcsim-compare --sweep=/nonexistent/dir
1 rpcsim-compare --sweep="$tmpdir/empty"
1 rpcsim-compare /nonexistent/a.json /nonexistent/b.json
1 rpcsim-compare "$fix/plain.json" /nonexistent/b.json
1 rpcsim-compare "$tmpdir/nope.json" "$fix/plain.json"
1 rpcsim-compare "$tmpdir/empty.json" "$fix/plain.json"
1 rpcsim-compare "$tmpdir/cut.json" "$fix/plain.json"
1 rpcsim-compare "$tmpdir/empty" "$fix/plain.json"
1 rpcsim-compare @full "$fix/plain.json" "$fix/plain.json"
2 rpcsim-compare --output-format=xml "$fix/plain.json" "$fix/plain.json"
2 rpcsim-compare --output= "$fix/plain.json" "$fix/plain.json"
2 rpcsim-compare "$fix/plain.json" "$fix/plain.json" -o
1 rpcsim-compare --output=/nonexistent/dir/x.txt "$fix/plain.json" "$fix/plain.json"
EOF

# The environment cases after the table: TOOL ARGS...
cat >"$tmpdir/envtable" <<'EOF'
rpcsim --requests=10 --quiet
pagebench --smoke --allocators=buddy
pagebench --smoke --allocators=buddy --json
EOF

plan_tests "$(cat "$tmpdir/table" "$tmpdir/envtable" | wc -l)"

while read -r want tool args; do
	path=$(tool_path "$tool")
	out=/dev/null
	need=
	py=
	rest=
	for a in $args; do
		case $a in
		@full) out=/dev/full ;;
		@needs=*) need=${a#@needs=} ;;
		@py) py=1 ;;
		*) rest="$rest $a" ;;
		esac
	done
	desc="$tool$rest"
	[ "$out" = /dev/full ] && desc="$desc >/dev/full"
	if [ ! -x "$path" ]; then
		skip 1 "$tool not built: $desc"
		continue
	fi
	if [ -n "$need" ] && ! "$path" --help 2>/dev/null | grep -qF -- "$need"; then
		skip 1 "$tool has no $need here: $desc"
		continue
	fi
	if [ -n "$py" ] && ! have_python; then
		skip 1 "python3 missing (it makes the trace): $desc"
		continue
	fi
	eval "set -- $rest"
	timeout -k 10 60 "$path" "$@" </dev/null >"$out" 2>"$tmpdir/err"
	st=$?
	lines=$(wc -l <"$tmpdir/err")
	why=
	if [ "$st" -ge 124 ]; then
		why="exit status $st (a signal or a timeout)"
	elif [ "$st" -ne "$want" ]; then
		why="exit status $st, not $want"
	elif [ "$lines" -ne 1 ]; then
		why="$lines lines on stderr, not 1"
	elif ! grep -q "^$tool: " "$tmpdir/err"; then
		why="the message does not start with '$tool: '"
	elif grep -q 'Sanitizer\|runtime error:' "$tmpdir/err"; then
		why="a sanitizer report"
	fi
	[ -z "$why" ]
	ok $? "$desc: exit $want, one line" ||
		diag "$why:" "$(head -c 1500 "$tmpdir/err")"
done <"$tmpdir/table"

# libpagepool names the bad spec (pagepool: ...), the tool says which
# pool it could not create; the documented status is 1 (runtime).
while read -r tool args; do
	path=$(tool_path "$tool")
	desc="PAGEPOOL_FAULT=bogus $tool $args"
	if [ ! -x "$path" ]; then
		skip 1 "$tool not built: $desc"
		continue
	fi
	# shellcheck disable=SC2086 # ARGS are plain words
	PAGEPOOL_FAULT=bogus timeout -k 10 60 "$path" $args </dev/null \
		>/dev/null 2>"$tmpdir/err"
	st=$?
	named=$(grep -c "^pagepool: PAGEPOOL_FAULT='bogus': expected" \
		"$tmpdir/err")
	why=
	if [ "$st" -ne 1 ]; then
		why="exit status $st, not 1"
	elif [ "$named" -ne 1 ]; then
		why="the spec named in $named lines, not exactly 1"
	elif [ "$(wc -l <"$tmpdir/err")" -ne 2 ] ||
	     ! grep -q "^$tool: cannot create a " "$tmpdir/err"; then
		why="not that line and the tool's own"
	fi
	[ -z "$why" ]
	ok $? "$desc: exit 1, the spec named in exactly one line" ||
		diag "$why:" "$(head -c 1500 "$tmpdir/err")"
done <"$tmpdir/envtable"

exit_status
