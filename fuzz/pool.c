/* SPDX-License-Identifier: MIT */
/*
 * pool: libFuzzer target for libpagepool, checked against a reference model.
 *
 * An input is a small program.  Its first bytes choose a pool: size (1 to
 * 4096 pages, sometimes up to 32 Ki), pcp batch (1..63) and high
 * (batch..6 * batch), 0 to 4 pcp lists, watermarks (the kernel's, all zero,
 * or small explicit ones, sometimes out of order), debug checks, backend
 * (buddy, sometimes jemalloc), bulk variant and pcp implementation (the
 * default, auto or what PAGEPOOL_PCP says, or explicitly rseq or lock); a
 * configuration the header says is invalid must fail with EINVAL.  The
 * target runs on one CPU, the first it may use, until an operation moves
 * it.  The rest is a sequence of
 * operations: single pages of order 0..10 (and out of range), bulk arrays
 * with holes (populated entries are pages we hold or pointers that are not
 * the pool's), bulk lists that already hold pages, get, put, release,
 * drain, a move to another CPU, a bulk variant switch, a destroy while
 * pages are out, and putting everything back.
 *
 * The model is a byte per pfn (in a block we hold, or not) and the list of
 * blocks we hold with their reference counts.  After every step:
 *
 *  - every page handed out was free in the model, becomes held, is the
 *    head of an aligned block of the order asked for, has refcount 1 and
 *    state in-use, is zero when GFP_ZERO asked; pages we hold carry a
 *    signature that must still be there when we free them;
 *  - array entries populated before a call are byte-identical after it
 *    (except where the variant says they are overwritten), entries
 *    [0, ret) are populated, nothing at or past ret changed, a full array
 *    returns nr_pages; a list keeps its old entries, in order, behind the
 *    ret new ones;
 *  - the header's promises on when a call must succeed, fall back or stop:
 *    an allocation fails when no free aligned block of its order exists,
 *    succeeds when one exists and the pool is above min (buddy backend),
 *    a bulk call gives at least one page then, one missing page and a zone
 *    below low + nr_pages take the single-page path, a bulk call that
 *    stops short without falling back found the zone empty;
 *  - counters add up: pgalloc and pgfree move by the pages handed out and
 *    freed, the call counters by one, pgalloc - pgfree = pages held,
 *    nr_free + nr_pcp + nr_backend + held = nr_pages, free_area[] sums to
 *    nr_free;
 *  - the pcp implementation is the one enum pp_pcp_impl promises (rseq
 *    for rseq, or for auto with a list per CPU, where rseq is supported;
 *    the lock otherwise, and always on jemalloc); with one thread, no
 *    trylock fails; under rseq, list i serves CPU i only: on a CPU >=
 *    nr_cpus every list operation is bypassed as a failed trylock would
 *    be (pcp_trylock_fail, bulk_fallback_trylock) and no page lands on a
 *    pcp list; the lock implementation never counts an rseq restart;
 *  - descriptors agree with the model (every few steps on big pools):
 *    held heads in use with our refcount; buddy blocks aligned, inside the
 *    pool, on free pages only, counted per order as free_area[] says, no
 *    two free buddies of the same order side by side; pcp pages free and
 *    counted as nr_pcp; every free page in exactly one place;
 *  - at the end, with everything put back and the pcp lists drained, the
 *    buddy lists have the shape they had right after create, and
 *    pp_pool_destroy() returns 0.
 *
 * FUZZ_POOL_VERBOSE=1 prints each step to stderr (to read a crash input).
 */
#include "config.h"

#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <pagepool/pagepool.h>

#include "fuzz.h"

#define FZ_SMALL_POOL		4096UL	/* pools up to this: full check each step */
#define FZ_BIG_POOL		(32UL * 1024)
#define FZ_BIG_CHECK_EVERY	32
#define FZ_MAX_ARRAY		600UL
#define FZ_MAX_LIST_OLD		8
#define FZ_MAX_RELEASE		64
#define FZ_MAX_REFS		64
#define FZ_FOREIGN		2

struct fz_block {
	struct pp_page *page;
	unsigned long pfn;
	unsigned int order;
	int refs;
};

struct fz {
	struct fz_input in;
	unsigned long step;
	bool verbose;

	struct pp_pool_config cfg;
	struct pp_pool *pool;
	enum pp_pcp_impl impl;		/* what the pool must run */
	int cpu;			/* pinned to; -1: not known */
	struct pp_page *map;		/* descriptor of pfn 0 */
	char *arena;			/* address of pfn 0 */
	unsigned long nr_pages;
	bool jemalloc;
	enum pp_bulk_variant variant;

	unsigned char *held_pfn;	/* 1: in a block we hold */
	unsigned long held_pages;
	struct fz_block *held;
	unsigned long nr_held;
	uint64_t cookie;		/* page signatures */

	struct pp_vmstat initial;	/* right after create */
	struct pp_vmstat st;		/* after the last step */
};

/* Array entries that are not pool pages: the library must not touch them. */
static struct pp_page fz_foreign[FZ_FOREIGN];
static struct pp_page fz_foreign_copy[FZ_FOREIGN];
static cpu_set_t fz_cpus;
static int fz_nr_cpus_online;
static long fz_nr_cpus_conf;
static bool fz_rseq_ok;			/* pp_pcp_rseq_supported() */
static FILE *fz_null;

#define fz_check(fz, cond, ...)						\
	do {								\
		if (!(cond))						\
			fz_fail("pool", (fz)->step, __VA_ARGS__);	\
	} while (0)

