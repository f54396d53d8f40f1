/* SPDX-License-Identifier: MIT */
/*
 * The decode layer (reader.c): a babeltrace2 message as a struct rec.
 * The event class of each event is looked up in a cache keyed by its
 * pointer, which holds what the class is and the index of each payload
 * member the trace schema binds; the members are then read by index.  A
 * worker's decoder also checks the order of its stream's timestamps and,
 * over a time range, that each event lies within its packet.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader.h"

/* The kind of each schema event. */
static const enum ev_kind schema_kind[SE_NR] = {
	[SE_run_start] = EV_RUN_START,
	[SE_run_end] = EV_RUN_END,
	[SE_svc_alloc_arg_entry] = EV_ENTRY,
	[SE_svc_alloc_arg_exit] = EV_EXIT,
	[SE_svc_alloc_arg_err] = EV_ERR,
	[SE_request] = EV_REQUEST,
	[SE_svc_tcp_recv_short] = EV_RECV_SHORT,
	[SE_mm_page_alloc_bulk] = EV_ALLOC_BULK,
	[SE_page_pool_state_hold] = EV_PP_HOLD,
	[SE_page_pool_state_release] = EV_PP_PUT,
	[SE_page_pool_release] = EV_PP_DESTROY,
	[SE_page_pool_alloc_slow] = EV_PP_SLOW,
};

struct ev_info {
	const bt_event_class *ec;
	enum ev_kind kind;
	uint32_t id;		/* class number, in the order first seen */
	uint32_t ecid;		/* its id in its trace (UINT32_MAX: past) */
	const char *pp;		/* EV_PAGEPOOL, EV_ALLOC_BULK: its name */
	bool pp_sent;		/* worker: the name went with an event */
	bool clock;		/* stream class has a default clock */
	struct member vtid;	/* in the common context */
	struct member vpid;
	struct member procname;
	const struct schema_field *spec;	/* the schema's rows */
	unsigned int nf;	/* how many */
	uint32_t present;	/* bit i: m[i] bound */
	struct member m[M_MAX];
};

/* What the decoder knows of one bt_trace. */
struct dec_trace {
	const bt_trace *t;
	uint64_t key;		/* the thread slots' trace key */
	int64_t env_pid;	/* its environment's vpid, or PID_UNKNOWN */
	bool env_sent;		/* its environment's procname was sent */
};

/* A worker's stream, by file: how one graph would order it (S_SKEY). */
struct dec_stream {
	const bt_stream *s;
	bool sent;		/* its key went with a record */
	char key[80];		/* "UUID SC ID" */
	char *tname;		/* its trace's name, or NULL */
	char *path;		/* its name in one graph */
};

struct range_stream {
	const bt_stream *s;
	uint64_t tb, last;	/* packet beginning; last event's value */
	bool open;		/* in a packet */
	/* its file, whose index entries [next, end] its packets must match */
	const struct sfile *f;
	unsigned int next, end;
};

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

static inline unsigned int ptr_hash(const void *p, unsigned int mask)
{
	return mix_hash((uint64_t)(uintptr_t)p, mask);
}

static void classify(struct decoder *d, struct ev_info *e,
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
	e->id = d->evc_used;
	e->ecid = bt_event_class_get_id(ec) < UINT32_MAX ?
		  (uint32_t)bt_event_class_get_id(ec) : UINT32_MAX;
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
		e->pp = name + 9;
	} else if (!strncmp(name, "rpcsim:", 7)) {
		e->kind = EV_RPCSIM_OTHER;
	} else if (!strncmp(name, "page_pool:", 10)) {
		e->kind = EV_OTHER;	/* unless the schema has it */
	} else {
		return;
	}
	for (i = 0; i < SE_NR; i++) {
		const struct schema_event *se = &schema_events[i];
		size_t n = strlen(se->provider);
		unsigned int f;

		if (strncmp(name, se->provider, n) || name[n] != ':' ||
		    strcmp(name + n + 1, se->event))
			continue;
		if (!bind_members(e, payload, se->fields))
			e->kind = e->kind == EV_PAGEPOOL ? EV_PAGEPOOL : EV_BAD;
		else
			e->kind = schema_kind[i];
		for (f = 0; e->spec[f].name; f++)
			if (e->m[f].idx >= 0)
				e->present |= 1u << f;
		e->nf = f;
		break;
	}
}

