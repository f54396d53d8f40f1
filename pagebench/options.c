/* SPDX-License-Identifier: MIT */
/*
 * pagebench's command line: the options, --help, and reading each value
 * with the tools' number syntax (common/number.h) into struct options.
 * Bad usage is one line naming the option, the value and what it
 * accepts, and exit status 2.
 */
#include <config.h>

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmdline.h"
#include "number.h"
#include "results.h"
#include "tool.h"

#include "pagebench.h"

static const unsigned int default_bulks[] = { 1, 2, 4, 8, 16, 32, 64, 128 };

enum {
	OPT_ALLOCATORS = 256, OPT_APIS, OPT_BULK, OPT_VARIANTS, OPT_RUNS,
	OPT_RUN_MS, OPT_FREE, OPT_JE_TCACHE, OPT_JE_BATCH, OPT_PIN,
	OPT_SMOKE, OPT_INTERLEAVE, OPT_RESULTS, OPT_BACKEND, OPT_PROFILE,
	OPT_OUTPUT_FORMAT,
};

static const struct option long_options[] = {
	{ "allocators",	required_argument,	NULL, OPT_ALLOCATORS },
	{ "api",	required_argument,	NULL, OPT_APIS },
	{ "bulk",	required_argument,	NULL, OPT_BULK },
	{ "variant",	required_argument,	NULL, OPT_VARIANTS },
	{ "runs",	required_argument,	NULL, OPT_RUNS },
	{ "run-ms",	required_argument,	NULL, OPT_RUN_MS },
	{ "free",	required_argument,	NULL, OPT_FREE },
	{ "profile",	required_argument,	NULL, OPT_PROFILE },
	{ "je-tcache",	required_argument,	NULL, OPT_JE_TCACHE },
	{ "je-batch",	required_argument,	NULL, OPT_JE_BATCH },
	{ "backend",	required_argument,	NULL, OPT_BACKEND },
	{ "pin",	required_argument,	NULL, OPT_PIN },
	{ "smoke",	no_argument,		NULL, OPT_SMOKE },
	{ "interleave",	no_argument,		NULL, OPT_INTERLEAVE },
	{ "results",	required_argument,	NULL, OPT_RESULTS },
	{ "json",	no_argument,		NULL, 'j' },
	{ "output-format", required_argument,	NULL, OPT_OUTPUT_FORMAT },
	{ "output",	required_argument,	NULL, 'o' },
	{ "help",	no_argument,		NULL, 'h' },
	{ "version",	no_argument,		NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

/* --help: what pagebench measures, and which of its options say what. */
static void print_help_what(void)
{
	char not_built[128] = "";

	for (int a = 0; a < NR_ALLOCATORS; a++)
		if (!pb_is_built(a))
			snprintf(not_built + strlen(not_built),
				 sizeof(not_built) - strlen(not_built), "%s%s",
				 not_built[0] ? ", " : "                          "
				 "not built here: ", pb_allocator_names[a]);
	if (not_built[0])
		strcat(not_built, "\n");
	printf(
"Usage: pagebench [OPTION]...\n"
"Measure the per-page cost of allocating and freeing 4 KiB pages with\n"
"libpagepool's single-page, bulk-list and bulk-array APIs on the buddy and\n"
"jemalloc backends, at several bulk sizes, next to the allocators a user\n"
"would otherwise pick and a plain LIFO array of page pointers, the floor.\n"
"Each configuration is warmed up, then timed over several runs; one line\n"
"per configuration gives the median ns and TSC ticks per page (one\n"
"alloc + one free), the fastest and slowest run and their spread, then a\n"
"table.  The process pins itself to one CPU, as page_bench04_bulk runs.\n"
"\n"
"What is measured:\n"
"      --allocators=LIST   comma-separated, or all: buddy, jemalloc (the\n"
"                          libpagepool backends), glibc (aligned_alloc(4096,\n"
"                          4096) + free(), glibc's own even if another\n"
"                          malloc is interposed), mallocx (jemalloc's\n"
"                          mallocx(4096, 0) + sdallocx(), one page at a time,\n"
"                          default arena and thread cache), mempool (DPDK's\n"
"                          rte_mempool_get/put[_bulk] through a per-lcore\n"
"                          cache of 512), tcmalloc (aligned_alloc(4096,\n"
"                          4096) + free() from tcmalloc), the two in child\n"
"                          processes, lifo (the floor), contract (the floor\n"
"                          plus the descriptor work libpagepool's contract\n"
"                          asks of each page), percpu (contract with the\n"
"                          pages on per-CPU lists worked by libpagepool's\n"
"                          rseq sections); all leaves out a baseline that\n"
"                          was not built (default: all)\n"
"%s"
"      --api=LIST          single, list, array, or all; the baselines have\n"
"                          single and array (bulk n = n allocations into an\n"
"                          array, then n frees; mempool: one get_bulk of n,\n"
"                          one put_bulk) (default: all)\n"
"      --bulk=LIST         bulk sizes, 1..%d (default: 1,2,4,8,16,32,64,128)\n"
"      --variant=LIST      libpagepool's bulk contract(s): merged,\n"
"                          stop-at-first-populated, batched-stats,\n"
"                          no-single-fallback, pure-output, or all\n"
"                          (default: merged)\n"
"      --free=HOW          bulk rounds free with release (pp_release_pages(),\n"
"                          as the kernel's release_pages()) or put (as\n"
"                          page_bench04_bulk: array pages by pp_put_page()\n"
"                          and the slot cleared, list pages by list_del\n"
"                          and pp_free_pages(), its __free_pages())\n"
"                          (default: release)\n"
"      --profile=NAME      the buddy backend's profile: lean (the\n"
"                          contracts' work only) or kernel (the steps\n"
"                          Linux 5.13's page allocator runs; calibrate it\n"
"                          with bench/kernel-profile.sh) (default: lean,\n"
"                          or PAGEPOOL_PROFILE)\n"
"      --je-tcache=on|off  the jemalloc backend's per-CPU thread caches\n"
"                          (default: on)\n"
"      --je-batch=on|off   the jemalloc backend's bulk calls through\n"
"                          batch_alloc; off: one mallocx() per page\n"
"                          (default: on)\n"
"      --backend=plugin:PATH.so\n"
"                          measure a backend plugin of your own\n"
"                          (<pagepool/backend.h>, pagepool-backend(3)) as\n"
"                          the allocator plugin, besides --allocators\n"
"                          (default: none)\n",
	       not_built, MAX_BULK);
}

/* --help: how long and where the output goes, then the notes. */
static void print_help_how(void)
{
	printf(
"How long:\n"
"      --runs=N            timed runs per configuration, 1..%d (default: %d)\n"
"      --run-ms=MS         about how long each run takes, 0.1..10000 ms;\n"
"                          a unit may follow: 500ms, 2s (default: %g)\n"
"      --smoke             a few pages per configuration: checks the\n"
"                          output, measures nothing (default: off)\n"
"      --pin=on|off        pin to the CPU pagebench starts on (default: on)\n"
"      --interleave        warm every configuration up, then time their runs\n"
"                          round-robin (run 1 of each, run 2 of each, ...)\n"
"                          so that a shared machine's noise falls on all\n"
"                          alike; the lines come at the end (default: off)\n"
"Output:\n"
"  -j, --json              one JSON document instead of text\n"
"      --output-format=FMT text, json (as --json) or csv: a header line,\n"
"                          then a row per configuration with its line's\n"
"                          fields (default: text)\n"
"  -o, --output=FILE       write what goes to stdout to FILE instead;\n"
"                          FILE is replaced only when the run succeeds or\n"
"                          Ctrl-C cuts it short (default: stdout)\n"
"      --results=DIR       write the JSON document into a file of the folder\n"
"                          DIR (made if missing), the text staying on stdout,\n"
"                          as rpcsim --sweep writes its points: named by the\n"
"                          options given that say what is measured and\n"
"                          PAGEPOOL_PCP (pagebench_bulk-64_pcp-lock.json),\n"
"                          with the host, the build and every setting; when\n"
"                          that file holds these settings already, nothing\n"
"                          runs again; rpcsim-compare --sweep=DIR tabulates\n"
"                          the folder; %%h in DIR is this host's name\n"
"                          (res/%%h: a folder per machine), %%%% a %%; not\n"
"                          with --json (default: no file)\n"
"  -h, --help              this help\n"
"  -V, --version           pagebench and libpagepool versions\n"
"\n"
"jemalloc's thread caches hold 20 pages of 4 KiB unless MALLOC_CONF says\n"
"otherwise (tcache_nslots_small_min:N,tcache_nslots_small_max:N), and it\n"
"reads that when the process starts: set it in the environment.\n"
"mempool and tcmalloc run in child programs of their own, pagebench-mempool\n"
"and pagebench-tcmalloc, started once per run; they time their loops the\n"
"same way and pagebench reports them like the others (pagebench(1) lists\n"
"the DPDK EAL arguments).  Ctrl-C ends the run with what was measured so\n"
"far, marked as interrupted.  Exit status: 0 ok, 1 runtime failure, 2 bad\n"
"command line, 130 Ctrl-C (128 + the signal).\n"
"\n"
"Environment:\n"
"  PAGEPOOL_PCP=IMPL      the buddy pools' pcp lists: rseq, lock or auto\n"
"                         (the default); with --results it names the file\n"
"  PAGEPOOL_PROFILE=NAME  the default of --profile: lean or kernel\n"
"  PAGEPOOL_DEBUG=1       libpagepool's debug checks, which poison and check\n"
"                         every page and so change what is measured\n"
"  PAGEPOOL_DEBUG_LIST=0  the kernel profile without CONFIG_DEBUG_LIST's\n"
"                         list checks, which it runs by default\n"
"  PAGEPOOL_FAULT=SPEC    libpagepool's fault injection for every pool (see\n"
"                         pagepool(3)), which changes what is measured; a\n"
"                         SPEC it cannot read fails the run (exit 1)\n"
"  MALLOC_CONF=CONF       jemalloc's options, read when it starts (above)\n"
"  TMPDIR=DIR             where pagebench-mempool makes the EAL's runtime\n"
"                         folder (default: /tmp)\n",
	       MAX_RUNS, DEFAULT_RUNS, DEFAULT_RUN_MS);
}

static void print_help(void)
{
	print_help_what();
	print_help_how();
}

/* Digits only (common/number.h: the tools' one number syntax). */
static bool parse_uint(const char *s, unsigned long max, unsigned long *out)
{
	uint64_t v;

	if (num_parse_u64(s, &v) || v > max)
		return false;
	*out = (unsigned long)v;
	return true;
}

static bool parse_onoff(const char *name, const char *arg)
{
	if (!strcmp(arg, "on"))
		return true;
	if (!strcmp(arg, "off"))
		return false;
	tool_die(2, "--%s=%s: expected on or off", name, arg);
}

/*
 * A comma-separated list of names from @names (or "all") into @set;
 * @what names the accepted values for the message.  Returns true for
 * "all".
 */
static bool parse_names(const char *opt, const char *arg,
			const char *const *names, unsigned int nr, bool *set,
			const char *what)
{
	char buf[256], *save = NULL, *tok;

	if (strlen(arg) >= sizeof(buf) || !*arg)
		tool_die(2, "--%s=%s: expected %s, comma-separated, or all",
			    opt, arg, what);
	memset(set, 0, nr * sizeof(*set));
	if (!strcmp(arg, "all")) {
		for (unsigned int i = 0; i < nr; i++)
			set[i] = true;
		return true;
	}
	snprintf(buf, sizeof(buf), "%s", arg);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		unsigned int i;

		for (i = 0; i < nr; i++)
			if (names[i] && !strcmp(tok, names[i]))
				break;
		if (i == nr)
			tool_die(2, "--%s=%s: unknown '%s'; expected %s, "
				    "comma-separated, or all", opt, arg, tok,
				    what);
		if (set[i])
			tool_die(2, "--%s=%s: '%s' given twice", opt, arg,
				 tok);
		set[i] = true;
	}
	if (arg[0] == ',' || arg[strlen(arg) - 1] == ',' || strstr(arg, ",,"))
		tool_die(2, "--%s=%s: expected %s, comma-separated, or all",
			    opt, arg, what);
	return false;
}

/*
 * --allocators: a baseline that was not built is an error when named,
 * and left out (with a note in the header) by "all", as by default.
 */
static void parse_allocators(const char *arg, struct options *o)
{
	char what[160] = "";
	bool all;

	for (int a = 0; a < NR_ALLOCATORS; a++)
		if (pb_is_built(a) && a != A_PLUGIN)
			snprintf(what + strlen(what), sizeof(what) - strlen(what),
				 "%s%s", what[0] ? ", " : "",
				 pb_allocator_names[a]);
	all = parse_names("allocators", arg, pb_allocator_names, NR_ALLOCATORS,
			  o->allocator, what);
	o->allocators_all = all;
	for (int a = 0; a < NR_ALLOCATORS; a++) {
		if (pb_is_built(a))
			continue;
		if (o->allocator[a] && !all)
			tool_die(2, "--allocators=%s: the %s baseline was not "
				    "built (%s); expected %s, comma-separated, "
				    "or all", arg, pb_allocator_names[a],
				    pb_not_built_why(a), what);
		o->allocator[a] = false;
	}
}

/*
 * --backend=plugin:PATH: the plugin joins the allocators measured.  The
 * built-in backends are named in --allocators; whether the plugin loads,
 * its pool says (exit 1).
 */
static void parse_backend(const char *arg, struct options *o)
{
	if (strncmp(arg, "plugin:", strlen("plugin:")) || !arg[7])
		tool_die(2, "--backend=%s: expected plugin:PATH.so, a backend "
			    "plugin's shared object (buddy and jemalloc are "
			    "named in --allocators)", arg);
	o->backend_plugin = arg + strlen("plugin:");
}

/* --bulk: up to MAX_BULKS sizes from 1 to MAX_BULK. */
static void parse_bulks(const char *arg, struct options *o)
{
	char buf[128], *save = NULL, *tok;
	unsigned long v;

	if (strlen(arg) >= sizeof(buf) || !*arg || arg[0] == ',' ||
	    arg[strlen(arg) - 1] == ',' || strstr(arg, ",,"))
		tool_die(2, "--bulk=%s: expected sizes from 1 to %d, "
			    "comma-separated", arg, MAX_BULK);
	snprintf(buf, sizeof(buf), "%s", arg);
	o->nr_bulks = 0;
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!parse_uint(tok, MAX_BULK, &v) || !v ||
		    o->nr_bulks == MAX_BULKS)
			tool_die(2, "--bulk=%s: expected up to %d sizes from 1 "
				    "to %d, comma-separated", arg, MAX_BULKS,
				    MAX_BULK);
		for (unsigned int i = 0; i < o->nr_bulks; i++)
			if (o->bulks[i] == v)
				tool_die(2, "--bulk=%s: %lu given twice", arg,
					 v);
		o->bulks[o->nr_bulks++] = (unsigned int)v;
	}
}

