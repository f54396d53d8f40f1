/* SPDX-License-Identifier: MIT */
/* Refused command-line words named as typed (see cmdline.h). */
#include <string.h>

#include "cmdline.h"
#include "tool.h"

const char *cmdline_refused_value(const struct option *longopts,
				  const char *arg)
{
	const struct option *match = NULL;
	size_t len;

	if (strncmp(arg, "--", 2) || !strchr(arg, '='))
		return NULL;
	len = strcspn(arg + 2, "=");
	for (const struct option *o = longopts; o->name; o++) {
		if (strncmp(o->name, arg + 2, len))
			continue;
		if (strlen(o->name) == len) {
			match = o;	/* exact: wins over prefixes */
			break;
		}
		if (match)
			return NULL;	/* ambiguous */
		match = o;
	}
	return match && match->has_arg == no_argument ? match->name : NULL;
}

void cmdline_die_refused(const struct option *longopts, const char *arg,
			 const char *program)
{
	const char *name = cmdline_refused_value(longopts, arg);

	if (name)
		tool_die(2, "option '--%s' takes no value (in '%s'); see %s "
			 "--help", name, arg, program);
	/*
	 * A short letter: @arg may hold more letters ("-jx"), or still be
	 * the word before when the bad letter is not the last ("-xj").
	 */
	if (optopt > 0 && optopt < 128)
		tool_die(2, "unknown option '-%c'; see %s --help for the "
			 "accepted options", optopt, program);
	tool_die(2, "unknown option '%s'; see %s --help for the accepted "
		 "options", arg, program);
}
