#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Sizes and durations, one syntax in every tool (common/number.c): a size
# is digits with k, K, KiB, m, M, MiB, g, G or GiB (powers of 1024), a
# duration a decimal number with ms, s or m.  From one table: a value
# accepted (an option's largest too) is read as the number it says (the
# JSON document's config holds it), a value refused exits 2 with one line naming the option,
# the value and the forms accepted.
#
# Table lines: TOOL OPTION=VALUE EXPECTED, where EXPECTED is "refused" or
# the config member and the number it must hold (io_size=262144).

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
# shellcheck source=tests/utils/tap.sh
. "$top_srcdir/tests/utils/tap.sh"

tap_tmpdir test-values

cat >"$tmpdir/table" <<'EOF_TABLE'
rpcsim --io-size=4096 io_size=4096
rpcsim --io-size=64k io_size=65536
rpcsim --io-size=64K io_size=65536
rpcsim --io-size=256KiB io_size=262144
rpcsim --io-size=1m io_size=1048576
rpcsim --io-size=1M io_size=1048576
rpcsim --io-size=1MiB io_size=1048576
rpcsim --pool-size=1g pool_size=1073741824
rpcsim --pool-size=1G pool_size=1073741824
rpcsim --pool-size=2GiB pool_size=2147483648
rpcsim --file-size=32MiB file_size=33554432
rpcsim --tcp-read=64k tcp_read=65536
rpcsim --tcp-read=1KiB tcp_read=1024
rpcsim --duration=2 duration_s=2
rpcsim --duration=0.5 duration_s=0.5
rpcsim --duration=500ms duration_s=0.5
rpcsim --duration=5s duration_s=5
rpcsim --duration=2m duration_s=120
rpcsim --duration=1.5m duration_s=90
rpcsim --retry-wait=0 retry_wait_us=0
rpcsim --retry-wait=250 retry_wait_us=250
rpcsim --retry-wait=5ms retry_wait_us=5000
rpcsim --retry-wait=0.01s retry_wait_us=10000
rpcsim --retry-wait=10s retry_wait_us=10000000
rpcsim --seed=18446744073709551615 seed=18446744073709551615
rpcsim --max-payload=64m max_payload=67108864
rpcsim --duration=1000000 duration_s=1000000
pagebench --run-ms=20 run_ms=20
pagebench --run-ms=0.5 run_ms=0.5
pagebench --run-ms=500ms run_ms=500
pagebench --run-ms=2s run_ms=2000
pagebench --run-ms=0.01m run_ms=600
rpcsim --io-size=64kb refused
rpcsim --io-size=64KB refused
rpcsim --io-size=64kib refused
rpcsim --io-size=64Ki refused
rpcsim --io-size=KiB refused
rpcsim --io-size=1.5k refused
rpcsim --io-size=64t refused
rpcsim --io-size=-4k refused
rpcsim --io-size=0x10k refused
rpcsim --pool-size=99999999999999999999k refused
rpcsim --pool-size=17179869184GiB refused
rpcsim --duration=5x refused
rpcsim --duration=5h refused
rpcsim --duration=5sec refused
rpcsim --duration=ms refused
rpcsim --duration=1e3ms refused
rpcsim --duration=0ms refused
rpcsim --duration=-5s refused
rpcsim --duration=5S refused
rpcsim --stop-grace=2h refused
rpcsim --interval=0.5ms refused
rpcsim --interval=5x refused
rpcsim --retry-wait=2.5 refused
rpcsim --retry-wait=5us refused
rpcsim --retry-wait=11s refused
rpcsim --retry-wait=1m refused
rpcsim --retry-wait=ms refused
pagebench --run-ms=5x refused
pagebench --run-ms=2m refused
pagebench --run-ms=0.01ms refused
pagebench --run-ms=10.5s refused
pagebench --run-ms=1e3 refused
EOF_TABLE

plan_tests "$(wc -l <"$tmpdir/table")"
while read -r tool arg expected; do
	case $tool in
	rpcsim)
		prog=$top_builddir/rpcsim/rpcsim
		# a page cache of 1 MiB (the table's --file-size comes
		# later and wins): filling the default 64 MiB was most of
		# each run
		set -- --requests=1 --threads=1 --alloc=single --file-size=1m --json ;;
	pagebench)
		prog=$top_builddir/pagebench/pagebench
		set -- --smoke --allocators=lifo --api=single --pin=off --json ;;
	esac
	opt=${arg%%=*}
	if [ ! -x "$prog" ]; then
		skip 1 "$tool is not built"
		continue
	fi
	run_cmd 60 "$prog" "$@" "$arg"
	if [ "$expected" = refused ]; then
		[ "$status" -eq 2 ] && [ ! -s "$OUT" ] &&
			[ "$(wc -l <"$ERR")" -eq 1 ] &&
			grep -qF -- "$tool: $arg: " "$ERR" &&
			grep -qF -- "expected" "$ERR" &&
			{ case $opt in
			  --run-ms|--duration|--stop-grace|--retry-wait|--interval)
				grep -qF 'ms, s or m' "$ERR" ;;
			  *)	grep -qF 'k, K, KiB, m, M, MiB, g, G or GiB' "$ERR" ;;
			  esac; }
		ok $? "$tool $arg: refused in one line naming it and the forms" ||
			diag "status $status: $(cat "$ERR")"
	elif ! have_python; then
		skip 1 "no python3 to read $tool's JSON"
	else
		[ "$status" -eq 0 ] && python3 - "$OUT" "${expected%%=*}" \
			"${expected#*=}" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
v = d["config"][sys.argv[2]]
sys.exit(0 if abs(float(v) - float(sys.argv[3])) < 1e-9 else 1)
PY
		ok $? "$tool $arg: read as $expected" ||
			diag "status $status: $(cat "$ERR")"
	fi
done <"$tmpdir/table"

exit_status
