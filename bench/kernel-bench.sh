#!/bin/sh
# SPDX-License-Identifier: MIT
#
# kernel-bench.sh: a real kernel's page allocator, timed per page the way
# kernel-profile.sh times the lab's kernel profile (page_bench04_bulk's
# loops: alloc + free, a single page, then bulk lists and arrays of
# 1..128).  It builds bench/kernel/ppkbench.c against a kernel's headers
# and loads it either into the running kernel (--insmod) or into a kernel
# booted for the purpose in QEMU (--vm), then prints the figures as a
# Markdown table.  With --output=FILE it keeps the module's lines, which
# "kernel-profile.sh --kernel=FILE" sets beside the lab's, so that the
# lab is compared with a kernel on the same CPU instead of the published
# v5r9 figures of a 2016 Xeon.  Before it times anything the module puts
# 16 contract probes to the kernel (the bulk calls at their corners, and
# __GFP_ZERO); with a libpagepool build (--builddir, default ./build when
# it has one) the script makes the same calls on the library
# (bench/kernel/ppk-probes.c), in both profiles, and names every probe
# whose answer differs from the kernel's.  It also prints the page_pool
# ratio the kernel's rows predict (array gain / list gain).  A benchmark,
# not a test; make check runs it only in a VM under QEMU's TCG, whose
# timings are the emulator's (tests/bench/test_kernel_bench.sh), and
# checks no timing.
#
# Run from anywhere:  sh $srcdir/bench/kernel-bench.sh --insmod | --vm=... [OPTION]...
#
# For tests only: KERNEL_BENCH_PROC_MODULES names the file read instead
# of /proc/modules (tests/bench/test_kernel_bench_insmod.sh runs --insmod
# with stand-ins for insmod, rmmod, dmesg and the kernel's makefiles).

set -u

me=kernel-bench.sh
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/common.sh
. "$here/common.sh"

usage()
{
	cat <<'EOF'
Usage: kernel-bench.sh --insmod [OPTION]...
       kernel-bench.sh --vm=VMLINUZ --kdir=DIR [OPTION]...
       kernel-bench.sh --vm=debian [OPTION]...
A real kernel's page allocator per page, alloc + free: a single page, then
the bulk list and the bulk array of 1, 2, 3, 4, 8, 16, 32, 64 and 128 pages
(page_bench04_bulk's table), as a Markdown table.

Where it runs (one of):
  --insmod         load the module into the running kernel (root; its
                   headers at /lib/modules/$(uname -r)/build), then unload it
  --vm=VMLINUZ     boot VMLINUZ in QEMU (x86-64) with a busybox initramfs and
                   load the module there; --kdir names its headers
  --vm=debian      the same with Debian's kernel: the newest
                   /usr/src/linux-headers-*-amd64 and its linux-image package
                   (apt-get download; from 7.x, linux-binary)
Options:
  --kdir=DIR       the kernel headers to build against (default: as above)
  --accel=kvm|tcg  QEMU's accelerator (default: kvm when /dev/kvm is usable
                   and kvm_intel or kvm_amd is loaded, else tcg).  Under tcg
                   the timings are the emulator's, not this CPU's
  --append=ARGS    more for the VM kernel's command line (it has
                   init_on_alloc=0, the kernel's own default before distros
                   turned it on)
  --pages=N        pages per timed run, 1..16777216 (default 65536)
  --runs=N         timed runs per configuration, 1..99, median reported
                   (default 9)
  --cpu=N          pin the module's load (or QEMU) to CPU N
  --output=FILE    also write the module's lines to FILE (for
                   kernel-profile.sh --kernel=FILE)
  --builddir=DIR   compare the kernel's answers to the contract probes with
                   the libpagepool of the build tree DIR, both profiles
                   (default: ./build when it has one, else no comparison)
  --cache=DIR      keep the downloaded kernel image package in DIR
  --timeout=S      give up on the VM after S seconds (default 600)
  -h, --help       this text
