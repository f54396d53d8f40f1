#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The Trace Compass XML analyses (tracecompass/*.xml): each is well formed
# and holds Trace Compass's data-driven elements only, every id it uses is
# defined in it, and every event, field and context it reads exists in
# the LTTng-UST providers (tracepoints/*_tp.h, parsed by check_xml.py).
# Then copies with one wrong name each (event, field, context, test,
# defined value) must be refused, naming it, so that a rename in the
# providers fails here; and the header parser must find a field declared
# as an enumeration (lttng_ust_field_enum) as well as an integer one.
# Needs python3 only (xml.etree).

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
# shellcheck source=tests/utils/tap.sh
. "$top_srcdir/tests/utils/tap.sh"

have_python || plan_skip_all "python3 missing"

check=$top_srcdir/tests/tracecompass/check_xml.py
headers="$top_srcdir/tracepoints/rpcsim_tp.h $top_srcdir/tracepoints/pagepool_tp.h"
latency=$top_srcdir/tracecompass/rpcsim-latency.xml
threads=$top_srcdir/tracecompass/rpcsim-threads.xml
tap_tmpdir tc-xml

plan_tests 16

# 1. The header parser: the events the analyses need, with their fields.
# shellcheck disable=SC2086 # $headers is two paths
python3 "$check" --names $headers -- >"$tmpdir/names" 2>&1
grep -q '^rpcsim:svc_alloc_arg_entry .*\bmode\b' "$tmpdir/names" &&
	grep -q '^rpcsim:svc_alloc_arg_exit .*\blatency_ns\b' "$tmpdir/names" &&
	grep -q '^pagepool:mm_page_alloc_bulk .*\bpopulated\b' "$tmpdir/names"
ok $? "the providers' events and fields are read from the headers" ||
	diag "$(cat "$tmpdir/names")"

# An enumeration field (what mode may become) is found by its name.
cat >"$tmpdir/enum_tp.h" <<'H'
LTTNG_UST_TRACEPOINT_ENUM(demo, mode_enum,
	LTTNG_UST_TP_ENUM_VALUES(
		lttng_ust_field_enum_value("single", 0)
		lttng_ust_field_enum_value("list", 1)))
LTTNG_UST_TRACEPOINT_EVENT(demo, ev,
	LTTNG_UST_TP_ARGS(unsigned int, m, unsigned int, n),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_enum(demo, mode_enum, unsigned int, mode, m)
		lttng_ust_field_integer(unsigned int, count, n)
	)
)
LTTNG_UST_TRACEPOINT_LOGLEVEL(demo, ev, LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG)
H
python3 "$check" --names "$tmpdir/enum_tp.h" -- >"$tmpdir/enum-names" 2>&1
[ "$(cat "$tmpdir/enum-names")" = "demo:ev count mode" ]
ok $? "lttng_ust_field_enum and _integer fields are found by name" ||
	diag "$(cat "$tmpdir/enum-names")"

# 2. The shipped files.
for f in "$latency" "$threads"; do
	python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' \
		"$f" 2>"$tmpdir/err"
	ok $? "$(basename "$f") is well formed" || diag "$(cat "$tmpdir/err")"
	# shellcheck disable=SC2086
	python3 "$check" $headers -- "$f" >"$tmpdir/out" 2>&1
	ok $? "$(basename "$f"): every id, event, field and context is known" ||
		diag "$(cat "$tmpdir/out")"
done
grep -q '<pattern ' "$latency" && grep -q '<segment>' "$latency"
ok $? "rpcsim-latency.xml is a pattern analysis that makes segments"
grep -q '<stateProvider ' "$threads" && grep -q '<timeGraphView ' "$threads"
ok $? "rpcsim-threads.xml is a state provider with a time graph view"

# 3. One wrong name at a time must be refused, and named.
# refused FILE SED-EXPRESSION NAME DESCRIPTION
refused()
{
	sed "$2" "$1" >"$tmpdir/bad.xml"
	if cmp -s "$1" "$tmpdir/bad.xml"; then
		fail "$4 (the sed expression changed nothing)"
		return
	fi
	# shellcheck disable=SC2086
	python3 "$check" $headers -- "$tmpdir/bad.xml" >"$tmpdir/out" 2>&1
	st=$?
	[ $st -eq 1 ] && grep -qF -- "$3" "$tmpdir/out"
	ok $? "$4 is refused, naming $3" || diag "exit $st" "$(cat "$tmpdir/out")"
}
refused "$latency" 's/"rpcsim:svc_alloc_arg_exit" cond/"rpcsim:svc_alloc_arg_done" cond/' \
	"rpcsim:svc_alloc_arg_done" "an unknown event in a transition"
refused "$latency" 's/value="latency_ns"/value="latency_us"/' \
	"latency_us" "an unknown exit field in a segment"
refused "$latency" 's/<field name="mode" \/>/<field name="alloc_mode" \/>/' \
	"alloc_mode" "an unknown entry field in a test"
refused "$latency" 's/context\._vtid/context._vpid/' \
	"context._vpid" "a context the traces do not have"
refused "$latency" 's/cond="same_thread"/cond="same_cpu"/' \
	"same_cpu" "a transition naming an undefined test"
refused "$threads" 's/eventName="rpcsim:request"/eventName="rpcsim:requests"/' \
	"rpcsim:requests" "an unknown event in an event handler"
refused "$threads" 's/value="mode_name"/value="mode_label"/' \
	"mode_label" "an unknown field in a state value"
# shellcheck disable=SC2016 # a literal $ in the XML
refused "$threads" 's/value="\$WAITING"/value="$BLOCKED"/' \
	"\$BLOCKED" "an undefined value"

exit_status
