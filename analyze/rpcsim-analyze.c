/* SPDX-License-Identifier: MIT */
/*
 * rpcsim-analyze: per-call latency of svc_alloc_arg() from an LTTng-UST
 * trace of rpcsim, printed the way the seed's cover letter did:
 *
 *   Bulk array:   4.590 us per call over 517,442 calls
 *
 * Exit status: 0 results printed (warnings, if any, on stderr); 1 runtime
 * error: a path missing or unreadable, no trace below a path, a trace
 * babeltrace2 cannot decode (truncated, corrupted), or no rpcsim event at
 * all; 2 bad usage.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <babeltrace2/babeltrace.h>

#include "analyze.h"
#include "../rpcsim/plot.h"

#define TP_COST_DEFAULT_NS	300
#define TP_COST_MAX_NS		1000000	/* also in the message for ':' */

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n, size);

	if (!p) {
		fprintf(stderr, "rpcsim-analyze: out of memory\n");
		exit(1);
	}
	return p;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s ? s : "");

	if (!p) {
		fprintf(stderr, "rpcsim-analyze: out of memory\n");
		exit(1);
	}
	return p;
}

/* 517442 -> "517,442" */
const char *fmt_count(char *buf, size_t len, uint64_t v)
{
	char tmp[32];
	int n = snprintf(tmp, sizeof(tmp), "%" PRIu64, v);
	size_t o = 0;
	int i;

	for (i = 0; i < n && o + 2 < len; i++) {
		if (i && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = tmp[i];
	}
	buf[o] = '\0';
	return buf;
}

static void usage(FILE *f)
{
	fprintf(f,
"Usage: rpcsim-analyze [OPTION]... TRACE...\n"
"Per-call latency of svc_alloc_arg() from an LTTng-UST trace of rpcsim.\n"
"\n"
"TRACE is a directory lttng wrote (lttng create --output=TRACE); the CTF\n"
"traces below it (directories holding a 'metadata' file) are found\n"
"recursively.  Several TRACEs are read as one trace, in time order.\n"
"\n"
"Options:\n"
"  -j, --json               print one JSON document (default: text)\n"
"  -c, --tracepoint-cost=NS cost of one enabled tracepoint, in ns (default %d,\n"
"                           accepted 0..%d); see the check below\n"
"  -v, --verbose            babeltrace2's warnings, and every cause of an\n"
"                           error (default: off)\n"
"      --plot=FILE          draw each mode's per-call latency_ns (histogram,\n"
"                           CDF and tail, log x axis) and pages refilled\n"
"                           per call into FILE, an .svg or .png, with\n"
"                           gnuplot (default: no plot)\n"
"  -h, --help               print this help and exit\n"
"  -V, --version            print the version and exit\n"
"\n"
"For each mode (Single page, Bulk list, Bulk array), one line\n"
"  Bulk array:   4.590 us per call over 517,442 calls\n"
"from svc_alloc_arg_exit's latency_ns, then its distribution, the latency\n"
"from the entry/exit timestamps of each thread (needs the vtid context:\n"
"lttng add-context -u -t vtid), rpcsim's own run_end totals, pages and\n"
"allocator calls per call, no-progress retries and pagepool events per\n"
"call; one line per run when there were several.  Warnings (discarded\n"
"events, unmatched entry/exit events, counts differing from run_end,\n"
"methods disagreeing) go to stderr.\n"
"\n"
"The check between the two methods: per paired call, d = timestamps -\n"
"latency_ns holds the tracepoints' own cost, so it should be small and\n"
"positive.  Warned about: median(d) or mean(d) below -0.050 us (the events\n"
"do not bracket what rpcsim timed), or above 2 x the tracepoint cost.\n"
"\n"
"Environment: RPCSIM_GNUPLOT=PATH, the gnuplot --plot runs (default:\n"
"gnuplot in PATH).\n"
"\n"
"Exit status: 0 results printed; 1 a trace missing, unreadable or\n"
"corrupted, or without any rpcsim event, or the plot not drawn (no\n"
"gnuplot, or it failed); 2 bad usage.\n",
		TP_COST_DEFAULT_NS, TP_COST_MAX_NS);
}

static void bad_usage(const char *fmt, const char *arg)
{
	fputs("rpcsim-analyze: ", stderr);
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	exit(2);
}

static uint64_t parse_ns(const char *opt, const char *arg, uint64_t max)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(arg, &end, 10);
	if (errno || end == arg || *end || arg[0] == '-' || arg[0] == '+' ||
	    v > max) {
		fprintf(stderr, "rpcsim-analyze: invalid %s '%s': accepted an integer 0..%" PRIu64 " (ns)\n",
			opt, arg, max);
		exit(2);
	}
	return v;
}

