/* SPDX-License-Identifier: MIT */
/*
 * The per-CPU floor: the contract floor (loops.c) with its pages on
 * per-CPU lists that libpagepool's own restartable sections work
 * (<pagepool/internal/rseq.h>, the same code the library's fast paths
 * run).  A single page is one pop section and one push section; an
 * array round is one pop-n section and one push-n section.  No counters,
 * watermarks, checks of the pool or refills from a buddy allocator: the
 * least a per-CPU list that a preempted thread cannot hold costs on top
 * of the contract, which is what the single-page target is measured
 * against.
 *
 * The lists here are pagebench's own (struct pp_pcp below has the
 * members the sections address, nothing else).  Pages that find their
 * list empty or full, or a thread on a CPU past the lists, go through a
 * plain LIFO, the stash: only this thread touches these lists, so the
 * stash needs no lock; it is the slow path, which a pinned run does not
 * take after its first round.
 */
#include <config.h>

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <pagepool/internal/rseq-config.h>

#include "pagebench.h"

#ifdef PP_RSEQ_PCP

/*
 * The members the sections address, under the library's names: what
 * <pagepool/internal/rseq.h> asks of its includer.
 */
struct pp_pcp {
	_Atomic uint64_t state;		/* (top << 32) | count */
	atomic_uint stopped;		/* never set here */
	unsigned int mask;		/* ring slots - 1 */
	struct pp_page **ring;
} __attribute__((aligned(64)));

#include <pagepool/internal/rseq.h>

#define PCPU_RING	512U		/* slots of each list */
#define PCPU_PAGES	1024UL		/* pages in all */

static struct pp_pcp *pcpu;		/* one per configured CPU */
static unsigned int pcpu_nr;
static struct pp_page *pcpu_desc;
static struct pp_page **stash;
static unsigned long stash_top;
static uint64_t word_used, word_free;

const char *pb_percpu_unavailable(void)
{
	if (__rseq_size == 0 || pp_rseq_cpu(pp_rseq_area()) < 0)
		return "this process has no rseq: glibc did not register it, "
		       "as with GLIBC_TUNABLES=glibc.pthread.rseq=0 or a "
		       "kernel before 4.18";
	return NULL;
}