static void fz_log(struct fz *fz, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void fz_log(struct fz *fz, const char *fmt, ...)
{
	va_list ap;

	if (!fz->verbose)
		return;
	fprintf(stderr, "pool: step %lu: ", fz->step);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	CPU_ZERO(&fz_cpus);
	if (sched_getaffinity(0, sizeof(fz_cpus), &fz_cpus))
		CPU_SET(0, &fz_cpus);
	fz_nr_cpus_online = CPU_COUNT(&fz_cpus);
	fz_nr_cpus_conf = sysconf(_SC_NPROCESSORS_CONF);
	fz_rseq_ok = pp_pcp_rseq_supported(NULL);
	for (unsigned int i = 0; i < FZ_FOREIGN; i++)
		memset(&fz_foreign[i], 0x5a + i, sizeof(fz_foreign[i]));
	memcpy(fz_foreign_copy, fz_foreign, sizeof(fz_foreign));
	fz_null = fopen("/dev/null", "w");
	return 0;
}

/* --- the model ----------------------------------------------------------- */

static unsigned long fz_pfn_of(struct fz *fz, const struct pp_page *page,
			       const char *what)
{
	uintptr_t p = (uintptr_t)page, base = (uintptr_t)fz->map;
	unsigned long pfn;

	fz_check(fz, page, "%s: NULL page", what);
	fz_check(fz, p >= base && (p - base) % sizeof(*page) == 0 &&
		 (p - base) / sizeof(*page) < fz->nr_pages,
		 "%s: %p is not a descriptor of the pool (%p, %lu pages)",
		 what, (const void *)page, (void *)fz->map, fz->nr_pages);
	pfn = (unsigned long)((p - base) / sizeof(*page));
	return pfn;
}

static unsigned long fz_free_pages(const struct fz *fz)
{
	return fz->nr_pages - fz->held_pages;
}

/* Is some aligned block of 2^order pages all free in the model? */
static bool fz_free_block_exists(const struct fz *fz, unsigned int order)
{
	unsigned long size = 1UL << order;

	if (order == 0)
		return fz_free_pages(fz) > 0;
	for (unsigned long pfn = 0; pfn + size <= fz->nr_pages; pfn += size) {
		unsigned long i;

		for (i = 0; i < size && !fz->held_pfn[pfn + i]; i++)
			;
		if (i == size)
			return true;
	}
	return false;
}

static uint64_t fz_sig(const struct fz *fz, unsigned long pfn)
{
	return (pfn * 0x9e3779b97f4a7c15ULL) ^ fz->cookie;
}

static char *fz_addr(const struct fz *fz, unsigned long pfn)
{
	return fz->arena + pfn * PP_PAGE_SIZE;
}

/* A block just handed out: check it, mark it held, sign its pages. */
static void fz_take(struct fz *fz, struct pp_page *page, unsigned int order,
		    pp_gfp_t gfp, const char *what)
{
	unsigned long pfn = fz_pfn_of(fz, page, what), n = 1UL << order;
	struct fz_block *b;

	fz_check(fz, (pfn & (n - 1)) == 0 && pfn + n <= fz->nr_pages,
		 "%s: pfn 0x%lx is not the head of an aligned order-%u block "
		 "inside the pool", what, pfn, order);
	for (unsigned long i = 0; i < n; i++)
		fz_check(fz, !fz->held_pfn[pfn + i],
			 "%s: pfn 0x%lx handed out twice (already held)", what,
			 pfn + i);
	fz_check(fz, pp_page_count(page) == 1 && page->order == order &&
		 page->state == PP_PAGE_INUSE,
		 "%s: pfn 0x%lx handed out with refcount %d order %u state %u, "
		 "not 1, %u, in-use", what, pfn, pp_page_count(page),
		 page->order, page->state, order);
	if (gfp & PP_GFP_ZERO) {
		const unsigned char *a = (const unsigned char *)fz_addr(fz, pfn);

		for (unsigned long off = 0; off < n * PP_PAGE_SIZE; off++)
			fz_check(fz, a[off] == 0,
				 "%s: GFP_ZERO block at pfn 0x%lx has 0x%02x at "
				 "offset 0x%lx", what, pfn, a[off], off);
	}
	for (unsigned long i = 0; i < n; i++) {
		uint64_t sig = fz_sig(fz, pfn + i);
		char *a = fz_addr(fz, pfn + i);

		fz->held_pfn[pfn + i] = 1;
		memcpy(a, &sig, sizeof(sig));
		memcpy(a + PP_PAGE_SIZE - sizeof(sig), &sig, sizeof(sig));
	}
	fz->held_pages += n;
	b = &fz->held[fz->nr_held++];
	b->page = page;
	b->pfn = pfn;
	b->order = order;
	b->refs = 1;
}

/* Our signature must survive while we hold a page. */
static void fz_check_sig(struct fz *fz, const struct fz_block *b)
{
	for (unsigned long i = 0; i < (1UL << b->order); i++) {
		uint64_t sig = fz_sig(fz, b->pfn + i), head, tail;
		const char *a = fz_addr(fz, b->pfn + i);

		memcpy(&head, a, sizeof(head));
		memcpy(&tail, a + PP_PAGE_SIZE - sizeof(tail), sizeof(tail));
		fz_check(fz, head == sig && tail == sig,
			 "held pfn 0x%lx was written by someone else",
			 b->pfn + i);
	}
}

/* Before a put of @b: its refcount must be ours; the last one frees. */
static void fz_before_put(struct fz *fz, const struct fz_block *b)
{
	fz_check(fz, pp_page_count(b->page) == b->refs,
		 "pfn 0x%lx has refcount %d, we hold %d", b->pfn,
		 pp_page_count(b->page), b->refs);
	if (b->refs == 1)
		fz_check_sig(fz, b);
}

/* After a put of held[@i]: drop the reference; the block may be gone. */
static unsigned long fz_after_put(struct fz *fz, unsigned long i)
{
	struct fz_block *b = &fz->held[i];
	unsigned long n = 1UL << b->order;

	if (--b->refs > 0)
		return 0;
	for (unsigned long k = 0; k < n; k++)
		fz->held_pfn[b->pfn + k] = 0;
	fz->held_pages -= n;
	fz->held[i] = fz->held[--fz->nr_held];
	return n;
}

/* --- the pcp implementation ---------------------------------------------- */

/* What enum pp_pcp_impl promises for @cfg here. */
static enum pp_pcp_impl fz_expected_impl(const struct pp_pool_config *cfg)
{
	if (cfg->backend != PP_BACKEND_BUDDY || cfg->pcp_impl == PP_PCP_LOCK ||
	    !fz_rseq_ok)
		return PP_PCP_LOCK;
	/* auto: rseq only if every CPU has a list */
	if (cfg->pcp_impl == PP_PCP_AUTO && cfg->nr_cpus &&
	    fz_nr_cpus_conf > 0 && cfg->nr_cpus < (unsigned long)fz_nr_cpus_conf)
		return PP_PCP_LOCK;
	return PP_PCP_RSEQ;
}

/* Run on @cpu only from now on (fz->cpu -1 if that failed). */
static void fz_pin(struct fz *fz, int cpu)
{
	cpu_set_t one;

	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	fz->cpu = sched_setaffinity(0, sizeof(one), &one) ? -1 : cpu;
}

/*
 * Does this thread bypass the pcp lists, rseq on a CPU without a list?
 * 1 yes, 0 no, -1 cannot tell (not pinned, and a CPU it may run on has
 * no list).
 */
static int fz_bypass(const struct fz *fz)
{
	unsigned int lists = fz->initial.nr_cpus;

	if (fz->impl != PP_PCP_RSEQ)
		return 0;
	if (fz->cpu >= 0)
		return (unsigned int)fz->cpu >= lists;
	for (int cpu = (int)lists; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &fz_cpus))
			return -1;
	return 0;
}

/* --- checks against the pool -------------------------------------------- */

static uint64_t fz_delta(const struct pp_vmstat *a, const struct pp_vmstat *b,
			 enum pp_vm_event ev)
{
	return b->events[ev] - a->events[ev];
}

