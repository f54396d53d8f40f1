/* SPDX-License-Identifier: MIT */
/*
 * rpcsim-compare: before/after tables of rpcsim and rpcsim-analyze results
 * in the shape kernel developers paste into email (lkp-tests' compare,
 * seed 003), from their --json documents, read with json-c; with --sweep,
 * the tables of a results folder (sweep/sweep.h).
 *
 * Exit status: 0 tables printed; 1 a file unreadable, not JSON, of neither
 * kind or lacking a field, or the plot not drawn; 2 bad usage.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "cmdline.h"
#include "compare.h"
#include "files.h"
#include "plot.h"
#include "sweep.h"

static void usage(void)
{
	printf(
"Usage: rpcsim-compare [OPTION]... BASE.json NEW.json [NEW.json]...\n"
"  or:  rpcsim-compare --sweep=DIR [--plot=FILE]\n"
"Compare the results of rpcsim --json or rpcsim-analyze --json runs the way\n"
"kernel developers post them (lkp-tests' before/after tables): one table\n"
"per metric, one row per mode (single, list, array, matched by name), the\n"
"base file's column, then for each new file its %%change and its value.\n"
"\n"
"Options:\n"
"  -m, --metrics=LIST  only the metrics whose names start with one of the\n"
"                      comma-separated prefixes of LIST, e.g.\n"
"                      latency_us,requests_per_s (default: every metric)\n"
"  -a, --all           also print the metrics that are 0 in every file\n"
"                      (default: named in one line after the tables)\n"
"  -j, --json          one JSON document instead of the tables\n"
"      --output-format=FMT\n"
"                      text, json (as --json) or csv: a header line, then\n"
"                      one row per metric, mode and file (runs, mean,\n"
"                      stddev, change_pct, ci95_half_width, noise)\n"
"                      (default: text)\n"
"  -o, --output=FILE   write the tables to FILE instead of stdout; FILE is\n"
"                      replaced only when the comparison succeeds\n"
"                      (default: stdout)\n"
"      --partial       also compare a run that a signal cut short (its\n"
"                      \"interrupted\": true), marked INTERRUPTED (default:\n"
"                      refused, exit 1)\n"
"  -p, --plot=FILE     also draw the files overlaid into FILE, an .svg or\n"
"                      .png, with gnuplot: per mode each file's latency\n"
"                      (mean, p50-p99.9) over its runs, and each new\n"
"                      file's change of the mean with its 95%% interval;\n"
"                      the title names the settings that differ (default:\n"
"                      no plot)\n"
"  -s, --sweep=DIR     the table of a sweep from its folder of result\n"
"                      files (rpcsim --sweep --results=DIR, or its\n"
"                      --plan's lines run anywhere), as rpcsim --sweep\n"
"                      prints it: a row per point, per mode the mean\n"
"                      per call, the runs' stddev and the change\n"
"                      against the first point; page_pool points\n"
"                      (--consumer=page_pool) add a table of each\n"
"                      mode's packets per second in millions and the\n"
"                      bulk modes' change against single, which stands\n"
"                      alone for an untimed folder (points run with\n"
"                      --call-timing=off: no latency); points from\n"
"                      another host or build than the first are marked\n"
"                      *; --plot draws the mean against the last swept\n"
"                      key, and is refused (exit 1) for an untimed\n"
"                      folder; pagebench --results=DIR files in the\n"
"                      folder get a table of their own after it (ns per\n"
"                      page, a row per configuration and file, the\n"
"                      change against its first file's), never drawn;\n"
"                      a DIR of folders (one per machine:\n"
"                      --results=DIR/%%h) gets each folder's tables,\n"
"                      then per mode one table of the points across the\n"
"                      folders, side by side\n"
"  -h, --help          print this help and exit\n"
"  -V, --version       print the version and exit\n"
"\n"
"A file is read whole; '-' is standard input.  Each run of a mode is one\n"
"sample: rpcsim's modes[].per_run[] (its --repeat=N runs), rpcsim-analyze's\n"
"modes[].runs[] (one per rpcsim run in the trace).  A cell is the mean of\n"
"the samples, when above 2 %%, their sample standard deviation (n - 1)\n"
"relative to the mean, as '\u00b1 N%%', and n, the number of samples.\n"
"%%change = 100 * (new - base) / base; '95%% CI' is the half width of its\n"
"95 %% confidence interval, from Welch's t-test on the runs' values.  A\n"
"change is marked\n"
"  ~  within the noise when that interval includes 0 (none: a change),\n"
"  ?  unknown when a side has fewer than 2 runs (no spread to judge by).\n"
"When neither side's runs vary, the difference is exact: any is a change.\n"
"\n"
"Metrics: latency_us.mean and .p50/.p90/.p99/.p99.9 (per svc_alloc_arg()\n"
"call, in us), by_refill.one_page.* and by_refill.more_pages.* (the\n"
"files' by_refill: the calls that refilled one page at most, after a\n"
"WRITE, or more, after a READ; each kind's latency_us.mean, .p50 and .p90,\n"
"and its calls_per_call, its share of the calls), timestamps_us.mean\n"
"(rpcsim-analyze: from the entry/exit timestamps), requests_per_s\n"
"(rpcsim), pages_per_call, alloc_calls_per_call, no_progress_per_call,\n"
"waits_per_call (rpcsim), vmstat.<counter>_per_call (rpcsim:\n"
"libpagepool's counters divided by the run's calls) and\n"
"trace.<event>_per_call (rpcsim-analyze: pagepool events per call).\n"
"The by_refill tables come by default, right after latency_us's: the\n"
"median of all the calls falls on one kind or the other, and its change\n"
"may be no more than a change of kind; each kind's own shows what moved\n"
"(-m latency_us leaves them out, -m by_refill shows them alone).  Files\n"
"of both kinds may be mixed: metrics one file lacks are shown as '-',\n"
"with no %%change, and so is a refill kind's latency where no run made\n"
"such a call (its null figures are no sample, never 0).  Settings that\n"
"differ from the base file are listed above the tables.\n"
"\n"
"Environment: RPCSIM_GNUPLOT=PATH, the gnuplot --plot runs (default:\n"
"gnuplot in PATH); RPCSIM_GNUPLOT_SECONDS=N, how long it may draw before\n"
"it is stopped and the plot fails (default: 60).\n"
"\n"
"Exit status: 0 tables printed; 1 a file missing, unreadable, not JSON, of\n"
"neither kind or lacking a field, or the plot not drawn (no gnuplot, or it\n"
"failed or never finished); 2 bad usage.\n");
}

/* "a,b" -> { "a", "b", NULL }; exits 2 on an empty item. */
static char **split_metrics(const char *arg)
{
	size_t n = 1, k = 0;
	char **list, *copy, *p, *save = NULL;

	for (const char *s = arg; *s; s++)
		n += *s == ',';
	if (!*arg || arg[0] == ',' || arg[strlen(arg) - 1] == ',' ||
	    strstr(arg, ",,"))
		tool_die(2, "--metrics=%s: expected a comma-separated list of "
			  "metric names or prefixes, e.g. "
			  "latency_us,requests_per_s", arg);
	list = xcalloc(n + 1, sizeof(*list));
	copy = xstrdup(arg);
	for (p = strtok_r(copy, ",", &save); p; p = strtok_r(NULL, ",", &save))
		list[k++] = xstrdup(p);
	free(copy);
	return list;
}

