/* SPDX-License-Identifier: MIT */
/*
 * The options with more to them than the table's kinds say (the table's
 * apply and lookup callbacks), then the checks between options once all
 * are read, and the sizes derived from them as the kernel derives them:
 * the smallest pool a run cannot deadlock in.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <pagepool/pagepool.h>

#include "number.h"
#include "tool.h"
#include "options_internal.h"
#include "page_pool/page_pool.h"
#include "plot.h"
#include "timeline.h"
#include "util.h"

/* --- options with more to them ----------------------------------------------- */

/* single, list, array: the mode; all: RPCSIM_NR_MODES. */
int alloc_lookup(const char *word)
{
	if (!strcmp(word, "all"))
		return RPCSIM_NR_MODES;
	for (int m = 0; m < RPCSIM_NR_MODES; m++)
		if (!strcmp(word, rpcsim_mode_name((enum rpcsim_mode)m)))
			return m;
	return -1;
}

void apply_alloc(const struct opt_spec *o, const char *arg,
		 uint64_t value, struct opt_state *st)
{
	struct rpcsim_config *cfg = st->cfg;

	for (int m = 0; m < RPCSIM_NR_MODES; m++)
		cfg->mode[m] = value == RPCSIM_NR_MODES || value == (uint64_t)m;
	cfg->alloc = arg;
}

/*
 * A list of NAME:W weights, each of @nr names at most once, either order,
 * any left out meaning 0 (--mix, --free-mix): into the unsigned int field
 * of rpcsim_config at @offset[i] for @names[i].  @what names the parts in
 * messages ("operation").
 */
struct weights_spec {
	const char *option;		/* "mix" */
	const char *what;		/* "operation" */
	const char *accepted;		/* the message's tail */
	unsigned int nr;
	const char *names[4];
	size_t offset[4];
};

#define WEIGHT(member)	offsetof(struct rpcsim_config, member)

static const struct weights_spec weights_specs[] = {
	/* --mix=read:W,write:W, either part optional, each at most once. */
	{ .option = "mix", .what = "operation",
	  .accepted = "expected read:W,write:W with integer weights "
		      "from 0 to 1000000, not both 0",
	  .nr = 2, .names = { "read", "write" },
	  .offset = { WEIGHT(read_weight), WEIGHT(write_weight) } },
	/* --free-mix=direct:W,ring:W,held:W,released:W, as --mix. */
	{ .option = "free-mix", .what = "way",
	  .accepted = "expected direct:W,ring:W,held:W,released:W with "
		      "integer weights from 0 to 1000000, not all 0",
	  .nr = 4, .names = { "direct", "ring", "held", "released" },
	  .offset = { WEIGHT(free_direct), WEIGHT(free_ring),
		      WEIGHT(free_held), WEIGHT(free_released) } },
};

static unsigned int *weight_field(struct rpcsim_config *cfg,
				  const struct weights_spec *ws, unsigned int i)
{
	return (unsigned int *)((char *)cfg + ws->offset[i]);
}

static void parse_weights(const struct weights_spec *ws, const char *arg,
			  struct rpcsim_config *cfg)
{
	bool seen[ARRAY_SIZE(ws->names)] = { false };
	const char *p = arg;
	unsigned int i, sum = 0, given = 0;

