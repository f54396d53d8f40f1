/* SPDX-License-Identifier: MIT */
/*
 * Which pcp implementation a pool gets (enum pp_pcp_impl):
 *
 *   - the names, and PAGEPOOL_PCP read by pp_pool_config_init(); a value
 *     it cannot read makes pp_pool_create() fail with EINVAL and one line
 *     on stderr naming the variable;
 *   - where rseq is supported: PP_PCP_AUTO gives rseq to a pool with a
 *     list for every CPU and the lock to one with fewer, explicit rseq
 *     and lock are taken as asked, the jemalloc backend always runs the
 *     lock; under explicit rseq, list i serves CPU i only: a thread on a
 *     CPU without a list bypasses the lists (pcp_trylock_fail), where the
 *     lock implementation would use list c % nr_cpus, and counts the
 *     kernel profile's NR_FREE_PAGES straight into the zone;
 *   - a thread moved to another CPU inside a drain at high goes on, in
 *     both profiles;
 *   - without rseq: the test runs itself again with glibc's rseq
 *     registration off (GLIBC_TUNABLES=glibc.pthread.rseq=0); there a
 *     pool made with AUTO and two made with RSEQ run the lock, the notice
 *     is one line, once for the process, and every page of a workload on
 *     each pool comes back.  The child only reports what it saw; this
 *     process checks it.
 *
 * Buddy backend (PP_TEST_BACKEND=jemalloc skips it); it sets PAGEPOOL_PCP
 * itself.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <pagepool/pagepool.h>

#include "capture.h"
#include "pp_test.h"
#include "tap.h"

#define NR_PAGES	512
#define BATCH		8
#define HIGH		48

#define CHILD_ARG	"--without-rseq"
#define NOTICE_HEAD	"pagepool: rseq per-CPU lists unavailable ("
#define NOTICE_TAIL	"): using the lock implementation\n"

/* The tests' pool: @impl with @nr_cpus lists on @backend, no watermarks. */
static void impl_config(struct pp_pool_config *cfg, enum pp_pcp_impl impl,
			unsigned int nr_cpus, enum pp_backend backend)
{
	pp_pool_config_init(cfg);
	cfg->backend = backend;
	cfg->nr_pages = backend == PP_BACKEND_BUDDY ? NR_PAGES :
			NR_PAGES + TEST_JE_EXTRA_PAGES;
	cfg->pcp_batch = BATCH;
	cfg->pcp_high = HIGH;
	cfg->nr_cpus = nr_cpus;
	cfg->wmark_min = cfg->wmark_low = cfg->wmark_high = 0;
	cfg->pcp_impl = impl;
}

static struct pp_pool *impl_pool(enum pp_pcp_impl impl, unsigned int nr_cpus,
				 enum pp_backend backend)
{
	struct pp_pool_config cfg;

	impl_config(&cfg, impl, nr_cpus, backend);
	return pp_pool_create(&cfg);
}

/* An rseq pool of @profile with @nr_cpus lists, as impl_pool() makes. */
static struct pp_pool *profile_pool(enum pp_profile profile,
				    unsigned int nr_cpus)
{
	struct pp_pool_config cfg;

	impl_config(&cfg, PP_PCP_RSEQ, nr_cpus, PP_BACKEND_BUDDY);
	cfg.profile = profile;
	return pp_pool_create(&cfg);
}

/* --- names and PAGEPOOL_PCP --------------------------------------------- */

static void test_names(void)
{
	static const char *const bad[] = { "bogus", "", "RSEQ", "lock ",
					   " auto" };
	unsigned int rejected = 0;

	ok(!strcmp(pp_pcp_impl_name(PP_PCP_AUTO), "auto") &&
	   !strcmp(pp_pcp_impl_name(PP_PCP_RSEQ), "rseq") &&
	   !strcmp(pp_pcp_impl_name(PP_PCP_LOCK), "lock") &&
	   !strcmp(pp_pcp_impl_name(PP_NR_PCP_IMPLS), "unknown") &&
	   !strcmp(pp_pcp_impl_name((enum pp_pcp_impl)-1), "unknown"),
	   "pp_pcp_impl_name - auto, rseq, lock; unknown outside the enum");
	ok(pp_pcp_impl_from_name("auto") == PP_PCP_AUTO &&
	   pp_pcp_impl_from_name("rseq") == PP_PCP_RSEQ &&
	   pp_pcp_impl_from_name("lock") == PP_PCP_LOCK,
	   "pp_pcp_impl_from_name - the names round-trip");
	for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		rejected += pp_pcp_impl_from_name(bad[i]) == -EINVAL;
	rejected += pp_pcp_impl_from_name(NULL) == -EINVAL;
	ok(rejected == sizeof(bad) / sizeof(bad[0]) + 1,
	   "pp_pcp_impl_from_name - any other string, and NULL: -EINVAL "
	   "(%u of %zu)", rejected, sizeof(bad) / sizeof(bad[0]) + 1);
}

