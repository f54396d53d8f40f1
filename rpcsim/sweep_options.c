/* SPDX-License-Identifier: MIT */
/*
 * The command line's sweeps: --sweep=KEY=V1,V2,... (each value checked as
 * its option would check it), --results=DIR, --plan and --point=N; the
 * grid's points, their names, settings and commands.
 */
#include <config.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "options_internal.h"
#include "results.h"
#include "util.h"

/* What a sweep may vary: options of the table, and PAGEPOOL_PCP. */
static const char *const sweep_keys[] = {
	"threads", "pcp-batch", "pcp-high", "io-size", "max-payload", "mix",
	"tcp-read", "alloc", "backend", "bulk-variant", "profile", "pcp", NULL
};
_Static_assert(sizeof(sweep_keys) / sizeof(*sweep_keys) - 1 ==
	       RPCSIM_SWEEP_MAX_KEYS, "a sweep may vary every key once");
static const char sweep_keys_accepted[] = "threads, pcp-batch, pcp-high, "
	"io-size, max-payload, mix, tcp-read, alloc, backend, bulk-variant, "
	"profile or pcp";
static const char *const pcp_words[] = { "auto", "rseq", "lock", NULL };

/*
 * One value of a swept key, checked as the option itself would check it
 * (on a copy of the configuration): a bad one is refused now, naming the
 * --sweep it came in, not when its point runs.
 */
static void sweep_check_value(const char *key, const char *value,
			      const char *arg, struct opt_state *st)
{
	char context[320];

	snprintf(context, sizeof(context), "--sweep=%s", arg);
	if (!strcmp(key, "pcp")) {
		for (int i = 0; pcp_words[i]; i++)
			if (!strcmp(value, pcp_words[i]))
				return;
		usage_error("--sweep=%s: bad value '%s' for pcp (PAGEPOOL_PCP); "
			    "expected auto, rseq or lock", arg, value);
	} else {
		struct rpcsim_config copy = *st->cfg;
		struct opt_state *tmp = xcalloc(1, sizeof(*tmp));

		tmp->cfg = &copy;
		tmp->argv = st->argv;
		tmp->checking = true;
		usage_context = context;
		opt_apply(opt_find(key), value, tmp);
		usage_context = NULL;
		free(tmp);
	}
}

/* @value as its point's file name has it (results_name_part()). */
static char *name_part(const char *value)
{
	char *part = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&part, &len);

	if (!f)
		rpcsim_die("open_memstream: %s", strerror(errno));
	results_name_part(f, value);
	fclose(f);
	return part;
}

/*
 * Two values of a key that differ only in characters a file name turns
 * into '-' ("a_b", "a-b") would give their points one result file: the
 * second would replace the first's, and the table refuse the folder.
 */
static void sweep_check_name(const struct rpcsim_sweep_key *k,
			     const char *value, const char *arg)
{
	char *part = name_part(value);

	for (unsigned int j = 0; j < k->nr; j++) {
		char *other = name_part(k->values[j]);

		if (!strcmp(part, other))
			usage_error("--sweep=%s: '%s' and '%s' would share one "
				    "result file (%s-%s.json): characters other "
				    "than letters, digits and dots become '-' "
				    "in its name; expected values that differ "
				    "in a letter, digit or dot", arg,
				    k->values[j], value, k->key, part);
		free(other);
	}
	free(part);
}