static void parse_runs(const char *arg, struct options *o)
{
	unsigned long v;

	if (!parse_uint(arg, MAX_RUNS, &v) || !v)
		tool_die(2, "--runs=%s: expected an integer from 1 to %d", arg,
			 MAX_RUNS);
	o->runs = (unsigned int)v;
}

/* common/number.h's durations, milliseconds without a unit. */
static void parse_run_ms(const char *arg, struct options *o)
{
	double s;

	/* 1e-9: 0.1 ms is 0.1 after the trip through seconds */
	if (num_parse_duration(arg, "ms", &s) || s * 1000 < 0.1 - 1e-9 ||
	    s * 1000 > 10000 + 1e-9)
		tool_die(2, "--run-ms=%s: expected a duration from 0.1ms to "
			    "10s: %s, milliseconds without a unit", arg,
			 NUM_DURATION_FORMS);
	o->run_ms = s * 1000;
}

static void parse_free(const char *arg, struct options *o)
{
	if (!strcmp(arg, "put"))
		o->free_put = true;
	else if (!strcmp(arg, "release"))
		o->free_put = false;
	else
		tool_die(2, "--free=%s: expected release or put", arg);
}

/* What runs without options: every allocator built, all of it. */
static void set_defaults(struct options *o)
{
	memset(o, 0, sizeof(*o));
	for (int a = 0; a < NR_ALLOCATORS; a++)
		o->allocator[a] = pb_is_built(a) && a != A_PLUGIN;
	o->allocators_all = true;
	for (int a = 0; a < PB_NR_APIS; a++)
		o->api[a] = true;
	o->variant[PP_BULK_MERGED] = true;
	memcpy(o->bulks, default_bulks, sizeof(default_bulks));
	o->nr_bulks = ARRAY_SIZE(default_bulks);
	o->runs = DEFAULT_RUNS;
	o->run_ms = DEFAULT_RUN_MS;
	o->je_tcache = true;
	o->je_batch = true;
	o->pin = true;
	o->profile = -1;
}