static void test_env(void)
{
	static const struct {
		const char *value;
		enum pp_pcp_impl impl;
	} cases[] = {
		{ "auto", PP_PCP_AUTO },
		{ "rseq", PP_PCP_RSEQ },
		{ "lock", PP_PCP_LOCK },
	};
	struct pp_pool_config cfg;

	unsetenv("PAGEPOOL_PCP");
	memset(&cfg, 0xff, sizeof(cfg));
	pp_pool_config_init(&cfg);
	ok(cfg.pcp_impl == PP_PCP_AUTO,
	   "pp_pool_config_init - pcp_impl auto without PAGEPOOL_PCP (%d)",
	   cfg.pcp_impl);
	for (unsigned int i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int err;

		setenv("PAGEPOOL_PCP", cases[i].value, 1);
		err = pp_pool_config_init(&cfg);
		ok(err == 0 && cfg.pcp_impl == cases[i].impl,
		   "pp_pool_config_init - PAGEPOOL_PCP=%s sets pcp_impl %s (%d)",
		   cases[i].value, pp_pcp_impl_name(cases[i].impl),
		   cfg.pcp_impl);
	}
	unsetenv("PAGEPOOL_PCP");
}

/* A pool made with stderr captured (capture_stderr()). */
struct create_try {
	bool from_env;			/* pcp_impl as pp_pool_config_init() */
	enum pp_pcp_impl impl;
	unsigned int nr_cpus;
	enum pp_backend backend;
	struct pp_pool *pool;
	int err;
};

static int try_create(void *arg)
{
	struct create_try *t = arg;

	if (t->from_env) {
		struct pp_pool_config cfg;

		pp_pool_config_init(&cfg);
		cfg.nr_pages = 64;
		cfg.nr_cpus = t->nr_cpus;
		errno = 0;
		t->pool = pp_pool_create(&cfg);
	} else {
		errno = 0;
		t->pool = impl_pool(t->impl, t->nr_cpus, t->backend);
	}
	t->err = errno;
	return 0;
}

static struct create_try try_from_env(void)
{
	struct create_try t = { .from_env = true, .nr_cpus = 1 };

	return t;
}

static struct create_try try_impl(enum pp_pcp_impl impl, unsigned int nr_cpus,
				  enum pp_backend backend)
{
	struct create_try t = { .impl = impl, .nr_cpus = nr_cpus,
				.backend = backend };

	return t;
}

