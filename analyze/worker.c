/* SPDX-License-Identifier: MIT */
/*
 * A worker of --jobs=N (reader.c), a process the parent forks: its own
 * graph over its share of the work, by file (plan_file.c) or over a time
 * range (plan_time.c).  By file, it writes the records it decodes down
 * its pipe (struct wire); by time, it folds them itself and writes what it
 * folded when it is done (reader.h, "Folded in the workers").
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "reader.h"
#include "ppool.h"

struct wout {
	int fd;
	size_t len;
	unsigned char buf[256 << 10];
};

static void wout_flush(struct wout *w)
{
	size_t o = 0;

	while (o < w->len) {
		ssize_t n = write(w->fd, w->buf + o, w->len - o);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			_exit(1);	/* the parent is gone */
		o += (size_t)n;
	}
	w->len = 0;
}

static void wout_put(struct wout *w, const void *p, size_t n)
{
	const unsigned char *s = p;

	while (n) {
		size_t k = sizeof(w->buf) - w->len;

		if (k > n)
			k = n;
		memcpy(w->buf + w->len, s, k);
		w->len += k;
		s += k;
		n -= k;
		if (w->len == sizeof(w->buf))
			wout_flush(w);
	}
}

static void write_rec(struct wout *w, const struct rec *rc)
{
	struct wire h = {
		.type = rc->type, .kind = rc->kind, .flags = rc->flags,
		.nv = rc->nv, .present = rc->present, .strs = rc->strs,
		.cls = rc->cls, .trace = (uint32_t)rc->trace,
		.stream = rc->stream, .ecid = rc->ecid, .ts = rc->ts,
		.vtid = rc->vtid, .vpid = rc->vpid,
	};
	size_t len = sizeof(h) + rc->nv * sizeof(uint64_t), sl[S_NR];
	unsigned int i;

	for (i = 0; i < S_NR; i++)
		if (rc->strs & (1u << i)) {
			sl[i] = strlen(rc->s[i]) + 1;
			if (sl[i] > WIRE_MAX / 4)
				sl[i] = WIRE_MAX / 4;
			len += sizeof(uint32_t) + sl[i];
		}
	h.len = (uint32_t)len;
	wout_put(w, &h, sizeof(h));
	wout_put(w, rc->v, rc->nv * sizeof(uint64_t));
	for (i = 0; i < S_NR; i++)
		if (rc->strs & (1u << i)) {
			uint32_t n = (uint32_t)sl[i];

			wout_put(w, &n, sizeof(n));
			wout_put(w, rc->s[i], sl[i] - 1);
			wout_put(w, "", 1);
		}
}

/* A record with only a text (R_ERROR, R_READ_ERROR) or a count (R_END). */
static void write_simple(struct wout *w, enum rec_type type,
			 const char *text, uint64_t count)
{
	struct rec rc;

	memset(&rc, 0, sizeof(rc));
	rc.type = (uint8_t)type;
	if (text) {
		rc.s[S_TEXT] = text;
		rc.strs = 1u << S_TEXT;
	}
	rc.nv = 1;
	rc.v[0] = count;
	write_rec(w, &rc);
}

static void pw_u64(struct wout *w, uint64_t v)
{
	wout_put(w, &v, sizeof(v));
}

static void pw_str(struct wout *w, const char *str)
{
	uint64_t n = str ? strlen(str) : UINT64_MAX;

	pw_u64(w, n);
	if (str)
		wout_put(w, str, (size_t)n);
}

static void pw_key(struct wout *w, struct gkey k)
{
	pw_u64(w, k.none);
	pw_u64(w, (uint64_t)k.pid);
	pw_u64(w, k.mode);
	pw_u64(w, (uint64_t)k.run);
}

static void pw_lat(struct wout *w, const struct lat_stats *l)
{
	wout_put(w, &l->sumsq, sizeof(l->sumsq));
	wout_put(w, l->hist, sizeof(*l->hist));
}

static void pw_status(struct wout *w, enum part_status st, const char *text)
{
	pw_u64(w, PART_MAGIC);
	pw_u64(w, st);
	if (st == PART_ERROR)
		pw_str(w, text);
}

static void pw_rec(struct wout *w, const struct rec *rc)
{
	pw_u64(w, (uint64_t)rc->type << 24 | (uint64_t)rc->kind << 16 |
		  (uint64_t)rc->flags << 8 | rc->nv);
	pw_u64(w, rc->present);
	pw_u64(w, rc->cls);
	pw_u64(w, rc->trace);
	pw_u64(w, (uint64_t)rc->ts);
	pw_u64(w, (uint64_t)rc->vtid);
	pw_u64(w, (uint64_t)rc->vpid);
	wout_put(w, rc->v, rc->nv * sizeof(uint64_t));
}

