/* SPDX-License-Identifier: MIT */
/*
 * The JSON writer of rpcsim, rpcsim-analyze and pagebench (common/json.h,
 * on json-c): the exact text it writes for each kind of value, that
 * invalid UTF-8 becomes U+FFFD, that a non-finite number is null, and
 * the layout the golden copies hold (two-space indentation, "key": value,
 * "{}" and "[]" for empty ones).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "tap.h"

/* The document @build writes, in a buffer the caller frees. */
static char *write_doc(void (*build)(struct json *j))
{
	struct json j;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		bail_out("open_memstream failed");
	json_init(&j, f);
	build(&j);
	json_finish(&j);
	fclose(f);
	return buf;
}

static void same(void (*build)(struct json *j), const char *want,
		 const char *what)
{
	char *got = write_doc(build);

	if (!ok(!strcmp(got, want), "%s", what))
		diag("got:\n%s\nwanted:\n%s", got, want);
	free(got);
}

static void numbers(struct json *j)
{
	json_object_begin(j, NULL);
	json_uint(j, "u", UINT64_MAX);
	json_int(j, "i", INT64_MIN);
	json_double(j, "d3", 2.0 / 3, 3);
	json_double(j, "d0", 2.5, 0);
	json_double(j, "neg0", -0.0, 2);
	json_number(j, "n", 1.0 / 3);
	json_number(j, "big", 1e20);
	json_number(j, "nan", NAN);
	json_double(j, "inf", INFINITY, 2);
	json_number(j, "minf", -INFINITY);
	json_object_end(j);
}

static void strings(struct json *j)
{
	json_object_begin(j, NULL);
	json_string(j, "esc", "a\"b\\c/d\n\t\x01");
	json_string(j, "utf8", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	json_string(j, "stray", "a\x80z");
	json_string(j, "overlong", "\xc0\xaf");
	json_string(j, "surrogate", "\xed\xa0\x80");
	json_string(j, "truncated", "\xe2\x82");
	json_string(j, "\xff", NULL);
	json_object_end(j);
}

static void layout(struct json *j)
{
	json_object_begin(j, NULL);
	json_object_begin(j, "empty");
	json_object_end(j);
	json_array_begin(j, "none");
	json_array_end(j);
	json_array_begin(j, "list");
	json_bool(j, NULL, true);
	json_null(j, NULL);
	json_object_begin(j, NULL);
	json_bool(j, "f", false);
	json_object_end(j);
	json_array_end(j);
	json_object_end(j);
}

static void scalar(struct json *j)
{
	json_string(j, NULL, "alone");
}

int main(void)
{
	plan_tests(4);
	same(numbers, "{\n"
	     "  \"u\": 18446744073709551615,\n"
	     "  \"i\": -9223372036854775808,\n"
	     "  \"d3\": 0.667,\n"
	     "  \"d0\": 2,\n"
	     "  \"neg0\": 0.00,\n"
	     "  \"n\": 0.3333333333,\n"
	     "  \"big\": 1e+20,\n"
	     "  \"nan\": null,\n"
	     "  \"inf\": null,\n"
	     "  \"minf\": null\n"
	     "}\n", "numbers: fixed decimals, ten digits, no -0, null "
	     "for NaN and infinity");
	same(strings, "{\n"
	     "  \"esc\": \"a\\\"b\\\\c/d\\n\\t\\u0001\",\n"
	     "  \"utf8\": \"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\",\n"
	     "  \"stray\": \"a\xef\xbf\xbdz\",\n"
	     "  \"overlong\": \"\xef\xbf\xbd\xef\xbf\xbd\",\n"
	     "  \"surrogate\": \"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\",\n"
	     "  \"truncated\": \"\xef\xbf\xbd\xef\xbf\xbd\",\n"
	     "  \"\xef\xbf\xbd\": null\n"
	     "}\n", "strings: escapes, valid UTF-8 kept, each invalid "
	     "byte U+FFFD, in keys too");
	same(layout, "{\n"
	     "  \"empty\": {},\n"
	     "  \"none\": [],\n"
	     "  \"list\": [\n"
	     "    true,\n"
	     "    null,\n"
	     "    {\n"
	     "      \"f\": false\n"
	     "    }\n"
	     "  ]\n"
	     "}\n", "layout: two spaces, \"key\": value, {} and []");
	same(scalar, "\"alone\"\n", "a scalar document");
	return exit_status();
}
