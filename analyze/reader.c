/* SPDX-License-Identifier: MIT */
/*
 * Read the CTF traces with libbabeltrace2 and fold the events into
 * struct analysis.
 *
 * Graph: one source.ctf.fs component per trace directory ("src0",
 * "src1", ...: a failing component names its directory) -> one
 * filter.utils.muxer -> a simple sink.  The muxer is needed: with per-UID
 * buffers a stream holds one CPU's events, a thread that migrates spreads
 * over several streams, and pairing a thread's entry with its exit needs
 * the events in time order.
 *
 * Per event, the work is kept small: the event class is looked up in a
 * pointer-keyed cache that holds what the class is (entry, exit, ...) and
 * the index of each payload member, so there is no name lookup or strcmp()
 * per event; fields are read by index.  The members bound are the rows of
 * the trace schema (tracepoints/trace_schema.h, schema.c).
 *
 * Every event belongs to a process: the vpid context when the trace has
 * it, else the vpid of its trace (per-PID buffers), else one unknown
 * process.  Runs, and the run an event falls in, are per process, so two
 * processes traced into one session are never merged.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <babeltrace2/babeltrace.h>

#include "analyze.h"

enum ev_kind {
	EV_OTHER,		/* not ours: counted only */
	EV_RPCSIM_OTHER,	/* an rpcsim event this tool does not know */
	EV_BAD,			/* ours, but a required field is missing */
	EV_RUN_START,
	EV_RUN_END,
	EV_ENTRY,
	EV_EXIT,
	EV_ERR,
	EV_REQUEST,
	EV_PAGEPOOL,		/* counted by name */
	EV_ALLOC_BULK,		/* counted by name, and its fields read */
};

/* The kind of each schema event. */
static const enum ev_kind schema_kind[SE_NR] = {
	[SE_run_start] = EV_RUN_START,
	[SE_run_end] = EV_RUN_END,
	[SE_svc_alloc_arg_entry] = EV_ENTRY,
	[SE_svc_alloc_arg_exit] = EV_EXIT,
	[SE_svc_alloc_arg_err] = EV_ERR,
	[SE_request] = EV_REQUEST,
	[SE_mm_page_alloc_bulk] = EV_ALLOC_BULK,
};

/*
 * Payload member indexes, per event, in the schema's row order: RS_mode
 * is run_start's "mode", RE_calls run_end's "calls", and so on.
 */
#define IDX_RS(T, ctype, field, arg, need, report) RS_##field,
#define IDX_RE(T, ctype, field, arg, need, report) RE_##field,
#define IDX_EN(T, ctype, field, arg, need, report) EN_##field,
#define IDX_EX(T, ctype, field, arg, need, report) EX_##field,
#define IDX_ER(T, ctype, field, arg, need, report) ER_##field,
#define IDX_RQ(T, ctype, field, arg, need, report) RQ_##field,
#define IDX_BK(T, ctype, field, arg, need, report) BK_##field,
enum { TRACE_FIELDS_RUN_START(IDX_RS) RS_NR };
enum { TRACE_FIELDS_RUN_END(IDX_RE) RE_NR };
enum { TRACE_FIELDS_ENTRY(IDX_EN) EN_NR };
enum { TRACE_FIELDS_EXIT(IDX_EX) EX_NR };
enum { TRACE_FIELDS_ERR(IDX_ER) ER_NR };
enum { TRACE_FIELDS_REQUEST(IDX_RQ) RQ_NR };
enum { TRACE_FIELDS_ALLOC_BULK(IDX_BK) BK_NR };

#define M_MAX	24
_Static_assert(RS_NR <= M_MAX && RE_NR <= M_MAX && EN_NR <= M_MAX &&
	       EX_NR <= M_MAX && ER_NR <= M_MAX && RQ_NR <= M_MAX &&
	       BK_NR <= M_MAX, "M_MAX");

struct member {
	int16_t idx;		/* -1: absent */
	bool sgn;
	bool str;		/* an enumeration's value recorded as a string */
};

struct ev_info {
	const bt_event_class *ec;
	enum ev_kind kind;
	unsigned int pp;	/* EV_PAGEPOOL: index in a->pp_names */
	bool clock;		/* stream class has a default clock */
	struct member vtid;	/* in the common context */
	struct member vpid;
	struct member procname;
	const struct schema_field *spec;	/* the schema's rows */
	struct member m[M_MAX];
};

/* (trace, vtid) -> the open svc_alloc_arg call of that thread */
struct thread_slot {
	const bt_trace *trace;	/* NULL: free slot */
	int64_t vtid;
	bool open;
	bool lost;		/* open when events were discarded */
	int64_t ts;		/* entry timestamp, ns from origin */
	struct group *g;
};

struct reader {
	struct analysis *a;
	struct ev_info *evc;	/* open addressing on the class pointer */
	unsigned int evc_size;	/* power of two */
	unsigned int evc_used;
	struct ev_info *last;

	struct thread_slot *threads;
	unsigned int thr_size;	/* power of two */
	unsigned int thr_used;

	struct process *last_proc;	/* of the latest event */
	const bt_trace *env_trace;	/* the trace env_proc was found for */
	struct process *env_proc;	/* its process, from its environment */
};

static void oom_exit(void)
{
	fprintf(stderr, "rpcsim-analyze: out of memory\n");
	exit(1);
}

