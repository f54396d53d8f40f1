#!/bin/sh
# SPDX-License-Identifier: MIT
#
# bench/kernel-bench.sh --insmod, with stand-ins: no module is built or
# loaded (a kernel headers folder whose makefile writes a dummy .ko;
# insmod, rmmod and dmesg in PATH that log their calls and keep a kernel
# log of their own; KERNEL_BENCH_PROC_MODULES for /proc/modules).  The
# path a user with a real kernel takes: insmod given the module and
# pages=, runs= and a tag=, pinned with --cpu; the results read from the
# log by that tag alone (an earlier load's lines left out), whatever
# dmesg puts before them; rmmod once after; --output with "ran=insmod".
# And its refusals: a module of that name already loaded (nothing
# loaded, exit 1), a kernel without modules, insmod failing (its message
# and the log's last ppkbench line, no rmmod), a module that kept pages
# (exit 1).  The module's answers to the contract probes (Linux 6.1's,
# recorded in kernel-6.1-probes.txt, one of them changed) set beside
# libpagepool's of the build tree: the one that differs named with both
# answers in each profile; without a build, the answers counted and
# said not to be compared.  --insmod needs root: the test skips
# otherwise.

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
# shellcheck source=tests/utils/tap.sh
. "$top_srcdir/tests/utils/tap.sh"
# shellcheck source=tests/bench/common.sh
. "$top_srcdir/tests/bench/common.sh"

bench_script kernel-bench.sh
[ "$(id -u)" -eq 0 ] || plan_skip_all "--insmod runs as root only"
command -v make >/dev/null 2>&1 || plan_skip_all "make not found"

top_builddir=$(cd "$top_builddir" && pwd) || bail_out "no $top_builddir"
plan_tests 10

# The stand-ins.  FAKE_SINGLE: a single page's ns (default 50.000);
# FAKE_HELD: the pages_held the module reports; FAKE_FAIL:
# insmod fails with that message; FAKE_PROBES: a file of the module's
# answers to its probes (as kernel-6.1-probes.txt).
kdir=$tmpdir/headers
bin=$tmpdir/bin
mkdir -p "$bin"
standin_headers "$kdir"
cat >"$bin/insmod" <<'EOF'
#!/bin/sh
echo "insmod $* cpus=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)" >>"$FAKE_CALLS"
if [ -n "${FAKE_FAIL:-}" ]; then
	echo "[  9.000001] ppkbench: pages=0 runs=9: out of range" >>"$FAKE_LOG"
	echo "insmod: ERROR: $FAKE_FAIL" >&2
	exit 1
