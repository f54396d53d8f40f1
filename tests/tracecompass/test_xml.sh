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
# Then each file against Trace Compass's own schema (xmlDefinition.xsd and
# the files it includes), with xmllint, and a copy with an element out of
# place must be refused: the schema is Trace Compass's, not the
# project's, so it is taken from an installed Trace Compass (the
# org.eclipse.tracecompass.tmf.analysis.xml.core plug-in's jar, looked for
# under $TRACECOMPASS_HOME, /opt, /usr/lib and /usr/share) or from
# $TRACECOMPASS_XSD (a path to xmlDefinition.xsd, its includes beside it);
# without either, or without xmllint, those tests are skipped, saying so.
# Needs python3 only (xml.etree) for the rest.

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
# shellcheck source=tests/utils/tap.sh
. "$top_srcdir/tests/utils/tap.sh"

have_python || plan_skip_all "python3 missing"

check=$top_srcdir/tests/tracecompass/check_xml.py
headers="$top_srcdir/tracepoints/rpcsim_tp.h $top_srcdir/tracepoints/pagepool_tp.h $top_srcdir/tracepoints/page_pool_tp.h"
latency=$top_srcdir/tracecompass/rpcsim-latency.xml
threads=$top_srcdir/tracecompass/rpcsim-threads.xml
bulk=$top_srcdir/tracecompass/rpcsim-bulk.xml
pagepool=$top_srcdir/tracecompass/rpcsim-page-pool.xml
tap_tmpdir tc-xml

plan_tests 37

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

