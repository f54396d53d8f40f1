/* SPDX-License-Identifier: MIT */
/*
 * The page_pool view: rpcsim --consumer=page_pool's events (provider
 * page_pool, tracepoints/page_pool_tp.h), which come outside any rpcsim
 * run (that consumer fires no run_start).  Two tables, per process:
 *
 *   - per mode (the refill API, page_pool_alloc_slow's mode): the
 *     refills, their pages and allocator calls, and their latency_ns,
 *     the value rpcsim's own per-refill figures are made of;
 *   - per pool (its pointer, per process; a pointer seen again after its
 *     page_pool_release is a new pool): the state_hold and state_release
 *     events, and what page_pool_release said at destroy.  A pool
 *     balances when holds - releases is the inflight it reported, and
 *     that is 0: every page it took came back.
 *
 * A worker reading a time range (reader.h, "Folded in the workers")
 * does not fold these: a pool's books span the ranges, so a trace with
 * page_pool events is read by time in one process (worker.c).
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "reader.h"
#include "result_schema.h"
#include "ppool.h"

struct ppv_mode {
	int64_t pid;
	uint32_t mode;		/* a mode index, or 3: another value */
	uint64_t refills, pages, alloc_calls, empty;
	struct lat_stats lat;	/* latency_ns */
};

struct ppv_pool {
	int64_t pid;
	uint64_t pool;
	uint64_t holds, releases, refills;
	uint64_t hold_count, release_count;	/* the last ones read */
	uint32_t mode;		/* of its refills; MODE_UNKNOWN */
	bool destroyed;
	bool modes_differ;
	int64_t inflight;	/* page_pool_release's */
	uint64_t d_hold, d_release;
};

struct ppool_view {
	uint64_t events;
	struct ppv_mode *modes;
	unsigned int nr_modes, cap_modes;
	struct ppv_pool *pools;
	unsigned int nr_pools, cap_pools;
	unsigned int last;	/* the pool of the latest event */
};

static struct ppool_view *view(struct analysis *a)
{
	if (!a->ppv)
		a->ppv = xcalloc(1, sizeof(*a->ppv));
	return a->ppv;
}

uint64_t ppool_events(const struct analysis *a)
{
	return a->ppv ? a->ppv->events : 0;
}

void ppool_free(struct analysis *a)
{
	struct ppool_view *v = a->ppv;

	if (!v)
		return;
	for (unsigned int i = 0; i < v->nr_modes; i++)
		lat_free(&v->modes[i].lat);
	free(v->modes);
	free(v->pools);
	free(v);
	a->ppv = NULL;
}

static struct ppv_mode *mode_get(struct ppool_view *v, int64_t pid,
				 uint32_t mode)
{
	struct ppv_mode *m;

	for (unsigned int i = 0; i < v->nr_modes; i++)
		if (v->modes[i].pid == pid && v->modes[i].mode == mode)
			return &v->modes[i];
	if (v->nr_modes == v->cap_modes) {
		v->cap_modes = v->cap_modes ? 2 * v->cap_modes : 4;
		v->modes = xrealloc(v->modes, v->cap_modes, sizeof(*v->modes));
	}
	m = &v->modes[v->nr_modes++];
	memset(m, 0, sizeof(*m));
	m->pid = pid;
	m->mode = mode;
	if (lat_init(&m->lat))
		oom_exit();
	return m;
}

/* The pool @pool of @pid as it is now: a new one after its release. */
static struct ppv_pool *pool_get(struct ppool_view *v, int64_t pid,
				 uint64_t pool)
{
	struct ppv_pool *p = NULL;
	unsigned int i;

	if (v->last < v->nr_pools && v->pools[v->last].pid == pid &&
	    v->pools[v->last].pool == pool)
		p = &v->pools[v->last];
	for (i = v->nr_pools; !p && i-- > 0;)
		if (v->pools[i].pid == pid && v->pools[i].pool == pool) {
			p = &v->pools[i];
			v->last = i;
		}
	if (p && !p->destroyed)
		return p;
	if (v->nr_pools == v->cap_pools) {
		v->cap_pools = v->cap_pools ? 2 * v->cap_pools : 8;
		v->pools = xrealloc(v->pools, v->cap_pools, sizeof(*v->pools));
	}
	v->last = v->nr_pools++;
	p = &v->pools[v->last];
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	p->pool = pool;
	p->mode = MODE_UNKNOWN;
	return p;
}

