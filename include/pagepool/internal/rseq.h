/* SPDX-License-Identifier: MIT */
/*
 * Restartable sequences over a per-CPU page list: the frame every section
 * has, and the sections pagebench's per-CPU floor runs as well as the
 * library (pp_rseq_pop1(), pp_rseq_push1(), pp_rseq_pop_n(),
 * pp_rseq_push_n_marked()).
 *
 * Internal, not installed (include/Makefile.am): the interface between
 * libpagepool (alloc/rseq.h includes this header and adds the sections
 * only the library runs) and pagebench/percpu.c, so that the floor
 * measures the very instructions of the library's fast paths.  It may
 * change with any commit; nothing outside this tree may include it.
 *
 * The includer's part: where this build defines PP_RSEQ_PCP
 * (<pagepool/internal/rseq-config.h>, included here), struct pp_pcp must
 * be defined before this header, with at least these members, anywhere
 * in it (the sections take their offsets; the widths are checked below):
 *
 *	_Atomic uint64_t state;		(top << 32) | count
 *	atomic_uint stopped;		nonzero: a remote drain owns the list
 *	unsigned int mask;		ring slots - 1, a power of two
 *	struct pp_page **ring;
 *
 * The library's is in alloc/pool.h, pagebench's in percpu.c.
 *
 * In the kernel a task works on its CPU's pcp list with preemption (and,
 * before 2022, interrupts) off, so nothing else on that CPU can see the
 * list half changed and the task cannot move to another CPU in between.
 * User space cannot turn preemption off, but rseq(2) gives the same
 * guarantee the other way round: a critical section is a short run of
 * instructions that ends with one store (the commit); if the thread is
 * preempted, migrated or signalled before that store, the kernel moves it
 * to the section's abort handler instead of letting it resume, and the
 * section runs again from the start.  A thread therefore never holds a
 * list while it is not running, which is what the lock implementation
 * cannot promise.
 *
 * Every section here has the same frame:
 *
 *   - store the address of its descriptor (struct rseq_cs: start, length,
 *     abort address) in the thread's rseq area, which glibc 2.35+
 *     registers for every thread;
 *   - start: check that the thread still runs on the CPU whose list it
 *     picked (the C caller read rseq->cpu_id) and that no remote drain has
 *     stopped the list;
 *   - read the list's packed state word, (top << 32) | count, compute;
 *     stores to places nobody else can see yet (the caller's array, ring
 *     slots past the hot end, descriptors of pages the caller owns);
 *   - commit: one 64-bit store of the new state word.
 *
 * The abort handler (preceded by the signature glibc registered,
 * RSEQ_SIG) and the exits for a moved thread or a stopped list return a
 * negative code; the C callers (alloc/rseq_pcp.h, alloc/pcp.c,
 * pagebench/percpu.c) start over.  Nothing a section wrote before its
 * commit matters if it is aborted: ring slots past the hot end are free,
 * a page taken into the caller's array or a page given back is still the
 * caller's to clear or retry.
 *
 * The state word packs top in the high half so that adding or taking k
 * pages at the hot end is one add of k * (2^32 + 1): count (the low half)
 * never crosses zero or the ring size, and top wraps modulo 2^32 in the
 * high half, which the ring index (top & mask) does not mind.
 *
 * x86_64 only; the other architectures build the lock implementation.
 * Written from the rseq(2) manual page and the kernel's uapi header.
 */
#ifndef PP_INTERNAL_RSEQ_H
#define PP_INTERNAL_RSEQ_H

#include <pagepool/internal/rseq-config.h>

#if defined(PP_RSEQ_PCP)

#include <stddef.h>
#include <stdint.h>
#include <sys/rseq.h>

#include <pagepool/pagepool.h>

/* The widths the sections' instructions give the members they address. */
_Static_assert(sizeof(((struct pp_pcp *)0)->state) == 8 &&
	       sizeof(((struct pp_pcp *)0)->stopped) == 4 &&
	       sizeof(((struct pp_pcp *)0)->mask) == 4 &&
	       sizeof(((struct pp_pcp *)0)->ring) == 8 &&
	       sizeof(((struct pp_page *)0)->pcp_cpu) == 4 &&
	       sizeof(((struct pp_page *)0)->state) == 1,
	       "movq state and ring, cmpl stopped, andl mask, movl pcp_cpu, "
	       "movb a page's state");

