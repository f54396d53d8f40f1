#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The USDT probes (tracepoints/usdt.h): read from the ELF notes
# (.note.stapsdt) of libpagepool.so and rpcsim, every LTTng event of the
# three providers has a probe of the same provider, name and number of
# arguments, each site with its provider's one semaphore, and no probe
# lacks its event.  Where bpftrace can attach here, it counts one rpcsim
# run's calls, pages and bulk list allocator calls through the probes,
# and the counts equal those of rpcsim's JSON, and a lean single-page
# run's mm_page_alloc and mm_page_free (skipped with the reason
# otherwise).  Skipped as a whole
# in a build without USDT probes (./configure --disable-usdt, or no
# <sys/sdt.h>).

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
# shellcheck source=tests/rpcsim/common.sh
. "$top_srcdir/tests/rpcsim/common.sh"

grep -q '^#define HAVE_USDT 1' "$top_builddir/config.h" 2>/dev/null ||
	plan_skip_all "built without USDT probes (no <sys/sdt.h>, or --disable-usdt)"
command -v readelf >/dev/null 2>&1 || plan_skip_all "no readelf (binutils)"

# The ELF file behind a program of the build tree (libtool's wrapper
# script runs .libs/PROGRAM).
elf_of()
{
	if readelf -h "$1" >/dev/null 2>&1; then
		echo "$1"
		return
	fi
	eo_prog=$(sed -n "s/^ *program='\\(.*\\)'\$/\\1/p" "$1" | head -n 1)
	echo "$(dirname "$1")/.libs/${eo_prog:-$(basename "$1")}"
}
bin=$(elf_of "$RPCSIM")
lib=$top_builddir/alloc/.libs/libpagepool.so
# A static build holds the library's probes in the program itself.
[ -e "$lib" ] && lib=$(readlink -f "$lib") || lib=$bin