void ppool_fold(struct analysis *a, const struct process *proc,
		const struct rec *rc)
{
	struct ppool_view *v = view(a);
	int64_t pid = proc ? proc->pid : PID_UNKNOWN;
	struct ppv_pool *p;
	struct ppv_mode *m;
	uint32_t mode;

	v->events++;
	switch (rc->kind) {
	case EV_PP_HOLD:
		p = pool_get(v, pid, rc->v[PH_pool]);
		p->holds++;
		p->hold_count = rc->v[PH_hold];
		break;
	case EV_PP_PUT:
		p = pool_get(v, pid, rc->v[PU_pool]);
		p->releases++;
		p->release_count = rc->v[PU_release];
		break;
	case EV_PP_DESTROY:
		p = pool_get(v, pid, rc->v[PD_pool]);
		p->destroyed = true;
		p->inflight = (int64_t)rc->v[PD_inflight];
		p->d_hold = rc->v[PD_hold];
		p->d_release = rc->v[PD_release];
		break;
	case EV_PP_SLOW:
		mode = rec_enum(rc, PS_mode, MT_ENUM_MODE);
		p = pool_get(v, pid, rc->v[PS_pool]);
		p->refills++;
		if (p->mode != MODE_UNKNOWN && p->mode != mode)
			p->modes_differ = true;
		p->mode = mode;
		m = mode_get(v, pid, mode);
		m->refills++;
		m->pages += rc->v[PS_allocated];
		m->alloc_calls += rc->v[PS_alloc_calls];
		m->empty += !rc->v[PS_allocated];
		lat_add(&m->lat, rc->v[PS_latency_ns]);
		break;
	default:
		break;
	}
}

/* report */

static bool shown(const struct report_options *o, int64_t pid)
{
	return o->pid == PID_UNKNOWN || o->pid == pid;
}

static int mode_cmp(const void *x, const void *y)
{
	const struct ppv_mode *a = x, *b = y;

	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	return a->mode < b->mode ? -1 : a->mode > b->mode;
}

static const char *const mode_names[] = { "Single page", "Bulk list",
					  "Bulk array", "Other mode" };

static const char *mode_key(uint32_t mode)
{
	const char *const *labels = schema_enum_labels(MT_ENUM_MODE);

	return mode < schema_enum_count(MT_ENUM_MODE) ? labels[mode] : NULL;
}

static double ratio(uint64_t x, uint64_t n)
{
	return n ? (double)x / (double)n : 0;
}

/* Several processes among the shown tables: their pid is in each label. */
static bool many_pids(const struct ppool_view *v,
		      const struct report_options *o)
{
	int64_t first = 0;
	bool have = false;

	for (unsigned int i = 0; i < v->nr_modes; i++) {
		if (!shown(o, v->modes[i].pid))
			continue;
		if (have && v->modes[i].pid != first)
			return true;
		first = v->modes[i].pid;
		have = true;
	}
	for (unsigned int i = 0; i < v->nr_pools; i++) {
		if (!shown(o, v->pools[i].pid))
			continue;
		if (have && v->pools[i].pid != first)
			return true;
		first = v->pools[i].pid;
		have = true;
	}
	return false;
}

/*
 * Whether pool @p balances; its line in @line: "H holds, R releases, I in
 * flight at destroy: balanced", or what is wrong.
 */