	for (i = 0; i < ws->nr; i++)
		*weight_field(cfg, ws, i) = 0;
	while (*p) {
		const char *colon = strchr(p, ':'), *comma;
		char num[24];
		uint64_t w;
		size_t len;

		if (!colon)
			usage_error("--%s=%s: %s", ws->option, arg,
				    ws->accepted);
		for (i = 0; i < ws->nr; i++)
			if ((size_t)(colon - p) == strlen(ws->names[i]) &&
			    !strncasecmp(p, ws->names[i], strlen(ws->names[i])))
				break;
		if (i == ws->nr)
			usage_error("--%s=%s: unknown %s '%.*s'; %s",
				    ws->option, arg, ws->what,
				    (int)(colon - p), p, ws->accepted);
		if (seen[i])
			usage_error("--%s=%s: '%.*s' given twice; %s",
				    ws->option, arg, (int)(colon - p), p,
				    ws->accepted);
		seen[i] = true;
		given++;
		comma = strchr(colon + 1, ',');
		len = comma ? (size_t)(comma - colon - 1) : strlen(colon + 1);
		if (len == 0 || len >= sizeof(num))
			usage_error("--%s=%s: %s", ws->option, arg,
				    ws->accepted);
		memcpy(num, colon + 1, len);
		num[len] = '\0';
		if (num_parse_u64(num, &w) || w > MAX_MIX_WEIGHT)
			usage_error("--%s=%s: bad weight '%s'; %s", ws->option,
				    arg, num, ws->accepted);
		*weight_field(cfg, ws, i) = (unsigned int)w;
		sum += (unsigned int)w;
		if (!comma)
			break;
		p = comma + 1;
		if (!*p)
			usage_error("--%s=%s: %s", ws->option, arg,
				    ws->accepted);
	}
	if (!given)
		usage_error("--%s=%s: %s", ws->option, arg, ws->accepted);
	if (!sum)
		usage_error("--%s=%s: all weights are zero; %s", ws->option,
			    arg, ws->accepted);
}

/* --mix and --free-mix: parsed by their entry of weights_specs. */
void apply_weights(const struct opt_spec *o, const char *arg,
		   uint64_t value, struct opt_state *st)
{
	for (size_t i = 0; i < ARRAY_SIZE(weights_specs); i++) {
		if (!strcmp(o->name, weights_specs[i].option)) {
			parse_weights(&weights_specs[i], arg, st->cfg);
			return;
		}
	}
	rpcsim_die("no weights_specs entry for --%s", o->name);
}

void apply_pool_size(const struct opt_spec *o, const char *arg,
		     uint64_t value, struct opt_state *st)
{
	if (value % PP_PAGE_SIZE)
		refuse_value(o, arg, "");
}

void apply_je_slots(const struct opt_spec *o, const char *arg,
		    uint64_t value, struct opt_state *st)
{
	if (value % 2)
		usage_error("--%s=%s: expected an even integer from %llu to "
			    "%llu (jemalloc's cache bins hold an even count)",
			    o->name, arg, (unsigned long long)o->min,
			    (unsigned long long)o->max);
	st->je_slots = value;
}

/* --plan[=parallel|slurm[:K]] */
void apply_plan(const struct opt_spec *o, const char *arg,
		uint64_t value, struct opt_state *st)
{
	struct rpcsim_sweep *sw = &st->cfg->sweep;
	const char *k;
	char *end;

	sw->plan = true;
	sw->plan_slurm = false;
	sw->plan_limit = 0;
	if (!arg || !strcmp(arg, "parallel"))
		return;
	if (strncmp(arg, "slurm", 5) || (arg[5] && arg[5] != ':'))
		usage_error("--%s=%s: expected parallel, slurm or slurm:K "
			    "(K tasks at a time)", o->name, arg);
	sw->plan_slurm = true;
	if (!arg[5])
		return;
	k = arg + 6;
	errno = 0;
	sw->plan_limit = strtoull(k, &end, 10);
	if (*k < '0' || *k > '9' || *end || errno || !sw->plan_limit ||
	    sw->plan_limit > MAX_SWEEP_POINTS)
		usage_error("--%s=%s: K is the number of tasks that run at "
			    "once, 1 to %u", o->name, arg,
			    (unsigned int)MAX_SWEEP_POINTS);
}

void apply_trace(const struct opt_spec *o, const char *arg,
		 uint64_t value, struct opt_state *st)
{
	st->cfg->trace = true;
	if (arg && !*arg)
		usage_error("--%s=: expected a folder name (or --%s alone)",
			    o->name, o->name);
	st->cfg->trace_dir = arg;
}

/* A port in a --trace-live URL: 1..65535, digits only; its end or NULL. */
static const char *live_port(const char *p)
{
	unsigned long v = 0;
	const char *q = p;

	while (*q >= '0' && *q <= '9' && q - p < 6)
		v = v * 10 + (unsigned long)(*q++ - '0');
	return q == p || v < 1 || v > 65535 ? NULL : q;
}

