/* SPDX-License-Identifier: MIT */
/*
 * rpcsim --trace: record the run itself through liblttng-ctl.  A session is
 * created writing to a folder, the rpcsim events (and optionally the
 * pagepool ones) are enabled, for this process only, on a channel of
 * their own with the vtid, vpid and procname contexts, tracing starts, and at the end it stops, counts what the tracer
 * discarded and destroys the session, whatever happened in between.
 */
#ifndef RPCSIM_TRACE_SESSION_H
#define RPCSIM_TRACE_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct trace_session_config {
	const char *dir;		/* output folder; NULL: a new one */
	/*
	 * --trace-live: a live session sent to the relay daemon at this
	 * URL (net://HOST[:CTRL[:DATA]]) instead of a folder; dir unused.
	 */
	const char *live_url;
	bool all_events;		/* also enable pagepool:* */
	bool page_pool;			/* also enable page_pool:* */
	uint64_t subbuf_size;		/* bytes per sub-buffer, power of 2 */
	uint64_t num_subbuf;		/* sub-buffers per CPU, power of 2 */
};

struct trace_session {
	char name[64];
	char dir[4096];			/* absolute output folder; live:
					   HOSTNAME/SESSION below the relay
					   daemon's output folder */
	bool live;
	int dir_fd;			/* holds its lock until exit */
	uint64_t subbuf_size;
	bool started;
	uint64_t discarded_events;
	uint64_t lost_packets;
};

/*
 * Create and start the session.  The output folder is locked until the
 * process exits; a folder another rpcsim --trace holds, or one that
 * already holds a trace (a "metadata" file anywhere below it), is
 * refused.  On failure returns -1 and leaves a one-line reason in @err
 * (with how to start a session daemon when none answers); nothing is left
 * behind but a folder it created.
 */
int trace_session_start(struct trace_session *ts,
			const struct trace_session_config *cfg,
			char *err, size_t errlen);

/*
 * Stop (waiting for the data to be flushed), read the discarded-event and
 * lost-packet counts, destroy.  Safe to call on a session that failed to
 * start.  Returns -1 with @err set if a step failed (the session is still
 * destroyed when it can be); when the trace's file system is full, @err
 * says so and where.
 */
int trace_session_stop(struct trace_session *ts, char *err, size_t errlen);

#endif /* RPCSIM_TRACE_SESSION_H */
