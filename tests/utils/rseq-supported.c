/* SPDX-License-Identifier: MIT */
/*
 * utils/rseq-supported: exit 0 if a pool could use the rseq pcp lists
 * here (pp_pcp_rseq_supported()), else print why on stdout and exit 1.
 * unit/pcp/run.sh asks it before the suite's PAGEPOOL_PCP=rseq run, so
 * that a build or machine without rseq skips that run with the reason;
 * rpcsim/test_pcp.sh, before it asks rpcsim for rseq.
 */
#include <stdio.h>

#include <pagepool/pagepool.h>

int main(void)
{
	const char *why = "unknown";

	if (pp_pcp_rseq_supported(&why))
		return 0;
	printf("%s\n", why);
	return 1;
}
