/* SPDX-License-Identifier: MIT */
/*
 * rpcsim --sweep: the plan (one command per point), the sweep run here
 * (each point its own rpcsim, then the table), and one point's result
 * file (written whole or not at all; a finished point is not run again).
 */
#ifndef RPCSIM_SWEEP_H
#define RPCSIM_SWEEP_H

#include <stdbool.h>

#include "options.h"
#include "report.h"

/*
 * --plan: each point's command, shell-quoted, one a line; --plan=slurm:
 * an sbatch script of a job array, a task per point.
 */
void sweep_plan(const struct rpcsim_config *cfg, const char *prog);

/*
 * The sweep: each point run as "rpcsim ... --point=N" (this program),
 * then the table of the points (and cfg->plot, with @gnuplot).  Returns
 * the exit status: 0, 1 when a point or the table failed, 128 + a signal;
 * *@stop_said when the point the signal stopped said it was interrupted.
 */
int sweep_run(const struct rpcsim_config *cfg, const char *gnuplot,
	      bool *stop_said);

/* --point: DIR/NAME.json, the point's result file (malloc'd). */
char *sweep_point_path(const struct rpcsim_config *cfg);

/*
 * Does the point's result file exist and hold its settings?  1 yes, 0
 * no (run it), -1 something that is no result file has its name (said).
 */
int sweep_point_done(const struct rpcsim_config *cfg);

/*
 * Write @rep's JSON document as the point's result file: a temporary file
 * in the folder, renamed over the name when complete.  0, or -1 (said).
 */
int sweep_point_write(const struct report *rep);

#endif /* RPCSIM_SWEEP_H */
