# SPDX-License-Identifier: MIT
# shellcheck shell=sh
#
# The log compiler of the .jemalloc tests (tests/unit.am): make check runs
#
#	sh tests/unit/jemalloc/run.sh unit/jemalloc/NAME.jemalloc
#
# and this runs the unit test unit/NAME on the jemalloc backend.  The
# test reads PP_TEST_BACKEND through tests/utils/pp_test.h.

: "${top_builddir:?top_builddir is set by make check}"
case $# in
1) ;;
*)
	echo "Bail out! usage: $0 unit/jemalloc/NAME.jemalloc"
	exit 1
	;;
esac
case $1 in
*.jemalloc) ;;
*)
	echo "Bail out! $0: '$1' is no .jemalloc test"
	exit 1
	;;
esac
if [ "${PP_WITH_JEMALLOC:-yes}" = no ]; then
	echo "1..0 # SKIP libpagepool built without jemalloc (./configure --without-jemalloc)"
	exit 0
fi
PP_TEST_BACKEND=jemalloc
export PP_TEST_BACKEND
exec "$top_builddir/tests/unit/$(basename "$1" .jemalloc)"
