#!/bin/sh
# SPDX-License-Identifier: MIT
#
# bench/kernel-bench.sh end to end, in a VM under QEMU's TCG (so never a
# module in this machine's kernel, and never a timing): bench/kernel/
# ppkbench.c builds against Debian's kernel headers, Debian's kernel
# boots with it, and every page its three APIs took went back (the
# module counts them).  The table has a row per configuration with
# figures above zero and each ratio to single the quotient of its ns, and
# the page_pool ratio it predicts is the one of its rows; the TCG caveat
# is said; --output keeps the module's lines after the line saying where
# they ran, and kernel-profile.sh --kernel reads them.  The module's
# answers to its contract probes (the bulk calls at their corners) are
# libpagepool's, word for word, in both profiles, as the script says
# when it compares them with the build's library.
# Refused options exit 2 with one line naming the option and the value;
# a VM that does not finish in --timeout ends with exit 1, its QEMU gone;
# a signal ends the script with 128 + N, its QEMU and its files gone.
#
# Skips without qemu-system-x86_64, a static busybox, Debian's
# /usr/src/linux-headers-*-amd64 (5.13 or later) or an x86-64 machine;
# from 6.14 expects no list rows or list probes; downloads the
# kernel's linux-image package (apt-get download, ~70 MB) into
# $PP_KERNEL_DEB_CACHE when that names a folder, else into its own
# temporary folder, and skips when that fails.

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
# shellcheck source=tests/utils/tap.sh
. "$top_srcdir/tests/utils/tap.sh"
# shellcheck source=tests/bench/common.sh
. "$top_srcdir/tests/bench/common.sh"

bench_script kernel-bench.sh
top_builddir=$(cd "$top_builddir" && pwd) || bail_out "no $top_builddir"

[ "$(uname -m)" = x86_64 ] || plan_skip_all "the VM is x86-64"
command -v qemu-system-x86_64 >/dev/null 2>&1 ||
	plan_skip_all "qemu-system-x86_64 not found (Debian: qemu-system-x86)"