/* --sweep=KEY=V1,V2,... (mix: V1/V2/...), each key once. */
void apply_sweep(const struct opt_spec *o, const char *arg,
		 uint64_t value, struct opt_state *st)
{
	struct rpcsim_sweep *sw = &st->cfg->sweep;
	struct rpcsim_sweep_key *k;
	const char *eq = strchr(arg, '='), *p;
	char sep;
	int i;

	if (st->checking)
		return;
	if (!eq || eq == arg)
		usage_error("--sweep=%s: expected KEY=V1,V2,... with KEY one of "
			    "%s", arg, sweep_keys_accepted);
	for (i = 0; sweep_keys[i]; i++)
		if (strlen(sweep_keys[i]) == (size_t)(eq - arg) &&
		    !strncmp(arg, sweep_keys[i], (size_t)(eq - arg)))
			break;
	if (!sweep_keys[i])
		usage_error("--sweep=%s: unknown key '%.*s'; expected one of %s",
			    arg, (int)(eq - arg), arg, sweep_keys_accepted);
	for (unsigned int j = 0; j < sw->nr_keys; j++)
		if (!strcmp(sw->keys[j].key, sweep_keys[i]))
			usage_error("--sweep=%s: %s is swept twice (the other: "
				    "--sweep=%s); expected each key once", arg,
				    sweep_keys[i], sw->keys[j].arg);
	if (sw->nr_keys == RPCSIM_SWEEP_MAX_KEYS)
		usage_error("--sweep=%s: more than %d keys", arg,
			    RPCSIM_SWEEP_MAX_KEYS);
	k = &sw->keys[sw->nr_keys];
	k->key = sweep_keys[i];
	k->arg = arg;
	sep = !strcmp(k->key, "mix") ? '/' : ',';
	for (p = eq + 1;;) {
		char *v = xcalloc(strlen(p) + 1, 1);
		size_t len = 0;

		/* '\' takes the next character as it is: "\," a comma */
		for (; *p && *p != sep; p++) {
			if (*p == '\\' && !*++p)
				usage_error("--sweep=%s: a '\\' ends it; "
					    "expected '\\%c' for a '%c' in a "
					    "value, '\\\\' for a '\\'", arg,
					    sep, sep);
			v[len++] = *p;
		}
		if (!len)
			usage_error("--sweep=%s: an empty value; expected "
				    "%s=V1%cV2%c... (values split by '%c')",
				    arg, k->key, sep, sep, sep);
		if (k->nr == RPCSIM_SWEEP_MAX_VALUES)
			usage_error("--sweep=%s: more than %d values", arg,
				    RPCSIM_SWEEP_MAX_VALUES);
		for (unsigned int j = 0; j < k->nr; j++)
			if (!strcmp(k->values[j], v))
				usage_error("--sweep=%s: '%s' given twice; "
					    "expected each value once", arg, v);
		sweep_check_name(k, v, arg);
		sweep_check_value(k->key, v, arg, st);
		k->values[k->nr++] = v;
		if (!*p)
			break;
		p++;
	}
	sw->nr_keys++;
}

void apply_results(const struct opt_spec *o, const char *arg,
		   uint64_t value, struct opt_state *st)
{
	char err[128];

	if (!*arg)
		usage_error("--%s=: expected a folder name", o->name);
	free(st->cfg->sweep.results_dir);
	st->cfg->sweep.results_dir = results_dir_expand(arg, err, sizeof(err));
	if (!st->cfg->sweep.results_dir)
		usage_error("--%s=%s: %s", o->name, arg, err);
	/* The lines of --plan keep %h: each is expanded where it runs. */
	st->cfg->sweep.results = arg;
}

/* "--name=value" ("--name" for a flag) for option @o given @arg. */
static char *setting_arg(const struct opt_spec *o, const char *arg)
{
	size_t len = strlen(o->name) + strlen(arg) + 4;
	char *s = xcalloc(len, 1);

	if (o->kind == OPT_FLAG)
		snprintf(s, len, "--%s", o->name);
	else
		snprintf(s, len, "--%s=%s", o->name, arg);
	return s;
}

/*
 * A sweep checks every point's settings as that point will, before any
 * runs: an --io-size above a swept --max-payload is a usage error naming
 * the point now, not a failure of that point halfway through the sweep.
 */
void sweep_check_points(const struct opt_state *st)
{
	const struct rpcsim_sweep *sw = &st->cfg->sweep;

	for (uint64_t p = 1; p <= sw->nr_points; p++) {
		struct rpcsim_config copy = *st->cfg;
		struct opt_state *tmp = xcalloc(1, sizeof(*tmp));
		char context[512];
		size_t n;

		*tmp = *st;
		tmp->cfg = &copy;
		tmp->checking = true;
		n = (size_t)snprintf(context, sizeof(context),
				     "--sweep: point %llu (",
				     (unsigned long long)p);
		for (unsigned int k = 0; k < sw->nr_keys; k++) {
			const char *v = rpcsim_point_value(st->cfg, k, p);

			if (n < sizeof(context))
				n += (size_t)snprintf(context + n,
						      sizeof(context) - n,
						      "%s%s=%s", k ? " " : "",
						      sw->keys[k].key, v);
			if (strcmp(sw->keys[k].key, "pcp"))
				opt_apply(opt_find(sw->keys[k].key), v, tmp);
		}
		if (n < sizeof(context))
			snprintf(context + n, sizeof(context) - n, ")");
		usage_context = context;
		check_dependencies(tmp);
		check_sizes(tmp);
		derive_sizes(tmp);
		usage_context = NULL;
		free(tmp);
	}
}

