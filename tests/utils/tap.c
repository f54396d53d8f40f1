/* SPDX-License-Identifier: MIT */
/* The TAP producer of the C tests: plan, ok, diag, skip, bail out (tap.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "tap.h"

static unsigned int tap_planned;
static unsigned int tap_run;
static unsigned int tap_failed;
static bool tap_no_plan;

void plan_tests(unsigned int n)
{
	tap_planned = n;
	printf("1..%u\n", n);
	fflush(stdout);
}

void plan_no_plan(void)
{
	tap_no_plan = true;
}

bool ok_at(bool pass, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	tap_run++;
	printf("%sok %u - ", pass ? "" : "not ", tap_run);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!pass) {
		tap_failed++;
		printf("# Failed test at %s:%d\n", file, line);
	}
	fflush(stdout);
	return pass;
}

void diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

void skip(unsigned int n, const char *fmt, ...)
{
	va_list ap;

	while (n--) {
		tap_run++;
		printf("ok %u # SKIP ", tap_run);
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
		printf("\n");
	}
	fflush(stdout);
}

void bail_out(const char *fmt, ...)
{
	va_list ap;

	printf("Bail out! ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	exit(255);
}

int exit_status(void)
{
	if (tap_no_plan) {
		printf("1..%u\n", tap_run);
		fflush(stdout);
	} else if (tap_run != tap_planned) {
		printf("# planned %u checks but ran %u\n", tap_planned,
		       tap_run);
		return 1;
	}
	return tap_failed ? 1 : 0;
}
