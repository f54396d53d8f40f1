/* SPDX-License-Identifier: MIT */
/*
 * The one number syntax of every command-line value of the tools (rpcsim,
 * rpcsim-analyze, pagebench): decimal digits, and for a value that may
 * have a fraction, a point and more digits; a size or a duration takes a
 * unit after them (num_parse_size(), num_parse_duration()).  No blanks, no sign, no 0x
 * (strtod() reads --duration=0x10 as 16), no exponent, no inf or nan: a
 * count and a number of seconds are written the same way.
 */
#ifndef PP_COMMON_NUMBER_H
#define PP_COMMON_NUMBER_H

#include <stdint.h>

/* Digits only; 0, -EINVAL (not that syntax) or -ERANGE (above 2^64-1). */
int num_parse_u64(const char *s, uint64_t *out);

/*
 * Digits with at most one '.', and at least one digit ("5", "0.25",
 * "1.", ".5"); 0 or -EINVAL.
 */
int num_parse_decimal(const char *s, double *out);

/*
 * A size: digits, then nothing (bytes) or one of k, K, KiB (x 1024), m,
 * M, MiB (x 1024^2), g, G, GiB (x 1024^3): "4096", "64k", "256KiB",
 * "2G".  0, -EINVAL (not that syntax) or -ERANGE (above 2^64-1).
 */
int num_parse_size(const char *s, uint64_t *out);

/*
 * A duration: a decimal number (num_parse_decimal()), then ms, s or m
 * (minutes), or nothing for @plain_unit ("s", "ms" or "us"): "0.5",
 * "500ms", "5s", "2m".  In seconds into *@out; 0 or -EINVAL.
 */
int num_parse_duration(const char *s, const char *plain_unit, double *out);

/*
 * What the two accept, for the one-line message that refuses a value:
 * "--io-size=9q: expected a size from 1 to 1m: NUM_SIZE_FORMS".
 */
#define NUM_SIZE_FORMS	"digits, optionally followed by k, K, KiB, m, " \
	"M, MiB, g, G or GiB (powers of 1024: 256KiB, 4m)"
#define NUM_DURATION_FORMS	"a decimal number, optionally followed " \
	"by ms, s or m (500ms, 5s, 2m)"

#endif /* PP_COMMON_NUMBER_H */