static void free_list(char **list)
{
	for (char **p = list; p && *p; p++)
		free(*p);
	free(list);
}

/* Each --metrics prefix must name something these files have. */
static int check_metrics(const char *arg, char **only, struct doc *docs,
			 unsigned int nr_docs)
{
	for (char **p = only; *p; p++) {
		bool found = false;
		char *names = NULL;
		size_t len = 0;
		FILE *f;

		for (unsigned int id = 0; id < metrics_count() && !found; id++)
			if (!strncmp(metric_name(id), *p, strlen(*p)))
				for (unsigned int i = 0; i < nr_docs; i++)
					for (unsigned int m = 0;
					     m < docs[i].nr_modes; m++)
						if (id < docs[i].modes[m].nr_series &&
						    docs[i].modes[m].series[id].n)
							found = true;
		if (found)
			continue;
		f = open_memstream(&names, &len);
		if (!f) {
			fprintf(stderr, "rpcsim-compare: out of memory\n");
			exit(1);
		}
		for (unsigned int id = 0, first = 1; id < metrics_count();
		     id++) {
			bool here = false;

			for (unsigned int i = 0; i < nr_docs; i++)
				for (unsigned int m = 0; m < docs[i].nr_modes;
				     m++)
					if (id < docs[i].modes[m].nr_series &&
					    docs[i].modes[m].series[id].n)
						here = true;
			if (!here)
				continue;
			fprintf(f, "%s%s", first ? "" : ", ", metric_name(id));
			first = 0;
		}
		fclose(f);
		fprintf(stderr, "rpcsim-compare: --metrics=%s: no metric of "
			"these files starts with '%s'; accepted: %s\n", arg,
			*p, names);
		free(names);
		return -1;
	}
	return 0;
}

