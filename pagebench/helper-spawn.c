/* SPDX-License-Identifier: MIT */
/*
 * helper-spawn: pagebench's side of the helper protocol (helper.h): find
 * a baseline's program, start it on a socket pair, ask it for runs.
 */
#include <config.h>

#include <errno.h>
#include <limits.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helper.h"

extern char **environ;

/* h->error from @fmt; returns @err, a negative errno. */
__attribute__((format(printf, 3, 4)))
static int set_error(struct pb_helper *h, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(h->error, sizeof(h->error), fmt, ap);
	va_end(ap);
	return err;
}

/*
 * Where @program is: next to pagebench's executable (in a build tree
 * libtool runs it from .libs/, so the folder above that), else in
 * @libexecdir, where make install puts it.
 */
static int find_program(struct pb_helper *h, const char *program,
			const char *libexecdir)
{
	char exe[PATH_MAX], *slash;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n > 0) {
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			slash = strrchr(exe, '/');
			if (slash && !strcmp(slash, "/.libs"))
				*slash = '\0';
			if ((size_t)snprintf(h->path, sizeof(h->path),
					     "%s/%s", exe, program) <
				    sizeof(h->path) &&
			    !access(h->path, X_OK))
				return 0;
		}
	}
	if ((size_t)snprintf(h->path, sizeof(h->path), "%s/%s", libexecdir,
			     program) < sizeof(h->path) &&
	    !access(h->path, X_OK))
		return 0;
	return set_error(h, -ENOENT, "%s not found next to pagebench nor in %s",
			 program, libexecdir);
}

/* Wait for the child: 0 if it exited 0, else -1 and how it ended. */
static int reap(struct pb_helper *h)
{
	int status;
	pid_t pid = h->pid;

	h->pid = 0;
	if (pid <= 0)
		return set_error(h, -ECHILD, "%s is not running", h->path);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return set_error(h, -errno, "waitpid(%s): %s", h->path,
					 strerror(errno));
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return 0;
	if (WIFEXITED(status))
		return set_error(h, -ECHILD, "%s exited with status %d", h->path,
				 WEXITSTATUS(status));
	if (WIFSIGNALED(status))
		return set_error(h, -ECHILD, "%s was killed by signal %d (%s)",
				 h->path, WTERMSIG(status),
				 strsignal(WTERMSIG(status)));
	return set_error(h, -ECHILD, "%s ended with status 0x%x", h->path,
			 status);
}

/* The child closed its end before answering. */
static int child_died(struct pb_helper *h)
{
	if (h->in) {
		fclose(h->in);
		h->in = NULL;
		h->fd = -1;
	}
	if (!reap(h))
		set_error(h, -ECHILD, "%s exited before answering", h->path);
	return -ECHILD;
}

