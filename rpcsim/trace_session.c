/* SPDX-License-Identifier: MIT */
/*
 * rpcsim --trace: the LTTng session around a run, through liblttng-ctl
 * (trace_session.h says what it does and in what order).
 */
#include "trace_session.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include <lttng/lttng.h>

#define TRACE_CHANNEL	"rpcsim"
/* --trace-live: how often the consumer sends what it has (us) */
#define TRACE_LIVE_TIMER_US	200000

/* --trace-live: the relay daemon's URL, for trace_err() */
static const char *trace_relay_url;

static void trace_err(char *err, size_t errlen, const char *what, int ret)
{
	int code = ret < 0 ? -ret : ret;

	/* the session daemon meets the relay daemon at the first channel */
	if (trace_relay_url && (code == LTTNG_ERR_RELAYD_CONNECT_FAIL ||
				code == LTTNG_ERR_RELAYD_VERSION_FAIL))
		snprintf(err, errlen, "no relay daemon answers at %s: start "
			 "one with 'lttng-relayd --daemonize' (LTTng, %s: %s)",
			 trace_relay_url, what, lttng_strerror(-code));
	else
		snprintf(err, errlen, "%s: %s", what, lttng_strerror(-code));
}

/*
 * A session records every instrumented process of the user; the filter
 * keeps this rpcsim's events only, so concurrent runs stay apart.
 */
static int trace_enable(struct lttng_handle *h, const char *pattern,
			char *err, size_t errlen)
{
	struct lttng_event *ev = lttng_event_create();
	char filter[64];
	int ret;

	snprintf(filter, sizeof(filter), "$ctx.vpid == %ld", (long)getpid());

	if (!ev) {
		snprintf(err, errlen, "lttng_event_create: out of memory");
		return -1;
	}
	ev->type = LTTNG_EVENT_TRACEPOINT;
	ev->loglevel_type = LTTNG_EVENT_LOGLEVEL_ALL;
	snprintf(ev->name, sizeof(ev->name), "%s", pattern);
	ret = lttng_enable_event_with_filter(h, ev, TRACE_CHANNEL, filter);
	lttng_event_destroy(ev);
	if (ret < 0) {
		char what[128];

		snprintf(what, sizeof(what), "enabling %s", pattern);
		trace_err(err, errlen, what, ret);
		return -1;
	}
	return 0;
}

/* Depth of the folder walk looking for a trace already there. */
#define TRACE_WALK_DEPTH	16

/*
 * The first "metadata" file below @path (a CTF trace: what rpcsim-analyze
 * looks for), into @found; 1 if there is one, 0 if not, -1 on an error
 * (errno set).
 */
static int trace_find_metadata(const char *path, int depth, char *found,
			       size_t len)
{
	DIR *d;
	struct dirent *de;
	int ret = 0;

	if (depth > TRACE_WALK_DEPTH)
		return 0;
	d = opendir(path);
	if (!d)
		return -1;
	while (!ret && (de = readdir(d))) {
		char sub[PATH_MAX];
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if ((size_t)snprintf(sub, sizeof(sub), "%s/%s", path,
				     de->d_name) >= sizeof(sub))
			continue;
		if (lstat(sub, &st))
			continue;
		if (!strcmp(de->d_name, "metadata")) {
			snprintf(found, len, "%s", sub);
			ret = 1;
		} else if (S_ISDIR(st.st_mode)) {
			ret = trace_find_metadata(sub, depth + 1, found, len);
		}
	}
	closedir(d);
	return ret;
}

/*
 * Make the folder ours: lock it (flock on the folder itself, held until
 * rpcsim exits, so a second rpcsim --trace into it is refused instead of
 * both writing one corrupt trace), then refuse it if a trace is already
 * there (it would be replaced or mixed with ours).  0, or -1 with @err.
 */
static int trace_claim_dir(struct trace_session *ts, char *err, size_t errlen)
{
	char found[PATH_MAX];
	int fd, ret;

	fd = open(ts->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "cannot open %s: %s", ts->dir,
			 strerror(errno));
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		if (errno == EWOULDBLOCK)
			snprintf(err, errlen, "%s is in use: another rpcsim "
				 "--trace is recording into it; choose another "
				 "folder", ts->dir);
		else
			snprintf(err, errlen, "cannot lock %s: %s", ts->dir,
				 strerror(errno));
		close(fd);
		return -1;
	}
	ret = trace_find_metadata(ts->dir, 0, found, sizeof(found));
	if (ret) {
		if (ret > 0)
			snprintf(err, errlen, "%s already holds a trace (%s); "
				 "choose another folder, or remove that trace "
				 "first", ts->dir, found);
		else
			snprintf(err, errlen, "cannot read %s: %s", ts->dir,
				 strerror(errno));
		close(fd);
		return -1;
	}
	ts->dir_fd = fd;	/* kept open: the lock lasts until exit */
	return 0;
}

