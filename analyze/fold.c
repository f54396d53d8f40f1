/* SPDX-License-Identifier: MIT */
/*
 * The fold layer (reader.c): records into struct analysis.  A record's
 * process is its vpid's; a process's run is the one between its
 * run_start and run_end, and a call's entry and exit are paired per
 * thread, by trace key and vtid, in thread slots.  A worker of a later
 * time range folds from a state it does not know, standing in for it
 * (struct reader, "edge").
 */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader.h"
#include "ppool.h"

/* A decoder's class number -> pagepool name index + 1 (0: not yet). */
struct pp_map {
	unsigned int *v;
	unsigned int n;
};

/* groups */

static void group_free(struct group *g)
{
	group_stats_free(g);
	free(g->cfg.mode_name);
	free(g->cfg.completion);
	free(g->cfg.version);
	free(g->cfg.backend);
	free(g->cfg.contract);
	free(g);
}

struct process *process_get(struct analysis *a, int64_t pid)
{
	struct process *p;
	unsigned int i;

	for (i = 0; i < a->nr_procs; i++)
		if (a->procs[i]->pid == pid)
			return a->procs[i];
	a->procs = xrealloc(a->procs, a->nr_procs + 1, sizeof(*a->procs));
	p = xcalloc(1, sizeof(*p));
	p->pid = pid;
	p->run_pid = PID_UNKNOWN;
	a->procs[a->nr_procs++] = p;
	return p;
}

struct group *group_get(struct analysis *a, struct process *p, uint32_t mode,
			int64_t run)
{
	struct group *g;
	unsigned int i;

	for (i = 0; i < a->nr_groups; i++)
		if (a->groups[i]->proc == p && a->groups[i]->mode == mode &&
		    a->groups[i]->run == run)
			return a->groups[i];
	if (a->nr_groups == a->cap_groups) {
		unsigned int cap = a->cap_groups ? 2 * a->cap_groups : 8;

		a->groups = xrealloc(a->groups, cap, sizeof(*a->groups));
		a->cap_groups = cap;
	}
	g = xcalloc(1, sizeof(*g));
	g->proc = p;
	g->mode = mode;
	g->run = run;
	g->cfg.pid = PID_UNKNOWN;
	if (group_stats_init(g))
		oom_exit();
	a->groups[a->nr_groups++] = g;
	return g;
}

void analysis_free(struct analysis *a)
{
	unsigned int i;

	for (i = 0; i < a->nr_groups; i++)
		group_free(a->groups[i]);
	free(a->groups);
	for (i = 0; i < a->nr_procs; i++) {
		free(a->procs[i]->procname);
		free(a->procs[i]);
	}
	free(a->procs);
	for (i = 0; i < a->nr_traces; i++)
		free(a->traces[i]);
	free(a->traces);
	for (i = 0; i < a->nr_pp; i++)
		free(a->pp_names[i]);
	free(a->read_error);
	free(a->corrupt);
	ppool_free(a);
	memset(a, 0, sizeof(*a));
}

/* Forget what was folded: the traces are read again. */
void analysis_clear(struct analysis *a)
{
	char **traces = a->traces;
	unsigned int n = a->nr_traces;

	a->traces = NULL;
	a->nr_traces = 0;
	analysis_free(a);
	a->traces = traces;
	a->nr_traces = n;
}

/* fold */

unsigned int pp_index(struct analysis *a, const char *name)
{
	unsigned int i;

	for (i = 0; i < a->nr_pp; i++)
		if (!strcmp(a->pp_names[i], name))
			return i;
	if (a->nr_pp == PP_EVENTS_MAX)
		return PP_EVENTS_MAX;
	a->pp_names[a->nr_pp] = xstrdup(name);
	return a->nr_pp++;
}

/*
 * The pagepool name index of an event of class rc->cls from record source
 * @src: given a number at the first event of its name, as the names come.
 */
