/* SPDX-License-Identifier: MIT */
/*
 * The page cache: the file every request reads or writes, one pool page
 * per index, filled before a run and released after it; READ replies
 * splice its pages (svc_process()).
 */
#include <config.h>

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pagepool/pagepool.h>

#include "svc_internal.h"
#include "util.h"

/* Pages per bulk call while filling the page cache. */
#define CACHE_FILL_BATCH 1024UL

/*
 * Fill the file's pages from the pool and write their contents, a batch
 * at a time.  A large file takes seconds (every page is faulted in and
 * written), so a signal is looked for after each batch.  Returns 0, 1
 * when interrupted, -1 when the pool ran out (said).  The pages taken so
 * far are in serv->cache either way.
 */
int svc_cache_fill(struct svc_serv *serv)
{
	unsigned long n = serv->cfg->file_pages, filled = 0;

	serv->cache = xcalloc(n, sizeof(*serv->cache));
	while (filled < n) {
		unsigned long want = n - filled, got;

		if (rpcsim_first_signal())
			return 1;
		if (want > CACHE_FILL_BATCH)
			want = CACHE_FILL_BATCH;
		got = pp_alloc_pages_bulk_array(serv->pool, PP_GFP_KERNEL,
						want, serv->cache + filled);
		if (!got) {
			fprintf(stderr, "rpcsim: the pool ran out after %lu "
				"of the file's %lu pages\n", filled, n);
			return -1;
		}
		for (unsigned long i = filled; i < filled + got; i++) {
			unsigned char *p = pp_page_address(serv->pool,
							   serv->cache[i]);
			uint64_t off = (uint64_t)i * PP_PAGE_SIZE;

			memset(p, (int)(i * 31 + 7) & 0xff, PP_PAGE_SIZE);
			memcpy(p, &off, sizeof(off));
		}
		filled += got;
	}
	serv->acct.allocated += n;
	for (unsigned int i = 0; i < CACHE_LOCKS; i++)
		PTHREAD_CHECK(pthread_mutex_init(&serv->cache_lock[i], NULL));
	return 0;
}

void svc_cache_release(struct svc_serv *serv)
{
	unsigned long keep = serv->cfg->leak_pages;

	/* RPCSIM_LEAK_PAGES keeps the first pages: the leak check's test. */
	pp_release_pages(serv->pool, serv->cache + keep,
			 serv->cfg->file_pages - keep);
	serv->acct.released += serv->cfg->file_pages - keep;
	for (unsigned int i = 0; i < CACHE_LOCKS; i++)
		PTHREAD_CHECK(pthread_mutex_destroy(&serv->cache_lock[i]));
	free(serv->cache);
	serv->cache = NULL;
}