/* The codes a section returns instead of a result. */
#define PP_RSEQ_STOPPED	(-1L)	/* a remote drain owns the list */
#define PP_RSEQ_ABORTED	(-2L)	/* the kernel aborted the section */
#define PP_RSEQ_MOVED	(-3L)	/* not on the CPU the caller picked */
#define PP_RSEQ_FULL	(-4L)	/* no free ring slot */

static inline struct rseq *pp_rseq_area(void)
{
	return (struct rseq *)((char *)__builtin_thread_pointer() +
			       __rseq_offset);
}

/* The CPU the kernel last saw this thread on; negative if unregistered. */
static inline int pp_rseq_cpu(const struct rseq *rs)
{
	return (int)__atomic_load_n(&rs->cpu_id, __ATOMIC_RELAXED);
}

/*
 * The descriptor of the section between labels 1 (start) and 2 (just past
 * the commit), with its abort handler at label 4; written into a data
 * section of its own, 32-byte aligned as struct rseq_cs must be.
 */
#define PP_RSEQ_CS_DESCRIPTOR						\
	".pushsection __rseq_cs, \"aw\"\n\t"				\
	".balign 32\n\t"						\
	"3:\n\t"							\
	".long 0x0, 0x0\n\t"						\
	".quad 1f, (2f - 1f), 4f\n\t"					\
	".popsection\n\t"

/* Point the thread's rseq area at the descriptor; @tmp is scratch. */
#define PP_RSEQ_ENTER(tmp, rs)						\
	"leaq 3b(%%rip), " tmp "\n\t"					\
	"movq " tmp ", %c[rs_cs](" rs ")\n\t"

/*
 * Out of line: the abort handler, after the signature (encoded as the
 * operand of a ud1, so a disassembler keeps its footing), and the exits
 * for a moved thread and a stopped list.  All set @ret and leave through
 * label 5, the end of the asm.
 */
#define PP_RSEQ_EXITS(ret)						\
	".pushsection __rseq_failure, \"ax\"\n\t"			\
	".byte 0x0f, 0xb9, 0x3d\n\t"					\
	".long 0x53053053\n\t"						\
	"4:\n\t"							\
	"movq $-2, " ret "\n\t"						\
	"jmp 5f\n\t"							\
	"6:\n\t"							\
	"movq $-3, " ret "\n\t"						\
	"jmp 5f\n\t"							\
	"7:\n\t"							\
	"movq $-1, " ret "\n\t"						\
	"jmp 5f\n\t"							\
	"8:\n\t"							\
	"movq $-4, " ret "\n\t"						\
	"jmp 5f\n\t"							\
	".popsection\n\t"

/* Start of a list section: right CPU, list not stopped. */
#define PP_RSEQ_CHECK_LIST						\
	"1:\n\t"							\
	"cmpl %[cpu], %c[rs_cpu](%[rs])\n\t"				\
	"jne 6f\n\t"							\
	"cmpl $0, %c[stopped](%[pcp])\n\t"				\
	"jne 7f\n\t"

/*
 * Of a push: k = min(@n, @limit - count) in %[k] (0, and out through
 * label 2, when the list holds @limit or more), the state word in %[st].
 */
#define PP_RSEQ_PUSH_ROOM						\
	"movq %c[state](%[pcp]), %[st]\n\t"				\
	"xorl %k[k], %k[k]\n\t"					\
	"movl %[limit], %k[idx]\n\t"					\
	"subl %k[st], %k[idx]\n\t"					\
	"jbe 2f\n\t"							\
	"movl %k[idx], %k[k]\n\t"					\
	"cmpq %[n], %[k]\n\t"						\
	"cmovaq %[n], %[k]\n\t"

/*
 * The commit of k pages taken (op "subq") or given back ("addq") at the
 * hot end: both halves of the state word move by k, one store.
 */
#define PP_RSEQ_COMMIT_K(op)						\
	"movq %[k], %[idx]\n\t"					\
	"shlq $32, %[idx]\n\t"					\
	"addq %[k], %[idx]\n\t"					\
	op " %[idx], %[st]\n\t"					\
	"movq %[st], %c[state](%[pcp])\n\t"	/* commit */