static unsigned int count_lines(const char *s)
{
	unsigned int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

#define BAD_ENV_CHECKS	7

/* A PAGEPOOL_PCP the library cannot read: EINVAL, one line saying so. */
static void test_bad_env(void)
{
	static const char *const bad[] = { "bogus", "" };
	char err[1024], want[128];
	struct create_try t;

	for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct pp_pool_config cfg;
		int init;

		setenv("PAGEPOOL_PCP", bad[i], 1);
		init = pp_pool_config_init(&cfg);
		t = try_from_env();
		capture_stderr(try_create, &t, err, sizeof(err));
		ok(init == -EINVAL && !t.pool && t.err == EINVAL,
		   "pp_pool_create - PAGEPOOL_PCP='%s': pp_pool_config_init "
		   "-EINVAL (%d), then NULL, EINVAL (%s)", bad[i], init,
		   t.pool ? "created" : strerror(t.err));
		snprintf(want, sizeof(want), "PAGEPOOL_PCP='%s'", bad[i]);
		if (!ok(count_lines(err) == 1 && strstr(err, want) &&
			strstr(err, "auto, rseq or lock"),
			"pp_pool_create - PAGEPOOL_PCP='%s': one line naming the "
			"variable, its value and what it accepts", bad[i]))
			diag_text("stderr: ", err);
		pp_pool_destroy(t.pool);
	}
	unsetenv("PAGEPOOL_PCP");

	/* Out of range in the configuration itself: EINVAL, quietly. */
	t = try_impl(PP_NR_PCP_IMPLS, 1, PP_BACKEND_BUDDY);
	capture_stderr(try_create, &t, err, sizeof(err));
	ok(!t.pool && t.err == EINVAL,
	   "pp_pool_create - cfg.pcp_impl out of range: NULL, EINVAL (%s)",
	   t.pool ? "created" : strerror(t.err));
	if (!ok(!*err, "pp_pool_create - cfg.pcp_impl out of range: nothing "
		"printed"))
		diag_text("stderr: ", err);
	pp_pool_destroy(t.pool);
	/* With a good PAGEPOOL_PCP set: the variable is not to blame. */
	setenv("PAGEPOOL_PCP", "lock", 1);
	t = try_impl(PP_NR_PCP_IMPLS, 1, PP_BACKEND_BUDDY);
	capture_stderr(try_create, &t, err, sizeof(err));
	if (!ok(!t.pool && t.err == EINVAL && !strstr(err, "PAGEPOOL_PCP"),
		"pp_pool_create - cfg.pcp_impl out of range, PAGEPOOL_PCP=lock "
		"set: EINVAL, and the variable is not blamed"))
		diag_text("stderr: ", err);
	pp_pool_destroy(t.pool);
	unsetenv("PAGEPOOL_PCP");
}

/* --- the choice, where rseq is supported ------------------------------- */

static bool vmstat_says(struct pp_pool *pool, const char *line)
{
	struct pp_vmstat st;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	bool found;

	pp_pool_vmstat(pool, &st);
	if (!out)
		return false;
	pp_vmstat_print(out, &st);
	fclose(out);
	found = buf && strstr(buf, line);
	free(buf);
	return found;
}

/*
 * Create a pool with stderr captured: it must exist, run @want and print
 * nothing.  Returns that, as a check's condition.
 */
static bool pool_runs(struct create_try t, enum pp_pcp_impl want,
		      const char *vmstat_line)
{
	char err[1024];
	bool good;

	capture_stderr(try_create, &t, err, sizeof(err));
	good = t.pool && pp_pool_pcp_impl(t.pool) == want && !*err &&
	       (!vmstat_line || vmstat_says(t.pool, vmstat_line));
	if (!good)
		diag("%s: %s, stderr '%s'", t.pool ? "created" : "not created",
		     t.pool ? pp_pcp_impl_name(pp_pool_pcp_impl(t.pool)) :
		     strerror(t.err), err);
	pp_pool_destroy(t.pool);
	return good;
}

#define CHOICE_CHECKS	7

