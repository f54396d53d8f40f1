/* SPDX-License-Identifier: MIT */
/*
 * The kernel profile's restartable sections: its pcp lists, threaded
 * through the pages' lru as the kernel's are, and the per-CPU counter
 * differentials.  The frame of each section (descriptor, CPU and stopped
 * checks, abort handler) is <pagepool/internal/rseq.h>'s.
 *
 * A section commits with one store, and the kernel's list_del() and
 * list_add() store two or three words of the list besides the pages'
 * own.  So a list here is (struct ppk_list) one word, (count << 32) |
 * pfn of the first page, which every change at the head commits, plus
 * @tail, and the lru links are kept exact where a section can keep them:
 *
 *   - every page but the last has lru.next on the page after it;
 *   - every page but the first has lru.prev on the page before it;
 *   - @tail is the last page while the list is not empty.
 *
 * The first page's lru.prev and the last page's lru.next are written as
 * the kernel writes them (the list head's address) but never read.  Each
 * section's stores before its commit are then either to pages the caller
 * owns or harmless if it is aborted:
 *
 *   - a push (list_add() at the head) links its pages to each other, the
 *     last of them to the old first page, and sets the old first page's
 *     lru.prev: aborted, that page is still the first, whose lru.prev
 *     nobody reads; onto an empty list it also sets @tail, which an
 *     empty list does not read;
 *   - a pop (list_first_entry() + list_del()) reads the pages' lru.next
 *     and stores nothing but the commit.  This is the one store of the
 *     kernel's it leaves out: list_del() sets the next page's lru.prev,
 *     and if a section were aborted after that store the next page, still
 *     second, would point back at the list head.  The next page becomes
 *     the first, whose lru.prev is not read; list_del()'s poison of the
 *     popped page's own links is written once the page is the caller's;
 *   - a drain from the cold end (list_last_entry() + list_del() in
 *     free_pcppages_bulk()) moves @tail as well as the count: it commits
 *     both with one 16-byte store (the struct is 16-byte aligned).
 *
 * The counter sections are __inc_numa_state() and __mod_zone_page_state():
 * read the differential, add, and store either the sum or 0 when it
 * passed the threshold, the caller then adding the folded sum to the
 * zone's counters (a fold is the caller's once the store commits).
 */
#ifndef PP_ALLOC_KERNEL_RSEQ_H
#define PP_ALLOC_KERNEL_RSEQ_H

#if defined(PP_RSEQ_PCP)

#include "rseq.h"

#define PPK_RSEQ_LIST_OPERANDS						\
	[pcp] "r" (pcp), [l] "r" (l),					\
	[stopped] "i" (offsetof(struct pp_pcp, stopped)),		\
	[tail] "i" (offsetof(struct ppk_list, tail))

_Static_assert(offsetof(struct pp_page, lru) == 0 &&
	       offsetof(struct pp_list_head, next) == 0 &&
	       offsetof(struct pp_list_head, prev) == 8 &&
	       sizeof(struct pp_page) == 64,
	       "the sections take a page's address for its lru's and "
	       "index descriptors by pfn << 6");

/*
 * Take up to @n pages off the head of list @l of @pcp into @dst[0..k),
 * first first: __rmqueue_pcplist()'s list_first_entry() and list_del(),
 * k times.  @map is the pool's mem_map.  Returns k (0: the list is empty)
 * or a PP_RSEQ_* code; after a code @dst[0..@n) may hold pages still on
 * the list.
 */