static void fz_vmstat(struct fz *fz, struct pp_vmstat *st)
{
	unsigned long sum = 0;

	pp_pool_vmstat(fz->pool, st);
	fz_check(fz, st->nr_pages == fz->nr_pages && st->backend ==
		 fz->cfg.backend && st->bulk_variant == fz->variant,
		 "vmstat: nr_pages %lu backend %u variant %u, not %lu %u %u",
		 st->nr_pages, st->backend, st->bulk_variant, fz->nr_pages,
		 fz->cfg.backend, fz->variant);
	fz_check(fz, st->events[PP_PGALLOC] - st->events[PP_PGFREE] ==
		 fz->held_pages,
		 "pgalloc %llu - pgfree %llu != %lu pages held",
		 (unsigned long long)st->events[PP_PGALLOC],
		 (unsigned long long)st->events[PP_PGFREE], fz->held_pages);
	fz_check(fz, st->nr_free + st->nr_pcp + st->nr_backend +
		 fz->held_pages == fz->nr_pages,
		 "nr_free %lu + nr_pcp %lu + nr_backend %lu + held %lu != "
		 "nr_pages %lu", st->nr_free, st->nr_pcp, st->nr_backend,
		 fz->held_pages, fz->nr_pages);
	for (unsigned int o = 0; o < PP_NR_ORDERS; o++)
		sum += st->free_area[o] << o;
	fz_check(fz, sum == st->nr_free,
		 "free_area[] holds %lu pages, nr_free says %lu", sum,
		 st->nr_free);
	if (!fz->jemalloc)
		fz_check(fz, st->nr_backend == 0,
			 "nr_backend %lu with the buddy backend",
			 st->nr_backend);
	fz_check(fz, st->pcp_impl == fz->impl,
		 "vmstat: pcp_impl %s, the pool runs %s",
		 pp_pcp_impl_name(st->pcp_impl), pp_pcp_impl_name(fz->impl));
	if (fz->impl == PP_PCP_LOCK)
		for (unsigned int ev = PP_PCP_RESTART_ALLOC;
		     ev <= PP_PCP_RESTART_COUNT; ev++)
			fz_check(fz, st->events[ev] == 0,
				 "the lock implementation counted %s %llu",
				 pp_vm_event_name((enum pp_vm_event)ev),
				 (unsigned long long)st->events[ev]);
	fz_check(fz, st->wmark_min == fz->initial.wmark_min &&
		 st->wmark_low == fz->initial.wmark_low &&
		 st->wmark_high == fz->initial.wmark_high &&
		 st->pcp_batch == fz->cfg.pcp_batch &&
		 st->pcp_high == fz->cfg.pcp_high,
		 "vmstat: the pool's configuration changed");
}

/*
 * Descriptors against the model: held heads, buddy blocks, pcp pages.
 * Returns nothing; any disagreement fails.
 */
static void fz_check_descriptors(struct fz *fz)
{
	unsigned long blocks[PP_NR_ORDERS] = { 0 }, pcp = 0;
	unsigned char *seen = calloc(fz->nr_pages, 1);

	if (!seen)
		abort();
	for (unsigned long i = 0; i < fz->nr_held; i++) {
		const struct fz_block *b = &fz->held[i];

		fz_check(fz, b->page->state == PP_PAGE_INUSE &&
			 b->page->order == b->order &&
			 pp_page_count(b->page) == b->refs,
			 "held pfn 0x%lx: state %u order %u refcount %d, not "
			 "in-use, %u, %d", b->pfn, b->page->state,
			 b->page->order, pp_page_count(b->page), b->order,
			 b->refs);
	}
	for (unsigned long pfn = 0; pfn < fz->nr_pages; pfn++) {
		const struct pp_page *d = &fz->map[pfn];
		unsigned long n;

		switch (d->state) {
		case PP_PAGE_BUDDY:
			n = 1UL << d->order;
			fz_check(fz, d->order <= PP_MAX_ORDER &&
				 (pfn & (n - 1)) == 0 && pfn + n <= fz->nr_pages,
				 "buddy block at pfn 0x%lx order %u is not an "
				 "aligned block inside the pool", pfn, d->order);
			fz_check(fz, pp_page_count(d) == 0,
				 "buddy block at pfn 0x%lx has refcount %d", pfn,
				 pp_page_count(d));
			for (unsigned long k = 0; k < n; k++) {
				fz_check(fz, !fz->held_pfn[pfn + k] &&
					 !seen[pfn + k],
					 "pfn 0x%lx in buddy block 0x%lx order "
					 "%u is %s", pfn + k, pfn, d->order,
					 fz->held_pfn[pfn + k] ? "held by us" :
					 "also in another free block");
				seen[pfn + k] = 1;
			}
			blocks[d->order]++;
			/* __free_one_page() merges free buddies */
			if (d->order < PP_MAX_ORDER && !fz->jemalloc) {
				unsigned long bp = pfn ^ n;

				fz_check(fz, bp >= fz->nr_pages ||
					 fz->map[bp].state != PP_PAGE_BUDDY ||
					 fz->map[bp].order != d->order,
					 "free buddies 0x%lx and 0x%lx of order "
					 "%u were not merged", pfn, bp,
					 d->order);
			}
			break;
		case PP_PAGE_PCP:
			fz_check(fz, !fz->held_pfn[pfn] && !seen[pfn] &&
				 pp_page_count(d) == 0 &&
				 d->pcp_cpu < fz->st.nr_cpus,
				 "pcp page 0x%lx: %s, refcount %d, cpu %u",
				 pfn, fz->held_pfn[pfn] ? "held by us" :
				 seen[pfn] ? "also in a buddy block" : "free",
				 pp_page_count(d), d->pcp_cpu);
			seen[pfn] = 1;
			pcp++;
			break;
		case PP_PAGE_INUSE:
			fz_check(fz, fz->held_pfn[pfn],
				 "pfn 0x%lx is in use but nobody holds it", pfn);
			break;
		case PP_PAGE_NONE:
		case PP_PAGE_BACKEND:
			break;
		default:
			fz_check(fz, 0, "pfn 0x%lx has state %u", pfn,
				 d->state);
		}
	}
	for (unsigned int o = 0; o < PP_NR_ORDERS; o++)
		fz_check(fz, blocks[o] == fz->st.free_area[o],
			 "%lu free blocks of order %u on the buddy lists, "
			 "free_area[%u] says %lu", blocks[o], o, o,
			 fz->st.free_area[o]);
	fz_check(fz, pcp == fz->st.nr_pcp,
		 "%lu pages in pcp state, nr_pcp says %lu", pcp,
		 fz->st.nr_pcp);
	/* Every free page is somewhere (the backend's are not ours to see). */
	if (!fz->jemalloc)
		for (unsigned long pfn = 0; pfn < fz->nr_pages; pfn++)
			fz_check(fz, fz->held_pfn[pfn] || seen[pfn],
				 "free pfn 0x%lx is on no list (lost)", pfn);
	free(seen);
}

/* After every step. */
static void fz_check_pool(struct fz *fz, bool full)
{
	struct pp_vmstat prev = fz->st;
	int bypass = fz_bypass(fz);

	fz_vmstat(fz, &fz->st);
	/* One thread: nothing holds a list it wants, nothing drains it. */
	if (bypass == 0)
		fz_check(fz, fz_delta(&prev, &fz->st, PP_PCP_TRYLOCK_FAIL) == 0 &&
			 fz_delta(&prev, &fz->st, PP_BULK_FALLBACK_TRYLOCK) == 0,
			 "trylock failures with one thread on a CPU with a list "
			 "(pcp_trylock_fail +%llu, bulk_fallback_trylock +%llu)",
			 (unsigned long long)fz_delta(&prev, &fz->st,
						      PP_PCP_TRYLOCK_FAIL),
			 (unsigned long long)fz_delta(&prev, &fz->st,
						      PP_BULK_FALLBACK_TRYLOCK));
	/* rseq, on a CPU without a list: no page lands on one. */
	if (bypass == 1)
		fz_check(fz, fz->st.nr_pcp <= prev.nr_pcp,
			 "on cpu %d, without a list of the %u, pcp pages went "
			 "from %lu to %lu", fz->cpu, fz->initial.nr_cpus,
			 prev.nr_pcp, fz->st.nr_pcp);
	if (full || fz->nr_pages <= FZ_SMALL_POOL ||
	    fz->step % FZ_BIG_CHECK_EVERY == 0)
		fz_check_descriptors(fz);
	for (unsigned int i = 0; i < FZ_FOREIGN; i++)
		fz_check(fz, !memcmp(&fz_foreign[i], &fz_foreign_copy[i],
				     sizeof(fz_foreign[i])),
			 "a foreign page pointer's memory was written");
}

