#!/bin/sh
# SPDX-License-Identifier: MIT
#
# bench/kernel-bench.sh --vm=debian finds the kernel image in both of
# Debian's package layouts, with stand-ins (no download, no VM): up to
# 6.x linux-image-VER holds boot/vmlinuz-VER; from 7.x it holds nothing
# and depends on linux-binary-VER, which holds usr/lib/modules/VER/vmlinuz.
# apt-get in PATH "downloads" packages built here with dpkg-deb, each
# image a file naming its layout; qemu-system-x86_64 in PATH says which
# image it was given and exits 1, which the script reports.  Checks: the
# 6.x image booted without a second download; the 7.x image through
# linux-binary; --cache reused without apt-get; a linux-image with
# neither the image nor the dependency refused with one line, exit 1.
# And what Debian 12 meets with 7.x headers: the kernel's compiler
# (gcc-14) missing, said with the compiler the headers name.
# The real 6.x path, booted, is test_kernel_bench.sh's.

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
# shellcheck source=tests/utils/tap.sh
. "$top_srcdir/tests/utils/tap.sh"
# shellcheck source=tests/bench/common.sh
. "$top_srcdir/tests/bench/common.sh"

bench_script kernel-bench.sh
for t in make dpkg-deb; do
	command -v $t >/dev/null 2>&1 || plan_skip_all "$t not found"
done
plan_tests 5

bin=$tmpdir/bin debs=$tmpdir/debs
mkdir -p "$bin" "$debs"
# A package: name, version-dependent file or '', Depends or ''.
mkdeb()
{
	d=$tmpdir/pkg/$1
	mkdir -p "$d/DEBIAN"
	if [ -n "$2" ]; then
		mkdir -p "$d/$(dirname "$2")"
		echo "image of $1" >"$d/$2"
	fi
	{
		echo "Package: $1"
		echo "Version: 1.0"
		echo "Architecture: amd64"
		echo "Maintainer: test <test@example.org>"
		[ -z "$3" ] || echo "Depends: $3"
		echo "Description: stand-in"
	} >"$d/DEBIAN/control"
	dpkg-deb -b "$d" "$debs/${1}_1.0_amd64.deb" >/dev/null 2>&1 ||
		bail_out "dpkg-deb could not build $1"
}
old=6.9.1-amd64 new=7.3.4+deb13-amd64 bad=7.4.0-amd64
mkdeb "linux-image-$old" "boot/vmlinuz-$old" ''
mkdeb "linux-image-$new" '' "linux-base, linux-binary-$new (= 1.0)"
mkdeb "linux-binary-$new" "usr/lib/modules/$new/vmlinuz" ''
mkdeb "linux-image-$bad" '' 'linux-base'

cat >"$bin/apt-get" <<'EOF'
#!/bin/sh
pkg=$3
echo "apt-get $*" >>"$FAKE_CALLS"
[ -f "$FAKE_DEBS/${pkg}_1.0_amd64.deb" ] || { echo "E: Unable to locate package $pkg" >&2; exit 100; }
cp "$FAKE_DEBS/${pkg}_1.0_amd64.deb" .
EOF
cat >"$bin/qemu-system-x86_64" <<'EOF'
#!/bin/sh
while [ $# -gt 0 ]; do
	[ "$1" = -kernel ] && { echo "stand-in given $(cat "$2")"; exit 1; }
	shift
done
echo "stand-in given no -kernel"; exit 1
EOF
# The initramfs is packed with busybox's cpio: a stand-in swallows it.
printf '#!/bin/sh\ncat >/dev/null\n' >"$bin/busybox"
chmod +x "$bin/apt-get" "$bin/qemu-system-x86_64" "$bin/busybox"
FAKE_CALLS=$tmpdir/calls FAKE_DEBS=$debs
export FAKE_CALLS FAKE_DEBS

# The headers of VER: a folder of that name whose makefile writes a dummy
# module.
headers()
{
	standin_headers "$tmpdir/src/linux-headers-$1"
	echo "$tmpdir/src/linux-headers-$1"
}
# run_vm VER [OPTION]...: kernel-bench.sh --vm=debian on those headers.
run_vm()
{
	v=$1
	shift
	: >"$FAKE_CALLS"
	# (from $tmpdir: no ./build to compare the probes with)
	(cd "$tmpdir" && PATH=$bin:$PATH run_cmd 60 sh "$SCRIPT" --vm=debian \
		--kdir="$(headers "$v")" --accel=tcg "$@")
	status=$?
}

why()
{
	diag "status $status: $(cat "$ERR"); calls: $(tr '\n' ';' <"$FAKE_CALLS")"
}

run_vm "$old"
[ "$status" -eq 1 ] &&
	grep -q "exited 1: stand-in given image of linux-image-$old$" "$ERR" &&
	[ "$(cat "$FAKE_CALLS")" = "apt-get download -q linux-image-$old" ]
ok $? "6.x: boot/vmlinuz-VER of linux-image-VER is booted, nothing else fetched" || why

mkdir "$tmpdir/cache"
run_vm "$new" --cache="$tmpdir/cache"
[ "$status" -eq 1 ] &&
	grep -q "exited 1: stand-in given image of linux-binary-$new$" "$ERR" &&
	[ "$(cat "$FAKE_CALLS")" = "apt-get download -q linux-image-$new
apt-get download -q linux-binary-$new" ]
ok $? "7.x: linux-image-VER depends on linux-binary-VER, whose usr/lib/modules/VER/vmlinuz is booted" || why

run_vm "$new" --cache="$tmpdir/cache"
[ "$status" -eq 1 ] &&
	grep -q "exited 1: stand-in given image of linux-binary-$new$" "$ERR" &&
	[ ! -s "$FAKE_CALLS" ]
ok $? "--cache: both packages reused, apt-get not called" || why

run_vm "$bad"
[ "$status" -eq 1 ] && [ "$(wc -l <"$ERR")" -eq 1 ] &&
	grep -q "^kernel-bench.sh: no vmlinuz in linux-image-$bad (boot/vmlinuz-$bad) or linux-binary-$bad " "$ERR" &&
	[ "$(cat "$FAKE_CALLS")" = "apt-get download -q linux-image-$bad" ]
ok $? "an image package with neither: one line, exit 1, linux-binary not fetched" || why

# Headers whose compiler is missing: make fails as kbuild does then.
h=$(headers "$old")
printf 'modules:\n\t@echo "/bin/sh: 1: x86_64-linux-gnu-gcc-14: not found"; exit 127\n' >"$h/Makefile"
echo 'CONFIG_CC_VERSION_TEXT="x86_64-linux-gnu-gcc-14 (Debian 14.2.0-19) 14.2.0"' >"$h/.config"
(cd "$tmpdir" && PATH=$bin:$PATH run_cmd 60 sh "$SCRIPT" --vm=debian --kdir="$h" --accel=tcg)
status=$?
[ "$status" -eq 1 ] &&
	grep -q '^/bin/sh: 1: x86_64-linux-gnu-gcc-14: not found$' "$ERR" &&
	grep -q '^kernel-bench.sh: that kernel was built with x86_64-linux-gnu-gcc-14 (Debian 14.2.0-19) 14.2.0, which this system lacks' "$ERR"
ok $? "the kernel's compiler missing: make's line, and the compiler the headers name" || why