static unsigned int rec_pp(struct reader *r, unsigned int src,
			   const struct rec *rc)
{
	struct pp_map *m = &r->ppm[src];

	if (rc->cls >= m->n) {
		unsigned int n = rc->cls + 16;
		unsigned int *v = xrealloc(m->v, n, sizeof(*v));

		memset(v + m->n, 0, (n - m->n) * sizeof(*v));
		m->v = v;
		m->n = n;
	}
	if (!m->v[rc->cls]) {
		const char *name = rec_str(rc, S_PP);

		m->v[rc->cls] = (name ? pp_index(r->a, name) :
				 PP_EVENTS_MAX) + 1;
	}
	return m->v[rc->cls] - 1;
}

static inline unsigned int thr_hash(uint64_t trace, int64_t vtid,
				    unsigned int mask)
{
	return mix_hash(trace ^ (uint64_t)vtid * 0x9e3779b97f4a7c15ULL, mask);
}

static void thr_grow(struct reader *r)
{
	struct thread_slot *old = r->threads;
	unsigned int old_size = r->thr_size, i;

	r->thr_size = old_size ? 2 * old_size : 256;
	r->threads = xcalloc(r->thr_size, sizeof(*r->threads));
	for (i = 0; i < old_size; i++) {
		unsigned int j;

		if (!old[i].used)
			continue;
		j = thr_hash(old[i].trace, old[i].vtid, r->thr_size - 1);
		while (r->threads[j].used)
			j = (j + 1) & (r->thr_size - 1);
		r->threads[j] = old[i];
	}
	free(old);
}

struct thread_slot *thr_lookup(struct reader *r, uint64_t trace,
			       int64_t vtid)
{
	unsigned int j;

	if (2 * (r->thr_used + 1) > r->thr_size)
		thr_grow(r);
	j = thr_hash(trace, vtid, r->thr_size - 1);
	while (r->threads[j].used &&
	       (r->threads[j].trace != trace || r->threads[j].vtid != vtid))
		j = (j + 1) & (r->thr_size - 1);
	if (!r->threads[j].used) {
		r->threads[j].used = true;
		r->threads[j].in = r->edge;
		r->threads[j].trace = trace;
		r->threads[j].vtid = vtid;
		r->thr_used++;
	}
	return &r->threads[j];
}

/*
 * The process a record belongs to (reader.c's comment at the top); its
 * procname from the first event that carries one.
 */
struct process *rec_process(struct reader *r, const struct rec *rc)
{
	const char *name = rec_str(rc, S_PROCNAME);
	struct process *p;

	if (r->last_proc && r->last_proc->pid == rc->vpid)
		p = r->last_proc;
	else
		p = r->last_proc = process_get(r->a, rc->vpid);
	if (name && !p->procname)
		p->procname = xstrdup(name);
	if (__builtin_expect(r->edge, 0) && !p->last_entry) {
		/*
		 * Its first event here (last_entry is never NULL after):
		 * it came in with a state only the parent knows.
		 */
		p->cur = group_get(r->a, p, MODE_UNKNOWN, RUN_CUR_IN);
		p->last_entry = group_get(r->a, p, MODE_UNKNOWN, RUN_LAST_IN);
	}
	return p;
}

/* A stand-in group is used: what that assumes of the state that came in. */
static void assume_in(struct process *p, const struct group *g)
{
	p->assume |= g->run == RUN_CUR_IN ? AS_CUR : AS_LAST;
}

/*
 * An entry of @mode, or the run_end of (@mode, @run) with @is, while cur
 * is as it came in: it is assumed to be that run, or of that mode.
 */
static void assume_cur(struct reader *r, struct process *p, uint32_t mode,
		       int64_t run, bool is)
{
	if ((p->assume & AS_MODE) && p->assume_mode != mode)
		r->edge_fail = true;
	p->assume |= AS_CUR | AS_MODE;
	p->assume_mode = mode;
	if (is) {
		p->assume |= AS_IS;
		p->assume_run = run;
	}
}

/* Where a process's events that carry no mode of their own are counted. */
static inline struct group *context_group(struct process *p)
{
	struct group *g = p->cur ? p->cur : p->last_entry;

	if (__builtin_expect(g && g->run < RUN_UNKNOWN, 0))
		assume_in(p, g);
	return g;
}