static inline long ppk_rseq_take(struct rseq *rs, struct pp_pcp *pcp,
				 int cpu, struct ppk_list *l,
				 struct pp_page *map, struct pp_page **dst,
				 unsigned long n)
{
	uint64_t w, cnt, p, j;
	long k;

	__asm__ __volatile__(
		PP_RSEQ_CS_DESCRIPTOR
		PP_RSEQ_ENTER("%[w]", "%[rs]")
		PP_RSEQ_CHECK_LIST
		"movq (%[l]), %[w]\n\t"
		"movq %[w], %[cnt]\n\t"
		"shrq $32, %[cnt]\n\t"
		"movq %[cnt], %[k]\n\t"
		"cmpq %[n], %[k]\n\t"
		"cmovaq %[n], %[k]\n\t"
		"testq %[k], %[k]\n\t"
		"jz 2f\n\t"
		"movl %k[w], %k[p]\n\t"
		"shlq $6, %[p]\n\t"
		"addq %[map], %[p]\n\t"
		"xorl %k[j], %k[j]\n\t"
		".p2align 4\n\t"
		"9:\n\t"
		"movq %[p], (%[dst], %[j], 8)\n\t"
		"incq %[j]\n\t"
		"cmpq %[cnt], %[j]\n\t"
		"jae 10f\n\t"
		"movq (%[p]), %[p]\n\t"		/* p = p->lru.next */
		"cmpq %[k], %[j]\n\t"
		"jb 9b\n\t"
		/* k < count: p is the new first page. */
		"subq %[map], %[p]\n\t"
		"shrq $6, %[p]\n\t"
		"jmp 11f\n\t"
		"10:\n\t"
		"xorl %k[p], %k[p]\n\t"		/* all taken: empty */
		"11:\n\t"
		"subq %[k], %[cnt]\n\t"
		"shlq $32, %[cnt]\n\t"
		"orq %[p], %[cnt]\n\t"
		"movq %[cnt], (%[l])\n\t"	/* commit */
		"2:\n\t"
		PP_RSEQ_EXITS("%[k]")
		"5:\n\t"
		: [k] "=&r" (k), [w] "=&r" (w), [cnt] "=&r" (cnt),
		  [p] "=&r" (p), [j] "=&r" (j)
		: PP_RSEQ_COMMON_OPERANDS, PPK_RSEQ_LIST_OPERANDS,
		  [map] "rm" (map), [dst] "r" (dst), [n] "rm" (n)
		: "memory", "cc");
	return k;
}

/*
 * Put the chain @first .. @last (@k pages of the caller's, linked to each
 * other through lru, @last->lru.next on the list head) at the head of
 * list @l of @pcp: list_add(), k times.  Returns the pages on @pcp's
 * lists after the commit, all migratetypes (pcp->count), or a PP_RSEQ_*
 * code.
 */
static inline long ppk_rseq_add(struct rseq *rs, struct pp_pcp *pcp, int cpu,
				struct ppk_list *l, struct pp_page *map,
				struct pp_page *first, struct pp_page *last,
				unsigned long k)
{
	uint64_t w, cnt, old;
	long tot;

	__asm__ __volatile__(
		PP_RSEQ_CS_DESCRIPTOR
		PP_RSEQ_ENTER("%[w]", "%[rs]")
		PP_RSEQ_CHECK_LIST
		"movq %c[l0](%[pcp]), %[tot]\n\t"
		"shrq $32, %[tot]\n\t"
		"movq %c[l1](%[pcp]), %[old]\n\t"
		"shrq $32, %[old]\n\t"
		"addq %[old], %[tot]\n\t"
		"movq %c[l2](%[pcp]), %[old]\n\t"
		"shrq $32, %[old]\n\t"
		"addq %[old], %[tot]\n\t"
		"addq %[k], %[tot]\n\t"
		"movq (%[l]), %[w]\n\t"
		"movq %[w], %[cnt]\n\t"
		"shrq $32, %[cnt]\n\t"
		"jz 10f\n\t"
		"movl %k[w], %k[old]\n\t"
		"shlq $6, %[old]\n\t"
		"addq %[map], %[old]\n\t"
		"movq %[old], (%[last])\n\t"	/* last->lru.next = first */
		"movq %[last], 8(%[old])\n\t"	/* first->lru.prev = last */
		"jmp 11f\n\t"
		"10:\n\t"
		"movq %[last], %c[tail](%[l])\n\t"
		"11:\n\t"
		"addq %[k], %[cnt]\n\t"
		"shlq $32, %[cnt]\n\t"
		"movq %[first], %[old]\n\t"
		"subq %[map], %[old]\n\t"
		"shrq $6, %[old]\n\t"
		"orq %[old], %[cnt]\n\t"
		"movq %[cnt], (%[l])\n\t"	/* commit */
		"2:\n\t"
		PP_RSEQ_EXITS("%[tot]")
		"5:\n\t"
		: [tot] "=&r" (tot), [w] "=&r" (w), [cnt] "=&r" (cnt),
		  [old] "=&r" (old)
		: PP_RSEQ_COMMON_OPERANDS, PPK_RSEQ_LIST_OPERANDS,
		  [map] "rm" (map), [first] "r" (first), [last] "r" (last),
		  [k] "rm" (k),
		  [l0] "i" (offsetof(struct pp_pcp, k.lists[0].word)),
		  [l1] "i" (offsetof(struct pp_pcp, k.lists[1].word)),
		  [l2] "i" (offsetof(struct pp_pcp, k.lists[2].word))
		: "memory", "cc");
	return tot;
}

