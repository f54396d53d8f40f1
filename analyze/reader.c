/* SPDX-License-Identifier: MIT */
/*
 * Read the CTF traces with libbabeltrace2 and fold the events into
 * struct analysis.
 *
 * Two layers.  The decode layer turns each babeltrace2 message into a
 * struct rec: what the event is (entry, exit, ...), its timestamp, vtid
 * and vpid, the members the trace schema binds as integers, and strings
 * only where the fold keeps them (run_start's, a process's first
 * procname, a pagepool event class's name).  The fold layer folds records
 * into struct analysis: threads are keyed by a trace key, not by
 * babeltrace2 objects, so a record can come from another process.
 *
 * --jobs=1: one graph, one source.ctf.fs component per trace directory
 * ("src0", "src1", ...: a failing component names its directory) -> one
 * filter.utils.muxer -> a simple sink, which folds each record as it is
 * decoded.  The muxer is needed: with per-UID buffers a stream holds one
 * CPU's events, a thread that migrates spreads over several streams, and
 * pairing a thread's entry with its exit needs the events in time order.
 *
 * --jobs=N, by time: one trace whose LTTng index vouches for every packet
 * (no discard) is cut into N time ranges; each worker process runs such a
 * graph over a copy of the packets that can hold its range's events, folds
 * them itself, and sends what it folded; the parent merges those in time
 * order ("Folded in the workers" in reader.h).
 *
 * --jobs=N, by file (other traces): the stream files are shared out among
 * N worker processes, each running such a graph over its share and
 * writing the records down a pipe; the parent merges them by timestamp and
 * folds them (plan_file.c says how).
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
 *
 * The files: decode.c, the decode layer; fold.c, the fold layer (and the
 * groups and processes of struct analysis); graph.c, the babeltrace2
 * graph and its errors; tmpdir.c, the workers' temporary directory;
 * plan_file.c and plan_time.c, the work of --jobs=N shared out by file
 * and split by time; merge.c, the parent's merge of what the workers
 * send; reader.c, the rest; reader.h, what they share.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <babeltrace2/babeltrace.h>

#include "reader.h"

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

/* --jobs=1: one graph, each record folded as it is decoded */
struct seq {
	struct reader r;
	struct decoder d;
};

static bt_graph_simple_sink_component_consume_func_status
next_messages(bt_message_iterator *it, bt_message_array_const *msgs,
	      uint64_t *count)
{
	switch (bt_message_iterator_next(it, msgs, count)) {
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_OK:
		return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_OK;
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_END:
		return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_END;
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_AGAIN:
		return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_AGAIN;
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_MEMORY_ERROR:
		return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_MEMORY_ERROR;
	default:
		return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_ERROR;
	}
}

/*
 * The sink's step, in one process or in a worker: decode the next
 * messages and hand each record to @use.  Always inline, so that in each
 * caller @use is a direct call on this per-event path.
 */
static inline __attribute__((always_inline))
bt_graph_simple_sink_component_consume_func_status
consume_records(bt_message_iterator *it, struct decoder *d,
		void (*use)(void *data, const struct rec *rc), void *data)
{
	bt_message_array_const msgs;
	uint64_t count, i;
	bt_graph_simple_sink_component_consume_func_status st;
	struct rec rc;

	st = next_messages(it, &msgs, &count);
	if (st != BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_OK)
		return st;
	for (i = 0; i < count; i++) {
		if (!d->range_end && decode(d, msgs[i], &rc))
			use(data, &rc);
		bt_message_put_ref(msgs[i]);
	}
	if (__builtin_expect(d->range_end, 0) && !d->range_bad &&
	    !d->order_bad)
		return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_END;
	if (__builtin_expect(d->range_bad, 0)) {
		bt_current_thread_error_append_cause_from_unknown(
			"rpcsim-analyze", __FILE__, __LINE__,
			"an event outside its packet's clock values, or "
			"streams of different clocks: no time range");
		return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_ERROR;
	}
	if (__builtin_expect(d->order_bad, 0)) {
		bt_current_thread_error_append_cause_from_unknown(
			"rpcsim-analyze", __FILE__, __LINE__,
			"a message's timestamp is less than the last one of "
			"its stream: ts=%" PRIu64 ", last-returned-ts=%" PRIu64,
			d->bad_ts, d->last_ts);
		return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_ERROR;
	}
	return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_OK;
}