Needs: make and the compiler the kernel was built with; for --vm,
qemu-system-x86_64 and a static busybox (Debian: qemu-system-x86,
busybox-static, linux-headers-amd64).
EOF
}

mode='' vm='' vm_name='' kdir='' accel='' append='' pages=65536 runs=9 cpu='' output=''
cache='' builddir=''
timeout_s=600
bad()
{
	echo "$me: $1" >&2
	exit 2
}
for arg do
	case $arg in
	-h|--help) usage; exit 0 ;;
	--insmod) mode=insmod ;;
	--vm=*) mode=vm vm=${arg#*=}
		[ -n "$vm" ] || bad "--vm: '' is not a kernel image (a file, or 'debian')" ;;
	--kdir=*) kdir=${arg#*=}
		[ -d "$kdir" ] || bad "--kdir: '$kdir' is not a directory (kernel headers)" ;;
	--accel=*) accel=${arg#*=}
		case $accel in kvm|tcg) ;; *) bad "--accel: '$accel' is not kvm or tcg" ;; esac ;;
	--append=*) append=${arg#*=} ;;
	--pages=*) pages=${arg#*=}
		bench_count "$pages" 16777216 || bad "--pages: '$pages' is not a count from 1 to 16777216" ;;
	--runs=*) runs=${arg#*=}
		bench_count "$runs" 99 || bad "--runs: '$runs' is not a count from 1 to 99" ;;
	--cpu=*) cpu=${arg#*=}
		[ -n "$cpu" ] || bad "--cpu: '' is not a CPU number" ;;
	--output=*) output=${arg#*=}
		[ -n "$output" ] || bad "--output: '' is not a file name"
		# refused now, not after the run it would lose
		[ ! -d "$output" ] || bad "--output: '$output' is a directory, not a file"
		[ -d "$(dirname -- "$output")" ] ||
			bad "--output: '$output': no folder $(dirname -- "$output")" ;;
	--builddir=*) builddir=${arg#*=}
		[ -f "$builddir/alloc/.libs/libpagepool.so" ] ||
			bad "--builddir: '$builddir' has no alloc/.libs/libpagepool.so (run make there first)" ;;
	--cache=*) cache=${arg#*=}
		[ -d "$cache" ] || bad "--cache: '$cache' is not a directory" ;;
	--timeout=*) timeout_s=${arg#*=}
		bench_count "$timeout_s" 86400 || bad "--timeout: '$timeout_s' is not a count of seconds from 1 to 86400" ;;
	*) bad "unknown option '$arg' (see --help)" ;;
	esac
done
[ -n "$mode" ] || bad "say where to run: --insmod or --vm=VMLINUZ|debian (see --help)"
if [ "$mode" = insmod ]; then
	[ -z "$accel$append" ] || bad "--accel and --append are for --vm"
else
	[ "$vm" = debian ] || [ -f "$vm" ] || bad "--vm: '$vm' is not a file (a kernel image, or 'debian')"
	[ "$vm" = debian ] || [ -n "$kdir" ] || bad "--vm=$vm needs --kdir=DIR, the headers of that kernel"
	# --vm=debian fetches the image of the headers' version, from their
	# folder's name.
	case $vm:$kdir in
	debian:|debian:*/linux-headers-?*) ;;
	debian:*) bad "--kdir: '$kdir' is not a folder linux-headers-VERSION, which --vm=debian needs to fetch linux-image-VERSION" ;;
	esac
fi
[ -z "$cpu" ] || bench_cpu "$me" "--cpu pins the run"
[ -n "$builddir" ] || [ ! -f build/alloc/.libs/libpagepool.so ] || builddir=build
[ -z "$builddir" ] || builddir=$(cd "$builddir" && pwd) || exit 1

