/* SPDX-License-Identifier: MIT */
/*
 * helper-serve: the child's side of pagebench's helper protocol
 * (helper.h): answer pagebench's requests on fd 0 with the harness.
 */
#include <config.h>

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include "helper.h"

static const char *helper_name = "pagebench-helper";

void pb_helper_fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", helper_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

void pb_helper_init(const char *name, int argc, char **argv)
{
	struct stat st;

	helper_name = name;
	if (argc > 1 || fstat(0, &st) || !S_ISSOCK(st.st_mode)) {
		fprintf(stderr, "%s: a baseline of pagebench(1), which runs "
			"it; it takes no arguments and does not run by hand\n",
			name);
		exit(2);
	}
	(void)argv;
	/*
	 * Ctrl-C and a hang-up reach the whole process group: leave them
	 * to pagebench.  When it goes, the socket closes and the child
	 * exits the normal way, cleaning up (pagebench-mempool removes its
	 * EAL folder).
	 */
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
}

/*
 * One line to pagebench.  MSG_NOSIGNAL: if pagebench is gone (Ctrl-C
 * while this child was in a run) the child must still exit normally, so
 * that its atexit() cleanup runs, and quietly.
 */
__attribute__((format(printf, 1, 2)))
static void reply(const char *fmt, ...)
{
	char line[1200];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(line))
		pb_helper_fail("a reply of %d bytes", n);
	if (send(0, line, (size_t)n, MSG_NOSIGNAL) == n)
		return;
	if (errno == EPIPE || errno == ECONNRESET)
		exit(1);
	pb_helper_fail("writing to pagebench: %s", strerror(errno));
}

void pb_helper_info(const char *key, const char *fmt, ...)
{
	char value[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(value, sizeof(value), fmt, ap);
	va_end(ap);
	/* One line: a newline in a value would end it early. */
	value[strcspn(value, "\n")] = '\0';
	reply("info %s %s\n", key, value);
}

/* "single" or "array" (the baselines have no list API). */
static bool parse_api(const char *s, enum pb_api *api)
{
	if (!strcmp(s, pb_api_names[PB_API_SINGLE]))
		*api = PB_API_SINGLE;
	else if (!strcmp(s, pb_api_names[PB_API_ARRAY]))
		*api = PB_API_ARRAY;
	else
		return false;
	return true;
}

int pb_helper_serve(pb_run_fn run, void *ctx)
{
	char line[256], api_s[16];
	FILE *in = fdopen(0, "r");

	if (!in)
		pb_helper_fail("fdopen: %s", strerror(errno));
	reply("ready\n");
	while (fgets(line, sizeof(line), in)) {
		enum pb_api api;
		unsigned int bulk;
		unsigned long pages;
		double run_ms, ns, ticks;
		int smoke, end = 0;

		if (!strcmp(line, "quit\n"))
			break;
		if (sscanf(line, "prepare %15s %u %d %lf%n", api_s, &bulk,
			   &smoke, &run_ms, &end) == 4 && line[end] == '\n' &&
		    parse_api(api_s, &api) && bulk >= 1 &&
		    bulk <= PB_MAX_BULK && run_ms > 0) {
			pages = pb_prepare(run, ctx, api,
					   api == PB_API_SINGLE ? 1 : bulk,
					   smoke != 0, run_ms);
			reply("ok %lu\n", pages);
		} else if (sscanf(line, "run %15s %u %lu%n", api_s, &bulk,
				  &pages, &end) == 3 && line[end] == '\n' &&
			   parse_api(api_s, &api) && bulk >= 1 &&
			   bulk <= PB_MAX_BULK && pages >= 1) {
			pb_time_run(run, ctx, api,
				    api == PB_API_SINGLE ? 1 : bulk, pages,
				    &ns, &ticks);
			reply("ok %.17g %.17g\n", ns, ticks);
		} else {
			line[strcspn(line, "\n")] = '\0';
			reply("error %s cannot do '%s'\n", helper_name, line);
			return 2;
		}
	}
	return 0;
}
