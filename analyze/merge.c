/* SPDX-License-Identifier: MIT */
/*
 * The parent's side of --jobs=N (reader.c): it reads what the workers
 * send and merges it.  By file, records, merged by timestamp and folded
 * (plan_file.c); by time, what each worker folded, merged in time order
 * (reader.h, "Folded in the workers").
 */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reader.h"

#define WSRC_BUF	(1u << 20)

/* At least @need bytes in the buffer: 0, or -1 at EOF or on an error. */
static int wsrc_fill(struct wsrc *s, size_t need)
{
	if (s->end - s->start >= need)
		return 0;
	if (s->start)
		memmove(s->buf, s->buf + s->start, s->end - s->start);
	s->end -= s->start;
	s->start = 0;
	if (need > s->cap) {
		size_t cap = need > WSRC_BUF ? need : WSRC_BUF;
		s->buf = xrealloc(s->buf, cap, 1);
		s->cap = cap;
	}
	while (s->end < need) {
		ssize_t n = read(s->fd, s->buf + s->end, s->cap - s->end);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		s->end += (size_t)n;
	}
	return 0;
}

/* The worker's next record into s->rc: 0, or -1 (EOF, garbage). */
static int wsrc_next(struct wsrc *s)
{
	struct rec *rc = &s->rc;
	const unsigned char *p, *e;
	struct wire h;
	unsigned int i;

	s->have = false;
	if (wsrc_fill(s, sizeof(h)))
		return -1;
	memcpy(&h, s->buf + s->start, sizeof(h));
	if (h.len < sizeof(h) || h.len > WIRE_MAX || h.nv > M_MAX ||
	    wsrc_fill(s, h.len))
		return -1;
	p = s->buf + s->start + sizeof(h);
	e = s->buf + s->start + h.len;
	s->start += h.len;
	rc->type = h.type;
	rc->kind = h.kind;
	rc->flags = h.flags;
	rc->nv = h.nv;
	rc->present = h.present;
	rc->strs = h.strs;
	rc->cls = h.cls;
	rc->trace = h.trace;
	rc->stream = h.stream;
	rc->ecid = h.ecid;
	rc->ts = h.ts;
	rc->vtid = h.vtid;
	rc->vpid = h.vpid;
	if ((size_t)(e - p) < h.nv * sizeof(uint64_t))
		return -1;
	memcpy(rc->v, p, h.nv * sizeof(uint64_t));
	p += h.nv * sizeof(uint64_t);
	for (i = h.nv; i < M_MAX; i++)
		rc->v[i] = 0;
	for (i = 0; i < S_NR; i++) {
		uint32_t n;

		if (!(h.strs & (1u << i)))
			continue;
		if ((size_t)(e - p) < sizeof(n))
			return -1;
		memcpy(&n, p, sizeof(n));
		p += sizeof(n);
		if (!n || (size_t)(e - p) < n || p[n - 1])
			return -1;
		rc->s[i] = (const char *)p;
		p += n;
	}
	s->have = true;
	return 0;
}

/*
 * A stream of a worker by file, as the muxer of one graph orders it
 * (S_SKEY, S_TNAME, S_SPATH).
 */
struct mkey {
	bool known;
	bool has_uuid;
	unsigned char uuid[16];
	char *tname;		/* NULL: none */
	uint64_t sc, id;
	char *path;
};

/* A worker's streams, by their number - 1. */
struct mkeys {
	struct mkey *v;
	unsigned int n;
};

/* The stream @rc describes, if it does, into @t. */
static void note_stream(struct mkeys *t, const struct rec *rc)
{
	const char *key = rec_str(rc, S_SKEY), *p;
	struct mkey *k;
	unsigned int i;

	if (!key || !rc->stream || rc->stream > 1u << 24)
		return;
	if (rc->stream > t->n) {
		t->v = xrealloc(t->v, rc->stream, sizeof(*t->v));
		memset(t->v + t->n, 0, (rc->stream - t->n) * sizeof(*t->v));
		t->n = rc->stream;
	}
	k = &t->v[rc->stream - 1];
	if (k->known)
		return;
	p = key;
	if (*p == '-') {
		p++;
	} else {
		for (i = 0; i < 16; i++, p += 2)
			if (sscanf(p, "%2hhx", &k->uuid[i]) != 1)
				return;
		k->has_uuid = true;
	}
	if (sscanf(p, " %" SCNu64 " %" SCNu64, &k->sc, &k->id) != 2)
		return;
	if (rec_str(rc, S_TNAME))
		k->tname = xstrdup(rec_str(rc, S_TNAME));
	k->path = xstrdup(rec_str(rc, S_SPATH) ? rec_str(rc, S_SPATH) : "");
	k->known = true;
}