/*
 * --plot=@path, before anything is read: the file can be written and
 * gnuplot is there (into @gnuplot), else exit 1 saying why.
 */
static void plot_ready(const char *path, char *gnuplot, size_t len)
{
	char why[512];

	if (plot_check_dest(path, why, sizeof(why)) ||
	    plot_find_gnuplot(gnuplot, len, why, sizeof(why)))
		tool_die(1, "--plot=%s: %s", path, why);
}

/*
 * --sweep=DIR of folders (a machine each, from --results=DIR/%h): each
 * folder's tables, DIR's own files first as a folder of their own, then
 * the table across them (sweep_folders()).
 */
static int compare_folders(const char *dir, char **files, int nr_files,
			   char **folders, int nr_folders)
{
	unsigned int n = 0;
	char **names = xcalloc(nr_folders + 2, sizeof(*names));
	char ***paths = xcalloc(nr_folders + 1, sizeof(*paths));
	int ret;

	if (nr_files) {
		names[n] = (char *)dir;
		paths[n++] = files;
	}
	for (int i = 0; i < nr_folders; i++) {
		names[n] = folders[i];
		if (sweep_dir_files(folders[i], &paths[n]) < 0)
			tool_die(1, "--sweep=%s: %s: %s", dir, folders[i],
				  strerror(errno));
		n++;
	}
	ret = sweep_folders(stdout, "rpcsim-compare", names, paths, n);
	for (unsigned int i = nr_files ? 1 : 0; i < n; i++)
		sweep_free_paths(paths[i]);
	free(paths);
	free(names);
	return ret;
}

/* What the command line asks for, besides the files. */
struct args {
	struct output_options o;
	const char *metrics_arg;	/* --metrics as given, or NULL */
	const char *sweep_dir;		/* --sweep=DIR, or NULL */
	bool partial;			/* --partial: cut-short runs too */
	/* the last of --json and --output-format=FMT: "json" or FMT */
	const char *format_arg;
	bool format_json;		/* ... and it was --json */
	const char *output;		/* --output=FILE, or NULL: stdout */
};

/*
 * --sweep=DIR: the table of rpcsim --sweep's result files in DIR, and
 * of pagebench --results files there (sweep_tables()).
 */
