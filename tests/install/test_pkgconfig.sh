#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The installed library, as an outside program sees it: install the
# library, its header, pagepool.pc and the man pages into a staging
# directory (make install DESTDIR=...), build tests/install/pp-outside.c
# with nothing but `pkg-config --cflags --libs pagepool` (the staging
# directory given as pkg-config's sysroot), run it against the installed
# libpagepool.so, link it again against libpagepool.a with
# `pkg-config --static --libs` (Libs.private and Requires.private must
# name what the archive needs), and uninstall without leaving a file.
# Then `make install prefix=DIR` (no DESTDIR): its pagepool.pc must point
# into DIR, and pp-outside built from it alone must run, linked
# dynamically and, where a static libc exists, fully statically (-static:
# jemalloc's libm, pthreads and dlsym, the tracepoints' dlopen).  A build
# --without-jemalloc names no jemalloc in pagepool.pc.

# shellcheck source=tests/utils/tap.sh
. "$top_srcdir/tests/utils/tap.sh"
# shellcheck source=tests/install/common.sh
. "$top_srcdir/tests/install/common.sh"

tap_tmpdir test-pkgconfig
dest=$tmpdir/dest
CC=${CC:-cc}

plan_tests 17

command -v pkg-config >/dev/null 2>&1 || skip_rest "pkg-config not found"

tree_install install DESTDIR="$dest" alloc include man
ok $? "make install DESTDIR=... of the library, header, pagepool.pc and man pages" ||
	diag "$(tail -n 20 "$tmpdir/install.log")"

pc=$(find "$dest" -name pagepool.pc | head -n 1)
[ -n "$pc" ]
ok $? "pagepool.pc is installed" || { exit_status; exit $?; }
pcdir=$(dirname "$pc")

# pc ARGS...: pkg-config on the staged tree only.
pc()
{
	PKG_CONFIG_PATH=$pcdir PKG_CONFIG_SYSROOT_DIR=$dest pkg-config "$@"
}

version=$(sed -n 's/^#define PACKAGE_VERSION "\(.*\)"$/\1/p' "$top_builddir/config.h")

# reported_ok FILE: FILE (pp-outside's output) holds its one report, its
# checks passed against this version of the library.
reported_ok()
{
	grep -qx "pp-outside: libpagepool $version, 64 pages allocated and freed: ok" \
		"$1"
}
[ "$(pc --modversion pagepool)" = "$version" ]
ok $? "pkg-config --modversion pagepool is $version" ||
	diag "$(pc --modversion pagepool 2>&1)"

cflags=$(pc --cflags pagepool) && libs=$(pc --libs pagepool)
ok $? "pkg-config --cflags --libs pagepool: $cflags $libs"

libdir=$(printf '%s\n' "$libs" | sed -n 's/.*-L\([^ ]*\).*/\1/p')
# shellcheck disable=SC2086
$CC -Wall -Wextra -Werror $san $cflags -o "$tmpdir/pp-outside" \
	"$top_srcdir/tests/install/pp-outside.c" $libs >"$tmpdir/cc.log" 2>&1
ok $? "pp-outside.c builds with the installed header and library alone (-Wall -Wextra -Werror)" ||
	diag "$(head -n 20 "$tmpdir/cc.log")"

LD_LIBRARY_PATH=$libdir timeout 60 "$tmpdir/pp-outside" >"$tmpdir/run.out" 2>&1
ok $? "pp-outside runs against the installed library" ||
	diag "$(cat "$tmpdir/run.out")"
reported_ok "$tmpdir/run.out"
ok $? "it reports the installed version and its checks" ||
	diag "$(cat "$tmpdir/run.out")"
LD_LIBRARY_PATH=$libdir ldd "$tmpdir/pp-outside" 2>/dev/null |
	grep -q "libpagepool.so.* => $libdir/"
ok $? "the library it loaded is the installed one" ||
	diag "$(LD_LIBRARY_PATH=$libdir ldd "$tmpdir/pp-outside" 2>&1)"

if [ -f "$libdir/libpagepool.a" ]; then
	static_libs=$(pc --static --libs pagepool | sed 's/-lpagepool//')
	# shellcheck disable=SC2086
	$CC $san $cflags -o "$tmpdir/pp-outside-static" \
		"$top_srcdir/tests/install/pp-outside.c" "$libdir/libpagepool.a" \
		$static_libs >"$tmpdir/cc-static.log" 2>&1 &&
		timeout 60 "$tmpdir/pp-outside-static" >"$tmpdir/static.out" 2>&1
	ok $? "linked with libpagepool.a and pkg-config --static --libs ($static_libs), it runs" ||
		diag "$(head -n 20 "$tmpdir/cc-static.log") $(cat "$tmpdir/static.out" 2>/dev/null)"
else
	skip 1 "no static library (configured with --disable-static)"
fi

