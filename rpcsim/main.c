/* SPDX-License-Identifier: MIT */
/*
 * rpcsim: an NFS-server-like benchmark of the bulk page allocator's first
 * consumer.  Server threads run SUNRPC's svc_alloc_arg() refill loop
 * against libpagepool in one of three modes (single page, bulk list, bulk
 * array) and every call is timed, as in the measurements of seed 004:
 *
 *	Single page: 25.007 us per call over 532,571 calls
 *	Bulk list:    6.258 us per call over 517,034 calls
 *	Bulk array:   4.590 us per call over 517,442 calls
 */
#include <config.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "options.h"
#include "report.h"
#include "svc.h"
#include "util.h"

#define CLOCK_BATCHES	20
#define CLOCK_SAMPLES	1000

/*
 * What one clock_gettime(CLOCK_MONOTONIC) costs: part of every timed call.
 * The best of several batches, so a preemption does not count.
 */
static uint64_t clock_cost_ns(void)
{
	uint64_t best = UINT64_MAX;

	for (int b = 0; b < CLOCK_BATCHES; b++) {
		uint64_t t0 = now_ns(), t1 = t0;

		for (int i = 0; i < CLOCK_SAMPLES; i++)
			t1 = now_ns();
		if ((t1 - t0) / CLOCK_SAMPLES < best)
			best = (t1 - t0) / CLOCK_SAMPLES;
	}
	return best;
}

static void free_results(struct report *rep)
{
	for (int m = 0; m < RPCSIM_NR_MODES; m++) {
		for (unsigned int r = 0; r < rep->runs_done[m]; r++)
			svc_result_free(&rep->results[m][r]);
		free(rep->results[m]);
	}
}

int main(int argc, char **argv)
{
	struct rpcsim_config cfg;
	struct report rep = { .cfg = &cfg };
	unsigned int nr_modes = 0;

	rpcsim_parse_options(argc, argv, &cfg);
	rep.clock_ns = clock_cost_ns();
	for (int m = 0; m < RPCSIM_NR_MODES; m++) {
		if (!cfg.mode[m])
			continue;
		rep.results[m] = xcalloc(cfg.repeat, sizeof(struct svc_result));
		nr_modes++;
	}
	if (!cfg.json && !cfg.quiet)
		report_config(stdout, &rep);
	fflush(stdout);

	/* Runs interleave the modes, so drift hits every mode alike. */
	for (unsigned int r = 1; r <= cfg.repeat; r++) {
		for (int m = 0; m < RPCSIM_NR_MODES; m++) {
			struct svc_result *res;

			if (!cfg.mode[m])
				continue;
			res = &rep.results[m][r - 1];
			if (svc_run(&cfg, m, r, res)) {
				svc_result_free(res);
				free_results(&rep);
				return 1;
			}
			rep.runs_done[m]++;
			if (cfg.json)
				continue;
			/* Quiet with several modes: the table says it all. */
			if (cfg.repeat == 1 && !(cfg.quiet && nr_modes > 1))
				report_mode(stdout, &rep, m);
			else if (!cfg.quiet)
				report_run(stdout, &rep, res);
			fflush(stdout);
		}
	}

	if (cfg.json) {
		report_json(stdout, &rep);
	} else {
		if (cfg.repeat > 1 && !(cfg.quiet && nr_modes > 1)) {
			if (!cfg.quiet)
				fputc('\n', stdout);
			for (int m = 0; m < RPCSIM_NR_MODES; m++)
				if (cfg.mode[m])
					report_mode(stdout, &rep, m);
		}
		if (nr_modes > 1)
			report_table(stdout, &rep);
	}
	free_results(&rep);
	if (fflush(stdout) || ferror(stdout)) {
		perror("rpcsim: writing the report");
		return 1;
	}
	return 0;
}