static void test_choice(void)
{
	long conf = sysconf(_SC_NPROCESSORS_CONF);
	const char *why = "";

	if (!pp_pcp_rseq_supported(&why)) {
		skip(CHOICE_CHECKS, "no rseq pcp lists here: %s", why);
		return;
	}
	unsetenv("PAGEPOOL_PCP");
	ok(pool_runs(try_impl(PP_PCP_AUTO, 0, PP_BACKEND_BUDDY), PP_PCP_RSEQ,
		     "\npcp_impl rseq\n"),
	   "auto, nr_cpus 0 (a list per CPU): rseq, vmstat says so");
	ok(pool_runs(try_impl(PP_PCP_AUTO, (unsigned int)conf,
			      PP_BACKEND_BUDDY), PP_PCP_RSEQ, NULL),
	   "auto, nr_cpus %ld (the configured CPUs): rseq", conf);
	if (conf > 1)
		ok(pool_runs(try_impl(PP_PCP_AUTO, 1, PP_BACKEND_BUDDY),
			     PP_PCP_LOCK, "\npcp_impl lock\n"),
		   "auto, nr_cpus 1 of %ld CPUs: lock, no notice", conf);
	else
		skip(1, "one CPU: every pool has a list for every CPU");
	ok(pool_runs(try_impl(PP_PCP_RSEQ, 1, PP_BACKEND_BUDDY), PP_PCP_RSEQ,
		     NULL),
	   "rseq, nr_cpus 1: rseq as asked");
	ok(pool_runs(try_impl(PP_PCP_LOCK, 0, PP_BACKEND_BUDDY), PP_PCP_LOCK,
		     "\npcp_impl lock\n"),
	   "lock, nr_cpus 0: lock as asked");
	/* PAGEPOOL_PCP is only pp_pool_config_init()'s default. */
	setenv("PAGEPOOL_PCP", "lock", 1);
	ok(pool_runs(try_impl(PP_PCP_RSEQ, 0, PP_BACKEND_BUDDY), PP_PCP_RSEQ,
		     NULL),
	   "rseq in cfg.pcp_impl, PAGEPOOL_PCP=lock: the configuration wins");
	unsetenv("PAGEPOOL_PCP");
	/* Its per-CPU thread caches are jemalloc's code: not restartable. */
	if (pp_jemalloc_tcache_slots() == -EOPNOTSUPP)
		skip(1, "libpagepool built without jemalloc");
	else
		ok(pool_runs(try_impl(PP_PCP_RSEQ, 0, PP_BACKEND_JEMALLOC),
			     PP_PCP_LOCK, NULL),
		   "rseq asked for on the jemalloc backend: lock, no notice");
}

/* --- explicit rseq with fewer lists than CPUs --------------------------- */

static bool pin_to(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return !sched_setaffinity(0, sizeof(set), &set) &&
	       sched_getcpu() == cpu;
}

#define BYPASS_CHECKS	8

/*
 * Can rseq lists run here, and may this thread run on CPUs 0 and 1 (the
 * affinity it has in *@saved)?  Else @checks checks skipped, saying why.
 */
static bool rseq_on_cpus_0_1(cpu_set_t *saved, unsigned int checks)
{
	const char *why = "";

	if (!pp_pcp_rseq_supported(&why)) {
		skip(checks, "no rseq pcp lists here: %s", why);
		return false;
	}
	if (sched_getaffinity(0, sizeof(*saved), saved) ||
	    !CPU_ISSET(0, saved) || !CPU_ISSET(1, saved)) {
		skip(checks, "needs CPUs 0 and 1");
		return false;
	}
	return true;
}

/*
 * One list, two CPUs: on CPU 0 the list is used; on CPU 1, explicit rseq
 * bypasses it (a single page, a free, a bulk call: pcp_trylock_fail,
 * bulk_fallback_trylock), where the lock uses list 1 % 1 = 0.
 */