/* groups */

static void group_free(struct group *g)
{
	lat_free(&g->field);
	lat_free(&g->stamps);
	diff_free(&g->diff);
	free(g->cfg.mode_name);
	free(g->cfg.completion);
	free(g->cfg.version);
	free(g->cfg.backend);
	free(g->cfg.contract);
	free(g);
}

struct process *process_get(struct analysis *a, int64_t pid)
{
	struct process *p, **v;
	unsigned int i;

	for (i = 0; i < a->nr_procs; i++)
		if (a->procs[i]->pid == pid)
			return a->procs[i];
	v = realloc(a->procs, (a->nr_procs + 1) * sizeof(*v));
	if (!v)
		oom_exit();
	a->procs = v;
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
		struct group **v = realloc(a->groups, cap * sizeof(*v));

		if (!v)
			oom_exit();
		a->groups = v;
		a->cap_groups = cap;
	}
	g = xcalloc(1, sizeof(*g));
	g->proc = p;
	g->mode = mode;
	g->run = run;
	g->cfg.pid = PID_UNKNOWN;
	if (lat_init(&g->field) || lat_init(&g->stamps) || diff_init(&g->diff))
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
	memset(a, 0, sizeof(*a));
}

/* event class cache */

static struct member find_member(const bt_field_class *st, const char *name,
				 enum member_type type)
{
	struct member m = { .idx = -1 };
	uint64_t i, n;

	if (!st || bt_field_class_get_type(st) != BT_FIELD_CLASS_TYPE_STRUCTURE)
		return m;
	n = bt_field_class_structure_get_member_count(st);
	for (i = 0; i < n && i < INT16_MAX; i++) {
		const bt_field_class_structure_member *mb =
			bt_field_class_structure_borrow_member_by_index_const(st, i);
		bt_field_class_type t;

		if (strcmp(bt_field_class_structure_member_get_name(mb), name))
			continue;
		t = bt_field_class_get_type(
			bt_field_class_structure_member_borrow_field_class_const(mb));
		/* an enumeration is an integer too: either encoding */
		if (type != MT_STR &&
		    bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_INTEGER)) {
			m.idx = (int16_t)i;
			m.sgn = bt_field_class_type_is(t,
				BT_FIELD_CLASS_TYPE_SIGNED_INTEGER);
		} else if (type != MT_INT && t == BT_FIELD_CLASS_TYPE_STRING) {
			/* a string; for an enumeration, its label */
			m.idx = (int16_t)i;
			m.str = type != MT_STR;
		}
		break;
	}
	return m;
}

static bool bind_members(struct ev_info *e, const bt_field_class *payload,
			 const struct schema_field *spec)
{
	bool ok = true;
	unsigned int i;

	e->spec = spec;
	for (i = 0; spec[i].name; i++) {
		e->m[i] = find_member(payload, spec[i].name, spec[i].type);
		if (e->m[i].idx < 0 && spec[i].need)
			ok = false;
	}
	return ok;
}

static unsigned int pp_index(struct reader *r, const char *name)
{
	struct analysis *a = r->a;
	unsigned int i;

	for (i = 0; i < a->nr_pp; i++)
		if (!strcmp(a->pp_names[i], name))
			return i;
	if (a->nr_pp == PP_EVENTS_MAX)
		return PP_EVENTS_MAX;
	a->pp_names[a->nr_pp] = xstrdup(name);
	return a->nr_pp++;
}

static void classify(struct reader *r, struct ev_info *e,
		     const bt_event_class *ec)
{
	const bt_stream_class *sc = bt_event_class_borrow_stream_class_const(ec);
	const bt_field_class *payload =
		bt_event_class_borrow_payload_field_class_const(ec);
	const bt_field_class *ctx =
		bt_stream_class_borrow_event_common_context_field_class_const(sc);
	const char *name = bt_event_class_get_name(ec);
	const char *colon = name ? strchr(name, ':') : NULL;
	unsigned int i;

	e->ec = ec;
	e->kind = EV_OTHER;
	for (i = 0; i < M_MAX; i++)
		e->m[i].idx = -1;
	e->clock = bt_stream_class_borrow_default_clock_class_const(sc) != NULL;
	e->vtid = find_member(ctx, "vtid", MT_INT);
	e->vpid = find_member(ctx, "vpid", MT_INT);
	e->procname = find_member(ctx, "procname", MT_STR);
	if (!colon)
		return;
	if (!strncmp(name, "pagepool:", 9)) {
		e->kind = EV_PAGEPOOL;
		e->pp = pp_index(r, name + 9);
	} else if (!strncmp(name, "rpcsim:", 7)) {
		e->kind = EV_RPCSIM_OTHER;
	} else {
		return;
	}
	for (i = 0; i < SE_NR; i++) {
		const struct schema_event *se = &schema_events[i];
		size_t n = strlen(se->provider);

		if (strncmp(name, se->provider, n) || name[n] != ':' ||
		    strcmp(name + n + 1, se->event))
			continue;
		if (!bind_members(e, payload, se->fields))
			e->kind = e->kind == EV_PAGEPOOL ? EV_PAGEPOOL : EV_BAD;
		else
			e->kind = schema_kind[i];
		break;
	}
}

static inline unsigned int mix_hash(uint64_t x, unsigned int mask)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return (unsigned int)x & mask;
}

