#!/bin/sh
# SPDX-License-Identifier: MIT
#
# make check's short stress run: pp-stress for 3 s in rounds of 0.5 s,
# two pools at a time, rseq and lock rounds in turn (the lock only where
# rseq is not supported: the restart check is then skipped, saying why),
# so that the plain test suite covers the rseq restarts too.  make stress
# runs it longer (pp-stress.sh).
exec "${top_builddir:-.}/tests/stress/pp-stress" --duration=3 --round=0.5 "$@"
