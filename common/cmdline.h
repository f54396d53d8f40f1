/* SPDX-License-Identifier: MIT */
/*
 * Naming a refused command-line word as it was typed, for every tool
 * (rpcsim, rpcsim-analyze, rpcsim-compare, pagebench), and the one
 * message of rpcsim-compare and pagebench for an option getopt_long()
 * refused.
 */
#ifndef PP_COMMON_CMDLINE_H
#define PP_COMMON_CMDLINE_H

#include <getopt.h>

/*
 * After getopt_long() refused the word @arg: if @arg is "--NAME=VALUE"
 * and NAME is (exactly, or as a unique prefix, as getopt_long() matches
 * it) a long option of @longopts that takes no value, that option's full
 * name; else NULL.  getopt_long() reports "--json=1" with optopt set to
 * the option's short letter, which would name a "-j" nobody typed.
 */
const char *cmdline_refused_value(const struct option *longopts,
				  const char *arg);

/*
 * cmdline_die_refused() - getopt_long() (opterr = 0) returned '?' after
 * the word @arg (argv[optind - 1]): exit 2 with one line saying what was
 * refused, as typed, and pointing to "@program --help": a long option
 * given a value it does not take, a short option letter it does not know
 * (optopt: "-x", also inside "-jx"), or else the word itself ("--bogus",
 * an ambiguous prefix).
 */
__attribute__((noreturn))
void cmdline_die_refused(const struct option *longopts, const char *arg,
			 const char *program);

#endif /* PP_COMMON_CMDLINE_H */