/*
 * --trace-live[=URL]: net://HOST[:CONTROL_PORT[:DATA_PORT]] or
 * net6://[ADDR][:...]; liblttng-ctl reads it, this only refuses at once
 * what it could not (exit 2) rather than after the session daemon is
 * asked.
 */
void apply_trace_live(const struct opt_spec *o, const char *arg,
		      uint64_t value, struct opt_state *st)
{
	const char *p = arg, *host;
	int ports = 0;

	(void)value;
	if (!arg)
		arg = p = "net://localhost";
	if (!strncmp(p, "net://", 6))
		p += 6;
	else if (!strncmp(p, "net6://", 7))
		p += 7;
	else
		goto bad;
	host = p;
	if (*p == '[') {
		p = strchr(p, ']');
		if (!p || p == host + 1)
			goto bad;
		p++;
	} else {
		p += strcspn(p, ":/");
	}
	if (p == host)
		goto bad;
	while (*p == ':' && ports < 2) {
		p = live_port(p + 1);
		if (!p)
			goto bad;
		ports++;
	}
	if (*p)
		goto bad;
	st->cfg->trace = true;
	st->cfg->trace_live = arg;
	return;
bad:
	usage_error("invalid --%s '%s': accepted net://HOST[:CONTROL_PORT"
		    "[:DATA_PORT]] (or net6://; ports 1..65535), the relay "
		    "daemon's control URL", o->name, arg);
}

/* A backend name, or plugin:PATH (the path is checked by apply_backend()). */
int backend_lookup(const char *word)
{
	if (!strncmp(word, "plugin:", strlen("plugin:")))
		return PP_BACKEND_PLUGIN;
	return pp_backend_from_name(word);
}

/*
 * libpagepool says whether it was built with jemalloc.  A plugin's path is
 * kept for the pools; whether it loads, the first pool says (exit 1).
 */
void apply_backend(const struct opt_spec *o, const char *arg,
		   uint64_t value, struct opt_state *st)
{
	st->cfg->backend_plugin = NULL;
	if (value == PP_BACKEND_PLUGIN) {
		const char *path = strchr(arg, ':');

		if (!path || !path[1])
			usage_error("--%s=%s: expected plugin:PATH.so, the "
				    "plugin's shared object", o->name, arg);
		st->cfg->backend_plugin = path + 1;
	}
	if (value == PP_BACKEND_JEMALLOC &&
	    pp_jemalloc_tcache_slots() == -EOPNOTSUPP)
		usage_error("--%s=%s: this build has no jemalloc (./configure "
			    "--without-jemalloc); expected buddy", o->name,
			    arg);
}

void apply_plot(const struct opt_spec *o, const char *arg,
		uint64_t value, struct opt_state *st)
{
	char why[160];

	if (plot_check_path(arg, why, sizeof(why)))
		usage_error("--%s=%s: %s", o->name, arg, why);
	st->cfg->plot = arg;
}

/* --interval: at least a millisecond (the timeline's slots cost memory). */
void apply_interval(const struct opt_spec *o, const char *arg,
		    uint64_t value, struct opt_state *st)
{
	if (st->cfg->interval_s < 0.001 - 1e-12)
		usage_error("--%s=%s: expected a duration of 1ms or more: %s, "
			    "seconds without a unit", o->name, arg,
			    NUM_DURATION_FORMS);
}

void apply_histogram(const struct opt_spec *o, const char *arg,
		     uint64_t value, struct opt_state *st)
{
	if (!*arg)
		usage_error("--%s=: expected a file name", o->name);
	st->cfg->histogram = arg;
}

/* --json and --output-format: the last one given decides. */
void apply_json(const struct opt_spec *o, const char *arg,
		uint64_t value, struct opt_state *st)
{
	st->cfg->json_after_text = false;
}

void apply_output_format(const struct opt_spec *o, const char *arg,
			 uint64_t value, struct opt_state *st)
{
	st->cfg->json = value == 1;
	st->cfg->json_after_text = value == 2;
}

void apply_output(const struct opt_spec *o, const char *arg,
		  uint64_t value, struct opt_state *st)
{
	if (!*arg)
		usage_error("--%s=: accepted a file name", o->name);
	st->cfg->output = arg;
}

/* --- checks between options ------------------------------------------------- */

