/* SPDX-License-Identifier: MIT */
/*
 * The babeltrace2 graph that reads the traces (reader.c), in one process
 * or in a worker, and what is said when libbabeltrace2 fails: one line
 * naming the trace and the root cause, with a worker's temporary paths
 * replaced by the traces' own.
 */
#include "config.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "reader.h"

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
 * A worker reads its stream files through links in a temporary directory,
 * TMP/tN for the trace directory N: in what it says, the trace's own path
 * stands for TMP/tN.
 */
const char *tmp_base;
char **tmp_canon;	/* per trace: the path libbabeltrace2 names */

static void untmp(const struct analysis *a, char *dst, size_t len,
		  const char *src, size_t n)
{
	size_t o = 0, bl = tmp_base ? strlen(tmp_base) : 0;

	while (n && *src && o + 1 < len) {
		unsigned int idx;
		int off = 0;

		if (bl && n > bl && !strncmp(src, tmp_base, bl) &&
		    sscanf(src + bl, "/t%u%n", &idx, &off) == 1 && off &&
		    idx < a->nr_traces && bl + (size_t)off <= n) {
			o += (size_t)snprintf(dst + o, len - o, "%s",
					      tmp_canon ? tmp_canon[idx] :
					      a->traces[idx]);
			if (o >= len)
				o = len - 1;
			src += bl + (size_t)off;
			n -= bl + (size_t)off;
			continue;
		}
		dst[o++] = *src++;
		n--;
	}
	dst[o] = '\0';
}

static void print_bt_error_to(FILE *out, const struct analysis *a,
			      const char *path, const char *what,
			      bool verbose);

/*
 * Print the error babeltrace2 left on this thread as one line:
 *   rpcsim-analyze: PATH: WHAT: ROOT CAUSE [(FILE)]
 * PATH is the trace directory of the source component that failed (the
 * causes name the component, "srcN"), ROOT CAUSE the oldest cause, which
 * says what was wrong, and FILE the stream file a later cause names when
 * the root one does not.  With verbose, every cause follows.
 */
static void print_bt_error_to(FILE *out, const struct analysis *a,
			      const char *path, const char *what, bool verbose)
{
	const bt_error *err = bt_current_thread_take_error();
	const char *root = NULL, *file = NULL;
	size_t file_len = 0;
	char msg[512], clean[4096], fname[PATH_MAX + 64];
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
	untmp(a, clean, sizeof(clean), msg, sizeof(msg));
	if (file) {
		untmp(a, fname, sizeof(fname), file, file_len);
		file_len = strlen(fname);
	}
	fprintf(out, "rpcsim-analyze: %s: %s: %s", path ? path : "trace",
		what, clean);
	if (file && !strstr(clean, "/") && !(path && strlen(path) == file_len &&
					     !strncmp(path, fname, file_len)))
		fprintf(out, " (%s)", fname);
	if (!verbose)
		fprintf(out, " (-v tells more)");
	fputc('\n', out);
	if (verbose)
		for (i = 0; i < n; i++) {
			const bt_error_cause *c =
				bt_error_borrow_cause_by_index(err, i);
			const char *m = bt_error_cause_get_message(c);

			untmp(a, clean, sizeof(clean), m ? m : "",
			      m ? strlen(m) : 0);
			fprintf(out, "  caused by [%s] (%s:%" PRIu64 "): %s\n",
				bt_error_cause_get_module_name(c),
				bt_error_cause_get_file_name(c),
				bt_error_cause_get_line_number(c), clean);
		}
	if (err)
		bt_error_release(err);
}

bool verbose_errors(const struct reader_options *o)
{
	return o->bt_log_level < BT_LOGGING_LEVEL_NONE;
}

/* A graph being built by build_graph(). */
struct graph_build {
	const struct analysis *a;
	const struct reader_options *o;
	FILE *err;			/* where a failure is said */
	bt_graph *graph;
	const bt_component_sink *sink;
	const bt_component_source **srcs;	/* one per input */
	const unsigned int *idx;	/* their trace indexes */
	unsigned int n;
	struct port_names *pn;		/* NULL: not wanted */
};

