#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/test_refcount on the jemalloc backend.
# shellcheck source=tests/jemalloc/run.sh
. "$top_srcdir/tests/jemalloc/run.sh"