struct gkey group_key(const struct group *g)
{
	struct gkey k = { .none = !g };

	if (g) {
		k.pid = g->proc->pid;
		k.mode = g->mode;
		k.run = g->run;
	}
	return k;
}

/* A later range's worker: @rc is left to the parent (struct pend). */
static void pend_add(struct reader *r, enum pend_what what,
		     struct process *p, const struct rec *rc)
{
	struct pend *e;

	if (r->nr_pend == r->cap_pend) {
		r->cap_pend = r->cap_pend ? 2 * r->cap_pend : 64;
		r->pend = xrealloc(r->pend, r->cap_pend, sizeof(*r->pend));
	}
	e = &r->pend[r->nr_pend++];
	memset(e, 0, sizeof(*e));
	e->what = (uint8_t)what;
	e->cur = group_key(p->cur);
	e->last = group_key(p->last_entry);
	e->rc = *rc;
	e->rc.strs = 0;
}

/* ... or, outside any run and call, in the process's unknown mode. */
static struct group *context_group_any(struct reader *r, struct process *p)
{
	struct group *g = context_group(p);

	return g ? g : group_get(r->a, p, MODE_UNKNOWN, RUN_UNKNOWN);
}

static char *rec_strdup(const struct rec *rc, unsigned int i)
{
	const char *s = rec_str(rc, i);

	return s ? xstrdup(s) : NULL;
}

static void on_run_start(struct reader *r, struct process *proc,
			 const struct rec *rc)
{
	uint32_t mode = (uint32_t)rc->v[RS_mode];
	int64_t run = (int64_t)(uint32_t)rc->v[RS_run];
	bool have_pid = rc->present & (1u << RS_pid);
	struct group *g;
	struct run_config *c;

	g = group_get(r->a, proc, mode, run);
	c = &g->cfg;
	if (have_pid) {
		int64_t pid = (int64_t)rc->v[RS_pid];

		if (proc->run_pid == PID_UNKNOWN)
			proc->run_pid = pid;
		else if (proc->run_pid != pid && !proc->run_pids_differ) {
			proc->run_pids_differ = true;
			r->a->mixed_pids++;
		}
	}
	if (g->nr_starts++) {
		r->a->run_start_twice++;
	} else {
		c->pid = have_pid ? (int64_t)rc->v[RS_pid] : PID_UNKNOWN;
		c->mode_name = rec_strdup(rc, RS_mode_name);
		c->threads = rc->v[RS_threads];
		c->slots = rc->v[RS_slots];
		c->io_size = rc->v[RS_io_size];
		c->max_payload = rc->v[RS_max_payload];
		c->pool_pages = rc->v[RS_pool_pages];
		c->file_pages = rc->v[RS_file_pages];
		c->pcp_batch = rc->v[RS_pcp_batch];
		c->pcp_high = rc->v[RS_pcp_high];
		c->completion = rec_strdup(rc, RS_completion);
		c->read_weight = rc->v[RS_read_weight];
		c->write_weight = rc->v[RS_write_weight];
		c->seed = rc->v[RS_seed];
		c->version = rec_strdup(rc, RS_version);
		c->backend = rec_strdup(rc, RS_backend);
		c->contract = rec_strdup(rc, RS_bulk_variant);
		c->tcp_read = rc->v[RS_tcp_read];
		c->run_seq = rc->v[RS_run_seq];
	}
	proc->cur = g;
}

static void on_run_end(struct reader *r, struct process *proc,
		       const struct rec *rc)
{
	uint32_t mode = (uint32_t)rc->v[RE_mode];
	int64_t run = (int64_t)(uint32_t)rc->v[RE_run];
	struct group *g = group_get(r->a, proc, mode, run);

	g->nr_ends++;
	g->end.calls += rc->v[RE_calls];
	g->end.pages += rc->v[RE_pages];
	g->end.latency_sum_ns += rc->v[RE_latency_sum_ns];
	g->end.requests += rc->v[RE_requests];
	g->end.no_progress += rc->v[RE_no_progress];
	g->end.short_reads += rc->v[RE_short_reads];
	if (proc->cur == g) {
		proc->cur = NULL;
	} else if (proc->cur && proc->cur->run == RUN_CUR_IN) {
		/* the run that came in, surely: checked by the parent */
		assume_cur(r, proc, mode, run, true);
		proc->cur = NULL;
	}
}