static int compare_sweep(struct args *a, int nr_files, char **files)
{
	struct output_options *o = &a->o;
	const char *dir = a->sweep_dir;
	char **paths, **folders = NULL;
	char gnuplot[4096];
	int n, nr_folders, ret;

	if (nr_files)
		tool_die(2, "--sweep=%s: takes no files (given '%s'); the "
			  "table is of DIR's *.json", dir, files[0]);
	if (a->metrics_arg)
		tool_die(2, "--metrics=%s: not with --sweep (its tables' "
			  "columns are fixed: the latency per call, a "
			  "page_pool sweep's packets per second, pagebench's "
			  "ns per page)", a->metrics_arg);
	/* the option as given: --json, or --output-format=json or csv */
	if ((o->json || o->csv) && a->format_json)
		tool_die(2, "--json: not with --sweep (its tables are text)");
	if (o->json || o->csv)
		tool_die(2, "--output-format=%s: not with --sweep (its tables "
			  "are text)", a->format_arg);
	if (o->all)
		tool_die(2, "--all: not with --sweep (its tables are not per "
			  "metric)");
	free_list(o->only);
	n = sweep_dir_files(dir, &paths);
	if (n < 0)
		tool_die(1, "--sweep=%s: %s", dir, strerror(errno));
	nr_folders = sweep_dir_folders(dir, &folders);
	if (nr_folders > 0 && n + nr_folders > 1) {
		if (o->plot_path)
			tool_die(2, "--plot=%s: one folder at a time (%s has "
				  "folders of result files: give one of them)",
				  o->plot_path, dir);
		ret = compare_folders(dir, paths, n, folders, nr_folders);
		goto out;
	}
	if (nr_folders == 1) {
		/* DIR/%h on one machine: that folder is the sweep's. */
		sweep_free_paths(paths);
		paths = NULL;
		n = sweep_dir_files(folders[0], &paths);
	}
	if (n <= 0) {
		sweep_free_paths(paths);
		sweep_free_paths(folders);
		tool_die(1, "--sweep=%s: no *.json result file in it, nor in "
			  "a folder of it", dir);
	}
	if (o->plot_path)
		plot_ready(o->plot_path, gnuplot, sizeof(gnuplot));
	ret = sweep_tables(stdout, "rpcsim-compare", paths, o->plot_path,
			   gnuplot);
out:
	sweep_free_paths(paths);
	sweep_free_paths(folders);
	if (fflush(stdout) || ferror(stdout)) {
		perror("rpcsim-compare: writing the table");
		ret = 1;
	}
	return ret;
}

/* An option given last without its value: what the value should be. */
__attribute__((noreturn))
static void missing_value(int opt, const char *arg)
{
	if (opt == 'o')
		tool_die(2, "option '%s' needs a value: a file name", arg);
	if (opt == 'F')
		tool_die(2, "option '%s' needs a value: text, json or csv", arg);
	if (opt == 'p')
		tool_die(2, "option '%s' needs a value: a file name ending in "
			  ".svg or .png", arg);
	if (opt == 's')
		tool_die(2, "option '%s' needs a value: a folder of rpcsim "
			  "--sweep or pagebench --results result files", arg);
	tool_die(2, "option '%s' needs a value: a comma-separated list of "
		  "metric names or prefixes", arg);
}

/* The options into @a; --help and --version exit here.  Returns optind. */
static int parse_args(int argc, char **argv, struct args *a)
{
	static const struct option longopts[] = {
		{ "metrics", required_argument, NULL, 'm' },
		{ "all", no_argument, NULL, 'a' },
		{ "json", no_argument, NULL, 'j' },
		{ "output-format", required_argument, NULL, 'F' },
		{ "output", required_argument, NULL, 'o' },
		{ "partial", no_argument, NULL, 'P' },
		{ "plot", required_argument, NULL, 'p' },
		{ "sweep", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	char why[512];
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":m:ajo:p:s:hV", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'm':
			free_list(a->o.only);
			a->o.only = split_metrics(optarg);
			a->metrics_arg = optarg;
			break;
		case 'a':
			a->o.all = true;
			break;
		case 'j':
			a->o.json = true;
			a->o.csv = false;
			a->format_arg = "json";
			a->format_json = true;
			break;
		case 'F':
			/* as rpcsim's: the last of --json and it decides */
			if (strcmp(optarg, "text") && strcmp(optarg, "json") &&
			    strcmp(optarg, "csv"))
				tool_die(2, "--output-format=%s: expected text, "
					  "json or csv", optarg);
			a->o.json = !strcmp(optarg, "json");
			a->o.csv = !strcmp(optarg, "csv");
			a->format_arg = optarg;
			a->format_json = false;
			break;
		case 'o':
			if (!*optarg)
				tool_die(2, "--output=: expected a file name");
			a->output = optarg;
			break;
		case 'P':
			a->partial = true;
			break;
		case 'p':
			if (plot_check_path(optarg, why, sizeof(why)))
				tool_die(2, "--plot=%s: %s", optarg, why);
			a->o.plot_path = optarg;
			break;
		case 's':
			if (!*optarg)
				tool_die(2, "--sweep=: expected a folder of "
					  "rpcsim --sweep or pagebench "
					  "--results result files");
			a->sweep_dir = optarg;
			break;
		case 'h':
			free_list(a->o.only);
			usage();
			exit(0);
		case 'V':
			free_list(a->o.only);
			tool_print_version(&(struct tool_component){
						"json-c", json_c_version() }, 1);
			exit(0);
		case ':':
			missing_value(optopt, argv[optind - 1]);
		default:
			cmdline_die_refused(longopts, argv[optind - 1],
					    "rpcsim-compare");
		}
	}
	return optind;
}