static void write_partial(struct wout *w, const struct reader *r)
{
	const struct analysis *a = r->a;
	unsigned int i, n;

	pw_status(w, PART_OK, NULL);
	pw_u64(w, a->events);
	pw_u64(w, a->rpcsim_events);
	pw_u64(w, a->pagepool_events);
	pw_u64(w, a->pp_outside);
	pw_u64(w, a->pp_overflow);
	pw_u64(w, a->bad_schema);
	pw_u64(w, a->run_start_twice);
	pw_u64(w, a->have_vtid);
	pw_str(w, a->read_error);
	pw_u64(w, a->nr_pp);
	for (i = 0; i < a->nr_pp; i++)
		pw_str(w, a->pp_names[i]);
	pw_u64(w, a->nr_procs);
	for (i = 0; i < a->nr_procs; i++) {
		const struct process *p = a->procs[i];

		pw_u64(w, (uint64_t)p->pid);
		pw_str(w, p->procname);
		pw_u64(w, (uint64_t)p->run_pid);
		pw_u64(w, p->run_pids_differ);
		pw_u64(w, p->assume);
		pw_u64(w, p->assume_mode);
		pw_u64(w, (uint64_t)p->assume_run);
		pw_key(w, group_key(p->cur));
		pw_key(w, group_key(p->last_entry));
	}
	pw_u64(w, a->nr_groups);
	for (i = 0; i < a->nr_groups; i++) {
		const struct group *g = a->groups[i];
		const struct run_config *c = &g->cfg;

		pw_key(w, group_key(g));
		pw_u64(w, g->nr_starts);
		pw_u64(w, g->nr_ends);
		pw_u64(w, (uint64_t)c->pid);
		pw_str(w, c->backend);
		pw_str(w, c->contract);
		pw_str(w, c->mode_name);
		pw_str(w, c->completion);
		pw_str(w, c->version);
		wout_put(w, &c->threads, offsetof(struct run_config, completion) -
			 offsetof(struct run_config, threads));
		wout_put(w, &c->read_weight, sizeof(c->read_weight));
		wout_put(w, &c->write_weight, sizeof(c->write_weight));
		wout_put(w, &c->seed, sizeof(c->seed));
		wout_put(w, &c->tcp_read, sizeof(c->tcp_read));
		wout_put(w, &c->run_seq, sizeof(c->run_seq));
		wout_put(w, &g->end, sizeof(g->end));
		pw_lat(w, &g->field);
		pw_lat(w, &g->stamps);
		pw_u64(w, g->diff.n);
		wout_put(w, &g->diff.sum, sizeof(g->diff.sum));
		pw_u64(w, (uint64_t)g->diff.min);
		pw_u64(w, (uint64_t)g->diff.max);
		pw_u64(w, g->diff.n_neg);
		wout_put(w, g->diff.pos, sizeof(*g->diff.pos));
		wout_put(w, g->diff.neg, sizeof(*g->diff.neg));
		for (unsigned int k = 0; k < BY_REFILL_NR; k++)
			wout_put(w, g->refill[k], sizeof(*g->refill[k]));
		wout_put(w, &g->requests, offsetof(struct group, sums) -
			 offsetof(struct group, requests));
		wout_put(w, &g->sums, sizeof(g->sums));
		wout_put(w, &g->entry_twice, sizeof(*g) -
			 offsetof(struct group, entry_twice));
	}
	pw_u64(w, r->nr_pend);
	for (i = 0; i < r->nr_pend; i++) {
		pw_u64(w, r->pend[i].what);
		pw_key(w, r->pend[i].cur);
		pw_key(w, r->pend[i].last);
		pw_rec(w, &r->pend[i].rc);
	}
	for (i = 0, n = 0; i < r->thr_size; i++)
		n += r->threads[i].used && !r->threads[i].in;
	pw_u64(w, n);
	for (i = 0; i < r->thr_size; i++) {
		const struct thread_slot *t = &r->threads[i];

		if (!t->used || t->in)
			continue;
		pw_u64(w, t->trace);
		pw_u64(w, (uint64_t)t->vtid);
		pw_u64(w, (uint64_t)t->open << 1 | t->lost);
		pw_u64(w, (uint64_t)t->ts);
		pw_key(w, group_key(t->open || t->lost ? t->g : NULL));
	}
}

struct wctx {
	struct decoder d;
	struct wout *w;
	uint64_t other;		/* events not ours: only counted */
	struct reader *r;	/* folded in the worker: its fold */
};

/* Folded in the worker. */
static void fold_worker(void *data, const struct rec *rc)
{
	struct wctx *c = data;

	if (rc->type == R_DISC_EVENTS || rc->type == R_DISC_PACKETS)
		c->r->edge_fail = true;		/* no discard by time */
	else
		fold(c->r, 0, rc);
}