static void on_call_entry(struct reader *r, struct process *proc,
			  const struct rec *rc)
{
	uint32_t mode = (uint32_t)rc->v[EN_mode];
	struct group *g;
	struct thread_slot *t;

	if (proc->cur && __builtin_expect(proc->cur->run == RUN_CUR_IN, 0)) {
		/* of the run that came in, surely: checked by the parent */
		assume_cur(r, proc, mode, 0, false);
		g = proc->cur;
	} else if (proc->cur && proc->cur->mode == mode) {
		g = proc->cur;
	} else {
		g = group_get(r->a, proc, mode, RUN_UNKNOWN);
	}
	g->sums.entry.events++;
	g->sums.entry.slots += rc->v[EN_slots];
	g->sums.entry.holes += rc->v[EN_holes];
	proc->last_entry = g;
	if (!(rc->flags & RF_VTID)) {
		g->no_vtid++;
		return;
	}
	r->a->have_vtid = true;
	if (!(rc->flags & RF_TS)) {
		g->no_timestamp++;
		return;
	}
	t = thr_lookup(r, rc->trace, rc->vtid);
	if (__builtin_expect(t->in, 0)) {
		pend_add(r, PEND_ENTRY, proc, rc);
		t->in = false;
	} else if (t->open) {
		t->g->entry_twice++;	/* that call's exit was lost */
	}
	t->open = true;
	t->lost = false;
	t->ts = rc->ts;
	t->g = g;
}

/*
 * a - b, held within [-INT64_MAX, INT64_MAX]: a corrupted trace can carry
 * any timestamp and any latency_ns, and the difference must neither
 * overflow nor be INT64_MIN, whose negation (diff_add()) would.
 */
static inline int64_t sub_sat(int64_t a, int64_t b)
{
	int64_t d;

	if (__builtin_sub_overflow(a, b, &d))
		return b < 0 ? INT64_MAX : -INT64_MAX;
	return d < -INT64_MAX ? -INT64_MAX : d;
}

void on_call_exit(struct reader *r, struct process *proc,
		  const struct rec *rc)
{
	uint64_t lat = rc->v[EX_latency_ns];
	struct thread_slot *t = NULL;
	struct group *g = NULL;

	if (rc->flags & RF_VTID) {
		r->a->have_vtid = true;
		t = thr_lookup(r, rc->trace, rc->vtid);
		if (__builtin_expect(t->in, 0)) {
			pend_add(r, PEND_EXIT, proc, rc);
			t->in = false;
			t->open = false;
			t->lost = false;
			return;
		}
	}
	if (t && t->open) {
		g = t->g;
		t->open = false;
		if (rc->flags & RF_TS) {
			int64_t dt = sub_sat(rc->ts, t->ts);

			if (dt < 0)	/* cannot happen in a muxed trace */
				dt = 0;
			lat_add(&g->stamps, (uint64_t)dt);
			diff_add(&g->diff, sub_sat(dt, lat > INT64_MAX ?
						   INT64_MAX : (int64_t)lat));
		} else {
			g->no_timestamp++;
		}
	} else if (t && t->lost) {
		/* its entry was open when events were discarded */
		g = t->g;
		t->lost = false;
	} else {
		g = context_group_any(r, proc);
		if (t)
			g->exit_no_entry++;
		else
			g->no_vtid++;
	}
	lat_add(&g->field, lat);
	/*
	 * By refill size: an exit without allocated would read as 0 pages,
	 * one page, so it goes in neither kind.  Every rpcsim writes the
	 * field, so the branch always goes one way; the second hist_add()
	 * per exit cost no throughput measurable above the noise on a
	 * 2-million-event rpcsim trace.
	 */
	if (rc->present & (1u << EX_allocated))
		hist_add(g->refill[by_refill_of(rc->v[EX_allocated])], lat);
	g->sums.exit.allocated += rc->v[EX_allocated];
	g->sums.exit.alloc_calls += rc->v[EX_alloc_calls];
	g->sums.exit.retries += rc->v[EX_retries];
}