static void fold_seq(void *data, const struct rec *rc)
{
	struct seq *s = data;

	fold(&s->r, 0, rc);
}

static bt_graph_simple_sink_component_consume_func_status
consume_seq(bt_message_iterator *it, void *data)
{
	struct seq *s = data;

	return consume_records(it, &s->d, fold_seq, s);
}

static int read_sequential(struct analysis *a, const struct reader_options *o,
			   const bt_plugin *ctf, const bt_plugin *utils)
{
	struct seq s;
	bt_graph *graph = NULL;
	unsigned int *idx, i;
	int ret = 1;

	reader_init(&s.r, a, 1);
	memset(&s.d, 0, sizeof(s.d));
	s.d.a = a;
	idx = xcalloc(a->nr_traces, sizeof(*idx));
	for (i = 0; i < a->nr_traces; i++)
		idx[i] = i;
	if (build_graph(a, o, ctf, utils, a->traces, idx, a->nr_traces,
			false, consume_seq, &s, stderr, &graph) ||
	    run_graph(graph, a, o, stderr))
		goto out;
	a->read_error = take_read_error(a);
	reader_finish(&s.r);
	ret = 0;
out:
	bt_graph_put_ref(graph);
	free(idx);
	reader_free(&s.r);
	decoder_free(&s.d);
	return ret;
}

#define PIPE_BYTES	(1 << 20)

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
		.cls = rc->cls, .trace = (uint32_t)rc->trace, .ts = rc->ts,
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
		wout_put(w, &g->entries, offsetof(struct group, sums) -
			 offsetof(struct group, entries));
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

/* A worker's record goes to the parent; an event not ours is counted. */
static void send_rec(void *data, const struct rec *rc)
{
	struct wctx *c = data;

	if (rc->type == R_EVENT && rc->kind == EV_OTHER)
		c->other++;
	else
		write_rec(c->w, rc);
}