static const struct mkey *key_of(const struct mkeys *t, const struct rec *rc)
{
	if (!rc->stream || rc->stream > t->n || !t->v[rc->stream - 1].known)
		return NULL;
	return &t->v[rc->stream - 1];
}

/*
 * libbabeltrace2's muxer (2.0's filter.utils.muxer) orders messages of
 * one timestamp by their trace's UUID (one with a UUID first), then its
 * name, their stream class's id, their stream's id, their type (an event
 * before a discard of events, before one of packets), then for events
 * their class's id.  The messages of one worker are in that order (its
 * own muxer), so the records of two workers are compared the same way.
 * Two streams of one trace differ in their ids; two traces alike in all
 * that (no UUID, the same name, the same stream ids) go by the event
 * class ids, and then by the streams' paths, where the muxer compares
 * event class names, log levels and EMF URIs first: they differ only if
 * the two traces' metadata give one event class id to events of
 * different names.  source.ctf.fs names every trace (its environment's
 * hostname, "" without one), so a name is never missing here: that test
 * only follows the muxer's.  <0: @x goes first.
 */
static int mux_cmp(const struct rec *x, const struct mkey *kx,
		   const struct rec *y, const struct mkey *ky)
{
	int c;

	if (!kx || !ky)
		return 0;
	if (kx->has_uuid != ky->has_uuid)
		return kx->has_uuid ? -1 : 1;
	if (kx->has_uuid && (c = memcmp(kx->uuid, ky->uuid, 16)))
		return c;
	if (!kx->tname != !ky->tname)
		return kx->tname ? -1 : 1;
	if (kx->tname && (c = strcmp(kx->tname, ky->tname)))
		return c;
	if (kx->sc != ky->sc)
		return kx->sc < ky->sc ? -1 : 1;
	if (kx->id != ky->id)
		return kx->id < ky->id ? -1 : 1;
	if (x->type != y->type) {
		/* event, discarded events, discarded packets */
		return x->type == R_EVENT ? -1 : y->type == R_EVENT ? 1 :
		       x->type == R_DISC_EVENTS ? -1 : 1;
	}
	if (x->type == R_EVENT && x->ecid != y->ecid)
		return x->ecid < y->ecid ? -1 : 1;
	return strcmp(kx->path, ky->path);
}

/* Worker @k's next record, its stream noted.  0, or -1 (wsrc_next()). */
static int next_rec(struct wsrc *w, struct mkeys *t, unsigned int k)
{
	if (wsrc_next(&w[k]))
		return -1;
	note_stream(&t[k], &w[k].rc);
	return 0;
}

/*
 * Merge the workers' records and fold them, in the order of one graph's
 * muxer (mux_cmp()).  0; 1 after printing why (a worker failed), or with
 * *@ended the worker whose records ended early; READ_AGAIN.
 */
int merge(struct analysis *a, struct wsrc *w, unsigned int n,
	  int *ended)
{
	struct reader r;
	struct mkeys *t = xcalloc(n, sizeof(*t));
	unsigned int live = n, k, i;
	int ret = 1;

	*ended = -1;
	reader_init(&r, a, n);
	for (k = 0; k < n; k++)
		if (next_rec(w, t, k)) {
			*ended = (int)k;
			goto out;
		}
	while (live) {
		struct wsrc *best = NULL;

		for (k = 0; k < n; k++) {
			struct rec *rc = &w[k].rc;

			if (w[k].done)
				continue;
			switch (rc->type) {
			case R_ERROR:
				fputs(rec_str(rc, S_TEXT) ?
				      rec_str(rc, S_TEXT) : "", stderr);
				goto out;
			case R_READ_ERROR:
			case R_END:
				fold(&r, k, rc);
				if (rc->type == R_END) {
					w[k].done = true;
					live--;
				} else if (next_rec(w, t, k)) {
					*ended = (int)k;
					goto out;
				}
				k = (unsigned int)-1;	/* look again */
				continue;
			default:
				break;
			}
			if (!(rc->flags & RF_TS)) {
				ret = READ_AGAIN;
				goto out;
			}
			if (!best || rc->ts < best->rc.ts ||
			    (rc->ts == best->rc.ts &&
			     mux_cmp(rc, key_of(&t[k], rc), &best->rc,
				     key_of(&t[best - w], &best->rc)) < 0))
				best = &w[k];
		}
		if (!best)
			break;
		fold(&r, (unsigned int)(best - w), &best->rc);
		if (next_rec(w, t, (unsigned int)(best - w))) {
			*ended = (int)(best - w);
			goto out;
		}
	}
	reader_finish(&r);
	ret = 0;
out:
	reader_free(&r);
	for (k = 0; k < n; k++) {
		for (i = 0; i < t[k].n; i++) {
			free(t[k].v[i].tname);
			free(t[k].v[i].path);
		}
		free(t[k].v);
	}
	free(t);
	return ret;
}