# 2. The shipped files: every one of tracecompass/*.xml is named above.
for f in "$top_srcdir"/tracecompass/*.xml; do echo "$f"; done | sort >"$tmpdir/shipped"
printf '%s\n' "$latency" "$threads" "$bulk" "$pagepool" | sort >"$tmpdir/named"
cmp -s "$tmpdir/shipped" "$tmpdir/named"
ok $? "the test names every analysis in tracecompass/" ||
	diag "$(diff "$tmpdir/named" "$tmpdir/shipped")"
for f in "$latency" "$threads" "$bulk" "$pagepool"; do
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
for f in "$threads" "$bulk" "$pagepool"; do
	grep -q '<stateProvider ' "$f" && grep -q '<timeGraphView ' "$f"
	ok $? "$(basename "$f") is a state provider with a time graph view"
done
# Per process: every row the views show is under Processes/<vpid>.
for f in "$threads" "$bulk" "$pagepool"; do
	python3 - "$f" >"$tmpdir/out" 2>&1 <<'PY'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
sp = root.find("stateProvider")
locs = {l.attrib["id"]: l for l in sp.findall("location")}
def flat(attrs):
    out = []
    for a in attrs:
        if a.attrib["type"] == "location":
            out += flat(locs[a.attrib["value"]].findall("stateAttribute"))
        else:
            out.append((a.attrib["type"], a.attrib.get("value")))
    return out
bad = []
for sc in sp.iter("stateChange"):
    attrs = sc.findall("stateAttribute")
    if not attrs:
        continue
    path = flat(attrs)
    if path[:2] != [("constant", "Processes"), ("eventField", "context._vpid")]:
        bad.append("a state change outside Processes/<vpid>: %s" % path)
top = [e.attrib["path"] for e in root.find("timeGraphView").findall("entry")]
if top != ["Processes/*"]:
    bad.append("top-level view entries %s" % top)
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
	ok $? "$(basename "$f"): every attribute and row is under Processes/<vpid>" ||
		diag "$(cat "$tmpdir/out")"
done

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
refused "$latency" 's/context\._vtid/context._vppid/' \
	"context._vppid" "a context the traces do not have"
refused "$latency" 's/cond="same_thread"/cond="same_cpu"/' \
	"same_cpu" "a transition naming an undefined test"
refused "$threads" 's/eventName="rpcsim:request"/eventName="rpcsim:requests"/' \
	"rpcsim:requests" "an unknown event in an event handler"
refused "$threads" 's/value="mode_name"/value="mode_label"/' \
	"mode_label" "an unknown field in a state value"
# shellcheck disable=SC2016 # a literal $ in the XML
refused "$threads" 's/value="\$WAITING"/value="$BLOCKED"/' \
	"\$BLOCKED" "an undefined value"
refused "$threads" 's/context\._procname/context._comm/' \
	"context._comm" "a process name context the traces do not have"
refused "$bulk" 's/eventName="pagepool:mm_page_alloc_bulk"/eventName="pagepool:mm_page_alloc_bulks"/' \
	"pagepool:mm_page_alloc_bulks" "an unknown bulk event"
refused "$bulk" 's/<field name="fallback" \/>/<field name="fallback_reason" \/>/' \
	"fallback_reason" "an unknown field in a condition"
refused "$bulk" 's/value="filled" \/>/value="filed" \/>/' \
	"filed" "an unknown location"
refused "$pagepool" 's/value="inflight" forcedType/value="in_flight" forcedType/' \
	"in_flight" "an unknown page_pool field"
refused "$pagepool" 's/eventName="page_pool:page_pool_state_hold"/eventName="page_pool:page_pool_hold"/' \
	"page_pool:page_pool_hold" "an unknown page_pool event"

# 4. Trace Compass's schema, from an installed Trace Compass or
# $TRACECOMPASS_XSD.
xsd=
find_xsd()
{
	if [ -n "${TRACECOMPASS_XSD:-}" ]; then
		xsd=$TRACECOMPASS_XSD
		return
	fi
	for d in ${TRACECOMPASS_HOME:-} $(find /opt /usr/lib /usr/share \
		-maxdepth 2 -iname '*trace*compass*' 2>/dev/null); do
		found=$(find "$d" \( -name xmlDefinition.xsd -o \
			-name 'org.eclipse.tracecompass.tmf.analysis.xml.core_*.jar' \) \
			2>/dev/null | sort | tail -n 1)
		[ -n "$found" ] && break
	done
	case $found in
	'') return ;;
	*.xsd) xsd=$found; return ;;
	esac
	# The schema files sit together in the plug-in's jar.
	python3 - "$found" "$tmpdir/xsd" <<'PY' || return
import os, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
names = z.namelist()
top = [n for n in names if n.endswith("/xmlDefinition.xsd")]
if not top:
    sys.exit(1)
folder = top[0][:-len("xmlDefinition.xsd")]
os.makedirs(sys.argv[2])
for n in names:
    if n.startswith(folder) and n.endswith(".xsd") and "/" not in n[len(folder):]:
        with open(os.path.join(sys.argv[2], n[len(folder):]), "wb") as f:
            f.write(z.read(n))
PY
	xsd=$tmpdir/xsd/xmlDefinition.xsd
}
find_xsd
if ! command -v xmllint >/dev/null 2>&1; then
	skip 5 "xmllint missing (apt-get install libxml2-utils): not validated against Trace Compass's schema"
elif [ -z "$xsd" ] || [ ! -f "$xsd" ]; then
	skip 5 "no Trace Compass schema here (set TRACECOMPASS_XSD to its xmlDefinition.xsd, or TRACECOMPASS_HOME to a Trace Compass install): not validated against it"
else
	diag "Trace Compass's schema: $xsd"
	for f in "$latency" "$threads" "$bulk" "$pagepool"; do
		xmllint --noout --schema "$xsd" "$f" >"$tmpdir/out" 2>&1
		ok $? "$(basename "$f") is valid against Trace Compass's schema" ||
			diag "$(cat "$tmpdir/out")"
	done
	sed 's/<entry path="Run" displayText="true">/<entry path="Run" displayText="yes">/' \
		"$threads" >"$tmpdir/bad.xml"
	! cmp -s "$threads" "$tmpdir/bad.xml" &&
		! xmllint --noout --schema "$xsd" "$tmpdir/bad.xml" >"$tmpdir/out" 2>&1 &&
		grep -q displayText "$tmpdir/out"
	ok $? "a copy the schema does not allow (displayText=\"yes\") is refused" ||
		diag "$(cat "$tmpdir/out")"
fi

exit_status
