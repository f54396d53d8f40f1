/* SPDX-License-Identifier: MIT */
/*
 * What pagebench prints: the header (the machine, the baselines and where
 * they come from), one greppable line per configuration, the table of
 * each bulk contract with the ratios under it, or instead the one JSON
 * document of --json, written with the tools' JSON writer (common/json.h);
 * --results=DIR's file holds the same document (results.c), which
 * records the host, the build and the settings as rpcsim's do
 * (sweep/results.h).
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "number.h"
#include "results.h"

#include "pagebench.h"

void pb_print_line(const struct result *r, const struct options *o)
{
	char variant[64] = "", ticks_s[32];

	if (r->variant >= 0)
		snprintf(variant, sizeof(variant), " variant=%s free=%s",
			 pp_bulk_variant_name(r->variant),
			 o->free_put ? "put" : "release");
#ifdef PB_HAVE_TSC
	snprintf(ticks_s, sizeof(ticks_s), "%.1f", r->median_ticks);
#else
	snprintf(ticks_s, sizeof(ticks_s), "n/a");
#endif
	printf("pagebench allocator=%s api=%s bulk=%u%s runs=%u "
	       "pages_per_run=%lu ns_per_page=%.3f min_ns=%.3f max_ns=%.3f "
	       "spread_pct=%.1f tsc_per_page=%s\n",
	       pb_allocator_names[r->allocator], pb_api_names[r->api], r->bulk,
	       variant, o->runs, r->pages_per_run, r->median_ns, r->min_ns,
	       r->max_ns, r->spread_pct, ticks_s);
	fflush(stdout);
}

/*
 * The pcp implementation the buddy pools run (PAGEPOOL_PCP, the build, the
 * kernel and glibc decide), and why not rseq when it was wanted.
 */
static enum pp_pcp_impl buddy_pcp_impl(const struct options *o,
				       const char **why)
{
	struct pp_pool_config cfg = o->pool_env;

	cfg.backend = PP_BACKEND_BUDDY;
	return pp_pool_config_pcp_impl(&cfg, why);
}

/* The row of @a/@api at @bulk, or NULL. */
static const struct result *find(const struct result *res, unsigned int nr,
				 enum allocator a, enum pb_api api,
				 unsigned int bulk, int variant)
{
	for (unsigned int i = 0; i < nr; i++)
		if (res[i].allocator == a && res[i].api == api &&
		    res[i].bulk == bulk && res[i].variant == variant)
			return &res[i];
	return NULL;
}

/* A baseline in the ratio lines under the table. */
struct ratio {
	enum allocator a;
	const char *label;
};

/* Row @a/@api at @bulk in the table of @variant (baselines have none). */
static const struct result *cell(const struct result *res, unsigned int nr,
				 int a, int api, unsigned int bulk, int variant)
{
	return find(res, nr, a, api, bulk,
		    a <= A_LAST_POOL && api != PB_API_SINGLE ? variant : -1);
}

/* One row per allocator and API, one column per bulk size. */
static void print_rows(const struct result *res, unsigned int nr,
		       const struct options *o, int variant)
{
	const struct result *r;

	for (int a = 0; a < NR_ALLOCATORS; a++) {
		for (int api = 0; api < PB_NR_APIS; api++) {
			bool any = false;

			for (unsigned int k = 0; k < o->nr_bulks; k++)
				any |= cell(res, nr, a, api, o->bulks[k],
					    variant) != NULL;
			if (!any)
				continue;
			printf("%-9s %-6s", pb_allocator_names[a],
			       pb_api_names[api]);
			for (unsigned int k = 0; k < o->nr_bulks; k++) {
				r = cell(res, nr, a, api, o->bulks[k], variant);
				if (r)
					printf(" %8.2f", r->median_ns);
				else
					printf(" %8s", "-");
			}
			printf("\n");
		}
	}
}

