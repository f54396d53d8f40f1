# SPDX-License-Identifier: MIT
# shellcheck shell=sh
#
# Sourced by the wrappers make check writes (tests/unit.am, one line each):
# unit/pcp/IMPL/NAME.sh runs the unit test unit/NAME, or the pool fuzzer's
# replay fuzz-replay-pool (fuzz.am), on the buddy backend with
#
#   lock     PAGEPOOL_PCP=lock
#   rseq     PAGEPOOL_PCP=rseq; skipped, saying why, where
#            pp_pcp_rseq_supported() says no (ThreadSanitizer builds,
#            non-x86_64, no rseq in glibc or the kernel)
#   norseq   PAGEPOOL_PCP=rseq with glibc's rseq registration turned off
#            (GLIBC_TUNABLES=glibc.pthread.rseq=0): the pools fall back to
#            the lock, with the one-line notice on stderr
#   kernel-lock, kernel-rseq
#            lock and rseq on the kernel profile (PAGEPOOL_PROFILE=kernel)
#
# The tests' pool helpers (tests/utils/pp_test.h) check that each pool
# runs the implementation asked for.

: "${top_builddir:?top_builddir is set by make check}"
pcp_impl=$(basename "$(dirname "$0")")
pcp_test=$(basename "$0" .sh)
PP_TEST_BACKEND=buddy
export PP_TEST_BACKEND
case $pcp_impl in
kernel-*)
	PAGEPOOL_PROFILE=kernel
	export PAGEPOOL_PROFILE
	pcp_impl=${pcp_impl#kernel-}
	;;
esac
case $pcp_impl in
lock)
	PAGEPOOL_PCP=lock
	;;
rseq)
	PAGEPOOL_PCP=rseq
	if ! why=$("$top_builddir/tests/utils/rseq-supported"); then
		echo "1..0 # SKIP PAGEPOOL_PCP=rseq: no rseq pcp lists here: $why"
		exit 0
	fi
	;;
norseq)
	PAGEPOOL_PCP=rseq
	GLIBC_TUNABLES=${GLIBC_TUNABLES:+$GLIBC_TUNABLES:}glibc.pthread.rseq=0
	export GLIBC_TUNABLES
	;;
*)
	echo "Bail out! $0: no pcp implementation called '$pcp_impl'"
	exit 1
	;;
esac
export PAGEPOOL_PCP
case $pcp_test in
test_*) exec "$top_builddir/tests/unit/$pcp_test" "$@" ;;
*) exec "$top_builddir/tests/$pcp_test" "$@" ;;
esac
