#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Backend plugins as a user builds them: install the library, its headers
# and pagepool.pc into a staging directory (make install DESTDIR=...),
# build examples/backend-lifo with its own Makefile and nothing but
# `pkg-config --cflags --libs pagepool`, and run rpcsim and pagebench with
# --backend=plugin:PATH on it (rpcsim's leak check included, debug checks
# on and off).  Then the loader's and the adapter's refusals, with
# tests/install/bad-plugin.c: another ABI version (both versions named,
# exit 1), a missing object (exit 1), a page handed out twice, a page
# outside the pool, more pages than slots (each a bad-page report naming
# the plugin, and abort), a slot written past the count returned (a hole
# still), a table without free (exit 1), pages kept past fini (the leak
# check fails), an init that fails keeping pages (exit 1, the pages
# named).

# shellcheck source=tests/utils/tap.sh
. "$top_srcdir/tests/utils/tap.sh"
# shellcheck source=tests/install/common.sh
. "$top_srcdir/tests/install/common.sh"

tap_tmpdir test-plugin
dest=$tmpdir/dest
CC=${CC:-cc}
rpcsim=$top_builddir/rpcsim/rpcsim
pagebench=$top_builddir/pagebench/pagebench

plan_tests 21

command -v pkg-config >/dev/null 2>&1 || skip_rest "pkg-config not found"

tree_install install DESTDIR="$dest" alloc include
installed=$?
pc=$(find "$dest" -name pagepool.pc | head -n 1)
[ "$installed" -eq 0 ] && [ -n "$pc" ] &&
	[ -n "$(find "$dest" -path '*/include/pagepool/backend.h')" ]
ok $? "make install DESTDIR=... puts the library, <pagepool/backend.h> and pagepool.pc in place" || {
	diag "$(tail -n 20 "$tmpdir/install.log")"
	skip_rest "nothing installed to build against"
}
export PKG_CONFIG_SYSROOT_DIR="$dest"
unset PKG_CONFIG_PATH

# The example as a user has it: a copy of its folder, its own Makefile,
# run as its README says, PKG_CONFIG_PATH on make's command line (which
# make's $(shell) does not see before GNU make 4.4).  Without it,
# pkg-config's message says what is missing.
cp -R "$top_srcdir/examples/backend-lifo" "$tmpdir/lifo" && chmod -R u+w "$tmpdir/lifo"
submake -C "$tmpdir/lifo" CC="$CC" >"$tmpdir/lifo-none.log" 2>&1
[ $? -ne 0 ] && grep -q "pagepool.pc" "$tmpdir/lifo-none.log" &&
	[ ! -f "$tmpdir/lifo/backend-lifo.so" ]
ok $? "examples/backend-lifo without pagepool.pc: make fails with pkg-config's message" ||
	diag "$(head -n 5 "$tmpdir/lifo-none.log")"
submake -C "$tmpdir/lifo" CC="$CC" CFLAGS="-O2 -Wall -Wextra -Werror $san" \
	PKG_CONFIG_PATH="${pc%/*}" \
	>"$tmpdir/lifo.log" 2>&1 && [ -f "$tmpdir/lifo/backend-lifo.so" ]
ok $? "examples/backend-lifo builds with make PKG_CONFIG_PATH=... against the installed copy (-Wall -Wextra -Werror)" ||
	diag "$(head -n 20 "$tmpdir/lifo.log")"
export PKG_CONFIG_PATH="${pc%/*}"
lifo=$tmpdir/lifo/backend-lifo.so

# run NAME PROGRAM ARGS...: PROGRAM's output into $tmpdir/NAME.out and
# .err, its exit status in $status (and returned).
run()
{
	r_name=$1
	shift
	timeout 120 "$@" >"$tmpdir/$r_name.out" 2>"$tmpdir/$r_name.err"
	status=$?
	return $status
}

# ran NAME DESCRIPTION: the check that run NAME exited 0, the end of its
# stderr shown if not.
ran()
{
	[ "$status" -eq 0 ]
	ok $? "$2" || diag "$(tail -n 5 "$tmpdir/$1.err")"
}

# exited NAME STATUS PATTERN...: run NAME exited STATUS, and each PATTERN
# (grep) matches a line of its stderr; its status and stderr shown if not.
exited()
{
	ex_name=$1
	ex_status=$2
	shift 2
	if [ "$status" = "$ex_status" ] && file_has "$tmpdir/$ex_name.err" "$@"; then
		return 0
	fi
	diag "exit $status: $(cat "$tmpdir/$ex_name.err")"
	return 1
}

run lifo "$rpcsim" --backend=plugin:"$lifo" --requests=3000 --threads=2
ran lifo "rpcsim --backend=plugin:backend-lifo.so runs, every page back at the end"
file_has "$tmpdir/lifo.out" "^SUMMARY alloc=array backend=plugin " \
	"allocator:  backend plugin $lifo" "backend:   backend_grow [1-9]"
ok $? "its report names the plugin, and the plugin took pages from the zone" ||
	diag "$(grep -E 'SUMMARY|allocator:|backend:' "$tmpdir/lifo.out")"

run json "$rpcsim" --backend=plugin:"$lifo" --requests=500 --json
[ $? = 0 ] && python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))["config"]
sys.exit(not (c["backend"] == "plugin" and c["plugin"] == sys.argv[2]))' \
	"$tmpdir/json.out" "$lifo"
ok $? "its JSON result names the plugin's path, not only \"plugin\"" ||
	diag "$(head -c 600 "$tmpdir/json.out")"