void pb_percpu_setup(uint64_t used, uint64_t unused)
{
	long nr = sysconf(_SC_NPROCESSORS_CONF);
	size_t rings;

	if (pb_percpu_unavailable())
		return;
	pcpu_nr = nr > 0 ? (unsigned int)nr : 1;
	rings = (size_t)pcpu_nr * PCPU_RING * sizeof(struct pp_page *);
	pcpu = mmap(NULL, pcpu_nr * sizeof(*pcpu) + rings,
		    PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	pcpu_desc = mmap(NULL, PCPU_PAGES * sizeof(struct pp_page),
			 PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			 -1, 0);
	stash = mmap(NULL, PCPU_PAGES * sizeof(*stash),
		     PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (pcpu == MAP_FAILED || pcpu_desc == MAP_FAILED ||
	    stash == MAP_FAILED)
		pb_fail("out of memory");
	for (unsigned int c = 0; c < pcpu_nr; c++) {
		pcpu[c].mask = PCPU_RING - 1;
		pcpu[c].ring = (struct pp_page **)(pcpu + pcpu_nr) +
			       (size_t)c * PCPU_RING;
	}
	for (unsigned long i = 0; i < PCPU_PAGES; i++) {
		pcpu_desc[i].state = PP_PAGE_PCP;
		stash[stash_top++] = &pcpu_desc[i];
	}
	word_used = used;
	word_free = unused;
}

void pb_percpu_teardown(void)
{
	if (!pcpu)
		return;
	munmap(pcpu, pcpu_nr * sizeof(*pcpu) +
	       (size_t)pcpu_nr * PCPU_RING * sizeof(struct pp_page *));
	munmap(pcpu_desc, PCPU_PAGES * sizeof(struct pp_page));
	munmap(stash, PCPU_PAGES * sizeof(*stash));
	pcpu = NULL;
}

/*
 * The slow path's page: the stash's top, else the hottest page of any
 * list (plain loads and stores: these lists are this thread's alone and
 * no section of it is running).
 */
static __attribute__((noinline)) struct pp_page *percpu_page_slow(void)
{
	if (stash_top)
		return stash[--stash_top];
	for (unsigned int c = 0; c < pcpu_nr; c++) {
		uint64_t st = atomic_load_explicit(&pcpu[c].state,
						   memory_order_relaxed);
		uint32_t top = (uint32_t)(st >> 32);

		if (!(uint32_t)st)
			continue;
		atomic_store_explicit(&pcpu[c].state, st - 0x100000001ULL,
				      memory_order_relaxed);
		return pcpu[c].ring[(top - 1) & pcpu[c].mask];
	}
	pb_fail("per-CPU floor: out of pages");
}

/*
 * A page off this CPU's list, and one back: out of line, as a call of
 * the single-page API is (and as the other floors' are).
 */
static __attribute__((noinline)) struct pp_page *percpu_pop(void)
{
	struct rseq *rs = pp_rseq_area();

	for (;;) {
		int cpu = pp_rseq_cpu(rs);
		long r;

		if ((unsigned int)cpu >= pcpu_nr)
			return percpu_page_slow();
		r = pp_rseq_pop1(rs, &pcpu[cpu], cpu);
		if (r > 0)
			return (struct pp_page *)r;
		if (r == 0)
			return percpu_page_slow();
	}
}

static __attribute__((noinline)) void percpu_push(struct pp_page *page)
{
	struct rseq *rs = pp_rseq_area();

	for (;;) {
		int cpu = pp_rseq_cpu(rs);
		long r;

		if ((unsigned int)cpu >= pcpu_nr)
			break;
		r = pp_rseq_push1(rs, &pcpu[cpu], cpu, page);
		if (r > 0)
			return;
		if (r == PP_RSEQ_FULL)
			break;
	}
	stash[stash_top++] = page;
}

/* One page out and back, @pages times; the pages' sum. */
uintptr_t pb_percpu_single(unsigned long pages)
{
	uintptr_t acc = 0;

	for (unsigned long i = 0; i < pages; i++) {
		struct pp_page *p = percpu_pop();

		contract_set_word(p, word_used);
		acc += (uintptr_t)p;
		if (contract_give_back(p, word_used, word_free))
			pb_fail("per-CPU floor: a page given back was not in use");
		percpu_push(p);
	}
	return acc;
}

/*
 * @n pages into the NULL slots of @arr: one pop-n section into the run,
 * the rest (list short of pages, a restart) one by one.
 */
static __attribute__((noinline))
void percpu_alloc_array(struct pp_page **arr, unsigned long n)
{
	struct rseq *rs = pp_rseq_area();
	unsigned long i = 0;
	uintptr_t any = 0;
	int cpu;

	/* The array contract: only NULL slots are filled. */
	for (unsigned long j = 0; j < n; j++)
		any |= (uintptr_t)arr[j];
	if (any)
		pb_fail("per-CPU floor: the array is not empty");
	cpu = pp_rseq_cpu(rs);
	if ((unsigned int)cpu < pcpu_nr) {
		long k = pp_rseq_pop_n(rs, &pcpu[cpu], cpu, arr, n);

		if (k > 0)
			i = (unsigned long)k;
		else if (k < 0)
			/* Aborted: what it copied is still on the list. */
			memset(arr, 0, n * sizeof(*arr));
	}
	for (unsigned long j = 0; j < i; j++)
		contract_set_word(arr[j], word_used);
	for (; i < n; i++) {
		arr[i] = percpu_pop();
		contract_set_word(arr[i], word_used);
	}
}

/* The @n pages of @arr back: one push-n section, the rest one by one. */
static __attribute__((noinline))
void percpu_free_array(struct pp_page **arr, unsigned long n)
{
	struct rseq *rs = pp_rseq_area();
	unsigned long i = 0;
	uint64_t bad = 0, st;
	int cpu;

	for (unsigned long j = 0; j < n; j++)
		bad |= contract_give_back(arr[j], word_used, word_free);
	if (bad)
		pb_fail("per-CPU floor: a page given back was not in use");
	cpu = pp_rseq_cpu(rs);
	if ((unsigned int)cpu < pcpu_nr) {
		long k = pp_rseq_push_n_marked(rs, &pcpu[cpu], cpu, arr, n,
					       PCPU_RING, &st);

		if (k > 0)
			i = (unsigned long)k;
	}
	for (; i < n; i++)
		percpu_push(arr[i]);
}

/* Rounds of @n pages through @arr (all NULL) and back; the last pages. */
uintptr_t pb_percpu_array(struct pp_page **arr, unsigned long n)
{
	uintptr_t acc;

	percpu_alloc_array(arr, n);
	acc = (uintptr_t)arr[n - 1];
	percpu_free_array(arr, n);
	memset(arr, 0, n * sizeof(*arr));
	return acc;
}

#else /* !PP_RSEQ_PCP */

const char *pb_percpu_unavailable(void)
{
	return PAGEBENCH_NO_PERCPU_WHY;
}

void pb_percpu_setup(uint64_t used, uint64_t unused)
{
	(void)used;
	(void)unused;
}

void pb_percpu_teardown(void)
{
}

uintptr_t pb_percpu_single(unsigned long pages)
{
	(void)pages;
	pb_fail("per-CPU floor: %s", PAGEBENCH_NO_PERCPU_WHY);
}

uintptr_t pb_percpu_array(struct pp_page **arr, unsigned long n)
{
	(void)arr;
	(void)n;
	pb_fail("per-CPU floor: %s", PAGEBENCH_NO_PERCPU_WHY);
}

#endif /* PP_RSEQ_PCP */