fi
for a do
	case $a in tag=*) tag=${a#tag=} ;; pages=*) pages=${a#pages=} ;; runs=*) runs=${a#runs=} ;; esac
done
{
	echo "[ 10.000001] ppkbench: tag=$tag kernel=9.9.9-stand-in pages=$pages runs=$runs tsc_khz=1000000 init_on_alloc=1 list=1"
	echo "[ 10.000002] ppkbench: tag=$tag api=single bulk=1 ns_per_page=${FAKE_SINGLE:-50.000} ticks_per_page=50.000"
	for api in list array; do
		for n in 1 2 3 4 8 16 32 64 128; do
			echo "[ 10.000003] ppkbench: tag=$tag api=$api bulk=$n ns_per_page=$((20 + 64 / n)).500 ticks_per_page=$((20 + 64 / n)).500"
		done
	done
	[ -z "${FAKE_PROBES:-}" ] ||
		sed -n "s/^probe=/[ 10.000005] ppkbench: tag=$tag probe=/p" "$FAKE_PROBES"
	echo "[ 10.000004] ppkbench: tag=$tag pages_held=${FAKE_HELD:-0}"
} >>"$FAKE_LOG"
EOF
printf '#!/bin/sh\necho "rmmod $*" >>"$FAKE_CALLS"\n' >"$bin/rmmod"
printf '#!/bin/sh\ncat "$FAKE_LOG"\n' >"$bin/dmesg"
chmod +x "$bin/insmod" "$bin/rmmod" "$bin/dmesg"
FAKE_CALLS=$tmpdir/calls FAKE_LOG=$tmpdir/log
export FAKE_CALLS FAKE_LOG
modules=$tmpdir/modules
: >"$modules"
# An earlier load's lines, and another module's, before this run's.
reset_log()
{
	{
		echo "[  1.000000] Linux version 9.9.9-stand-in"
		echo "[  2.000000] ppkbench: tag=1 api=single bulk=1 ns_per_page=999.000 ticks_per_page=999.000"
		echo "[  2.000001] ppkbench: tag=1 pages_held=0"
	} >"$FAKE_LOG"
	: >"$FAKE_CALLS"
}
insmod_run()
{
	reset_log
	PATH=$bin:$PATH KERNEL_BENCH_PROC_MODULES=$modules run --insmod \
		--kdir="$kdir" "$@"
}

insmod_run --cpu=0 --pages=4096 --runs=5 --output="$tmpdir/k.txt"
tag=$(sed -n 's/^insmod .*ppkbench\.ko pages=4096 runs=5 tag=\([0-9]*\) cpus=0$/\1/p' "$FAKE_CALLS")
[ "$status" -eq 0 ] && [ -n "$tag" ] && [ "$tag" != 1 ] &&
	[ "$(sed -n 2p "$FAKE_CALLS")" = "rmmod ppkbench" ] &&
	[ "$(wc -l <"$FAKE_CALLS")" -eq 2 ]
ok $? "--insmod: insmod with pages, runs and a tag, pinned by --cpu; then rmmod" ||
	diag "status $status: $(cat "$FAKE_CALLS") $(cat "$ERR")"
rows=$(api_rows)
[ "$(api_configs "$rows")" = \
	" single 1 , list 1 , list 2 , list 3 , list 4 , list 8 , list 16 , list 32 , list 64 , list 128 , array 1 , array 2 , array 3 , array 4 , array 8 , array 16 , array 32 , array 64 , array 128 ," ] &&
	printf '%s\n' "$rows" | grep -q '^| single | 1 | 50.00 | 50.0 | - |$' &&
	printf '%s\n' "$rows" | grep -q '^| array | 64 | 21.50 | 21.5 | 0.430 |$' &&
	grep -q '^predicts it, (single - array@64) / (single - list@64) per page: 1.00$' "$OUT" &&
	grep -q '^pages held at the end: 0 (every page taken was given back)$' "$OUT"
ok $? "this load's lines only, behind dmesg's timestamps: 19 rows, page_pool's prediction, the held count" ||
	diag "$(cat "$OUT")"
grep -q "^    ppkbench on Linux 9.9.9-stand-in, loaded into the running kernel ($(uname -r)), command line: " "$OUT" &&
	grep -q '^    4096 pages a run, median of 5 runs; TSC 1000000 kHz; init_on_alloc on$' "$OUT" &&
	! grep -q 'Under TCG' "$OUT" &&
	[ "$(head -n 1 "$tmpdir/k.txt")" = "ppkbench: tag=$tag ran=insmod" ] &&
	[ "$(grep -c "^ppkbench: tag=$tag " "$tmpdir/k.txt")" -eq 22 ]
ok $? "the header (the running kernel, init_on_alloc), --output with ran=insmod" ||
	diag "$(head -n 4 "$OUT") / $(head -n 2 "$tmpdir/k.txt")"
# A single page of more digits than the list's (as under TCG, 1227 ns
# against 514): the prediction compares numbers, not strings.
FAKE_SINGLE=100.000 insmod_run
[ "$status" -eq 0 ] &&
	grep -q '^predicts it, (single - array@64) / (single - list@64) per page: 1.00$' "$OUT"
ok $? "page_pool's prediction when single has more digits than list@64" ||
	diag "status $status: $(grep -A1 '^predicts\|^page_pool' "$OUT")"

echo 'ppkbench 16384 0 - Live 0x0000000000000000 (OE)' >"$modules"
insmod_run
[ "$status" -eq 1 ] && [ ! -s "$FAKE_CALLS" ] &&
	[ "$(cat "$ERR")" = "kernel-bench.sh: a ppkbench module is already loaded (rmmod ppkbench first)" ]
ok $? "a ppkbench already loaded: exit 1, nothing loaded or unloaded" ||
	diag "status $status: $(cat "$ERR") $(cat "$FAKE_CALLS")"
: >"$modules"

FAKE_FAIL="could not insert 'ppkbench': Operation not permitted" insmod_run
[ "$status" -eq 1 ] && ! grep -q '^rmmod' "$FAKE_CALLS" &&
	[ "$(cat "$ERR")" = "kernel-bench.sh: insmod failed: insmod: ERROR: could not insert 'ppkbench': Operation not permitted ([  9.000001] ppkbench: pages=0 runs=9: out of range)" ]
ok $? "insmod failing: exit 1 with its message and the log's, no rmmod" ||
	diag "status $status: $(cat "$ERR") $(cat "$FAKE_CALLS")"

FAKE_HELD=2 insmod_run
[ "$status" -eq 1 ] && grep -q '^pages held at the end: 2 (a leak in the module)$' "$OUT" &&
	grep -q '^rmmod ppkbench$' "$FAKE_CALLS"
ok $? "a module that kept pages: exit 1, said, and still unloaded" ||
	diag "status $status: $(tail -n 3 "$OUT")"

reset_log
PATH=$bin:$PATH KERNEL_BENCH_PROC_MODULES=$tmpdir/none run --insmod --kdir="$kdir"
[ "$status" -eq 1 ] && [ ! -s "$FAKE_CALLS" ] &&
	[ "$(cat "$ERR")" = "kernel-bench.sh: the running kernel cannot load modules (no $tmpdir/none): try --vm" ]
ok $? "a kernel without modules: exit 1, try --vm" || diag "status $status: $(cat "$ERR")"

# The contract probes: Linux 6.1's answers with array_holes' kept changed
# from 6 to 5, beside the build's libpagepool; from a folder without a
# build, nothing to compare.
sed 's/^\(probe=array_holes .*\) kept=6 /\1 kept=5 /' \
	"$top_srcdir/tests/bench/kernel-6.1-probes.txt" >"$tmpdir/probes"
FAKE_PROBES=$tmpdir/probes insmod_run --builddir="$top_builddir"
lab='ret=8 kept=6 filled=8 refs=1'
[ "$status" -eq 0 ] &&
	grep -q "^16 contract probes: libpagepool ($top_builddir) answers 1 of them otherwise:$" "$OUT" &&
	grep -q "^  array_holes: the kernel ret=8 kept=5 filled=8 refs=1; the kernel profile $lab$" "$OUT" &&
	grep -q "^  array_holes: the kernel ret=8 kept=5 filled=8 refs=1; the lean profile $lab$" "$OUT" &&
	[ "$(grep -c '^  [a-z_]*: the kernel ' "$OUT")" -eq 2 ] &&
	grep -q "^(libpagepool emulates 5.13: see whether a difference is the kernel version's$" "$OUT"
ok $? "a probe answered otherwise: named, with the kernel's and each profile's answer" ||
	diag "status $status: $(sed -n '/contract probes/,$p' "$OUT") $(cat "$ERR")"
cd "$tmpdir" || bail_out "cd $tmpdir"
FAKE_PROBES=$top_srcdir/tests/bench/kernel-6.1-probes.txt insmod_run
[ "$status" -eq 0 ] &&
	grep -q '^16 contract probes answered, not compared: no libpagepool build (--builddir=DIR)$' "$OUT" &&
	grep -q "^(the probes' lines are kept by --output)$" "$OUT"
ok $? "no build at hand: the probes counted, not compared" ||
	diag "status $status: $(sed -n '/contract probes/,$p' "$OUT") $(cat "$ERR")"