static inline unsigned int ptr_hash(const void *p, unsigned int mask)
{
	return mix_hash((uint64_t)(uintptr_t)p, mask);
}

static void evc_grow(struct reader *r)
{
	struct ev_info *old = r->evc;
	unsigned int old_size = r->evc_size, i;

	r->evc_size = old_size ? 2 * old_size : 64;
	r->evc = xcalloc(r->evc_size, sizeof(*r->evc));
	for (i = 0; i < old_size; i++) {
		unsigned int j;

		if (!old[i].ec)
			continue;
		j = ptr_hash(old[i].ec, r->evc_size - 1);
		while (r->evc[j].ec)
			j = (j + 1) & (r->evc_size - 1);
		r->evc[j] = old[i];
	}
	free(old);
	r->last = NULL;
}

static struct ev_info *evc_lookup(struct reader *r, const bt_event_class *ec)
{
	unsigned int j;

	if (r->last && r->last->ec == ec)
		return r->last;
	if (2 * (r->evc_used + 1) > r->evc_size)
		evc_grow(r);
	j = ptr_hash(ec, r->evc_size - 1);
	while (r->evc[j].ec && r->evc[j].ec != ec)
		j = (j + 1) & (r->evc_size - 1);
	if (!r->evc[j].ec) {
		classify(r, &r->evc[j], ec);
		r->evc_used++;
	}
	r->last = &r->evc[j];
	return r->last;
}

/* threads */

static inline unsigned int thr_hash(const bt_trace *trace, int64_t vtid,
				    unsigned int mask)
{
	return mix_hash((uint64_t)(uintptr_t)trace ^
			(uint64_t)vtid * 0x9e3779b97f4a7c15ULL, mask);
}

static void thr_grow(struct reader *r)
{
	struct thread_slot *old = r->threads;
	unsigned int old_size = r->thr_size, i;

	r->thr_size = old_size ? 2 * old_size : 256;
	r->threads = xcalloc(r->thr_size, sizeof(*r->threads));
	for (i = 0; i < old_size; i++) {
		unsigned int j;

		if (!old[i].trace)
			continue;
		j = thr_hash(old[i].trace, old[i].vtid, r->thr_size - 1);
		while (r->threads[j].trace)
			j = (j + 1) & (r->thr_size - 1);
		r->threads[j] = old[i];
	}
	free(old);
}

static struct thread_slot *thr_lookup(struct reader *r, const bt_trace *trace,
				      int64_t vtid)
{
	unsigned int j;

	if (2 * (r->thr_used + 1) > r->thr_size)
		thr_grow(r);
	j = thr_hash(trace, vtid, r->thr_size - 1);
	while (r->threads[j].trace &&
	       (r->threads[j].trace != trace || r->threads[j].vtid != vtid))
		j = (j + 1) & (r->thr_size - 1);
	if (!r->threads[j].trace) {
		r->threads[j].trace = trace;
		r->threads[j].vtid = vtid;
		r->thr_used++;
	}
	return &r->threads[j];
}

/* field access */

static inline uint64_t get_int(const bt_field *st, struct member m)
{
	const bt_field *f;

	if (m.idx < 0 || m.str)
		return 0;
	f = bt_field_structure_borrow_member_field_by_index_const(st,
							(uint64_t)m.idx);
	if (m.sgn)
		return (uint64_t)bt_field_integer_signed_get_value(f);
	return bt_field_integer_unsigned_get_value(f);
}

static const char *get_cstr(const bt_field *st, struct member m)
{
	return bt_field_string_get_value(
		bt_field_structure_borrow_member_field_by_index_const(st,
							(uint64_t)m.idx));
}

static char *get_str(const bt_field *st, struct member m)
{
	if (m.idx < 0)
		return NULL;
	return xstrdup(get_cstr(st, m));
}

/*
 * An enumeration's value as an index of its labels: the integer, or the
 * label recorded as a string looked up; the label count ("other") for a
 * value outside the schema's.
 */
static unsigned int get_enum(const bt_field *st, struct member m,
			     enum member_type t)
{
	const char *const *labels = schema_enum_labels(t);
	unsigned int n = schema_enum_count(t), i;
	uint64_t v;

	if (m.idx < 0)
		return n;
	if (m.str) {
		const char *s = get_cstr(st, m);

		for (i = 0; i < n; i++)
			if (!strcmp(labels[i], s))
				return i;
		return n;
	}
	v = get_int(st, m);
	return v < n ? (unsigned int)v : n;
}

/* An enumeration's label, whichever way it was recorded; NULL if absent. */
static char *get_label(const bt_field *st, struct member m,
		       enum member_type t)
{
	unsigned int i;
	char buf[32];

	if (m.idx < 0)
		return NULL;
	if (m.str)
		return get_str(st, m);
	i = get_enum(st, m, t);
	if (i < schema_enum_count(t))
		return xstrdup(schema_enum_labels(t)[i]);
	snprintf(buf, sizeof(buf), "%" PRIu64, get_int(st, m));
	return xstrdup(buf);
}

/* The thread of an event: false when the class has no vtid context. */
static inline bool event_thread(const bt_event *ev, const struct ev_info *e,
				int64_t *vtid)
{
	if (e->vtid.idx < 0)
		return false;
	*vtid = (int64_t)get_int(bt_event_borrow_common_context_field_const(ev),
				 e->vtid);
	return true;
}