# events HEADER...: "provider:name nargs" for each LTTNG_UST_TRACEPOINT_EVENT
events()
{
	awk '
	/LTTNG_UST_TRACEPOINT_EVENT\(/ {
		s = $0; sub(/.*LTTNG_UST_TRACEPOINT_EVENT\(/, "", s)
		split(s, w, /[ ,]+/); ev = w[1] ":" w[2]; args = ""; next
	}
	ev != "" && /LTTNG_UST_TP_ARGS\(/ { inargs = 1; sub(/.*LTTNG_UST_TP_ARGS\(/, "") }
	inargs {
		args = args $0
		if (index($0, ")")) {
			sub(/\).*/, "", args)
			print ev, (gsub(/,/, ",", args) + 1) / 2
			inargs = 0; ev = ""
		}
	}' "$@" | sort
}

# probes ELF: "provider:name nargs semaphore" for each probe site
probes()
{
	readelf -n "$1" | awk '
	/^ *Provider:/ { p = $2 }
	/^ *Name:/ { n = $2 }
	/Semaphore:/ { sem = $NF }
	/^ *Arguments:/ { print p ":" n, NF - 1, sem }'
}

plan_tests 7

tp=$top_srcdir/tracepoints
probes "$lib" >"$tmpdir/lib.probes"
probes "$bin" >"$tmpdir/bin.probes"
events "$tp/pagepool_tp.h" >"$tmpdir/lib.events"
events "$tp/rpcsim_tp.h" "$tp/page_pool_tp.h" >"$tmpdir/bin.events"

# each event's name and argument count, once however many sites fire it
awk '$1 ~ /^pagepool:/ { print $1, $2 }' "$tmpdir/lib.probes" | sort -u \
	>"$tmpdir/lib.sites"
awk '$1 !~ /^pagepool:/ { print $1, $2 }' "$tmpdir/bin.probes" | sort -u \
	>"$tmpdir/bin.sites"
# a probe of another provider in the library, or of none of ours anywhere
[ "$lib" = "$bin" ] ||
	awk '$1 !~ /^pagepool:/ { print "in libpagepool:", $0 }' \
		"$tmpdir/lib.probes" >>"$tmpdir/lib.sites"
for side in lib bin; do
	if [ $side = lib ]; then
		what="libpagepool's pagepool:*"
	else
		what="rpcsim's rpcsim:* and page_pool:*"
	fi
	[ -s "$tmpdir/$side.events" ] &&
		cmp -s "$tmpdir/$side.events" "$tmpdir/$side.sites"
	ok $? "$what: a probe per LTTng event, same name and number of arguments" ||
		diag "events: $(tr '\n' ';' <"$tmpdir/$side.events") probes: $(tr '\n' ';' <"$tmpdir/$side.sites")"
	# one semaphore per provider (tracepoints/usdt.h), none missing
	[ -s "$tmpdir/$side.probes" ] && awk '
		$3 !~ /^0x0*[1-9a-f][0-9a-f]*$/ { bad = 1 }
		{ split($1, pn, ":"); if (!((pn[1], $3) in seen)) n[pn[1]]++; seen[pn[1], $3] = 1 }
		END { for (p in n) if (n[p] != 1) bad = 1; exit bad }' \
		"$tmpdir/$side.probes"
	ok $? "$what: every probe site has its provider's one semaphore" ||
		diag "$(cat "$tmpdir/$side.probes")"
done

# Attach where this machine lets bpftrace do it (root, uprobes, BPF).
why=
if ! command -v bpftrace >/dev/null 2>&1; then
	why="no bpftrace"
elif ! have_python; then
	why="no python3 to read rpcsim's JSON"
elif ! timeout 30 bpftrace -e 'BEGIN { exit(); }' >"$tmpdir/bt-probe" 2>&1; then
	why="bpftrace cannot run here: $(grep -v RLIMIT_MEMLOCK "$tmpdir/bt-probe" | head -n 1)"
fi
if [ -n "$why" ]; then
	skip_rest "$why"
fi

# Keyed by pid: a run of another test in this build is traced too.  The
# bulk calls of the list API only (argument 3, page_array != NULL, is 0):
# rpcsim fills its page cache with the array API before a run starts.
: >"$tmpdir/bt.out"
bpftrace -e "
BEGIN { printf(\"ready\\n\"); }
usdt:$bin:rpcsim:svc_alloc_arg_exit { @calls[pid] = count(); @pages[pid] = sum(arg0); }
usdt:$lib:pagepool:mm_page_alloc_bulk /arg3 == 0/ { @bulk[pid] = count(); }
usdt:$lib:pagepool:mm_page_alloc { @alloc[pid] = count(); }
usdt:$lib:pagepool:mm_page_free { @free[pid] = count(); }
" >"$tmpdir/bt.out" 2>"$tmpdir/bt.err" &
bt=$!
# an interrupted test leaves no bpftrace attached
# shellcheck disable=SC2016 # $bt as it is at exit
tap_at_exit '[ -z "$bt" ] || kill -KILL "$bt" 2>/dev/null'
n=0
while ! grep -q '^ready' "$tmpdir/bt.out" && kill -0 $bt 2>/dev/null &&
	[ $n -lt 600 ]; do
	sleep 0.1
	n=$((n + 1))
done
if ! grep -q '^ready' "$tmpdir/bt.out"; then
	kill $bt 2>/dev/null
	wait_pid $bt 30
	bt=
	skip_rest "bpftrace could not attach: $(grep -v RLIMIT_MEMLOCK "$tmpdir/bt.err" | head -n 1)"
fi
"$RPCSIM" --alloc=list --requests=2000 --warmup=0 --json >"$tmpdir/run.json" \
	2>"$tmpdir/run.err" &
rp=$!
wait_pid $rp 120
st_rp=$status
# the lean single-page fast paths fire mm_page_alloc and mm_page_free
# without a semaphore test (alloc/trace.h)
"$RPCSIM" --profile=lean --alloc=single --requests=2000 --warmup=0 --json \
	>"$tmpdir/single.json" 2>>"$tmpdir/run.err" &
sp=$!
wait_pid $sp 120
[ "$st_rp" -eq 0 ] && [ "$status" -eq 0 ]
ok $? "rpcsim under bpftrace: exit 0, twice" ||
	diag "status $st_rp and $status (124: still running after 120 s): $(head -c 500 "$tmpdir/run.err")"
# bpftrace prints its maps when SIGINT ends it.  It once did not end here
# (detaching its uprobes); killed after 30 s, it has printed nothing to
# count, and that is bpftrace's failure, not the probes'.
kill -INT $bt
wait_pid $bt 30
bt=
[ "$status" -ne 124 ] ||
	skip_rest "bpftrace did not end within 30 s of SIGINT (killed): its counts are lost"
# bpftrace prints "@calls[PID]: N" for each map entry at its end
got=$(for m in calls pages bulk; do
	sed -n "s/^@$m\\[$rp\\]: //p" "$tmpdir/bt.out"
done | tr '\n' ' ')
want=$(python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))["modes"][0]
print(m["calls"], m["pages"], m["counters"]["alloc_bulk_list_calls"], "")
' "$tmpdir/run.json")
[ -n "$want" ] && [ "$got" = "$want" ]
ok $? "bpftrace's counts through the probes equal rpcsim's: calls, pages, bulk calls" ||
	diag "bpftrace: '$got', rpcsim: '$want'; $(head -c 800 "$tmpdir/bt.out")"

# every single-page call fires mm_page_alloc once (the run allocates no
# single page outside its mode); mm_page_free fires for the run's frees
# and for those after it (the pages rpcsim holds go back at its end)
got=$(for m in alloc free; do
	sed -n "s/^@$m\\[$sp\\]: //p" "$tmpdir/bt.out"
done | tr '\n' ' ')
python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))["modes"][0]["counters"]
got = [int(x) for x in sys.argv[2].split()]
sys.exit(not (len(got) == 2 and got[0] == c["alloc_single_calls"] and
              got[1] >= c["pgfree"] > 0))
' "$tmpdir/single.json" "$got"
ok $? "lean single pages: mm_page_alloc's probe fired once per call, mm_page_free's for every page freed" ||
	diag "bpftrace (alloc, free): '$got'; rpcsim: $(python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))["modes"][0]["counters"]
print(c["alloc_single_calls"], c["pgfree"])' "$tmpdir/single.json" 2>&1)"

exit_status