/*
 * jemalloc sizes its thread caches once, when it starts, from MALLOC_CONF:
 * for --je-tcache-slots=N that jemalloc did not start with, run this
 * rpcsim again with N added to MALLOC_CONF (once: RPCSIM_JE_RESTARTED
 * says it was done).  Then record the count the caches really have.
 */
static void je_tcache_setup(struct rpcsim_config *cfg, uint64_t slots,
			    char **argv)
{
	char conf[1024];
	const char *old = getenv("MALLOC_CONF");
	long have = pp_jemalloc_tcache_slots();

	if (slots && cfg->je_tcache && have != (long)slots) {
		if (getenv("RPCSIM_JE_RESTARTED")) {
			fprintf(stderr, "rpcsim: --je-tcache-slots=%llu: "
				"jemalloc started with %ld slots for 4 KiB "
				"even with MALLOC_CONF=%s\n",
				(unsigned long long)slots, have,
				old ? old : "");
			exit(1);
		}
		snprintf(conf, sizeof(conf), "%s%stcache_nslots_small_min:%llu,"
			 "tcache_nslots_small_max:%llu", old ? old : "",
			 old && *old ? "," : "", (unsigned long long)slots,
			 (unsigned long long)slots);
		if (setenv("MALLOC_CONF", conf, 1) ||
		    setenv("RPCSIM_JE_RESTARTED", "1", 1))
			rpcsim_die("setenv: %s", strerror(errno));
		fflush(NULL);
		execv("/proc/self/exe", argv);
		fprintf(stderr, "rpcsim: --je-tcache-slots=%llu: cannot run "
			"again with MALLOC_CONF=%s: %s\n",
			(unsigned long long)slots, conf, strerror(errno));
		exit(1);
	}
	cfg->je_tcache_slots = cfg->je_tcache ? have : 0;
}

/*
 * The profile the pools run: --profile, else PAGEPOOL_PROFILE, else
 * kernel; another backend than buddy runs its own paths (lean).
 */
static void profile_resolve(struct rpcsim_config *cfg)
{
	const char *env = getenv("PAGEPOOL_PROFILE");

	if (cfg->profile == PP_NR_PROFILES && env) {
		if (pp_profile_from_name(env) < 0) {
			fprintf(stderr, "rpcsim: PAGEPOOL_PROFILE=%s: expected "
				"lean or kernel\n", env);
			exit(2);
		}
		cfg->profile = (enum pp_profile)pp_profile_from_name(env);
	}
	if (cfg->profile == PP_NR_PROFILES)
		cfg->profile = PP_PROFILE_KERNEL;
	if (cfg->backend != PP_BACKEND_BUDDY)
		cfg->profile = PP_PROFILE_LEAN;
}

/*
 * The pcp implementation the pools will run (PAGEPOOL_PCP, the build, the
 * kernel and glibc decide): printed in the header and the JSON.
 */
static void pcp_impl_resolve(struct rpcsim_config *cfg)
{
	struct pp_pool_config pc = cfg->pool_env;

	pc.backend = cfg->backend;
	cfg->pcp_impl = pp_pool_config_pcp_impl(&pc, &cfg->pcp_why);
	if (cfg->pcp_impl == PP_NR_PCP_IMPLS) {
		fprintf(stderr, "rpcsim: PAGEPOOL_PCP=%s: expected auto, rseq "
			"or lock\n", getenv("PAGEPOOL_PCP"));
		exit(2);
	}
}

/* The min watermark libpagepool gives a pool of @nr_pages. */
static unsigned long pool_wmark_min(const struct rpcsim_config *cfg,
				    unsigned long nr_pages)
{
	struct pp_pool_config pc = cfg->pool_env;
	unsigned long min, low, high;

	pc.nr_pages = nr_pages;
	pc.pcp_batch = cfg->pcp_batch;
	pc.pcp_high = cfg->pcp_high;
	if (pp_pool_config_wmarks(&pc, &min, &low, &high))
		rpcsim_die("no watermarks for a pool of %lu pages", nr_pages);
	return min;
}