/* --- pool creation ------------------------------------------------------- */

/* A configuration the header calls invalid must fail with EINVAL. */
static void fz_try_invalid(struct fz *fz)
{
	struct pp_pool_config cfg;
	unsigned long min, low, high;
	struct pp_pool *pool;
	bool wmarks = false;
	const char *why;

	pp_pool_config_init(&cfg);
	cfg.nr_pages = 1 + fz_range(&fz->in, 0, 255);
	cfg.nr_cpus = 1;
	switch (fz_u8(&fz->in) % 5) {
	case 0:
		cfg.nr_pages = 0;
		why = "no pages";
		break;
	case 1:
		cfg.pcp_batch = 0;
		why = "batch 0";
		break;
	case 2:
		cfg.pcp_batch = 1 + fz_range(&fz->in, 1, 63);
		cfg.pcp_high = cfg.pcp_batch - 1;
		why = "high below batch";
		break;
	case 3:
		cfg.wmark_min = fz_range(&fz->in, 1, 64);
		cfg.wmark_low = cfg.wmark_min - 1;
		why = "low below min";
		wmarks = true;
		break;
	default:
		cfg.wmark_min = 0;
		cfg.wmark_low = 0;
		cfg.wmark_high = cfg.nr_pages + 1;
		why = "high above the pool size";
		wmarks = true;
		break;
	}
	if (wmarks)
		fz_check(fz, pp_pool_config_wmarks(&cfg, &min, &low, &high) ==
			 -EINVAL, "pp_pool_config_wmarks: %s accepted", why);
	errno = 0;
	pool = pp_pool_create(&cfg);
	fz_check(fz, !pool && errno == EINVAL,
		 "pp_pool_create: %s: %s, not EINVAL", why,
		 pool ? "created" : strerror(errno));
}

/*
 * A random configuration from the input: geometry, watermarks, debug,
 * backend, bulk variant and pcp implementation.  @b is the first byte.
 */
static void fz_config(struct fz *fz, struct pp_pool_config *cfg, uint8_t b)
{
	uint8_t v;

	pp_pool_config_init(cfg);
	if (b % 8 == 7)
		cfg->nr_pages = fz_range(&fz->in, FZ_SMALL_POOL + 1,
					 FZ_BIG_POOL);
	else
		cfg->nr_pages = fz_range(&fz->in, 1, FZ_SMALL_POOL);
	cfg->pcp_batch = (unsigned int)fz_range(&fz->in, 1, 63);
	cfg->pcp_high = (unsigned int)fz_range(&fz->in, cfg->pcp_batch,
					       6UL * cfg->pcp_batch);
	cfg->nr_cpus = (unsigned int)fz_range(&fz->in, 0, 4);
	switch (fz_u8(&fz->in) % 4) {
	case 0:		/* the kernel's */
		break;
	case 1:		/* only a really empty zone fails */
		cfg->wmark_min = cfg->wmark_low = cfg->wmark_high = 0;
		break;
	case 2:		/* a small min, low and high derived */
		cfg->wmark_min = fz_range(&fz->in, 0, cfg->nr_pages / 8);
		break;
	default:	/* anything small, maybe out of order */
		cfg->wmark_min = fz_range(&fz->in, 0, 32);
		cfg->wmark_low = fz_range(&fz->in, 0, 48);
		cfg->wmark_high = fz_range(&fz->in, 0, 64);
		break;
	}
	cfg->debug = b & 0x10;
	/* jemalloc's own metadata needs a few hundred pages */
	cfg->backend = (b & 0x60) == 0x60 && cfg->nr_pages >= 1024 &&
		       pp_jemalloc_tcache_slots() != -EOPNOTSUPP ?
		       PP_BACKEND_JEMALLOC : PP_BACKEND_BUDDY;
	if (cfg->backend == PP_BACKEND_JEMALLOC) {
		uint8_t j = fz_u8(&fz->in);

		cfg->je_tcache = j & 1;
		cfg->je_batch_alloc = j & 2;
	}
	v = fz_u8(&fz->in);
	cfg->bulk_variant = (enum pp_bulk_variant)(v % PP_NR_BULK_VARIANTS);
	/*
	 * Bit 7 of the first byte: rseq or lock as asked, told by what the
	 * variant byte has left; clear: the default (auto, or PAGEPOOL_PCP,
	 * which make check sets to replay the corpus on each).
	 */
	if (b & 0x80)
		cfg->pcp_impl = (v / PP_NR_BULK_VARIANTS) % 2 ? PP_PCP_RSEQ :
								PP_PCP_LOCK;
	/*
	 * The profile, from what the variant byte has left again (so the
	 * corpus keeps its bytes' meaning); PAGEPOOL_PROFILE, which make
	 * check sets to replay the corpus on the kernel profile, wins.
	 */
	if (!getenv("PAGEPOOL_PROFILE"))
		cfg->profile = (v / (2 * PP_NR_BULK_VARIANTS)) % 2 ?
			       PP_PROFILE_KERNEL : PP_PROFILE_LEAN;
}

/* What a pool just made must be, against @cfg and the watermarks. */
static void fz_check_new(struct fz *fz, const struct pp_pool_config *cfg,
			 unsigned long min, unsigned long low,
			 unsigned long high)
{
	pp_pool_vmstat(fz->pool, &fz->initial);
	fz_check(fz, fz->initial.wmark_min == min &&
		 fz->initial.wmark_low == low && fz->initial.wmark_high == high,
		 "watermarks %lu/%lu/%lu, pp_pool_config_wmarks said "
		 "%lu/%lu/%lu", fz->initial.wmark_min, fz->initial.wmark_low,
		 fz->initial.wmark_high, min, low, high);
	fz_check(fz, fz->initial.nr_cpus >= 1 &&
		 (!cfg->nr_cpus || fz->initial.nr_cpus == cfg->nr_cpus),
		 "%u pcp lists for nr_cpus %u", fz->initial.nr_cpus,
		 cfg->nr_cpus);
	if (!fz->jemalloc)
		fz_check(fz, fz->initial.nr_free == fz->nr_pages &&
			 fz->initial.nr_pcp == 0,
			 "a new pool has %lu free and %lu pcp pages of %lu",
			 fz->initial.nr_free, fz->initial.nr_pcp,
			 fz->nr_pages);
	fz_check(fz, pp_pfn_to_page(fz->pool, fz->nr_pages) == NULL,
		 "pp_pfn_to_page(nr_pages) is not NULL");
	fz_check(fz, pp_bulk_variant_from_name(pp_bulk_variant_name(
		 fz->variant)) == (int)fz->variant &&
		 pp_backend_from_name(pp_backend_name(cfg->backend)) ==
		 (int)cfg->backend, "variant or backend names do not round-trip");
}