/* The process of a trace without the vpid context: its environment's. */
static struct process *trace_process(struct reader *r, const bt_trace *t)
{
	const bt_value *v;
	int64_t pid = PID_UNKNOWN;
	struct process *p;

	if (t == r->env_trace && r->env_proc)
		return r->env_proc;
	v = bt_trace_borrow_environment_entry_value_by_name_const(t, "vpid");
	if (v && bt_value_get_type(v) == BT_VALUE_TYPE_SIGNED_INTEGER)
		pid = bt_value_integer_signed_get(v);
	p = process_get(r->a, pid);
	if (!p->procname && pid != PID_UNKNOWN) {
		v = bt_trace_borrow_environment_entry_value_by_name_const(t,
								  "procname");
		if (v && bt_value_get_type(v) == BT_VALUE_TYPE_STRING)
			p->procname = xstrdup(bt_value_string_get(v));
	}
	r->env_trace = t;
	r->env_proc = p;
	return p;
}

/* The process an event belongs to (the reader's comment at the top). */
static struct process *event_process(struct reader *r, const bt_event *ev,
				     const struct ev_info *e)
{
	const bt_field *ctx;
	struct process *p;
	int64_t pid;

	if (e->vpid.idx < 0)
		return trace_process(r, bt_stream_borrow_trace_const(
					       bt_event_borrow_stream_const(ev)));
	ctx = bt_event_borrow_common_context_field_const(ev);
	pid = (int64_t)get_int(ctx, e->vpid);
	if (r->last_proc && r->last_proc->pid == pid)
		return r->last_proc;
	p = process_get(r->a, pid);
	if (!p->procname && e->procname.idx >= 0)
		p->procname = get_str(ctx, e->procname);
	r->last_proc = p;
	return p;
}

static inline bool event_ts(const bt_message *msg, const struct ev_info *e,
			    int64_t *ns)
{
	if (!e->clock)
		return false;
	if (bt_clock_snapshot_get_ns_from_origin(
		bt_message_event_borrow_default_clock_snapshot_const(msg),
		ns) == BT_CLOCK_SNAPSHOT_GET_NS_FROM_ORIGIN_STATUS_OK)
		return true;
	/*
	 * Out of int64_t range (a corrupted clock offset): counted as an
	 * event without a timestamp.  The call also left an error on the
	 * thread, which would make libbabeltrace2's next call abort.
	 */
	bt_current_thread_clear_error();
	return false;
}

/* Where a process's events that carry no mode of their own are counted. */
static inline struct group *context_group(struct process *p)
{
	return p->cur ? p->cur : p->last_entry;
}

/* ... or, outside any run and call, in the process's unknown mode. */
static struct group *context_group_any(struct reader *r, struct process *p)
{
	struct group *g = context_group(p);

	return g ? g : group_get(r->a, p, MODE_UNKNOWN, RUN_UNKNOWN);
}

/* A mode: the integer recorded (also past the schema's labels). */
static uint32_t get_mode(const bt_field *p, struct member m)
{
	if (m.str)
		return (uint32_t)get_enum(p, m, MT_ENUM_MODE);
	return (uint32_t)get_int(p, m);
}

static void on_run_start(struct reader *r, struct process *proc,
			 const struct ev_info *e, const bt_field *p)
{
	uint32_t mode = get_mode(p, e->m[RS_mode]);
	int64_t run = (int64_t)(uint32_t)get_int(p, e->m[RS_run]);
	struct group *g;
	struct run_config *c;

	g = group_get(r->a, proc, mode, run);
	c = &g->cfg;
	if (e->m[RS_pid].idx >= 0) {
		int64_t pid = (int64_t)get_int(p, e->m[RS_pid]);

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
		c->pid = e->m[RS_pid].idx >= 0 ?
			 (int64_t)get_int(p, e->m[RS_pid]) : PID_UNKNOWN;
		c->mode_name = get_str(p, e->m[RS_mode_name]);
		c->threads = get_int(p, e->m[RS_threads]);
		c->slots = get_int(p, e->m[RS_slots]);
		c->io_size = get_int(p, e->m[RS_io_size]);
		c->max_payload = get_int(p, e->m[RS_max_payload]);
		c->pool_pages = get_int(p, e->m[RS_pool_pages]);
		c->file_pages = get_int(p, e->m[RS_file_pages]);
		c->pcp_batch = get_int(p, e->m[RS_pcp_batch]);
		c->pcp_high = get_int(p, e->m[RS_pcp_high]);
		c->completion = get_str(p, e->m[RS_completion]);
		c->read_weight = get_int(p, e->m[RS_read_weight]);
		c->write_weight = get_int(p, e->m[RS_write_weight]);
		c->seed = get_int(p, e->m[RS_seed]);
		c->version = get_str(p, e->m[RS_version]);
		c->backend = get_label(p, e->m[RS_backend], MT_ENUM_BACKEND);
		c->contract = get_label(p, e->m[RS_bulk_variant],
					MT_ENUM_CONTRACT);
	}
	proc->cur = g;
}