/*
 * babeltrace2 2.0.4 indexes every stream file when its source component
 * is created and loops forever on a packet that claims to be 0 bits long;
 * where the packet size lies depends on the metadata, so rather than
 * decode CTF here, a watchdog bounds the indexing: it reads each packet's
 * header once, so its time grows with the size of the files, and the
 * allowance (index_watchdog_s plus one second per 16 MiB) is far above
 * what it takes.  Armed before a source component is created, disarmed
 * with alarm(0) after; nothing when the watchdog is off.
 */
static void index_watchdog_arm(const struct analysis *a,
			       const struct reader_options *o)
{
	uint64_t s;

	if (!o->index_watchdog_s)
		return;
	s = o->index_watchdog_s + (stream_bytes(a) >> 24);
	alarm(s > UINT_MAX ? UINT_MAX : (unsigned int)s);
}

/* The names of @src's output ports, added to @pn. */
static void add_port_names(struct port_names *pn,
			   const bt_component_source *src)
{
	uint64_t i, np = bt_component_source_get_output_port_count(src);

	pn->v = xrealloc(pn->v, pn->n + np + 1, sizeof(*pn->v));
	for (i = 0; i < np; i++)
		pn->v[pn->n++] = xstrdup(bt_port_get_name(
			bt_port_output_as_port_const(
				bt_component_source_borrow_output_port_by_index_const(
					src, i))));
}

/*
 * One source.ctf.fs component per input directory, "srcN" for trace
 * index idx[i], into b->srcs; their output ports counted in @ports.  0,
 * or 1 after printing why.
 */
static int add_sources(struct graph_build *b,
		       const bt_component_class_source *src_cls,
		       char *const *inputs, uint64_t *ports)
{
	const struct analysis *a = b->a;
	const struct reader_options *o = b->o;
	unsigned int i;
	int ret = 1;

	index_watchdog_arm(a, o);
	*ports = 0;
	for (i = 0; i < b->n; i++) {
		const char *path = a->traces[b->idx[i]];
		bt_value *params, *inputs_v;
		bt_graph_add_component_status st;
		char name[32];

		if (inputs == a->traces && check_metadata(path))
			goto out;
		params = bt_value_map_create();
		if (!params ||
		    bt_value_map_insert_empty_array_entry(params, "inputs",
							  &inputs_v) ||
		    bt_value_array_append_string_element(inputs_v, inputs[i]))
			oom_exit();
		snprintf(name, sizeof(name), "src%u", b->idx[i]);
		st = bt_graph_add_source_component(b->graph, src_cls, name,
						   params, o->bt_log_level,
						   &b->srcs[i]);
		bt_value_put_ref(params);
		if (st != BT_GRAPH_ADD_COMPONENT_STATUS_OK) {
			print_bt_error_to(b->err, a, path, "cannot open trace",
					  verbose_errors(o));
			goto out;
		}
		*ports += bt_component_source_get_output_port_count(b->srcs[i]);
		if (b->pn)
			add_port_names(b->pn, b->srcs[i]);
	}
	ret = 0;
out:
	if (o->index_watchdog_s)
		alarm(0);
	return ret;
}

/*
 * How many streams libbabeltrace2 makes of trace @t's stream files, in
 * *@nr: the output ports of a source component over it, one per stream.
 * Files of one stream instance (LTTng's rotation of tracefiles, or files
 * copied together) make one stream, read in one order, a packet that two
 * of them hold kept once.  The component indexes every file, as the
 * reading's does, under the same watchdog.  (Not the source's
 * "babeltrace.trace-infos" query, which says the same: 2.0.4 aborts on
 * some corrupted packets there, adding an error cause from a component
 * that a query does not have.)  0, or -1 with libbabeltrace2's error
 * cleared.
 */
