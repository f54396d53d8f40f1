#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The one --version line of every tool (common/tool.c's
# tool_print_version()): "NAME (pagepool) VERSION", then for each part it
# was built with ", PART VERSION" or ", without PART"; exit status 0,
# nothing on stderr, one line.  The four tools against one pattern, and
# each names the parts it is about.

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
# shellcheck source=tests/utils/tap.sh
. "$top_srcdir/tests/utils/tap.sh"

tap_tmpdir test-version

pattern='^[a-z-]+ \(pagepool\) [0-9]+\.[0-9]+\.[0-9]+(, ([A-Za-z0-9_.+-]+ [0-9][0-9A-Za-z.+~-]*|without [A-Za-z0-9_.+-]+))*$'

plan_tests 8
for t in rpcsim/rpcsim:rpcsim:libpagepool \
	 analyze/rpcsim-analyze:rpcsim-analyze:libbabeltrace2 \
	 compare/rpcsim-compare:rpcsim-compare:json-c \
	 pagebench/pagebench:pagebench:libpagepool; do
	path=${t%%:*}
	rest=${t#*:}
	name=${rest%%:*}
	part=${rest#*:}
	if [ ! -x "$top_builddir/$path" ]; then
		skip 2 "$name is not built"
		continue
	fi
	run_cmd 20 "$top_builddir/$path" --version
	[ "$status" -eq 0 ] && [ ! -s "$ERR" ] && [ "$(wc -l <"$OUT")" -eq 1 ] &&
		grep -Eq "$pattern" "$OUT"
	ok $? "$name --version: one line of the tools' one form" ||
		diag "$(cat "$OUT" "$ERR")"
	grep -Eq "^$name \\(pagepool\\) [^,]*, ($part [0-9]|without $part)" "$OUT"
	ok $? "$name --version: its own name, then $part"
done

exit_status