static void test_bypass(void)
{
	struct pp_page *page, *arr[8] = { NULL };
	struct pp_pool *pool, *lock;
	struct pp_vmstat a, b;
	cpu_set_t saved;
	unsigned long ret;

	if (!rseq_on_cpus_0_1(&saved, BYPASS_CHECKS))
		return;
	pool = impl_pool(PP_PCP_RSEQ, 1, PP_BACKEND_BUDDY);
	if (!pool || pp_pool_pcp_impl(pool) != PP_PCP_RSEQ)
		bail_out("an rseq pool with one list: %s",
			 pool ? "runs the lock" : strerror(errno));

	if (!pin_to(1))
		bail_out("cannot run on CPU 1");
	page = test_alloc_page_vmstat(pool, &a, &b);
	ok(page && vm_delta(&a, &b, PP_PCP_TRYLOCK_FAIL) == 1 &&
	   vm_delta(&a, &b, PP_PCP_REFILL) == 0 && b.nr_pcp == 0 &&
	   vm_delta(&a, &b, PP_PGALLOC) == 1,
	   "rseq, 1 list, on CPU 1: pp_alloc_page bypasses the list "
	   "(pcp_trylock_fail +%llu, refills +%llu, pcp %lu)",
	   (unsigned long long)vm_delta(&a, &b, PP_PCP_TRYLOCK_FAIL),
	   (unsigned long long)vm_delta(&a, &b, PP_PCP_REFILL), b.nr_pcp);
	a = b;
	pp_put_page(pool, page);
	pp_pool_vmstat(pool, &b);
	ok(vm_delta(&a, &b, PP_PCP_TRYLOCK_FAIL) == 1 && b.nr_pcp == 0 &&
	   b.nr_free == NR_PAGES && vm_delta(&a, &b, PP_PGFREE) == 1,
	   "rseq, 1 list, on CPU 1: pp_put_page frees to the buddy lists");
	a = b;
	ret = pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL, 8, arr);
	pp_pool_vmstat(pool, &b);
	ok(ret == 1 && vm_delta(&a, &b, PP_BULK_FALLBACK_TRYLOCK) == 1 &&
	   b.nr_pcp == 0,
	   "rseq, 1 list, on CPU 1: a bulk call falls back to one page as "
	   "after a failed trylock (%lu)", ret);
	a = b;
	pp_release_pages(pool, arr, 8);
	pp_pool_vmstat(pool, &b);
	ok(vm_delta(&a, &b, PP_PCP_TRYLOCK_FAIL) == 1 && b.nr_pcp == 0 &&
	   b.nr_free == NR_PAGES,
	   "rseq, 1 list, on CPU 1: pp_release_pages frees to the buddy "
	   "lists");

	if (!pin_to(0))
		bail_out("cannot run on CPU 0");
	a = b;
	page = pp_alloc_page(pool, PP_GFP_KERNEL);
	pp_pool_vmstat(pool, &b);
	ok(page && vm_delta(&a, &b, PP_PCP_TRYLOCK_FAIL) == 0 &&
	   vm_delta(&a, &b, PP_PCP_REFILL) == 1 && b.nr_pcp == BATCH - 1 &&
	   page->pcp_cpu == 0,
	   "rseq, 1 list, on CPU 0: pp_alloc_page refills list 0 (pcp %lu)",
	   b.nr_pcp);
	pp_put_page(pool, page);
	pp_pool_drain(pool);
	pp_pool_vmstat(pool, &b);
	ok(test_all_back(&b) && pp_pool_destroy(pool) == 0,
	   "rseq, 1 list: every page back, pp_pool_destroy returns 0");

	/* The lock implementation: CPU 1 uses list 1 % 1 = 0. */
	lock = impl_pool(PP_PCP_LOCK, 1, PP_BACKEND_BUDDY);
	if (!lock)
		bail_out("a lock pool: %s", strerror(errno));
	if (!pin_to(1))
		bail_out("cannot run on CPU 1");
	page = test_alloc_page_vmstat(lock, &a, &b);
	ok(page && vm_delta(&a, &b, PP_PCP_TRYLOCK_FAIL) == 0 &&
	   vm_delta(&a, &b, PP_PCP_REFILL) == 1 && b.nr_pcp == BATCH - 1,
	   "lock, 1 list, on CPU 1: pp_alloc_page uses list 0 (pcp %lu)",
	   b.nr_pcp);
	pp_put_page(lock, page);
	pp_pool_destroy(lock);

	/*
	 * The kernel profile's vmstat differentials: list 0's are CPU 0's,
	 * which its sections store without a compare-and-swap; a CPU
	 * without a list counts straight into the zone (it used to share
	 * CPU 0's differentials, and lost updates racing with it).  Seen
	 * with one page out: its -1 was in list 0's differential.
	 */
	pool = profile_pool(PP_PROFILE_KERNEL, 1);
	if (!pool || pp_pool_profile(pool) != PP_PROFILE_KERNEL)
		bail_out("a kernel-profile rseq pool: %s",
			 pool ? "lean" : strerror(errno));
	page = test_alloc_page_vmstat(pool, &a, &b);
	ok(page && b.nr_free_folded == NR_PAGES - 1,
	   "kernel profile, rseq, 1 list, on CPU 1: NR_FREE_PAGES counted in "
	   "the zone, not in list 0's differential (one page out: %lu free "
	   "as folded)", b.nr_free_folded);
	pp_put_page(pool, page);
	pp_pool_destroy(pool);
	sched_setaffinity(0, sizeof(saved), &saved);
}

/* --- a thread moved to another CPU inside a drain ---------------------- */

#define MIGRATE_CHECKS	4	/* two per profile */

struct mover {
	struct pp_pool *pool;
	atomic_ulong rounds;
	atomic_bool stop;
};