need()
{
	command -v "$1" >/dev/null 2>&1 || {
		echo "$me: $1 not found: $2" >&2
		exit 1
	}
}
fail()
{
	echo "$me: $*" >&2
	exit 1
}

proc_modules=${KERNEL_BENCH_PROC_MODULES:-/proc/modules}
need make "the module is built with the kernel's makefiles"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kernel-bench.XXXXXX") || exit 1
loaded=
cleanup()
{
	if [ -n "$loaded" ]; then
		rmmod ppkbench 2>/dev/null
	fi
	rm -rf "$tmp"
}
bench_traps cleanup

# The headers, and with --vm=debian the image that goes with them.
if [ "$mode" = insmod ]; then
	[ "$(id -u)" -eq 0 ] || fail "--insmod loads a module: run as root"
	[ -e "$proc_modules" ] || fail "the running kernel cannot load modules (no $proc_modules): try --vm"
	[ -n "$kdir" ] || kdir=/lib/modules/$(uname -r)/build
	[ -d "$kdir" ] || fail "no headers for the running kernel at $kdir (Debian: apt-get install linux-headers-$(uname -r); or --kdir=DIR)"
	! grep -q '^ppkbench ' "$proc_modules" ||
		fail "a ppkbench module is already loaded (rmmod ppkbench first)"
	need insmod "kmod loads the module"