static void on_run_end(struct reader *r, struct process *proc,
		       const struct ev_info *e, const bt_field *p)
{
	uint32_t mode = get_mode(p, e->m[RE_mode]);
	int64_t run = (int64_t)(uint32_t)get_int(p, e->m[RE_run]);
	struct group *g = group_get(r->a, proc, mode, run);

	g->nr_ends++;
	g->end.calls += get_int(p, e->m[RE_calls]);
	g->end.pages += get_int(p, e->m[RE_pages]);
	g->end.latency_sum_ns += get_int(p, e->m[RE_latency_sum_ns]);
	g->end.requests += get_int(p, e->m[RE_requests]);
	g->end.no_progress += get_int(p, e->m[RE_no_progress]);
	if (proc->cur == g)
		proc->cur = NULL;
}

static void on_call_entry(struct reader *r, struct process *proc,
			  const bt_message *msg, const bt_event *ev,
			  const struct ev_info *e)
{
	const bt_field *p = bt_event_borrow_payload_field_const(ev);
	uint32_t mode = get_mode(p, e->m[EN_mode]);
	struct group *g;
	struct thread_slot *t;
	int64_t vtid, ts;

	if (proc->cur && proc->cur->mode == mode)
		g = proc->cur;
	else
		g = group_get(r->a, proc, mode, RUN_UNKNOWN);
	g->entries++;
	g->sums.entry_slots += get_int(p, e->m[EN_slots]);
	g->sums.entry_holes += get_int(p, e->m[EN_holes]);
	proc->last_entry = g;
	if (!event_thread(ev, e, &vtid)) {
		g->no_vtid++;
		return;
	}
	r->a->have_vtid = true;
	if (!event_ts(msg, e, &ts)) {
		g->no_stamp++;
		return;
	}
	t = thr_lookup(r, bt_stream_borrow_trace_const(
				  bt_event_borrow_stream_const(ev)), vtid);
	if (t->open)
		t->g->entry_twice++;	/* that call's exit was lost */
	t->open = true;
	t->lost = false;
	t->ts = ts;
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

static void on_call_exit(struct reader *r, struct process *proc,
			 const bt_message *msg, const bt_event *ev,
			 const struct ev_info *e)
{
	const bt_field *p = bt_event_borrow_payload_field_const(ev);
	uint64_t lat = get_int(p, e->m[EX_latency_ns]);
	struct thread_slot *t = NULL;
	struct group *g = NULL;
	int64_t vtid, ts = 0;
	bool have_ts;

	if (event_thread(ev, e, &vtid)) {
		r->a->have_vtid = true;
		t = thr_lookup(r, bt_stream_borrow_trace_const(
				       bt_event_borrow_stream_const(ev)), vtid);
	}
	have_ts = event_ts(msg, e, &ts);
	if (t && t->open) {
		g = t->g;
		t->open = false;
		if (have_ts) {
			int64_t dt = sub_sat(ts, t->ts);

			if (dt < 0)	/* cannot happen in a muxed trace */
				dt = 0;
			lat_add(&g->stamps, (uint64_t)dt);
			diff_add(&g->diff, sub_sat(dt, lat > INT64_MAX ?
						   INT64_MAX : (int64_t)lat));
		} else {
			g->no_stamp++;
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
	g->allocated += get_int(p, e->m[EX_allocated]);
	g->alloc_calls += get_int(p, e->m[EX_alloc_calls]);
	g->retries += get_int(p, e->m[EX_retries]);
}

static void on_err(struct reader *r, struct process *proc,
		   const bt_event *ev, const struct ev_info *e)
{
	const bt_field *p = bt_event_borrow_payload_field_const(ev);
	struct group *g = NULL;
	int64_t vtid;

	if (event_thread(ev, e, &vtid)) {
		struct thread_slot *t = thr_lookup(r,
			bt_stream_borrow_trace_const(
				bt_event_borrow_stream_const(ev)), vtid);

		if (t->open)
			g = t->g;
	}
	if (!g)
		g = context_group_any(r, proc);
	g->errs++;
	g->sums.err_requested += get_int(p, e->m[ER_requested]);
	g->sums.err_allocated += get_int(p, e->m[ER_allocated]);
}

static void on_request(struct process *proc, const bt_event *ev,
		       const struct ev_info *e)
{
	const bt_field *p = bt_event_borrow_payload_field_const(ev);
	struct group *g = context_group(proc);

	if (!g)
		return;
	g->requests++;
	g->sums.req_op[get_enum(p, e->m[RQ_op], MT_ENUM_OP)]++;
	g->sums.req_bytes += get_int(p, e->m[RQ_bytes]);
	g->sums.req_pages += get_int(p, e->m[RQ_request_pages]);
}

static void on_alloc_bulk(struct group *g, const bt_event *ev,
			  const struct ev_info *e)
{
	const bt_field *p = bt_event_borrow_payload_field_const(ev);
	struct field_sums *s = &g->sums;

	s->bulk_calls++;
	s->bulk_requested += get_int(p, e->m[BK_requested]);
	s->bulk_populated += get_int(p, e->m[BK_populated]);
	s->bulk_allocated += get_int(p, e->m[BK_allocated]);
	s->bulk_api[get_enum(p, e->m[BK_variant], MT_ENUM_BULK_API)]++;
	s->bulk_fallback[get_enum(p, e->m[BK_fallback], MT_ENUM_FALLBACK)]++;
}

static void on_event(struct reader *r, const bt_message *msg)
{
	const bt_event *ev = bt_message_event_borrow_event_const(msg);
	const struct ev_info *e = evc_lookup(r, bt_event_borrow_class_const(ev));
	struct analysis *a = r->a;
	struct process *proc;
	struct group *g;

	a->events++;
	if (e->kind == EV_OTHER)
		return;
	proc = event_process(r, ev, e);
	switch (e->kind) {
	case EV_PAGEPOOL:
	case EV_ALLOC_BULK:
		a->pagepool_events++;
		g = context_group(proc);
		if (!g) {
			a->pp_outside++;
			return;
		}
		if (e->pp < PP_EVENTS_MAX)
			g->pp[e->pp]++;
		else
			a->pp_overflow++;
		if (e->kind == EV_ALLOC_BULK)
			on_alloc_bulk(g, ev, e);
		return;
	default:
		break;
	}
	a->rpcsim_events++;
	switch (e->kind) {
	case EV_ENTRY:
		on_call_entry(r, proc, msg, ev, e);
		break;
	case EV_EXIT:
		on_call_exit(r, proc, msg, ev, e);
		break;
	case EV_ERR:
		on_err(r, proc, ev, e);
		break;
	case EV_REQUEST:
		on_request(proc, ev, e);
		break;
	case EV_RUN_START:
		on_run_start(r, proc, e, bt_event_borrow_payload_field_const(ev));
		break;
	case EV_RUN_END:
		on_run_end(r, proc, e, bt_event_borrow_payload_field_const(ev));
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

		if (t->trace && t->open) {
			t->open = false;
			t->lost = true;
			t->g->across_discard++;
		}
	}
}

/*
 * The most one gap between two packets of a stream can really have lost:
 * 2^48 events (a day at 3 billion events a second) and 2^32 packets (16
 * TiB of trace at the smallest sub-buffer).  libbabeltrace2 takes each
 * count as the difference of two packets' counters (the tracer's running
 * count of discarded events, the packets' sequence numbers) modulo 2^64,
 * so a counter that went backwards, or one flipped bit in a high byte,
 * makes a count no tracer could have lost: the trace is corrupted.
 */
#define GAP_EVENTS_MAX	(1ULL << 48)
#define GAP_PACKETS_MAX	(1ULL << 32)

/* The first impossible count: a->corrupt, naming the stream. */
static void on_impossible_gap(struct analysis *a, const bt_stream *s,
			      uint64_t n, const char *counter, uint64_t max)
{
	const char *name = s ? bt_stream_get_name(s) : NULL;
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

static void on_message(struct reader *r, const bt_message *msg)
{
	struct analysis *a = r->a;
	uint64_t n;

	switch (bt_message_get_type(msg)) {
	case BT_MESSAGE_TYPE_EVENT:
		on_event(r, msg);
		break;
	case BT_MESSAGE_TYPE_DISCARDED_EVENTS:
		a->discarded_events_msgs++;
		if (bt_message_discarded_events_get_count(msg, &n) ==
		    BT_PROPERTY_AVAILABILITY_AVAILABLE) {
			if (n > GAP_EVENTS_MAX)
				on_impossible_gap(a,
					bt_message_discarded_events_borrow_stream_const(msg),
					n, "count of discarded events "
					"(events_discarded)", GAP_EVENTS_MAX);
			a->discarded_events = add_sat(a->discarded_events, n);
		} else {
			a->discarded_events_unknown++;
		}
		on_discard(r);
		break;
	case BT_MESSAGE_TYPE_DISCARDED_PACKETS:
		a->discarded_packets_msgs++;
		if (bt_message_discarded_packets_get_count(msg, &n) ==
		    BT_PROPERTY_AVAILABILITY_AVAILABLE) {
			if (n > GAP_PACKETS_MAX)
				on_impossible_gap(a,
					bt_message_discarded_packets_borrow_stream_const(msg),
					n, "packet sequence number "
					"(packet_seq_num)", GAP_PACKETS_MAX);
			a->discarded_packets = add_sat(a->discarded_packets,
						       n);
		} else {
			a->discarded_packets_unknown++;
		}
		on_discard(r);
		break;
	default:
		break;
	}
}

static bt_graph_simple_sink_component_consume_func_status
consume(bt_message_iterator *it, void *data)
{
	struct reader *r = data;
	bt_message_array_const msgs;
	uint64_t count, i;

	switch (bt_message_iterator_next(it, &msgs, &count)) {
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_OK:
		break;
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_END:
		return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_END;
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_AGAIN:
		return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_AGAIN;
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_MEMORY_ERROR:
		return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_MEMORY_ERROR;
	default:
		return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_ERROR;
	}
	for (i = 0; i < count; i++) {
		on_message(r, msgs[i]);
		bt_message_put_ref(msgs[i]);
	}
	return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_OK;
}

/* errors */

/*
 * Copy a babeltrace2 cause message without its "xxx-addr=0x..., "
 * members, which only make sense in a debugger.
 */
static void clean_cause(char *dst, size_t len, const char *src)
{
	size_t o = 0;

	while (*src && o + 1 < len) {
		const char *at = strstr(src, "-addr=0x");
		const char *tok, *end;
		size_t n;

		if (!at) {
			n = strlen(src);
			if (n > len - o - 1)
				n = len - o - 1;
			memcpy(dst + o, src, n);
			o += n;
			break;
		}
		/* the member's name starts after ' ' or '(' or '[' */
		tok = at;
		while (tok > src && tok[-1] != ' ' && tok[-1] != '(' &&
		       tok[-1] != '[')
			tok--;
		end = at + 8;
		while (*end && *end != ',' && *end != ' ' && *end != ')' &&
		       *end != ']')
			end++;
		if (end[0] == ',' && end[1] == ' ')
			end += 2;
		n = (size_t)(tok - src);
		if (n > len - o - 1)
			n = len - o - 1;
		memcpy(dst + o, src, n);
		o += n;
		src = end;
	}
	dst[o] = '\0';
	while (o && (dst[o - 1] == ' ' || dst[o - 1] == ',' ||
		     dst[o - 1] == ':'))
		dst[--o] = '\0';
}

/*
 * Print the error babeltrace2 left on this thread as one line:
 *   rpcsim-analyze: PATH: WHAT: ROOT CAUSE [(FILE)]
 * PATH is the trace directory of the source component that failed (the
 * causes name the component, "srcN"), ROOT CAUSE the oldest cause, which
 * says what was wrong, and FILE the stream file a later cause names when
 * the root one does not.  With verbose, every cause follows.
 */
static void print_bt_error(const struct analysis *a, const char *path,
			   const char *what, bool verbose)
{
	const bt_error *err = bt_current_thread_take_error();
	const char *root = NULL, *file = NULL;
	size_t file_len = 0;
	char msg[512];
	uint64_t i, n;

	n = err ? bt_error_get_cause_count(err) : 0;
	for (i = 0; i < n; i++) {
		const bt_error_cause *c = bt_error_borrow_cause_by_index(err, i);
		bt_error_cause_actor_type t = bt_error_cause_get_actor_type(c);
		const char *m = bt_error_cause_get_message(c);
		const char *comp = NULL, *q;
		unsigned int idx;

		if (t == BT_ERROR_CAUSE_ACTOR_TYPE_COMPONENT)
			comp = bt_error_cause_component_actor_get_component_name(c);
		else if (t == BT_ERROR_CAUSE_ACTOR_TYPE_MESSAGE_ITERATOR)
			comp = bt_error_cause_message_iterator_actor_get_component_name(c);
		if (!path && comp && sscanf(comp, "src%u", &idx) == 1 &&
		    idx < a->nr_traces)
			path = a->traces[idx];
		if (!root)
			root = m;
		/* the first quoted absolute path: `/...` or '/...' */
		q = m ? strpbrk(m, "`'") : NULL;
		if (!file && q && q[1] == '/') {
			const char *e = strchr(q + 1, q[0] == '`' ? '`' : '\'');

			if (e) {
				file = q + 1;
				file_len = (size_t)(e - file);
			}
		}
	}
	clean_cause(msg, sizeof(msg), root ? root : "unknown error");
	fprintf(stderr, "rpcsim-analyze: %s: %s: %s", path ? path : "trace",
		what, msg);
	if (file && !strstr(msg, "/") && !(path && strlen(path) == file_len &&
					   !strncmp(path, file, file_len)))
		fprintf(stderr, " (%.*s)", (int)file_len, file);
	if (!verbose)
		fprintf(stderr, " (-v tells more)");
	fputc('\n', stderr);
	if (verbose)
		for (i = 0; i < n; i++) {
			const bt_error_cause *c =
				bt_error_borrow_cause_by_index(err, i);

			fprintf(stderr, "  caused by [%s] (%s:%" PRIu64 "): %s\n",
				bt_error_cause_get_module_name(c),
				bt_error_cause_get_file_name(c),
				bt_error_cause_get_line_number(c),
				bt_error_cause_get_message(c));
		}
	if (err)
		bt_error_release(err);
}

static int find_plugin(const char *name, const bt_plugin **plugin)
{
	bt_plugin_find_status st;

	st = bt_plugin_find(name, BT_TRUE, BT_TRUE, BT_TRUE, BT_TRUE,
			    BT_FALSE, plugin);
	if (st == BT_PLUGIN_FIND_STATUS_OK)
		return 0;
	bt_current_thread_clear_error();
	fprintf(stderr, "rpcsim-analyze: babeltrace2 plugin '%s' %s: apt-get install libbabeltrace2-0\n",
		name, st == BT_PLUGIN_FIND_STATUS_NOT_FOUND ? "not found" :
		"cannot be loaded");
	return 1;
}

static bool verbose_errors(const struct reader_options *o)
{
	return o->bt_log_level < BT_LOGGING_LEVEL_NONE;
}

int read_traces(struct analysis *a, const struct reader_options *o)
{
	const bt_plugin *ctf = NULL, *utils = NULL;
	const bt_component_class_source *src_cls;
	const bt_component_class_filter *mux_cls;
	const bt_component_filter *mux;
	const bt_component_sink *sink;
	struct reader r = { .a = a };
	bt_graph *graph = NULL;
	uint64_t mux_port = 0;
	int ret = 1;
	unsigned int i;

	if (find_plugin("ctf", &ctf) || find_plugin("utils", &utils))
		goto out;
	src_cls = bt_plugin_borrow_source_component_class_by_name_const(ctf,
									"fs");
	mux_cls = bt_plugin_borrow_filter_component_class_by_name_const(utils,
									"muxer");
	if (!src_cls || !mux_cls) {
		fprintf(stderr, "rpcsim-analyze: babeltrace2 component class source.ctf.fs or filter.utils.muxer missing\n");
		goto out;
	}
	graph = bt_graph_create(0);
	if (!graph)
		oom_exit();
	if (bt_graph_add_filter_component(graph, mux_cls, "mux", NULL,
					  o->bt_log_level, &mux) !=
	    BT_GRAPH_ADD_COMPONENT_STATUS_OK) {
		print_bt_error(a, NULL, "cannot create the muxer",
			       verbose_errors(o));
		goto out;
	}
	if (bt_graph_add_simple_sink_component(graph, "sink", NULL, consume,
					       NULL, &r, &sink) !=
	    BT_GRAPH_ADD_COMPONENT_STATUS_OK) {
		print_bt_error(a, NULL, "cannot create the sink",
			       verbose_errors(o));
		goto out;
	}

	/*
	 * babeltrace2 2.0.4 indexes every stream file when its source
	 * component is created and loops forever on a packet that claims
	 * to be 0 bits long; where the packet size lies depends on the
	 * metadata, so rather than decode CTF here, a watchdog bounds the
	 * indexing: it reads each packet's header once, so its time grows
	 * with the size of the files, and the allowance (index_watchdog_s
	 * plus one second per 16 MiB) is far above what it takes.
	 */
	if (o->index_watchdog_s) {
		uint64_t s = o->index_watchdog_s + (stream_bytes(a) >> 24);

		alarm(s > UINT_MAX ? UINT_MAX : (unsigned int)s);
	}
	for (i = 0; i < a->nr_traces; i++) {
		const bt_component_source *src;
		bt_value *params, *inputs;
		bt_graph_add_component_status st;
		char name[32];
		uint64_t p, np;

		if (check_metadata(a->traces[i]))
			goto out;
		params = bt_value_map_create();
		if (!params ||
		    bt_value_map_insert_empty_array_entry(params, "inputs",
							  &inputs) ||
		    bt_value_array_append_string_element(inputs, a->traces[i]))
			oom_exit();
		snprintf(name, sizeof(name), "src%u", i);
		st = bt_graph_add_source_component(graph, src_cls, name,
						   params, o->bt_log_level,
						   &src);
		bt_value_put_ref(params);
		if (st != BT_GRAPH_ADD_COMPONENT_STATUS_OK) {
			print_bt_error(a, a->traces[i], "cannot open trace",
				       verbose_errors(o));
			goto out;
		}
		np = bt_component_source_get_output_port_count(src);
		for (p = 0; p < np; p++) {
			if (bt_graph_connect_ports(graph,
				bt_component_source_borrow_output_port_by_index_const(src, p),
				bt_component_filter_borrow_input_port_by_index_const(mux, mux_port),
				NULL) != BT_GRAPH_CONNECT_PORTS_STATUS_OK) {
				print_bt_error(a, a->traces[i],
					       "cannot connect the trace's streams",
					       verbose_errors(o));
				goto out;
			}
			mux_port++;
		}
	}
	if (o->index_watchdog_s)
		alarm(0);
	if (bt_graph_connect_ports(graph,
		bt_component_filter_borrow_output_port_by_index_const(mux, 0),
		bt_component_sink_borrow_input_port_by_index_const(sink, 0),
		NULL) != BT_GRAPH_CONNECT_PORTS_STATUS_OK) {
		print_bt_error(a, NULL, "cannot connect the muxer",
			       verbose_errors(o));
		goto out;
	}

	for (;;) {
		bt_graph_run_status st = bt_graph_run(graph);

		if (st == BT_GRAPH_RUN_STATUS_OK)
			break;
		if (st == BT_GRAPH_RUN_STATUS_AGAIN) {
			struct timespec ts = { 0, 1000000 };

			nanosleep(&ts, NULL);
			continue;
		}
		print_bt_error(a, a->nr_traces == 1 ? a->traces[0] : NULL,
			       st == BT_GRAPH_RUN_STATUS_MEMORY_ERROR ?
			       "out of memory reading trace" :
			       "cannot read trace", verbose_errors(o));
		goto out;
	}

	/*
	 * libbabeltrace2 2.0.4 ends a stream it cannot decode any further
	 * (an event cut at the end of the last packet, say) as if it were
	 * complete, and leaves the error on the thread (the babeltrace2
	 * command exits 0 too).  Take it, so nothing stale trips its next
	 * call, and have the report say the trace was read only in part.
	 */
	{
		const bt_error *err = bt_current_thread_take_error();

		if (err) {
			const char *m = bt_error_get_cause_count(err) ?
				bt_error_cause_get_message(
					bt_error_borrow_cause_by_index(err, 0)) :
				NULL;
			char msg[512];

			clean_cause(msg, sizeof(msg), m ? m : "unknown error");
			a->read_error = xstrdup(msg);
			bt_error_release(err);
		}
	}

	/* calls still open at the end of the trace lost their exit */
	for (i = 0; i < r.thr_size; i++)
		if (r.threads[i].trace && r.threads[i].open)
			r.threads[i].g->entry_no_exit++;
	ret = 0;
out:
	if (o->index_watchdog_s)
		alarm(0);
	bt_graph_put_ref(graph);
	bt_plugin_put_ref(ctf);
	bt_plugin_put_ref(utils);
	free(r.evc);
	free(r.threads);
	return ret;
}