/*
 * Make @dir absolute (lttng wants a URL), create it if needed and claim
 * it.  Without @dir, a new folder named after the time (-2, -3, ... when
 * another rpcsim started in the same second).
 */
static int trace_prepare_dir(struct trace_session *ts, const char *dir,
			     char *err, size_t errlen)
{
	char cwd[PATH_MAX], stamp[64];
	time_t now = time(NULL);
	struct tm tm;

	if (!dir) {
		localtime_r(&now, &tm);
		strftime(stamp, sizeof(stamp), "rpcsim-trace-%Y%m%d-%H%M%S",
			 &tm);
		dir = stamp;
	}
	if (dir[0] == '/') {
		snprintf(ts->dir, sizeof(ts->dir), "%s", dir);
	} else {
		if (!getcwd(cwd, sizeof(cwd))) {
			snprintf(err, errlen, "getcwd: %s", strerror(errno));
			return -1;
		}
		if ((size_t)snprintf(ts->dir, sizeof(ts->dir), "%s/%s", cwd,
				     dir) >= sizeof(ts->dir)) {
			snprintf(err, errlen, "trace folder name too long");
			return -1;
		}
	}
	if (dir == stamp) {
		size_t base = strlen(ts->dir);

		for (int n = 2; mkdir(ts->dir, 0755); n++) {
			if (errno != EEXIST || n > 100 ||
			    base + 8 >= sizeof(ts->dir)) {
				snprintf(err, errlen, "cannot create %s: %s",
					 ts->dir, strerror(errno));
				return -1;
			}
			snprintf(ts->dir + base, sizeof(ts->dir) - base,
				 "-%d", n);
		}
	} else if (mkdir(ts->dir, 0755) && errno != EEXIST) {
		snprintf(err, errlen, "cannot create %s: %s", ts->dir,
			 strerror(errno));
		return -1;
	}
	return trace_claim_dir(ts, err, errlen);
}

/* The session's one channel, with @cfg's sub-buffers. */
static int trace_enable_channel(struct lttng_handle *h,
				struct lttng_channel *chan,
				const struct trace_session_config *cfg,
				char *err, size_t errlen)
{
	int ret;

	snprintf(chan->name, sizeof(chan->name), "%s", TRACE_CHANNEL);
	chan->attr.overwrite = 0;	/* discard mode: losses are counted */
	if (cfg->subbuf_size)
		chan->attr.subbuf_size = cfg->subbuf_size;
	if (cfg->num_subbuf)
		chan->attr.num_subbuf = cfg->num_subbuf;
	ret = lttng_enable_channel(h, chan);
	if (ret < 0) {
		trace_err(err, errlen, "enabling the channel", ret);
		return -1;
	}
	return 0;
}

/*
 * vtid pairs a thread's entry and exit; vpid tells the processes
 * apart (per-UID buffers mix a user's processes); procname names them
 * (Trace Compass's per-process rows, rpcsim-analyze's headings), as
 * doc/tracing.md's by-hand recipe and tracecompass/rpcsim-session.lttng
 * record them: one trace, whichever way it was recorded, reads the same.
 */
static int trace_add_contexts(struct lttng_handle *h, char *err,
			      size_t errlen)
{
	static const struct {
		enum lttng_event_context_type type;
		const char *what;
	} contexts[] = {
		{ LTTNG_EVENT_CONTEXT_VTID, "adding the vtid context" },
		{ LTTNG_EVENT_CONTEXT_VPID, "adding the vpid context" },
		{ LTTNG_EVENT_CONTEXT_PROCNAME, "adding the procname context" },
	};
	struct lttng_event_context ctx;
	unsigned int i;
	int ret;

	for (i = 0; i < sizeof(contexts) / sizeof(contexts[0]); i++) {
		memset(&ctx, 0, sizeof(ctx));
		ctx.ctx = contexts[i].type;
		ret = lttng_add_context(h, &ctx, NULL, TRACE_CHANNEL);
		if (ret < 0) {
			trace_err(err, errlen, contexts[i].what, ret);
			return -1;
		}
	}
	return 0;
}