static bool fz_create(struct fz *fz)
{
	struct pp_pool_config *cfg = &fz->cfg;
	unsigned long min, low, high;
	uint8_t b = fz_u8(&fz->in);
	int first_cpu = 0;

	if (b % 16 == 15) {
		fz_try_invalid(fz);
		b = fz_u8(&fz->in);
	}
	/* One CPU, known: under rseq it decides which list is used. */
	while (first_cpu < CPU_SETSIZE - 1 && !CPU_ISSET(first_cpu, &fz_cpus))
		first_cpu++;
	fz_pin(fz, first_cpu);
	fz_config(fz, cfg, b);
	errno = 0;
	fz->pool = pp_pool_create(cfg);
	if (pp_pool_config_wmarks(cfg, &min, &low, &high)) {
		fz_check(fz, !fz->pool && errno == EINVAL,
			 "pp_pool_create: watermarks %lu/%lu/%lu out of order "
			 "for %lu pages accepted", min, low, high,
			 cfg->nr_pages);
		return false;
	}
	fz_check(fz, fz->pool, "pp_pool_create(%lu pages, batch %u, high %u, "
		 "%u cpus, %s): %s", cfg->nr_pages, cfg->pcp_batch,
		 cfg->pcp_high, cfg->nr_cpus,
		 pp_backend_name(cfg->backend), strerror(errno));
	fz->jemalloc = cfg->backend == PP_BACKEND_JEMALLOC;
	fz->variant = cfg->bulk_variant;
	fz->impl = fz_expected_impl(cfg);
	fz_check(fz, pp_pool_pcp_impl(fz->pool) == fz->impl,
		 "pp_pool_pcp_impl() is %s for %s asked, %u cpus (%ld "
		 "configured), %s backend, rseq %s here; expected %s",
		 pp_pcp_impl_name(pp_pool_pcp_impl(fz->pool)),
		 pp_pcp_impl_name(cfg->pcp_impl), cfg->nr_cpus,
		 fz_nr_cpus_conf, pp_backend_name(cfg->backend),
		 fz_rseq_ok ? "supported" : "unsupported",
		 pp_pcp_impl_name(fz->impl));
	fz->nr_pages = cfg->nr_pages;
	fz->map = pp_pfn_to_page(fz->pool, 0);
	fz->arena = pp_page_address(fz->pool, fz->map);
	fz->held_pfn = calloc(fz->nr_pages, 1);
	fz->held = calloc(fz->nr_pages, sizeof(*fz->held));
	if (!fz->held_pfn || !fz->held)
		abort();
	fz->cookie = ((uint64_t)fz_u32(&fz->in) << 32) | 0x5bd1e995;

	fz_log(fz, "create %lu pages batch %u high %u cpus %u wmarks %lu/%lu/%lu "
	       "debug %d %s %s, pcp %s (asked %s), on cpu %d", cfg->nr_pages,
	       cfg->pcp_batch, cfg->pcp_high, cfg->nr_cpus, min, low, high,
	       cfg->debug, pp_backend_name(cfg->backend),
	       pp_bulk_variant_name(cfg->bulk_variant),
	       pp_pcp_impl_name(fz->impl), pp_pcp_impl_name(cfg->pcp_impl),
	       fz->cpu);

	fz_check_new(fz, cfg, min, low, high);
	fz->st = fz->initial;
	fz_check_pool(fz, true);
	return true;
}

/* --- operations ---------------------------------------------------------- */

static pp_gfp_t fz_gfp(struct fz *fz)
{
	uint8_t g = fz_u8(&fz->in);

	/* mostly GFP_KERNEL; bits outside PP_GFP_MASK are ignored */
	if (g < 0xa0)
		return PP_GFP_KERNEL;
	return g & (PP_GFP_MASK | 0x30);
}

/* Must a single allocation of @order succeed (buddy backend)? */
static bool fz_must_succeed(struct fz *fz, unsigned int order, pp_gfp_t gfp)
{
	unsigned long f = fz_free_pages(fz), n = 1UL << order;

	if (fz->jemalloc || !fz_free_block_exists(fz, order))
		return false;
	if (gfp & PP_GFP_MEMALLOC)
		return true;
	/* against min after a drain; GFP_ATOMIC may go lower still */
	return f - (n - 1) > fz->st.wmark_min;
}

static void op_alloc(struct fz *fz, bool higher)
{
	struct pp_vmstat before = fz->st;
	unsigned int order = 0;
	pp_gfp_t gfp = fz_gfp(fz);
	struct pp_page *page;
	bool must, exists;

	if (higher)
		order = (unsigned int)fz_range(&fz->in, 1, PP_MAX_ORDER + 2);
	exists = order <= PP_MAX_ORDER && fz_free_block_exists(fz, order);
	must = order <= PP_MAX_ORDER && fz_must_succeed(fz, order, gfp);
	page = order || fz_u8(&fz->in) & 1 ?
	       pp_alloc_pages(fz->pool, gfp, order) :
	       pp_alloc_page(fz->pool, gfp);
	fz_log(fz, "alloc order %u gfp 0x%x: %s", order, gfp,
	       page ? "page" : "NULL");
	if (page) {
		fz_check(fz, order <= PP_MAX_ORDER,
			 "pp_alloc_pages(order %u) above PP_MAX_ORDER returned "
			 "a page", order);
		fz_check(fz, exists, "order-%u allocation succeeded with no "
			 "free aligned block of that order", order);
		fz_take(fz, page, order, gfp, "pp_alloc_pages");
	} else {
		fz_check(fz, !must, "order-%u allocation (gfp 0x%x) failed "
			 "with %lu pages free, min %lu, a free block of the "
			 "order", order, gfp, fz_free_pages(fz),
			 fz->st.wmark_min);
	}
	fz_check_pool(fz, false);
	fz_check(fz, fz_delta(&before, &fz->st, PP_ALLOC_SINGLE_CALLS) == 1,
		 "alloc_single_calls moved by %llu", (unsigned long long)
		 fz_delta(&before, &fz->st, PP_ALLOC_SINGLE_CALLS));
	fz_check(fz, fz_delta(&before, &fz->st, PP_PGALLOC) ==
		 (page ? 1UL << order : 0) &&
		 fz_delta(&before, &fz->st, PP_ALLOC_FAIL) == (page ? 0 : 1),
		 "pgalloc moved by %llu, alloc_fail by %llu for %s",
		 (unsigned long long)fz_delta(&before, &fz->st, PP_PGALLOC),
		 (unsigned long long)fz_delta(&before, &fz->st, PP_ALLOC_FAIL),
		 page ? "a block" : "NULL");
}

/* A held order-0 page, or one of the foreign pointers. */
static struct pp_page *fz_some_page(struct fz *fz, uint64_t *rnd)
{
	uint64_t r = fz_rand(rnd);

	if (fz->nr_held && r % 4) {
		struct fz_block *b = &fz->held[(r >> 8) % fz->nr_held];

		return b->page;
	}
	return &fz_foreign[(r >> 8) % FZ_FOREIGN];
}

