/* SPDX-License-Identifier: MIT */
/* Text and JSON reports (see report.h). */
#include <config.h>

#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pagepool/pagepool.h>

#include "json.h"
#include "page_pool/consumer.h"
#include "plot.h"
#include "report.h"
#include "result_schema.h"
#include "files.h"
#include "results.h"
#include "util.h"

static const double pcts[] = { 50, 90, 99, 99.9 };
/* Their names, the keys of "percentiles_us", which the text uses too. */
static const char *const pct_names[] = {
	RK(rpcsim_percentiles, p50), RK(rpcsim_percentiles, p90),
	RK(rpcsim_percentiles, p99), RK(rpcsim_percentiles, p99_9),
};

/* Everything one mode did over its runs, and how its runs spread. */
struct mode_summary {
	unsigned int runs;
	struct hist hist;
	struct hist refill[BY_REFILL_NR];
	struct svc_stats total;
	uint64_t events[PP_NR_VM_EVENTS];
	uint64_t completions;
	double elapsed_s;
	/* Over the runs' mean latencies, in us. */
	double avg_us, stddev_us, min_us, max_us, trimmed_us;
	struct ppool_result page_pool;	/* --consumer=page_pool */
};

static double ns_to_us(double ns)
{
	return ns / 1000.0;
}

/*
 * @n per @d (a call, a second, a refill), 0 when there is none of them:
 * what every ratio of the reports shows for a run that had nothing.
 */
static double ratio(double n, double d)
{
	return d > 0 ? n / d : 0;
}

/* Whether the calls were timed (page_pool --call-timing=off: not). */
static bool timed(const struct rpcsim_config *cfg)
{
	return cfg->consumer != RPCSIM_CONSUMER_PAGE_POOL || cfg->call_timing;
}