static void evc_grow(struct decoder *d)
{
	struct ev_info *old = d->evc;
	unsigned int old_size = d->evc_size, i;

	d->evc_size = old_size ? 2 * old_size : 64;
	d->evc = xcalloc(d->evc_size, sizeof(*d->evc));
	for (i = 0; i < old_size; i++) {
		unsigned int j;

		if (!old[i].ec)
			continue;
		j = ptr_hash(old[i].ec, d->evc_size - 1);
		while (d->evc[j].ec)
			j = (j + 1) & (d->evc_size - 1);
		d->evc[j] = old[i];
	}
	free(old);
	d->last = NULL;
}

static struct ev_info *evc_lookup(struct decoder *d, const bt_event_class *ec)
{
	unsigned int j;

	if (d->last && d->last->ec == ec)
		return d->last;
	if (2 * (d->evc_used + 1) > d->evc_size)
		evc_grow(d);
	j = ptr_hash(ec, d->evc_size - 1);
	while (d->evc[j].ec && d->evc[j].ec != ec)
		j = (j + 1) & (d->evc_size - 1);
	if (!d->evc[j].ec) {
		classify(d, &d->evc[j], ec);
		d->evc_used++;
	}
	d->last = &d->evc[j];
	return d->last;
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

/*
 * A member as the fold reads it: an integer; an enumeration's integer,
 * or for one recorded as a string the index of its label (the label
 * count if it is not one of the schema's); 0 if absent or a string.
 */
static uint64_t get_value(const bt_field *st, struct member m,
			  enum member_type t)
{
	const char *const *labels;
	unsigned int n, i;
	const char *s;

	if (m.idx < 0 || t == MT_STR)
		return 0;
	if (!m.str)
		return get_int(st, m);
	if (t == MT_STR || t == MT_INT)
		return 0;
	labels = schema_enum_labels(t);
	n = schema_enum_count(t);
	s = get_cstr(st, m);
	for (i = 0; i < n; i++)
		if (!strcmp(labels[i], s))
			return i;
	return n;
}

/*
 * A string member, or an enumeration's label whichever way it was
 * recorded (a number outside the schema's labels in decimal); NULL if
 * absent.
 */
static const char *get_label(struct decoder *d, const bt_field *st,
			     unsigned int i, struct member m, enum member_type t)
{
	uint64_t v;

	if (m.idx < 0)
		return NULL;
	if (m.str || t == MT_STR)
		return get_cstr(st, m);
	if (t == MT_INT)
		return NULL;
	v = get_int(st, m);
	if (v < schema_enum_count(t))
		return schema_enum_labels(t)[v];
	snprintf(d->label[i], sizeof(d->label[i]), "%" PRIu64, v);
	return d->label[i];
}

/*
 * The key of a trace: in one process its bt_trace; in a worker the index
 * of its directory, read from the name libbabeltrace2 gives its streams
 * (the stream file's path, TMP/tN/FILE).
 */
static struct dec_trace *dec_trace(struct decoder *d, const bt_stream *s)
{
	const bt_trace *t = bt_stream_borrow_trace_const(s);
	struct dec_trace *dt;
	const bt_value *v;
	unsigned int i;

