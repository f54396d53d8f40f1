/* SPDX-License-Identifier: MIT */
/* What every program shares: messages, allocation, formatting (tool.h). */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

const char *tool_name = "pagepool";

void tool_set_name(const char *name)
{
	tool_name = name;
}

void tool_vdie_in(int status, const char *context, const char *fmt,
		  va_list ap)
{
	fflush(stdout);
	fprintf(stderr, "%s: ", tool_name);
	if (context)
		fprintf(stderr, "%s: ", context);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	exit(status);
}

void tool_vdie(int status, const char *fmt, va_list ap)
{
	tool_vdie_in(status, NULL, fmt, ap);
}

void tool_die(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tool_vdie(status, fmt, ap);
}

void tool_die_at(const char *file, const char *func, int line,
		 const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "%s: %s:%s@%d: ", tool_name, file, func, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		tool_die(1, "out of memory");
	return p;
}

void *xrealloc(void *p, size_t n, size_t size)
{
	void *q = reallocarray(p, n ? n : 1, size ? size : 1);

	if (!q)
		tool_die(1, "out of memory");
	return q;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s ? s : "");

	if (!p)
		tool_die(1, "out of memory");
	return p;
}

void tool_print_version(const struct tool_component *c, size_t n)
{
	printf("%s (%s) %s", tool_name, PACKAGE_NAME, PACKAGE_VERSION);
	for (size_t i = 0; i < n; i++) {
		if (c[i].version)
			printf(", %s %s", c[i].name, c[i].version);
		else
			printf(", without %s", c[i].name);
	}
	printf("\n");
}

char *tool_signal_name(char *buf, size_t len, int sig)
{
	if (sigabbrev_np(sig))
		snprintf(buf, len, "SIG%s", sigabbrev_np(sig));
	else
		snprintf(buf, len, "signal %d", sig);
	return buf;
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

void tool_check_debug_env(void)
{
	static const char *const vars[][2] = {
		{ "PAGEPOOL_DEBUG", "debug checks" },
		{ "PAGEPOOL_DEBUG_LIST", "list checks" },
	};

	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		const char *v = getenv(vars[i][0]);

		if (v && !((v[0] == '0' || v[0] == '1') && !v[1]))
			tool_die(2, "%s=%s: expected 0 (%s off) or 1 (on)",
				 vars[i][0], v, vars[i][1]);
	}
}
