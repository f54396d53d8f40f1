/* SPDX-License-Identifier: MIT */
/*
 * Restartable sequences over a per-CPU page list: the sections only the
 * library runs, pp_rseq_push_n(), pp_rseq_pop_cold() and pp_rseq_add().
 * <pagepool/internal/rseq.h> has the frame every section shares (how one
 * starts, commits and is aborted, the PP_RSEQ_* codes), the thread's
 * rseq area, and the sections pagebench's per-CPU floor runs too:
 * pp_rseq_pop1(), pp_rseq_push1(), pp_rseq_pop_n() and
 * pp_rseq_push_n_marked().  Its contract is kept here: alloc/pool.h
 * defines struct pp_pcp before rseq_pcp.h and kernel_rseq.h include
 * this header.
 */
#ifndef PP_ALLOC_RSEQ_H
#define PP_ALLOC_RSEQ_H

#include <pagepool/internal/rseq.h>

#if defined(PP_RSEQ_PCP)

/*
 * Give back up to @n pages from @src at the hot end, while the list
 * stays at or below @limit pages; each is marked a free pcp page of this
 * CPU.  Returns k, the number given back (0 when the list already holds
 * @limit or more), or a PP_RSEQ_* code; *@state_out is the state word
 * after the commit.  @limit must not exceed the ring's slots.
 */
static inline long pp_rseq_push_n(struct rseq *rs, struct pp_pcp *pcp, int cpu,
				  struct pp_page *const *src, unsigned long n,
				  unsigned int limit, uint64_t *state_out)
{
	uint64_t st, top, ring, j, idx, page;
	long k;

	__asm__ __volatile__(
		PP_RSEQ_CS_DESCRIPTOR
		PP_RSEQ_ENTER("%[idx]", "%[rs]")
		PP_RSEQ_CHECK_LIST
		PP_RSEQ_PUSH_ROOM
		"movq %[st], %[top]\n\t"
		"shrq $32, %[top]\n\t"
		"movq %c[ringp](%[pcp]), %[ring]\n\t"
		"xorl %k[j], %k[j]\n\t"
		".p2align 4\n\t"
		"9:\n\t"
		"movq (%[src], %[j], 8), %[page]\n\t"
		"movl %k[top], %k[idx]\n\t"
		"andl %c[mask](%[pcp]), %k[idx]\n\t"
		"movq %[page], (%[ring], %[idx], 8)\n\t"
		"movl %[cpu], %c[pg_cpu](%[page])\n\t"
		"movb %[pcp_state], %c[pg_state](%[page])\n\t"
		"incl %k[top]\n\t"
		"incq %[j]\n\t"
		"cmpq %[k], %[j]\n\t"
		"jb 9b\n\t"
		PP_RSEQ_COMMIT_K("addq")
		"2:\n\t"
		PP_RSEQ_EXITS("%[k]")
		"5:\n\t"
		: [k] "=&r" (k), [st] "=&r" (st), [top] "=&r" (top),
		  [ring] "=&r" (ring), [j] "=&r" (j), [idx] "=&r" (idx),
		  [page] "=&r" (page)
		: PP_RSEQ_COMMON_OPERANDS, PP_RSEQ_LIST_OPERANDS,
		  [src] "r" (src), [n] "rm" (n), [limit] "rm" (limit),
		  [pg_cpu] "i" (offsetof(struct pp_page, pcp_cpu)),
		  [pg_state] "i" (offsetof(struct pp_page, state)),
		  [pcp_state] "i" (PP_PAGE_PCP)
		: "memory", "cc");
	*state_out = st;
	return k;
}

/*
 * Take up to @n pages from the cold end into @dst[0..k), coldest first,
 * if the list holds at least @min pages.  Returns k (0: fewer than @min,
 * or empty) or a PP_RSEQ_* code.
 */
static inline long pp_rseq_pop_cold(struct rseq *rs, struct pp_pcp *pcp,
				    int cpu, struct pp_page **dst,
				    unsigned long n, unsigned int min)
{
	uint64_t st, top, ring, j, idx;
	long k;

	__asm__ __volatile__(
		PP_RSEQ_CS_DESCRIPTOR
		PP_RSEQ_ENTER("%[idx]", "%[rs]")
		PP_RSEQ_CHECK_LIST
		"movq %c[state](%[pcp]), %[st]\n\t"
		"xorl %k[k], %k[k]\n\t"
		"cmpl %[min], %k[st]\n\t"
		"jb 2f\n\t"
		"movl %k[st], %k[k]\n\t"
		"cmpq %[n], %[k]\n\t"
		"cmovaq %[n], %[k]\n\t"
		"testq %[k], %[k]\n\t"
		"jz 2f\n\t"
		"movq %[st], %[top]\n\t"
		"shrq $32, %[top]\n\t"
		"subl %k[st], %k[top]\n\t"	/* the cold end */
		"movq %c[ringp](%[pcp]), %[ring]\n\t"
		"xorl %k[j], %k[j]\n\t"
		".p2align 4\n\t"
		"9:\n\t"
		"movl %k[top], %k[idx]\n\t"
		"andl %c[mask](%[pcp]), %k[idx]\n\t"
		"movq (%[ring], %[idx], 8), %[idx]\n\t"
		"movq %[idx], (%[dst], %[j], 8)\n\t"
		"incl %k[top]\n\t"
		"incq %[j]\n\t"
		"cmpq %[k], %[j]\n\t"
		"jb 9b\n\t"
		"subq %[k], %[st]\n\t"
		"movq %[st], %c[state](%[pcp])\n\t"	/* commit */
		"2:\n\t"
		PP_RSEQ_EXITS("%[k]")
		"5:\n\t"
		: [k] "=&r" (k), [st] "=&r" (st), [top] "=&r" (top),
		  [ring] "=&r" (ring), [j] "=&r" (j), [idx] "=&r" (idx)
		: PP_RSEQ_COMMON_OPERANDS, PP_RSEQ_LIST_OPERANDS,
		  [dst] "r" (dst), [n] "rm" (n), [min] "rm" (min)
		: "memory", "cc");
	return k;
}

/*
 * Add @n to the 64-bit counter at @ctr, which belongs to @cpu: the commit
 * is the add itself, one instruction, so it happens once or not at all.
 * Returns 0, or PP_RSEQ_ABORTED / PP_RSEQ_MOVED.
 */
static inline long pp_rseq_add(struct rseq *rs, int cpu, uint64_t *ctr,
			       uint64_t n)
{
	uint64_t tmp;
	long ret;

	__asm__ __volatile__(
		PP_RSEQ_CS_DESCRIPTOR
		"xorl %k[ret], %k[ret]\n\t"
		PP_RSEQ_ENTER("%[tmp]", "%[rs]")
		"1:\n\t"
		"cmpl %[cpu], %c[rs_cpu](%[rs])\n\t"
		"jne 6f\n\t"
		"addq %[n], (%[ctr])\n\t"		/* commit */
		"2:\n\t"
		PP_RSEQ_EXITS("%[ret]")
		"5:\n\t"
		: [ret] "=&r" (ret), [tmp] "=&r" (tmp)
		: PP_RSEQ_COMMON_OPERANDS, [ctr] "r" (ctr), [n] "r" (n)
		: "memory", "cc");
	return ret;
}

#endif /* PP_RSEQ_PCP */
#endif /* PP_ALLOC_RSEQ_H */