/*
 * --trace-live: a live session whose consumer sends the trace to the
 * relay daemon at @url, which writes it below its output folder, in
 * HOSTNAME/SESSION-CREATION_TIME (@ts->dir), and serves it to live
 * viewers (rpcsim-analyze --live) as it comes.  0, or -1 with @err.
 */
static int trace_create_live(struct trace_session *ts, const char *url,
			     char *err, size_t errlen)
{
	struct lttng_session_descriptor *desc;
	struct lttng_session *list = NULL;
	char host[256] = "localhost", stamp[32] = "";
	enum lttng_error_code code;
	int n;

	desc = lttng_session_descriptor_live_network_create(ts->name, url,
							     NULL,
							     TRACE_LIVE_TIMER_US);
	if (!desc) {
		snprintf(err, errlen, "--trace-live=%s: liblttng-ctl refused "
			 "the URL: accepted net://HOST[:CONTROL_PORT"
			 "[:DATA_PORT]]", url);
		return -1;
	}
	trace_relay_url = url;
	code = lttng_create_session_ext(desc);
	lttng_session_descriptor_destroy(desc);
	if (code != LTTNG_OK) {
		trace_err(err, errlen, "creating the live session", -code);
		return -1;
	}
	ts->live = true;
	/* where the relay daemon writes it: its name and creation time */
	n = lttng_list_sessions(&list);
	for (int i = 0; i < n; i++) {
		uint64_t t;
		time_t tt;
		struct tm tm;

		if (strcmp(list[i].name, ts->name) ||
		    lttng_session_get_creation_time(&list[i], &t) != LTTNG_OK)
			continue;
		tt = (time_t)t;
		localtime_r(&tt, &tm);
		strftime(stamp, sizeof(stamp), "-%Y%m%d-%H%M%S", &tm);
	}
	free(list);
	if (gethostname(host, sizeof(host)))
		snprintf(host, sizeof(host), "localhost");
	host[sizeof(host) - 1] = '\0';
	snprintf(ts->dir, sizeof(ts->dir), "%s/%s%s", host, ts->name, stamp);
	return 0;
}

int trace_session_start(struct trace_session *ts,
			const struct trace_session_config *cfg,
			char *err, size_t errlen)
{
	struct lttng_domain dom;
	struct lttng_handle *h = NULL;
	struct lttng_channel *chan = NULL;
	char url[4200];
	int ret;

	memset(ts, 0, sizeof(*ts));
	ts->dir_fd = -1;
	ts->subbuf_size = cfg->subbuf_size ? cfg->subbuf_size : 4096;
	if (!lttng_session_daemon_alive()) {
		snprintf(err, errlen,
			 "no LTTng session daemon answers: start one with "
			 "'lttng-sessiond --daemonize --no-kernel' "
			 "(as root, or as this user)");
		return -1;
	}
	snprintf(ts->name, sizeof(ts->name), "rpcsim-%ld-%ld", (long)getpid(),
		 (long)time(NULL));
	if (cfg->live_url) {
		if (trace_create_live(ts, cfg->live_url, err, errlen))
			return -1;
	} else {
		if (trace_prepare_dir(ts, cfg->dir, err, errlen))
			return -1;
		snprintf(url, sizeof(url), "file://%s", ts->dir);
		ret = lttng_create_session(ts->name, url);
		if (ret < 0) {
			trace_err(err, errlen, "creating the session", ret);
			return -1;
		}
	}

	memset(&dom, 0, sizeof(dom));
	dom.type = LTTNG_DOMAIN_UST;
	dom.buf_type = LTTNG_BUFFER_PER_UID;
	h = lttng_create_handle(ts->name, &dom);
	chan = lttng_channel_create(&dom);
	if (!h || !chan) {
		snprintf(err, errlen, "lttng handle/channel: out of memory");
		goto fail;
	}
	if (trace_enable_channel(h, chan, cfg, err, errlen))
		goto fail;
	if (trace_enable(h, "rpcsim:*", err, errlen))
		goto fail;
	if (cfg->all_events && trace_enable(h, "pagepool:*", err, errlen))
		goto fail;
	if (cfg->page_pool && trace_enable(h, "page_pool:*", err, errlen))
		goto fail;
	if (trace_add_contexts(h, err, errlen))
		goto fail;
	ret = lttng_start_tracing(ts->name);
	if (ret < 0) {
		trace_err(err, errlen, "starting the session", ret);
		goto fail;
	}
	ts->started = true;
	lttng_channel_destroy(chan);
	lttng_destroy_handle(h);
	return 0;

fail:
	if (chan)
		lttng_channel_destroy(chan);
	if (h)
		lttng_destroy_handle(h);
	lttng_destroy_session(ts->name);
	ts->name[0] = '\0';
	return -1;
}