#define PP_RSEQ_COMMON_OPERANDS						\
	[rs] "r" (rs), [cpu] "r" (cpu),					\
	[rs_cs] "i" (offsetof(struct rseq, rseq_cs)),			\
	[rs_cpu] "i" (offsetof(struct rseq, cpu_id))

#define PP_RSEQ_LIST_OPERANDS						\
	[pcp] "r" (pcp),						\
	[state] "i" (offsetof(struct pp_pcp, state)),			\
	[stopped] "i" (offsetof(struct pp_pcp, stopped)),		\
	[mask] "i" (offsetof(struct pp_pcp, mask)),			\
	[ringp] "i" (offsetof(struct pp_pcp, ring))

/*
 * Take the page at the hot end.  Returns the page (as a positive long),
 * 0 when the list is empty, or a PP_RSEQ_* code.
 */
static inline long pp_rseq_pop1(struct rseq *rs, struct pp_pcp *pcp, int cpu)
{
	uint64_t st, tmp, top, ring;
	long ret;

	__asm__ __volatile__(
		PP_RSEQ_CS_DESCRIPTOR
		PP_RSEQ_ENTER("%[tmp]", "%[rs]")
		PP_RSEQ_CHECK_LIST
		"movq %c[state](%[pcp]), %[st]\n\t"
		"xorl %k[ret], %k[ret]\n\t"
		"testl %k[st], %k[st]\n\t"
		"jz 2f\n\t"
		"movq %[st], %[top]\n\t"
		"shrq $32, %[top]\n\t"
		"decl %k[top]\n\t"
		"andl %c[mask](%[pcp]), %k[top]\n\t"
		"movq %c[ringp](%[pcp]), %[ring]\n\t"
		"movq (%[ring], %[top], 8), %[ret]\n\t"
		"movabsq $0x100000001, %[tmp]\n\t"
		"subq %[tmp], %[st]\n\t"
		"movq %[st], %c[state](%[pcp])\n\t"	/* commit */
		"2:\n\t"
		PP_RSEQ_EXITS("%[ret]")
		"5:\n\t"
		: [ret] "=&r" (ret), [st] "=&r" (st), [tmp] "=&r" (tmp),
		  [top] "=&r" (top), [ring] "=&r" (ring)
		: PP_RSEQ_COMMON_OPERANDS, PP_RSEQ_LIST_OPERANDS
		: "memory", "cc");
	return ret;
}

/*
 * Give @page back at the hot end, marking it a free pcp page of this CPU
 * (@page is the caller's until the commit).  Returns the list's new
 * count, or a PP_RSEQ_* code (PP_RSEQ_FULL: every ring slot in use).
 */
static inline long pp_rseq_push1(struct rseq *rs, struct pp_pcp *pcp, int cpu,
				 struct pp_page *page)
{
	uint64_t st, tmp, top, ring;
	long ret;

	__asm__ __volatile__(
		PP_RSEQ_CS_DESCRIPTOR
		PP_RSEQ_ENTER("%[tmp]", "%[rs]")
		PP_RSEQ_CHECK_LIST
		"movq %c[state](%[pcp]), %[st]\n\t"
		"movl %k[st], %k[ret]\n\t"
		"cmpl %c[mask](%[pcp]), %k[ret]\n\t"
		"ja 8f\n\t"
		"movq %[st], %[top]\n\t"
		"shrq $32, %[top]\n\t"
		"andl %c[mask](%[pcp]), %k[top]\n\t"
		"movq %c[ringp](%[pcp]), %[ring]\n\t"
		"movq %[page], (%[ring], %[top], 8)\n\t"
		"movl %[cpu], %c[pg_cpu](%[page])\n\t"
		"movb %[pcp_state], %c[pg_state](%[page])\n\t"
		"incl %k[ret]\n\t"
		"movabsq $0x100000001, %[tmp]\n\t"
		"addq %[tmp], %[st]\n\t"
		"movq %[st], %c[state](%[pcp])\n\t"	/* commit */
		"2:\n\t"
		PP_RSEQ_EXITS("%[ret]")
		"5:\n\t"
		: [ret] "=&r" (ret), [st] "=&r" (st), [tmp] "=&r" (tmp),
		  [top] "=&r" (top), [ring] "=&r" (ring)
		: PP_RSEQ_COMMON_OPERANDS, PP_RSEQ_LIST_OPERANDS,
		  [page] "r" (page),
		  [pg_cpu] "i" (offsetof(struct pp_page, pcp_cpu)),
		  [pg_state] "i" (offsetof(struct pp_page, state)),
		  [pcp_state] "i" (PP_PAGE_PCP)
		: "memory", "cc");
	return ret;
}