/* The settings given, before a point's values are applied. */
static void sweep_fixed_args(struct opt_state *st)
{
	struct rpcsim_sweep *sw = &st->cfg->sweep;

	sw->fixed = xcalloc(NR_OPT_SPECS, sizeof(char *));
	for (size_t i = 0; i < NR_OPT_SPECS; i++)
		if (opt_table[i].name && !opt_table[i].not_setting &&
		    st->given[i])
			sw->fixed[sw->nr_fixed++] =
				setting_arg(&opt_table[i], st->given[i]);
}

const char *rpcsim_point_value(const struct rpcsim_config *cfg,
			       unsigned int k, uint64_t point)
{
	const struct rpcsim_sweep *sw = &cfg->sweep;
	uint64_t idx = point - 1;

	for (unsigned int j = sw->nr_keys; j-- > k + 1;)
		idx /= sw->keys[j].nr;
	return sw->keys[k].values[idx % sw->keys[k].nr];
}

char *rpcsim_point_name(const struct rpcsim_config *cfg, uint64_t point)
{
	const struct rpcsim_sweep *sw = &cfg->sweep;
	char *name = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&name, &len);

	if (!f)
		rpcsim_die("open_memstream: %s", strerror(errno));
	for (unsigned int k = 0; k < sw->nr_keys; k++) {
		fprintf(f, "%s%s-", k ? "_" : "", sw->keys[k].key);
		results_name_part(f, rpcsim_point_value(cfg, k, point));
	}
	fclose(f);
	return name;
}

/*
 * --point=N: its values applied as if given last; its file's name; and
 * the settings it runs with, which a result file must hold to be this
 * point's: every setting given, in the table's order, and the
 * environment libpagepool reads.
 */
static void sweep_apply_point(struct opt_state *st)
{
	struct rpcsim_config *cfg = st->cfg;
	struct rpcsim_sweep *sw = &cfg->sweep;
	/* Read by libpagepool (PAGEPOOL_*) and by jemalloc (MALLOC_CONF). */
	static const char *const env[] = { "PAGEPOOL_PCP", "PAGEPOOL_DEBUG",
					   "PAGEPOOL_FAULT",
					   "PAGEPOOL_DEBUG_LIST",
					   "PAGEPOOL_PROFILE", "MALLOC_CONF",
					   NULL };
	size_t len = 0;
	FILE *f;

	sw->name = rpcsim_point_name(cfg, sw->point);
	for (unsigned int k = 0; k < sw->nr_keys; k++) {
		const char *v = rpcsim_point_value(cfg, k, sw->point);

		if (!strcmp(sw->keys[k].key, "pcp")) {
			if (setenv("PAGEPOOL_PCP", v, 1))
				rpcsim_die("setenv: %s", strerror(errno));
		} else {
			opt_apply(opt_find(sw->keys[k].key), v, st);
		}
	}

	f = open_memstream(&sw->settings, &len);
	if (!f)
		rpcsim_die("open_memstream: %s", strerror(errno));
	for (size_t i = 0; i < NR_OPT_SPECS; i++) {
		char *a;

		if (!opt_table[i].name || opt_table[i].not_setting ||
		    !st->given[i])
			continue;
		a = setting_arg(&opt_table[i], st->given[i]);
		fprintf(f, "%s%s", ftell(f) ? " " : "", a);
		free(a);
	}
	for (int i = 0; env[i]; i++)
		if (getenv(env[i]))
			fprintf(f, "%s%s=%s", ftell(f) ? " " : "", env[i],
				getenv(env[i]));
	fclose(f);
}

/*
 * --results=DIR as the points' commands carry it: DIR when absolute, else
 * the working directory before it, each % of that as %% (DIR goes
 * through results_dir_expand() where the point runs); ./DIR as given.
 */