bb=$(command -v busybox) || plan_skip_all "busybox not found (Debian: busybox-static)"
! ldd "$bb" >/dev/null 2>&1 || plan_skip_all "$bb is not static (Debian: busybox-static)"
kdir=$(ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | sort -V | tail -n 1)
[ -n "$kdir" ] || plan_skip_all "no /usr/src/linux-headers-*-amd64 (Debian: linux-headers-amd64)"
kver=${kdir##*/linux-headers-}
[ "$(printf '%s\n' 5.13 "${kver%%-*}" | sort -V | head -n 1)" = 5.13 ] ||
	plan_skip_all "Linux $kver predates the bulk allocator (5.13)"
# From 6.14 the kernel has no bulk list (the module leaves out its 9 rows
# and its 5 probes): the checks below expect what the module can run.
if [ "$(printf '%s\n' 6.14 "${kver%%-*}" | sort -V | head -n 1)" = 6.14 ]; then
	haslist=0 nprobes=11 nlines=24 nrows=10 listrows=
else
	haslist=1 nprobes=16 nlines=38 nrows=19
	listrows=" list 1 , list 2 , list 3 , list 4 , list 8 , list 16 , list 32 , list 64 , list 128 ,"
fi
cache=${PP_KERNEL_DEB_CACHE:-$tmpdir/deb}
mkdir -p "$cache"
if ! ls "$cache"/linux-image-"$kver"_*.deb >/dev/null 2>&1; then
	(cd "$cache" && timeout 300 apt-get download -q "linux-image-$kver") >"$tmpdir/apt.log" 2>&1 ||
		plan_skip_all "apt-get download linux-image-$kver failed: $(tail -n 1 "$tmpdir/apt.log")"
fi

plan_tests 12

run --help
[ "$status" -eq 0 ] && grep -q '^Usage: kernel-bench.sh --insmod \[OPTION\]' "$OUT" &&
	grep -q -- '--vm=debian' "$OUT" && grep -q -- '--accel=kvm|tcg' "$OUT"
ok $? "--help: the three ways to run and the options" || diag "status $status"

# Refused: each one line, exit 2, before anything is built.  Each item:
# the options, "|", the message (its quotes are the message's own).
bad=
# shellcheck disable=SC2089,SC2090
for args in "|say where to run: --insmod or --vm=VMLINUZ|debian (see --help)" \
	"--vm=debian --pages=0|--pages: '0' is not a count from 1 to 16777216" \
	"--vm=debian --runs=100|--runs: '100' is not a count from 1 to 99" \
	"--vm=debian --accel=xen|--accel: 'xen' is not kvm or tcg" \
	"--vm=$tmpdir/none|--vm: '$tmpdir/none' is not a file (a kernel image, or 'debian')" \
	"--vm=$OUT|--vm=$OUT needs --kdir=DIR, the headers of that kernel" \
	"--insmod --accel=tcg|--accel and --append are for --vm" \
	"--vm=debian --timeout=x|--timeout: 'x' is not a count of seconds from 1 to 86400" \
	"--vm=debian --kdir=$tmpdir|--kdir: '$tmpdir' is not a folder linux-headers-VERSION, which --vm=debian needs to fetch linux-image-VERSION" \
	"--vm=debian --builddir=$tmpdir|--builddir: '$tmpdir' has no alloc/.libs/libpagepool.so (run make there first)" \
	"--vm=debian --output=$tmpdir|--output: '$tmpdir' is a directory, not a file" \
	"--vm=debian --output=$tmpdir/none/k.txt|--output: '$tmpdir/none/k.txt': no folder $tmpdir/none" \
	"--vm=debian --bogus|unknown option '--bogus' (see --help)"; do
	# shellcheck disable=SC2086 # the options split on spaces
	run ${args%%|*}
	[ "$status" -eq 2 ] && [ "$(wc -l <"$ERR")" -eq 1 ] &&
		[ "$(cat "$ERR")" = "kernel-bench.sh: ${args#*|}" ] ||
		bad="$bad [${args%%|*}: status $status, $(cat "$ERR")]"
done
[ -z "$bad" ]
ok $? "bad options: one line naming the option and the value, exit 2" || diag "$bad"

kout=$tmpdir/kernel.txt
run --vm=debian --accel=tcg --pages=512 --runs=3 --cache="$cache" --output="$kout" \
	--builddir="$top_builddir"
[ "$status" -eq 0 ] &&
	grep -q "^Under TCG the figures are the emulator's, not this CPU's" "$OUT" &&
	# (the image's package: linux-image-VER, from Debian's 7.x linux-binary-VER)
	{ grep -q "^    ppkbench on Linux $kver, booted in QEMU (tcg, 1 vCPU): Debian's linux-image-$kver$" "$OUT" ||
		grep -q "^    ppkbench on Linux $kver, booted in QEMU (tcg, 1 vCPU): Debian's linux-binary-$kver$" "$OUT"; } &&
	grep -q '^    512 pages a run, median of 3 runs; TSC [0-9]* kHz; init_on_alloc off$' "$OUT"
ok $? "--vm=debian --accel=tcg: exit 0, TCG's caveat, the kernel and the settings" ||
	diag "status $status: $(tail -c 1500 "$OUT") $(cat "$ERR")"
rows=$(api_rows)
[ "$(api_configs "$rows")" = \
	" single 1 ,$listrows array 1 , array 2 , array 3 , array 4 , array 8 , array 16 , array 32 , array 64 , array 128 ," ]
ok $? "a row per API and bulk size, single first (Linux $kver: list=$haslist)" || diag "$rows"
printf '%s\n' "$rows" | awk -F'|' '
	NR == 1 { single = $4; if ($6 !~ /^ *- *$/) bad = 1 }
	$4 + 0 <= 0 || $5 + 0 <= 0 { bad = 1 }
	NR > 1 { r = $4 / single; if ($6 - r > 0.0015 || r - $6 > 0.0015) bad = 1 }
	END { exit bad }'
ok $? "every ns and ticks above zero, each ratio to single the quotient of the ns" ||
	diag "$rows"
# page_pool's prediction from the rows: (single - array@64) / (single -
# list@64), within their rounding (without the list, a line saying why
# there is none)
pp=$(sed -n 's/^predicts it, (single - array@64) \/ (single - list@64) per page: //p' "$OUT")
nopp=$(grep -c '^No page_pool prediction: this kernel has no bulk list call' "$OUT")
printf '%s\n' "$rows" | awk -F'|' -v pp="$pp" -v nopp="$nopp" -v haslist=$haslist '
	$2 ~ /single/ { s = $4 } $2 ~ /list/ && $3 == 64 { l = $4 } $2 ~ /array/ && $3 == 64 { a = $4 }
	END {
		if (!haslist) exit pp != "" || nopp != 1
		if (nopp != 0) exit 1
		if (s <= l) exit pp != "- (no list gain)"
		p = (s - a) / (s - l)
		exit !(pp ~ /^[0-9]+\.[0-9][0-9]$/ && pp - p < 0.006 && p - pp < 0.006)
	}'
ok $? "page_pool's array gain / list gain as this kernel's rows predict it" ||
	diag "'$pp'; $rows"
grep -q '^pages held at the end: 0 (every page taken was given back)$' "$OUT"
ok $? "every page the kernel handed out came back (the module's count)" ||
	diag "$(grep '^pages held' "$OUT")"
tag=$(sed -n '1s/^ppkbench: tag=\([0-9]*\) ran=tcg$/\1/p' "$kout")
[ -n "$tag" ] && [ "$(wc -l <"$kout")" -eq $nlines ] &&
	[ "$(grep -c "^ppkbench: tag=$tag " "$kout")" -eq $nlines ] &&
	[ "$(grep -c "^ppkbench: tag=$tag probe=" "$kout")" -eq $nprobes ] &&
	grep -q "^ppkbench: tag=$tag kernel=$kver pages=512 runs=3 tsc_khz=[0-9]* init_on_alloc=0 list=$haslist$" "$kout"
ok $? "--output: where it ran, then the module's $((nlines - 1)) lines ($nprobes probes), all of one tag" ||
	diag "$(head -n 3 "$kout")"

# The contract probes: the kernel's answers, word for word libpagepool's
# in both profiles (the script makes the same calls on the build's
# library, bench/kernel/ppk-probes.c, and names each that differs).
grep -q "^$nprobes contract probes: libpagepool ($top_builddir) answers each as the kernel did, in both profiles$" "$OUT"
ok $? "Linux $kver's answers to the $nprobes contract probes are libpagepool's, both profiles" ||
	diag "$(sed -n '/contract probes/,$p' "$OUT")"

if [ -x "$top_builddir/pagebench/pagebench" ]; then
	SCRIPT=$top_srcdir/bench/kernel-profile.sh
	run --builddir="$top_builddir" --smoke --runs=1 --kernel="$kout"
	[ "$status" -eq 0 ] && grep -q "^Kernel: Linux $kver measured by kernel-bench.sh" "$OUT" &&
		[ "$(grep -c -E '^\| (single|list|array) \|' "$OUT")" -eq $nrows ]
	ok $? "kernel-profile.sh --kernel reads the output: $nrows rows beside the lab's" ||
		diag "status $status: $(head -c 1000 "$OUT") $(cat "$ERR")"
	SCRIPT=$top_srcdir/bench/kernel-bench.sh
else
	skip 1 "pagebench not built"
fi

# A VM that cannot finish in time: exit 1 with the cause, its QEMU (the
# one whose command line names this run's own TMPDIR) ended and the
# temporary folder gone.  No pgrep (procps may be missing): /proc.
qemu_left()
{
	for c in /proc/[0-9]*/cmdline; do
		{ tr '\0' ' ' <"$c"; } 2>/dev/null | grep -q "qemu-system-x86_64 .*$1" && return 0
	done
	return 1
}
mkdir -p "$tmpdir/to"
TMPDIR=$tmpdir/to run --vm=debian --accel=tcg --pages=512 --runs=3 \
	--cache="$cache" --timeout=1
[ "$status" -eq 1 ] && grep -q '^kernel-bench.sh: the VM did not finish in 1 s' "$ERR" &&
	! qemu_left "$tmpdir/to/" &&
	[ -z "$(ls "$tmpdir/to")" ]
ok $? "--timeout=1: exit 1, the cause, no QEMU or temporary folder left" ||
	diag "status $status: $(cat "$ERR"); left: $(ls "$tmpdir/to")"

# A signal while the VM runs (a stand-in QEMU that sleeps): 143, QEMU
# ended by its pid, the temporary folder (module build, initramfs) gone.
sleeper "$tmpdir/slow/qemu-system-x86_64" "$tmpdir/slow/pid"
PATH=$tmpdir/slow:$PATH sigterm_run "$tmpdir/slow/pid" --vm=debian \
	--accel=tcg --cache="$cache"
sigterm_ok "SIGTERM while the VM runs: 143, QEMU ended, nothing left" QEMU