static bt_graph_simple_sink_component_consume_func_status
consume_fold(bt_message_iterator *it, void *data)
{
	struct wctx *c = data;

	return consume_records(it, &c->d, fold_worker, c);
}

/*
 * A worker's record goes to the parent, the first of its stream with how
 * one graph would order the stream; an event not ours is counted.
 */
static void send_rec(void *data, const struct rec *rc)
{
	struct wctx *c = data;

	if (rc->type == R_EVENT && rc->kind == EV_OTHER) {
		c->other++;
	} else if (!stream_described(&c->d, rc)) {
		struct rec first = *rc;

		stream_describe(&c->d, &first);
		write_rec(c->w, &first);
	} else {
		write_rec(c->w, rc);
	}
}

static bt_graph_simple_sink_component_consume_func_status
consume_worker(bt_message_iterator *it, void *data)
{
	struct wctx *c = data;

	return consume_records(it, &c->d, send_rec, c);
}

/*
 * The worker's graph ran to its end: what is left to send the parent.
 * Folded here (c->r, by time), its partial, or that the range could not
 * be read apart; its analysis is freed.  Else its last records.
 */
static void worker_send(struct wctx *c, const struct analysis *a)
{
	char *rerr = take_read_error(a);
	struct reader *r = c->r;

	if (r) {
		struct analysis *wa = r->a;

		wa->read_error = rerr;
		rerr = NULL;
		/* a page_pool's books span the ranges (ppool.c) */
		if (r->edge_fail || c->d.range_bad || ppool_events(wa))
			pw_status(c->w, PART_AGAIN, NULL);
		else
			write_partial(c->w, r);
		reader_free(r);
		wa->traces = NULL;
		wa->nr_traces = 0;
		analysis_free(wa);
	} else {
		if (rerr)
			write_simple(c->w, R_READ_ERROR, rerr, 0);
		write_simple(c->w, R_END, NULL, c->other);
	}
	free(rerr);
	wout_flush(c->w);
}

/*
 * What worker_child() handed the worker, freed before it exits, so that
 * the leak check finds nothing left.
 */
static void worker_free(const struct analysis *a, char *tmp, char **inputs,
			unsigned int *idx, unsigned int n, struct sfile *files,
			unsigned int nr_files)
{
	unsigned int i;

	for (i = 0; i < nr_files; i++) {
		free(files[i].name);
		free(files[i].idx);
	}
	free(files);
	for (i = 0; i < n; i++)
		free(inputs[i]);
	free(inputs);
	for (i = 0; tmp_canon && i < a->nr_traces; i++)
		free(tmp_canon[i]);
	free(tmp_canon);
	tmp_canon = NULL;
	free(idx);
	tmp_base = NULL;
	free(tmp);
}

/* ASan builds: the worker checks for leaks as exit() would have. */
void __lsan_do_leak_check(void) __attribute__((weak));

/*
 * A worker: decode the traces in @inputs into @fd, and exit.  With
 * @range, only the events of its clock values [range[0], range[1]);
 * with @again (its copies could not be made), nothing: it asks the
 * parent to read in one process.
 */
static void __attribute__((noreturn))
worker_main(struct analysis *a, const struct reader_options *o,
	    const bt_plugin *ctf, const bt_plugin *utils, char *tmp,
	    char **inputs, unsigned int *idx, unsigned int n,
	    const uint64_t *range, struct sfile *files, unsigned int nr_files,
	    bool again, int fd)
{
	struct wout *w = xcalloc(1, sizeof(*w));
	struct analysis wa;
	struct reader r;
	struct wctx c;
	struct port_names pn = { NULL, 0 };
	bt_graph *graph = NULL;
	int failed;
	char *text = NULL;
	size_t text_len = 0;
	FILE *err;

	w->fd = fd;
	memset(&c, 0, sizeof(c));
	c.d.a = a;
	c.d.tmp = tmp;
	c.d.order_check = true;
	c.d.files = files;
	c.d.nr_files = nr_files;
	if (range) {
		c.d.range = true;
		c.d.lo = range[0];
		c.d.hi = range[1];
	} else {
		c.d.skeys = true;
	}
	c.w = w;
	tmp_base = tmp;
	if (range) {
		/* folded here: into an analysis of its own */
		memset(&wa, 0, sizeof(wa));
		wa.traces = a->traces;
		wa.nr_traces = a->nr_traces;
		reader_init(&r, &wa, 1);
		r.edge = range[0] != 0;
		c.r = &r;
	}
	if (again) {
		pw_status(w, PART_AGAIN, NULL);
		wout_flush(w);
		_exit(1);
	}
	err = open_memstream(&text, &text_len);
	if (!err)
		oom_exit();
	/* by file, the decoder numbers streams as their ports say */
	failed = build_graph(a, o, ctf, utils, inputs, idx, n, true,
			     range ? consume_fold : consume_worker, &c, err,
			     &graph, range ? NULL : &pn);
	c.d.ports = pn.v;
	c.d.nr_ports = pn.n;
	if (failed || run_graph(graph, a, o, err)) {
		fclose(err);
		if (range)
			pw_status(w, c.d.range_bad || r.edge_fail ?
				  PART_AGAIN : PART_ERROR, text);
		else
			write_simple(w, R_ERROR, text, 0);
		wout_flush(w);
		_exit(1);
	}
	fclose(err);
	free(text);
	worker_send(&c, a);
	close(fd);
	bt_graph_put_ref(graph);
	decoder_free(&c.d);
	free(w);
	worker_free(a, tmp, inputs, idx, n, files, nr_files);
	if (__lsan_do_leak_check)
		__lsan_do_leak_check();
	_exit(0);
}

