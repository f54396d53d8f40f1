#!/bin/sh
# SPDX-License-Identifier: MIT
#
# make stress runs this through the test harness (its suffix rule is for
# .sh files: the program itself is not in TESTS, so that make check does
# not run it): pp-stress for $STRESS_SECONDS, TAP on stdout.
exec "${top_builddir:-.}/tests/stress/pp-stress" "$@"
