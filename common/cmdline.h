/* SPDX-License-Identifier: MIT */
/*
 * Naming a refused command-line word as it was typed, for every tool
 * (rpcsim, rpcsim-analyze, rpcsim-compare, pagebench).
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

#endif /* PP_COMMON_CMDLINE_H */
