#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The man pages against the programs they describe: every long and short
# option each program's --help lists, and every environment variable it
# names, appears in its page; each page has the usual sections; groff
# formats every page without a warning; pagepool(3) names every function
# of <pagepool/pagepool.h>.  A program that is built without a man page
# fails here.

# shellcheck source=tests/utils/tap.sh
. "$top_srcdir/tests/utils/tap.sh"

man=$top_srcdir/man
tap_tmpdir test-man

programs="rpcsim/rpcsim analyze/rpcsim-analyze compare/rpcsim-compare
pagebench/pagebench"
pages="rpcsim.1 rpcsim-analyze.1 rpcsim-compare.1 pagebench.1 pagepool.3
pagepool-backend.3"

plan_tests $((4 * 4 + 2 + 6))

# text PAGE: the roff source with \- as -, \e as \ and font escapes
# removed, so that options read as they are typed.
text()
{
	sed -e 's/\\-/-/g' -e 's/\\e/\\/g' -e 's/\\f[BIRP]//g' "$1"
}

# sections PAGE NAME...: every .SH NAME is in the page.
sections()
{
	s_page=$1
	shift
	s_missing=
	for s in "$@"; do
		grep -qx "\\.SH \"*$s\"*" "$s_page" || s_missing="$s_missing '$s'"
	done
	[ -z "$s_missing" ] || { diag "$(basename "$s_page") lacks$s_missing"; return 1; }
}

for p in $programs; do
	name=$(basename "$p")
	page=$man/$name.1
	if [ ! -x "$top_builddir/$p" ]; then
		skip 4 "$name not built here"
		continue
	fi
	[ -f "$page" ]
	ok $? "$name is built and has a man page, man/$name.1" || {
		skip 3 "no man/$name.1"
		continue
	}
	"$top_builddir/$p" --help >"$tmpdir/help" 2>&1 ||
		diag "$name --help exited $?"
	text "$page" >"$tmpdir/page"

	missing=
	for o in $(grep -oE -- '(^|[ ,[])--[a-z][a-z0-9-]*' "$tmpdir/help" |
		   sed 's/^[ ,[]//' | sort -u); do
		grep -qE -- "$o([^a-z0-9-]|\$)" "$tmpdir/page" || missing="$missing $o"
	done
	[ -z "$missing" ]
	ok $? "man/$name.1 documents every long option of $name --help" ||
		diag "missing:$missing"

	missing=
	for o in $(grep -oE -- '^ +-[a-zA-Z], --' "$tmpdir/help" |
		   sed 's/^ *\(-[a-zA-Z]\).*/\1/' | sort -u); do
		grep -qE -- "(^|[^a-zA-Z-])$o([^a-zA-Z]|\$)" "$tmpdir/page" ||
			missing="$missing $o"
	done
	[ -z "$missing" ]
	ok $? "man/$name.1 documents every short option of $name --help" ||
		diag "missing:$missing"

	missing=
	for v in $(grep -oE '(^|[ (:])[A-Z][A-Z0-9]*_[A-Z0-9_]+=' "$tmpdir/help" |
		   sed 's/^[ (:]//; s/=$//' | sort -u); do
		awk '/^\.SH ENVIRONMENT/ { on = 1; next } /^\.SH/ { on = 0 } on' \
			"$tmpdir/page" | grep -q "$v" || missing="$missing $v"
	done
	sections "$page" NAME SYNOPSIS DESCRIPTION OPTIONS OUTPUT \
		"EXIT STATUS" ENVIRONMENT EXAMPLES "SEE ALSO" &&
		[ -z "$missing" ]
	ok $? "man/$name.1 has the usual sections and, under ENVIRONMENT, every variable --help names" ||
		diag "variables missing:$missing"
done

# pagepool(3): every function the header declares or defines inline.
header=$top_srcdir/include/pagepool/pagepool.h
funcs=$(grep -E '^[a-z].*[ *]pp_[a-z0-9_]+\(' "$header" |
	sed -E 's/.*[ *](pp_[a-z0-9_]+)\(.*/\1/' | sort -u)
missing=
for f in $funcs; do
	grep -q "^\\.B.* \"*\\**$f(" "$man/pagepool.3" || missing="$missing $f"
done
[ -n "$funcs" ] && [ -z "$missing" ]
ok $? "pagepool.3's SYNOPSIS has all $(echo $funcs | wc -w) functions of pagepool.h" ||
	diag "missing:$missing"
sections "$man/pagepool.3" NAME LIBRARY SYNOPSIS DESCRIPTION "RETURN VALUE" \
	ERRORS ATTRIBUTES ENVIRONMENT EXAMPLES "SEE ALSO"
ok $? "pagepool.3 has the usual sections of a library page"

for page in $pages; do
	if [ ! -f "$man/$page" ]; then
		fail "man/$page exists"
		continue
	fi
	if ! command -v groff >/dev/null 2>&1; then
		skip 1 "groff not installed"
		continue
	fi
	groff -man -Tutf8 -ww -z "$man/$page" >"$tmpdir/groff" 2>&1 &&
		[ ! -s "$tmpdir/groff" ]
	ok $? "groff -man -ww formats man/$page without a warning" ||
		diag "$(head -n 5 "$tmpdir/groff")"
done

exit_status
exit $?