/* A worker's partial (write_partial()), read back, bounds checked. */
struct prd {
	const unsigned char *p, *e;
	bool bad;
};

static void pr_bytes(struct prd *d, void *dst, size_t n)
{
	if ((size_t)(d->e - d->p) < n) {
		d->bad = true;
		memset(dst, 0, n);
		return;
	}
	memcpy(dst, d->p, n);
	d->p += n;
}

static uint64_t pr_u64(struct prd *d)
{
	uint64_t v;

	pr_bytes(d, &v, sizeof(v));
	return v;
}

static char *pr_str(struct prd *d)
{
	uint64_t n = pr_u64(d);
	char *str;

	if (n == UINT64_MAX || d->bad)
		return NULL;
	if (n > (uint64_t)(d->e - d->p)) {
		d->bad = true;
		return NULL;
	}
	str = xcalloc(1, (size_t)n + 1);
	pr_bytes(d, str, (size_t)n);
	return str;
}

static struct gkey pr_key(struct prd *d)
{
	struct gkey k;

	k.none = pr_u64(d) != 0;
	k.pid = (int64_t)pr_u64(d);
	k.mode = (uint32_t)pr_u64(d);
	k.run = (int64_t)pr_u64(d);
	return k;
}

static void pr_lat(struct prd *d, struct lat_stats *l)
{
	pr_bytes(d, &l->sumsq, sizeof(l->sumsq));
	pr_bytes(d, l->hist, sizeof(*l->hist));
}

static void pr_rec(struct prd *d, struct rec *rc)
{
	uint64_t h = pr_u64(d);

	memset(rc, 0, sizeof(*rc));
	rc->type = (uint8_t)(h >> 24);
	rc->kind = (uint8_t)(h >> 16);
	rc->flags = (uint8_t)(h >> 8);
	rc->nv = (uint8_t)h;
	rc->present = (uint32_t)pr_u64(d);
	rc->cls = (uint32_t)pr_u64(d);
	rc->trace = pr_u64(d);
	rc->ts = (int64_t)pr_u64(d);
	rc->vtid = (int64_t)pr_u64(d);
	rc->vpid = (int64_t)pr_u64(d);
	if (rc->nv > M_MAX) {
		d->bad = true;
		return;
	}
	pr_bytes(d, rc->v, rc->nv * sizeof(uint64_t));
}

/* A worker's process, while the parent merges what the worker folded. */
struct pin {
	int64_t pid;
	char *procname;
	int64_t run_pid;
	bool differ;
	unsigned int assume;
	uint32_t assume_mode;
	int64_t assume_run;
	struct gkey cur, last;		/* as the worker ended */
	struct process *p;		/* the parent's */
	struct group *cin, *lin;	/* its cur, last_entry as they came in */
};

/* The parent's group a worker's key names (its stand-ins resolved). */
static struct group *resolve(struct analysis *a, const struct gkey *k,
			     const struct pin *pin, unsigned int n)
{
	unsigned int i;

	if (k->none)
		return NULL;
	if (k->run == RUN_CUR_IN || k->run == RUN_LAST_IN) {
		for (i = 0; i < n; i++)
			if (pin[i].pid == k->pid)
				return k->run == RUN_CUR_IN ? pin[i].cin :
				       pin[i].lin;
		return NULL;
	}
	return group_get(a, process_get(a, k->pid), k->mode, k->run);
}

/* Whether what the worker assumed of process @pi holds. */
static bool assumed_right(const struct pin *pi)
{
	const struct group *c = pi->cin;

	if ((pi->assume & AS_CUR) && !c)
		return false;
	if ((pi->assume & AS_MODE) && c->mode != pi->assume_mode)
		return false;
	if ((pi->assume & AS_IS) && c->run != pi->assume_run)
		return false;
	return !(pi->assume & AS_LAST) || pi->lin;
}