static void parse_variants(const char *arg, struct options *o)
{
	const char *variant_names[PP_NR_BULK_VARIANTS];

	for (int v = 0; v < PP_NR_BULK_VARIANTS; v++)
		variant_names[v] = pp_bulk_variant_name(v);
	parse_names("variant", arg, variant_names, PP_NR_BULK_VARIANTS,
		    o->variant, "merged, stop-at-first-populated, "
		    "batched-stats, no-single-fallback, pure-output");
}

/* One option getopt_long() returned, with its value @arg. */
static void parse_option(int opt, const char *arg, struct options *o)
{
	char err[128];

	switch (opt) {
	case OPT_ALLOCATORS:
		parse_allocators(arg, o);
		break;
	case OPT_BACKEND:
		parse_backend(arg, o);
		break;
	case OPT_APIS:
		parse_names("api", arg, pb_api_names, PB_NR_APIS, o->api,
			    "single, list, array");
		break;
	case OPT_VARIANTS:
		parse_variants(arg, o);
		break;
	case OPT_BULK:
		parse_bulks(arg, o);
		break;
	case OPT_RUNS:
		parse_runs(arg, o);
		break;
	case OPT_RUN_MS:
		parse_run_ms(arg, o);
		break;
	case OPT_FREE:
		parse_free(arg, o);
		break;
	case OPT_PROFILE:
		o->profile = pp_profile_from_name(arg);
		if (o->profile < 0)
			tool_die(2, "--profile=%s: expected lean or kernel",
				 arg);
		break;
	case OPT_JE_TCACHE:
		o->je_tcache = parse_onoff("je-tcache", arg);
		break;
	case OPT_JE_BATCH:
		o->je_batch = parse_onoff("je-batch", arg);
		break;
	case OPT_PIN:
		o->pin = parse_onoff("pin", arg);
		break;
	case OPT_SMOKE:
		o->smoke = true;
		break;
	case OPT_INTERLEAVE:
		o->interleave = true;
		break;
	case OPT_RESULTS:
		if (!*arg)
			tool_die(2, "--results=: expected a folder for the "
				    "result file (made if missing)");
		free(o->results);
		o->results = results_dir_expand(arg, err, sizeof(err));
		if (!o->results)
			tool_die(2, "--results=%s: %s", arg, err);
		break;
	case 'j':
		o->json = true;
		o->csv = false;
		break;
	case OPT_OUTPUT_FORMAT:
		/* as rpcsim's: the last of --json and --output-format decides */
		if (strcmp(arg, "text") && strcmp(arg, "json") &&
		    strcmp(arg, "csv"))
			tool_die(2, "--output-format=%s: expected text, json or "
				    "csv", arg);
		o->json = !strcmp(arg, "json");
		o->csv = !strcmp(arg, "csv");
		break;
	case 'o':
		if (!*arg)
			tool_die(2, "--output=: expected a file name");
		o->output = arg;
		break;
	}
}

