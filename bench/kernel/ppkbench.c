// SPDX-License-Identifier: MIT OR GPL-2.0-only
/*
 * ppkbench: the running kernel's own page allocator, timed as pagebench
 * times libpagepool (bench/kernel-profile.sh): alloc + free per page, a
 * single page, then the bulk list and the bulk array at each size of
 * page_bench04_bulk's table.  Loaded by bench/kernel-bench.sh, on this
 * kernel (--insmod) or a kernel booted in a VM (--vm).  Every result is
 * a line "ppkbench: tag=T api=A bulk=N ns_per_page=X ticks_per_page=Y",
 * the median of @runs timed runs of @pages pages each; the runs go round
 * by round, each configuration once a round, after a round not timed.
 * The frees are page_bench04's: put_page() for single pages and array
 * slots, list_del() and __free_pages() for the list.  The last line,
 * "pages_held=N", counts the pages the calls gave and the frees did not
 * give back: 0, or the module has a leak.  Before the timing, the
 * contract probes (ppk_probes()) put the bulk calls at their corners.
 * The module runs in its init and keeps nothing: the script unloads it
 * after.  A fatal signal to insmod (^C: its default action) ends the
 * load between two slices of a run, every page given back.
 *
 * Dual-licensed so that it may call __alloc_pages_bulk(), which the
 * kernel exports to GPL-compatible modules only.
 */
#include <linux/gfp.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sort.h>
#include <linux/timex.h>
#include <linux/utsname.h>
#include <linux/version.h>
#ifdef CONFIG_X86
#include <asm/tsc.h>
#endif

#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 13, 0)
#error "the bulk page allocator came with Linux 5.13"
#endif
/* 6.14 renamed the array call and dropped the list (one API left). */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 14, 0)
#define PPK_HAVE_LIST 1
#define ppk_bulk_array(gfp, n, a) alloc_pages_bulk_array(gfp, n, a)
#else
#define PPK_HAVE_LIST 0
#define ppk_bulk_array(gfp, n, a) alloc_pages_bulk(gfp, n, a)
#endif

static unsigned int pages = 65536;
module_param(pages, uint, 0444);
MODULE_PARM_DESC(pages, "pages per timed run, 1..16777216 (default 65536)");
static unsigned int runs = 9;
module_param(runs, uint, 0444);
MODULE_PARM_DESC(runs, "timed runs per configuration, 1..99; the median is reported (default 9)");
static unsigned int tag;
module_param(tag, uint, 0444);
MODULE_PARM_DESC(tag, "a number printed on every line, to find this load's lines in the log");

#define PPK_MAX_BULK 128
static const unsigned int ppk_bulks[] = { 1, 2, 3, 4, 8, 16, 32, 64, 128 };
enum ppk_api { PPK_SINGLE, PPK_LIST, PPK_ARRAY };
static const char *const ppk_api_name[] = { "single", "list", "array" };

static struct page *ppk_slots[PPK_MAX_BULK];
static unsigned long ppk_sink;	/* keeps each page's pointer used */
static long ppk_held;		/* pages taken and not yet given back */

#if PPK_HAVE_LIST
static void ppk_free_list(struct list_head *list)
{
	struct page *page, *next;

	list_for_each_entry_safe(page, next, list, lru) {
		list_del(&page->lru);
		__free_pages(page, 0);
		ppk_held--;
	}
}
#endif

static void ppk_free_slots(unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (ppk_slots[i]) {
			put_page(ppk_slots[i]);
			ppk_held--;
		}
		ppk_slots[i] = NULL;
	}
}

/*
 * Pages between two looks at the scheduler and at insmod's signals in a
 * run: a run of many pages on a slow (debug) kernel must neither hold
 * the CPU long enough for the soft-lockup watchdog (20 s) nor ignore a
 * ^C.  One look per 65536 pages: too rare to weigh on a page's time.
 */
#define PPK_SLICE 65536UL

/*
 * One run: at least @n pages through @api, @bulk a call.  The pages it
 * got, or -ENOMEM when a call came back short, -EINTR for a fatal
 * signal (the pages given back either way).
 */