/* A group of a worker's partial, read into the parent's group @g. */
static void merge_group(struct analysis *a, struct group *g, struct prd *d,
			const unsigned int *ppmap, unsigned int nr_pp)
{
	struct group t;
	struct run_config *c = &t.cfg;
	unsigned int i;

	memset(&t, 0, sizeof(t));
	if (group_stats_init(&t))
		oom_exit();
	t.nr_starts = (unsigned int)pr_u64(d);
	t.nr_ends = (unsigned int)pr_u64(d);
	c->pid = (int64_t)pr_u64(d);
	c->backend = pr_str(d);
	c->contract = pr_str(d);
	c->mode_name = pr_str(d);
	c->completion = pr_str(d);
	c->version = pr_str(d);
	pr_bytes(d, &c->threads, offsetof(struct run_config, completion) -
		 offsetof(struct run_config, threads));
	pr_bytes(d, &c->read_weight, sizeof(c->read_weight));
	pr_bytes(d, &c->write_weight, sizeof(c->write_weight));
	pr_bytes(d, &c->seed, sizeof(c->seed));
	pr_bytes(d, &c->tcp_read, sizeof(c->tcp_read));
	pr_bytes(d, &c->run_seq, sizeof(c->run_seq));
	pr_bytes(d, &t.end, sizeof(t.end));
	pr_lat(d, &t.field);
	pr_lat(d, &t.stamps);
	t.diff.n = pr_u64(d);
	pr_bytes(d, &t.diff.sum, sizeof(t.diff.sum));
	t.diff.min = (int64_t)pr_u64(d);
	t.diff.max = (int64_t)pr_u64(d);
	t.diff.n_neg = pr_u64(d);
	pr_bytes(d, t.diff.pos, sizeof(*t.diff.pos));
	pr_bytes(d, t.diff.neg, sizeof(*t.diff.neg));
	for (unsigned int k = 0; k < BY_REFILL_NR; k++)
		pr_bytes(d, t.refill[k], sizeof(*t.refill[k]));
	pr_bytes(d, &t.requests, offsetof(struct group, sums) -
		 offsetof(struct group, requests));
	pr_bytes(d, &t.sums, sizeof(t.sums));
	pr_bytes(d, &t.entry_twice, sizeof(t) -
		 offsetof(struct group, entry_twice));
	if (g && !d->bad) {
		/* the first run_start's configuration; one more is twice */
		if (t.nr_starts && g->nr_starts)
			a->run_start_twice++;
		else if (t.nr_starts) {
			struct run_config keep = g->cfg;

			g->cfg = t.cfg;
			t.cfg = keep;
		}
		group_merge(g, &t);
		for (i = 0; i < nr_pp && i < PP_EVENTS_MAX; i++) {
			if (ppmap[i] < PP_EVENTS_MAX)
				g->pp[ppmap[i]] += t.pp[i];
			else
				a->pp_overflow += t.pp[i];
		}
	}
	group_stats_free(&t);
	free(t.cfg.backend);
	free(t.cfg.contract);
	free(t.cfg.mode_name);
	free(t.cfg.completion);
	free(t.cfg.version);
}

/* A record the worker left (struct pend), folded with the parent's state. */
static void merge_pend(struct reader *r, unsigned int what,
		       const struct gkey *cur, const struct gkey *last,
		       const struct rec *rc, const struct pin *pin,
		       unsigned int npin)
{
	struct process *p = rec_process(r, rc);
	struct group *c = p->cur, *l = p->last_entry;
	struct thread_slot *t;

	if (what == PEND_ENTRY) {
		t = thr_lookup(r, rc->trace, rc->vtid);
		if (t->open)
			t->g->entry_twice++;	/* that call's exit was lost */
		return;
	}
	/* the process's state where the worker met the record */
	p->cur = resolve(r->a, cur, pin, npin);
	p->last_entry = resolve(r->a, last, pin, npin);
	if (what == PEND_EXIT)
		on_call_exit(r, p, rc);
	else
		on_err(r, p, rc);
	p->cur = c;
	p->last_entry = l;
}

/*
 * A partial's counters, read error and pagepool names, into @a; @ppmap
 * maps the worker's pagepool name indexes to the analysis's.  0;
 * READ_AGAIN; -1 for garbage.
 */
