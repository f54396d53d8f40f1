/* SPDX-License-Identifier: MIT */
/* Minimal JSON emitter (see json.h). */
#include "config.h"

#include <math.h>
#include <inttypes.h>
#include <stdlib.h>

#include "json.h"

void json_init(struct json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->first[0] = true;
}

static void json_write_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', f);
	while (*p) {
		unsigned char c = *p;
		unsigned int len, k;
		uint32_t cp;

		if (c < 0x80) {
			switch (c) {
			case '"':
				fputs("\\\"", f);
				break;
			case '\\':
				fputs("\\\\", f);
				break;
			case '\n':
				fputs("\\n", f);
				break;
			case '\r':
				fputs("\\r", f);
				break;
			case '\t':
				fputs("\\t", f);
				break;
			default:
				if (c < 0x20 || c == 0x7f)
					fprintf(f, "\\u%04x", c);
				else
					fputc(c, f);
			}
			p++;
			continue;
		}
		/* validate one UTF-8 sequence; anything else becomes U+FFFD */
		if (c >= 0xc2 && c <= 0xdf) {
			len = 2;
			cp = c & 0x1f;
		} else if (c >= 0xe0 && c <= 0xef) {
			len = 3;
			cp = c & 0x0f;
		} else if (c >= 0xf0 && c <= 0xf4) {
			len = 4;
			cp = c & 0x07;
		} else {
			fputs("\\ufffd", f);
			p++;
			continue;
		}
		for (k = 1; k < len; k++) {
			if ((p[k] & 0xc0) != 0x80)
				break;
			cp = (cp << 6) | (p[k] & 0x3f);
		}
		if (k < len || (len == 3 && cp < 0x800) ||
		    (len == 3 && cp >= 0xd800 && cp <= 0xdfff) ||
		    (len == 4 && (cp < 0x10000 || cp > 0x10ffff))) {
			fputs("\\ufffd", f);
			p++;
			continue;
		}
		fwrite(p, 1, len, f);
		p += len;
	}
	fputc('"', f);
}

static void json_indent(struct json *j)
{
	unsigned int i;

	fputc('\n', j->f);
	for (i = 0; i < j->depth; i++)
		fputs("  ", j->f);
}

/* separator, indentation and key before a value */
static void json_value_prefix(struct json *j, const char *key)
{
	if (j->depth) {
		if (!j->first[j->depth])
			fputc(',', j->f);
		json_indent(j);
	}
	j->first[j->depth] = false;
	if (key) {
		json_write_string(j->f, key);
		fputs(": ", j->f);
	}
}

static void json_open(struct json *j, const char *key, char c)
{
	json_value_prefix(j, key);
	fputc(c, j->f);
	if (j->depth + 1 >= JSON_DEPTH_MAX)
		abort();	/* a bug in the caller, not in the input */
	j->first[++j->depth] = true;
}

static void json_close(struct json *j, char c)
{
	bool empty = j->first[j->depth];

	j->depth--;
	if (!empty)
		json_indent(j);
	fputc(c, j->f);
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

void json_string(struct json *j, const char *key, const char *v)
{
	json_value_prefix(j, key);
	if (v)
		json_write_string(j->f, v);
	else
		fputs("null", j->f);
}

void json_uint(struct json *j, const char *key, uint64_t v)
{
	json_value_prefix(j, key);
	fprintf(j->f, "%" PRIu64, v);
}

void json_int(struct json *j, const char *key, int64_t v)
{
	json_value_prefix(j, key);
	fprintf(j->f, "%" PRId64, v);
}

void json_double(struct json *j, const char *key, double v, int decimals)
{
	json_value_prefix(j, key);
	if (!isfinite(v)) {
		fputs("null", j->f);
		return;
	}
	if (v == 0)
		v = 0;	/* no "-0.000" */
	fprintf(j->f, "%.*f", decimals, v);
}

void json_number(struct json *j, const char *key, double v)
{
	json_value_prefix(j, key);
	if (!isfinite(v)) {
		fputs("null", j->f);
		return;
	}
	if (v == 0)
		v = 0;	/* no "-0" */
	fprintf(j->f, "%.10g", v);
}

void json_bool(struct json *j, const char *key, bool v)
{
	json_value_prefix(j, key);
	fputs(v ? "true" : "false", j->f);
}

void json_null(struct json *j, const char *key)
{
	json_value_prefix(j, key);
	fputs("null", j->f);
}

void json_finish(struct json *j)
{
	fputc('\n', j->f);
}
