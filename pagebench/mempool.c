/* SPDX-License-Identifier: MIT */
/*
 * pagebench-mempool: pagebench's DPDK baseline, in a child process of its
 * own (helper.h): 4 KiB objects from an rte_mempool through the calling
 * lcore's cache, rte_mempool_get() + rte_mempool_put() for one page and
 * rte_mempool_get_bulk() + rte_mempool_put_bulk() for a bulk of n, the
 * way a DPDK application takes its buffers.  The fast path is DPDK's
 * inline code compiled here, with DPDK's own flags (pkg-config's cflags
 * carry -march and -include rte_config.h), which is why it is a program
 * of its own: nothing else in pagepool sees those flags or links DPDK.
 *
 * The EAL runs without privileges, hardware or shared state:
 *   --no-huge         anonymous memory, no hugetlbfs
 *   -m 64             64 MiB of it: the pool's objects (17 MiB), its ring,
 *                     one cache per possible lcore and EAL's own heap
 *   --no-pci          no device scan
 *   --iova-mode=va    nothing does DMA; no /proc/self/pagemap
 *   --no-shconf       no shared config file (--in-memory would be the
 *   --file-prefix=pagebench-PID   same, but DPDK refuses it with
 *                     --no-huge); a prefix of this process's own
 *   --no-telemetry    no socket, no telemetry thread
 *   --lcores=0@(CPUS) lcore 0 on the CPUs pagebench lets it run on (one
 *                     when pagebench pins itself, the default)
 *   --log-level=error quiet unless something fails; the log goes to stderr
 *                     (rte_openlog_stream), not to syslog
 * and with RUNTIME_DIRECTORY set to a temporary folder of its own, removed
 * at exit, so that it never writes under /var/run/dpdk or
 * $XDG_RUNTIME_DIR.  EAL still loads every driver plugin of the DPDK
 * install at start (about a second); that happens once per pagebench run.
 */
#include <config.h>

#include <dlfcn.h>
#include <errno.h>
#include <ftw.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_log.h>
#include <rte_mempool.h>
#include <rte_version.h>

#include "helper.h"

#define PAGE_SIZE	4096
/* 2^12 - 1, the size DPDK advises for its ring; many times bulk 128 plus
 * a full cache (flushed above 1.5 x 512). */
#define MEMPOOL_OBJECTS	4095
/* A cache per lcore of DPDK's largest size, RTE_MEMPOOL_CACHE_MAX_SIZE:
 * every bulk pagebench asks for (up to 128) is served from it. */
#define MEMPOOL_CACHE	512
#define EAL_MEMORY_MB	"64"

static char runtime_dir[4096];

/* Keeps results alive: the compiler cannot drop the work. */
static volatile uintptr_t sink;

static unsigned long mempool_run(void *ctx, enum pb_api api,
				 unsigned int bulk, unsigned long pages)
{
	struct rte_mempool *mp = ctx;
	void *objs[PB_MAX_BULK] = { NULL };
	unsigned long done = 0;
	uintptr_t acc = 0;

	if (api == PB_API_SINGLE) {
		for (; done < pages; done++) {
			void *obj;

			if (rte_mempool_get(mp, &obj))
				pb_helper_fail("rte_mempool_get: empty");
			acc += (uintptr_t)obj;
			rte_mempool_put(mp, obj);
		}
		sink = acc;
		return done;
	}
	while (done < pages) {
		if (rte_mempool_get_bulk(mp, objs, bulk))
			pb_helper_fail("rte_mempool_get_bulk(%u): empty",
				       bulk);
		acc += (uintptr_t)objs[bulk - 1];
		rte_mempool_put_bulk(mp, objs, bulk);
		/* The slots cleared, as pagebench's other array loops do. */
		memset(objs, 0, bulk * sizeof(objs[0]));
		done += bulk;
	}
	sink = acc;
	return done;
}

static int remove_entry(const char *path, const struct stat *st, int flag,
			struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

/* At exit, also after a failure: nothing of EAL's is left behind. */
static void remove_runtime_dir(void)
{
	if (runtime_dir[0])
		nftw(runtime_dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static void make_runtime_dir(void)
{
	const char *tmp = getenv("TMPDIR");

	if (!tmp || !*tmp)
		tmp = "/tmp";
	if ((size_t)snprintf(runtime_dir, sizeof(runtime_dir),
			     "%s/pagebench-mempool.XXXXXX", tmp) >=
	    sizeof(runtime_dir))
		pb_helper_fail("TMPDIR too long");
	if (!mkdtemp(runtime_dir)) {
		int err = errno;

		runtime_dir[0] = '\0';
		pb_helper_fail("mkdtemp in %s: %s", tmp, strerror(err));
	}
	atexit(remove_runtime_dir);
	/* EAL's runtime folder: systemd's RuntimeDirectory= variable. */
	if (setenv("RUNTIME_DIRECTORY", runtime_dir, 1))
		pb_helper_fail("setenv: %s", strerror(errno));
}

/* "(0,1,5)": the CPUs this process may run on. */
static void allowed_cpus(char *buf, size_t len)
{
	cpu_set_t set;
	size_t off = 0;

	if (sched_getaffinity(0, sizeof(set), &set))
		pb_helper_fail("sched_getaffinity: %s", strerror(errno));
	buf[off++] = '(';
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &set))
			continue;
		off += (size_t)snprintf(buf + off, len - off, "%s%d",
					buf[off - 1] == '(' ? "" : ",", cpu);
		if (off >= len - 2)
			pb_helper_fail("too many CPUs for --lcores");
	}
	snprintf(buf + off, len - off, ")");
}