	if (d->last_trace && d->last_trace->t == t)
		return d->last_trace;
	for (i = 0; i < d->nr_traces; i++)
		if (d->traces[i].t == t)
			return d->last_trace = &d->traces[i];
	d->traces = xrealloc(d->traces, d->nr_traces + 1,
			     sizeof(*d->traces));
	dt = &d->traces[d->nr_traces++];
	memset(dt, 0, sizeof(*dt));
	dt->t = t;
	dt->key = (uint64_t)(uintptr_t)t;
	dt->env_pid = PID_UNKNOWN;
	v = bt_trace_borrow_environment_entry_value_by_name_const(t, "vpid");
	if (v && bt_value_get_type(v) == BT_VALUE_TYPE_SIGNED_INTEGER)
		dt->env_pid = bt_value_integer_signed_get(v);
	if (d->tmp) {
		const char *name = bt_stream_get_name(s);
		size_t n = strlen(d->tmp);
		unsigned int idx;

		if (!name || strncmp(name, d->tmp, n) ||
		    sscanf(name + n, "/t%u/", &idx) != 1 ||
		    idx >= d->a->nr_traces) {
			fprintf(stderr, "rpcsim-analyze: a stream of unknown "
				"trace (%s)\n", name ? name : "no name");
			exit(1);
		}
		dt->key = idx;
	}
	return d->last_trace = dt;
}

/*
 * A stream's name, its temporary directory replaced by its trace's as
 * libbabeltrace2 names it in one process (tmp_canon: absolute, even for a
 * trace given by a relative path), so that a worker's message is the one
 * --jobs=1 prints.
 */
static const char *stream_name(struct decoder *d, const bt_stream *s)
{
	const char *name = s ? bt_stream_get_name(s) : NULL;
	size_t n;
	unsigned int idx;
	int off = 0;

	if (!name || !d->tmp)
		return name;
	n = strlen(d->tmp);
	if (strncmp(name, d->tmp, n) ||
	    sscanf(name + n, "/t%u%n", &idx, &off) != 1 || !off ||
	    idx >= d->a->nr_traces)
		return name;
	snprintf(d->name, sizeof(d->name), "%s%s",
		 tmp_canon ? tmp_canon[idx] : d->a->traces[idx], name + n + off);
	return d->name;
}

/*
 * Whether one graph numbers stream @name (its first file's path) by its
 * file: the stream has no instance id, and libbabeltrace2 (2.0's
 * source.ctf.fs) names its port "TRACE | CLASS | PATH" after the file,
 * where a stream with an instance id has "TRACE | CLASS | ID".
 */
static bool numbered_by_file(const struct decoder *d, const char *name)
{
	size_t n = strlen(name);
	unsigned int i;

	for (i = 0; i < d->nr_ports; i++) {
		const char *p = d->ports[i];
		size_t lp = strlen(p);

		if (lp >= n + 3 && !strcmp(p + lp - n, name) &&
		    !memcmp(p + lp - n - 3, " | ", 3))
			return true;
	}
	return false;
}

/*
 * The stream of a worker's record, numbered from 1: the first time, how
 * one graph would order it (struct dec_stream).  One graph numbers the
 * streams of a trace without stream instance ids 0, 1, ... in the order
 * of their files' paths, the empty files left out (2.0's source.ctf.fs),
 * so that among all the trace's files, where a worker sees its own.
 */
static uint32_t stream_no(struct decoder *d, const bt_stream *s)
{
	const bt_trace *t;
	const uint8_t *uuid;
	const char *name, *tname;
	struct dec_stream *ds;
	unsigned int i, idx;
	uint64_t id;
	size_t n;
	int off = 0;

	if (d->last_ss && d->last_ss->s == s)
		return (uint32_t)(d->last_ss - d->ss) + 1;
	for (i = 0; i < d->nr_ss; i++)
		if (d->ss[i].s == s) {
			d->last_ss = &d->ss[i];
			return i + 1;
		}
	d->ss = xrealloc(d->ss, d->nr_ss + 1, sizeof(*d->ss));
	ds = &d->ss[d->nr_ss++];
	d->last_ss = ds;
	memset(ds, 0, sizeof(*ds));
	ds->s = s;
	t = bt_stream_borrow_trace_const(s);
	uuid = bt_trace_get_uuid(t);
	tname = bt_trace_get_name(t);
	if (tname)
		ds->tname = xstrdup(tname);
	id = bt_stream_get_id(s);
	name = bt_stream_get_name(s);
	n = strlen(d->tmp);
	if (name && tmp_canon && !strncmp(name, d->tmp, n) &&
	    sscanf(name + n, "/t%u%n", &idx, &off) == 1 && off &&
	    idx < d->a->nr_traces && name[n + off] == '/') {
		const char *file = name + n + off + 1;
		size_t len = strlen(tmp_canon[idx]) + strlen(file) + 2;

		if (numbered_by_file(d, name)) {
			id = 0;
			for (i = 0; i < d->nr_files; i++)
				if (d->files[i].trace == idx &&
				    d->files[i].size &&
				    strcmp(d->files[i].name, file) < 0)
					id++;
		}
		ds->path = xcalloc(1, len);
		snprintf(ds->path, len, "%s/%s", tmp_canon[idx], file);
	} else {
		ds->path = xstrdup(name ? name : "");
	}
	if (uuid) {
		for (i = 0; i < 16; i++)
			snprintf(ds->key + 2 * i, 3, "%02x", uuid[i]);
	} else {
		strcpy(ds->key, "-");
	}
	n = strlen(ds->key);
	snprintf(ds->key + n, sizeof(ds->key) - n, " %" PRIu64 " %" PRIu64,
		 bt_stream_class_get_id(bt_stream_borrow_class_const(s)), id);
	return d->nr_ss;
}

void stream_describe(struct decoder *d, struct rec *rc)
{
	struct dec_stream *ds;

	if (!rc->stream || rc->stream > d->nr_ss)
		return;
	ds = &d->ss[rc->stream - 1];
	if (ds->sent)
		return;
	ds->sent = true;
	rc->s[S_SKEY] = ds->key;
	rc->s[S_SPATH] = ds->path;
	rc->strs |= 1u << S_SKEY | 1u << S_SPATH;
	if (ds->tname) {
		rc->s[S_TNAME] = ds->tname;
		rc->strs |= 1u << S_TNAME;
	}
}

bool stream_described(const struct decoder *d, const struct rec *rc)
{
	return !rc->stream || rc->stream > d->nr_ss ||
	       d->ss[rc->stream - 1].sent;
}

/* Whether the process's procname was sent already; if not, it is now. */
static bool pid_sent(struct decoder *d, int64_t pid)
{
	unsigned int i;

	for (i = 0; i < d->nr_pids; i++)
		if (d->pids[i] == pid)
			return true;
	d->pids = xrealloc(d->pids, d->nr_pids + 1, sizeof(*d->pids));
	d->pids[d->nr_pids++] = pid;
	return false;
}

/* The process of the event: its vpid context, or its trace's vpid. */
static void decode_process(struct decoder *d, const bt_event *ev,
			   const struct ev_info *e, struct rec *rc)
{
	const bt_field *ctx;

	if (e->vpid.idx < 0) {
		struct dec_trace *dt = dec_trace(d,
					bt_event_borrow_stream_const(ev));
		const bt_value *v;

		rc->flags |= RF_ENV;
		rc->trace = dt->key;
		rc->vpid = dt->env_pid;
		if (rc->vpid == PID_UNKNOWN || dt->env_sent)
			return;
		dt->env_sent = true;
		v = bt_trace_borrow_environment_entry_value_by_name_const(
							dt->t, "procname");
		if (v && bt_value_get_type(v) == BT_VALUE_TYPE_STRING) {
			rc->s[S_PROCNAME] = bt_value_string_get(v);
			rc->strs |= 1u << S_PROCNAME;
		}
		return;
	}
	ctx = bt_event_borrow_common_context_field_const(ev);
	rc->vpid = (int64_t)get_int(ctx, e->vpid);
	if (e->procname.idx >= 0 && !pid_sent(d, rc->vpid)) {
		rc->s[S_PROCNAME] = get_cstr(ctx, e->procname);
		rc->strs |= 1u << S_PROCNAME;
	}
}

static void decode_event(struct decoder *d, const bt_message *msg,
			 struct rec *rc)
{
	const bt_event *ev = bt_message_event_borrow_event_const(msg);
	struct ev_info *e = evc_lookup(d, bt_event_borrow_class_const(ev));
	const bt_field *p;
	unsigned int i;