/*
 * What a bulk call of @nr pages that needs @wanted of them, @lead entries
 * in, must have done about fallbacks (buddy backend, one thread).
 */
static void fz_check_bulk_path(struct fz *fz, const struct pp_vmstat *before,
			       unsigned long nr, unsigned long lead,
			       unsigned long wanted, unsigned long got,
			       const char *what)
{
	uint64_t one = fz_delta(before, &fz->st, PP_BULK_FALLBACK_ONE_PAGE);
	uint64_t wm = fz_delta(before, &fz->st, PP_BULK_FALLBACK_WATERMARK);
	uint64_t tl = fz_delta(before, &fz->st, PP_BULK_FALLBACK_TRYLOCK);
	uint64_t em = fz_delta(before, &fz->st, PP_BULK_FALLBACK_EMPTY);
	bool single = fz->variant != PP_BULK_NO_SINGLE_FALLBACK;
	int bypass = fz_bypass(fz);

	/*
	 * With one thread no trylock fails; but under rseq, on a CPU
	 * without a list, every call that gets as far as the pcp lists
	 * falls back as if one had.
	 */
	if (bypass >= 0)
		fz_check(fz, tl == (uint64_t)(bypass && wanted && !one && !wm),
			 "%s: trylock fallback counted %llu (%s, on cpu %d of "
			 "%u lists; one-page %llu, watermark %llu fallbacks)",
			 what, (unsigned long long)tl,
			 pp_pcp_impl_name(fz->impl), fz->cpu,
			 fz->initial.nr_cpus, (unsigned long long)one,
			 (unsigned long long)wm);
	fz_check(fz, one + wm + em + tl <= 1, "%s: %llu fallbacks in one call",
		 what, (unsigned long long)(one + wm + em + tl));
	if (!wanted) {
		fz_check(fz, one + wm + em + tl == 0 && got == 0,
			 "%s: nothing to do, yet a fallback or a page", what);
		return;
	}
	/* "Exactly one missing page ... goes to the single-page path." */
	fz_check(fz, one == (single && nr - lead == 1),
		 "%s: %lu of %lu entries missing after %lu populated: "
		 "one-page fallback counted %llu", what, nr - lead, nr, lead,
		 (unsigned long long)one);
	if (one || wm || em || tl)
		fz_check(fz, got <= 1, "%s: %lu pages after a fallback to the "
			 "single-page path", what, got);
	if (fz->jemalloc) {
		fz_check(fz, wm == 0, "%s: watermark fallback with jemalloc",
			 what);
		return;
	}
	/* "a zone below its low watermark + nr_pages" */
	if (!one)
		fz_check(fz, wm == (nr > fz->nr_pages ||
				    before->nr_free <= before->wmark_low + nr),
			 "%s: %lu pages, %lu free in the buddy lists, low %lu: "
			 "watermark fallback counted %llu", what, nr,
			 before->nr_free, before->wmark_low,
			 (unsigned long long)wm);
	/* the bulk loop stops short only when the zone ran dry */
	if (!one && !wm && !em && !tl && got < wanted &&
	    fz->variant != PP_BULK_STOP_AT_POPULATED)
		fz_check(fz, fz->st.nr_free == 0,
			 "%s: %lu of %lu pages without a fallback while %lu "
			 "pages stay in the buddy lists", what, got, wanted,
			 fz->st.nr_free);
	/* at least one page when a single allocation would have got one */
	if (fz_free_pages(fz) + got > before->wmark_min)
		fz_check(fz, got >= 1, "%s: no page with %lu free, min %lu",
			 what, fz_free_pages(fz) + got, before->wmark_min);
}

static void op_bulk_array(struct fz *fz)
{
	struct pp_vmstat before = fz->st;
	unsigned long nr = fz_range(&fz->in, 0, FZ_MAX_ARRAY);
	unsigned int fill = fz_u8(&fz->in);	/* chance of a populated slot */
	uint64_t rnd = fz_u32(&fz->in);
	pp_gfp_t gfp = fz_gfp(fz);
	struct pp_page **arr, **old;
	unsigned long ret, lead = 0, holes = 0, wanted, got = 0;
	bool pure = fz->variant == PP_BULK_PURE_OUTPUT;

	arr = calloc(nr + 1, sizeof(*arr));
	old = calloc(nr + 1, sizeof(*old));
	if (!arr || !old)
		abort();
	/* every other array is all holes; the rest has random holes */
	for (unsigned long i = 0; i < nr && (fill & 1); i++)
		if (fz_rand(&rnd) % 256 < fill)
			arr[i] = fz_some_page(fz, &rnd);
	memcpy(old, arr, nr * sizeof(*arr));
	while (lead < nr && arr[lead])
		lead++;
	for (unsigned long i = 0; i < nr; i++)
		holes += !arr[i];
	if (pure) {
		lead = 0;
		wanted = nr;
	} else {
		wanted = holes;
	}

	ret = pp_alloc_pages_bulk_array(fz->pool, gfp, nr, arr);
	fz_log(fz, "bulk array nr %lu holes %lu lead %lu gfp 0x%x: ret %lu",
	       nr, holes, lead, gfp, ret);

	fz_check(fz, ret <= nr, "bulk array returned %lu for %lu entries",
		 ret, nr);
	for (unsigned long i = 0; i < ret; i++)
		fz_check(fz, arr[i], "bulk array returned %lu but entry %lu is "
			 "NULL", ret, i);
	for (unsigned long i = ret; i < nr; i++)
		fz_check(fz, arr[i] == old[i], "bulk array returned %lu but "
			 "changed entry %lu from %p to %p", ret, i,
			 (void *)old[i], (void *)arr[i]);
	if (!pure && holes == 0)
		fz_check(fz, ret == nr, "a full array of %lu returned %lu", nr,
			 ret);
	for (unsigned long i = 0; i < ret; i++) {
		if (arr[i] == old[i] && !pure)
			continue;
		if (arr[i] == old[i])
			/* pure output stores new pages: none is an old one */
			fz_check(fz, 0, "pure-output entry %lu kept its old "
				 "value", i);
		fz_check(fz, pure || !old[i], "bulk array replaced populated "
			 "entry %lu", i);
		fz_take(fz, arr[i], 0, gfp, "pp_alloc_pages_bulk_array");
		got++;
	}
	if (pure)
		fz_check(fz, got == ret, "pure output stored %lu pages, "
			 "returned %lu", got, ret);
	fz_check_pool(fz, false);
	fz_check(fz, fz_delta(&before, &fz->st, PP_ALLOC_BULK_ARRAY_CALLS) == 1
		 && fz_delta(&before, &fz->st, PP_PGALLOC) == got,
		 "bulk array: calls +%llu, pgalloc +%llu for %lu pages",
		 (unsigned long long)fz_delta(&before, &fz->st,
					      PP_ALLOC_BULK_ARRAY_CALLS),
		 (unsigned long long)fz_delta(&before, &fz->st, PP_PGALLOC),
		 got);
	if (fz_free_pages(fz) + got == 0)
		fz_check(fz, got == 0, "pages out of an empty pool");
	fz_check_bulk_path(fz, &before, nr, lead, pure || holes ? wanted : 0,
			   got, "bulk array");
	free(arr);
	free(old);
}

