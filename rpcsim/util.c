/* SPDX-License-Identifier: MIT */
/* rpcsim helpers (see util.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

void rpcsim_die_at(const char *file, const char *func, int line,
		   const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "rpcsim: %s:%s@%d: ", file, func, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		rpcsim_die("out of memory allocating %zu x %zu bytes", nmemb,
			   size);
	return p;
}

char *fmt_thousands(char *buf, size_t len, uint64_t v)
{
	char digits[32], out[48];
	int n = snprintf(digits, sizeof(digits), "%" PRIu64, v);
	int o = 0;

	for (int i = 0; i < n; i++) {
		if (i && (n - i) % 3 == 0)
			out[o++] = ',';
		out[o++] = digits[i];
	}
	out[o] = '\0';
	snprintf(buf, len, "%s", out);
	return buf;
}

char *fmt_size(char *buf, size_t len, uint64_t bytes)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	unsigned int u = 0;

	while (u + 1 < ARRAY_SIZE(units) && bytes && !(bytes & 1023)) {
		bytes >>= 10;
		u++;
	}
	snprintf(buf, len, "%" PRIu64 " %s", bytes, units[u]);
	return buf;
}

volatile sig_atomic_t rpcsim_interrupted;

static void rpcsim_on_signal(int sig)
{
	rpcsim_interrupted = sig;
}

void rpcsim_catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = rpcsim_on_signal;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGINT, &sa, NULL) || sigaction(SIGTERM, &sa, NULL))
		rpcsim_die("sigaction: %s", strerror(errno));
}
