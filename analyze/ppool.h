/* SPDX-License-Identifier: MIT */
/*
 * The page_pool view (ppool.c): rpcsim --consumer=page_pool's events,
 * per mode and per pool.
 */
#ifndef RPCSIM_ANALYZE_PPOOL_H
#define RPCSIM_ANALYZE_PPOOL_H

#include <stdio.h>

#include "analyze.h"

struct json;
struct rec;

/* A page_pool:* record (EV_PP_*) of process @proc into @a. */
void ppool_fold(struct analysis *a, const struct process *proc,
		const struct rec *rc);
/* page_pool:* events folded. */
uint64_t ppool_events(const struct analysis *a);
void ppool_free(struct analysis *a);
/* Each pool that does not balance, as one line to @say. */
void ppool_warnings(const struct analysis *a, const struct report_options *o,
		    void (*say)(void *data, const char *msg), void *data);
/* The text report's page_pool part; the JSON document's "page_pool". */
void ppool_text(const struct analysis *a, const struct report_options *o,
		FILE *out);
void ppool_json(const struct analysis *a, const struct report_options *o,
		struct json *j);

#endif /* RPCSIM_ANALYZE_PPOOL_H */