/* The next line from the child, without its newline; NULL at EOF. */
static char *read_line(struct pb_helper *h, char *buf, size_t len)
{
	if (!fgets(buf, (int)len, h->in))
		return NULL;
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

/* Send one request; the reply's text after "ok " into @buf. */
__attribute__((format(printf, 4, 5)))
static int request(struct pb_helper *h, char *buf, size_t len,
		   const char *fmt, ...)
{
	char line[256];
	va_list ap;
	int n;

	if (!h->in)
		return set_error(h, -ECHILD, "%s is not running", h->path);
	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	/* MSG_NOSIGNAL: a dead child is an error here, not a SIGPIPE. */
	if (n < 0 || (size_t)n >= sizeof(line) ||
	    send(h->fd, line, (size_t)n, MSG_NOSIGNAL) != n)
		return child_died(h);
	if (!read_line(h, buf, len))
		return child_died(h);
	if (!strncmp(buf, "ok ", 3)) {
		memmove(buf, buf + 3, strlen(buf + 3) + 1);
		return 0;
	}
	if (!strncmp(buf, "error ", 6))
		return set_error(h, -EPROTO, "%s", buf + 6);
	return set_error(h, -EPROTO, "%s answered '%s'", h->path, buf);
}

int pb_helper_start(struct pb_helper *h, const char *program,
		    const char *libexecdir)
{
	posix_spawn_file_actions_t fa;
	char line[1200], *argv[2];
	int sv[2], err;

	memset(h, 0, sizeof(*h));
	h->fd = -1;
	err = find_program(h, program, libexecdir);
	if (err)
		return err;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return set_error(h, -errno, "socketpair: %s", strerror(errno));
	/* The child's fd 0 is its end; its stdout goes to our stderr. */
	err = posix_spawn_file_actions_init(&fa);
	if (!err)
		err = posix_spawn_file_actions_adddup2(&fa, sv[1], 0);
	if (!err)
		err = posix_spawn_file_actions_adddup2(&fa, 2, 1);
	argv[0] = h->path;
	argv[1] = NULL;
	if (!err)
		err = posix_spawn(&h->pid, h->path, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(sv[1]);
	if (err) {
		close(sv[0]);
		h->pid = 0;
		return set_error(h, -err, "cannot run %s: %s", h->path,
				 strerror(err));
	}
	h->fd = sv[0];
	h->in = fdopen(h->fd, "r");
	if (!h->in) {
		err = errno;
		close(h->fd);
		h->fd = -1;
		reap(h);	/* it sees end of file and exits */
		return set_error(h, -err, "fdopen: %s", strerror(err));
	}
	while (read_line(h, line, sizeof(line))) {
		char *key, *value;

		if (!strcmp(line, "ready"))
			return 0;
		if (strncmp(line, "info ", 5) ||
		    h->nr_info == PB_HELPER_MAX_INFO)
			return set_error(h, -EPROTO,
					 "%s said '%s' before ready",
					 h->path, line);
		key = line + 5;
		value = strchr(key, ' ');
		if (!value)
			return set_error(h, -EPROTO,
					 "%s said '%s' before ready",
					 h->path, line);
		*value++ = '\0';
		h->info_key[h->nr_info] = strdup(key);
		h->info_value[h->nr_info] = strdup(value);
		if (!h->info_key[h->nr_info] || !h->info_value[h->nr_info])
			return set_error(h, -ENOMEM, "out of memory");
		h->nr_info++;
	}
	return child_died(h);
}

const char *pb_helper_info_get(const struct pb_helper *h, const char *key)
{
	for (unsigned int i = 0; i < h->nr_info; i++)
		if (!strcmp(h->info_key[i], key))
			return h->info_value[i];
	return NULL;
}

int pb_helper_prepare(struct pb_helper *h, enum pb_api api,
		      unsigned int bulk, bool smoke, double run_ms,
		      unsigned long *pages)
{
	char buf[256], *end;

	int err = request(h, buf, sizeof(buf), "prepare %s %u %d %.17g\n",
			  pb_api_names[api], bulk, smoke, run_ms);

	if (err)
		return err;
	errno = 0;
	*pages = strtoul(buf, &end, 10);
	if (errno || *end || !*pages)
		return set_error(h, -EPROTO, "%s answered 'ok %s' to prepare",
				 h->path,
				 buf);
	return 0;
}

int pb_helper_run(struct pb_helper *h, enum pb_api api, unsigned int bulk,
		  unsigned long pages, double *ns, double *ticks)
{
	char buf[256];
	int end = 0;

	int err = request(h, buf, sizeof(buf), "run %s %u %lu\n",
			  pb_api_names[api], bulk, pages);

	if (err)
		return err;
	if (sscanf(buf, "%lf %lf%n", ns, ticks, &end) != 2 || buf[end])
		return set_error(h, -EPROTO, "%s answered 'ok %s' to run",
				 h->path,
				 buf);
	return 0;
}

int pb_helper_stop(struct pb_helper *h)
{
	int ret = 0;

	if (h->in) {
		send(h->fd, "quit\n", 5, MSG_NOSIGNAL);
		fclose(h->in);
		h->in = NULL;
		h->fd = -1;
	}
	if (h->pid > 0)
		ret = reap(h);
	for (unsigned int i = 0; i < h->nr_info; i++) {
		free(h->info_key[i]);
		free(h->info_value[i]);
	}
	h->nr_info = 0;
	return ret;
}