/* Eight pages taken and put back, over and over: a drain at high. */
static void *mover_work(void *arg)
{
	struct mover *m = arg;
	struct pp_page *p[8];

	while (!atomic_load(&m->stop)) {
		for (int i = 0; i < 8; i++)
			p[i] = pp_alloc_page(m->pool, PP_GFP_KERNEL);
		for (int i = 0; i < 8; i++)
			if (p[i])
				pp_put_page(m->pool, p[i]);
		atomic_fetch_add(&m->rounds, 1);
	}
	return NULL;
}

static void set_cpu(pthread_t t, int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_setaffinity_np(t, sizeof(set), &set);
}

/*
 * One thread frees on CPU 0 with high = batch = 4, so that a put often
 * drains; the main thread empties every list and moves it to CPU 1 at a
 * random moment, 300 times.  A drain that the move catches goes on with
 * CPU 1's lists (the rseq sections take from the CPU the thread
 * is on); one that kept looking at CPU 0's lists while taking from CPU
 * 1's empty ones never ended.  Both profiles; the thread must make
 * progress within 2 s of each move.
 */
static void test_migrate_drain(void)
{
	static const enum pp_profile profiles[] = {
		PP_PROFILE_LEAN, PP_PROFILE_KERNEL,
	};
	cpu_set_t saved;

	if (!rseq_on_cpus_0_1(&saved, MIGRATE_CHECKS))
		return;
	for (unsigned int i = 0; i < 2; i++) {
		struct mover m = { .rounds = 0, .stop = false };
		struct pp_pool_config cfg;
		uint64_t rng = 0x9e3779b97f4a7c15ULL + i;
		unsigned int moves = 0;
		bool stuck = false;
		struct pp_vmstat st;
		pthread_t t;

		impl_config(&cfg, PP_PCP_RSEQ, 0, PP_BACKEND_BUDDY);
		cfg.pcp_batch = 4;
		cfg.pcp_high = 4;
		cfg.profile = profiles[i];
		m.pool = pp_pool_create(&cfg);
		if (!m.pool || pp_pool_pcp_impl(m.pool) != PP_PCP_RSEQ)
			bail_out("an rseq pool: %s", m.pool ?
				 "runs the lock" : strerror(errno));
		set_cpu(pthread_self(), 1);
		if (pthread_create(&t, NULL, mover_work, &m))
			bail_out("pthread_create failed");
		for (; moves < 300 && !stuck; moves++) {
			unsigned long before;
			struct timespec d = { 0, 0 };

			set_cpu(t, 0);
			pp_pool_drain(m.pool);
			d.tv_nsec = (long)(test_rand(&rng) % 200000);
			nanosleep(&d, NULL);
			set_cpu(t, 1);
			before = atomic_load(&m.rounds);
			for (int w = 0; w < 20000 &&
			     atomic_load(&m.rounds) == before; w++) {
				d.tv_nsec = 100000;
				nanosleep(&d, NULL);
			}
			stuck = atomic_load(&m.rounds) == before;
		}
		ok(!stuck, "%s profile, rseq: a thread moved to another CPU "
		   "inside its drain goes on (%u moves%s)",
		   pp_profile_name(profiles[i]), moves,
		   stuck ? ", then no progress for 2 s" : "");
		if (stuck) {
			/* It spins for good: leave it; the process ends. */
			skip(MIGRATE_CHECKS - 2 * i - 1,
			     "the thread does not come back");
			break;
		}
		atomic_store(&m.stop, true);
		pthread_join(t, NULL);
		pp_pool_drain(m.pool);
		pp_pool_vmstat(m.pool, &st);
		ok(test_all_back(&st) && pp_pool_destroy(m.pool) == 0,
		   "%s profile, rseq: every page back after the moves",
		   pp_profile_name(profiles[i]));
	}
	sched_setaffinity(0, sizeof(saved), &saved);
}

/* --- without rseq: the child ------------------------------------------- */

/*
 * Run in a process with glibc's rseq registration off.  Reports on
 * stdout, one line each: "supported 0|1", then per pool "pool NAME IMPL
 * GOT DUP PGALLOC PGFREE BACK DESTROY".  Checks nothing itself.
 */