/*
 * Take up to @n pages from the hot end into @dst[0..k), hottest first.
 * Returns k (0: the list is empty) or a PP_RSEQ_* code; after a code,
 * @dst[0..@n) may hold pages that are still on the list.
 *
 * When the k slots do not wrap around the end of the ring (all but about
 * one call in ring/k), they are copied two at a time: a 16-byte load of
 * two slots, their order swapped (pshufd), a 16-byte store, which is a
 * third of the instructions of the slot-by-slot loop the wrapping case
 * keeps.
 */
static inline long pp_rseq_pop_n(struct rseq *rs, struct pp_pcp *pcp, int cpu,
				 struct pp_page **dst, unsigned long n)
{
	uint64_t st, top, ring, j, idx;
	__attribute__((vector_size(16))) long long two;
	long k;

	__asm__ __volatile__(
		PP_RSEQ_CS_DESCRIPTOR
		PP_RSEQ_ENTER("%[idx]", "%[rs]")
		PP_RSEQ_CHECK_LIST
		"movq %c[state](%[pcp]), %[st]\n\t"
		"movl %k[st], %k[k]\n\t"
		"cmpq %[n], %[k]\n\t"
		"cmovaq %[n], %[k]\n\t"
		"testq %[k], %[k]\n\t"
		"jz 2f\n\t"
		"movq %[st], %[top]\n\t"
		"shrq $32, %[top]\n\t"
		"movq %c[ringp](%[pcp]), %[ring]\n\t"
		"xorl %k[j], %k[j]\n\t"
		/* hi = top & mask: the slot past the hottest one. */
		"movl %k[top], %k[idx]\n\t"
		"andl %c[mask](%[pcp]), %k[idx]\n\t"
		"cmpq %[k], %[idx]\n\t"
		"jb 10f\n\t"
		/* No wrap: ring[hi - 1], ring[hi - 2], ... into dst[0..k). */
		"leaq (%[ring], %[idx], 8), %[ring]\n\t"
		"leaq -1(%[k]), %[top]\n\t"
		"cmpq $1, %[k]\n\t"
		"jbe 12f\n\t"
		".p2align 4\n\t"
		"11:\n\t"
		"movdqu -16(%[ring]), %[two]\n\t"
		"pshufd $0x4e, %[two], %[two]\n\t"
		"movdqu %[two], (%[dst], %[j], 8)\n\t"
		"subq $16, %[ring]\n\t"
		"addq $2, %[j]\n\t"
		"cmpq %[top], %[j]\n\t"
		"jb 11b\n\t"
		"12:\n\t"
		"cmpq %[k], %[j]\n\t"
		"jae 13f\n\t"
		"movq -8(%[ring]), %[idx]\n\t"
		"movq %[idx], (%[dst], %[j], 8)\n\t"
		"jmp 13f\n\t"
		/* Wrapping: slot by slot, each index masked. */
		".p2align 4\n\t"
		"10:\n\t"
		"decl %k[top]\n\t"
		"movl %k[top], %k[idx]\n\t"
		"andl %c[mask](%[pcp]), %k[idx]\n\t"
		"movq (%[ring], %[idx], 8), %[idx]\n\t"
		"movq %[idx], (%[dst], %[j], 8)\n\t"
		"incq %[j]\n\t"
		"cmpq %[k], %[j]\n\t"
		"jb 10b\n\t"
		"13:\n\t"
		PP_RSEQ_COMMIT_K("subq")
		"2:\n\t"
		PP_RSEQ_EXITS("%[k]")
		"5:\n\t"
		: [k] "=&r" (k), [st] "=&r" (st), [top] "=&r" (top),
		  [ring] "=&r" (ring), [j] "=&r" (j), [idx] "=&r" (idx),
		  [two] "=&x" (two)
		: PP_RSEQ_COMMON_OPERANDS, PP_RSEQ_LIST_OPERANDS,
		  [dst] "r" (dst), [n] "rm" (n)
		: "memory", "cc");
	return k;
}