/* BASE.json NEW.json...: at least two, standard input ('-') once at most. */
static void check_files(int nr_files, char **files)
{
	unsigned int stdin_uses = 0;

	if (nr_files < 2)
		tool_die(2, "%s: expected BASE.json NEW.json [NEW.json]... (at "
			  "least two files; see rpcsim-compare --help)",
			  nr_files ? "one file given" : "no file given");
	for (int i = 0; i < nr_files; i++)
		stdin_uses += !strcmp(files[i], "-");
	if (stdin_uses > 1)
		tool_die(2, "'-' given %u times: standard input can be read only "
			  "once", stdin_uses);
}

/* The files read, their --metrics checked, the tables: the exit status. */
static int compare_files(const struct args *a, unsigned int nr_docs,
			 char **files)
{
	struct doc *docs = xcalloc(nr_docs, sizeof(*docs));
	int ret = 0;

	for (unsigned int i = 0; i < nr_docs && !ret; i++) {
		if (doc_load(&docs[i], files[i]))
			ret = 1;
		else if (docs[i].interrupted && !a->partial) {
			fprintf(stderr, "rpcsim-compare: %s: a run cut short "
				"by %s (\"interrupted\": true): its figures "
				"are partial; --partial compares it anyway, "
				"marked\n", files[i], docs[i].interrupted);
			ret = 1;
		}
	}
	if (!ret && a->o.only &&
	    check_metrics(a->metrics_arg, a->o.only, docs, nr_docs))
		ret = 2;
	if (!ret) {
		int r = output(stdout, docs, nr_docs, &a->o);

		if (r < 0)
			perror("rpcsim-compare: writing the tables");
		ret = r ? 1 : 0;
	}
	for (unsigned int i = 0; i < nr_docs; i++)
		doc_free(&docs[i]);
	free(docs);
	return ret;
}

/*
 * --output=FILE: replaced by the tables when the comparison succeeded,
 * left as it was when it failed.  Returns the exit status.
 */
static int finish_output(const char *path, int status)
{
	if (!path)
		return status;
	return atomic_stdout_finish(path, status, "comparison", NULL);
}

int main(int argc, char **argv)
{
	struct args a = { 0 };
	char gnuplot[4096], err[512];
	int first, ret;

	tool_set_name("rpcsim-compare");
	first = parse_args(argc, argv, &a);
	if (!a.sweep_dir)
		check_files(argc - first, argv + first);
	/* Before anything is read, as a bad option value is. */
	if (a.o.plot_path && plot_read_timeout(err, sizeof(err)))
		tool_die(2, "%s", err);
	/* Before reading anything: FILE can be written. */
	if (a.output && atomic_stdout_open(a.output, err, sizeof(err)))
		tool_die(1, "--output=%s: %s", a.output, err);
	if (a.sweep_dir)
		return finish_output(a.output, compare_sweep(&a, argc - first,
							     argv + first));

	/* Before reading anything: the plot must be possible. */
	if (a.o.plot_path) {
		plot_ready(a.o.plot_path, gnuplot, sizeof(gnuplot));
		a.o.gnuplot = gnuplot;
	}

	metrics_init();
	ret = compare_files(&a, (unsigned int)(argc - first), argv + first);
	free_list(a.o.only);
	metrics_free();
	return finish_output(a.output, ret);
}