/*
 * @path as libbabeltrace2 names a trace directory it was given: absolute,
 * without "." and ".." components or repeated slashes, links not
 * followed.
 */
static char *canon_path(const char *path)
{
	char cwd[PATH_MAX], *buf, *out;
	const char *p;
	size_t o = 0, n;

	if (path[0] != '/' && !getcwd(cwd, sizeof(cwd)))
		return xstrdup(path);
	n = (path[0] == '/' ? 0 : strlen(cwd)) + strlen(path) + 2;
	buf = xcalloc(1, n);
	snprintf(buf, n, "%s/%s", path[0] == '/' ? "" : cwd, path);
	out = xcalloc(1, n);
	for (p = buf; *p;) {
		size_t len;

		while (*p == '/')
			p++;
		len = strcspn(p, "/");
		if (!len)
			break;
		if (len == 1 && p[0] == '.') {
			/* nothing */
		} else if (len == 2 && p[0] == '.' && p[1] == '.') {
			while (o && out[o - 1] != '/')
				o--;
			if (o)
				o--;
		} else {
			out[o++] = '/';
			memcpy(out + o, p, len);
			o += len;
		}
		p += len;
	}
	if (!o)
		out[o++] = '/';
	out[o] = '\0';
	free(buf);
	return out;
}

/*
 * Worker @k, just forked, writing into pipe @pfd: its trace directories
 * (TMP/wK/tN), then worker_main(), which does not return.
 */
void __attribute__((noreturn))
worker_child(struct par *p, unsigned int k, int pfd[2])
{
	struct analysis *a = p->a;
	char **inputs = xcalloc(a->nr_traces, sizeof(*inputs));
	unsigned int *idx = xcalloc(a->nr_traces, sizeof(*idx));
	size_t len = strlen(p->t.base) + 16;
	unsigned int ni = 0, i, j, fa, fb, nr_files = 0;
	struct sfile *files = NULL;
	uint64_t range[2] = { 0, 0 };
	bool again = false;
	char *base;

	/* the directory is the parent's to remove */
	tmp_unguard();
	sigprocmask(SIG_SETMASK, &p->mask, NULL);
	/* the parent gone (even SIGKILL), no worker goes on copying */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != p->parent)
		_exit(1);
	tmp_canon = xcalloc(a->nr_traces, sizeof(*tmp_canon));
	for (i = 0; i < a->nr_traces; i++)
		tmp_canon[i] = canon_path(a->traces[i]);
	for (j = 0; j < k; j++)
		close(p->w[j].fd);
	close(pfd[0]);
	base = xcalloc(1, len);
	snprintf(base, len, "%s/w%u", p->t.base, k);
	if (p->cut) {
		range[0] = p->cut[k];
		range[1] = p->cut[k + 1];
		again = worker_copy(p, k, base) != 0;
	}
	for (i = 0; i < a->nr_traces; i++) {
		for (j = 0; j < p->nf; j++)
			if (p->f[j].trace == i &&
			    (p->cut ? range_packets(&p->f[j], range[0],
						    range[1], &fa, &fb) :
			     p->f[j].worker == k))
				break;
		if (j == p->nf)
			continue;
		inputs[ni] = xcalloc(1, strlen(base) + 16);
		snprintf(inputs[ni], strlen(base) + 16, "%s/t%u", base, i);
		idx[ni++] = i;
	}
	/*
	 * The parent's, not the worker's, but the files: by time their
	 * index, by file their names (decode.c, stream_no())
	 */
	files = p->f;
	nr_files = p->nf;
	p->f = NULL;
	par_free(p);
	while (p->t.n)
		free(p->t.made[--p->t.n]);
	free(p->t.made);
	free(p->t.base);
	worker_main(a, p->o, p->ctf, p->utils, base, inputs, idx, ni,
		    range[1] ? range : NULL, files, nr_files, again, pfd[1]);
}