/*
 * The smallest pool in which every thread can hold a full rq_pages at once
 * while the completion queue is full and the page cache is resident:
 * allocations succeed down to the min watermark (the slow path drains the
 * pcp lists first), so the pool needs demand + wmark_min(pool) pages.  The
 * watermark grows with the pool (sqrt rule), so search for the size.
 * demand - wmark_min(n) never decreases as n grows: min grows by at most
 * one page per page.
 */
static void compute_min_pool(struct rpcsim_config *cfg)
{
	unsigned long demand = cfg->threads * cfg->pages + cfg->file_pages;
	unsigned long lo, hi;

	if (cfg->completion == RPCSIM_COMPLETION_THREAD)
		demand += cfg->queue_depth;	/* one reply head each */
	/*
	 * --tcp-read: a thread may hold a record's received pages aside
	 * (at most the record's, io-size and its header) besides rq_pages.
	 */
	cfg->aside_pages = cfg->tcp_read ? cfg->io_pages + 1 : 0;
	demand += cfg->threads * cfg->aside_pages;
	/*
	 * page_pool: each RX queue's cache and ring full and a packet in
	 * hand, and the stack thread's queue full of packets.  A smaller
	 * pool cannot deadlock (RX allocations fail and drop packets
	 * instead of waiting) but would measure drops, not refills.
	 */
	if (cfg->consumer == RPCSIM_CONSUMER_PAGE_POOL)
		demand = cfg->threads * (PAGE_POOL_CACHE_SIZE +
					 cfg->ring_size + cfg->packet_pages) +
			 cfg->queue_depth * cfg->packet_pages;
	/*
	 * jemalloc keeps pages of its own out of the pool: its first
	 * metadata block (512 pages), about 150 bytes of metadata per page
	 * it hands out (demand / 16 is more), retained extents it grows by
	 * up to 1024 pages at a time (two of them), and what its thread
	 * caches hold.
	 */
	cfg->backend_pages = 0;
	if (cfg->backend == PP_BACKEND_JEMALLOC)
		cfg->backend_pages = 512 + demand / 16 + 2048 +
				     online_cpus() *
				     (unsigned long)(cfg->je_tcache_slots > 0 ?
						     cfg->je_tcache_slots : 0);
	demand += cfg->backend_pages;
	lo = demand;
	hi = demand + demand / 7 + 64;
	while (hi - pool_wmark_min(cfg, hi) < demand)
		hi *= 2;
	while (lo < hi) {
		unsigned long mid = lo + (hi - lo) / 2;

		if (mid - pool_wmark_min(cfg, mid) >= demand)
			hi = mid;
		else
			lo = mid + 1;
	}
	cfg->min_pool_pages = lo;
	cfg->min_pool_wmark = pool_wmark_min(cfg, lo);
}

/* An option of one consumer given with the other: refused. */
static void check_consumer(const struct opt_state *st)
{
	const struct rpcsim_config *cfg = st->cfg;

	for (size_t i = 0; i < NR_OPT_SPECS; i++) {
		const struct opt_spec *o = &opt_table[i];
		const char *arg = st->given[i];

		if (!o->consumer_only || !arg ||
		    o->consumer_only == cfg->consumer + 1)
			continue;
		usage_error("--%s%s%s: only with --consumer=%s (this run's "
			    "consumer is %s)", o->name, *arg ? "=" : "", arg,
			    rpcsim_consumer_name((enum rpcsim_consumer)
						 (o->consumer_only - 1)),
			    rpcsim_consumer_name(cfg->consumer));
	}
}

/*
 * --call-timing=off: the options whose output is the calls' times (a
 * trace's events carry them) have none to give.  A sweep's table gives
 * the packet rates instead of the latencies.
 */
static void check_call_timing(struct opt_state *st)
{
	static const char *const timed[] = {
		"trace", "trace-live", "interval", "histogram", "plot",
	};

	if (st->cfg->call_timing)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(timed); i++) {
		const char *arg = opt_given(st, timed[i]);

		if (arg)
			usage_error("--%s%s%s: only with --call-timing=on "
				    "(it needs each call's time, which "
				    "--call-timing=off does not take)",
				    timed[i], *arg ? "=" : "", arg);
	}
}