static bt_graph_simple_sink_component_consume_func_status
consume_worker(bt_message_iterator *it, void *data)
{
	struct wctx *c = data;

	return consume_records(it, &c->d, send_rec, c);
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
	bt_graph *graph = NULL;
	char *text = NULL, *rerr;
	size_t text_len = 0;
	unsigned int i;
	FILE *err;

	w->fd = fd;
	memset(&c, 0, sizeof(c));
	c.d.a = a;
	c.d.tmp = tmp;
	c.d.order_check = true;
	if (range) {
		c.d.range = true;
		c.d.lo = range[0];
		c.d.hi = range[1];
		c.d.files = files;
		c.d.nr_files = nr_files;
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
	if (build_graph(a, o, ctf, utils, inputs, idx, n, true,
			range ? consume_fold : consume_worker, &c, err,
			&graph) ||
	    run_graph(graph, a, o, err)) {
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
	rerr = take_read_error(a);
	if (range) {
		wa.read_error = rerr;
		rerr = NULL;
		if (r.edge_fail || c.d.range_bad)
			pw_status(w, PART_AGAIN, NULL);
		else
			write_partial(w, &r);
		reader_free(&r);
		wa.traces = NULL;
		wa.nr_traces = 0;
		analysis_free(&wa);
	} else {
		if (rerr)
			write_simple(w, R_READ_ERROR, rerr, 0);
		write_simple(w, R_END, NULL, c.other);
	}
	free(rerr);
	wout_flush(w);
	close(fd);
	bt_graph_put_ref(graph);
	decoder_free(&c.d);
	free(w);
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
	if (__lsan_do_leak_check)
		__lsan_do_leak_check();
	_exit(0);
}

static void kill_workers(struct wsrc *w, unsigned int n)
{
	unsigned int k;

	for (k = 0; k < n; k++)
		if (w[k].pid > 0)
			kill(w[k].pid, SIGKILL);
}

/*
 * Wait for the workers; the first that did not exit 0 (in worker order)
 * in @bad, its status in @status.  Returns whether there was one.
 */
static bool reap_workers(struct wsrc *w, unsigned int n, unsigned int *bad,
			 int *status)
{
	bool any = false;
	unsigned int k;

	for (k = 0; k < n; k++) {
		int st;

		if (w[k].pid <= 0)
			continue;
		while (waitpid(w[k].pid, &st, 0) < 0 && errno == EINTR)
			;
		w[k].pid = 0;
		if (!any && !(WIFEXITED(st) && WEXITSTATUS(st) == 0)) {
			any = true;
			*bad = k;
			*status = st;
		}
	}
	return any;
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

/* The temporary directory of links (make_links()).  0, or 1. */
static int par_links(struct par *p)
{
	const struct analysis *a = p->a;
	char tmpl[PATH_MAX];
	unsigned int i;

	p->real = xcalloc(a->nr_traces, sizeof(*p->real));
	for (i = 0; i < a->nr_traces; i++) {
		p->real[i] = realpath(a->traces[i], NULL);
		if (!p->real[i])
			return 1;
	}
	snprintf(tmpl, sizeof(tmpl), "%s/rpcsim-analyze.XXXXXX", tmp_parent());
	if (!mkdtemp(tmpl))
		return 1;
	p->t.base = xstrdup(tmpl);
	if (p->cut)
		return make_split_dirs(p, &p->t);
	return make_links(a, &p->t, p->f, p->nf, p->n, p->real);
}

/* What the parent allocated, but the temporary directory's files. */
static void par_free(struct par *p)
{
	unsigned int i, k;

	if (p->real)
		for (i = 0; i < p->a->nr_traces; i++)
			free(p->real[i]);
	free(p->real);
	for (i = 0; p->f && i < p->nf; i++) {
		free(p->f[i].name);
		free(p->f[i].idx);
	}
	free(p->f);
	free(p->cut);
	if (p->w)
		for (k = 0; k < p->n; k++)
			free(p->w[k].buf);
	free(p->w);
}

/*
 * Worker @k, just forked, writing into pipe @pfd: its trace directories
 * (TMP/wK/tN), then worker_main(), which does not return.
 */
static void __attribute__((noreturn))
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
	/* the parent's, not the worker's, but the files by time */
	if (p->cut) {
		files = p->f;
		nr_files = p->nf;
		p->f = NULL;
	}
	par_free(p);
	while (p->t.n)
		free(p->t.made[--p->t.n]);
	free(p->t.made);
	free(p->t.base);
	worker_main(a, p->o, p->ctf, p->utils, base, inputs, idx, ni,
		    range[1] ? range : NULL, files, nr_files, again, pfd[1]);
}

/* Fork the workers, each with its pipe.  0, or -1 (no pipe, no process). */
static int spawn_workers(struct par *p)
{
	unsigned int k;

	p->w = xcalloc(p->n, sizeof(*p->w));
	for (k = 0; k < p->n; k++)
		p->w[k].fd = -1;
	fflush(NULL);
	for (k = 0; k < p->n; k++) {
		int pfd[2];

		if (pipe(pfd))
			return -1;
		p->w[k].pid = fork();
		if (p->w[k].pid < 0) {
			close(pfd[0]);
			close(pfd[1]);
			return -1;
		}
		if (p->w[k].pid == 0)
			worker_child(p, k, pfd);
		close(pfd[1]);
		p->w[k].fd = pfd[0];
		/*
		 * A pipe of 1 MiB (the default most a user may ask): each
		 * side blocks, and waits to be scheduled again, 16 times
		 * less often than with the default 64 KiB.  Best effort.
		 */
		(void)fcntl(pfd[0], F_SETPIPE_SZ, PIPE_BYTES);
	}
	return 0;
}

/* Stop and wait for every worker (spawning failed, or merge() did). */
static void stop_workers(struct par *p)
{
	unsigned int k, bad;
	int status;

	kill_workers(p->w, p->n);
	for (k = 0; k < p->n; k++)
		if (p->w[k].fd >= 0) {
			close(p->w[k].fd);
			p->w[k].fd = -1;
		}
	reap_workers(p->w, p->n, &bad, &status);
}

/*
 * After merge() returned @ret, worker @ended (or -1) having ended its
 * records early: wait for the workers and say what went wrong.  A worker
 * killed by a signal kills this process with it.  Returns the result of
 * read_parallel().
 */
static int end_workers(struct par *p, int ret, int ended)
{
	struct wsrc *w = p->w;
	unsigned int k, bad = 0;
	int status = 0, bad_status = 0;

	if (ended >= 0) {
		/* it closed its pipe: it is dead, or about to be */
		while (waitpid(w[ended].pid, &status, 0) < 0 && errno == EINTR)
			;
		w[ended].pid = 0;
	}
	if (ret)
		kill_workers(w, p->n);
	for (k = 0; k < p->n; k++)
		if (w[k].fd >= 0) {
			close(w[k].fd);
			w[k].fd = -1;
		}
	if (reap_workers(w, p->n, &bad, &bad_status) && !ret && ended < 0) {
		ended = (int)bad;
		status = bad_status;
		ret = 1;
	}
	if (ret == READ_AGAIN)
		analysis_clear(p->a);
	if (ret != 1 || ended < 0)
		return ret;
	if (WIFSIGNALED(status)) {
		/*
		 * A worker crashed, or its indexing watchdog fired: end as
		 * it did, so that the isolating parent says it as it would
		 * have of one process.
		 */
		int sig = WTERMSIG(status);

		tmp_unguard();
		tmp_remove(&p->t);
		signal(sig, SIG_DFL);
		raise(sig);
	}
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		fprintf(stderr, "rpcsim-analyze: a decoding worker ended "
			"without its last records\n");
	return ret;
}

/* 0, 1 after printing why, or READ_AGAIN (one process will do). */
static int read_parallel(struct analysis *a, const struct reader_options *o,
			 const bt_plugin *ctf, const bt_plugin *utils)
{
	struct par p = { .a = a, .o = o, .ctf = ctf, .utils = utils };
	uint64_t by_file = 0;
	unsigned int i;
	int ret = 1, ended = -1;
	char b1[32], b2[32];

	p.f = list_streams(a, &p.nf);
	p.n = o->jobs < p.nf ? o->jobs : p.nf;
	for (i = 0; i < a->nr_traces; i++)
		if (check_metadata(a->traces[i]))
			goto out;
	for (i = 0; i < p.nf; i++)
		by_file += p.f[i].size;
	if (p.n >= 2)
		by_file = share_out(p.f, p.nf, p.n);
	if (split_plan(&p, o->jobs)) {
		if (verbose_errors(o))
			fprintf(stderr, "rpcsim-analyze: --jobs=%u: %u "
				"workers over time ranges of %u stream "
				"file%s, each folding its own; about %s "
				"bytes decoded twice at the edges\n",
				o->jobs, p.n, p.nf, p.nf == 1 ? "" : "s",
				fmt_thousands(b1, sizeof(b1), p.twice));
	} else if (p.n < 2) {
		ret = READ_AGAIN;
		goto out;
	} else if (verbose_errors(o)) {
		fprintf(stderr, "rpcsim-analyze: --jobs=%u: %u workers over "
			"whole stream files, the most bytes one reads %s of "
			"%s\n", o->jobs, p.n, fmt_thousands(b1, sizeof(b1),
							     by_file),
			fmt_thousands(b2, sizeof(b2), stream_bytes(a)));
	}
	/*
	 * From here, what cannot be set up (no temporary directory, no
	 * process left) leaves the reading to one process: the results
	 * are the same.
	 */
	ret = READ_AGAIN;
	if (par_links(&p))
		goto out;
	tmp_guard(&p.t);
	if (spawn_workers(&p)) {
		stop_workers(&p);
		goto out;
	}
	if (p.cut)
		ret = merge_folded(a, p.w, p.n, &ended,
				   verbose_errors(o));
	else
		ret = merge(a, p.w, p.n, &ended);
	ret = end_workers(&p, ret, ended);
out:
	tmp_unguard();
	tmp_remove(&p.t);
	par_free(&p);
	return ret;
}

int read_traces(struct analysis *a, const struct reader_options *o)
{
	const bt_plugin *ctf = NULL, *utils = NULL;
	int ret = 1;

	if (find_plugin("ctf", &ctf) || find_plugin("utils", &utils))
		goto out;
	if (o->jobs > 1) {
		ret = read_parallel(a, o, ctf, utils);
		if (ret != READ_AGAIN)
			goto out;
	}
	ret = read_sequential(a, o, ctf, utils);
out:
	bt_plugin_put_ref(ctf);
	bt_plugin_put_ref(utils);
	return ret;
}
