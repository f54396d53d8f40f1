/* SPDX-License-Identifier: MIT */
/*
 * The JSON writer of json.h on top of json-c: each call adds a node to a
 * json_object tree, json_finish() prints the tree (json-c's pretty,
 * spaced layout) and frees it.  What json-c leaves to us: invalid UTF-8
 * (it copies string bytes through), non-finite numbers (it would print
 * NaN), the exact text of a number (json_object_new_double_s()) and
 * empty objects and arrays on one line ("{}", "[]").
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/*
 * json-c names a type json_bool, json.h a function: rename json-c's
 * typedef inside its headers, so both can live in this file.
 */
#define json_bool json_c_bool
#include <json-c/json.h>
#include <json-c/printbuf.h>
#undef json_bool

#include "json.h"
#include "tool.h"

#define JSON_FLAGS	(JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | \
			 JSON_C_TO_STRING_NOSLASHESCAPE)

void json_init(struct json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->root = NULL;
}

/*
 * The length of the valid UTF-8 sequence at @p (1 to 4), or 0 when it is
 * not one: a stray continuation byte, an overlong form, a surrogate, a
 * code point above U+10FFFF or a truncated sequence.
 */
static unsigned int utf8_len(const unsigned char *p)
{
	unsigned char c = *p;
	unsigned int len, k;
	uint32_t cp;

	if (c < 0x80)
		return 1;
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
		return 0;
	}
	for (k = 1; k < len; k++) {
		if ((p[k] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (p[k] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 3 && cp >= 0xd800 &&
					  cp <= 0xdfff) ||
	    (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return len;
}

/* A copy of @s, each byte of invalid UTF-8 replaced by U+FFFD. */
static char *utf8_sanitize(const char *s)
{
	static const char fffd[] = "\xef\xbf\xbd";
	const unsigned char *p = (const unsigned char *)s;
	char *out = xcalloc(strlen(s) * 3 + 1, 1);
	size_t o = 0;

	while (*p) {
		unsigned int len = utf8_len(p);

		if (!len) {
			memcpy(out + o, fffd, 3);
			o += 3;
			p++;
			continue;
		}
		memcpy(out + o, p, len);
		o += len;
		p += len;
	}
	out[o] = '\0';
	return out;
}

/* A json-c constructor's result: NULL only means out of memory. */
static struct json_object *json_made(struct json_object *v)
{
	if (!v)
		tool_die(1, "out of memory");
	return v;
}

/*
 * Add @v (NULL: null) under @key to the innermost open object or array,
 * or make it the document when none is open.
 */
static void json_add(struct json *j, const char *key, struct json_object *v)
{
	struct json_object *parent;
	char *name;
	int err;

	if (!j->depth) {
		if (j->root)
			tool_bug("a second top-level JSON value");
		j->root = v;
		return;
	}
	parent = j->nest[j->depth - 1];
	if (!json_object_is_type(parent, json_type_object)) {
		err = json_object_array_add(parent, v);
	} else {
		/* json-c copies the key */
		name = utf8_sanitize(key ? key : "");
		err = json_object_object_add(parent, name, v);
		free(name);
	}
	if (err)
		tool_die(1, "out of memory");
}

static void json_open(struct json *j, const char *key,
		      struct json_object *v)
{
	if (j->depth >= JSON_DEPTH_MAX)	/* the caller's bug, not the input's */
		tool_bug("JSON nested deeper than %d", JSON_DEPTH_MAX);
	json_add(j, key, v);
	j->nest[j->depth++] = v;
}

/*
 * An empty object or array as "{}" or "[]": json-c's pretty layout
 * would open a line for members that never come.
 */
static int json_empty_to_string(struct json_object *v, struct printbuf *pb,
				int level, int flags)
{
	if (json_object_is_type(v, json_type_array))
		return printbuf_strappend(pb, "[]");
	return printbuf_strappend(pb, "{}");
}

static void json_close(struct json *j, enum json_type type)
{
	struct json_object *v;
	size_t n;

	if (!j->depth || !json_object_is_type(j->nest[j->depth - 1], type))
		tool_bug("JSON %s closed but not open",
			 json_type_to_name(type));
	v = j->nest[--j->depth];
	n = type == json_type_array ? json_object_array_length(v) :
				      (size_t)json_object_object_length(v);
	if (!n)
		json_object_set_serializer(v, json_empty_to_string, NULL,
					   NULL);
}

void json_object_begin(struct json *j, const char *key)
{
	json_open(j, key, json_made(json_object_new_object()));
}

bool json_object_or_null(struct json *j, const char *key, bool present)
{
	if (present)
		json_object_begin(j, key);
	else
		json_null(j, key);
	return present;
}

void json_object_end(struct json *j)
{
	json_close(j, json_type_object);
}

void json_array_begin(struct json *j, const char *key)
{
	json_open(j, key, json_made(json_object_new_array()));
}

void json_array_end(struct json *j)
{
	json_close(j, json_type_array);
}

void json_string(struct json *j, const char *key, const char *v)
{
	char *s;

	if (!v) {
		json_add(j, key, NULL);
		return;
	}
	s = utf8_sanitize(v);
	json_add(j, key, json_made(json_object_new_string(s)));
	free(s);
}

void json_uint(struct json *j, const char *key, uint64_t v)
{
	json_add(j, key, json_made(json_object_new_uint64(v)));
}

void json_int(struct json *j, const char *key, int64_t v)
{
	json_add(j, key, json_made(json_object_new_int64(v)));
}

/* @v as printf() writes it with @fmt and @prec; null if not finite. */
static void json_double_text(struct json *j, const char *key, double v,
			     const char *fmt, int prec)
{
	char text[512];

	if (!isfinite(v)) {
		json_add(j, key, NULL);
		return;
	}
	if (v == 0)
		v = 0;	/* no "-0" */
	snprintf(text, sizeof(text), fmt, prec, v);
	json_add(j, key, json_made(json_object_new_double_s(v, text)));
}

void json_double(struct json *j, const char *key, double v, int decimals)
{
	json_double_text(j, key, v, "%.*f", decimals);
}

void json_number(struct json *j, const char *key, double v)
{
	json_double_text(j, key, v, "%.*g", 10);
}

void json_bool(struct json *j, const char *key, bool v)
{
	json_add(j, key, json_made(json_object_new_boolean(v)));
}

void json_null(struct json *j, const char *key)
{
	json_add(j, key, NULL);
}

void json_finish(struct json *j)
{
	const char *text;

	if (j->depth)
		tool_bug("JSON document finished with %u open", j->depth);
	text = json_object_to_json_string_ext(j->root, JSON_FLAGS);
	if (!text)
		tool_die(1, "out of memory");
	fputs(text, j->f);
	fputc('\n', j->f);
	json_object_put(j->root);
	j->root = NULL;
}
