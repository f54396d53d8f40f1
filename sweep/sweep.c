/* SPDX-License-Identifier: MIT */
/*
 * Sweeps: the entry points of sweep.h (the result files of a folder,
 * their tables for rpcsim --sweep and rpcsim-compare --sweep, the folders
 * of several machines) and the reading back of results.h's files.  The
 * rpcsim sweep's table is read in table_read.c and printed in
 * table_print.c; pagebench's is sweep_pagebench.c's.
 */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <json-c/json.h>

#include "files.h"
#include "results.h"
#include "sweep.h"
#include "sweep_json.h"
#include "table.h"
#include "tool.h"

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int sweep_dir_files(const char *dir, char ***paths)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **list = NULL;
	size_t n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name), plen;

		if (e->d_name[0] == '.' || len < 6 ||
		    strcmp(e->d_name + len - 5, ".json"))
			continue;
		list = xrealloc(list, n + 2, sizeof(*list));
		plen = strlen(dir) + len + 2;
		list[n] = xcalloc(plen, 1);
		snprintf(list[n++], plen, "%s/%s", dir, e->d_name);
	}
	closedir(d);
	if (!list)
		list = xcalloc(1, sizeof(*list));
	qsort(list, n, sizeof(*list), cmp_name);
	list[n] = NULL;
	*paths = list;
	return (int)n;
}

void sweep_free_paths(char **paths)
{
	for (char **p = paths; p && *p; p++)
		free(*p);
	free(paths);
}
/* --- reading a result file ------------------------------------------- */

struct json_object *sweep_read_json(const char *path, char *err,
				    size_t errlen)
{
	struct json_tokener *tok;
	enum json_tokener_error jerr;
	struct json_object *root;
	size_t len = 0, end;
	char *buf = read_regular_file(path, FILE_READ_MAX, &len, err, errlen);
	int e;

	if (!buf)
		return NULL;
	if (strlen(buf) != len) {
		snprintf(err, errlen, "not JSON: a NUL byte at offset %zu",
			 strlen(buf));
		free(buf);
		errno = EINVAL;
		return NULL;
	}
	tok = json_tokener_new();
	if (!tok)
		tool_die(1, "out of memory");
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	/* The terminating NUL ends a top-level number as well. */
	root = json_tokener_parse_ex(tok, buf, (int)len + 1);
	jerr = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (root && jerr == json_tokener_success) {
		free(buf);
		return root;
	}
	json_object_put(root);
	if (strspn(buf, " \t\r\n") == len)
		snprintf(err, errlen, "empty: not a JSON document");
	else if (jerr == json_tokener_continue || end >= len)
		snprintf(err, errlen, "not JSON: the document ends early "
			 "(truncated?)");
	else
		snprintf(err, errlen, "not JSON: %s at byte %zu",
			 json_tokener_error_desc(jerr), end);
	e = EINVAL;
	free(buf);
	errno = e;
	return NULL;
}

/* --- a result file's settings, to resume (results.h) -------------------- */

char *results_file_settings(const char *path, const char *program,
			    const char *body, char *err, size_t errlen)
{
	struct json_object *root = sweep_read_json(path, err, errlen), *sw;
	const char *prog, *s;
	char *ret = NULL;

	if (!root)
		return NULL;
	prog = sweep_get_str(root, "program");
	sw = sweep_get_obj(root, "sweep", json_type_object);
	s = sw ? sweep_get_str(sw, "settings") : NULL;
	if (prog && !strcmp(prog, program) && s &&
	    sweep_get_obj(root, body, json_type_array))
		ret = xstrdup(s);
	else
		snprintf(err, errlen, "not a result of %s (no \"program\": "
			 "\"%s\", sweep.settings or %s)", program, program,
			 body);
	json_object_put(root);
	if (!ret)
		errno = EINVAL;
	return ret;
}

int results_resume(const char *dir, const char *name, const char *program,
		   const char *body, const char *settings, const char *what)
{
	char *path = results_path(dir, name), err[256];
	char *had = results_file_settings(path, program, body, err,
					  sizeof(err));
	int e = errno, done = had && !strcmp(had, settings);
	/* "pagebench: pagebench: PATH ...": the tool's name once. */
	bool named = !strcmp(what, tool_name);
	const char *who = named ? "" : what, *sep = named ? "" : ": ";
	struct stat st;

	if (had && !done) {
		fprintf(stderr, "%s: %s holds other settings (%s); %s runs "
			"again with %s\n", tool_name, path, had, what,
			settings);
	} else if (!had && !stat(path, &st) && !S_ISREG(st.st_mode)) {
		/* Not ours to replace: a FIFO, a device, a folder. */
		fprintf(stderr, "%s: %s%s%s: %s, not replaced by a result; "
			"remove it or choose another --results\n", tool_name,
			who, sep, path, err);
		done = -1;
	} else if (!had && e != ENOENT) {
		fprintf(stderr, "%s: %s%s%s is %s (%s); running it again\n",
			tool_name, who, sep, path,
			strstr(err, "truncated") ? "truncated" : "unusable",
			err);
	}
	free(had);
	free(path);
	return done;
}

