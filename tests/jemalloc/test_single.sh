#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/test_single on the jemalloc backend.
# shellcheck source=tests/jemalloc/run.sh
. "$top_srcdir/tests/jemalloc/run.sh"
