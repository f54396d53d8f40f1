/* SPDX-License-Identifier: MIT */
/*
 * A small TAP producer for the tests (names after liburcu / lttng-ust's
 * tap.h, written here).  Output goes to stdout; automake's tap-driver.sh
 * turns each "ok"/"not ok" line into a test result.
 */
#ifndef PP_TESTS_TAP_H
#define PP_TESTS_TAP_H

#include <stdbool.h>

void plan_tests(unsigned int n);
void plan_no_plan(void);
/* Records one check; returns @pass so callers can react to a failure. */
bool ok_at(bool pass, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void skip(unsigned int n, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void bail_out(const char *fmt, ...) __attribute__((format(printf, 1, 2),
						   noreturn));
/* 0 when every planned check ran and passed, 1 otherwise. */
int exit_status(void);

#define ok(cond, ...)	ok_at(!!(cond), __FILE__, __LINE__, __VA_ARGS__)
#define ok1(cond)	ok_at(!!(cond), __FILE__, __LINE__, "%s", #cond)

#endif /* PP_TESTS_TAP_H */