static int child_without_rseq(void)
{
	static const struct {
		const char *name;
		enum pp_pcp_impl impl;
		unsigned int nr_cpus;
	} pools[] = {
		{ "auto", PP_PCP_AUTO, 0 },
		{ "rseq-1", PP_PCP_RSEQ, 1 },
		{ "rseq-0", PP_PCP_RSEQ, 0 },
	};

	printf("supported %d\n", pp_pcp_rseq_supported(NULL));
	for (unsigned int i = 0; i < sizeof(pools) / sizeof(pools[0]); i++) {
		struct pp_list_head list = PP_LIST_HEAD_INIT(list);
		struct pp_page *single[16], *arr[32] = { NULL }, *block, *page;
		unsigned long got = 0, dup = 0;
		struct pp_vmstat init, st;
		struct owner_map map;
		struct pp_pool *pool;
		int destroyed;
		bool back;

		pool = impl_pool(pools[i].impl, pools[i].nr_cpus,
				 PP_BACKEND_BUDDY);
		if (!pool) {
			printf("pool %s failed %d\n", pools[i].name, errno);
			continue;
		}
		pp_pool_vmstat(pool, &init);
		owner_init(&map, pool);
		for (int k = 0; k < 16; k++) {
			single[k] = pp_alloc_page(pool, PP_GFP_KERNEL);
			if (single[k]) {
				dup += !owner_claim(&map, single[k], 0);
				got++;
			}
		}
		got += pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL, 32, arr);
		for (int k = 0; k < 32; k++)
			if (arr[k])
				dup += !owner_claim(&map, arr[k], 0);
		got += pp_alloc_pages_bulk_list(pool, PP_GFP_KERNEL, 32, &list);
		for (struct pp_list_head *p = list.next; p != &list;
		     p = p->next)
			dup += !owner_claim(&map, pp_lru_to_page(p), 0);
		block = pp_alloc_pages(pool, PP_GFP_KERNEL, 2);
		if (block) {
			dup += !owner_claim(&map, block, 2);
			got += 4;
		}
		for (int k = 0; k < 16; k++)
			if (single[k])
				pp_put_page(pool, single[k]);
		pp_release_pages(pool, arr, 32);
		while ((page = pp_list_pop_page(&list)))
			pp_put_page(pool, page);
		if (block)
			pp_put_page(pool, block);
		pp_pool_drain(pool);
		pp_pool_vmstat(pool, &st);
		back = test_all_back(&st) && free_area_equal(&init, &st);
		printf("pool %s %s %lu %lu %llu %llu %d", pools[i].name,
		       pp_pcp_impl_name(pp_pool_pcp_impl(pool)), got, dup,
		       (unsigned long long)st.events[PP_PGALLOC],
		       (unsigned long long)st.events[PP_PGFREE], back);
		owner_fini(&map);
		destroyed = pp_pool_destroy(pool);
		printf(" %d\n", destroyed);
	}
	fflush(stdout);
	return 0;
}

/* --- without rseq: the checks ------------------------------------------- */

struct self_run {
	int status;
	char out[4096], err[4096];
};

