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
 * and split by time; worker.c, a worker process; merge.c, the parent's
 * merge of what the workers send; reader.c, the reading in one process
 * (read_sequential()) or in workers (read_parallel()) and read_traces();
 * reader.h, what they share.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

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

void seq_read_init(struct seq_read *s, struct analysis *a)
{
	reader_init(&s->r, a, 1);
	memset(&s->d, 0, sizeof(s->d));
	s->d.a = a;
}

void seq_read_finish(struct seq_read *s)
{
	s->r.a->read_error = take_read_error(s->r.a);
	reader_finish(&s->r);
}

void seq_read_free(struct seq_read *s)
{
	reader_free(&s->r);
	decoder_free(&s->d);
}

/* --jobs=1: one graph, each record folded as it is decoded */
static void fold_seq(void *data, const struct rec *rc)
{
	struct seq_read *s = data;

	fold(&s->r, 0, rc);
}

static bt_graph_simple_sink_component_consume_func_status
consume_seq(bt_message_iterator *it, void *data)
{
	struct seq_read *s = data;

	return consume_records(it, &s->d, fold_seq, s);
}

/* @inputs: per trace the directory to read (partial_trim()), or NULL. */
static int read_sequential(struct analysis *a, const struct reader_options *o,
			   const bt_plugin *ctf, const bt_plugin *utils,
			   char **inputs, const char *tmp)
{
	struct seq_read s;
	bt_graph *graph = NULL;
	unsigned int *idx, i;
	int ret = 1;

	seq_read_init(&s, a);
	s.d.tmp = tmp;
	idx = xcalloc(a->nr_traces, sizeof(*idx));
	for (i = 0; i < a->nr_traces; i++) {
		idx[i] = i;
		/* build_graph() checks it when it reads the trace itself */
		if (inputs && check_metadata(a->traces[i]))
			goto out;
	}
	if (build_graph(a, o, ctf, utils, inputs ? inputs : a->traces, idx,
			a->nr_traces, false, consume_seq, &s, stderr,
			&graph, NULL) ||
	    run_graph(graph, a, o, stderr))
		goto out;
	seq_read_finish(&s);
	ret = 0;
out:
	bt_graph_put_ref(graph);
	free(idx);
	seq_read_free(&s);
	return ret;
}

#define PIPE_BYTES	(1 << 20)

/*
 * Whether worker @s has closed its pipe: what is left in it is read and
 * dropped (the results are no longer wanted) up to the end, or up to
 * what the worker has not written yet.
 */
static bool worker_closed(struct wsrc *s)
{
	char drop[4096];
	ssize_t n;

	if (s->fd < 0 || fcntl(s->fd, F_SETFL, O_NONBLOCK))
		return false;
	while ((n = read(s->fd, drop, sizeof(drop))) > 0 ||
	       (n < 0 && errno == EINTR))
		;
	return n == 0;
}

/*
 * Each worker still writing is killed.  One that has closed its pipe is
 * ending on its own and is left to: in an ASan build it is checking for
 * leaks by then, and killing it there made LeakSanitizer's stopped-thread
 * helper, which outlives it, print "Unable to get registers from thread
 * N" on our stderr.  (One that closes it between the check and the kill
 * is killed as before: a window of a few instructions, not of the whole
 * leak check.)
 */
static void kill_workers(struct wsrc *w, unsigned int n)
{
	unsigned int k;

	for (k = 0; k < n; k++)
		if (w[k].pid > 0 && !worker_closed(&w[k]))
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
		if (tmp_reap(w[k].pid, &st) <= 0)
			st = 0;
		w[k].pid = 0;
		if (!any && !(WIFEXITED(st) && WEXITSTATUS(st) == 0)) {
			any = true;
			*bad = k;
			*status = st;
		}
	}
	return any;
}

/* The temporary directory of links (make_links()).  0, or 1. */
static int par_links(struct par *p)
{
	const struct analysis *a = p->a;
	unsigned int i;

	p->real = xcalloc(a->nr_traces, sizeof(*p->real));
	for (i = 0; i < a->nr_traces; i++) {
		p->real[i] = realpath(a->traces[i], NULL);
		if (!p->real[i])
			return 1;
	}
	if (tmp_make_base(&p->t))
		return 1;
	if (p->cut)
		return make_split_dirs(p, &p->t);
	return make_links(a, &p->t, p->f, p->nf, p->n, p->real);
}

/* What the parent allocated, but the temporary directory's files. */
void par_free(struct par *p)
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

