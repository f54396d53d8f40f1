#!/bin/sh
# SPDX-License-Identifier: MIT
#
# libpagepool's answers to bench/kernel/ppkbench.c's contract probes (the
# bulk array at its corners, the bulk list onto an empty and a non-empty
# list, __GFP_ZERO through each API), made by bench/kernel/ppk-probes.c,
# are those Debian 12's 6.1 kernel gave, recorded in
# kernel-6.1-probes.txt: word for word, in both profiles and with both
# pcp implementations, every page back (ppk-probes exits 1 otherwise).
# And those of the 11 probes a kernel without the bulk list call still
# answers, as Debian's 7.3 gave them (kernel-7.3-probes.txt).
# test_kernel_bench.sh asks the kernel itself, where QEMU and Debian's
# kernel are at hand; this test needs neither.

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
# shellcheck source=tests/utils/tap.sh
. "$top_srcdir/tests/utils/tap.sh"

probes=$top_builddir/tests/bench/ppk-probes
[ -x "$probes" ] || plan_skip_all "tests/bench/ppk-probes not built"
tap_tmpdir kernel-probes
want=$tmpdir/want want73=$tmpdir/want73
grep -v '^#' "$top_srcdir/tests/bench/kernel-6.1-probes.txt" >"$want"
grep -v '^#' "$top_srcdir/tests/bench/kernel-7.3-probes.txt" >"$want73"

plan_tests 10

[ "$(wc -l <"$want")" -eq 16 ] && [ "$(grep -c '^probe=list' "$want")" -eq 5 ]
ok $? "the 6.1 record holds the 16 answers, 5 of them the list's (4 corners, __GFP_ZERO)" ||
	diag "$(cat "$want")"
[ "$(wc -l <"$want73")" -eq 11 ] && ! grep -q '^probe=list' "$want73"
ok $? "the 7.3 record holds 11 answers, none of them the list's" ||
	diag "$(cat "$want73")"
for profile in kernel lean; do
	for pcp in lock rseq; do
		PAGEPOOL_PROFILE=$profile PAGEPOOL_PCP=$pcp "$probes" >"$OUT" 2>"$ERR"
		status=$?
		# rseq falls back to lock where the kernel has no rseq
		[ "$status" -eq 0 ] && cmp -s "$want" "$OUT"
		ok $? "$profile profile, PAGEPOOL_PCP=$pcp: Linux 6.1's answers, every page back" ||
			diag "status $status: $(diff "$want" "$OUT" | tr '\n' ' ') $(head -c 300 "$ERR")"
		# The library's answers to the probes 7.3 answered, by name.
		awk 'NR == FNR { split($1, p, "="); want[p[2]] = 1; next }
		     { split($1, p, "="); if (p[2] in want) print }' "$want73" "$OUT" >"$tmpdir/got73"
		[ "$status" -eq 0 ] && cmp -s "$want73" "$tmpdir/got73"
		ok $? "$profile profile, PAGEPOOL_PCP=$pcp: Linux 7.3's 11 answers" ||
			diag "$(diff "$want73" "$tmpdir/got73" | tr '\n' ' ')"
	done
done
exit_status