static double run_mean_us(const struct svc_result *res)
{
	return ns_to_us(hist_mean(&res->hist));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * Across runs: mean and sample stddev of the run means (the kunit
 * benchmark's "avg X uS, stddev Y uS"), and min-max(mean) with the mean
 * trimmed the way `stats --trim-outliers` trims: with three runs or more,
 * exactly one lowest and one highest are dropped; min and max are not.
 */
static void summary_build(struct mode_summary *ms, const struct svc_result *r,
			  unsigned int n)
{
	double *means = xcalloc(n, sizeof(*means)), sum = 0, sq = 0, tsum = 0;
	unsigned int first = 0, last = n;

	memset(ms, 0, sizeof(*ms));
	hist_init(&ms->hist);
	for (unsigned int k = 0; k < BY_REFILL_NR; k++)
		hist_init(&ms->refill[k]);
	ms->runs = n;
	for (unsigned int i = 0; i < n; i++) {
		hist_merge(&ms->hist, &r[i].hist);
		for (unsigned int k = 0; k < BY_REFILL_NR; k++)
			hist_merge(&ms->refill[k], &r[i].refill[k]);
		svc_stats_add(&ms->total, &r[i].total);
		for (unsigned int e = 0; e < PP_NR_VM_EVENTS; e++)
			ms->events[e] += r[i].events[e];
		ms->completions += r[i].completions;
		ms->elapsed_s += r[i].elapsed_s;
		if (r[i].page_pool)
			ppool_result_add(&ms->page_pool, r[i].page_pool);
		means[i] = run_mean_us(&r[i]);
		sum += means[i];
	}
	ms->avg_us = n ? sum / n : 0;
	for (unsigned int i = 0; i < n; i++)
		sq += (means[i] - ms->avg_us) * (means[i] - ms->avg_us);
	ms->stddev_us = n > 1 ? sqrt(sq / (n - 1)) : 0;
	qsort(means, n, sizeof(*means), cmp_double);
	ms->min_us = n ? means[0] : 0;
	ms->max_us = n ? means[n - 1] : 0;
	if (n >= 3) {
		first = 1;
		last = n - 1;
	}
	for (unsigned int i = first; i < last; i++)
		tsum += means[i];
	ms->trimmed_us = last > first ? tsum / (last - first) : 0;
	free(means);
}

static const char *build_name(const struct rpcsim_config *cfg)
{
	return cfg->asan ? "AddressSanitizer + UBSan" : "plain";
}

/* The nfsd consumer's lines of the configuration. */
static void config_nfsd(FILE *out, const struct rpcsim_config *cfg)
{
	char a[32], b[32];

	fprintf(out, "; retry wait %u us; %u run%s per mode\n",
		cfg->retry_wait_us, cfg->repeat, cfg->repeat > 1 ? "s" : "");
	fprintf(out, "  server:     %u threads, rq_pages %lu + 1 slots "
		"(max payload %s, sv_max_mesg %lu pages), completion %s",
		cfg->threads, cfg->pages,
		fmt_size(a, sizeof(a), cfg->max_payload),
		cfg->sv_max_mesg / PP_PAGE_SIZE,
		cfg->completion == RPCSIM_COMPLETION_THREAD ? "thread" :
		"inline");
	if (cfg->completion == RPCSIM_COMPLETION_THREAD)
		fprintf(out, " (queue depth %u)", cfg->queue_depth);
	fputc('\n', out);
	fprintf(out, "  workload:   NFSv3 over TCP, read:%u,write:%u of %s, "
		"seed %" PRIu64 "; page cache %s (%lu pages)",
		cfg->read_weight, cfg->write_weight,
		fmt_size(a, sizeof(a), cfg->io_size), cfg->seed,
		fmt_size(b, sizeof(b), cfg->file_size), cfg->file_pages);
	if (cfg->tcp_read)
		fprintf(out, "; %s per socket read",
			fmt_size(a, sizeof(a), cfg->tcp_read));
	fputc('\n', out);
}

/* The page_pool consumer's lines of the configuration. */
static void config_page_pool(FILE *out, const struct rpcsim_config *cfg)
{
	char a[32], b[32], c[32];

	fprintf(out, "; GFP_ATOMIC, no retry (a failed refill drops the "
		"packet); %u run%s per mode\n", cfg->repeat,
		cfg->repeat > 1 ? "s" : "");
	fprintf(out, "  consumer:   page_pool: %u RX queue%s, a page_pool "
		"each (cache %d, refill %d, ring %u), one stack thread "
		"(queue depth %u packets)%s\n", cfg->threads,
		cfg->threads > 1 ? "s" : "",
		PAGE_POOL_CACHE_SIZE, PAGE_POOL_CACHE_REFILL, cfg->ring_size,
		cfg->queue_depth, cfg->call_timing ? "" :
		"; refills not timed (--call-timing=off)");
	if (cfg->rate)
		snprintf(b, sizeof(b), "%s packets/s per queue",
			 fmt_thousands(a, sizeof(a), cfg->rate));
	else
		snprintf(b, sizeof(b), "as fast as the pool allows");
	/* released only when in the mix (the default has none) */
	if (cfg->free_released)
		snprintf(c, sizeof(c), ",released:%u", cfg->free_released);
	else
		c[0] = '\0';
	fprintf(out, "  packets:    %" PRIu64 " bytes (%lu page%s each), %s; "
		"freed direct:%u,ring:%u,held:%u%s, seed %" PRIu64 "\n",
		cfg->packet_size, cfg->packet_pages,
		cfg->packet_pages > 1 ? "s" : "", b, cfg->free_direct,
		cfg->free_ring, cfg->free_held, c, cfg->seed);
}

void report_config(FILE *out, const struct report *rep)
{
	const struct rpcsim_config *cfg = rep->cfg;
	char a[32], b[32], c[32];
	bool first = true;

	fprintf(out, "rpcsim %s (libpagepool %s), %s build, allocator "
		"debug checks %s\n", PACKAGE_VERSION, pp_version(),
		build_name(cfg), cfg->debug_checks ? "on" : "off");
	fprintf(out, "  alloc:      ");
	for (int m = 0; m < RPCSIM_NR_MODES; m++) {
		if (!cfg->mode[m])
			continue;
		fprintf(out, "%s%s", first ? "" : ", ", rpcsim_mode_name(m));
		first = false;
	}
	if (cfg->consumer == RPCSIM_CONSUMER_PAGE_POOL)
		config_page_pool(out, cfg);
	else
		config_nfsd(out, cfg);
	fprintf(out, "  length:     ");
	if (cfg->duration_s > 0)
		fprintf(out, "%g s", cfg->duration_s);
	if (cfg->duration_s > 0 && cfg->requests)
		fprintf(out, " or ");
	if (cfg->requests)
		fprintf(out, "%s %s",
			fmt_thousands(a, sizeof(a), cfg->requests),
			cfg->consumer == RPCSIM_CONSUMER_PAGE_POOL ? "packets" :
			"requests");
	fprintf(out, " per run%s", cfg->duration_s > 0 && cfg->requests ?
		", whichever comes first" : "");
	if (cfg->warmup)
		fprintf(out, ", after %" PRIu64 " untimed requests per thread",
			cfg->warmup);
	if (timed(cfg))
		fprintf(out, "; every call timed (clock_gettime ~%" PRIu64
			" ns)\n", rep->clock_ns);
	else
		fprintf(out, "; no call timed (--call-timing=off; "
			"clock_gettime ~%" PRIu64 " ns)\n", rep->clock_ns);
	fprintf(out, "  pool:       %s (%s pages; at least %s needed), pcp "
		"batch %u high %u\n", fmt_size(a, sizeof(a), cfg->pool_size),
		fmt_thousands(b, sizeof(b), cfg->pool_pages),
		fmt_thousands(c, sizeof(c), cfg->min_pool_pages),
		cfg->pcp_batch, cfg->pcp_high);
	if (cfg->backend == PP_BACKEND_JEMALLOC) {
		fprintf(out, "  allocator:  jemalloc arena over the pool (pcp "
			"lists unused); ");
		if (cfg->je_tcache)
			fprintf(out, "thread cache per CPU, %ld slots for "
				"4 KiB", cfg->je_tcache_slots);
		else
			fprintf(out, "no thread cache");
		fprintf(out, "; bulk through %s; %s pages of the minimum are "
			"for jemalloc\n", cfg->je_batch ? "batch_alloc" :
			"one mallocx() per page",
			fmt_thousands(a, sizeof(a), cfg->backend_pages));
	} else if (cfg->backend == PP_BACKEND_PLUGIN) {
		fprintf(out, "  allocator:  backend plugin %s over the pool's "
			"zone (pcp lists unused)\n", cfg->backend_plugin);
	} else {
		fprintf(out, "  allocator:  buddy (zone lists + pcp lists)\n");
	}
	if (cfg->backend == PP_BACKEND_BUDDY)
		fprintf(out, "  pcp lists:  %s%s%s%s\n",
			pp_pcp_impl_name(cfg->pcp_impl),
			cfg->pcp_impl == PP_PCP_RSEQ ?
			" (restartable sequences: a preempted thread holds no "
			"list)" : " (spin trylock per list)",
			cfg->pcp_why ? "; rseq unavailable: " : "",
			cfg->pcp_why ? cfg->pcp_why : "");
	if (cfg->backend == PP_BACKEND_BUDDY)
		fprintf(out, "  profile:    %s\n", cfg->profile ==
			PP_PROFILE_KERNEL ? "kernel (the steps of 5.13's page "
			"allocator; --profile=lean: the contracts' work only)" :
			"lean (the contracts' work only; --profile=kernel: "
			"the steps of 5.13's page allocator)");
	if (cfg->backend == PP_BACKEND_BUDDY &&
	    cfg->profile == PP_PROFILE_KERNEL)
		fprintf(out, "  list debug: %s\n", cfg->pool_env.debug_list ?
			"on (CONFIG_DEBUG_LIST's; PAGEPOOL_DEBUG_LIST=0: off)" :
			"off (PAGEPOOL_DEBUG_LIST=0)");
	fprintf(out, "  bulk API:   %s contract\n",
		pp_bulk_variant_name(cfg->bulk_variant));
	fputc('\n', out);
}

/* "%-12s%7.3f": the seed's alignment; wider numbers keep one space. */
static void seed_line(FILE *out, enum rpcsim_mode mode, double us,
		      uint64_t calls, int width)
{
	char label[16], n[32];

	snprintf(label, sizeof(label), "%s:", rpcsim_mode_label(mode));
	fprintf(out, "%-12s%*.3f us per call over %s calls\n", label, width,
		us, fmt_thousands(n, sizeof(n), calls));
}

/* The seed line of calls that were not timed (--call-timing=off). */
static void seed_line_untimed(FILE *out, enum rpcsim_mode mode,
			      uint64_t calls)
{
	char label[16], n[32];

	snprintf(label, sizeof(label), "%s:", rpcsim_mode_label(mode));
	fprintf(out, "%-12s %s calls, not timed (--call-timing=off)\n", label,
		fmt_thousands(n, sizeof(n), calls));
}

static int seed_width(double us)
{
	char buf[64];
	int len = snprintf(buf, sizeof(buf), "%.3f", us) + 1;

	return len > 7 ? len : 7;
}

void report_run(FILE *out, const struct report *rep,
		const struct svc_result *res)
{
	char calls[32], rate[32];
	double us = run_mean_us(res);

	if (!timed(rep->cfg)) {
		fprintf(out, "  [run %u/%u] %s: %s calls, not timed; %s "
			"packets/s\n", res->run, rep->cfg->repeat,
			rpcsim_mode_label(res->mode),
			fmt_thousands(calls, sizeof(calls), res->total.calls),
			fmt_thousands(rate, sizeof(rate),
				      (uint64_t)ratio((double)res->total.requests,
						      res->elapsed_s)));
		return;
	}
	fprintf(out, "  [run %u/%u] %s: %.3f us per call over %s calls, "
		"stddev %.3f us, p99 %.3f us, %s %s/s\n", res->run,
		rep->cfg->repeat, rpcsim_mode_label(res->mode), us,
		fmt_thousands(calls, sizeof(calls), res->total.calls),
		ns_to_us(hist_stddev(&res->hist)),
		ns_to_us((double)hist_percentile(&res->hist, 99)),
		fmt_thousands(rate, sizeof(rate),
			      (uint64_t)ratio((double)res->total.requests,
					      res->elapsed_s)),
		rep->cfg->consumer == RPCSIM_CONSUMER_PAGE_POOL ? "packets" :
		"requests");
}

/* "name value" pairs of the listed counters, as /proc/vmstat spells them. */
static void print_events(FILE *out, const char *title, const uint64_t *ev,
			 const enum pp_vm_event *list, unsigned int n)
{
	fprintf(out, "  %-11s", title);
	for (unsigned int i = 0; i < n; i++)
		fprintf(out, "%s%s %" PRIu64, i ? ", " : "",
			pp_vm_event_name(list[i]), ev[list[i]]);
	fputc('\n', out);
}

/*
 * Several nodes: a line per node, its numa_* counters summed over the
 * mode's runs (each run has a pool of its own, counted from its creation,
 * warm-up included), as /proc/vmstat's.
 */
static void print_nodes(FILE *out, const struct report *rep,
			enum rpcsim_mode mode)
{
	for (unsigned int n = 0; n < rep->cfg->nodes; n++) {
		uint64_t sum[PP_NR_NUMA_STATS] = { 0 };
		char title[24];

		for (unsigned int r = 0; r < rep->runs_done[mode]; r++)
			for (unsigned int i = 0; i < PP_NR_NUMA_STATS; i++)
				sum[i] += rep->results[mode][r].nodes_exit[n]
						  .numa[i];
		snprintf(title, sizeof(title), "node %u:", n);
		fprintf(out, "  %-11s", title);
		for (unsigned int i = 0; i < PP_NR_NUMA_STATS; i++)
			fprintf(out, "%s%s %" PRIu64, i ? ", " : "",
				pp_numa_stat_name(i), sum[i]);
		fputc('\n', out);
	}
}

/* The libpagepool counters of a mode's block, as /proc/vmstat names them. */
static void mode_events(FILE *out, const struct rpcsim_config *cfg,
			const uint64_t *ev)
{
	static const enum pp_vm_event calls_ev[] = {
		PP_PGALLOC, PP_PGFREE, PP_ALLOC_SINGLE_CALLS,
		PP_ALLOC_BULK_LIST_CALLS, PP_ALLOC_BULK_ARRAY_CALLS,
	};
	static const enum pp_vm_event pcp_ev[] = {
		PP_PCP_REFILL, PP_PCP_REFILL_PAGES, PP_PCP_DRAIN,
		PP_PCP_DRAIN_PAGES, PP_ZONE_LOCK, PP_PCP_TRYLOCK_FAIL,
	};
	static const enum pp_vm_event fallback_ev[] = {
		PP_BULK_FALLBACK_ONE_PAGE, PP_BULK_FALLBACK_WATERMARK,
		PP_BULK_FALLBACK_TRYLOCK, PP_BULK_FALLBACK_EMPTY,
		PP_BULK_PARTIAL,
	};
	static const enum pp_vm_event slow_ev[] = {
		PP_ALLOC_SLOWPATH, PP_DRAIN_ALL, PP_ALLOC_FAIL,
	};
	static const enum pp_vm_event backend_ev[] = {
		PP_BACKEND_GROW, PP_BACKEND_GROW_PAGES, PP_BACKEND_SHRINK,
		PP_BACKEND_SHRINK_PAGES,
	};
	static const enum pp_vm_event restart_ev[] = {
		PP_PCP_RESTART_ALLOC, PP_PCP_RESTART_FREE,
		PP_PCP_RESTART_BULK_ALLOC, PP_PCP_RESTART_BULK_FREE,
		PP_PCP_RESTART_DRAIN, PP_PCP_RESTART_COUNT,
	};

	print_events(out, "pool:", ev, calls_ev, ARRAY_SIZE(calls_ev));
	print_events(out, "pcp:", ev, pcp_ev, ARRAY_SIZE(pcp_ev));
	print_events(out, "fallbacks:", ev, fallback_ev,
		     ARRAY_SIZE(fallback_ev));
	print_events(out, "slow path:", ev, slow_ev, ARRAY_SIZE(slow_ev));
	if (cfg->backend != PP_BACKEND_BUDDY)
		print_events(out, "backend:", ev, backend_ev,
			     ARRAY_SIZE(backend_ev));
	if (cfg->pcp_impl == PP_PCP_RSEQ)
		print_events(out, "rseq:", ev, restart_ev,
			     ARRAY_SIZE(restart_ev));
}

static void mode_latency(FILE *out, const struct hist *h)
{
	fprintf(out, "  latency:   stddev %.3f us; ", ns_to_us(hist_stddev(h)));
	for (unsigned int i = 0; i < ARRAY_SIZE(pcts); i++)
		fprintf(out, "%s %.3f, ", pct_names[i],
			ns_to_us((double)hist_percentile(h, pcts[i])));
	fprintf(out, "max %.3f us\n", ns_to_us((double)h->max));
}

static void mode_runs(FILE *out, const struct mode_summary *ms)
{
	if (ms->runs > 1)
		fprintf(out, "  runs:      avg %.3f us, stddev %.3f us over %u "
			"runs; min-max(mean) %.3f-%.3f(%.3f) us%s\n",
			ms->avg_us, ms->stddev_us, ms->runs, ms->min_us,
			ms->max_us, ms->trimmed_us,
			ms->runs >= 3 ? ", highest and lowest run trimmed" :
			"");
}

/* "mean_us=... max_us=...": the latency keys of a SUMMARY line. */
static void summary_latency(FILE *out, const struct hist *h)
{
	fprintf(out, " mean_us=%.3f stddev_us=%.3f p50_us=%.3f p90_us=%.3f "
		"p99_us=%.3f p99.9_us=%.3f max_us=%.3f",
		ns_to_us(hist_mean(h)), ns_to_us(hist_stddev(h)),
		ns_to_us((double)hist_percentile(h, 50)),
		ns_to_us((double)hist_percentile(h, 90)),
		ns_to_us((double)hist_percentile(h, 99)),
		ns_to_us((double)hist_percentile(h, 99.9)),
		ns_to_us((double)h->max));
}

/* The nfsd consumer's block of one mode, after its per-call line. */
static void mode_nfsd(FILE *out, const struct report *rep,
		      const struct mode_summary *ms, enum rpcsim_mode mode)
{
	const struct rpcsim_config *cfg = rep->cfg;
	const struct hist *h = &ms->hist;
	double ppc, acpc, rps;
	char a[32], b[32];

	ppc = ratio((double)ms->total.pages, (double)ms->total.calls);
	acpc = ratio((double)ms->total.alloc_calls, (double)ms->total.calls);
	rps = ratio((double)ms->total.requests, ms->elapsed_s);
	mode_latency(out, h);
	by_refill_text(out, &ms->refill[BY_REFILL_ONE_PAGE],
		       &ms->refill[BY_REFILL_MORE_PAGES]);
	fprintf(out, "  refill:    %.2f pages per call (%.2f allocator "
		"calls, %s pages); %s requests/s (%" PRIu64 " READ, %" PRIu64
		" WRITE", ppc, acpc,
		fmt_thousands(a, sizeof(a), ms->total.pages),
		fmt_thousands(b, sizeof(b), (uint64_t)rps), ms->total.reads,
		ms->total.writes);
	if (cfg->tcp_read)
		fprintf(out, "; %s short reads",
			fmt_thousands(a, sizeof(a), ms->total.short_reads));
	fprintf(out, ") in %.3f s\n", ms->elapsed_s);
	fprintf(out, "  retries:   %" PRIu64 " no-progress calls, %" PRIu64
		" waits (%.3f s waiting)\n", ms->total.no_progress,
		ms->total.waits, (double)ms->total.wait_ns / 1e9);
	mode_events(out, cfg, ms->events);
	if (cfg->nodes > 1)
		print_nodes(out, rep, mode);
	mode_runs(out, ms);
	fprintf(out, "SUMMARY alloc=%s backend=%s bulk_variant=%s profile=%s "
		"runs=%u threads=%u calls=%" PRIu64, rpcsim_mode_name(mode),
		pp_backend_name(cfg->backend),
		pp_bulk_variant_name(cfg->bulk_variant),
		pp_profile_name(cfg->profile), ms->runs, cfg->threads,
		ms->total.calls);
	summary_latency(out, h);
	fprintf(out, " pages_per_call=%.2f alloc_calls_per_call=%.2f "
		"requests_per_s=%.0f no_progress=%" PRIu64 " waits=%" PRIu64
		" requests=%" PRIu64 " reads=%" PRIu64 " writes=%" PRIu64
		" digest=0x%016" PRIx64 "\n\n", ppc, acpc, rps,
		ms->total.no_progress, ms->total.waits, ms->total.requests,
		ms->total.reads, ms->total.writes, ms->total.digest);
}

/*
 * A refill's cost per page it allocated: what compares a bulk refill of
 * 64 pages with the single-page one of before 5.13.
 */
static double ns_per_page(const struct mode_summary *ms)
{
	return ratio((double)ms->hist.sum,
		     (double)ms->page_pool.alloc.slow_pages);
}

/* The page_pool figures of a mode's block: refills, recycling, returns. */
static void mode_page_pool_lines(FILE *out, const struct mode_summary *ms,
				 bool timed_calls)
{
	const struct ppool_result *pr = &ms->page_pool;
	const struct page_pool_alloc_stats *al = &pr->alloc;
	const struct page_pool_recycle_stats *d = &pr->recycle_direct;
	const struct page_pool_recycle_stats *k = &pr->recycle_stack;
	double pps = ratio((double)pr->packets, ms->elapsed_s);
	char a[32], b[32], c[32], ns[48] = "";

	if (timed_calls)
		snprintf(ns, sizeof(ns), ", %.1f ns per page", ns_per_page(ms));
	fprintf(out, "  refill:    %.2f pages allocated per refill%s (%s "
		"refills, %s pages, %" PRIu64 " got none); %s packets/s (%"
		PRIu64 " dropped) in %.3f s\n",
		ratio((double)al->slow_pages, (double)al->slow),
		ns, fmt_thousands(a, sizeof(a), al->slow),
		fmt_thousands(b, sizeof(b), al->slow_pages), al->slow_fail,
		fmt_thousands(c, sizeof(c), (uint64_t)llround(pps)),
		pr->dropped, ms->elapsed_s);
	fprintf(out, "  recycle:   hit rate %.1f %% of %s pages handed out: "
		"%" PRIu64 " from the cache, %" PRIu64 " from the ring, %"
		PRIu64 " allocated\n", 100.0 * ppool_hit_rate(pr),
		fmt_thousands(a, sizeof(a), al->handed_out), al->from_cache,
		al->from_ring, al->from_alloc);
	fprintf(out, "  returns:   NAPI: cached %" PRIu64 ", cache_full %"
		PRIu64 ", ring %" PRIu64 ", ring_full %" PRIu64
		", released_refcnt %" PRIu64 "; stack: ring %" PRIu64
		", ring_full %" PRIu64 "\n", d->cached, d->cache_full,
		d->ring, d->ring_full, d->released_refcnt, k->ring,
		k->ring_full);
	fprintf(out, "  page_pool: hold %" PRIu64 ", release %" PRIu64
		", in flight at destroy %" PRIu64 "; ring refills %" PRIu64
		" (%" PRIu64 " pages), ring empty %" PRIu64 "\n", pr->hold,
		pr->release, pr->inflight, al->refill, al->refill_pages,
		al->empty);
	fprintf(out, "  packets:   %" PRIu64 " freed direct, %" PRIu64
		" by the stack thread, %" PRIu64 " held by a clone (%" PRIu64
		" clone references dropped)", pr->freed_direct,
		pr->freed_ring, pr->freed_held, pr->clone_puts);
	if (pr->freed_released)
		fprintf(out, ", %" PRIu64 " released to an skb", pr->freed_released);
	fprintf(out, "; %" PRIu64 " RX waits (%.3f s)\n", ms->total.waits,
		(double)ms->total.wait_ns / 1e9);
}

/* The page_pool consumer's block of one mode, after its per-call line. */
static void mode_page_pool(FILE *out, const struct report *rep,
			   const struct mode_summary *ms, enum rpcsim_mode mode)
{
	const struct rpcsim_config *cfg = rep->cfg;
	const struct ppool_result *pr = &ms->page_pool;
	const struct page_pool_alloc_stats *al = &pr->alloc;
	bool t = timed(cfg);

	if (t)
		mode_latency(out, &ms->hist);
	else
		fprintf(out, "  latency:   not timed (--call-timing=off)\n");
	mode_page_pool_lines(out, ms, t);
	mode_events(out, cfg, ms->events);
	if (cfg->nodes > 1)
		print_nodes(out, rep, mode);
	if (t)
		mode_runs(out, ms);
	fprintf(out, "SUMMARY consumer=page_pool alloc=%s backend=%s "
		"bulk_variant=%s profile=%s runs=%u rx_queues=%u calls=%" PRIu64,
		rpcsim_mode_name(mode), pp_backend_name(cfg->backend),
		pp_bulk_variant_name(cfg->bulk_variant),
		pp_profile_name(cfg->profile), ms->runs, cfg->threads,
		al->slow);
	/* Untimed: no latency keys, and call_timing=off says why. */
	if (t) {
		summary_latency(out, &ms->hist);
		fprintf(out, " pages_per_refill=%.2f ns_per_page=%.1f",
			ratio((double)al->slow_pages, (double)al->slow),
			ns_per_page(ms));
	} else {
		fprintf(out, " call_timing=off pages_per_refill=%.2f",
			ratio((double)al->slow_pages, (double)al->slow));
	}
	fprintf(out, " hit_rate=%.4f "
		"handed_out=%" PRIu64 " from_cache=%" PRIu64 " from_ring=%"
		PRIu64
		" allocated=%" PRIu64 " packets=%" PRIu64 " dropped=%" PRIu64
		" packets_per_s=%.0f waits=%" PRIu64 " inflight=%" PRIu64
		"\n\n", ppool_hit_rate(pr), al->handed_out,
		al->from_cache, al->from_ring, al->from_alloc, pr->packets,
		pr->dropped,
		ratio((double)pr->packets, ms->elapsed_s), ms->total.waits, pr->inflight);
}

void report_mode(FILE *out, const struct report *rep, enum rpcsim_mode mode)
{
	const struct rpcsim_config *cfg = rep->cfg;
	struct mode_summary ms;
	double mean;

	summary_build(&ms, rep->results[mode], rep->runs_done[mode]);
	mean = ns_to_us(hist_mean(&ms.hist));
	if (timed(cfg))
		seed_line(out, mode, mean, ms.total.calls, seed_width(mean));
	else
		seed_line_untimed(out, mode, ms.total.calls);
	if (cfg->quiet)
		return;
	if (cfg->consumer == RPCSIM_CONSUMER_PAGE_POOL)
		mode_page_pool(out, rep, &ms, mode);
	else
		mode_nfsd(out, rep, &ms, mode);
}

/*
 * page_pool: the packet rate of each mode over its runs (packets over
 * their time), and its change against the single-page mode's, as the
 * kernel's XDP measurement of the bulk refill was reported (+4.5 % list,
 * +12.7 % array).
 */
static void table_packets(FILE *out, const struct report *rep)
{
	double pps[RPCSIM_NR_MODES] = { 0 };
	bool first = true;

	for (int m = 0; m < RPCSIM_NR_MODES; m++)
		if (rep->runs_done[m])
			pps[m] = report_packets_per_s(rep, m);
	for (int m = 0; m < RPCSIM_NR_MODES; m++) {
		if (!rep->runs_done[m])
			continue;
		fprintf(out, "%s%s %.0f", first ? "packets/s: " : ", ",
			rpcsim_mode_name(m), pps[m]);
		if (m != RPCSIM_SINGLE && rep->runs_done[RPCSIM_SINGLE]
		    && pps[RPCSIM_SINGLE] > 0)
			fprintf(out, " (%+.1f %%)", 100.0 * (pps[m] /
				pps[RPCSIM_SINGLE] - 1));
		first = false;
	}
	if (!first)
		fputc('\n', out);
}

/*
 * The seed's table, last: one line per mode run, pooled over its runs,
 * preceded by the ratios of the means (slower mode / faster-listed mode).
 */
void report_table(FILE *out, const struct report *rep)
{
	double us[RPCSIM_NR_MODES] = { 0 };
	uint64_t calls[RPCSIM_NR_MODES] = { 0 };
	bool first = true;
	int width = 7;

	for (int m = 0; m < RPCSIM_NR_MODES; m++) {
		struct hist h;

		if (!rep->runs_done[m])
			continue;
		hist_init(&h);
		for (unsigned int r = 0; r < rep->runs_done[m]; r++)
			hist_merge(&h, &rep->results[m][r].hist);
		us[m] = ns_to_us(hist_mean(&h));
		calls[m] = h.count;
		/* untimed: us[] stay 0 (no ratios), the calls are counted */
		if (!timed(rep->cfg))
			for (unsigned int r = 0; r < rep->runs_done[m]; r++)
				calls[m] += rep->results[m][r].total.calls;
		if (seed_width(us[m]) > width)
			width = seed_width(us[m]);
	}
	for (int m = 0; m < RPCSIM_NR_MODES; m++) {
		for (int n = m + 1; n < RPCSIM_NR_MODES; n++) {
			if (!rep->runs_done[m] || !rep->runs_done[n] ||
			    us[n] <= 0)
				continue;
			fprintf(out, "%s%s/%s %.2fx", first ? "ratios: " : ", ",
				rpcsim_mode_name(m), rpcsim_mode_name(n),
				us[m] / us[n]);
			first = false;
		}
	}
	if (!first)
		fputc('\n', out);
	if (rep->cfg->consumer == RPCSIM_CONSUMER_PAGE_POOL)
		table_packets(out, rep);
	for (int m = 0; m < RPCSIM_NR_MODES; m++) {
		if (!rep->runs_done[m])
			continue;
		if (timed(rep->cfg))
			seed_line(out, m, us[m], calls[m], width);
		else
			seed_line_untimed(out, m, calls[m]);
	}
}

/* --- JSON --------------------------------------------------------------- */

static void json_percentiles(struct json *j, const struct hist *h)
{
	json_object_begin(j, RK(rpcsim_figures, percentiles_us));
	for (unsigned int i = 0; i < ARRAY_SIZE(pcts); i++)
		json_number(j, pct_names[i],
			    ns_to_us((double)hist_percentile(h, pcts[i])));
	json_number(j, RK(rpcsim_percentiles, p99_99),
		    ns_to_us((double)hist_percentile(h, 99.99)));
	json_object_end(j);
}

/*
 * json_latency()'s members for @calls calls that were not timed
 * (--call-timing=off): the count, null figures, no histogram.
 */
static void json_untimed(struct json *j, uint64_t calls)
{
	json_uint(j, RK(rpcsim_figures, calls), calls);
	json_null(j, RK(rpcsim_figures, mean_us));
	json_null(j, RK(rpcsim_figures, stddev_us));
	json_null(j, RK(rpcsim_figures, min_us));
	json_null(j, RK(rpcsim_figures, max_us));
	json_object_begin(j, RK(rpcsim_figures, percentiles_us));
	for (unsigned int i = 0; i < ARRAY_SIZE(pcts); i++)
		json_null(j, pct_names[i]);
	json_null(j, RK(rpcsim_percentiles, p99_99));
	json_object_end(j);
}

static void json_latency(struct json *j, const struct hist *h)
{
	json_uint(j, RK(rpcsim_figures, calls), h->count);
	json_number(j, RK(rpcsim_figures, mean_us), ns_to_us(hist_mean(h)));
	json_number(j, RK(rpcsim_figures, stddev_us), ns_to_us(hist_stddev(h)));
	json_number(j, RK(rpcsim_figures, min_us),
		    ns_to_us(h->count ? (double)h->min : 0));
	json_number(j, RK(rpcsim_figures, max_us), ns_to_us((double)h->max));
	json_percentiles(j, h);
	hist_json(j, RK(rpcsim_figures, histogram), h);
}

static void json_stats(struct json *j, const struct svc_stats *s,
		       double elapsed_s)
{
	char digest[24];

	json_uint(j, RK(rpcsim_figures, pages), s->pages);
	json_number(j, RK(rpcsim_figures, pages_per_call),
		    ratio((double)s->pages, (double)s->calls));
	RESULT_RPCSIM_REQUESTS(RESULT_JSON_FIELD)
	json_number(j, RK(rpcsim_figures, requests_per_s),
		    ratio((double)s->requests, elapsed_s));
	json_uint(j, RK(rpcsim_figures, alloc_calls), s->alloc_calls);
	json_number(j, RK(rpcsim_figures, alloc_calls_per_call),
		    ratio((double)s->alloc_calls, (double)s->calls));
	json_uint(j, RK(rpcsim_figures, no_progress), s->no_progress);
	json_uint(j, RK(rpcsim_figures, waits), s->waits);
	json_number(j, RK(rpcsim_figures, wait_s), (double)s->wait_ns / 1e9);
	snprintf(digest, sizeof(digest), "0x%016" PRIx64, s->digest);
	json_string(j, RK(rpcsim_figures, digest), digest);
}

static void json_events(struct json *j, const char *key, const uint64_t *ev)
{
	json_object_begin(j, key);
	for (unsigned int e = 0; e < PP_NR_VM_EVENTS; e++)
		json_uint(j, pp_vm_event_name(e), ev[e]);
	json_object_end(j);
}

static void json_recycle(struct json *j, const char *key,
			 const struct page_pool_recycle_stats *s)
{
	json_object_begin(j, key);
	RESULT_RPCSIM_RECYCLE(RESULT_JSON_FIELD)
	json_object_end(j);
}

static void json_alloc_stats(struct json *j,
			     const struct page_pool_alloc_stats *s)
{
	json_object_begin(j, RK(rpcsim_page_pool, alloc_stats));
	RESULT_RPCSIM_ALLOC_STATS(RESULT_JSON_FIELD)
	json_object_end(j);
}

/* --consumer=page_pool: what the page_pools did (names as the kernel's). */
static void json_page_pool(struct json *j, const struct ppool_result *pr,
			   const struct hist *h, bool timed_calls,
			   double elapsed_s)
{
	const struct page_pool_alloc_stats *al = &pr->alloc;

	json_object_begin(j, RK(rpcsim_figures, page_pool));
	json_uint(j, RK(rpcsim_page_pool, refills), al->slow);
	json_uint(j, RK(rpcsim_page_pool, refill_pages), al->slow_pages);
	json_number(j, RK(rpcsim_page_pool, pages_per_refill),
		    ratio((double)al->slow_pages, (double)al->slow));
	if (timed_calls)
		json_number(j, RK(rpcsim_page_pool, ns_per_page),
			    ratio((double)h->sum, (double)al->slow_pages));
	else
		json_null(j, RK(rpcsim_page_pool, ns_per_page));
	json_uint(j, RK(rpcsim_page_pool, refills_empty), al->slow_fail);
	json_number(j, RK(rpcsim_page_pool, hit_rate), ppool_hit_rate(pr));
	RESULT_JSON_FIELDS(RESULT_RPCSIM_PAGE_POOL_PAGES,
			   struct page_pool_alloc_stats, al);
	json_alloc_stats(j, al);
	json_recycle(j, RK(rpcsim_page_pool, recycle_napi),
		     &pr->recycle_direct);
	json_recycle(j, RK(rpcsim_page_pool, recycle_stack),
		     &pr->recycle_stack);
	RESULT_JSON_FIELDS(RESULT_RPCSIM_PAGE_POOL_PACKETS,
			   struct ppool_result, pr);
	json_number(j, RK(rpcsim_page_pool, packets_per_s),
		    ratio((double)pr->packets, elapsed_s));
	RESULT_JSON_FIELDS(RESULT_RPCSIM_PAGE_POOL_FREED,
			   struct ppool_result, pr);
	json_object_end(j);
}

static void json_run(struct json *j, const struct rpcsim_config *cfg,
		     const struct svc_result *r)
{
	const struct pp_vmstat *st = &r->exit;

	json_object_begin(j, NULL);
	json_uint(j, RK(rpcsim_run, run), r->run);
	json_number(j, RK(rpcsim_run, elapsed_s), r->elapsed_s);
	if (timed(cfg))
		json_latency(j, &r->hist);
	else
		json_untimed(j, r->total.calls);
	json_stats(j, &r->total, r->elapsed_s);
	json_uint(j, RK(rpcsim_run, completions), r->completions);
	json_array_begin(j, RK(rpcsim_run, threads));
	for (unsigned int t = 0; t < cfg->threads; t++) {
		const struct svc_stats *s = &r->threads[t];

		json_object_begin(j, NULL);
		RESULT_RPCSIM_THREAD(RESULT_JSON_FIELD)
		json_object_end(j);
	}
	json_array_end(j);
	json_events(j, RK(rpcsim_run, counters), r->events);
	json_object_begin(j, RK(rpcsim_run, pool_at_exit));
	json_uint(j, RK(rpcsim_pool_at_exit, nr_pages), st->nr_pages);
	json_uint(j, RK(rpcsim_pool_at_exit, nr_free), st->nr_free);
	json_uint(j, RK(rpcsim_pool_at_exit, nr_pcp), st->nr_pcp);
	json_uint(j, RK(rpcsim_pool_at_exit, nr_backend), st->nr_backend);
	json_uint(j, RK(rpcsim_pool_at_exit, pgalloc), st->events[PP_PGALLOC]);
	json_uint(j, RK(rpcsim_pool_at_exit, pgfree), st->events[PP_PGFREE]);
	json_uint(j, RK(rpcsim_pool_at_exit, leaked), st->nr_pages -
		  st->nr_free - st->nr_pcp - st->nr_backend);
	json_bool(j, RK(rpcsim_pool_at_exit, counters_consistent),
		  r->counters_consistent);
	json_object_end(j);
	json_object_begin(j, RK(rpcsim_run, accounting));
	json_uint(j, RK(rpcsim_accounting, pages_allocated), r->acct.allocated);
	json_uint(j, RK(rpcsim_accounting, pages_released), r->acct.released);
	json_uint(j, RK(rpcsim_accounting, cache_gets), r->acct.cache_gets);
	json_uint(j, RK(rpcsim_accounting, cache_puts), r->acct.cache_puts);
	json_object_end(j);
	if (r->page_pool)
		json_page_pool(j, r->page_pool, &r->hist, timed(cfg),
			       r->elapsed_s);
	else
		by_refill_json(j, RK(rpcsim_figures, by_refill),
			       &r->refill[BY_REFILL_ONE_PAGE],
			       &r->refill[BY_REFILL_MORE_PAGES]);
	if (cfg->interval_s > 0)
		timeline_json(j, RK(rpcsim_run, intervals), &r->tl);
	json_object_end(j);
}

static void json_config_page_pool(struct json *j,
				  const struct rpcsim_config *cfg)
{
	json_string(j, RK(rpcsim_config, consumer),
		    rpcsim_consumer_name(cfg->consumer));
	json_object_begin(j, RK(rpcsim_config, page_pool));
	json_uint(j, RK(rpcsim_page_pool_config, rx_queues), cfg->threads);
	json_uint(j, RK(rpcsim_page_pool_config, cache_size),
		  PAGE_POOL_CACHE_SIZE);
	json_uint(j, RK(rpcsim_page_pool_config, refill_size),
		  PAGE_POOL_CACHE_REFILL);
	json_uint(j, RK(rpcsim_page_pool_config, ring_size), cfg->ring_size);
	json_uint(j, RK(rpcsim_page_pool_config, packet_size),
		  cfg->packet_size);
	json_uint(j, RK(rpcsim_page_pool_config, packet_pages),
		  cfg->packet_pages);
	json_uint(j, RK(rpcsim_page_pool_config, rate), cfg->rate);
	json_bool(j, RK(rpcsim_page_pool_config, call_timing),
		  cfg->call_timing);
	json_object_begin(j, RK(rpcsim_page_pool_config, free_mix));
	json_uint(j, RK(rpcsim_free_mix, direct), cfg->free_direct);
	json_uint(j, RK(rpcsim_free_mix, ring), cfg->free_ring);
	json_uint(j, RK(rpcsim_free_mix, held), cfg->free_held);
	json_uint(j, RK(rpcsim_free_mix, released), cfg->free_released);
	json_object_end(j);
	json_object_end(j);
}

static void json_config(struct json *j, const struct report *rep)
{
	const struct rpcsim_config *cfg = rep->cfg;

	json_object_begin(j, RK(rpcsim_doc, config));
	/* The nfsd document stays as it was before there were consumers. */
	if (cfg->consumer == RPCSIM_CONSUMER_PAGE_POOL)
		json_config_page_pool(j, cfg);
	json_string(j, RK(rpcsim_config, alloc), cfg->alloc);
	json_uint(j, RK(rpcsim_config, threads), cfg->threads);
	if (cfg->duration_s > 0)
		json_number(j, RK(rpcsim_config, duration_s), cfg->duration_s);
	else
		json_null(j, RK(rpcsim_config, duration_s));
	if (cfg->requests)
		json_uint(j, RK(rpcsim_config, requests), cfg->requests);
	else
		json_null(j, RK(rpcsim_config, requests));
	json_object_begin(j, RK(rpcsim_config, mix));
	json_uint(j, RK(rpcsim_mix, read), cfg->read_weight);
	json_uint(j, RK(rpcsim_mix, write), cfg->write_weight);
	json_object_end(j);
	json_uint(j, RK(rpcsim_config, io_size), cfg->io_size);
	json_uint(j, RK(rpcsim_config, max_payload), cfg->max_payload);
	json_uint(j, RK(rpcsim_config, sv_max_mesg), cfg->sv_max_mesg);
	json_uint(j, RK(rpcsim_config, rq_pages), cfg->pages);
	json_uint(j, RK(rpcsim_config, pool_size), cfg->pool_size);
	json_uint(j, RK(rpcsim_config, pool_pages), cfg->pool_pages);
	json_uint(j, RK(rpcsim_config, min_pool_pages), cfg->min_pool_pages);
	json_uint(j, RK(rpcsim_config, file_size), cfg->file_size);
	json_uint(j, RK(rpcsim_config, file_pages), cfg->file_pages);
	if (cfg->tcp_read)
		json_uint(j, RK(rpcsim_config, tcp_read), cfg->tcp_read);
	else
		json_null(j, RK(rpcsim_config, tcp_read));
	json_uint(j, RK(rpcsim_config, pcp_batch), cfg->pcp_batch);
	json_uint(j, RK(rpcsim_config, pcp_high), cfg->pcp_high);
	json_string(j, RK(rpcsim_config, backend),
		    pp_backend_name(cfg->backend));
	/* The plugin's path: which allocator "plugin" was (only then). */
	if (cfg->backend == PP_BACKEND_PLUGIN)
		json_string(j, RK(rpcsim_config, plugin), cfg->backend_plugin);
	json_string(j, RK(rpcsim_config, bulk_variant),
		    pp_bulk_variant_name(cfg->bulk_variant));
	json_string(j, RK(rpcsim_config, profile),
		    pp_profile_name(cfg->profile));
	json_bool(j, RK(rpcsim_config, debug_list),
		  cfg->backend == PP_BACKEND_BUDDY &&
		  cfg->profile == PP_PROFILE_KERNEL &&
		  cfg->pool_env.debug_list);
	json_string(j, RK(rpcsim_config, pcp_impl),
		    pp_pcp_impl_name(cfg->pcp_impl));
	/*
	 * rseq was asked for (PAGEPOOL_PCP=rseq) but the lock lists ran:
	 * why.  auto asks for no implementation in particular.
	 */
	if (cfg->pcp_why && cfg->pool_env.pcp_impl == PP_PCP_RSEQ)
		json_string(j, RK(rpcsim_config, pcp_unavailable),
			    cfg->pcp_why);
	if (cfg->backend == PP_BACKEND_JEMALLOC) {
		json_object_begin(j, RK(rpcsim_config, jemalloc));
		json_bool(j, RK(rpcsim_jemalloc, tcache), cfg->je_tcache);
		json_uint(j, RK(rpcsim_jemalloc, tcache_slots), cfg->je_tcache ?
			 (uint64_t)cfg->je_tcache_slots : 0);
		json_bool(j, RK(rpcsim_jemalloc, batch_alloc), cfg->je_batch);
		json_uint(j, RK(rpcsim_jemalloc, headroom_pages),
			  cfg->backend_pages);
		json_object_end(j);
	} else {
		json_null(j, RK(rpcsim_config, jemalloc));
	}
	json_string(j, RK(rpcsim_config, completion),
		    cfg->completion == RPCSIM_COMPLETION_THREAD ? "thread" :
		    "inline");
	json_uint(j, RK(rpcsim_config, queue_depth), cfg->queue_depth);
	json_uint(j, RK(rpcsim_config, retry_wait_us), cfg->retry_wait_us);
	json_uint(j, RK(rpcsim_config, seed), cfg->seed);
	json_uint(j, RK(rpcsim_config, repeat), cfg->repeat);
	json_uint(j, RK(rpcsim_config, warmup), cfg->warmup);
	json_bool(j, RK(rpcsim_config, asan), cfg->asan);
	json_bool(j, RK(rpcsim_config, debug_checks), cfg->debug_checks);
	json_uint(j, RK(rpcsim_config, clock_ns), rep->clock_ns);
	json_object_end(j);
}

double report_mean_us(const struct report *rep, enum rpcsim_mode mode)
{
	struct mode_summary ms;

	summary_build(&ms, rep->results[mode], rep->runs_done[mode]);
	return ns_to_us(hist_mean(&ms.hist));
}

double report_packets_per_s(const struct report *rep, enum rpcsim_mode mode)
{
	struct mode_summary ms;

	summary_build(&ms, rep->results[mode], rep->runs_done[mode]);
	return ratio((double)ms.page_pool.packets, ms.elapsed_s);
}

/* --point: the grid, this point of it, and the settings it ran with. */
static void json_sweep(struct json *j, const struct rpcsim_config *cfg)
{
	const struct rpcsim_sweep *sw = &cfg->sweep;

	if (!json_object_or_null(j, RK(rpcsim_doc, sweep), sw->point))
		return;
	json_uint(j, RK(rpcsim_sweep, point), sw->point);
	json_uint(j, RK(rpcsim_sweep, points), sw->nr_points);
	json_string(j, RK(rpcsim_sweep, name), sw->name);
	json_string(j, RK(rpcsim_sweep, settings), sw->settings);
	json_array_begin(j, RK(rpcsim_sweep, keys));
	for (unsigned int k = 0; k < sw->nr_keys; k++) {
		json_object_begin(j, NULL);
		json_string(j, RK(sweep_key, key), sw->keys[k].key);
		json_array_begin(j, RK(sweep_key, values));
		for (unsigned int v = 0; v < sw->keys[k].nr; v++)
			json_string(j, NULL, sw->keys[k].values[v]);
		json_array_end(j);
		json_object_end(j);
	}
	json_array_end(j);
	json_object_begin(j, RK(rpcsim_sweep, values));
	for (unsigned int k = 0; k < sw->nr_keys; k++)
		json_string(j, sw->keys[k].key,
			    rpcsim_point_value(cfg, k, sw->point));
	json_object_end(j);
	json_object_end(j);
}

void report_json(FILE *out, const struct report *rep)
{
	const struct rpcsim_config *cfg = rep->cfg;
	struct json j;

	json_init(&j, out);
	json_object_begin(&j, NULL);
	json_string(&j, RK(rpcsim_doc, program), "rpcsim");
	json_string(&j, RK(rpcsim_doc, version), PACKAGE_VERSION);
	json_string(&j, RK(rpcsim_doc, libpagepool), pp_version());
	results_json_origin(&j, &(struct results_origin){
		.version = PACKAGE_VERSION, .libpagepool = pp_version(),
		.asan = cfg->asan, .pcp_impl = pp_pcp_impl_name(cfg->pcp_impl),
		.signal = rpcsim_first_signal(), .tsc_ghz = NAN });
	json_sweep(&j, cfg);
	json_config(&j, rep);
	json_array_begin(&j, RK(rpcsim_doc, modes));
	for (int m = 0; m < RPCSIM_NR_MODES; m++) {
		struct mode_summary ms;

		if (!rep->runs_done[m])
			continue;
		summary_build(&ms, rep->results[m], rep->runs_done[m]);
		json_object_begin(&j, NULL);
		json_string(&j, RK(rpcsim_mode, mode), rpcsim_mode_name(m));
		json_string(&j, RK(rpcsim_mode, label), rpcsim_mode_label(m));
		json_uint(&j, RK(rpcsim_mode, runs), ms.runs);
		json_number(&j, RK(rpcsim_mode, elapsed_s), ms.elapsed_s);
		if (timed(cfg))
			json_latency(&j, &ms.hist);
		else
			json_untimed(&j, ms.total.calls);
		json_stats(&j, &ms.total, ms.elapsed_s);
		json_uint(&j, RK(rpcsim_mode, completions), ms.completions);
		json_events(&j, RK(rpcsim_mode, counters), ms.events);
		json_object_begin(&j, RK(rpcsim_mode, across_runs));
		json_uint(&j, RK(rpcsim_across_runs, n), ms.runs);
		/* untimed: NaN, which the writer spells null */
		if (!timed(cfg))
			ms.avg_us = ms.stddev_us = ms.min_us = ms.max_us =
				ms.trimmed_us = NAN;
		json_number(&j, RK(rpcsim_across_runs, avg_us), ms.avg_us);
		json_number(&j, RK(rpcsim_across_runs, stddev_us),
			    ms.stddev_us);
		json_number(&j, RK(rpcsim_across_runs, min_us), ms.min_us);
		json_number(&j, RK(rpcsim_across_runs, max_us), ms.max_us);
		json_number(&j, RK(rpcsim_across_runs, trimmed_mean_us),
			    ms.trimmed_us);
		json_uint(&j, RK(rpcsim_across_runs, trimmed),
			  ms.runs >= 3 ? 2 : 0);
		json_object_end(&j);
		if (cfg->consumer == RPCSIM_CONSUMER_PAGE_POOL)
			json_page_pool(&j, &ms.page_pool, &ms.hist,
				       timed(cfg), ms.elapsed_s);
		else
			by_refill_json(&j, RK(rpcsim_figures, by_refill),
				       &ms.refill[BY_REFILL_ONE_PAGE],
				       &ms.refill[BY_REFILL_MORE_PAGES]);
		json_array_begin(&j, RK(rpcsim_mode, per_run));
		for (unsigned int r = 0; r < rep->runs_done[m]; r++)
			json_run(&j, cfg, &rep->results[m][r]);
		json_array_end(&j);
		json_object_end(&j);
	}
	json_array_end(&j);
	if (rep->trace_dir) {
		json_object_begin(&j, RK(rpcsim_doc, trace));
		json_string(&j, RK(rpcsim_trace, dir), rep->trace_dir);
		json_string(&j, RK(rpcsim_trace, events),
			    cfg->trace_all ? "all" : "rpcsim");
		json_uint(&j, RK(rpcsim_trace, discarded_events),
			  rep->trace_discarded);
		json_uint(&j, RK(rpcsim_trace, lost_packets), rep->trace_lost);
		json_object_end(&j);
	}
	json_object_end(&j);
	json_finish(&j);
}

/* --- --histogram=FILE ------------------------------------------------------ */

int report_histogram_open(struct report *rep)
{
	char err[PATH_MAX + 128];

	if (!atomic_file_open(&rep->histogram, rep->cfg->histogram, err,
			      sizeof(err)))
		return 0;
	fprintf(stderr, "rpcsim: --histogram=%s: %s\n", rep->cfg->histogram,
		err);
	return -1;
}

void report_histogram_drop(struct report *rep)
{
	if (rep->histogram.f)
		atomic_file_abort(&rep->histogram);
}

int report_histogram(struct report *rep)
{
	FILE *f = rep->histogram.f;
	char err[PATH_MAX + 128];

	fprintf(f, "mode,lower_ns,upper_ns,count\n");
	for (int m = 0; m < RPCSIM_NR_MODES; m++) {
		struct mode_summary ms;

		if (!rep->runs_done[m])
			continue;
		summary_build(&ms, rep->results[m], rep->runs_done[m]);
		for (unsigned int i = 0; i < HIST_NR; i++) {
			uint64_t lo, hi;

			if (!ms.hist.buckets[i])
				continue;
			hist_bucket_bounds(i, &lo, &hi);
			fprintf(f, "%s,%llu,%llu,%llu\n", rpcsim_mode_name(m),
				(unsigned long long)lo, (unsigned long long)hi,
				(unsigned long long)ms.hist.buckets[i]);
		}
	}
	if (atomic_file_commit(&rep->histogram, err, sizeof(err))) {
		fprintf(stderr, "rpcsim: --histogram=%s: %s\n",
			rep->cfg->histogram, err);
		return -1;
	}
	return 0;
}

/* --- plot ---------------------------------------------------------------- */

/* --interval: per interval, the mode's runs pooled, its mean and p99. */
static int plot_timeline(struct plot_series *s, const struct svc_result *r,
			 unsigned int runs)
{
	struct timeline tl;
	int ret = 0;

	timeline_init(&tl, r[0].tl.interval_ns);
	for (unsigned int i = 0; i < runs; i++)
		timeline_merge(&tl, &r[i].tl);
	for (unsigned int k = 0; k < tl.nr && !ret; k++) {
		const struct timeline_slot *sl = &tl.slot[k];
		double t = (double)k * (double)tl.interval_ns / 1e9;

		ret = sl->count ?
		      plot_series_time(s, t, (double)sl->sum /
				       (double)sl->count / 1e3,
				       (double)timeline_percentile(sl, 99) /
				       1e3) :
		      plot_series_time(s, t, NAN, NAN);
	}
	timeline_free(&tl);
	return ret;
}

int report_plot(const struct report *rep, const char *gnuplot)
{
	const struct rpcsim_config *cfg = rep->cfg;
	char title[256], io[32], err[1024], key[128], calls[32];
	struct plot *p;
	int ret = -1;

	snprintf(title, sizeof(title), "rpcsim %s, %s build: svc_alloc_arg() "
		 "per call, %u threads, %s read:%u,write:%u, %u run%s per mode",
		 PACKAGE_VERSION, build_name(cfg), cfg->threads,
		 fmt_size(io, sizeof(io), cfg->io_size), cfg->read_weight,
		 cfg->write_weight, cfg->repeat, cfg->repeat > 1 ? "s" : "");
	p = plot_new(title);
	if (!p)
		goto oom;
	for (int m = 0; m < RPCSIM_NR_MODES; m++) {
		struct plot_series *s;
		struct mode_summary ms;

		if (!rep->runs_done[m])
			continue;
		summary_build(&ms, rep->results[m], rep->runs_done[m]);
		snprintf(key, sizeof(key), "%s: %.3f us per call over %s "
			 "calls", rpcsim_mode_label(m),
			 ns_to_us(hist_mean(&ms.hist)),
			 fmt_thousands(calls, sizeof(calls), ms.hist.count));
		s = plot_add_series(p, rpcsim_mode_label(m), key,
				    hist_mean(&ms.hist),
				    ratio((double)ms.total.pages,
					  (double)ms.total.calls));
		if (!s)
			goto oom;
		for (unsigned int i = 0; i < HIST_NR; i++)
			if (ms.hist.buckets[i] &&
			    plot_series_add(s, hist_bucket_value(i),
					    ms.hist.buckets[i]))
				goto oom;
		if (cfg->interval_s > 0 && plot_timeline(s, rep->results[m],
							 rep->runs_done[m]))
			goto oom;
	}
	if (plot_write(p, cfg->plot, gnuplot, err, sizeof(err)))
		fprintf(stderr, "rpcsim: --plot=%s: %s\n", cfg->plot, err);
	else
		ret = 0;
	plot_free(p);
	return ret;
oom:
	fprintf(stderr, "rpcsim: --plot=%s: out of memory\n", cfg->plot);
	plot_free(p);
	return -1;
}