/*
 * Give back up to @n pages from @src at the hot end, pages the caller
 * has already marked free pcp pages of @cpu (state and pcp_cpu), while
 * the list stays at or below @limit pages: the section only copies the
 * pointers into the ring and commits.  Returns k, the number given back
 * (0 when the list already holds @limit or more), or a PP_RSEQ_* code;
 * *@state_out is the state word after the commit.  @limit must not
 * exceed the ring's slots.  When the k slots do not wrap around the
 * ring's end they are copied two at a time (16-byte loads and stores).
 */
static inline long pp_rseq_push_n_marked(struct rseq *rs, struct pp_pcp *pcp,
					 int cpu, struct pp_page *const *src,
					 unsigned long n, unsigned int limit,
					 uint64_t *state_out)
{
	uint64_t st, top, ring, j, idx;
	__attribute__((vector_size(16))) long long two;
	long k;

	__asm__ __volatile__(
		PP_RSEQ_CS_DESCRIPTOR
		PP_RSEQ_ENTER("%[idx]", "%[rs]")
		PP_RSEQ_CHECK_LIST
		PP_RSEQ_PUSH_ROOM
		"testq %[k], %[k]\n\t"
		"jz 2f\n\t"
		"movq %[st], %[top]\n\t"
		"shrq $32, %[top]\n\t"
		"movq %c[ringp](%[pcp]), %[ring]\n\t"
		/* lo = top & mask: the first free slot. */
		"movl %k[top], %k[idx]\n\t"
		"andl %c[mask](%[pcp]), %k[idx]\n\t"
		"leaq -1(%[idx], %[k]), %[j]\n\t"
		"cmpl %c[mask](%[pcp]), %k[j]\n\t"
		"ja 10f\n\t"
		/* No wrap: src[0..k) into ring[lo..lo + k). */
		"leaq (%[ring], %[idx], 8), %[ring]\n\t"
		"xorl %k[j], %k[j]\n\t"
		"leaq -1(%[k]), %[top]\n\t"
		"cmpq $1, %[k]\n\t"
		"jbe 12f\n\t"
		".p2align 4\n\t"
		"11:\n\t"
		"movdqu (%[src], %[j], 8), %[two]\n\t"
		"movdqu %[two], (%[ring], %[j], 8)\n\t"
		"addq $2, %[j]\n\t"
		"cmpq %[top], %[j]\n\t"
		"jb 11b\n\t"
		"12:\n\t"
		"cmpq %[k], %[j]\n\t"
		"jae 13f\n\t"
		"movq (%[src], %[j], 8), %[idx]\n\t"
		"movq %[idx], (%[ring], %[j], 8)\n\t"
		"jmp 13f\n\t"
		/* Wrapping: slot by slot, each index masked. */
		".p2align 4\n\t"
		"10:\n\t"
		"xorl %k[j], %k[j]\n\t"
		"14:\n\t"
		"movq (%[src], %[j], 8), %[idx]\n\t"
		"movq %[idx], %[two]\n\t"
		"movl %k[top], %k[idx]\n\t"
		"andl %c[mask](%[pcp]), %k[idx]\n\t"
		"movq %[two], (%[ring], %[idx], 8)\n\t"
		"incl %k[top]\n\t"
		"incq %[j]\n\t"
		"cmpq %[k], %[j]\n\t"
		"jb 14b\n\t"
		"13:\n\t"
		PP_RSEQ_COMMIT_K("addq")
		"2:\n\t"
		PP_RSEQ_EXITS("%[k]")
		"5:\n\t"
		: [k] "=&r" (k), [st] "=&r" (st), [top] "=&r" (top),
		  [ring] "=&r" (ring), [j] "=&r" (j), [idx] "=&r" (idx),
		  [two] "=&x" (two)
		: PP_RSEQ_COMMON_OPERANDS, PP_RSEQ_LIST_OPERANDS,
		  [src] "r" (src), [n] "rm" (n), [limit] "rm" (limit)
		: "memory", "cc");
	*state_out = st;
	return k;
}

#endif /* PP_RSEQ_PCP */
#endif /* PP_INTERNAL_RSEQ_H */