static char *results_absolute(const char *dir)
{
	char *cwd, *abs = NULL;
	size_t len = 0;
	FILE *f;

	/*
	 * "./DIR" says: where the line runs (GNU parallel's --workdir on
	 * another machine, whose --return brings DIR back).
	 */
	if (dir[0] == '/' || !strncmp(dir, "./", 2))
		return xstrdup(dir);
	cwd = getcwd(NULL, 0);
	if (!cwd)
		rpcsim_die("--results=%s: the working directory: %s", dir,
			   strerror(errno));
	f = open_memstream(&abs, &len);
	if (!f)
		rpcsim_die("open_memstream: %s", strerror(errno));
	for (const char *c = cwd; *c; c++) {
		if (*c == '%')
			fputc('%', f);
		fputc(*c, f);
	}
	fprintf(f, "%s%s", strcmp(cwd, "/") ? "/" : "", dir);
	fclose(f);
	free(cwd);
	return abs;
}

/*
 * A --plan line is one point: a control character in an argument (a
 * newline in --results=DIR) would split it in two for GNU parallel or a
 * shell, so it is refused, named as the user gave it, the character as
 * an escape ("\n", "\x1b") so that the message stays one line.
 */
static void plan_check_arg(const char *what, const char *arg)
{
	const char *c;
	char shown[96];
	size_t n = 0;

	for (c = arg; *c && (unsigned char)*c >= 0x20 && *c != 0x7f; c++)
		;
	if (!*c)
		return;
	for (const char *s = arg; *s && n + 5 < sizeof(shown); s++) {
		unsigned char u = (unsigned char)*s;

		if (u == '\n')
			n += (size_t)snprintf(shown + n, sizeof(shown) - n, "\\n");
		else if (u < 0x20 || u == 0x7f)
			n += (size_t)snprintf(shown + n, sizeof(shown) - n,
					      "\\x%02x", u);
		else
			shown[n++] = (char)u;
	}
	shown[n] = '\0';
	usage_error("%s%s: a control character (\\x%02x) in it: each line "
		    "of --plan must stay one line; expected no control "
		    "characters", what, shown, (unsigned char)*c);
}

/* Every argument of the points' commands, for plan_check_arg(). */
static void plan_check(const struct rpcsim_sweep *sw)
{
	for (unsigned int i = 0; i < sw->nr_fixed; i++)
		plan_check_arg("", sw->fixed[i]);
	for (unsigned int k = 0; k < sw->nr_keys; k++)
		plan_check_arg("--sweep=", sw->keys[k].arg);
	/* as given, then with the working directory before it */
	plan_check_arg("--results=", sw->results);
	plan_check_arg("--results=", sw->results_arg);
}

/*
 * A point writes "." NAME ".json.XXXXXX" and renames it to NAME ".json":
 * the longest point's name must leave room for those 13 characters in a
 * file name of NAME_MAX (255 on Linux's file systems).  A longer one would
 * fail each such point after its run, the sweep going on.  The name has
 * one character per character of the values (results_name_part()).
 */
#define SWEEP_NAME_EXTRA	(sizeof(".") - 1 + sizeof(".json.XXXXXX") - 1)

static void sweep_check_name_length(const struct rpcsim_config *cfg)
{
	const struct rpcsim_sweep *sw = &cfg->sweep;
	uint64_t point = 0;
	size_t len = 0;
	char *name;

	for (unsigned int k = 0; k < sw->nr_keys; k++) {
		unsigned int longest = 0;

		for (unsigned int v = 1; v < sw->keys[k].nr; v++)
			if (strlen(sw->keys[k].values[v]) >
			    strlen(sw->keys[k].values[longest]))
				longest = v;
		/* KEY-VALUE, with '_' between two */
		len += (k ? 1 : 0) + strlen(sw->keys[k].key) + 1 +
		       strlen(sw->keys[k].values[longest]);
		/* rpcsim_point_value(): the first key varies slowest */
		point = point * sw->keys[k].nr + longest;
	}
	if (len + SWEEP_NAME_EXTRA <= NAME_MAX)
		return;
	name = rpcsim_point_name(cfg, point + 1);
	usage_error("--sweep: point %llu's result file %s.json has a name of "
		    "%zu characters, %zu with its temporary file's; expected "
		    "at most %d: shorter values", (unsigned long long)point + 1,
		    name, len + 5, len + SWEEP_NAME_EXTRA, NAME_MAX);
	free(name);
}