static int merge_totals(struct analysis *a, struct prd *d,
			unsigned int *ppmap, unsigned int *nr_pp)
{
	unsigned int i;
	char *str;

	a->events += pr_u64(d);
	a->rpcsim_events += pr_u64(d);
	a->pagepool_events += pr_u64(d);
	a->pp_outside += pr_u64(d);
	/*
	 * Pagepool names past the worker's PP_EVENTS_MAX: which of them
	 * the analysis would have named depends on the names before.
	 */
	if (pr_u64(d))
		return READ_AGAIN;
	a->bad_schema += pr_u64(d);
	a->run_start_twice += pr_u64(d);
	a->have_vtid |= pr_u64(d) != 0;
	str = pr_str(d);
	if (str && !a->read_error)
		a->read_error = str;
	else
		free(str);
	*nr_pp = (unsigned int)pr_u64(d);
	if (*nr_pp > PP_EVENTS_MAX)
		return -1;
	for (i = 0; i < *nr_pp; i++) {
		str = pr_str(d);
		ppmap[i] = str ? pp_index(a, str) : PP_EVENTS_MAX;
		free(str);
	}
	return 0;
}

/*
 * A partial's processes into *@pinp, *@npinp (the caller frees them:
 * pins_free()), each with the parent's process and its cur and last_entry
 * as the worker's range starts.  0; READ_AGAIN when what the worker
 * assumed of them does not hold; -1 for garbage.
 */
static int read_pins(struct analysis *a, struct prd *d, struct pin **pinp,
		     unsigned int *npinp)
{
	unsigned int n = (unsigned int)pr_u64(d), i;
	struct pin *pin;

	if (d->bad || n > (size_t)(d->e - d->p) / 8)
		return -1;
	pin = xcalloc(n ? n : 1, sizeof(*pin));
	*pinp = pin;
	*npinp = n;
	for (i = 0; i < n; i++) {
		struct pin *pi = &pin[i];

		pi->pid = (int64_t)pr_u64(d);
		pi->procname = pr_str(d);
		pi->run_pid = (int64_t)pr_u64(d);
		pi->differ = pr_u64(d) != 0;
		pi->assume = (unsigned int)pr_u64(d);
		pi->assume_mode = (uint32_t)pr_u64(d);
		pi->assume_run = (int64_t)pr_u64(d);
		pi->cur = pr_key(d);
		pi->last = pr_key(d);
		pi->p = process_get(a, pi->pid);
		pi->cin = pi->p->cur;
		pi->lin = pi->p->last_entry;
		if (!d->bad && !assumed_right(pi))
			return READ_AGAIN;
	}
	return 0;
}

static void pins_free(struct pin *pin, unsigned int npin)
{
	unsigned int i;

	for (i = 0; pin && i < npin; i++)
		free(pin[i].procname);
	free(pin);
}

/*
 * A partial's thread slots, as the worker's range ends, into the
 * parent's.  0, or -1 for a call open in no group.
 */
static int merge_slots(struct reader *r, struct prd *d, const struct pin *pin,
		       unsigned int npin)
{
	unsigned int n = (unsigned int)pr_u64(d), i;

	for (i = 0; i < n && !d->bad; i++) {
		uint64_t trace = pr_u64(d);
		int64_t vtid = (int64_t)pr_u64(d);
		uint64_t st = pr_u64(d);
		int64_t ts = (int64_t)pr_u64(d);
		struct gkey k = pr_key(d);
		struct thread_slot *t;

		if (d->bad)
			break;
		t = thr_lookup(r, trace, vtid);
		t->open = st & 2;
		t->lost = st & 1;
		t->ts = ts;
		t->g = resolve(r->a, &k, pin, npin);
		if ((t->open || t->lost) && !t->g)
			return -1;
	}
	return 0;
}

/* The processes as the worker's range ends, into the parent's. */
static void merge_pins(struct analysis *a, struct pin *pin, unsigned int npin)
{
	unsigned int i;

	for (i = 0; i < npin; i++) {
		struct pin *pi = &pin[i];
		struct process *p = pi->p;
		bool differ;

		p->cur = resolve(a, &pi->cur, pin, npin);
		p->last_entry = resolve(a, &pi->last, pin, npin);
		if (!p->procname && pi->procname) {
			p->procname = pi->procname;
			pi->procname = NULL;
		}
		differ = p->run_pids_differ || pi->differ ||
			 (p->run_pid != PID_UNKNOWN &&
			  pi->run_pid != PID_UNKNOWN &&
			  p->run_pid != pi->run_pid);
		if (p->run_pid == PID_UNKNOWN)
			p->run_pid = pi->run_pid;
		if (differ && !p->run_pids_differ)
			a->mixed_pids++;
		p->run_pids_differ = differ;
	}
}