/*
 * What a result file records: the options that say what is measured
 * name it; those and the ones that say how long or how (runs, pinning,
 * interleaving) are its settings; the rest only say where the output
 * goes.
 */
static const char *const named_options[] = {
	"allocators", "api", "bulk", "variant", "free", "profile",
	"je-tcache", "je-batch", NULL
};
static const char *const output_options[] = {
	"results", "json", "output-format", "output", "help", "version",
	NULL
};
/* Read by libpagepool (PAGEPOOL_*) and by jemalloc (MALLOC_CONF). */
static const char *const setting_env[] = {
	"PAGEPOOL_PCP", "PAGEPOOL_DEBUG", "PAGEPOOL_FAULT", "PAGEPOOL_PROFILE",
	"PAGEPOOL_DEBUG_LIST", "MALLOC_CONF", NULL
};

static bool listed(const char *const *list, const char *name)
{
	for (; *list; list++)
		if (!strcmp(*list, name))
			return true;
	return false;
}

/*
 * --results: the file's name and settings from the options given
 * (@given, by long_options[] index: the last value of each), in
 * long_options[]' order, so that the order on the command line does not
 * matter.  The name is rpcsim's scheme (sweep/results.h) after
 * "pagebench": pagebench_allocators-buddy-lifo_bulk-64_pcp-lock.
 */