static void op_bulk_list(struct fz *fz)
{
	struct pp_vmstat before = fz->st;
	unsigned long nr = fz_range(&fz->in, 0, FZ_MAX_ARRAY);
	unsigned long nr_old = fz_range(&fz->in, 0, FZ_MAX_LIST_OLD);
	pp_gfp_t gfp = fz_gfp(fz);
	struct pp_page *old[FZ_MAX_LIST_OLD];
	struct pp_list_head list;
	struct pp_list_head *p;
	unsigned long ret, got = 0, start;

	pp_list_init(&list);
	if (nr_old > fz->nr_held)
		nr_old = fz->nr_held;
	start = fz->nr_held ? fz_range(&fz->in, 0, fz->nr_held - 1) : 0;
	/* the list already holds pages (lru is ours while we hold them) */
	for (unsigned long i = 0; i < nr_old; i++) {
		old[i] = fz->held[(start + i) % fz->nr_held].page;
		pp_list_add_tail(&old[i]->lru, &list);
	}

	ret = pp_alloc_pages_bulk_list(fz->pool, gfp, nr, &list);
	fz_log(fz, "bulk list nr %lu (%lu on the list) gfp 0x%x: ret %lu", nr,
	       nr_old, gfp, ret);

	fz_check(fz, ret <= nr, "bulk list returned %lu for %lu", ret, nr);
	p = list.next;
	for (unsigned long i = 0; i < ret; i++, p = p->next) {
		fz_check(fz, p != &list, "bulk list returned %lu, the list has "
			 "%lu new entries", ret, i);
		fz_check(fz, p->next->prev == p, "bulk list: broken links");
		fz_take(fz, pp_lru_to_page(p), 0, gfp,
			"pp_alloc_pages_bulk_list");
		got++;
	}
	for (unsigned long i = 0; i < nr_old; i++, p = p->next)
		fz_check(fz, p != &list && pp_lru_to_page(p) == old[i] &&
			 p->next->prev == p,
			 "bulk list: old entry %lu lost or moved", i);
	fz_check(fz, p == &list && list.prev->next == &list,
		 "bulk list: more entries than %lu + %lu", ret, nr_old);
	while (pp_list_pop_page(&list))
		;
	fz_check_pool(fz, false);
	fz_check(fz, fz_delta(&before, &fz->st, PP_ALLOC_BULK_LIST_CALLS) == 1
		 && fz_delta(&before, &fz->st, PP_PGALLOC) == got,
		 "bulk list: calls +%llu, pgalloc +%llu for %lu pages",
		 (unsigned long long)fz_delta(&before, &fz->st,
					      PP_ALLOC_BULK_LIST_CALLS),
		 (unsigned long long)fz_delta(&before, &fz->st, PP_PGALLOC),
		 got);
	fz_check_bulk_path(fz, &before, nr, 0, nr, got, "bulk list");
}

static void op_get(struct fz *fz)
{
	struct fz_block *b;

	if (!fz->nr_held)
		return;
	b = &fz->held[fz_range(&fz->in, 0, fz->nr_held - 1)];
	if (b->refs >= FZ_MAX_REFS)
		return;
	pp_get_page(fz->pool, b->page);
	b->refs++;
	fz_log(fz, "get pfn 0x%lx: %d refs", b->pfn, b->refs);
	fz_check(fz, pp_page_count(b->page) == b->refs,
		 "get: refcount %d, we hold %d", pp_page_count(b->page),
		 b->refs);
	fz_check_pool(fz, false);
}

static void op_put(struct fz *fz)
{
	struct pp_vmstat before = fz->st;
	unsigned long i, freed;

	if (!fz->nr_held)
		return;
	i = fz_range(&fz->in, 0, fz->nr_held - 1);
	fz_before_put(fz, &fz->held[i]);
	fz_log(fz, "put pfn 0x%lx order %u (%d refs)", fz->held[i].pfn,
	       fz->held[i].order, fz->held[i].refs);
	pp_put_page(fz->pool, fz->held[i].page);
	freed = fz_after_put(fz, i);
	fz_check_pool(fz, false);
	fz_check(fz, fz_delta(&before, &fz->st, PP_PGFREE) == freed,
		 "put: pgfree +%llu, %lu pages freed",
		 (unsigned long long)fz_delta(&before, &fz->st, PP_PGFREE),
		 freed);
}

/* pp_release_pages() on held blocks (each once) and NULL entries. */
static void op_release(struct fz *fz)
{
	struct pp_vmstat before = fz->st;
	struct pp_page *arr[FZ_MAX_RELEASE], *copy[FZ_MAX_RELEASE];
	unsigned long nr = fz_range(&fz->in, 1, FZ_MAX_RELEASE);
	unsigned long start, taken = 0, freed = 0;
	uint64_t rnd = fz_u16(&fz->in);

	if (!fz->nr_held)
		return;
	start = fz_range(&fz->in, 0, fz->nr_held - 1);
	for (unsigned long i = 0; i < nr; i++) {
		arr[i] = NULL;
		if (taken < fz->nr_held && fz_rand(&rnd) % 4) {
			struct fz_block *b =
				&fz->held[(start + taken++) % fz->nr_held];

			fz_before_put(fz, b);
			arr[i] = b->page;
		}
	}
	memcpy(copy, arr, sizeof(arr));
	pp_release_pages(fz->pool, arr, nr);
	fz_log(fz, "release %lu entries, %lu pages", nr, taken);
	fz_check(fz, !memcmp(copy, arr, nr * sizeof(*arr)),
		 "pp_release_pages changed its array");
	/* each held block released once: find it (the list moves) */
	for (unsigned long k = 0; k < nr; k++) {
		if (!copy[k])
			continue;
		for (unsigned long i = 0; i < fz->nr_held; i++) {
			if (fz->held[i].page == copy[k]) {
				freed += fz_after_put(fz, i);
				break;
			}
		}
	}
	fz_check_pool(fz, false);
	fz_check(fz, fz_delta(&before, &fz->st, PP_PGFREE) == freed,
		 "release: pgfree +%llu, %lu pages freed",
		 (unsigned long long)fz_delta(&before, &fz->st, PP_PGFREE),
		 freed);
}

static void op_drain(struct fz *fz)
{
	pp_pool_drain(fz->pool);
	fz_log(fz, "drain");
	fz_check_pool(fz, false);
	fz_check(fz, fz->st.nr_pcp == 0, "%lu pages on pcp lists after a "
		 "drain", fz->st.nr_pcp);
}

/*
 * Run on another CPU: frees land on another pcp list; under rseq, on a
 * CPU >= nr_cpus, on none.
 */
static void op_migrate(struct fz *fz)
{
	unsigned int want = fz_u8(&fz->in) % (unsigned int)fz_nr_cpus_online;

	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &fz_cpus))
			continue;
		if (want-- == 0) {
			fz_pin(fz, cpu);
			fz_log(fz, "move to cpu %d%s", cpu, fz_bypass(fz) == 1 ?
			       ", which has no pcp list (rseq)" : "");
			break;
		}
	}
}

