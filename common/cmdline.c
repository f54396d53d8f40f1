/* SPDX-License-Identifier: MIT */
/* Refused command-line words named as typed (see cmdline.h). */
#include <string.h>

#include "cmdline.h"

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