static void read_back(FILE *f, char *buf, size_t len)
{
	size_t n;

	rewind(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
}

/* This program again, with @arg, glibc's rseq off and no PAGEPOOL_PCP. */
static bool run_self_without_rseq(const char *arg, struct self_run *r)
{
	FILE *out = tmpfile(), *err = tmpfile();
	const char *old = getenv("GLIBC_TUNABLES");
	char tunables[1024];
	pid_t pid;

	if (!out || !err)
		bail_out("tmpfile: %s", strerror(errno));
	snprintf(tunables, sizeof(tunables), "%s%sglibc.pthread.rseq=0",
		 old ? old : "", old ? ":" : "");
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		bail_out("fork: %s", strerror(errno));
	if (pid == 0) {
		char self[] = "/proc/self/exe";
		char *argv[] = { self, (char *)arg, NULL };

		dup2(fileno(out), STDOUT_FILENO);
		dup2(fileno(err), STDERR_FILENO);
		setenv("GLIBC_TUNABLES", tunables, 1);
		unsetenv("PAGEPOOL_PCP");
		alarm(60);	/* survives the exec: no hang */
		execv(self, argv);
		_exit(127);
	}
	while (waitpid(pid, &r->status, 0) < 0)
		if (errno != EINTR)
			bail_out("waitpid: %s", strerror(errno));
	read_back(out, r->out, sizeof(r->out));
	read_back(err, r->err, sizeof(r->err));
	return WIFEXITED(r->status) && WEXITSTATUS(r->status) == 0;
}

struct child_pool {
	char impl[16];
	unsigned long got, dup;
	unsigned long long pgalloc, pgfree;
	int back, destroyed;
	bool seen;
};

static bool parse_pool(const char *out, const char *name,
		       struct child_pool *p)
{
	char key[64];
	const char *line;

	snprintf(key, sizeof(key), "\npool %s ", name);
	memset(p, 0, sizeof(*p));
	line = strstr(out, key);
	p->seen = line && sscanf(line + strlen(key), "%15s %lu %lu %llu %llu "
				 "%d %d", p->impl, &p->got, &p->dup,
				 &p->pgalloc, &p->pgfree, &p->back,
				 &p->destroyed) == 7;
	return p->seen;
}

#define NORSEQ_CHECKS	8

static void test_without_rseq(void)
{
	/* 16 single, 32 array, 32 list, one order-2 block */
	const unsigned long want = 16 + 32 + 32 + 4;
	static const char *const names[] = { "auto", "rseq-1", "rseq-0" };
	struct child_pool p[3];
	struct self_run r;
	const char *tail;
	bool ran, all_lock = true;
	char how[64];

	ran = run_self_without_rseq(CHILD_ARG, &r);
	if (WIFSIGNALED(r.status))
		snprintf(how, sizeof(how), "signal %d", WTERMSIG(r.status));
	else
		snprintf(how, sizeof(how), "exit %d", WEXITSTATUS(r.status));
	if (!ok(ran, "without rseq: the child ran and exited 0 (%s)", how)) {
		diag_text("child stdout: ", r.out);
		diag_text("child stderr: ", r.err);
	}
	ok(strstr(r.out, "supported 0\n") != NULL,
	   "without rseq: pp_pcp_rseq_supported() says no");
	for (unsigned int i = 0; i < 3; i++) {
		parse_pool(r.out, names[i], &p[i]);
		all_lock &= p[i].seen && !strcmp(p[i].impl, "lock");
	}
	ok(all_lock, "without rseq: auto (nr_cpus 0), rseq (nr_cpus 1) and "
	   "rseq (nr_cpus 0) pools all run the lock (%s, %s, %s)",
	   p[0].impl, p[1].impl, p[2].impl);
	tail = strstr(r.err, NOTICE_TAIL);
	if (!ok(count_lines(r.err) == 1 && !strncmp(r.err, NOTICE_HEAD,
						     strlen(NOTICE_HEAD)) &&
		tail && !tail[strlen(NOTICE_TAIL)],
		"without rseq: the notice, one line, once for three pools"))
		diag_text("child stderr: ", r.err);
	for (unsigned int i = 0; i < 3; i++)
		ok(p[i].seen && p[i].got == want && p[i].dup == 0 &&
		   p[i].pgalloc == want && p[i].pgfree == want && p[i].back &&
		   p[i].destroyed == 0,
		   "without rseq, %s pool: %lu pages of %lu handed out once "
		   "each, pgalloc %llu = pgfree %llu, every page back (%d), "
		   "destroy %d", names[i], p[i].got - p[i].dup, want,
		   p[i].pgalloc, p[i].pgfree, p[i].back, p[i].destroyed);
	ok(strstr(r.err, "rseq") != NULL,
	   "without rseq: the notice says why");
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], CHILD_ARG))
		return child_without_rseq();
	plan_tests(3 + 4 + BAD_ENV_CHECKS + CHOICE_CHECKS + BYPASS_CHECKS +
		   MIGRATE_CHECKS + NORSEQ_CHECKS);
	if (!test_backend_is_buddy()) {
		skip(3 + 4 + BAD_ENV_CHECKS + CHOICE_CHECKS + BYPASS_CHECKS +
		     MIGRATE_CHECKS + NORSEQ_CHECKS, "buddy backend only: %s",
		     "the jemalloc backend always runs the lock");
		return exit_status();
	}
	test_names();
	test_env();
	test_bad_env();
	test_choice();
	test_bypass();
	test_migrate_drain();
	test_without_rseq();
	return exit_status();
}