static void results_settings(struct options *o, const char *const *given)
{
	const char *pcp = getenv("PAGEPOOL_PCP");
	size_t nlen = 0, slen = 0;
	FILE *n = open_memstream(&o->name, &nlen);
	FILE *s = open_memstream(&o->settings, &slen);

	if (!n || !s)
		tool_die(1, "out of memory");
	fputs("pagebench", n);
	for (size_t i = 0; long_options[i].name; i++) {
		const char *name = long_options[i].name;

		if (!given[i] || listed(output_options, name))
			continue;
		if (long_options[i].has_arg == no_argument)
			fprintf(s, "%s--%s", ftell(s) ? " " : "", name);
		else
			fprintf(s, "%s--%s=%s", ftell(s) ? " " : "", name,
				given[i]);
		if (!listed(named_options, name))
			continue;
		o->named[o->nr_named].key = name;
		o->named[o->nr_named++].value = given[i];
	}
	if (pcp) {
		o->named[o->nr_named].key = "pcp";
		o->named[o->nr_named++].value = pcp;
	}
	for (unsigned int i = 0; i < o->nr_named; i++) {
		fprintf(n, "_%s-", o->named[i].key);
		results_name_part(n, o->named[i].value);
	}
	for (int i = 0; setting_env[i]; i++)
		if (getenv(setting_env[i]))
			fprintf(s, "%s%s=%s", ftell(s) ? " " : "",
				setting_env[i], getenv(setting_env[i]));
	fclose(n);
	fclose(s);
}