/* Options that only go with another: refused alone. */
void check_dependencies(struct opt_state *st)
{
	struct rpcsim_config *cfg = st->cfg;
	const char *arg;

	check_consumer(st);
	check_call_timing(st);
	if (cfg->interval_s > 0 && cfg->duration_s > 0 &&
	    cfg->duration_s / cfg->interval_s > TIMELINE_MAX)
		usage_error("--interval=%s: %.0f intervals in --duration=%s, "
			    "at most %u", opt_given(st, "interval"),
			    cfg->duration_s / cfg->interval_s,
			    opt_given(st, "duration") ?
			    opt_given(st, "duration") : "(default)",
			    TIMELINE_MAX);
	arg = opt_given(st, "trace-events");
	if (!cfg->trace && arg)
		usage_error("--trace-events=%s: only with --trace", arg);
	arg = opt_given(st, "trace-buffer");
	if (!cfg->trace && arg)
		usage_error("--trace-buffer=%s: only with --trace", arg);
#ifndef HAVE_LTTNG_UST
	if (cfg->trace)
		usage_error("--trace: this rpcsim was built without LTTng-UST "
			    "(./configure --disable-lttng-ust)");
#endif

	if (cfg->backend != PP_BACKEND_JEMALLOC && st->je_last)
		usage_error("--%s=%s: only with --backend=jemalloc",
			    st->je_last->name, st->je_last_arg);
	arg = opt_given(st, "profile");
	if (arg && cfg->profile == PP_PROFILE_KERNEL &&
	    cfg->backend != PP_BACKEND_BUDDY)
		usage_error("--profile=%s: only with --backend=buddy (the "
			    "profiles are the buddy allocator's paths)", arg);
	arg = opt_given(st, "je-tcache-slots");
	if (arg && !cfg->je_tcache)
		usage_error("--je-tcache-slots=%s: only with --je-tcache=on",
			    arg);
	if (cfg->backend == PP_BACKEND_JEMALLOC && !st->checking)
		je_tcache_setup(cfg, st->je_slots, st->argv);
	else if (cfg->backend == PP_BACKEND_JEMALLOC)	/* as it would be */
		cfg->je_tcache_slots = !cfg->je_tcache ? 0 : st->je_slots ?
				       (long)st->je_slots :
				       pp_jemalloc_tcache_slots();
}

/* The defaults that follow other options, and sizes that must agree. */
void check_sizes(struct opt_state *st)
{
	struct rpcsim_config *cfg = st->cfg;
	char buf[32], given[32];

	/* Length: whichever comes first; the default only without either. */
	if (!opt_given(st, "duration") && !cfg->requests)
		cfg->duration_s = DEFAULT_DURATION_S;

	if (cfg->nodes > 1 && cfg->backend != PP_BACKEND_BUDDY)
		usage_error("--nodes=%u: expected 1 with --backend=%s (only "
			    "buddy pools have nodes)", cfg->nodes,
			    pp_backend_name(cfg->backend));
	if (!opt_given(st, "pcp-high"))
		cfg->pcp_high = cfg->pcp_batch * 6;
	else if (cfg->pcp_high < cfg->pcp_batch)
		usage_error("--pcp-high=%u: expected an integer from the pcp "
			    "batch (%u) to %u", cfg->pcp_high, cfg->pcp_batch,
			    MAX_PCP_HIGH);
	if (!opt_given(st, "queue-depth") &&
	    cfg->consumer == RPCSIM_CONSUMER_PAGE_POOL)
		cfg->queue_depth = cfg->threads * QUEUE_DEPTH_PER_RXQ >
				   MAX_QUEUE_DEPTH ? MAX_QUEUE_DEPTH :
				   cfg->threads * QUEUE_DEPTH_PER_RXQ;
	else if (!opt_given(st, "queue-depth"))
		cfg->queue_depth = cfg->threads * 2 > MAX_QUEUE_DEPTH ?
				   MAX_QUEUE_DEPTH : cfg->threads * 2;

	if (cfg->io_size > cfg->max_payload)
		usage_error("--io-size=%s: larger than the max payload (%s); "
			    "expected a size from 1 to --max-payload",
			    opt_given_or_default(st, "io-size", given,
						 sizeof(given)),
			    fmt_size(buf, sizeof(buf), cfg->max_payload));
	if (cfg->file_size < cfg->io_size)
		usage_error("--file-size=%s: smaller than one request (%s); "
			    "expected at least --io-size",
			    opt_given_or_default(st, "file-size", given,
						 sizeof(given)),
			    fmt_size(buf, sizeof(buf), cfg->io_size));
	_Static_assert(MAX_PAYLOAD == 64ULL << 20,
		       "the --tcp-read line below says 64m");
	if (cfg->tcp_read && cfg->tcp_read < MIN_TCP_READ)
		usage_error("--tcp-read=%s: smaller than 1k; expected 0 or a "
			    "size from 1k to 64m",
			    opt_given_or_default(st, "tcp-read", given,
						 sizeof(given)));
}