/* Bulk 64: buddy array against the floor, the baselines against it. */
static void print_bulk64_ratios(const struct result *res, unsigned int nr,
				int variant)
{
	static const struct ratio bulk64[] = {
		{ A_GLIBC, "glibc" }, { A_MALLOCX, "mallocx" },
		{ A_MEMPOOL, "mempool" }, { A_TCMALLOC, "tcmalloc" },
	};
	const struct result *floor, *r;

	floor = find(res, nr, A_LIFO, PB_API_ARRAY, 64, -1);
	r = find(res, nr, A_BUDDY, PB_API_ARRAY, 64, variant);
	if (!floor || !r)
		return;
	printf("bulk 64: buddy array / lifo floor = %.2fx",
	       r->median_ns / floor->median_ns);
	for (size_t i = 0; i < ARRAY_SIZE(bulk64); i++) {
		const struct result *b = find(res, nr, bulk64[i].a,
					      PB_API_ARRAY, 64, -1);

		if (b)
			printf(", %s / buddy array = %.2fx", bulk64[i].label,
			       b->median_ns / r->median_ns);
	}
	printf("\n");
}

/* One page: the baselines against buddy's single-page API. */
static void print_single_ratios(const struct result *res, unsigned int nr)
{
	static const struct ratio single[] = {
		{ A_MALLOCX, "mallocx+sdallocx" },
		{ A_TCMALLOC, "tcmalloc" }, { A_MEMPOOL, "mempool" },
	};
	const struct result *r = find(res, nr, A_BUDDY, PB_API_SINGLE, 1, -1);
	const char *sep = "single page: ";

	if (!r)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(single); i++) {
		const struct result *b = find(res, nr, single[i].a,
					      PB_API_SINGLE, 1, -1);

		if (!b)
			continue;
		printf("%s%s / buddy = %.2fx", sep, single[i].label,
		       b->median_ns / r->median_ns);
		sep = ", ";
	}
	if (sep[0] == ',')
		printf("\n");
}

/*
 * The table: one row per allocator and API, one column per bulk size,
 * median ns per page; then the ratios the target is about.
 */
void pb_print_table(const struct result *res, unsigned int nr,
		    const struct options *o, int variant)
{
	printf("\nns per page (alloc + free), median of %u runs; "
	       "libpagepool rows: %s contract, free by %s\n", o->runs,
	       pp_bulk_variant_name(variant),
	       o->free_put ? "put" : "release");
	printf("%-9s %-6s", "allocator", "api");
	for (unsigned int k = 0; k < o->nr_bulks; k++)
		printf(" %8u", o->bulks[k]);
	printf("\n");
	print_rows(res, nr, o, variant);
	/* The performance target, read off the table. */
	print_bulk64_ratios(res, nr, variant);
	print_single_ratios(res, nr);
}

/* The header's line about each child baseline: what runs, or why not. */
static void print_children(const struct bench *b, const struct options *o)
{
	for (int a = 0; a < NR_ALLOCATORS; a++) {
		const struct pb_helper *h = &b->helpers[a];
		const char *summary = pb_helper_info_get(h, "summary");
		const char *note = pb_helper_info_get(h, "note");

		if (b->running[a]) {
			printf("  %s baseline: %s (child %s)\n",
			       pb_allocator_names[a], summary ? summary : "?",
			       h->path);
			if (note)
				printf("    %s\n", note);
		} else if (!pb_is_built(a) && o->allocators_all) {
			printf("  %s baseline: not built, left out (%s)\n",
			       pb_allocator_names[a], pb_not_built_why(a));
		}
	}
}

