#!/bin/sh
# SPDX-License-Identifier: MIT
#
# setup.sh: install the Debian packages this project needs (only those
# missing), then build it out of tree in ./build (or $BUILD_DIR).
#
#   scripts/setup.sh [configure options...]
#
# Runs apt-get as root, through sudo otherwise.  Set PP_SKIP_APT=1 to skip
# the package step (e.g. on a machine you manage yourself).
set -eu

case ${1:-} in
-h|--help)
	cat <<'EOF'
Usage: scripts/setup.sh [CONFIGURE-OPTION]...
Install the Debian packages this project needs that are missing (apt-get,
as root or through sudo; PP_SKIP_APT=1 skips it), then configure and
build out of tree in ./build (BUILD_DIR=DIR: in DIR).  Options are passed
to ./configure (./configure --help lists them); with none, an existing
build is built again without configuring it anew.
EOF
	exit 0 ;;
esac

top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$top/build}

# Build tools; LTTng (tracepoints, rpcsim --trace, the trace test) and
# babeltrace2 (rpcsim-analyze); jemalloc (second page backend, pagebench);
# json-c (every tool's JSON writer, rpcsim-compare's reader); gnuplot
# (--plot); python3 checks JSON in tests; clang with its libFuzzer and
# sanitizer runtimes (make fuzz); DPDK (libdpdk.pc) and gperftools
# (libtcmalloc_minimal.pc) for pagebench's mempool and tcmalloc
# baselines, both optional to configure; python3-lttnganalyses
# (lttng-periodstats, doc/tracing.md's period recipe and its test); GNU
# parallel runs rpcsim --sweep --plan's lines in its test (rsync for its
# --return);
# systemtap-sdt-dev (<sys/sdt.h>) for the USDT probes, bpftrace to attach
# to them in their test; libxml2-utils (xmllint) for the schema checks of
# tests/tracecompass/test_xml.sh and test_session_profile.sh, groff-base
# (groff) for tests/man/test_man.sh's formatting check: those tests skip
# them without it.  Not here: valgrind, which only bench/callgrind.sh
# needs, run by hand (doc/pagebench.md); Slurm and MUNGE, which .ci/run
# installs for tests/rpcsim/test_slurm.sh.
# libclang-rt-dev: the runtimes of Debian's default clang (14 on Debian
# 12).  OPTIONAL: installed where the release has them (Debian 13 has no
# python3-lttnganalyses; its test skips).
PACKAGES="build-essential autoconf automake libtool pkg-config python3
	liblttng-ust-dev liblttng-ctl-dev lttng-tools babeltrace2 libbabeltrace2-dev
	libjemalloc-dev libjson-c-dev gnuplot-nox clang libclang-rt-dev
	libdpdk-dev libgoogle-perftools-dev parallel rsync
	systemtap-sdt-dev bpftrace libxml2-utils groff-base"
OPTIONAL="python3-lttnganalyses"

# in_archive P: apt knows package P (from the lists it has).
in_archive()
{
	apt-cache show "$1" >/dev/null 2>&1
}
missing=
for p in $PACKAGES $OPTIONAL; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' && continue
	# An optional package this release lacks is not missing (once apt
	# has lists: a system without any yet cannot tell).
	case " $OPTIONAL " in
	*" $p "*) ! in_archive build-essential || in_archive "$p" || continue ;;
	esac
	missing="$missing $p"
done

if [ -n "$missing" ] && [ "${PP_SKIP_APT:-0}" != 1 ]; then
	if [ "$(id -u)" -eq 0 ]; then
		sudo=
	elif command -v sudo >/dev/null 2>&1; then
		sudo=sudo
	else
		echo "setup.sh: missing packages:$missing; run as root or install sudo" >&2
		exit 1
	fi
	export DEBIAN_FRONTEND=noninteractive
	$sudo apt-get update -qq
	install=
	for p in $missing; do
		case " $OPTIONAL " in
		*" $p "*) in_archive "$p" || {
			echo "setup.sh: $p is not in this release's archive; the tests that use it skip" >&2
			continue
		} ;;
		esac
		install="$install $p"
	done
	if [ -n "$install" ]; then
		echo "setup.sh: installing$install" >&2
		# shellcheck disable=SC2086
		$sudo apt-get install -y -qq --no-install-recommends $install >/dev/null
	fi
fi

cd "$top"
[ -x configure ] && [ configure -nt configure.ac ] || ./autogen.sh
mkdir -p "$build"
cd "$build"
if [ ! -f config.status ] || [ $# -gt 0 ]; then
	"$top/configure" -q "$@"
fi
make -j"$(nproc)" >/dev/null
echo "setup.sh: built in $build" >&2
