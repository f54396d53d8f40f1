#!/bin/sh
# SPDX-License-Identifier: MIT
#
# make stress runs this through the test harness (its suffix rule is for
# .sh files: the program itself is not in TESTS; make check runs it for
# 3 s through pp-stress-check.sh): pp-stress for $STRESS_SECONDS, TAP on
# stdout.
exec "${top_builddir:-.}/tests/stress/pp-stress" "$@"