/* The kernel's sizes (__svc_create() and svc_alloc_arg()), the pool's. */
void derive_sizes(struct opt_state *st)
{
	struct rpcsim_config *cfg = st->cfg;
	char given[32];

	cfg->sv_max_mesg = (unsigned long)DIV_ROUND_UP(cfg->max_payload +
						       PP_PAGE_SIZE,
						       PP_PAGE_SIZE) *
			   PP_PAGE_SIZE;
	cfg->pages = (cfg->sv_max_mesg + 2 * PP_PAGE_SIZE) / PP_PAGE_SIZE;
	cfg->pool_pages = (unsigned long)(cfg->pool_size / PP_PAGE_SIZE);
	pcp_impl_resolve(cfg);
	profile_resolve(cfg);
	tool_check_debug_env();
	cfg->file_pages = (unsigned long)DIV_ROUND_UP(cfg->file_size,
						      PP_PAGE_SIZE);
	cfg->io_pages = (unsigned long)DIV_ROUND_UP(cfg->io_size,
						    PP_PAGE_SIZE);
	cfg->packet_pages = (unsigned long)DIV_ROUND_UP(cfg->packet_size,
							PP_PAGE_SIZE);
	if (cfg->consumer == RPCSIM_CONSUMER_PAGE_POOL)
		cfg->file_pages = 0;	/* no page cache */

	compute_min_pool(cfg);
	if (cfg->pool_pages < cfg->min_pool_pages &&
	    cfg->consumer == RPCSIM_CONSUMER_PAGE_POOL)
		usage_error("--pool-size=%s: too small for %u RX queues x "
			    "(%d cache + %u ring + %lu packet pages) + %u "
			    "queued packets x %lu pages + a %lu-page min "
			    "watermark%s%.0lu%s; expected at least %luk "
			    "(%lu pages)",
			    opt_given_or_default(st, "pool-size", given,
						 sizeof(given)),
			    cfg->threads, PAGE_POOL_CACHE_SIZE,
			    cfg->ring_size, cfg->packet_pages,
			    cfg->queue_depth, cfg->packet_pages,
			    cfg->min_pool_wmark,
			    cfg->backend_pages ? " + " : "",
			    cfg->backend_pages,
			    cfg->backend_pages ? " pages for jemalloc" : "",
			    cfg->min_pool_pages * (PP_PAGE_SIZE / 1024),
			    cfg->min_pool_pages);
	if (cfg->pool_pages < cfg->min_pool_pages)
		usage_error("--pool-size=%s: too small for %u threads x %lu "
			    "rq_pages%s%.0lu%s + %u queued reply pages + %lu "
			    "page-cache pages + a %lu-page min watermark"
			    "%s%.0lu%s; expected at least %luk (%lu pages)",
			    opt_given_or_default(st, "pool-size", given,
						 sizeof(given)),
			    cfg->threads, cfg->pages,
			    cfg->aside_pages ? " (+ " : "", cfg->aside_pages,
			    cfg->aside_pages ? " set aside by --tcp-read)" : "",
			    cfg->completion == RPCSIM_COMPLETION_THREAD ?
			    cfg->queue_depth : 0,
			    cfg->file_pages, cfg->min_pool_wmark,
			    cfg->backend_pages ? " + " : "",
			    cfg->backend_pages,
			    cfg->backend_pages ? " pages for jemalloc" : "",
			    cfg->min_pool_pages * (PP_PAGE_SIZE / 1024),
			    cfg->min_pool_pages);
}
