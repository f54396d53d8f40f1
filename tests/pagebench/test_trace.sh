#!/bin/sh
# SPDX-License-Identifier: MIT
#
# What pagebench's loops call, counted from libpagepool's tracepoints, in
# the lean profile and in the kernel one: a
# smoke run is one pass of 4 rounds to warm up, then 3 timed runs of 4
# rounds, 16 rounds per configuration, whatever the machine; each round of
# the list or array API is one bulk call of that API asking for the bulk
# size and getting it, each round of the single-page API one page; every
# page is freed, by --free's way: put, or release (pp_release_pages(),
# an mm_page_free_batched each).  A figure from the
# wrong API, the wrong way of freeing or the wrong number of pages has the
# right format; only the calls tell.  Needs LTTng (lttng-tools,
# babeltrace2) and libpagepool's probes (built with LTTng-UST).

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
# shellcheck source=tests/utils/tap.sh
. "$top_srcdir/tests/utils/tap.sh"
# shellcheck source=tests/utils/lttng.sh
. "$top_srcdir/tests/utils/lttng.sh"

PAGEBENCH=${PAGEBENCH:-$top_builddir/pagebench/pagebench}
tap_need_prog "$PAGEBENCH"
# libpagepool's probes, which a program of it preloads to be traced
probes=$top_builddir/tracepoints/.libs/libpagepool-tp.so
[ -f "$probes" ] || plan_skip_all "configured with --disable-lttng-ust"
lttng_test_isolated "$0" "$@"
plan_tests 4

tap_tmpdir test-pagebench-trace
tap_at_exit lttng_cleanup
if ! lttng_sessiond_up >"$tmpdir/sessiond.msg" 2>&1; then
	bail_out "a session daemon: $(cat "$tmpdir/sessiond.msg")"
fi

# count TEXT EVENT [FIELD]...: the events of babeltrace2's TEXT named
# EVENT whose fields hold each FIELD ("variant = ( \"list\"", ...).
count()
{
	c_text=$1 c_event=$2
	shift 2
	grep "pagepool:$c_event: " "$c_text" >"$tmpdir/ev"
	for c_field; do
		grep -F -- "$c_field" "$tmpdir/ev" >"$tmpdir/ev2"
		mv "$tmpdir/ev2" "$tmpdir/ev"
	done
	wc -l <"$tmpdir/ev" | tr -d ' '
}

# trace NAME FREE: pagebench's single, list and array APIs of the buddy
# pool at bulk 8, freed by FREE, recorded into $tmpdir/NAME: once in each
# profile, lean and kernel, whose allocators fire the events from code of
# their own (alloc/alloc.c, alloc/kernel_alloc.c).
trace()
{
	tr_name=$1 tr_free=$2
	tr_run()
	{
		for tr_profile in lean kernel; do
			LD_PRELOAD=$probes run_cmd 60 "$PAGEBENCH" --smoke \
				--pin=off --profile=$tr_profile \
				--allocators=buddy --api=all --bulk=8 \
				--free="$tr_free" || return
		done
	}
	lttng_record "$tr_name" "$tmpdir/$tr_name" \
		"--subbuf-size=1M --num-subbuf=4" "pagepool:*" none -- tr_run
}

for free in put release; do
	trace "$free" "$free"
	st=$?
	babeltrace2 "$tmpdir/$free" >"$tmpdir/$free.txt" 2>"$tmpdir/bt.err" || st=$?
	list=$(count "$tmpdir/$free.txt" mm_page_alloc_bulk 'variant = ( "list"')
	array=$(count "$tmpdir/$free.txt" mm_page_alloc_bulk 'variant = ( "array"')
	whole=$(count "$tmpdir/$free.txt" mm_page_alloc_bulk 'requested = 8' 'populated = 0' 'allocated = 8')
	single=$(count "$tmpdir/$free.txt" mm_page_alloc 'order = 0')
	put=$(count "$tmpdir/$free.txt" mm_page_free 'order = 0')
	batched=$(count "$tmpdir/$free.txt" mm_page_free_batched)
	echo "$single $put $batched" >"$tmpdir/$free.freed"
	[ "$st" -eq 0 ] && [ "$list" -eq 32 ] && [ "$array" -eq 32 ] && [ "$whole" -eq 64 ]
	ok $? "--free=$free, each profile: 16 rounds of each bulk API, each one call asking for 8 pages and getting them" ||
		diag "record $st: list $list, array $array, whole $whole; $(cat "$ERR" "$tmpdir/bt.err")"
done
# The single-page rows: 16 pages, each put (pp_put_page()) whatever
# --free says.  Every page freed is an mm_page_free (16 + 2 x 16 x 8);
# those of pp_release_pages() also an mm_page_free_batched.  Twice: one
# run per profile.  Each file: single pages, pages freed, pages released.
[ "$(cat "$tmpdir/put.freed")" = "32 544 0" ]
ok $? "--free=put, each profile: 16 single pages, every page freed (16 + 256), none released" ||
	diag "$(cat "$tmpdir/put.freed")"
[ "$(cat "$tmpdir/release.freed")" = "32 544 512" ]
ok $? "--free=release, each profile: 16 single pages, every page freed, the 256 of the bulk rounds released" ||
	diag "$(cat "$tmpdir/release.freed")"

exit_status
