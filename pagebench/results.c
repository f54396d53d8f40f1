/* SPDX-License-Identifier: MIT */
/*
 * pagebench --results=DIR: the run's JSON document as a file of DIR, the
 * way rpcsim --sweep writes each point (sweep/results.h: the name from
 * the settings, the host and build record, written whole or not at all),
 * so that pagebench's rows join a sweep's folder and rpcsim-compare
 * --sweep=DIR tabulates them.  One file per invocation, not per row: the
 * rows of one invocation are measured together (--interleave shares one
 * machine's noise among them) and rpcsim-compare reads each row out of
 * the file.  A file that holds the same settings is a finished run:
 * pagebench says so and runs nothing, as a finished sweep point is not
 * run again.
 */
#include <config.h>

#include <stdlib.h>

#include "results.h"
#include "tool.h"

#include "pagebench.h"

int pb_results_done(const struct options *o)
{
	char *path;
	int done;

	if (results_mkdir(o->results))
		exit(1);
	done = results_resume(o->results, o->name, "pagebench", "results",
			      o->settings, "pagebench");
	if (done <= 0)
		return done;
	path = results_path(o->results, o->name);
	printf("pagebench: %s holds these settings already: not run again "
	       "(remove it to run again)\n", path);
	free(path);
	return 1;
}

static void write_doc(FILE *f, const void *d)
{
	pb_write_json(f, d);
}

int pb_results_write(const struct pb_doc *d)
{
	char *path;

	if (results_write(d->o->results, d->o->name, write_doc, d))
		return -1;
	path = results_path(d->o->results, d->o->name);
	printf("\nResult file: %s\n", path);
	free(path);
	return 0;
}