static long ppk_run(enum ppk_api api, unsigned int bulk, unsigned long n)
{
	unsigned long done = 0, got, look = PPK_SLICE;
	struct page *page;
	LIST_HEAD(list);

	while (done < n) {
		switch (api) {
		case PPK_SINGLE:
			page = alloc_page(GFP_KERNEL);
			if (!page)
				return -ENOMEM;
			ppk_held++;
			ppk_sink += (unsigned long)page;
			put_page(page);
			ppk_held--;
			got = 1;
			break;
#if PPK_HAVE_LIST
		case PPK_LIST:
			got = alloc_pages_bulk_list(GFP_KERNEL, bulk, &list);
			ppk_held += got;
			if (got != bulk) {
				ppk_free_list(&list);
				return -ENOMEM;
			}
			ppk_sink += (unsigned long)list.next;
			ppk_free_list(&list);
			break;
#endif
		case PPK_ARRAY:
		default:
			got = ppk_bulk_array(GFP_KERNEL, bulk, ppk_slots);
			ppk_held += got;
			if (got != bulk) {
				ppk_free_slots(bulk);
				return -ENOMEM;
			}
			ppk_sink += (unsigned long)ppk_slots[got - 1];
			ppk_free_slots(bulk);
			break;
		}
		done += got;
		if (done >= look && done < n) {
			look = done + PPK_SLICE;
			cond_resched();
			if (fatal_signal_pending(current))
				return -EINTR;
		}
	}
	return done;
}

/*
 * The contract probes: the bulk calls at their corners (and
 * __GFP_ZERO through each API, ppk_probe_zero()), each said as a
 * line "ppkbench: tag=T probe=NAME ret=R ..." that libpagepool's own run
 * of the same probes (bench/kernel/ppk-probes.c) must print word for
 * word.  "kept": prefilled slots still holding their page; "filled":
 * slots holding a page after the call; "len": the list's length; "old":
 * where the pages already on the list are after the call; "refs": 1 when
 * every page a call gave has one reference.
 */
static void ppk_probe_array(const char *name, unsigned int nr,
			    unsigned int prefill)	/* bit i: slot i prefilled */
{
	struct page *before[8] = { NULL };
	unsigned int i, kept = 0, filled = 0, refs = 1;
	unsigned long ret;

	/* ppk_slots: all NULL between runs (ppk_free_slots() clears them). */
	for (i = 0; i < 8; i++) {
		if (prefill & (1U << i)) {
			ppk_slots[i] = alloc_page(GFP_KERNEL);
			if (ppk_slots[i])
				ppk_held++;
			before[i] = ppk_slots[i];
		}
	}
	ret = ppk_bulk_array(GFP_KERNEL, nr, ppk_slots);
	for (i = 0; i < 8; i++) {
		if (!ppk_slots[i])
			continue;
		filled++;
		if (before[i]) {
			kept += ppk_slots[i] == before[i];
			continue;
		}
		ppk_held++;
		if (page_count(ppk_slots[i]) != 1)
			refs = 0;
	}
	pr_info("ppkbench: tag=%u probe=%s ret=%lu kept=%u filled=%u refs=%u\n",
		tag, name, ret, kept, filled, refs);
	ppk_free_slots(8);
}

#if PPK_HAVE_LIST
static void ppk_probe_list(const char *name, unsigned int nr,
			   unsigned int nr_old)
{
	unsigned int i, len = 0, first_old = 0, refs = 1;
	struct page *page, *old[3];
	unsigned long ret;
	LIST_HEAD(list);

	nr_old = min(nr_old, 3U);
	for (i = 0; i < nr_old; i++) {
		old[i] = alloc_page(GFP_KERNEL);
		if (!old[i]) {
			nr_old = i;
			break;
		}
		ppk_held++;
		list_add_tail(&old[i]->lru, &list);
	}
	ret = alloc_pages_bulk_list(GFP_KERNEL, nr, &list);
	ppk_held += ret;
	list_for_each_entry(page, &list, lru) {
		bool is_old = false;

		for (i = 0; i < nr_old; i++)
			is_old |= page == old[i];
		if (nr_old && page == old[0])
			first_old = len;
		if (!is_old && page_count(page) != 1)
			refs = 0;
		len++;
	}
	if (nr_old)
		pr_info("ppkbench: tag=%u probe=%s ret=%lu len=%u old=%u refs=%u\n",
			tag, name, ret, len, first_old, refs);
	else
		pr_info("ppkbench: tag=%u probe=%s ret=%lu len=%u refs=%u\n",
			tag, name, ret, len, refs);
	ppk_free_list(&list);
}
#endif