/* --plot: the modes of @a into @path; 0, or 1 after saying why not. */
static int write_plot(struct analysis *a, const char *path,
		      const char *gnuplot, char **traces, int nr)
{
	char title[PATH_MAX + 128], err[1024];
	struct plot *p;
	int ret = 1;

	snprintf(title, sizeof(title), "rpcsim-analyze %s%s: svc_alloc_arg() "
		 "per call (latency_ns)", traces[0], nr > 1 ? " ..." : "");
	p = plot_new(title);
	if (!p || report_plot(a, p))
		fprintf(stderr, "rpcsim-analyze: --plot=%s: out of memory\n",
			path);
	else if (plot_write(p, path, gnuplot, err, sizeof(err)))
		fprintf(stderr, "rpcsim-analyze: --plot=%s: %s\n", path, err);
	else
		ret = 0;
	plot_free(p);
	return ret;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "tracepoint-cost", required_argument, NULL, 'c' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "plot", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct report_options ro = { .tp_cost_ns = TP_COST_DEFAULT_NS };
	struct reader_options rd = { .bt_log_level = BT_LOGGING_LEVEL_NONE };
	struct analysis a = { 0 };
	const char *plot_path = NULL;
	char gnuplot[PATH_MAX], why[512];
	int c, ret;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":jc:vhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'j':
			ro.json = true;
			break;
		case 'c':
			ro.tp_cost_ns = parse_ns("--tracepoint-cost", optarg,
						 TP_COST_MAX_NS);
			break;
		case 'v':
			rd.bt_log_level = BT_LOGGING_LEVEL_WARNING;
			break;
		case 'p':
			if (plot_check_path(optarg, why, sizeof(why))) {
				fprintf(stderr, "rpcsim-analyze: --plot=%s: "
					"%s\n", optarg, why);
				return 2;
			}
			plot_path = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("rpcsim-analyze (%s) %s, libbabeltrace2 %u.%u.%u\n",
			       PACKAGE_NAME, PACKAGE_VERSION,
			       bt_version_get_major(), bt_version_get_minor(),
			       bt_version_get_patch());
			return 0;
		case ':':
			if (optopt == 'p')
				bad_usage("option '%s' needs a value: a file "
					  "name ending in .svg or .png",
					  argv[optind - 1]);
			bad_usage("option '%s' needs a value: accepted an integer 0..1000000 (ns)",
				  argv[optind - 1]);
			break;
		default:
			if (optopt) {
				char opt[3] = { '-', (char)optopt, '\0' };

				bad_usage("unknown option '%s': see --help", opt);
			}
			bad_usage("unknown option '%s': see --help",
				  argv[optind - 1]);
		}
	}
	if (optind >= argc)
		bad_usage("%s", "missing TRACE: accepted one or more trace directories (see --help)");
	if (plot_path && (plot_find_gnuplot(gnuplot, sizeof(gnuplot), why,
					    sizeof(why)) ||
			  plot_check_dest(plot_path, why, sizeof(why)))) {
		fprintf(stderr, "rpcsim-analyze: --plot=%s: %s\n", plot_path,
			why);
		return 1;
	}

	if (find_traces(&a, argv + optind, (unsigned int)(argc - optind))) {
		analysis_free(&a);
		return 1;
	}
	if (read_traces(&a, &rd)) {
		analysis_free(&a);
		return 1;
	}
	if (!a.rpcsim_events) {
		char cnt[32];

		fprintf(stderr, "rpcsim-analyze: %s%s: no rpcsim event among %s events (record with: lttng enable-event -u 'rpcsim:*')\n",
			argv[optind], argc - optind > 1 ? " ..." : "",
			fmt_count(cnt, sizeof(cnt), a.events));
		analysis_free(&a);
		return 1;
	}
	report(&a, &ro, stdout);
	ret = ferror(stdout) || fflush(stdout) ? 1 : 0;
	if (ret)
		fprintf(stderr, "rpcsim-analyze: writing the report: %s\n",
			strerror(errno));
	if (plot_path && write_plot(&a, plot_path, gnuplot, argv + optind,
				    argc - optind))
		ret = 1;
	analysis_free(&a);
	return ret;
}
