# SPDX-License-Identifier: MIT
#
# Sourced by the wrappers next to it: run the unit test named like the
# wrapper (test_bulk_array.sh runs tests/test_bulk_array) on the jemalloc
# backend.  The test reads PP_TEST_BACKEND through tests/utils/pp_test.h.

: "${top_builddir:?top_builddir is set by make check}"
PP_TEST_BACKEND=jemalloc
export PP_TEST_BACKEND
exec "$top_builddir/tests/$(basename "$0" .sh)" "$@"