/*
 * __GFP_ZERO through each API: 16 pages written 0xa5 and given back
 * first, so that dirty pages are on hand; "zeroed": the pages the call
 * gave that read zero throughout.
 */
static void ppk_dirty_some(void)
{
	struct page *dirty[16];
	unsigned int i;

	for (i = 0; i < 16; i++) {
		dirty[i] = alloc_page(GFP_KERNEL);
		if (dirty[i])
			memset(page_address(dirty[i]), 0xa5, PAGE_SIZE);
	}
	for (i = 0; i < 16; i++)
		if (dirty[i])
			put_page(dirty[i]);
}

static void ppk_probe_zero(void)
{
	struct page *page;
	unsigned int i, zeroed = 0;
	unsigned long ret;
	LIST_HEAD(list);

	ppk_dirty_some();
	page = alloc_page(GFP_KERNEL | __GFP_ZERO);
	if (page) {
		zeroed = !memchr_inv(page_address(page), 0, PAGE_SIZE);
		put_page(page);
	}
	pr_info("ppkbench: tag=%u probe=single_zero ret=%u zeroed=%u\n",
		tag, !!page, zeroed);

	ppk_dirty_some();
	ret = ppk_bulk_array(GFP_KERNEL | __GFP_ZERO, 8, ppk_slots);
	ppk_held += ret;
	for (zeroed = 0, i = 0; i < 8; i++)
		if (ppk_slots[i])
			zeroed += !memchr_inv(page_address(ppk_slots[i]), 0,
					      PAGE_SIZE);
	pr_info("ppkbench: tag=%u probe=array_zero ret=%lu zeroed=%u\n",
		tag, ret, zeroed);
	ppk_free_slots(8);
#if PPK_HAVE_LIST
	ppk_dirty_some();
	ret = alloc_pages_bulk_list(GFP_KERNEL | __GFP_ZERO, 8, &list);
	ppk_held += ret;
	zeroed = 0;
	list_for_each_entry(page, &list, lru)
		zeroed += !memchr_inv(page_address(page), 0, PAGE_SIZE);
	pr_info("ppkbench: tag=%u probe=list_zero ret=%lu zeroed=%u\n",
		tag, ret, zeroed);
	ppk_free_list(&list);
#endif
}

static void ppk_probes(void)
{
	ppk_probe_array("array_empty", 8, 0);
	ppk_probe_array("array_prefix", 8, 0x07);
	ppk_probe_array("array_full", 8, 0xff);
	ppk_probe_array("array_holes", 8, 0xff & ~0x24);
	ppk_probe_array("array_first_hole", 8, 0xfe);
	ppk_probe_array("array_last_hole", 8, 0x7f);
	ppk_probe_array("array_one", 1, 0);
	ppk_probe_array("array_none", 0, 0);
	ppk_probe_array("array_short_prefilled", 4, 0xf0);
#if PPK_HAVE_LIST
	ppk_probe_list("list_empty", 8, 0);
	ppk_probe_list("list_onto_three", 8, 3);
	ppk_probe_list("list_one", 1, 0);
	ppk_probe_list("list_none", 0, 0);
#endif
	ppk_probe_zero();
}

