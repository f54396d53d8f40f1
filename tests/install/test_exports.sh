#!/bin/sh
# SPDX-License-Identifier: MIT
#
# What a distribution packages: libpagepool.so exports the functions the
# public headers declare and nothing else (nm -D against pagepool.h and
# backend.h, whose static inline helpers export nothing); alloc/
# libpagepool.map lists the same; make install puts no libtool .la file
# and no archive of the tracepoint provider in the tree; the tarball
# carries the LICENSE.

# shellcheck source=tests/utils/tap.sh
. "$top_srcdir/tests/utils/tap.sh"
# shellcheck source=tests/install/common.sh
. "$top_srcdir/tests/install/common.sh"

tap_tmpdir test-exports

plan_tests 5

# The headers' functions: declarations that start a line, not static inline.
awk '/^static/ { next }
     /^[a-z].*[^a-z0-9_]pp_[a-z0-9_]+\(/ {
	if (match($0, /pp_[a-z0-9_]+\(/))
		print substr($0, RSTART, RLENGTH - 1)
     }' "$top_srcdir/include/pagepool/pagepool.h" \
	"$top_srcdir/include/pagepool/backend.h" | sort -u >"$tmpdir/header"

so=$top_builddir/alloc/.libs/libpagepool.so
if [ ! -f "$so" ] || ! command -v nm >/dev/null 2>&1; then
	skip 2 "no $so (a static-only build) or no nm"
else
	nm -D --defined-only "$so" | awk '$2 == "T" { print $3 }' |
		sed 's/@.*//' | sort -u >"$tmpdir/exported"
	[ -s "$tmpdir/header" ] && cmp -s "$tmpdir/header" "$tmpdir/exported"
	ok $? "libpagepool.so exports exactly the headers' $(wc -l <"$tmpdir/header") functions" ||
		diag "$(diff "$tmpdir/header" "$tmpdir/exported" | head -n 20)"
	nm -D --defined-only "$so" | awk '$2 != "T" && $2 != "A" { print }' \
		>"$tmpdir/other"
	[ ! -s "$tmpdir/other" ]
	ok $? "and no data or other symbol" || diag "$(head -n 10 "$tmpdir/other")"
fi

sed -n 's/^[	 ]*\(pp_[a-z0-9_]*\);$/\1/p' "$top_srcdir/alloc/libpagepool.map" |
	sort -u >"$tmpdir/map"
cmp -s "$tmpdir/header" "$tmpdir/map"
ok $? "alloc/libpagepool.map lists the same functions" ||
	diag "$(diff "$tmpdir/header" "$tmpdir/map" | head -n 20)"

dest=$tmpdir/dest
tree_install install DESTDIR="$dest" alloc tracepoints &&
	[ -z "$(find "$dest" -name '*.la' -o -name 'libpagepool-tp*.a')" ] &&
	[ -n "$(find "$dest" -name 'libpagepool.so*')" ]
ok $? "make install: the libraries, no .la file, no tracepoint archive" ||
	diag "$(find "$dest" -type f | head -n 20; tail -n 5 "$tmpdir/install.log")"

grep -q '^DIST_COMMON = .*LICENSE\|^EXTRA_DIST = .*LICENSE' "$top_builddir/Makefile" &&
	[ -f "$top_srcdir/LICENSE" ] && grep -q '^MIT License$' "$top_srcdir/LICENSE"
ok $? "the MIT LICENSE is at the top and in the tarball (EXTRA_DIST)"
exit_status