	rc->type = R_EVENT;
	rc->kind = (uint8_t)e->kind;
	rc->flags = 0;
	rc->strs = 0;
	rc->nv = 0;
	if (e->kind == EV_OTHER)
		return;
	rc->cls = e->id;
	rc->present = e->present;
	if (d->skeys) {
		rc->stream = stream_no(d, bt_event_borrow_stream_const(ev));
		rc->ecid = e->ecid;
	}
	if (e->clock) {
		if (bt_clock_snapshot_get_ns_from_origin(
			bt_message_event_borrow_default_clock_snapshot_const(msg),
			&rc->ts) == BT_CLOCK_SNAPSHOT_GET_NS_FROM_ORIGIN_STATUS_OK)
			rc->flags |= RF_TS;
		else
			/*
			 * Out of int64_t range (a corrupted clock offset):
			 * an event without a timestamp.  The call also left
			 * an error on the thread, which would make
			 * libbabeltrace2's next call abort.
			 */
			bt_current_thread_clear_error();
	}
	if (e->vtid.idx >= 0) {
		rc->flags |= RF_VTID;
		rc->vtid = (int64_t)get_int(
			bt_event_borrow_common_context_field_const(ev), e->vtid);
	}
	decode_process(d, ev, e, rc);
	if (e->pp && (!d->tmp || !e->pp_sent)) {
		e->pp_sent = true;
		rc->flags |= RF_PP;
		rc->s[S_PP] = e->pp;
		rc->strs |= 1u << S_PP;
	}
	if ((e->kind == EV_ENTRY || e->kind == EV_EXIT ||
	     e->kind == EV_ERR) && (rc->flags & RF_VTID) &&
	    !(rc->flags & RF_ENV))
		rc->trace = dec_trace(d, bt_event_borrow_stream_const(ev))->key;
	if (e->kind == EV_BAD || e->kind == EV_RPCSIM_OTHER || !e->spec)
		return;
	p = bt_event_borrow_payload_field_const(ev);
	rc->nv = (uint8_t)e->nf;
	for (i = 0; i < e->nf; i++)
		rc->v[i] = get_value(p, e->m[i], e->spec[i].type);
	if (e->kind != EV_RUN_START)
		return;
	for (i = 0; i < e->nf; i++) {
		const char *s = get_label(d, p, i, e->m[i], e->spec[i].type);

		if (s) {
			rc->s[i] = s;
			rc->strs |= 1u << i;
		}
	}
}

/* What a stream's events_discarded counter read, and the most it read. */
struct disc_stream {
	const bt_stream *s;
	uint64_t reading, most;
};

/*
 * The events a discarded-events message of @s with libbabeltrace2's
 * count @n really lost (GAP_EVENTS_MAX): its count gives the counter's
 * reading (the last one plus @n, modulo 2^64, from 0), and what is lost
 * is what the reading gained over the most read before.  A reading of 0
 * after counting is lttng-ust's, not a loss (0); any other reading below
 * the most gives the difference modulo 2^64, to be refused as corruption
 * (on_loss()).
 */
static uint64_t events_lost(struct decoder *d, const bt_stream *s, uint64_t n)
{
	struct disc_stream *ds = NULL;
	unsigned int i;
	uint64_t r;

	for (i = 0; i < d->nr_ds; i++)
		if (d->ds[i].s == s) {
			ds = &d->ds[i];
			break;
		}
	if (!ds) {
		d->ds = xrealloc(d->ds, d->nr_ds + 1, sizeof(*d->ds));
		ds = &d->ds[d->nr_ds++];
		memset(ds, 0, sizeof(*ds));
		ds->s = s;
	}
	r = ds->reading + n;
	ds->reading = r;
	if (r >= ds->most) {
		n = r - ds->most;
		ds->most = r;
		return n;
	}
	return r ? r - ds->most : 0;
}

/*
 * A discarded events or packets message: false if it lost nothing
 * (events_lost()).
 */
static bool decode_discard(struct decoder *d, const bt_message *msg,
			   bool events, struct rec *rc)
{
	const bt_stream *s = events ?
		bt_message_discarded_events_borrow_stream_const(msg) :
		bt_message_discarded_packets_borrow_stream_const(msg);
	const bt_stream_class *sc = bt_stream_borrow_class_const(s);
	const bt_clock_snapshot *cs = NULL;
	uint64_t n;

	rc->type = events ? R_DISC_EVENTS : R_DISC_PACKETS;
	rc->kind = EV_OTHER;
	rc->flags = 0;
	rc->strs = 0;
	rc->nv = 1;
	rc->v[0] = 0;
	if (d->skeys) {
		rc->stream = stream_no(d, s);
		rc->ecid = 0;
	}
	if (events) {
		if (bt_message_discarded_events_get_count(msg, &n) ==
		    BT_PROPERTY_AVAILABILITY_AVAILABLE) {
			n = events_lost(d, s, n);
			if (!n)
				return false;
			rc->flags |= RF_COUNT;
			rc->v[0] = n;
		}
		if (bt_stream_class_discarded_events_have_default_clock_snapshots(sc))
			cs = bt_message_discarded_events_borrow_beginning_default_clock_snapshot_const(msg);
	} else {
		if (bt_message_discarded_packets_get_count(msg, &n) ==
		    BT_PROPERTY_AVAILABILITY_AVAILABLE) {
			rc->flags |= RF_COUNT;
			rc->v[0] = n;
		}
		if (bt_stream_class_discarded_packets_have_default_clock_snapshots(sc))
			cs = bt_message_discarded_packets_borrow_beginning_default_clock_snapshot_const(msg);
	}
	if (cs) {
		if (bt_clock_snapshot_get_ns_from_origin(cs, &rc->ts) ==
		    BT_CLOCK_SNAPSHOT_GET_NS_FROM_ORIGIN_STATUS_OK)
			rc->flags |= RF_TS;
		else
			bt_current_thread_clear_error();
	}
	/* the stream's name, for an impossible count (on_discard()) */
	if ((rc->flags & RF_COUNT) &&
	    rc->v[0] > (events ? GAP_EVENTS_MAX : GAP_PACKETS_MAX)) {
		rc->s[S_TEXT] = stream_name(d, s);
		if (rc->s[S_TEXT])
			rc->strs |= 1u << S_TEXT;
	}
	return true;
}

/* A timestamp of the worker's stream: not below the last (order_check). */
static void order_see(struct decoder *d, uint64_t ts)
{
	if (ts < d->last_ts) {
		if (!d->order_bad)
			d->bad_ts = ts;
		d->order_bad = true;
		return;
	}
	d->last_ts = ts;
}

/* A packet's beginning or end, as the worker's order check sees it. */
static void order_packet(struct decoder *d, const bt_message *msg,
			 bool beginning)
{
	const bt_stream_class *sc;
	const bt_clock_snapshot *cs;
	int64_t ns;

	if (beginning) {
		sc = bt_stream_borrow_class_const(bt_packet_borrow_stream_const(
			bt_message_packet_beginning_borrow_packet_const(msg)));
		if (!bt_stream_class_packets_have_beginning_default_clock_snapshot(sc))
			return;
		cs = bt_message_packet_beginning_borrow_default_clock_snapshot_const(msg);
	} else {
		sc = bt_stream_borrow_class_const(bt_packet_borrow_stream_const(
			bt_message_packet_end_borrow_packet_const(msg)));
		if (!bt_stream_class_packets_have_end_default_clock_snapshot(sc))
			return;
		cs = bt_message_packet_end_borrow_default_clock_snapshot_const(msg);
	}
	if (bt_clock_snapshot_get_ns_from_origin(cs, &ns) ==
	    BT_CLOCK_SNAPSHOT_GET_NS_FROM_ORIGIN_STATUS_OK)
		order_see(d, (uint64_t)ns);
	else
		bt_current_thread_clear_error();
}

/* The range state of stream @s, its default clock checked (range_bad). */
static struct range_stream *range_stream(struct decoder *d,
					 const bt_stream *s)
{
	const bt_clock_class *cc;
	struct range_stream *rs;
	const char *name, *base;
	unsigned int i;

	if (d->last_rs && d->last_rs->s == s)
		return d->last_rs;
	for (i = 0; i < d->nr_rs; i++)
		if (d->rs[i].s == s)
			return d->last_rs = &d->rs[i];
	cc = bt_stream_class_borrow_default_clock_class_const(
					bt_stream_borrow_class_const(s));
	if (!cc || (d->clock && cc != d->clock))
		d->range_bad = true;
	if (!d->clock)
		d->clock = cc;
	d->rs = xrealloc(d->rs, d->nr_rs + 1, sizeof(*d->rs));
	d->last_rs = NULL;	/* moved */
	rs = &d->rs[d->nr_rs++];
	memset(rs, 0, sizeof(*rs));
	rs->s = s;
	/* its file: the stream's name is its path, the file's name last */
	name = bt_stream_get_name(s);
	base = name ? strrchr(name, '/') : NULL;
	base = base ? base + 1 : name;
	for (i = 0; base && i < d->nr_files; i++)
		if (!strcmp(d->files[i].name, base) &&
		    range_packets(&d->files[i], d->lo, d->hi, &rs->next,
				  &rs->end)) {
			rs->f = &d->files[i];
			break;
		}
	if (!rs->f)
		d->range_bad = true;
	return d->last_rs = rs;
}

/*
 * A worker over a time range: a packet's beginning or end, whose clock
 * values bound its events' (range_bad otherwise).
 */
static void range_packet(struct decoder *d, const bt_message *msg,
			 bool beginning)
{
	const bt_packet *pkt = beginning ?
		bt_message_packet_beginning_borrow_packet_const(msg) :
		bt_message_packet_end_borrow_packet_const(msg);
	const bt_stream *s = bt_packet_borrow_stream_const(pkt);
	const bt_stream_class *sc = bt_stream_borrow_class_const(s);
	struct range_stream *rs = range_stream(d, s);
	uint64_t v;

	if (beginning) {
		if (!bt_stream_class_packets_have_beginning_default_clock_snapshot(sc)) {
			d->range_bad = true;
			return;
		}
		v = bt_clock_snapshot_get_value(
			bt_message_packet_beginning_borrow_default_clock_snapshot_const(msg));
		/* the packet the index said, where the cuts were placed */
		if (!rs->f || rs->next > rs->end ||
		    v != pk(rs->f, rs->next, PK_TB))
			d->range_bad = true;
		rs->tb = rs->last = v;
		rs->open = true;
		return;
	}
	if (!bt_stream_class_packets_have_end_default_clock_snapshot(sc)) {
		d->range_bad = true;
		return;
	}
	v = bt_clock_snapshot_get_value(
		bt_message_packet_end_borrow_default_clock_snapshot_const(msg));
	if (!rs->open || rs->last > v || !rs->f || rs->next > rs->end ||
	    v != pk(rs->f, rs->next, PK_TE))
		d->range_bad = true;
	rs->next++;
	rs->open = false;
}

/*
 * An event past the range, at @cs: the messages come in time order (the
 * muxer's, or one stream's), so once one is later than hi - 1 in ns,
 * every event still to come is past the range, and the worker stops.
 * In ns, not in clock values: two values may make the same ns, and the
 * muxer orders by ns.
 */
static void range_past(struct decoder *d, const bt_clock_snapshot *cs)
{
	int64_t ns;

	if (!d->have_lim) {
		if (bt_clock_class_cycles_to_ns_from_origin(d->clock,
				d->hi - 1, &d->lim_ns) !=
		    BT_CLOCK_CLASS_CYCLES_TO_NS_FROM_ORIGIN_STATUS_OK) {
			bt_current_thread_clear_error();
			d->lim_ns = INT64_MAX;
		}
		d->have_lim = true;
	}
	if (bt_clock_snapshot_get_ns_from_origin(cs, &ns) ==
	    BT_CLOCK_SNAPSHOT_GET_NS_FROM_ORIGIN_STATUS_OK) {
		if (ns > d->lim_ns)
			d->range_end = true;
	} else {
		bt_current_thread_clear_error();
	}
}

/* A worker over a time range: whether the event is in it. */
static bool range_event(struct decoder *d, const bt_message *msg)
{
	const bt_event *ev = bt_message_event_borrow_event_const(msg);
	const bt_clock_snapshot *cs;
	struct range_stream *rs = range_stream(d,
					bt_event_borrow_stream_const(ev));
	uint64_t v;

	if (d->range_bad || !rs->open) {
		d->range_bad = true;
		return false;
	}
	cs = bt_message_event_borrow_default_clock_snapshot_const(msg);
	v = bt_clock_snapshot_get_value(cs);
	if (v < rs->last)
		d->range_bad = true;
	rs->last = v;
	if (v >= d->hi)
		range_past(d, cs);
	return v >= d->lo && v < d->hi;
}

/* A message as a record: false for one the fold has no use for. */
bool decode(struct decoder *d, const bt_message *msg, struct rec *rc)
{
	switch (bt_message_get_type(msg)) {
	case BT_MESSAGE_TYPE_EVENT:
		if (d->range && !range_event(d, msg))
			return false;
		decode_event(d, msg, rc);
		if (d->order_check && (rc->flags & RF_TS))
			order_see(d, (uint64_t)rc->ts);
		return true;
	case BT_MESSAGE_TYPE_PACKET_BEGINNING:
	case BT_MESSAGE_TYPE_PACKET_END:
		if (d->range)
			range_packet(d, msg, bt_message_get_type(msg) ==
				     BT_MESSAGE_TYPE_PACKET_BEGINNING);
		if (d->order_check)
			order_packet(d, msg, bt_message_get_type(msg) ==
				     BT_MESSAGE_TYPE_PACKET_BEGINNING);
		return false;
	case BT_MESSAGE_TYPE_DISCARDED_EVENTS:
		return decode_discard(d, msg, true, rc);
	case BT_MESSAGE_TYPE_DISCARDED_PACKETS:
		return decode_discard(d, msg, false, rc);
	default:
		return false;
	}
}

void decoder_free(struct decoder *d)
{
	unsigned int i;

	free(d->evc);
	free(d->traces);
	free(d->pids);
	free(d->rs);
	free(d->ds);
	for (i = 0; i < d->nr_ss; i++) {
		free(d->ss[i].tname);
		free(d->ss[i].path);
	}
	free(d->ss);
	for (i = 0; i < d->nr_ports; i++)
		free(d->ports[i]);
	free(d->ports);
}