/*
 * Take up to @n pages off the tail of list @l into @dst[0..k), last
 * first: free_pcppages_bulk()'s list_last_entry() and list_del().  The
 * count and @tail move together in one 16-byte store.  Returns k (0: the
 * list is empty) or a PP_RSEQ_* code.
 */
static inline long ppk_rseq_take_tail(struct rseq *rs, struct pp_pcp *pcp,
				      int cpu, struct ppk_list *l,
				      struct pp_page **dst, unsigned long n)
{
	uint64_t w, cnt, p, j;
	__attribute__((vector_size(16))) long long lo, hi;
	long k;

	__asm__ __volatile__(
		PP_RSEQ_CS_DESCRIPTOR
		PP_RSEQ_ENTER("%[w]", "%[rs]")
		PP_RSEQ_CHECK_LIST
		"movq (%[l]), %[w]\n\t"
		"movq %[w], %[cnt]\n\t"
		"shrq $32, %[cnt]\n\t"
		"movq %[cnt], %[k]\n\t"
		"cmpq %[n], %[k]\n\t"
		"cmovaq %[n], %[k]\n\t"
		"testq %[k], %[k]\n\t"
		"jz 2f\n\t"
		"movq %c[tail](%[l]), %[p]\n\t"
		"xorl %k[j], %k[j]\n\t"
		".p2align 4\n\t"
		"9:\n\t"
		"movq %[p], (%[dst], %[j], 8)\n\t"
		"incq %[j]\n\t"
		"cmpq %[cnt], %[j]\n\t"
		"jae 10f\n\t"
		"movq 8(%[p]), %[p]\n\t"	/* p = p->lru.prev */
		"cmpq %[k], %[j]\n\t"
		"jb 9b\n\t"
		/* k < count: p is the new tail, the first page stays. */
		"subq %[k], %[cnt]\n\t"
		"shlq $32, %[cnt]\n\t"
		"movl %k[w], %k[w]\n\t"
		"orq %[cnt], %[w]\n\t"
		"jmp 11f\n\t"
		"10:\n\t"
		"xorl %k[w], %k[w]\n\t"		/* all taken: empty */
		"xorl %k[p], %k[p]\n\t"
		"11:\n\t"
		"movq %[w], %[lo]\n\t"
		"movq %[p], %[hi]\n\t"
		"punpcklqdq %[hi], %[lo]\n\t"
		"movdqa %[lo], (%[l])\n\t"	/* commit: word and tail */
		"2:\n\t"
		PP_RSEQ_EXITS("%[k]")
		"5:\n\t"
		: [k] "=&r" (k), [w] "=&r" (w), [cnt] "=&r" (cnt),
		  [p] "=&r" (p), [j] "=&r" (j), [lo] "=&x" (lo),
		  [hi] "=&x" (hi)
		: PP_RSEQ_COMMON_OPERANDS, PPK_RSEQ_LIST_OPERANDS,
		  [dst] "r" (dst), [n] "rm" (n)
		: "memory", "cc");
	return k;
}