static void op_variant(struct fz *fz)
{
	unsigned int v = fz_u8(&fz->in) % (PP_NR_BULK_VARIANTS + 1);

	if (v == PP_NR_BULK_VARIANTS) {
		fz_check(fz, pp_pool_set_bulk_variant(fz->pool,
			 (enum pp_bulk_variant)v) == -EINVAL,
			 "pp_pool_set_bulk_variant(%u) accepted", v);
	} else {
		fz_check(fz, pp_pool_set_bulk_variant(fz->pool,
			 (enum pp_bulk_variant)v) == 0,
			 "pp_pool_set_bulk_variant(%u) refused", v);
		fz->variant = (enum pp_bulk_variant)v;
	}
	fz_check(fz, pp_pool_bulk_variant(fz->pool) == fz->variant,
		 "pp_pool_bulk_variant() is %u, not %u",
		 pp_pool_bulk_variant(fz->pool), fz->variant);
	fz_log(fz, "variant %s", pp_bulk_variant_name(fz->variant));
	fz_check_pool(fz, false);
}

/* Conversions on a held page. */
static void op_convert(struct fz *fz)
{
	const struct fz_block *b;
	unsigned long off;
	char *a;

	if (!fz->nr_held)
		return;
	b = &fz->held[fz_range(&fz->in, 0, fz->nr_held - 1)];
	off = fz_range(&fz->in, 0, (PP_PAGE_SIZE << b->order) - 1);
	a = pp_page_address(fz->pool, b->page);
	fz_check(fz, a == fz_addr(fz, b->pfn) &&
		 pp_page_to_pfn(fz->pool, b->page) == b->pfn &&
		 pp_pfn_to_page(fz->pool, b->pfn) == b->page &&
		 pp_virt_to_page(fz->pool, a + off) ==
		 &fz->map[b->pfn + off / PP_PAGE_SIZE],
		 "conversions of pfn 0x%lx disagree", b->pfn);
	fz_check(fz, !pp_virt_to_page(fz->pool, fz->arena - 1) &&
		 !pp_virt_to_page(fz->pool, fz_addr(fz, fz->nr_pages)),
		 "pp_virt_to_page() outside the arena is not NULL");
	if (fz_null)
		pp_vmstat_print(fz_null, &fz->st);
}

/*
 * pp_pool_destroy() with pages out: -EBUSY, a report naming how many on
 * stderr (caught here, so fuzzing stays quiet), and the pool still works.
 */
static void op_destroy_busy(struct fz *fz)
{
	char out[512], want[64];
	int fd, saved;
	ssize_t n = -1;
	int err;

	if (!fz->nr_held)
		return;
	fz_log(fz, "destroy with %lu pages out", fz->held_pages);
	fflush(stderr);
	fd = memfd_create("destroy-report", 0);
	saved = dup(2);
	if (fd < 0 || saved < 0 || dup2(fd, 2) < 0)
		abort();
	err = pp_pool_destroy(fz->pool);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	if (lseek(fd, 0, SEEK_SET) == 0)
		n = read(fd, out, sizeof(out) - 1);
	close(fd);
	out[n > 0 ? n : 0] = '\0';
	fz_check(fz, err == -EBUSY,
		 "pp_pool_destroy() with %lu pages out returned %d, not -EBUSY",
		 fz->held_pages, err);
	snprintf(want, sizeof(want), "%lu of %lu pages still in use",
		 fz->held_pages, fz->nr_pages);
	fz_check(fz, strstr(out, want), "pp_pool_destroy() with pages out "
		 "said \"%s\", not \"%s\"", out, want);
	fz_check_pool(fz, false);
}

/* Put back everything we hold, in input order or from the end. */
static void fz_put_all(struct fz *fz, bool with_release)
{
	while (fz->nr_held) {
		unsigned long i = fz->nr_held - 1;

		if (with_release) {
			struct pp_page *one[2] = { NULL, fz->held[i].page };

			fz_before_put(fz, &fz->held[i]);
			pp_release_pages(fz->pool, one, 2);
		} else {
			fz_before_put(fz, &fz->held[i]);
			pp_put_page(fz->pool, fz->held[i].page);
		}
		fz_after_put(fz, i);
	}
}

/* Everything back, pcp lists drained: the shape right after create. */
static void fz_check_whole(struct fz *fz)
{
	pp_pool_drain(fz->pool);
	fz_check_pool(fz, true);
	fz_check(fz, fz->st.events[PP_PGALLOC] == fz->st.events[PP_PGFREE],
		 "everything back, yet pgalloc %llu != pgfree %llu",
		 (unsigned long long)fz->st.events[PP_PGALLOC],
		 (unsigned long long)fz->st.events[PP_PGFREE]);
	if (fz->jemalloc)
		return;	/* jemalloc keeps extents until its arena goes */
	fz_check(fz, fz->st.nr_free == fz->nr_pages && fz->st.nr_pcp == 0,
		 "everything back and drained, yet %lu free, %lu on pcp lists "
		 "of %lu", fz->st.nr_free, fz->st.nr_pcp, fz->nr_pages);
	for (unsigned int o = 0; o < PP_NR_ORDERS; o++)
		fz_check(fz, fz->st.free_area[o] == fz->initial.free_area[o],
			 "everything back: free_area[%u] is %lu, %lu after "
			 "create", o, fz->st.free_area[o],
			 fz->initial.free_area[o]);
}

static void op_put_all(struct fz *fz)
{
	fz_log(fz, "put everything back (%lu blocks)", fz->nr_held);
	fz_put_all(fz, fz_u8(&fz->in) & 1);
	fz_check_whole(fz);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz fz = { .in = { data, size } };
	int err;

	if (!fz_nr_cpus_online)
		LLVMFuzzerInitialize(NULL, NULL);
	fz.verbose = getenv("FUZZ_POOL_VERBOSE") &&
		     *getenv("FUZZ_POOL_VERBOSE") == '1';
	if (!fz_create(&fz))
		return 0;
	while (!fz_done(&fz.in)) {
		uint8_t op = fz_u8(&fz.in);

		fz.step++;
		switch (op % 32) {
		case 0 ... 5:
			op_alloc(&fz, false);
			break;
		case 6 ... 7:
			op_alloc(&fz, true);
			break;
		case 8 ... 12:
			op_bulk_array(&fz);
			break;
		case 13 ... 15:
			op_bulk_list(&fz);
			break;
		case 16 ... 17:
			op_get(&fz);
			break;
		case 18 ... 23:
			op_put(&fz);
			break;
		case 24 ... 25:
			op_release(&fz);
			break;
		case 26:
			op_drain(&fz);
			break;
		case 27:
			op_migrate(&fz);
			break;
		case 28:
			op_variant(&fz);
			break;
		case 29:
			op_convert(&fz);
			break;
		case 30:
			/* rarely: it prints a report to stderr */
			if (op == 30)
				op_destroy_busy(&fz);
			else
				op_convert(&fz);
			break;
		default:
			op_put_all(&fz);
			break;
		}
	}
	fz.step++;
	fz_put_all(&fz, false);
	fz_check_whole(&fz);
	err = pp_pool_destroy(fz.pool);
	fz_check(&fz, err == 0, "pp_pool_destroy() with everything back: %d",
		 err);
	fz_log(&fz, "destroyed");
	sched_setaffinity(0, sizeof(fz_cpus), &fz_cpus);
	free(fz.held_pfn);
	free(fz.held);
	return 0;
}