/*
 * sweep_table(), and with @keep the table is left there (for the table
 * across folders) instead of freed.
 */
static int table_of(FILE *out, const char *prog, char *const *paths,
		    const char *plot_path, const char *gnuplot,
		    struct table *keep)
{
	struct table t = { 0 };
	int ret = table_read(&t, prog, paths);

	if (ret) {
		if (keep)
			memset(keep, 0, sizeof(*keep));
		return ret;
	}
	ret = table_print(out, prog, &t, plot_path, gnuplot);
	if (keep)
		*keep = t;
	else
		table_free(&t);
	return ret;
}

int sweep_table(FILE *out, const char *prog, char *const *paths,
		const char *plot_path, const char *gnuplot)
{
	return table_of(out, prog, paths, plot_path, gnuplot, NULL);
}

/* --- a folder of several tools' files ------------------------------------ */

/* Is @path a document of pagebench's (its "program")? */
static bool is_pagebench(const char *path)
{
	char err[256];
	struct json_object *root = sweep_read_json(path, err, sizeof(err));
	const char *prog = sweep_get_str(root, "program");
	bool ret = prog && !strcmp(prog, "pagebench");

	json_object_put(root);
	return ret;
}

static int tables_of(FILE *out, const char *prog, char *const *paths,
		     const char *plot_path, const char *gnuplot,
		     struct table *keep)
{
	/* the rpcsim table, kept to know whether it was printed */
	struct table own = { 0 }, *t = keep ? keep : &own;
	size_t n = 0, nr_rp = 0, nr_pb = 0;
	char **rp, **pb;
	int ret = 0;

	while (paths[n])
		n++;
	rp = xcalloc(n + 1, sizeof(*rp));
	pb = xcalloc(n + 1, sizeof(*pb));
	for (size_t i = 0; i < n; i++) {
		if (is_pagebench(paths[i]))
			pb[nr_pb++] = paths[i];
		else
			rp[nr_rp++] = paths[i];
	}
	if (plot_path && !nr_rp) {
		fprintf(stderr, "%s: --plot=%s: no rpcsim --sweep point to "
			"draw (pagebench's rows are tabulated, not drawn)\n",
			prog, plot_path);
		ret = 1;
		goto out;
	}
	if (nr_rp)
		ret = table_of(out, prog, rp, plot_path, gnuplot, t);
	if (nr_pb) {
		/* between two tables: none before when the points were refused */
		if (t->nr_rows)
			fputc('\n', out);
		ret |= sweep_pagebench_table(out, prog, pb);
	}
out:
	if (!keep)
		table_free(&own);
	free(rp);
	free(pb);
	return ret;
}

int sweep_tables(FILE *out, const char *prog, char *const *paths,
		 const char *plot_path, const char *gnuplot)
{
	return tables_of(out, prog, paths, plot_path, gnuplot, NULL);
}

/* --- several folders: a machine each ----------------------------------- */

int sweep_dir_folders(const char *dir, char ***names)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **list = xcalloc(1, sizeof(*list));
	size_t n = 0;

	if (!d) {
		free(list);
		return -1;
	}
	while ((e = readdir(d))) {
		char *path, **files = NULL;
		size_t len;
		int nr;

		if (e->d_name[0] == '.')
			continue;
		len = strlen(dir) + strlen(e->d_name) + 2;
		path = xcalloc(len, 1);
		snprintf(path, len, "%s/%s", dir, e->d_name);
		/* A folder (not a file) with a result file in it. */
		nr = sweep_dir_files(path, &files);
		sweep_free_paths(files);
		if (nr <= 0) {
			free(path);
			continue;
		}
		list = xrealloc(list, n + 2, sizeof(*list));
		list[n++] = path;
	}
	closedir(d);
	qsort(list, n, sizeof(*list), cmp_name);
	list[n] = NULL;
	*names = list;
	return (int)n;
}

int sweep_folders(FILE *out, const char *prog, char *const *names,
		  char **const *paths, unsigned int n)
{
	struct table *tabs = xcalloc(n, sizeof(*tabs));
	int ret = 0;

	for (unsigned int i = 0; i < n; i++) {
		fprintf(out, "%s== %s ==\n", i ? "\n" : "", names[i]);
		ret |= tables_of(out, prog, paths[i], NULL, NULL, &tabs[i]);
	}
	table_print_across(out, tabs, names, n);
	for (unsigned int i = 0; i < n; i++)
		table_free(&tabs[i]);
	free(tabs);
	return ret;
}
