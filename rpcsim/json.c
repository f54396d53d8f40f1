/* SPDX-License-Identifier: MIT */
/* A small streaming JSON writer (see json.h). */
#include <inttypes.h>
#include <math.h>

#include "json.h"
#include "util.h"

void json_init(struct json *j, FILE *out)
{
	j->out = out;
	j->depth = 0;
	j->first[0] = true;
}

static void json_indent(struct json *j)
{
	fputc('\n', j->out);
	for (unsigned int i = 0; i < j->depth; i++)
		fputs("  ", j->out);
}

static void json_write_string(struct json *j, const char *s)
{
	fputc('"', j->out);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"':
			fputs("\\\"", j->out);
			break;
		case '\\':
			fputs("\\\\", j->out);
			break;
		case '\n':
			fputs("\\n", j->out);
			break;
		case '\r':
			fputs("\\r", j->out);
			break;
		case '\t':
			fputs("\\t", j->out);
			break;
		default:
			if (*p < 0x20)
				fprintf(j->out, "\\u%04x", *p);
			else
				fputc(*p, j->out);
		}
	}
	fputc('"', j->out);
}

/* Separator, indentation and "key": before a value. */
static void json_member(struct json *j, const char *key)
{
	if (!j->first[j->depth])
		fputc(',', j->out);
	j->first[j->depth] = false;
	if (j->depth)
		json_indent(j);
	if (key) {
		json_write_string(j, key);
		fputs(": ", j->out);
	}
}

static void json_open(struct json *j, const char *key, char c)
{
	json_member(j, key);
	fputc(c, j->out);
	if (j->depth + 1 >= JSON_MAX_DEPTH)
		rpcsim_die("JSON nested deeper than %d levels", JSON_MAX_DEPTH);
	j->depth++;
	j->first[j->depth] = true;
}

static void json_close(struct json *j, char c)
{
	bool empty = j->first[j->depth];

	if (!j->depth)
		rpcsim_die("JSON close without an open object or array");
	j->depth--;
	if (!empty)
		json_indent(j);
	fputc(c, j->out);
}

void json_object_begin(struct json *j, const char *key)
{
	json_open(j, key, '{');
}

void json_object_end(struct json *j)
{
	json_close(j, '}');
}

void json_array_begin(struct json *j, const char *key)
{
	json_open(j, key, '[');
}

void json_array_end(struct json *j)
{
	json_close(j, ']');
}

void json_string(struct json *j, const char *key, const char *val)
{
	json_member(j, key);
	json_write_string(j, val);
}

void json_u64(struct json *j, const char *key, uint64_t val)
{
	json_member(j, key);
	fprintf(j->out, "%" PRIu64, val);
}

void json_i64(struct json *j, const char *key, int64_t val)
{
	json_member(j, key);
	fprintf(j->out, "%" PRId64, val);
}

void json_double(struct json *j, const char *key, double val)
{
	json_member(j, key);
	if (!isfinite(val))
		fputs("null", j->out);
	else
		/* %.10g never prints "inf"/"nan" for finite values. */
		fprintf(j->out, "%.10g", val);
}

void json_bool(struct json *j, const char *key, bool val)
{
	json_member(j, key);
	fputs(val ? "true" : "false", j->out);
}

void json_null(struct json *j, const char *key)
{
	json_member(j, key);
	fputs("null", j->out);
}

void json_finish(struct json *j)
{
	if (j->depth)
		rpcsim_die("JSON document ended inside an object or array");
	fputc('\n', j->out);
}
