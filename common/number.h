/* SPDX-License-Identifier: MIT */
/*
 * The one number syntax of every command-line value of the tools (rpcsim,
 * rpcsim-analyze, pagebench): decimal digits, and for a value that may
 * have a fraction, a point and more digits.  No blanks, no sign, no 0x
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

#endif /* PP_COMMON_NUMBER_H */