int main(int argc, char **argv)
{
	char prefix[64], cpus[4096], lcores[4200], eal_args[4600] = "";
	char *eal_argv[16];
	int eal_argc = 0;
	struct rte_mempool *mp;
	Dl_info info;
	void *obj;
	bool aligned;
	int ret;

	pb_helper_init("pagebench-mempool", argc, argv);
	make_runtime_dir();
	snprintf(prefix, sizeof(prefix), "--file-prefix=pagebench-%ld",
		 (long)getpid());
	allowed_cpus(cpus, sizeof(cpus));
	snprintf(lcores, sizeof(lcores), "--lcores=0@%s", cpus);

	eal_argv[eal_argc++] = argv[0];
	eal_argv[eal_argc++] = "--no-huge";
	eal_argv[eal_argc++] = "-m";
	eal_argv[eal_argc++] = EAL_MEMORY_MB;
	eal_argv[eal_argc++] = "--no-pci";
	eal_argv[eal_argc++] = "--iova-mode=va";
	eal_argv[eal_argc++] = "--no-shconf";
	eal_argv[eal_argc++] = prefix;
	eal_argv[eal_argc++] = "--no-telemetry";
	eal_argv[eal_argc++] = lcores;
	eal_argv[eal_argc++] = "--log-level=error";
	eal_argv[eal_argc] = NULL;
	for (int i = 1; i < eal_argc; i++)
		snprintf(eal_args + strlen(eal_args),
			 sizeof(eal_args) - strlen(eal_args), "%s%s",
			 i > 1 ? " " : "", eal_argv[i]);

	rte_openlog_stream(stderr);
	ret = rte_eal_init(eal_argc, eal_argv);
	if (ret < 0)
		pb_helper_fail("rte_eal_init(%s): %s", eal_args,
			       rte_strerror(rte_errno));
	mp = rte_mempool_create("pagebench", MEMPOOL_OBJECTS, PAGE_SIZE,
				MEMPOOL_CACHE, 0, NULL, NULL, NULL, NULL,
				SOCKET_ID_ANY, 0);
	if (!mp)
		pb_helper_fail("rte_mempool_create(%d objects of %d bytes, "
			       "cache %d): %s", MEMPOOL_OBJECTS, PAGE_SIZE,
			       MEMPOOL_CACHE, rte_strerror(rte_errno));

	if (rte_mempool_get(mp, &obj))
		pb_helper_fail("rte_mempool_get: empty new pool");
	aligned = (uintptr_t)obj % PAGE_SIZE == 0;
	rte_mempool_put(mp, obj);

	if (!dladdr((void *)rte_mempool_create, &info) || !info.dli_fname)
		info.dli_fname = "?";
	pb_helper_info("version", "%s", rte_version());
	pb_helper_info("from", "%s", info.dli_fname);
	pb_helper_info("eal_args", "%s", eal_args);
	pb_helper_info("objects", "%u", mp->size);
	pb_helper_info("elt_size", "%u", mp->elt_size);
	pb_helper_info("header_size", "%u", mp->header_size);
	pb_helper_info("trailer_size", "%u", mp->trailer_size);
	pb_helper_info("cache_size", "%u", mp->cache_size);
	pb_helper_info("ops", "%s", rte_mempool_get_ops(mp->ops_index)->name);
	pb_helper_info("lcore", "%u", rte_lcore_id());
	pb_helper_info("page_aligned", "%s", aligned ? "yes" : "no");
	pb_helper_info("summary", "%s rte_mempool_get/put[_bulk] from %s, "
		       "%u objects of %u B (+%u B header%s), cache %u on "
		       "lcore %u, ops %s", rte_version(), info.dli_fname,
		       mp->size, mp->elt_size, mp->header_size,
		       aligned ? "" : ", not page-aligned", mp->cache_size,
		       rte_lcore_id(),
		       rte_mempool_get_ops(mp->ops_index)->name);
	pb_helper_info("note", "EAL %s", eal_args);

	ret = pb_helper_serve(mempool_run, mp);
	rte_mempool_free(mp);
	rte_eal_cleanup();
	return ret;
}