/* What runs where, before the lines. */
void pb_print_header(const struct bench *b, const struct options *o,
		     const char *model, double tsc_ghz, long cpus)
{
	const char *why;
	enum pp_pcp_impl impl = buddy_pcp_impl(o, &why);
	double fwd, core_ghz;

	printf("pagebench %s (libpagepool %s): %s, %ld online CPUs%s\n",
	       PACKAGE_VERSION, pp_version(), model, cpus,
	       o->pin ? ", pinned to one" : "");
	if (tsc_ghz > 0)
		printf("  TSC %.3f GHz (against CLOCK_MONOTONIC)\n", tsc_ghz);
	else
		printf("  no TSC on this architecture: ticks n/a\n");
	if (!o->smoke && pb_store_forward(&fwd, &core_ghz))
		printf("  store-to-load forwarding: %.1f core cycles per "
		       "load-add-store round trip through one address (core "
		       "%.2f GHz)\n", fwd, core_ghz);
	printf("  buddy pcp lists: %s%s%s\n", pp_pcp_impl_name(impl),
	       why ? "; rseq unavailable: " : "", why ? why : "");
	printf("  buddy profile: %s\n", pp_profile_name(o->pool_env.profile));
	if (o->pool_env.profile == PP_PROFILE_KERNEL)
		printf("  buddy list checks: %s\n", o->pool_env.debug_list ?
		       "on (CONFIG_DEBUG_LIST's; PAGEPOOL_DEBUG_LIST=0: off)" :
		       "off (PAGEPOOL_DEBUG_LIST=0)");
	printf("  glibc baseline: aligned_alloc from %s\n", pb_glibc_from);
	if (pb_is_built(A_MALLOCX))
		printf("  jemalloc baseline: mallocx from %s, %ld "
		       "thread-cache slots for 4 KiB\n", pb_mallocx_from,
		       pp_jemalloc_tcache_slots());
	if (o->backend_plugin)
		printf("  plugin backend: %s\n", o->backend_plugin);
	print_children(b, o);
	printf("  %u run%s of ~%g ms per configuration%s%s; bulk rounds "
	       "free by %s\n\n", o->runs, o->runs == 1 ? "" : "s", o->run_ms,
	       o->interleave ? ", interleaved" : "",
	       o->smoke ? " (smoke: a few pages, numbers meaningless)" : "",
	       o->free_put ? "put" : "release");
	fflush(stdout);
}

/* --- --json ------------------------------------------------------------------- */

/* An info value of a child: a number if it is a plain integer. */
static void json_info(struct json *j, const char *key, const char *s)
{
	size_t n = strlen(s);
	uint64_t v;

	if (n && n < 16 && (s[0] != '0' || n == 1) && !num_parse_u64(s, &v))
		json_uint(j, key, v);
	else
		json_string(j, key, s);
}

/* "mempool": {...}, "tcmalloc": {...}: built or why not, what it said. */
static void json_children(struct json *j, const struct bench *b)
{
	json_object_begin(j, "children");
	for (int a = 0; a < NR_ALLOCATORS; a++) {
		const struct pb_helper *h = &b->helpers[a];

		if (!pb_is_child(a))
			continue;
		json_object_begin(j, pb_allocator_names[a]);
		json_string(j, "program", pb_children[a].program);
		json_bool(j, "built", pb_is_built(a));
		if (!pb_is_built(a))
			json_string(j, "not_built", pb_children[a].not_built);
		json_bool(j, "ran", b->running[a]);
		if (b->running[a])
			json_string(j, "path", h->path);
		for (unsigned int i = 0; b->running[a] && i < h->nr_info; i++)
			json_info(j, h->info_key[i], h->info_value[i]);
		json_object_end(j);
	}
	json_object_end(j);
}

static void json_config(struct json *j, const struct options *o,
			const struct bench *b)
{
	json_object_begin(j, "config");
	json_string(j, "pcp_impl", pp_pcp_impl_name(buddy_pcp_impl(o, NULL)));
	json_string(j, "profile", pp_profile_name(o->pool_env.profile));
	/* CONFIG_DEBUG_LIST's checks, which only the kernel profile runs. */
	json_bool(j, "debug_list", o->pool_env.profile == PP_PROFILE_KERNEL &&
		  o->pool_env.debug_list);
	json_uint(j, "runs", o->runs);
	json_number(j, "run_ms", o->run_ms);
	json_bool(j, "smoke", o->smoke);
	json_bool(j, "interleave", o->interleave);
	json_string(j, "free", o->free_put ? "put" : "release");
	/* The plugin rows' allocator (--backend=plugin:PATH), or null. */
	json_string(j, "plugin", o->backend_plugin);
	json_bool(j, "je_tcache", o->je_tcache);
	json_bool(j, "je_batch_alloc", o->je_batch);
	/* Without jemalloc (./configure --without-jemalloc): null, not -95. */
	if (pb_is_built(A_MALLOCX))
		json_int(j, "jemalloc_tcache_slots",
			 pp_jemalloc_tcache_slots());
	else
		json_null(j, "jemalloc_tcache_slots");
	json_string(j, "glibc_from", pb_glibc_from);
	json_string(j, "mallocx_from",
		    pb_is_built(A_MALLOCX) ? pb_mallocx_from : NULL);
	json_children(j, b);
	json_object_end(j);
}

