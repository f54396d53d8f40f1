/* SPDX-License-Identifier: MIT */
/*
 * --jobs=N, by file (reader.c): the stream files are shared out among N
 * workers (the biggest first, each to the worker with the fewest bytes
 * yet), each a process with its own graph over links to its files
 * (TMP/wK/tN/ for trace N: its metadata, its index entries, its stream
 * files), which decodes and writes the records down a pipe.  The parent
 * merges the workers' records by timestamp and folds them: what each
 * worker sends is in time order (its muxer), so the merge is too.  Equal
 * timestamps in two workers' files are taken in the order of the muxer
 * of one graph (merge.c, mux_cmp()), which goes by their streams: the
 * fold depends on that order through what two threads share (the run
 * bracketing a process's events, discards), at the same nanosecond, and
 * --jobs=N promises the results of --jobs=1.  Each worker says how one
 * graph would order each of its streams with its first record
 * (decode.c, stream_no()).  A record without a timestamp (a trace without a clock) cannot be merged:
 * the parent then reads the traces again in one process.  Events not ours
 * are only counted, in the worker.  A worker's error travels as a record
 * and is printed by the parent; a worker killed by a signal
 * (libbabeltrace2 aborting or dividing by zero, the indexing watchdog)
 * kills the parent with that signal, so that the isolating process
 * (rpcsim-analyze.c) says what it says of one process.  Files of one
 * stream instance are not shared out (reader.c, files_share_streams()).
 */
#include "config.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "reader.h"

static int sfile_cmp(const void *x, const void *y)
{
	const struct sfile *a = x, *b = y;

	if (a->size != b->size)
		return a->size > b->size ? -1 : 1;
	if (a->trace != b->trace)
		return a->trace < b->trace ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* The stream files of every trace (what check_streams() looks at). */
struct sfile *list_streams(const struct analysis *a, unsigned int *nr)
{
	struct sfile *v = NULL;
	unsigned int n = 0, i;

	for (i = 0; i < a->nr_traces; i++) {
		DIR *d = opendir(a->traces[i]);
		struct dirent *de;

		while (d && (de = readdir(d))) {
			struct stat st;
			size_t len;
			char *p;

			if (de->d_name[0] == '.' ||
			    !strcmp(de->d_name, "metadata") ||
			    !strcmp(de->d_name, "index"))
				continue;
			len = strlen(a->traces[i]) + strlen(de->d_name) + 2;
			p = xcalloc(1, len);
			snprintf(p, len, "%s/%s", a->traces[i], de->d_name);
			if (stat(p, &st) || S_ISDIR(st.st_mode)) {
				free(p);
				continue;
			}
			free(p);
			v = xrealloc(v, n + 1, sizeof(*v));
			memset(&v[n], 0, sizeof(v[n]));
			v[n].trace = i;
			v[n].name = xstrdup(de->d_name);
			v[n].size = (uint64_t)st.st_size;
			v[n].worker = 0;
			n++;
		}
		if (d)
			closedir(d);
	}
	*nr = n;
	return v;
}

/*
 * The files to @n workers: the biggest first, each to the least loaded.
 * Returns the most bytes one worker got.
 */
uint64_t share_out(struct sfile *f, unsigned int nf, unsigned int n)
{
	uint64_t *load = xcalloc(n, sizeof(*load)), most = 0;
	unsigned int i, k;

	qsort(f, nf, sizeof(*f), sfile_cmp);
	for (i = 0; i < nf; i++) {
		unsigned int best = 0;

		for (k = 1; k < n; k++)
			if (load[k] < load[best])
				best = k;
		f[i].worker = best;
		load[best] += f[i].size ? f[i].size : 1;
		if (load[best] > most)
			most = load[best];
	}
	free(load);
	return most;
}

/*
 * TMP/wK/tN for each trace N with files of worker K: links to its
 * metadata, to its files and to their index entries.  0 or 1.
 */
int make_links(const struct analysis *a, struct tmpdir *t,
	       const struct sfile *f, unsigned int nf,
	       unsigned int workers, char **real)
{
	char p[PATH_MAX + 64], q[PATH_MAX + 64];
	unsigned int k, i;
	struct stat st;

	for (k = 0; k < workers; k++) {
		snprintf(p, sizeof(p), "%s/w%u", t->base, k);
		if (tmp_mkdir(t, p))
			goto fail;
	}
	for (i = 0; i < nf; i++) {
		const char *r = real[f[i].trace];

		snprintf(p, sizeof(p), "%s/w%u/t%u", t->base, f[i].worker,
			 f[i].trace);
		if (stat(p, &st)) {
			if (tmp_mkdir(t, p))
				goto fail;
			snprintf(q, sizeof(q), "%s/metadata", r);
			snprintf(p, sizeof(p), "%s/w%u/t%u/metadata", t->base,
				 f[i].worker, f[i].trace);
			if (tmp_link(t, q, p))
				goto fail;
			snprintf(q, sizeof(q), "%s/index", r);
			if (!stat(q, &st) && S_ISDIR(st.st_mode)) {
				snprintf(p, sizeof(p), "%s/w%u/t%u/index",
					 t->base, f[i].worker, f[i].trace);
				if (tmp_mkdir(t, p))
					goto fail;
			}
		}
		snprintf(q, sizeof(q), "%s/%s", r, f[i].name);
		snprintf(p, sizeof(p), "%s/w%u/t%u/%s", t->base, f[i].worker,
			 f[i].trace, f[i].name);
		if (tmp_link(t, q, p))
			goto fail;
		snprintf(q, sizeof(q), "%s/index/%s.idx", r, f[i].name);
		if (!stat(q, &st)) {
			snprintf(p, sizeof(p), "%s/w%u/t%u/index/%s.idx",
				 t->base, f[i].worker, f[i].trace, f[i].name);
			if (tmp_link(t, q, p))
				goto fail;
		}
	}
	return 0;
fail:
	return 1;
}