/* Fork the workers, each with its pipe.  0, or -1 (no pipe, no process). */
static int spawn_workers(struct par *p)
{
	unsigned int k;

	p->w = xcalloc(p->n, sizeof(*p->w));
	for (k = 0; k < p->n; k++)
		p->w[k].fd = -1;
	fflush(NULL);
	p->parent = getpid();
	for (k = 0; k < p->n; k++) {
		int pfd[2];

		if (pipe(pfd))
			return -1;
		/* the guard knows each worker from its fork on */
		tmp_block(&p->mask);
		p->w[k].pid = fork();
		if (p->w[k].pid < 0) {
			tmp_unblock(&p->mask);
			close(pfd[0]);
			close(pfd[1]);
			return -1;
		}
		if (p->w[k].pid == 0)
			worker_child(p, k, pfd);
		tmp_add_pid(p->w[k].pid);
		tmp_unblock(&p->mask);
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
		if (tmp_reap(w[ended].pid, &status) <= 0)
			status = 0;
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
	if (WIFSIGNALED(status) && WTERMSIG(status) != SIGABRT &&
	    WTERMSIG(status) != SIGFPE && WTERMSIG(status) != SIGALRM) {
		/* killed: said as it was, not as a trace it could not read */
		fprintf(stderr, "rpcsim-analyze: decoding worker %d killed by "
			"signal %d (%s)\n", ended, WTERMSIG(status),
			strsignal(WTERMSIG(status)));
		return 1;
	}
	if (WIFSIGNALED(status)) {
		/*
		 * libbabeltrace2 aborted on the trace (an assertion) or
		 * divided by zero on its metadata (2.0.4's CTF plugin, on
		 * some clock declarations), or the worker's indexing watchdog
		 * fired: end as it did, so that the isolating parent says it
		 * as it would have of one process.
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

/*
 * By file, a worker's graph sees its own files alone: each file must be a
 * stream of its own (count_streams()).  Files of one stream instance
 * shared among workers would each be read on their own, where one graph
 * reads them as one stream and keeps once a packet two of them hold.
 * An empty file is no stream (libbabeltrace2 leaves it out, in one graph
 * as in a worker's), so it is not counted.  1 if some files share a
 * stream, -1 if the streams could not be counted (the reading in one
 * process says why), 0 if each file is a stream: only then workers.
 */
static int files_share_streams(const struct par *p)
{
	for (unsigned int t = 0; t < p->a->nr_traces; t++) {
		uint64_t files = 0, streams;

		for (unsigned int i = 0; i < p->nf; i++)
			files += p->f[i].trace == t && p->f[i].size;
		if (files < 2)
			continue;
		if (count_streams(p->a, p->o, p->ctf, t, &streams))
			return -1;
		if (streams != files)
			return 1;
	}
	return 0;
}

/* 0, 1 after printing why, or READ_AGAIN (one process will do). */
static int read_parallel(struct analysis *a, const struct reader_options *o,
			 const bt_plugin *ctf, const bt_plugin *utils)
{
	struct par p = { .a = a, .o = o, .ctf = ctf, .utils = utils };
	uint64_t by_file = 0;
	unsigned int i;
	int ret = 1, ended = -1, shared;
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
	} else if ((shared = files_share_streams(&p))) {
		if (verbose_errors(o))
			fprintf(stderr, "rpcsim-analyze: --jobs=%u: %s: read "
				"in one process\n", o->jobs, shared > 0 ?
				"files of one stream instance" :
				"the streams could not be counted");
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
	tmp_guard(&p.t);
	if (par_links(&p))
		goto out;
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
	struct tmpdir t = { 0 };
	char **inputs = NULL;
	unsigned int i;
	int ret = 1;

	if (find_plugin("ctf", &ctf) || find_plugin("utils", &utils))
		goto out;
	/* a stream cut mid-packet: its whole packets, in one process */
	if (o->partial)
		inputs = partial_trim(a, &t);
	if (o->jobs > 1 && !inputs) {
		ret = read_parallel(a, o, ctf, utils);
		if (ret != READ_AGAIN)
			goto out;
	}
	tmp_base = inputs ? t.base : NULL;
	ret = read_sequential(a, o, ctf, utils, inputs, tmp_base);
	tmp_base = NULL;
out:
	if (inputs) {
		tmp_unguard();
		tmp_remove(&t);
		for (i = 0; i < a->nr_traces; i++)
			free(inputs[i]);
		free(inputs);
	}
	bt_plugin_put_ref(ctf);
	bt_plugin_put_ref(utils);
	return ret;
}
