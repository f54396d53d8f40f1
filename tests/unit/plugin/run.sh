# SPDX-License-Identifier: MIT
# shellcheck shell=sh
#
# The log compiler of the .plugin tests (tests/unit.am): make check runs
#
#	sh tests/unit/plugin/run.sh unit/plugin/NAME.plugin
#
# and this runs the unit test unit/NAME on the plugin backend, with the
# module built from examples/backend-lifo (unit/plugin/backend-lifo.la).
# The test reads PP_TEST_BACKEND and PP_TEST_PLUGIN through
# tests/utils/pp_test.h.

: "${top_builddir:?top_builddir is set by make check}"
case $# in
1) ;;
*)
	echo "Bail out! usage: $0 unit/plugin/NAME.plugin"
	exit 1
	;;
esac
case $1 in
*.plugin) ;;
*)
	echo "Bail out! $0: '$1' is no .plugin test"
	exit 1
	;;
esac
PP_TEST_PLUGIN=$top_builddir/tests/unit/plugin/.libs/backend-lifo.so
if [ ! -f "$PP_TEST_PLUGIN" ]; then
	echo "Bail out! $PP_TEST_PLUGIN not built"
	exit 1
fi
PP_TEST_BACKEND=plugin
export PP_TEST_BACKEND PP_TEST_PLUGIN
exec "$top_builddir/tests/unit/$(basename "$1" .plugin)"
