/* SPDX-License-Identifier: MIT */
/*
 * What every program of the tree shares (rpcsim, rpcsim-analyze,
 * rpcsim-compare, pagebench and its baselines, the fuzz targets, the test
 * programs): its name in messages, stopping with a one-line message,
 * allocation that cannot fail silently, the monotonic clock and number
 * formatting.  Not for libpagepool, which reports as "pagepool".
 */
#ifndef PP_COMMON_TOOL_H
#define PP_COMMON_TOOL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

/*
 * The name every message of this program starts with ("rpcsim: ..."),
 * set once by main() before anything can fail; "pagepool" until then.
 */
extern const char *tool_name;
void tool_set_name(const char *name);

/*
 * tool_die() - "NAME: message" on stderr, then exit(@status): 2 for bad
 * usage, 1 for a runtime error (the tools' exit statuses).  Standard
 * output is flushed first, so the message comes after what was printed.
 */
__attribute__((noreturn, format(printf, 2, 3)))
void tool_die(int status, const char *fmt, ...);
__attribute__((noreturn, format(printf, 2, 0)))
void tool_vdie(int status, const char *fmt, va_list ap);
/*
 * tool_vdie_in() - tool_vdie() with what was being read said first,
 * "NAME: CONTEXT: message" (rpcsim's --sweep value or point); as
 * tool_vdie() when @context is NULL.
 */
__attribute__((noreturn, format(printf, 3, 0)))
void tool_vdie_in(int status, const char *context, const char *fmt,
		  va_list ap);

/*
 * tool_die_at() - an internal failure the program cannot recover from (a
 * pthread call failing, an impossible state): "NAME: file:function@line:
 * message", then abort().  Called through tool_bug().
 *
 * libpagepool has its own, pp_die_at() (alloc/debug.c), on purpose: it is
 * an installed library and must not link this noinst one, and its
 * messages say "pagepool" whatever program it runs in, without flushing
 * that program's stdout.  The two are a few lines each; keep them apart.
 */
__attribute__((noreturn, cold, format(printf, 4, 5)))
void tool_die_at(const char *file, const char *func, int line,
		 const char *fmt, ...);
#define tool_bug(...)	tool_die_at(__FILE__, __func__, __LINE__, __VA_ARGS__)

/*
 * Allocation for setup and reports, never in a timed loop: on failure
 * "NAME: out of memory" and exit status 1.  A zero count or size asks for
 * one byte, so NULL always means failure; xstrdup(NULL) is "".
 */
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n, size_t size);
char *xstrdup(const char *s);

/* CLOCK_MONOTONIC in ns: inline, as it is read around every timed call. */
static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/*
 * tool_print_version() - the one --version line of every tool, on stdout:
 * "NAME (pagepool) VERSION" (tool_name, this tree's version), then for
 * each of the @n components it was built with ", COMPONENT VERSION", or
 * ", without COMPONENT" when its version is NULL (not built in):
 *   rpcsim (pagepool) 0.1.0, libpagepool 0.1.0, lttng-ust 2.13.5
 */
struct tool_component {
	const char *name;
	const char *version;
};
void tool_print_version(const struct tool_component *c, size_t n);

/*
 * tool_check_debug_env() - libpagepool's PAGEPOOL_DEBUG and
 * PAGEPOOL_DEBUG_LIST, which it reads as 0 or 1: another value is bad
 * usage, one line and exit 2 before anything runs (libpagepool itself
 * refuses it only when a pool is created).  For rpcsim and pagebench.
 */
void tool_check_debug_env(void);

/*
 * "SIGKILL": signal @sig's name into @buf, which it returns; "signal N"
 * for a number glibc has no name for.
 */
char *tool_signal_name(char *buf, size_t len, int sig);

/* "517,442": @v with thousands separators into @buf, which it returns. */
char *fmt_thousands(char *buf, size_t len, uint64_t v);

#endif /* PP_COMMON_TOOL_H */