void pb_options_release(struct options *o)
{
	free(o->results);
	free(o->name);
	free(o->settings);
	o->name = NULL;
	o->settings = NULL;
}

void pb_parse_options(int argc, char **argv, struct options *o)
{
	const char *given[ARRAY_SIZE(long_options)] = { NULL };
	int opt, idx = -1;	/* of a long option: getopt_long() sets it */

	set_defaults(o);
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":jo:hV", long_options, &idx)) !=
	       -1) {
		switch (opt) {
		case 'h':
			print_help();
			exit(0);
		case 'V':
			tool_print_version(&(struct tool_component){
						"libpagepool", pp_version() }, 1);
			exit(0);
		case ':':
			tool_die(2, "option '%s' needs a value; see pagebench "
				    "--help", argv[optind - 1]);
		case '?':
			cmdline_die_refused(long_options, argv[optind - 1],
					    "pagebench");
		default:
			parse_option(opt, optarg, o);
			if (idx >= 0)
				given[idx] = optarg ? optarg : "";
			idx = -1;
		}
	}
	if (optind < argc)
		tool_die(2, "unexpected argument '%s': pagebench takes "
			    "options only; see pagebench --help",
			    argv[optind]);
	if (o->smoke)
		o->runs = o->runs < 3 ? o->runs : 3;
	/* Measured when a path is given, whatever --allocators says. */
	if (o->allocator[A_PLUGIN] && !o->backend_plugin &&
	    !o->allocators_all)
		tool_die(2, "--allocators=%s: the plugin allocator needs "
			    "--backend=plugin:PATH.so", given[0]);
	o->allocator[A_PLUGIN] = o->backend_plugin != NULL;
	if (o->api[PB_API_LIST] && !o->api[PB_API_SINGLE] &&
	    !o->api[PB_API_ARRAY]) {
		bool pool = false;

		for (int a = 0; a <= A_LAST_POOL; a++)
			pool |= o->allocator[a];
		if (!pool)
			tool_die(2, "--api=list: only libpagepool's pools "
				    "(buddy, jemalloc, a plugin) have the list "
				    "API, and --allocators names none: nothing "
				    "to measure");
	}
	if (o->results && o->json)
		tool_die(2, "--json: not with --results=%s (the JSON document "
			    "goes into its file; the text or CSV stays on "
			    "stdout)", o->results);
	if (o->results)
		results_settings(o, given);
	/*
	 * What it cannot read, pp_pool_create() refuses (exit 1), but for
	 * the settings the header reports and the debug switches, checked
	 * here as rpcsim checks them: a usage error (exit 2) before
	 * anything runs.  PAGEPOOL_FAULT's grammar stays libpagepool's.
	 */
	(void)pp_pool_config_init(&o->pool_env);
	if (o->pool_env.pcp_impl == PP_NR_PCP_IMPLS)
		tool_die(2, "PAGEPOOL_PCP=%s: expected auto, rseq or lock",
			 getenv("PAGEPOOL_PCP"));
	if (o->profile >= 0)
		o->pool_env.profile = (enum pp_profile)o->profile;
	else if (o->pool_env.profile == PP_NR_PROFILES)
		tool_die(2, "PAGEPOOL_PROFILE=%s: expected lean or kernel",
			 getenv("PAGEPOOL_PROFILE"));
	tool_check_debug_env();
}
