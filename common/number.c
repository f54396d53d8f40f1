/* SPDX-License-Identifier: MIT */
/* The tools' number syntax (see number.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

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

/* The size suffixes, matched whole (64kb and 64Ki are refused). */
static const struct {
	const char *suffix;
	unsigned int shift;
} size_suffixes[] = {
	{ "KiB", 10 }, { "MiB", 20 }, { "GiB", 30 },
	{ "k", 10 }, { "K", 10 }, { "m", 20 }, { "M", 20 },
	{ "g", 30 }, { "G", 30 },
};

int num_parse_size(const char *s, uint64_t *out)
{
	size_t len = strlen(s), digits_len = strspn(s, "0123456789");
	unsigned int shift = 0;
	char digits[32];
	uint64_t v;
	int err;

	if (digits_len < len) {
		const char *suffix = s + digits_len;
		size_t i;

		for (i = 0; i < sizeof(size_suffixes) /
				sizeof(size_suffixes[0]); i++)
			if (!strcmp(suffix, size_suffixes[i].suffix))
				break;
		if (i == sizeof(size_suffixes) / sizeof(size_suffixes[0]))
			return -EINVAL;
		shift = size_suffixes[i].shift;
	}
	if (!digits_len)
		return -EINVAL;
	if (digits_len >= sizeof(digits))	/* 20 digits at most fit 64 bits */
		return -ERANGE;
	memcpy(digits, s, digits_len);
	digits[digits_len] = '\0';
	err = num_parse_u64(digits, &v);
	if (err)
		return err;
	if (shift && v > (UINT64_MAX >> shift))
		return -ERANGE;
	*out = v << shift;
	return 0;
}

int num_parse_duration(const char *s, const char *plain_unit, double *out)
{
	size_t len = strspn(s, "0123456789.");
	const char *unit = s[len] ? s + len : plain_unit;
	char number[64];
	double v, scale;

	/* microseconds: only as the unit of a plain number (--retry-wait) */
	if (!s[len] && !strcmp(plain_unit, "us"))
		scale = 1e-6;
	else if (!strcmp(unit, "ms"))
		scale = 1e-3;
	else if (!strcmp(unit, "s"))
		scale = 1;
	else if (!strcmp(unit, "m"))
		scale = 60;
	else
		return -EINVAL;
	if (len >= sizeof(number))
		return -EINVAL;
	memcpy(number, s, len);
	number[len] = '\0';
	if (num_parse_decimal(number, &v))
		return -EINVAL;
	*out = v * scale;
	return 0;
}