PAGEPOOL_DEBUG=1 run debug "$rpcsim" --backend=plugin:"$lifo" \
	--requests=1000 --threads=2 --alloc=all
ran debug "the same with the debug checks on (poison, page states) in every alloc mode"

run bench "$pagebench" --backend=plugin:"$lifo" --allocators=lifo --smoke
ran bench "pagebench --backend=plugin:backend-lifo.so --smoke runs"
file_has "$tmpdir/bench.out" "^plugin  *array  *[0-9]" \
	"^plugin  *list  *[0-9]" "plugin backend: $lifo"
ok $? "its table has the plugin's single, list and array rows" ||
	diag "$(grep plugin "$tmpdir/bench.out")"

# bad NAME CFLAGS...: tests/install/bad-plugin.c as $tmpdir/NAME.so.
bad()
{
	b_name=$1
	shift
	# shellcheck disable=SC2046,SC2086
	$CC -Wall -Wextra -Werror $san "$@" $(pkg-config --cflags pagepool) \
		-fPIC -shared -o "$tmpdir/$b_name.so" \
		"$top_srcdir/tests/install/bad-plugin.c" \
		$(pkg-config --libs pagepool) >>"$tmpdir/bad.log" 2>&1
}

bad abi -DBAD_PLUGIN_ABI=99 && bad bad
ok $? "bad-plugin.c builds, once claiming ABI version 99" ||
	diag "$(head -n 20 "$tmpdir/bad.log")"

run abi "$rpcsim" --backend=plugin:"$tmpdir/abi.so" --requests=100
exited abi 1 "backend plugin $tmpdir/abi.so: ABI version 99 .*this libpagepool has ABI version 1 "
ok $? "another ABI version: rpcsim exits 1, the message names both versions"

run abi-bench "$pagebench" --backend=plugin:"$tmpdir/abi.so" --allocators=lifo --smoke
exited abi-bench 1 "ABI version 99"
ok $? "and pagebench exits 1 with the same cause"

run missing "$rpcsim" --backend=plugin:"$tmpdir/none.so" --requests=100
exited missing 1 "backend plugin $tmpdir/none.so: .*cannot open shared object"
ok $? "a plugin that cannot be loaded: exit 1, dlopen()'s cause"

run usage "$rpcsim" --backend=plugin:
[ $status = 2 ] && [ "$(wc -l <"$tmpdir/usage.err")" -eq 1 ] &&
	grep -q "^rpcsim: --backend=plugin:: expected plugin:PATH.so" "$tmpdir/usage.err"
ok $? "--backend=plugin: without a path is a one-line usage error, exit 2" ||
	diag "exit $status: $(cat "$tmpdir/usage.err")"

# caught MODE REASON: the bad plugin's MODE is reported and aborts.
caught()
{
	PP_BAD_PLUGIN=$1 run "$1" "$rpcsim" --backend=plugin:"$tmpdir/bad.so" \
		--requests=100 --threads=1
	c_status=$?
	[ $c_status -gt 128 ] && [ $c_status -ne 137 ] &&
		grep -q "^pagepool: BUG: .*pp_alloc_pages_bulk_array (backend plugin bad, $tmpdir/bad.so)" "$tmpdir/$1.err" &&
		grep -q "$2" "$tmpdir/$1.err"
}

caught twice "bad because: the plugin handed out a page that is in use (handed out twice)"
ok $? "a page handed out twice is a bad page naming the plugin" ||
	diag "$(cat "$tmpdir/twice.err")"
caught outside "is not a page descriptor of pool"
ok $? "a page outside the pool is a bad pointer naming the plugin" ||
	diag "$(cat "$tmpdir/outside.err")"
caught count "the plugin returned [0-9]* pages for [0-9]* slots"
ok $? "more pages than slots is refused, naming the plugin" ||
	diag "$(cat "$tmpdir/count.err")"

# The page the fill gave back is the zone's: left in the caller's slot,
# rpcsim would put a free page (a bad page, abort).
PP_BAD_PLUGIN=scribble run scribble "$rpcsim" --backend=plugin:"$tmpdir/bad.so" \
	--requests=100 --threads=1
ran scribble "a fill that writes a slot past the count it returns: the slot stays a hole, the run ends clean"

bad nofree -DBAD_PLUGIN_NO_FREE || diag "$(tail -n 20 "$tmpdir/bad.log")"
run nofree "$rpcsim" --backend=plugin:"$tmpdir/nofree.so" --requests=100
exited nofree 1 "backend plugin $tmpdir/nofree.so: its table lacks one of name, init, fini, alloc, free"
ok $? "a table without free: rpcsim exits 1, the loader names the callbacks it needs"

PP_BAD_PLUGIN=keep run keep "$rpcsim" --backend=plugin:"$tmpdir/bad.so" \
	--requests=100 --threads=1
[ $status != 0 ] &&
	grep -q "backend plugin bad ($tmpdir/bad.so) kept [0-9]* pages after fini" "$tmpdir/keep.err"
ok $? "pages a plugin keeps past fini fail rpcsim's leak check" ||
	diag "exit $status: $(tail -n 5 "$tmpdir/keep.err")"

PP_BAD_PLUGIN=initfail run initfail "$rpcsim" --backend=plugin:"$tmpdir/bad.so" \
	--requests=100 --threads=1
exited initfail 1 "backend plugin bad ($tmpdir/bad.so): init: Input/output error" \
	"backend plugin bad ($tmpdir/bad.so): init failed and kept 3 pages taken from the zone"
ok $? "an init that fails: exit 1 with its error, and the pages it kept are named"

tree_install uninstall DESTDIR="$dest" alloc include

exit_status
exit $?