/*
 * __inc_numa_state() on this CPU's differential @diff: add @n (1, or a
 * bulk call's pages with batched statistics); past @threshold the
 * differential goes back to 0 and the sum is returned for the caller to
 * fold.  Returns the sum to fold (0: none) or PP_RSEQ_ABORTED /
 * PP_RSEQ_MOVED.
 */
static inline long ppk_rseq_add_diff16(struct rseq *rs, int cpu,
				       uint16_t *diff, unsigned int n,
				       unsigned int threshold)
{
	uint64_t v, nv;
	long ret;

	__asm__ __volatile__(
		PP_RSEQ_CS_DESCRIPTOR
		"xorl %k[ret], %k[ret]\n\t"
		PP_RSEQ_ENTER("%[v]", "%[rs]")
		"1:\n\t"
		"cmpl %[cpu], %c[rs_cpu](%[rs])\n\t"
		"jne 6f\n\t"
		"movzwl (%[diff]), %k[v]\n\t"
		"addl %[n], %k[v]\n\t"
		"xorl %k[ret], %k[ret]\n\t"
		"cmpl %[thr], %k[v]\n\t"
		"cmoval %k[v], %k[ret]\n\t"
		"movl %k[v], %k[nv]\n\t"
		"subl %k[ret], %k[nv]\n\t"
		"movw %w[nv], (%[diff])\n\t"	/* commit */
		"2:\n\t"
		PP_RSEQ_EXITS("%[ret]")
		"5:\n\t"
		: [ret] "=&r" (ret), [v] "=&r" (v), [nv] "=&r" (nv)
		: PP_RSEQ_COMMON_OPERANDS, [diff] "r" (diff),
		  [n] "rm" (n), [thr] "rm" (threshold)
		: "memory", "cc");
	return ret;
}

/*
 * __mod_zone_page_state() on this CPU's differential @diff: add @delta;
 * past +-@threshold the differential goes back to 0 and *@fold gets the
 * sum (else 0).  Returns 0 or PP_RSEQ_ABORTED / PP_RSEQ_MOVED.
 */
static inline long ppk_rseq_mod_diff8(struct rseq *rs, int cpu, int8_t *diff,
				      int delta, int threshold, long *fold)
{
	uint64_t x, a, f, nv;
	long ret;

	__asm__ __volatile__(
		PP_RSEQ_CS_DESCRIPTOR
		"xorl %k[ret], %k[ret]\n\t"
		PP_RSEQ_ENTER("%[x]", "%[rs]")
		"1:\n\t"
		"cmpl %[cpu], %c[rs_cpu](%[rs])\n\t"
		"jne 6f\n\t"
		"movsbl (%[diff]), %k[x]\n\t"
		"addl %[delta], %k[x]\n\t"
		"movl %k[x], %k[a]\n\t"
		"negl %k[a]\n\t"
		"cmovsl %k[x], %k[a]\n\t"	/* a = |x| */
		"xorl %k[f], %k[f]\n\t"
		"cmpl %[thr], %k[a]\n\t"
		"cmovgl %k[x], %k[f]\n\t"
		"movl %k[x], %k[nv]\n\t"
		"subl %k[f], %k[nv]\n\t"
		"movb %b[nv], (%[diff])\n\t"	/* commit */
		"2:\n\t"
		PP_RSEQ_EXITS("%[ret]")
		"5:\n\t"
		: [ret] "=&r" (ret), [x] "=&r" (x), [a] "=&r" (a),
		  [f] "=&r" (f), [nv] "=&r" (nv)
		: PP_RSEQ_COMMON_OPERANDS, [diff] "r" (diff),
		  [delta] "rm" (delta), [thr] "rm" (threshold)
		: "memory", "cc");
	*fold = (int)f;
	return ret;
}

#endif /* PP_RSEQ_PCP */
#endif /* PP_ALLOC_KERNEL_RSEQ_H */