/*
 * Merge a worker's partial into the parent's analysis (r->a) and state
 * (r's threads, its processes' cur and last_entry), which are those of
 * the start of the worker's range.  0; READ_AGAIN when an assumption
 * does not hold; -1 for garbage.
 */
static int merge_partial(struct reader *r, struct prd *d)
{
	struct analysis *a = r->a;
	unsigned int ppmap[PP_EVENTS_MAX], nr_pp, npin = 0, i, n;
	struct pin *pin = NULL;
	int ret;

	ret = merge_totals(a, d, ppmap, &nr_pp);
	if (ret)
		return ret;
	ret = read_pins(a, d, &pin, &npin);
	if (ret)
		goto out;
	n = (unsigned int)pr_u64(d);
	for (i = 0; i < n && !d->bad; i++) {
		struct gkey k = pr_key(d);

		merge_group(a, resolve(a, &k, pin, npin), d, ppmap, nr_pp);
	}
	n = (unsigned int)pr_u64(d);
	for (i = 0; i < n && !d->bad; i++) {
		unsigned int what = (unsigned int)pr_u64(d);
		struct gkey cur = pr_key(d), last = pr_key(d);
		struct rec rc;

		pr_rec(d, &rc);
		if (!d->bad)
			merge_pend(r, what, &cur, &last, &rc, pin, npin);
	}
	ret = -1;
	if (merge_slots(r, d, pin, npin) || d->bad || d->p != d->e)
		goto out;
	merge_pins(a, pin, npin);
	ret = 0;
out:
	pins_free(pin, npin);
	return ret;
}

/* Read worker @s's whole output into its buffer.  0, or -1. */
static int wsrc_slurp(struct wsrc *s)
{
	s->start = s->end = 0;
	for (;;) {
		ssize_t n;

		if (s->end == s->cap) {
			size_t cap = s->cap ? 2 * s->cap : WSRC_BUF;

			s->buf = xrealloc(s->buf, cap, 1);
			s->cap = cap;
		}
		n = read(s->fd, s->buf + s->end, s->cap - s->end);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (!n)
			return 0;
		s->end += (size_t)n;
	}
}

/*
 * Folded in the workers: merge their partials, in time order.  0; 1
 * after printing why (a worker failed), or with *@ended the worker whose
 * output ended early or made no sense; READ_AGAIN.
 */
int merge_folded(struct analysis *a, struct wsrc *w, unsigned int n,
		 int *ended, bool verbose)
{
	struct reader r;
	unsigned int k;
	int ret = 1;

	*ended = -1;
	reader_init(&r, a, 1);
	for (k = 0; k < n; k++) {
		struct prd d;
		uint64_t st;
		char *text;
		int m;

		if (wsrc_slurp(&w[k]))
			goto early;
		d.p = w[k].buf;
		d.e = w[k].buf + w[k].end;
		d.bad = false;
		if (pr_u64(&d) != PART_MAGIC)
			goto early;
		st = pr_u64(&d);
		if (d.bad)
			goto early;
		if (st == PART_AGAIN) {
			if (verbose)
				fprintf(stderr, "rpcsim-analyze: worker %u: "
					"its range cannot be read apart (an "
					"event outside its packet's times, "
					"streams of different clocks, a "
					"discard, page_pool events, or no "
					"room for its copies): read again in "
					"one process\n",
					k);
			ret = READ_AGAIN;
			goto out;
		}
		if (st == PART_ERROR) {
			text = pr_str(&d);
			fputs(text ? text : "", stderr);
			free(text);
			goto out;
		}
		m = st == PART_OK ? merge_partial(&r, &d) : -1;
		if (m == READ_AGAIN) {
			if (verbose)
				fprintf(stderr, "rpcsim-analyze: worker %u: "
					"what it counted depends on what came "
					"before its range in a way it could "
					"not stand in for: read again in one "
					"process\n", k);
			ret = READ_AGAIN;
			goto out;
		}
		if (m)
			goto early;
	}
	reader_finish(&r);
	ret = 0;
	goto out;
early:
	*ended = (int)k;
out:
	reader_free(&r);
	return ret;
}