/* --sweep, --results, --plan and --point: what goes with what. */
void check_sweep(struct opt_state *st)
{
	struct rpcsim_config *cfg = st->cfg;
	struct rpcsim_sweep *sw = &cfg->sweep;
	const char *arg;

	if (!sw->nr_keys) {
		if (sw->plan)
			usage_error("--plan: only with --sweep=KEY=V1,V2,... "
				    "and --results=DIR");
		if ((arg = opt_given(st, "point")))
			usage_error("--point=%s: only with --sweep=KEY=V1,V2,"
				    "... and --results=DIR", arg);
		if (sw->results)
			usage_error("--results=%s: only with --sweep=KEY=V1,"
				    "V2,...", sw->results);
		return;
	}
	if (!sw->results)
		usage_error("--sweep=%s: needs --results=DIR, the folder of the "
			    "points' result files", sw->keys[0].arg);
	if (cfg->json || cfg->json_after_text)
		usage_error("--%s: not with --sweep: each point's JSON document "
			    "goes into --results=%s", opt_given(st, "json") &&
			    !opt_given(st, "output-format") ? "json" :
			    "output-format", sw->results);
	if (cfg->trace)
		usage_error("--trace: not with --sweep (trace one point's "
			    "command from --plan instead)");
	if (!opt_given(st, "point") && (arg = opt_given(st, "histogram")))
		usage_error("--histogram=%s: not with --sweep (each point's "
			    "result file holds its histogram's buckets)", arg);
	if (!opt_given(st, "point") && (arg = opt_given(st, "interval")))
		usage_error("--interval=%s: not with --sweep (add it to one "
			    "point's command from --plan)", arg);
	sw->nr_points = 1;
	for (unsigned int k = 0; k < sw->nr_keys; k++) {
		sw->nr_points *= sw->keys[k].nr;
		if (sw->nr_points > MAX_SWEEP_POINTS)
			usage_error("--sweep=%s: the grid has more than %u "
				    "points", sw->keys[k].arg,
				    MAX_SWEEP_POINTS);
	}
	sweep_check_name_length(cfg);
	if (sw->point > sw->nr_points)
		usage_error("--point=%s: the sweep has %llu point%s; expected "
			    "1 to %llu", opt_given(st, "point"),
			    (unsigned long long)sw->nr_points,
			    sw->nr_points > 1 ? "s" : "",
			    (unsigned long long)sw->nr_points);
	if (sw->plan && sw->point)
		usage_error("--point=%s: not with --plan (whose lines each run "
			    "one point)", opt_given(st, "point"));
	sweep_fixed_args(st);
	sw->results_arg = results_absolute(sw->results);
	if (sw->plan)
		plan_check(sw);
	if (sw->point)
		sweep_apply_point(st);
}

char **rpcsim_point_argv(const struct rpcsim_config *cfg, const char *prog,
			 uint64_t point)
{
	const struct rpcsim_sweep *sw = &cfg->sweep;
	char **argv = xcalloc(sw->nr_fixed + sw->nr_keys + 4, sizeof(char *));
	size_t n = 0, len;

	argv[n++] = xstrdup(prog);
	for (unsigned int i = 0; i < sw->nr_fixed; i++)
		argv[n++] = xstrdup(sw->fixed[i]);
	for (unsigned int k = 0; k < sw->nr_keys; k++) {
		len = strlen(sw->keys[k].arg) + 9;
		argv[n] = xcalloc(len, 1);
		snprintf(argv[n++], len, "--sweep=%s", sw->keys[k].arg);
	}
	len = strlen(sw->results_arg) + 11;
	argv[n] = xcalloc(len, 1);
	snprintf(argv[n++], len, "--results=%s", sw->results_arg);
	argv[n] = xcalloc(32, 1);
	snprintf(argv[n++], 32, "--point=%llu", (unsigned long long)point);
	return argv;
}

void rpcsim_free_options(struct rpcsim_config *cfg)
{
	struct rpcsim_sweep *sw = &cfg->sweep;

	for (unsigned int k = 0; k < sw->nr_keys; k++)
		for (unsigned int v = 0; v < sw->keys[k].nr; v++)
			free(sw->keys[k].values[v]);
	for (unsigned int i = 0; i < sw->nr_fixed; i++)
		free(sw->fixed[i]);
	free(sw->fixed);
	free(sw->name);
	free(sw->settings);
	free(sw->results_dir);
	free(sw->results_arg);
	memset(sw, 0, sizeof(*sw));
}

void rpcsim_free_argv(char **argv)
{
	for (char **p = argv; p && *p; p++)
		free(*p);
	free(argv);
}
