/* SPDX-License-Identifier: MIT */
#include <pagepool/pagepool.h>

#include "tap.h"

int main(void)
{
	struct pp_pool *pool = pp_pool_create(NULL);
	struct pp_page *page;

	plan_tests(3);
	ok(pool != NULL, "pp_pool_create - default pool");
	page = pp_alloc_page(pool, PP_GFP_KERNEL);
	ok(page != NULL, "pp_alloc_page - one page");
	pp_put_page(pool, page);
	ok(pp_pool_destroy(pool) == 0, "pp_pool_destroy - nothing leaked");
	return exit_status();
}