/* The mount point holding @path (resolved), into @out. */
static void trace_mount_point(const char *path, char *out, size_t len)
{
	char p[PATH_MAX];
	struct stat st, up;

	if (!realpath(path, p) || stat(p, &st)) {
		snprintf(out, len, "%s", path);
		return;
	}
	for (;;) {
		char *slash = strrchr(p, '/');
		char keep;

		if (!slash || slash == p) {
			/* The parent is /: is it the same file system? */
			if (slash && p[1] && !stat("/", &up) &&
			    up.st_dev == st.st_dev)
				p[1] = '\0';
			break;
		}
		keep = *slash;
		*slash = '\0';
		if (stat(p, &up) || up.st_dev != st.st_dev) {
			*slash = keep;
			break;
		}
	}
	snprintf(out, len, "%s", p);
}

/*
 * After a failed stop or destroy: if the trace's file system has less than
 * a sub-buffer left (what the consumer writes at a time), that is why.
 * lttng only says "Rotation failure on consumer"; say that it is full,
 * and where.  Replaces @err (keeping lttng's words at the end).
 */
static void trace_explain_full(const struct trace_session *ts, char *err,
			       size_t errlen)
{
	char mnt[PATH_MAX], lttng[256];
	struct statvfs vfs;
	unsigned long long left;

	if (ts->live || statvfs(ts->dir, &vfs))
		return;
	/* The consumer of a root session daemon may use the reserve. */
	left = (unsigned long long)(geteuid() ? vfs.f_bavail : vfs.f_bfree) *
	       vfs.f_frsize;
	if (left >= ts->subbuf_size && (!vfs.f_files || vfs.f_favail))
		return;
	trace_mount_point(ts->dir, mnt, sizeof(mnt));
	snprintf(lttng, sizeof(lttng), "%s", err);
	snprintf(err, errlen, "the trace's file system is full: %s is on %s, "
		 "which has %s left; the trace is incomplete (LTTng: %s)",
		 ts->dir, mnt, vfs.f_files && !vfs.f_favail ? "no inode" :
		 left ? "less than a sub-buffer" : "no space", lttng);
}

int trace_session_stop(struct trace_session *ts, char *err, size_t errlen)
{
	struct lttng_channel *chans = NULL;
	struct lttng_domain dom;
	struct lttng_handle *h;
	int ret, n, status = 0;

	if (!ts->name[0])
		return 0;
	if (ts->started) {
		/* Waits until the consumer has written everything out. */
		ret = lttng_stop_tracing(ts->name);
		if (ret < 0) {
			trace_err(err, errlen, "stopping the session", ret);
			status = -1;
		}
	}
	memset(&dom, 0, sizeof(dom));
	dom.type = LTTNG_DOMAIN_UST;
	dom.buf_type = LTTNG_BUFFER_PER_UID;
	h = lttng_create_handle(ts->name, &dom);
	if (h) {
		n = lttng_list_channels(h, &chans);
		for (int i = 0; i < n; i++) {
			uint64_t d = 0, l = 0;

			/*
			 * lttng-tools 2.13 may set bit 63 of the count (seen
			 * here and in CI): the count is in the low 63 bits,
			 * which agree with the trace's.
			 */
			if (!lttng_channel_get_discarded_event_count(&chans[i],
								     &d))
				ts->discarded_events += d & ~(1ULL << 63);
			if (!lttng_channel_get_lost_packet_count(&chans[i], &l))
				ts->lost_packets += l;
		}
		free(chans);
		lttng_destroy_handle(h);
	}
	ret = lttng_destroy_session(ts->name);
	if (ret < 0 && !status) {
		trace_err(err, errlen, "destroying the session", ret);
		status = -1;
	}
	ts->name[0] = '\0';
	ts->started = false;
	if (status)
		trace_explain_full(ts, err, errlen);
	return status;
}