static int ppk_cmp(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* One configuration: an API and a bulk size, and its timed runs. */
struct ppk_conf {
	enum ppk_api api;
	unsigned int bulk;
	int err;
	u64 *ns, *ticks;	/* per run, per page, in 1/1000 */
};

#define PPK_CONFS (1 + 2 * ARRAY_SIZE(ppk_bulks))
static struct ppk_conf ppk_confs[PPK_CONFS];

/* One timed run of @c into its slot @r (none for r < 0, the warm-up). */
static void ppk_time(struct ppk_conf *c, int r)
{
	u64 ns0, ns1;
	cycles_t c0, c1;
	long done;

	if (c->err)
		return;
	ns0 = ktime_get_ns();
	c0 = get_cycles();
	done = ppk_run(c->api, c->bulk, pages);
	c1 = get_cycles();
	ns1 = ktime_get_ns();
	if (done <= 0) {
		c->err = done ? (int)done : -ENOMEM;
		return;
	}
	if (r >= 0) {
		c->ns[r] = div64_u64((ns1 - ns0) * 1000, done);
		c->ticks[r] = div64_u64((u64)(c1 - c0) * 1000, done);
	}
}

static void ppk_report(struct ppk_conf *c)
{
	u64 ns, ticks;

	if (c->err) {
		pr_info("ppkbench: tag=%u api=%s bulk=%u error=%d\n", tag,
			ppk_api_name[c->api], c->bulk, c->err);
		return;
	}
	sort(c->ns, runs, sizeof(*c->ns), ppk_cmp, NULL);
	sort(c->ticks, runs, sizeof(*c->ticks), ppk_cmp, NULL);
	ns = c->ns[runs / 2];
	ticks = c->ticks[runs / 2];
	pr_info("ppkbench: tag=%u api=%s bulk=%u ns_per_page=%llu.%03llu ticks_per_page=%llu.%03llu\n",
		tag, ppk_api_name[c->api], c->bulk, ns / 1000, ns % 1000,
		ticks / 1000, ticks % 1000);
}

static int __init ppk_init(void)
{
	unsigned int tsc = 0, n = 0, i;
	u64 *times;
	int r;

	if (pages < 1 || pages > (1U << 24) || runs < 1 || runs > 99) {
		pr_err("ppkbench: pages=%u runs=%u: pages must be 1..16777216, runs 1..99\n",
		       pages, runs);
		return -EINVAL;
	}
	times = kcalloc(2 * PPK_CONFS * runs, sizeof(*times), GFP_KERNEL);
	if (!times)
		return -ENOMEM;
	ppk_confs[n++] = (struct ppk_conf){ .api = PPK_SINGLE, .bulk = 1 };
	for (i = 0; PPK_HAVE_LIST && i < ARRAY_SIZE(ppk_bulks); i++)
		ppk_confs[n++] = (struct ppk_conf){ .api = PPK_LIST,
						    .bulk = ppk_bulks[i] };
	for (i = 0; i < ARRAY_SIZE(ppk_bulks); i++)
		ppk_confs[n++] = (struct ppk_conf){ .api = PPK_ARRAY,
						    .bulk = ppk_bulks[i] };
	for (i = 0; i < n; i++) {
		ppk_confs[i].ns = times + 2 * i * runs;
		ppk_confs[i].ticks = ppk_confs[i].ns + runs;
	}
#ifdef CONFIG_X86
	tsc = tsc_khz;
#endif
	pr_info("ppkbench: tag=%u kernel=%s pages=%u runs=%u tsc_khz=%u init_on_alloc=%d list=%d\n",
		tag, init_utsname()->release, pages, runs, tsc,
		want_init_on_alloc(GFP_KERNEL), PPK_HAVE_LIST);
	ppk_probes();
	/*
	 * Round by round, every configuration once a round (a round not
	 * timed first): a drift of the machine during the load falls on
	 * all of them alike, not on the ones measured at that moment.
	 */
	for (r = -1; r < (int)runs; r++)
		for (i = 0; i < n; i++) {
			ppk_time(&ppk_confs[i], r);
			cond_resched();
			if (fatal_signal_pending(current)) {
				pr_info("ppkbench: tag=%u interrupted pages_held=%ld\n",
					tag, ppk_held);
				kfree(times);
				return -EINTR;
			}
		}
	for (i = 0; i < n; i++)
		ppk_report(&ppk_confs[i]);
	pr_info("ppkbench: tag=%u pages_held=%ld\n", tag, ppk_held);
	kfree(times);
	return 0;
}

static void __exit ppk_exit(void)
{
}

module_init(ppk_init);
module_exit(ppk_exit);
MODULE_LICENSE("Dual MIT/GPL");
MODULE_DESCRIPTION("The page allocator's single, bulk list and bulk array calls, timed per page");