void on_err(struct reader *r, struct process *proc,
	    const struct rec *rc)
{
	struct group *g = NULL;

	if (rc->flags & RF_VTID) {
		struct thread_slot *t = thr_lookup(r, rc->trace, rc->vtid);

		if (__builtin_expect(t->in, 0)) {
			pend_add(r, PEND_ERR, proc, rc);
			return;
		}
		if (t->open)
			g = t->g;
	}
	if (!g)
		g = context_group_any(r, proc);
	g->sums.err.events++;
	g->sums.err.requested += rc->v[ER_requested];
	g->sums.err.allocated += rc->v[ER_allocated];
}

static void on_request(struct process *proc, const struct rec *rc)
{
	struct group *g = context_group(proc);

	if (!g)
		return;
	g->requests++;
	g->sums.request.op[rec_enum(rc, RQ_op, MT_ENUM_OP)]++;
	g->sums.request.bytes += rc->v[RQ_bytes];
	g->sums.request.pages += rc->v[RQ_request_pages];
}

static void on_recv_short(struct process *proc, const struct rec *rc)
{
	struct group *g = context_group(proc);

	if (!g)
		return;
	g->sums.recv_short.events++;
	g->sums.recv_short.expected += rc->v[RR_expected];
	g->sums.recv_short.received += rc->v[RR_received];
}

static void on_alloc_bulk(struct group *g, const struct rec *rc)
{
	struct bulk_sums *s = &g->sums.bulk;

	s->calls++;
	s->requested += rc->v[BK_requested];
	s->populated += rc->v[BK_populated];
	s->allocated += rc->v[BK_allocated];
	s->api[rec_enum(rc, BK_variant, MT_ENUM_BULK_API)]++;
	s->fallback[rec_enum(rc, BK_fallback, MT_ENUM_FALLBACK)]++;
}

static void on_event(struct reader *r, unsigned int src, const struct rec *rc)
{
	struct analysis *a = r->a;
	struct process *proc;
	struct group *g;
	unsigned int pp;

	a->events++;
	if (rc->kind == EV_OTHER)
		return;
	proc = rec_process(r, rc);
	switch (rc->kind) {
	case EV_PAGEPOOL:
	case EV_ALLOC_BULK:
		a->pagepool_events++;
		pp = rec_pp(r, src, rc);
		g = context_group(proc);
		if (!g) {
			a->pp_outside++;
			return;
		}
		if (pp < PP_EVENTS_MAX)
			g->pp[pp]++;
		else
			a->pp_overflow++;
		if (rc->kind == EV_ALLOC_BULK)
			on_alloc_bulk(g, rc);
		return;
	case EV_PP_HOLD:
	case EV_PP_PUT:
	case EV_PP_DESTROY:
	case EV_PP_SLOW:
		ppool_fold(a, proc, rc);
		return;
	default:
		break;
	}
	a->rpcsim_events++;
	switch (rc->kind) {
	case EV_ENTRY:
		on_call_entry(r, proc, rc);
		break;
	case EV_EXIT:
		on_call_exit(r, proc, rc);
		break;
	case EV_ERR:
		on_err(r, proc, rc);
		break;
	case EV_REQUEST:
		on_request(proc, rc);
		break;
	case EV_RECV_SHORT:
		on_recv_short(proc, rc);
		break;
	case EV_RUN_START:
		on_run_start(r, proc, rc);
		break;
	case EV_RUN_END:
		on_run_end(r, proc, rc);
		break;
	case EV_BAD:
		a->bad_schema++;
		break;
	default:
		break;
	}
}