elif [ "$vm" = debian ]; then
	if [ -z "$kdir" ]; then
		kdir=$(ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | sort -V | tail -n 1)
		[ -n "$kdir" ] || fail "no /usr/src/linux-headers-*-amd64 (apt-get install linux-headers-amd64)"
	fi
	kver=${kdir##*/linux-headers-}
	need apt-get "--vm=debian downloads Debian's kernel image"
	need dpkg-deb "--vm=debian unpacks the kernel image package"
	# Up to 6.x, linux-image-VER holds boot/vmlinuz-VER.  Debian's 7.x
	# kernels split it: linux-image-VER only depends on linux-binary-VER,
	# which holds usr/lib/modules/VER/vmlinuz.
	vm=''
	for pkg in linux-image-$kver linux-binary-$kver; do
		deb=$(ls "${cache:-$tmp}/${pkg}"_*.deb 2>/dev/null | tail -n 1)
		if [ -z "$deb" ]; then
			(cd "${cache:-$tmp}" && apt-get download -q "$pkg" >"$tmp/apt.log" 2>&1) ||
				fail "apt-get download $pkg failed: $(tail -n 1 "$tmp/apt.log")"
			deb=$(ls "${cache:-$tmp}/${pkg}"_*.deb 2>/dev/null | tail -n 1)
			[ -n "$deb" ] || fail "apt-get download left no $pkg package"
		fi
		dpkg-deb -c "$deb" >"$tmp/deb.list" 2>"$tmp/tar.log" ||
			fail "$deb is not a package: $(tail -n 1 "$tmp/tar.log")"
		for f in "./boot/vmlinuz-$kver" "./usr/lib/modules/$kver/vmlinuz"; do
			grep -q " $f\$" "$tmp/deb.list" || continue
			dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp" "$f" 2>"$tmp/tar.log" ||
				fail "$f would not unpack from $deb: $(tail -n 1 "$tmp/tar.log")"
			vm=$tmp/${f#./}
			vm_name="Debian's $pkg"
			break 2
		done
		# No image here: linux-binary only if this package depends on it.
		dpkg-deb -f "$deb" Depends | grep -q "linux-binary-$kver" || break
	done
	[ -n "$vm" ] || fail "no vmlinuz in linux-image-$kver (boot/vmlinuz-$kver) or linux-binary-$kver (usr/lib/modules/$kver/vmlinuz)"
fi
[ -f "$kdir/Makefile" ] || fail "$kdir has no Makefile: not a kernel's headers"

# libpagepool's side of the contract probes, built first: a build that
# fails costs no run.
[ -z "$builddir" ] ||
	bench_cc "$me" "$here/.." "$builddir" bench/kernel/ppk-probes.c "$tmp/ppk-probes"

# The module, built in the temporary directory (the source tree may be
# read-only).
mkdir "$tmp/mod" && cp "$here/kernel/ppkbench.c" "$here/kernel/Kbuild" "$tmp/mod/" || exit 1
if ! make -C "$kdir" M="$tmp/mod" modules >"$tmp/build.log" 2>&1; then
	echo "$me: building the module against $kdir failed:" >&2
	grep -E 'error|Error|: not found' "$tmp/build.log" | head -n 10 >&2
	# The usual cause: the kernel's compiler missing here (Debian's 7.x
	# kernels are built with gcc-14, which Debian 12 lacks).
	if grep -q 'gcc[-0-9.]*: not found' "$tmp/build.log"; then
		kcc=$(sed -n 's/^CONFIG_CC_VERSION_TEXT="\(.*\)"$/\1/p' "$kdir/.config" 2>/dev/null)
		echo "$me: that kernel was built with ${kcc:-another compiler}, which this system lacks: install it, or run this where it is" >&2
	fi
	exit 1
fi

tag=$$
args="pages=$pages runs=$runs tag=$tag"
pin=
[ -z "$cpu" ] || pin="taskset -c $cpu"
lines=$tmp/lines
if [ "$mode" = insmod ]; then
	loaded=1
	# shellcheck disable=SC2086
	$pin insmod "$tmp/mod/ppkbench.ko" $args 2>"$tmp/insmod.log" || {
		loaded=
		fail "insmod failed: $(cat "$tmp/insmod.log") ($(dmesg 2>/dev/null | grep 'ppkbench' | tail -n 1))"
	}
	dmesg | sed -n "s/^.*\(ppkbench: tag=$tag .*\)/\1/p" >"$lines"
	rmmod ppkbench || fail "rmmod ppkbench failed"
	loaded=
	where="loaded into the running kernel ($(uname -r)), command line: $(cat /proc/cmdline)"
else
	need qemu-system-x86_64 "--vm boots the kernel in QEMU (Debian: qemu-system-x86)"
	need busybox "--vm's initramfs is a static busybox (Debian: busybox-static)"
	bb=$(command -v busybox)
	ldd "$bb" >/dev/null 2>&1 && fail "$bb is linked dynamically: the initramfs needs a static one (Debian: busybox-static)"
	if [ -z "$accel" ]; then
		accel=tcg
		if [ -r /dev/kvm ] && [ -w /dev/kvm ] &&
			{ [ -d /sys/module/kvm_intel ] || [ -d /sys/module/kvm_amd ]; }; then
			accel=kvm
		fi
	fi
	# The initramfs: busybox, the module, and an init that loads it,
	# prints its lines and powers off.
	ird=$tmp/initramfs
	mkdir -p "$ird/bin" "$ird/proc" "$ird/dev" || exit 1
	cp "$bb" "$ird/bin/busybox" && cp "$tmp/mod/ppkbench.ko" "$ird/" || exit 1
	cat >"$ird/init" <<EOF
#!/bin/busybox sh
/bin/busybox mount -t proc proc /proc
/bin/busybox mount -t devtmpfs dev /dev
if /bin/busybox insmod /ppkbench.ko $args; then
	/bin/busybox dmesg | /bin/busybox sed -n 's/^.*\\(ppkbench: tag=$tag .*\\)/\\1/p'
else
	echo "ppkbench-insmod-failed: \$(/bin/busybox dmesg | /bin/busybox grep ppkbench | /bin/busybox tail -n 1)"
fi
/bin/busybox poweroff -f
EOF
	chmod +x "$ird/init"
	(cd "$ird" && find . | "$bb" cpio -o -H newc 2>/dev/null | gzip -1) >"$tmp/initramfs.gz" ||
		fail "could not pack the initramfs"
	# shellcheck disable=SC2086
	bench_run_child $pin timeout -k 5 "$timeout_s" qemu-system-x86_64 \
		-accel "$accel" -cpu "$([ "$accel" = kvm ] && echo host || echo max)" \
		-smp 1 -m 1024 -nodefaults -no-user-config -display none \
		-serial "file:$tmp/console" -no-reboot \
		-kernel "$vm" -initrd "$tmp/initramfs.gz" \
		-append "console=ttyS0 loglevel=3 panic=-1 init_on_alloc=0 $append" \
		</dev/null >"$tmp/qemu.log" 2>&1
	rc=$?
	hint=
	[ "$accel" = kvm ] && [ -d /sys/module/kvm_pvm ] &&
		hint=" (this host's KVM is kvm_pvm, which runs only PVM guest kernels: try --accel=tcg)"
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		fail "the VM did not finish in $timeout_s s$hint"
	fi
	[ "$rc" -eq 0 ] || fail "qemu-system-x86_64 exited $rc: $(grep -v '^$' "$tmp/qemu.log" | head -n 1)$hint"
	tr -d '\r' <"$tmp/console" >"$tmp/console.txt"
	! grep -q '^ppkbench-insmod-failed' "$tmp/console.txt" ||
		fail "insmod failed in the VM: $(sed -n 's/^ppkbench-insmod-failed: //p' "$tmp/console.txt")"
	grep "^ppkbench: tag=$tag " "$tmp/console.txt" >"$lines"
	where="booted in QEMU ($accel, 1 vCPU): ${vm_name:-$vm}${append:+, with $append}"
fi

if ! grep -q "^ppkbench: tag=$tag kernel=" "$lines" || ! grep -q ' pages_held=' "$lines"; then
	if [ "$mode" = vm ]; then
		fail "the module printed no results; the VM's console ended with: $(grep -v '^$' "$tmp/console.txt" | tail -n 3 | tr '\n' ' ')"
	fi
	fail "the module printed no results (see dmesg)"
fi
# The output: the module's lines after one saying where they ran
# (insmod, kvm or tcg), which kernel-profile.sh --kernel reads too.
if [ -n "$output" ]; then
	# (the shell's own message left out: ours names the file)
	{
		echo "ppkbench: tag=$tag ran=${accel:-insmod}"
		cat "$lines"
	} 2>/dev/null >"$output" || fail "could not write $output"
fi

if [ "$accel" = tcg ]; then
	echo "Under TCG the figures are the emulator's, not this CPU's: they show that the"
	echo "module ran, not what the allocator costs."
	echo
fi
awk -v where="$where" "$bench_awk_pp_predict"'
function field(name,    i) {
	for (i = 3; i <= NF; i++)
		if (index($i, name "=") == 1)
			return substr($i, length(name) + 2)
	return ""
}
/ kernel=/ {
	printf("    ppkbench on Linux %s, %s\n", field("kernel"), where)
	printf("    %s pages a run, median of %s runs; TSC %s kHz; init_on_alloc %s\n\n",
	       field("pages"), field("runs"), field("tsc_khz"),
	       field("init_on_alloc") == 1 ? "on" : "off")
	next
}
/ error=/ { err = err sprintf(" %s@%s: %s;", field("api"), field("bulk"), field("error")); next }
/ ns_per_page=/ {
	key = field("api") "/" field("bulk")
	order[++n] = key
	# (numbers: substr() gives strings, which compare as text)
	ns[key] = field("ns_per_page") + 0
	ticks[key] = field("ticks_per_page") + 0
	next
}
/ pages_held=/ { held = field("pages_held") }
END {
	print "| API | bulk | ns/page | ticks/page | / single |"
	print "| --- | ---: | ---: | ---: | ---: |"
	for (i = 1; i <= n; i++) {
		split(order[i], k, "/")
		r = "-"
		if (k[1] != "single" && ("single/1" in ns) && ns["single/1"] > 0)
			r = sprintf("%.3f", ns[order[i]] / ns["single/1"])
		printf("| %s | %s | %.2f | %.1f | %s |\n", k[1], k[2],
		       ns[order[i]], ticks[order[i]], r)
	}
	# (kernel-profile.sh prints the lab'"'"'s beside it)
	if (("list/64" in ns) && ("array/64" in ns) && ns["single/1"] > 0)
		printf("\npage_pool'"'"'s refill of 64, array gain / list gain as this kernel'"'"'s allocator\n" \
		       "predicts it, (single - array@64) / (single - list@64) per page: %s\n" \
		       "(v5r9'"'"'s page_bench04: 1.37; the kernel'"'"'s XDP run on v6r5: 2.82)\n",
		       pp_predict(ns["single/1"], ns["list/64"], ns["array/64"]))
	else if ("array/64" in ns)
		printf("\nNo page_pool prediction: this kernel has no bulk list call (gone in 6.14),\n" \
		       "so there is no list gain to set the array'"'"'s against.\n")
	printf("\npages held at the end: %s%s\n", held,
	       held == 0 ? " (every page taken was given back)" : " (a leak in the module)")
	if (err != "")
		printf("failed:%s\n", err)
	exit err != "" || held != 0
}' "$lines"
st=$?

# The contract probes: the kernel's answers, and libpagepool's to the
# same calls where a build is at hand, probe by probe (a kernel without
# the list, from 6.14, answers no list probe, and none is asked of the
# lab's answers there).
sed -n "s/^ppkbench: tag=$tag \(probe=.*\)/\1/p" "$lines" >"$tmp/kernel-probes"
nprobes=$(wc -l <"$tmp/kernel-probes")
if [ "$nprobes" -gt 0 ] && [ -z "$builddir" ]; then
	echo
	echo "$nprobes contract probes answered, not compared: no libpagepool build (--builddir=DIR)"
elif [ "$nprobes" -gt 0 ]; then
	for profile in kernel lean; do
		PAGEPOOL_PROFILE=$profile "$tmp/ppk-probes" >"$tmp/lab-probes.$profile" \
			2>"$tmp/lab.err" ||
			fail "bench/kernel/ppk-probes failed in the $profile profile: $(head -n 1 "$tmp/lab.err")"
	done
	echo
	awk -v lib="libpagepool ($builddir)" '
	FILENAME == ARGV[1] { order[++n] = $1; want[$1] = $0; next }
	FILENAME == ARGV[2] { got["kernel", $1] = $0; next }
	{ got["lean", $1] = $0 }
	END {
		for (i = 1; i <= n; i++)
			for (p = 1; p <= 2; p++) {
				prof = p == 1 ? "kernel" : "lean"
				g = got[prof, order[i]]
				if (g == want[order[i]])
					continue
				if (!(order[i] in bad))
					nbad++
				bad[order[i]] = 1
				diffs = diffs sprintf("  %s: the kernel %s; the %s profile %s\n",
						      substr(order[i], 7), substr(want[order[i]], length(order[i]) + 2),
						      prof, g == "" ? "(no answer)" : substr(g, length(order[i]) + 2))
			}
		if (!nbad) {
			printf("%d contract probes: %s answers each as the kernel did, in both profiles\n", n, lib)
			exit
		}
		printf("%d contract probes: %s answers %d of them otherwise:\n%s", n, lib, nbad, diffs)
		print "(libpagepool emulates 5.13: see whether a difference is the kernel version'"'"'s"
		print "before calling it the library'"'"'s)"
	}' "$tmp/kernel-probes" "$tmp/lab-probes.kernel" "$tmp/lab-probes.lean"
fi
[ "$nprobes" -eq 0 ] || echo "(the probes' lines are kept by --output)"
exit $st