int count_streams(const struct analysis *a, const struct reader_options *o,
		  const bt_plugin *ctf, unsigned int t, uint64_t *nr)
{
	const bt_component_class_source *src_cls =
		bt_plugin_borrow_source_component_class_by_name_const(ctf,
								      "fs");
	const bt_component_source *src;
	bt_graph *graph = NULL;
	bt_value *params, *inputs_v;
	int ret = -1;

	*nr = 0;
	params = bt_value_map_create();
	if (!params ||
	    bt_value_map_insert_empty_array_entry(params, "inputs",
						  &inputs_v) ||
	    bt_value_array_append_string_element(inputs_v, a->traces[t]))
		oom_exit();
	if (!src_cls)
		goto out;
	graph = bt_graph_create(0);
	if (!graph)
		oom_exit();
	index_watchdog_arm(a, o);
	if (bt_graph_add_source_component(graph, src_cls, "count", params,
					  o->bt_log_level, &src) !=
	    BT_GRAPH_ADD_COMPONENT_STATUS_OK)
		goto out;
	*nr = bt_component_source_get_output_port_count(src);
	ret = 0;
out:
	if (o->index_watchdog_s)
		alarm(0);
	if (ret)
		bt_current_thread_clear_error();
	bt_graph_put_ref(graph);
	bt_value_put_ref(params);
	return ret;
}

/* The single source's single port straight to the sink.  0 or 1. */
static int connect_direct(struct graph_build *b)
{
	if (bt_graph_connect_ports(b->graph,
		bt_component_source_borrow_output_port_by_index_const(b->srcs[0], 0),
		bt_component_sink_borrow_input_port_by_index_const(b->sink, 0),
		NULL) != BT_GRAPH_CONNECT_PORTS_STATUS_OK) {
		print_bt_error_to(b->err, b->a, b->a->traces[b->idx[0]],
				  "cannot connect the trace's streams",
				  verbose_errors(b->o));
		return 1;
	}
	return 0;
}

/* Every source port -> a filter.utils.muxer -> the sink.  0 or 1. */
static int connect_muxer(struct graph_build *b,
			 const bt_component_class_filter *mux_cls)
{
	const struct analysis *a = b->a;
	const bt_component_filter *mux = NULL;
	uint64_t mux_port = 0;
	unsigned int i;

	if (bt_graph_add_filter_component(b->graph, mux_cls, "mux", NULL,
					  b->o->bt_log_level, &mux) !=
	    BT_GRAPH_ADD_COMPONENT_STATUS_OK) {
		print_bt_error_to(b->err, a, NULL, "cannot create the muxer",
				  verbose_errors(b->o));
		return 1;
	}
	for (i = 0; i < b->n; i++) {
		uint64_t p, np =
			bt_component_source_get_output_port_count(b->srcs[i]);

		for (p = 0; p < np; p++) {
			if (bt_graph_connect_ports(b->graph,
				bt_component_source_borrow_output_port_by_index_const(b->srcs[i], p),
				bt_component_filter_borrow_input_port_by_index_const(mux, mux_port),
				NULL) != BT_GRAPH_CONNECT_PORTS_STATUS_OK) {
				print_bt_error_to(b->err, a,
					a->traces[b->idx[i]],
					"cannot connect the trace's streams",
					verbose_errors(b->o));
				return 1;
			}
			mux_port++;
		}
	}
	if (bt_graph_connect_ports(b->graph,
		bt_component_filter_borrow_output_port_by_index_const(mux, 0),
		bt_component_sink_borrow_input_port_by_index_const(b->sink, 0),
		NULL) != BT_GRAPH_CONNECT_PORTS_STATUS_OK) {
		print_bt_error_to(b->err, a, NULL, "cannot connect the muxer",
				  verbose_errors(b->o));
		return 1;
	}
	return 0;
}