/*
 * Events were discarded (the message comes at the start of the gap): a
 * call open now may have lost its exit, and the next exit of its thread
 * may belong to a later call whose entry was lost, so the open calls are
 * not timed by timestamps.  They are counted apart, and their exits (if
 * any) still count for latency_ns.
 */
static void on_discard(struct reader *r)
{
	unsigned int i;

	for (i = 0; i < r->thr_size; i++) {
		struct thread_slot *t = &r->threads[i];

		if (t->used && t->open) {
			t->open = false;
			t->lost = true;
			t->g->across_discard++;
		}
	}
}

/* The first impossible count: a->corrupt, naming the stream. */
static void on_impossible_gap(struct analysis *a, const char *name,
			      uint64_t n, const char *counter, uint64_t max)
{
	char c1[32], c2[32], buf[PATH_MAX + 256];

	if (a->corrupt)
		return;
	if (n >= 1ULL << 63)
		snprintf(buf, sizeof(buf), "%s: its %s went backwards (a "
			 "difference of %s, read as a count)",
			 name ? name : "a stream", counter,
			 fmt_thousands(c1, sizeof(c1), n));
	else
		snprintf(buf, sizeof(buf), "%s: its %s jumped by %s, more "
			 "than the %s one gap can lose",
			 name ? name : "a stream", counter,
			 fmt_thousands(c1, sizeof(c1), n),
			 fmt_thousands(c2, sizeof(c2), max));
	a->corrupt = xstrdup(buf);
}

/* Sums that cannot wrap: an impossible count is caught above first. */
static uint64_t add_sat(uint64_t x, uint64_t y)
{
	return x > UINT64_MAX - y ? UINT64_MAX : x + y;
}

/*
 * A discarded events or packets message into @l: its count, when it has
 * one, checked against @max, the most one gap of @counter can lose.
 */
static void on_loss(struct reader *r, const struct rec *rc, struct loss *l,
		    const char *counter, uint64_t max)
{
	l->msgs++;
	if (rc->flags & RF_COUNT) {
		if (rc->v[0] > max)
			on_impossible_gap(r->a, rec_str(rc, S_TEXT), rc->v[0],
					  counter, max);
		l->count = add_sat(l->count, rc->v[0]);
	} else {
		l->unknown++;
	}
	on_discard(r);
}

/* Fold one record of source @src (a worker, or 0) into the analysis. */
void fold(struct reader *r, unsigned int src, const struct rec *rc)
{
	struct analysis *a = r->a;

	switch (rc->type) {
	case R_EVENT:
		on_event(r, src, rc);
		break;
	case R_DISC_EVENTS:
		on_loss(r, rc, &a->discarded_events, "count of discarded "
			"events (events_discarded)", GAP_EVENTS_MAX);
		break;
	case R_DISC_PACKETS:
		on_loss(r, rc, &a->discarded_packets, "packet sequence number "
			"(packet_seq_num)", GAP_PACKETS_MAX);
		break;
	case R_READ_ERROR:
		if (!a->read_error && rec_str(rc, S_TEXT))
			a->read_error = xstrdup(rec_str(rc, S_TEXT));
		break;
	case R_END:
		a->events += rc->v[0];
		break;
	default:
		break;
	}
}

void reader_init(struct reader *r, struct analysis *a,
		 unsigned int sources)
{
	memset(r, 0, sizeof(*r));
	r->a = a;
	r->nr_ppm = sources;
	r->ppm = xcalloc(sources, sizeof(*r->ppm));
}

/* The end: calls still open lost their exit. */
void reader_finish(struct reader *r)
{
	unsigned int i;

	for (i = 0; i < r->thr_size; i++)
		if (r->threads[i].used && r->threads[i].open)
			r->threads[i].g->entry_no_exit++;
}

void reader_free(struct reader *r)
{
	unsigned int i;

	for (i = 0; i < r->nr_ppm; i++)
		free(r->ppm[i].v);
	free(r->ppm);
	free(r->threads);
	free(r->pend);
}