static bool pool_balanced(const struct ppv_pool *p, char *line, size_t len)
{
	char c1[32], c2[32], c3[32], c4[32], why[128];
	int64_t held = (int64_t)(p->holds - p->releases);
	bool ok = false;

	if (!p->destroyed)
		snprintf(why, sizeof(why), "not destroyed in the trace, %"
			 PRId64 " pages held", held);
	else if (held != p->inflight)
		snprintf(why, sizeof(why), "but holds - releases is %" PRId64
			 " (events lost?)", held);
	else if (p->inflight)
		snprintf(why, sizeof(why), "a leak");
	else if (p->d_hold != p->holds || p->d_release != p->releases)
		snprintf(why, sizeof(why), "but the pool counted %s holds, "
			 "%s releases (events lost?)",
			 fmt_thousands(c1, sizeof(c1), p->d_hold),
			 fmt_thousands(c2, sizeof(c2), p->d_release));
	else {
		snprintf(why, sizeof(why), "balanced");
		ok = true;
	}
	if (p->destroyed)
		snprintf(line, len, "%s holds, %s releases, %" PRId64 " in "
			 "flight at destroy: %s",
			 fmt_thousands(c3, sizeof(c3), p->holds),
			 fmt_thousands(c4, sizeof(c4), p->releases),
			 p->inflight, why);
	else
		snprintf(line, len, "%s holds, %s releases, %s",
			 fmt_thousands(c3, sizeof(c3), p->holds),
			 fmt_thousands(c4, sizeof(c4), p->releases), why);
	return ok;
}

static const char *pid_label(int64_t pid, char *buf, size_t len)
{
	if (pid == PID_UNKNOWN)
		snprintf(buf, len, "pid unknown");
	else
		snprintf(buf, len, "pid %" PRId64, pid);
	return buf;
}

void ppool_warnings(const struct analysis *a, const struct report_options *o,
		    void (*say)(void *data, const char *msg), void *data)
{
	const struct ppool_view *v = a->ppv;
	char why[256], msg[400], pb[48];

	if (!v)
		return;
	for (unsigned int i = 0; i < v->nr_pools; i++) {
		const struct ppv_pool *p = &v->pools[i];

		if (!shown(o, p->pid) || pool_balanced(p, why, sizeof(why)))
			continue;
		snprintf(msg, sizeof(msg), "page_pool 0x%" PRIx64 " (%s): %s",
			 p->pool, pid_label(p->pid, pb, sizeof(pb)), why);
		say(data, msg);
	}
}

static void sort_modes(const struct ppool_view *v)
{
	if (v->nr_modes > 1)
		qsort(v->modes, v->nr_modes, sizeof(*v->modes), mode_cmp);
}

void ppool_text(const struct analysis *a, const struct report_options *o,
		FILE *out)
{
	const struct ppool_view *v = a->ppv;
	char c1[32], c2[32], lab[96], pb[48], why[256];
	bool many;

	if (!v || !v->events)
		return;
	sort_modes(v);
	many = many_pids(v, o);
	fprintf(out, "page_pool: %s events\n",
		fmt_thousands(c1, sizeof(c1), v->events));
	for (unsigned int i = 0; i < v->nr_modes; i++) {
		const struct ppv_mode *m = &v->modes[i];
		const char *name = mode_names[m->mode < 3 ? m->mode : 3];

		if (!shown(o, m->pid))
			continue;
		if (many) {
			snprintf(lab, sizeof(lab), "%s (%s):", name,
				 pid_label(m->pid, pb, sizeof(pb)));
		} else {
			snprintf(lab, sizeof(lab), "%s:", name);
		}
		fprintf(out, "%-12s%7.3f us per refill over %s refills\n", lab,
			lat_mean(&m->lat) / 1000.0,
			fmt_thousands(c1, sizeof(c1), m->refills));
		fprintf(out, "  %-12s %.2f pages, %.3f allocator calls (%s "
			"pages in all, %s refills got none)\n", "per refill:",
			ratio(m->pages, m->refills),
			ratio(m->alloc_calls, m->refills),
			fmt_thousands(c1, sizeof(c1), m->pages),
			fmt_thousands(c2, sizeof(c2), m->empty));
	}
	for (unsigned int i = 0; i < v->nr_pools; i++) {
		const struct ppv_pool *p = &v->pools[i];

		if (!shown(o, p->pid))
			continue;
		pool_balanced(p, why, sizeof(why));
		fprintf(out, "  pool 0x%" PRIx64 " (%s%s%s): %s\n", p->pool,
			pid_label(p->pid, pb, sizeof(pb)),
			p->mode == MODE_UNKNOWN ? "" : ", ",
			p->mode == MODE_UNKNOWN ? "" :
			mode_key(p->mode) ? mode_key(p->mode) : "other", why);
	}
}