/*
 * The graph: one source.ctf.fs component per input directory, named
 * "srcN" for trace index idx[i] (a failing component names its trace),
 * -> one filter.utils.muxer -> a simple sink calling @consume.  With
 * @direct, a single stream goes to the sink without a muxer (a worker
 * with one stream file: there is nothing to merge).  0, or 1 after
 * printing why on @err.
 */
int build_graph(const struct analysis *a, const struct reader_options *o,
		const bt_plugin *ctf, const bt_plugin *utils,
		char *const *inputs, const unsigned int *idx,
		unsigned int n, bool direct,
		bt_graph_simple_sink_component_consume_func consume,
		void *data, FILE *err, bt_graph **out, struct port_names *pn)
{
	struct graph_build b = { .a = a, .o = o, .err = err, .idx = idx,
				 .n = n, .pn = pn };
	const bt_component_class_source *src_cls;
	const bt_component_class_filter *mux_cls;
	uint64_t ports;
	int ret = 1;

	*out = NULL;
	src_cls = bt_plugin_borrow_source_component_class_by_name_const(ctf,
									"fs");
	mux_cls = bt_plugin_borrow_filter_component_class_by_name_const(utils,
									"muxer");
	if (!src_cls || !mux_cls) {
		fprintf(err, "rpcsim-analyze: babeltrace2 component class source.ctf.fs or filter.utils.muxer missing\n");
		return 1;
	}
	b.srcs = xcalloc(n ? n : 1, sizeof(*b.srcs));
	b.graph = bt_graph_create(0);
	if (!b.graph)
		oom_exit();
	if (bt_graph_add_simple_sink_component(b.graph, "sink", NULL, consume,
					       NULL, data, &b.sink) !=
	    BT_GRAPH_ADD_COMPONENT_STATUS_OK) {
		print_bt_error_to(err, a, NULL, "cannot create the sink",
				  verbose_errors(o));
		goto out;
	}
	if (add_sources(&b, src_cls, inputs, &ports))
		goto out;
	if (direct && n == 1 && ports == 1)
		ret = connect_direct(&b);
	else
		ret = connect_muxer(&b, mux_cls);
out:
	free(b.srcs);
	if (ret)
		bt_graph_put_ref(b.graph);
	else
		*out = b.graph;
	return ret;
}

/* Run the graph to its end.  0, or 1 after printing why on @err. */
int run_graph(bt_graph *graph, const struct analysis *a,
	      const struct reader_options *o, FILE *err)
{
	for (;;) {
		bt_graph_run_status st = bt_graph_run(graph);

		if (st == BT_GRAPH_RUN_STATUS_OK)
			return 0;
		if (st == BT_GRAPH_RUN_STATUS_AGAIN) {
			struct timespec ts = { 0, 1000000 };

			nanosleep(&ts, NULL);
			continue;
		}
		print_bt_error_to(err, a, a->nr_traces == 1 ? a->traces[0] : NULL,
				  st == BT_GRAPH_RUN_STATUS_MEMORY_ERROR ?
				  "out of memory reading trace" :
				  "cannot read trace", verbose_errors(o));
		return 1;
	}
}

/*
 * libbabeltrace2 2.0.4 ends a stream it cannot decode any further (an
 * event cut at the end of the last packet, say) as if it were complete,
 * and leaves the error on the thread (the babeltrace2 command exits 0
 * too).  Take it, so nothing stale trips its next call, and have the
 * report say the trace was read only in part: its first cause, or NULL.
 */
char *take_read_error(const struct analysis *a)
{
	const bt_error *err = bt_current_thread_take_error();
	const char *m;
	char msg[512], clean[1024];

	if (!err)
		return NULL;
	m = bt_error_get_cause_count(err) ?
		bt_error_cause_get_message(bt_error_borrow_cause_by_index(err,
									  0)) :
		NULL;
	clean_cause(msg, sizeof(msg), m ? m : "unknown error");
	untmp(a, clean, sizeof(clean), msg, sizeof(msg));
	bt_error_release(err);
	return xstrdup(clean);
}