static void json_result(struct json *j, const struct result *r,
			const struct options *o, double tsc_ghz)
{
	json_object_begin(j, NULL);
	json_string(j, "allocator", pb_allocator_names[r->allocator]);
	json_string(j, "api", pb_api_names[r->api]);
	json_uint(j, "bulk", r->bulk);
	json_string(j, "variant", r->variant >= 0 ?
		    pp_bulk_variant_name(r->variant) : NULL);
	json_uint(j, "pages_per_run", r->pages_per_run);
	json_double(j, "ns_per_page", r->median_ns, 4);
	json_double(j, "min_ns", r->min_ns, 4);
	json_double(j, "max_ns", r->max_ns, 4);
	json_double(j, "spread_pct", r->spread_pct, 2);
	if (tsc_ghz > 0)
		json_double(j, "tsc_per_page", r->median_ticks, 2);
	else
		json_null(j, "tsc_per_page");
	json_array_begin(j, "runs_ns");
	for (unsigned int k = 0; k < o->runs; k++)
		json_double(j, NULL, r->ns[k], 4);
	json_array_end(j);
	json_object_end(j);
}

/* "sweep": what named the result file and the settings it holds. */
static void json_sweep(struct json *j, const struct options *o)
{
	if (!json_object_or_null(j, "sweep", o->results != NULL))
		return;
	json_string(j, "name", o->name);
	json_string(j, "settings", o->settings);
	json_object_begin(j, "values");
	for (unsigned int i = 0; i < o->nr_named; i++)
		json_string(j, o->named[i].key, o->named[i].value);
	json_object_end(j);
	json_object_end(j);
}

void pb_write_json(FILE *out, const struct pb_doc *d)
{
	struct json j;
	struct results_origin origin = {
		.version = PACKAGE_VERSION, .libpagepool = pp_version(),
		.signal = pb_interrupted,
#ifdef PP_CONFIG_ASAN
		.asan = true,
#endif
	};

	json_init(&j, out);
	json_object_begin(&j, NULL);
	json_string(&j, "program", "pagebench");
	json_string(&j, "version", PACKAGE_VERSION);
	json_string(&j, "libpagepool", pp_version());
	origin.pcp_impl = pp_pcp_impl_name(buddy_pcp_impl(d->o, NULL));
	origin.tsc_ghz = d->tsc_ghz > 0 ? d->tsc_ghz : -1;
	results_json_origin(&j, &origin);
	json_sweep(&j, d->o);
	json_config(&j, d->o, d->b);
	json_array_begin(&j, "results");
	for (unsigned int i = 0; i < d->nr; i++)
		json_result(&j, &d->res[i], d->o, d->tsc_ghz);
	json_array_end(&j);
	json_object_end(&j);
	json_finish(&j);
}

void pb_print_json(const struct result *res, unsigned int nr,
		   const struct options *o, const struct bench *b,
		   const char *model, double tsc_ghz, long cpus)
{
	struct pb_doc d = { res, nr, o, b, model, tsc_ghz, cpus };

	pb_write_json(stdout, &d);
}

/* --- --output-format=csv -------------------------------------------------- */

void pb_print_csv(const struct result *res, unsigned int nr,
		  const struct options *o)
{
	/* The text line's fields, in its order; no field needs quoting. */
	printf("allocator,api,bulk,variant,free,runs,pages_per_run,"
	       "ns_per_page,min_ns,max_ns,spread_pct,tsc_per_page\n");
	for (unsigned int i = 0; i < nr; i++) {
		const struct result *r = &res[i];

		printf("%s,%s,%u,%s,%s,%u,%lu,%.3f,%.3f,%.3f,%.1f,",
		       pb_allocator_names[r->allocator], pb_api_names[r->api],
		       r->bulk, r->variant >= 0 ?
		       pp_bulk_variant_name(r->variant) : "",
		       r->variant >= 0 ? (o->free_put ? "put" : "release") : "",
		       o->runs, r->pages_per_run, r->median_ns, r->min_ns,
		       r->max_ns, r->spread_pct);
#ifdef PB_HAVE_TSC
		printf("%.1f\n", r->median_ticks);
#else
		printf("\n");
#endif
	}
}