void ppool_json(const struct analysis *a, const struct report_options *o,
		struct json *j)
{
	const struct ppool_view *v = a->ppv;
	char why[256], hex[24];

	if (!v || !v->events)
		return;
	sort_modes(v);
	json_object_begin(j, RK(analyze_doc, page_pool));
	json_uint(j, RK(analyze_page_pool, events), v->events);
	json_array_begin(j, RK(analyze_page_pool, modes));
	for (unsigned int i = 0; i < v->nr_modes; i++) {
		const struct ppv_mode *m = &v->modes[i];

		if (!shown(o, m->pid))
			continue;
		json_object_begin(j, NULL);
		if (m->pid == PID_UNKNOWN)
			json_null(j, RK(analyze_pp_mode, pid));
		else
			json_int(j, RK(analyze_pp_mode, pid), m->pid);
		json_string(j, RK(analyze_pp_mode, mode), mode_key(m->mode));
		json_uint(j, RK(analyze_pp_mode, refills), m->refills);
		json_uint(j, RK(analyze_pp_mode, pages), m->pages);
		json_uint(j, RK(analyze_pp_mode, alloc_calls), m->alloc_calls);
		json_uint(j, RK(analyze_pp_mode, empty), m->empty);
		json_double(j, RK(analyze_pp_mode, pages_per_refill),
			    ratio(m->pages, m->refills), 3);
		json_double(j, RK(analyze_pp_mode, mean_ns),
			    lat_mean(&m->lat), 3);
		json_double(j, RK(analyze_pp_mode, mean_us),
			    lat_mean(&m->lat) / 1000.0, 3);
		json_uint(j, RK(analyze_pp_mode, min_ns),
			  m->refills ? m->lat.hist->min : 0);
		json_uint(j, RK(analyze_pp_mode, max_ns), m->lat.hist->max);
		json_uint(j, RK(analyze_pp_mode, sum_ns), m->lat.hist->sum);
		json_object_end(j);
	}
	json_array_end(j);
	json_array_begin(j, RK(analyze_page_pool, pools));
	for (unsigned int i = 0; i < v->nr_pools; i++) {
		const struct ppv_pool *p = &v->pools[i];

		if (!shown(o, p->pid))
			continue;
		json_object_begin(j, NULL);
		if (p->pid == PID_UNKNOWN)
			json_null(j, RK(analyze_pp_pool, pid));
		else
			json_int(j, RK(analyze_pp_pool, pid), p->pid);
		snprintf(hex, sizeof(hex), "0x%" PRIx64, p->pool);
		json_string(j, RK(analyze_pp_pool, pool), hex);
		json_string(j, RK(analyze_pp_pool, mode),
			    p->mode == MODE_UNKNOWN || p->modes_differ ? NULL :
			    mode_key(p->mode));
		json_uint(j, RK(analyze_pp_pool, refills), p->refills);
		json_uint(j, RK(analyze_pp_pool, holds), p->holds);
		json_uint(j, RK(analyze_pp_pool, releases), p->releases);
		json_uint(j, RK(analyze_pp_pool, hold_count),
			  p->destroyed ? p->d_hold : p->hold_count);
		json_uint(j, RK(analyze_pp_pool, release_count),
			  p->destroyed ? p->d_release : p->release_count);
		json_bool(j, RK(analyze_pp_pool, destroyed), p->destroyed);
		if (p->destroyed)
			json_int(j, RK(analyze_pp_pool, inflight), p->inflight);
		else
			json_null(j, RK(analyze_pp_pool, inflight));
		json_bool(j, RK(analyze_pp_pool, balanced),
			  pool_balanced(p, why, sizeof(why)));
		json_string(j, RK(analyze_pp_pool, balance), why);
		json_object_end(j);
	}
	json_array_end(j);
	json_object_end(j);
}