missing=
for page in man1/rpcsim.1 man1/rpcsim-analyze.1 man1/rpcsim-compare.1 \
	    man1/pagebench.1 man3/pagepool.3 man3/pagepool-backend.3; do
	[ -n "$(find "$dest" -path "*/man/$page")" ] || missing="$missing $page"
done
[ -z "$missing" ]
ok $? "make install put every man page in place" || diag "missing:$missing"

tree_install uninstall DESTDIR="$dest" alloc include man
left=$(find "$dest" -type f)
[ -z "$left" ]
ok $? "make uninstall removes every file it installed" || diag "$left"

# --- make install prefix=DIR ------------------------------------------------
prefix=$tmpdir/prefix
tree_install install prefix="$prefix" alloc include &&
	[ -f "$prefix/lib/pkgconfig/pagepool.pc" ]
ok $? "make install prefix=DIR puts pagepool.pc in DIR/lib/pkgconfig" ||
	diag "$(tail -n 20 "$tmpdir/install.log")"

# pp ARGS...: pkg-config on that prefix only, no sysroot.
pp()
{
	PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config "$@"
}
[ "$(pp --variable=prefix pagepool)" = "$prefix" ] &&
	[ "$(pp --variable=libdir pagepool)" = "$prefix/lib" ] &&
	[ "$(pp --variable=includedir pagepool)" = "$prefix/include" ]
ok $? "its prefix, libdir and includedir are DIR's, not configure's" ||
	diag "$(cat "$prefix/lib/pkgconfig/pagepool.pc" 2>&1)"

# jemalloc in pagepool.pc exactly when the library has the backend; the
# static libraries come after -ljemalloc, which needs them.
requires=$(pp --print-requires-private pagepool)
static_libs=$(pp --static --libs pagepool)
if [ "${PP_WITH_JEMALLOC:-yes}" = no ]; then
	! printf '%s\n' "$requires $static_libs" | grep -q jemalloc
	ok $? "--without-jemalloc: no jemalloc in Requires.private or the libs ($static_libs)" ||
		diag "requires: $requires"
else
	printf '%s\n' "$requires" | grep -q '^jemalloc' &&
		printf '%s\n' "$static_libs" | grep -Eq -- '-ljemalloc .*-lm( |$)' &&
		printf '%s\n' "$static_libs" | grep -Eq -- '-ljemalloc .*-lpthread( |$)' &&
		printf '%s\n' "$static_libs" | grep -Eq -- '-ljemalloc .*-ldl( |$)'
	ok $? "Requires.private jemalloc; -lm, -lpthread, -ldl after -ljemalloc ($static_libs)" ||
		diag "requires: $requires"
fi

# shellcheck disable=SC2046
$CC -Wall -Wextra -Werror $san -o "$tmpdir/pp-prefix" \
	"$top_srcdir/tests/install/pp-outside.c" $(pp --cflags --libs pagepool) \
	>"$tmpdir/cc-prefix.log" 2>&1 &&
	LD_LIBRARY_PATH=$prefix/lib timeout 60 "$tmpdir/pp-prefix" >"$tmpdir/prefix.out" 2>&1 &&
	reported_ok "$tmpdir/prefix.out"
ok $? "built with pkg-config --cflags --libs on DIR alone, it runs" ||
	diag "$(head -n 20 "$tmpdir/cc-prefix.log") $(cat "$tmpdir/prefix.out" 2>/dev/null)"

# Fully static: libc.a must exist, and sanitizers do not link -static.
if [ -n "$san" ]; then
	skip 1 "a sanitizer build does not link -static"
elif [ ! -f "$prefix/lib/libpagepool.a" ]; then
	skip 1 "no static library (configured with --disable-static)"
elif ! printf 'int main(void){return 0;}\n' >"$tmpdir/empty.c" ||
     ! $CC -static -o "$tmpdir/empty" "$tmpdir/empty.c" >/dev/null 2>&1; then
	skip 1 "no static C library here (libc6-dev's libc.a)"
else
	# shellcheck disable=SC2046
	$CC -o "$tmpdir/pp-static" "$top_srcdir/tests/install/pp-outside.c" \
		$(pp --static --cflags --libs pagepool) -static \
		>"$tmpdir/cc-static2.log" 2>&1 &&
		! LC_ALL=C file "$tmpdir/pp-static" 2>/dev/null | grep -q dynamically &&
		timeout 60 "$tmpdir/pp-static" >"$tmpdir/static2.out" 2>&1 &&
		reported_ok "$tmpdir/static2.out"
	ok $? "cc ... \$(pkg-config --static --cflags --libs pagepool) -static links and runs" ||
		diag "$(grep -v 'dlopen' "$tmpdir/cc-static2.log" | head -n 20) $(cat "$tmpdir/static2.out" 2>/dev/null)"
fi

tree_install uninstall prefix="$prefix" alloc include
left=$(find "$prefix" -type f)
[ -z "$left" ]
ok $? "make uninstall prefix=DIR removes every file" || diag "$left"

exit_status
exit $?
