/* SPDX-License-Identifier: MIT */
/* The tools' number syntax (see number.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include "number.h"

int num_parse_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0;

	if (!*s)
		return -EINVAL;
	for (const char *p = s; *p; p++) {
		if (*p < '0' || *p > '9')
			return -EINVAL;
	}
	for (const char *p = s; *p; p++) {
		unsigned int d = (unsigned int)(*p - '0');

		if (v > (UINT64_MAX - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

int num_parse_decimal(const char *s, double *out)
{
	bool digit = false, point = false;
	char *end;
	double v;

	for (const char *p = s; *p; p++) {
		if (*p >= '0' && *p <= '9')
			digit = true;
		else if (*p == '.' && !point)
			point = true;
		else
			return -EINVAL;
	}
	if (!digit)
		return -EINVAL;
	/* Only digits and a point are left: strtod() reads them as decimal. */
	errno = 0;
	v = strtod(s, &end);
	if (*end || errno == ERANGE)
		return -EINVAL;
	*out = v;
	return 0;
}
