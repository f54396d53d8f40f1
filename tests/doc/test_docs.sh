#!/bin/sh
# SPDX-License-Identifier: MIT
#
# README.md as a front page and doc/ behind it: the quick start holds
# exactly its two command lines, the one that sets everything up and runs
# the seed's benchmark and the one that runs the tests; the front page
# stays short; every relative link of README.md and doc/ leads to a file
# that exists (in the tarball too: make distcheck-quick runs this test)
# and, with an anchor, to a heading of it; doc/README.md indexes every
# document; each dated result in doc/results/ is linked from a document
# and names its commit and its command; every document is listed in
# Makefile.am, so that the tarball carries it.  Needs python3
# (tests/doc/check_docs.py).

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
# shellcheck source=tests/utils/tap.sh
. "$top_srcdir/tests/utils/tap.sh"

have_python || plan_skip_all "python3 missing"

check=$top_srcdir/tests/doc/check_docs.py
tap_tmpdir test-docs

plan_tests 6

cd "$top_srcdir" || bail_out "cannot enter $top_srcdir"

python3 "$check" quickstart README.md >"$tmpdir/quick" 2>&1
printf '%s\n' 'scripts/setup.sh && build/rpcsim/rpcsim --alloc=array' \
	'make -C build check' >"$tmpdir/quick.expected"
cmp -s "$tmpdir/quick" "$tmpdir/quick.expected"
ok $? "README.md's quick start is its two command lines" ||
	diag "expected:" "$(cat "$tmpdir/quick.expected")" "found:" "$(cat "$tmpdir/quick")"

lines=$(wc -l <README.md)
[ "$lines" -le 250 ]
ok $? "README.md is a front page of at most 250 lines ($lines)"

docs=$(find doc -name '*.md' | LC_ALL=C sort)
[ -n "$docs" ] && [ -f doc/README.md ]
ok $? "doc/ holds the documents and their index, doc/README.md" ||
	diag "found: $docs"

# shellcheck disable=SC2086 # $docs is a list of paths without spaces
python3 "$check" links README.md $docs >"$tmpdir/links" 2>&1
ok $? "every relative link of README.md and doc/ leads to a file and heading" ||
	diag "$(cat "$tmpdir/links")"

python3 "$check" index doc >"$tmpdir/index" 2>&1
ok $? "doc/README.md indexes every document; each result is linked, with commit and command" ||
	diag "$(cat "$tmpdir/index")"

missing=
for f in $docs; do
	grep -Eq "^[[:space:]]*$f( \\\\)?\$" Makefile.am || missing="$missing $f"
done
[ -z "$missing" ]
ok $? "Makefile.am lists every document for the tarball" ||
	diag "not in Makefile.am:$missing"

exit_status
