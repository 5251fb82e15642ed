// SPDX-License-Identifier: GPL-2.0
/*
 * jread.c - the JSON reader (jread.h): recursive descent over the text,
 * depth bounded, every allocation checked.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jread.h"

struct jp {
	const char *s, *end;
	unsigned int depth;
	char *err;
	size_t errlen;
};

/* The first error wins; mf_jparse() adds its line. */
static int fail(struct jp *p, const char *why)
{
	if (!*p->err)
		snprintf(p->err, p->errlen, "%s", why);
	return -1;
}

static void skip_ws(struct jp *p)
{
	while (p->s < p->end && (*p->s == ' ' || *p->s == '\t' ||
				 *p->s == '\n' || *p->s == '\r'))
		p->s++;
}

static bool lit(struct jp *p, const char *w)
{
	size_t n = strlen(w);

	if ((size_t)(p->end - p->s) < n || memcmp(p->s, w, n))
		return false;
	p->s += n;
	return true;
}

static int hex4(const char *s, unsigned int *v)
{
	int i;

	*v = 0;
	for (i = 0; i < 4; i++) {
		char c = s[i];

		*v <<= 4;
		if (c >= '0' && c <= '9')
			*v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			*v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			*v |= c - 'A' + 10;
		else
			return -1;
	}
	return 0;
}

static char *put_utf8(char *o, unsigned int cp)
{
	if (cp < 0x80) {
		*o++ = (char)cp;
	} else if (cp < 0x800) {
		*o++ = (char)(0xc0 | (cp >> 6));
		*o++ = (char)(0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		*o++ = (char)(0xe0 | (cp >> 12));
		*o++ = (char)(0x80 | ((cp >> 6) & 0x3f));
		*o++ = (char)(0x80 | (cp & 0x3f));
	} else {
		*o++ = (char)(0xf0 | (cp >> 18));
		*o++ = (char)(0x80 | ((cp >> 12) & 0x3f));
		*o++ = (char)(0x80 | ((cp >> 6) & 0x3f));
		*o++ = (char)(0x80 | (cp & 0x3f));
	}
	return o;
}

/* A string at p->s (its opening quote) into *out (malloc'ed). */
static int string(struct jp *p, char **out)
{
	const char *q = ++p->s;
	unsigned int cp, lo;
	char *o;

	while (q < p->end && *q != '"')
		q += *q == '\\' ? 2 : 1;
	if (q >= p->end)
		return fail(p, "unterminated string");
	/* decoded never longer than the text (\uXXXX: 6 bytes -> <= 4) */
	*out = o = malloc(q - p->s + 1);
	if (!o)
		return fail(p, "out of memory");
	while (*p->s != '"') {
		unsigned char c = (unsigned char)*p->s++;

		if (c < 0x20)
			return fail(p, "control character in a string");
		if (c != '\\') {
			*o++ = (char)c;
			continue;
		}
		c = (unsigned char)*p->s++;
		switch (c) {
		case '"': case '\\': case '/':
			*o++ = (char)c;
			break;
		case 'b': *o++ = '\b'; break;
		case 'f': *o++ = '\f'; break;
		case 'n': *o++ = '\n'; break;
		case 'r': *o++ = '\r'; break;
		case 't': *o++ = '\t'; break;
		case 'u':
			if (p->end - p->s < 4 || hex4(p->s, &cp))
				return fail(p, "bad \\u escape");
			p->s += 4;
			if (cp >= 0xd800 && cp < 0xdc00 && p->end - p->s >= 6 &&
			    p->s[0] == '\\' && p->s[1] == 'u' &&
			    !hex4(p->s + 2, &lo) && lo >= 0xdc00 && lo < 0xe000) {
				p->s += 6;
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			}
			o = put_utf8(o, cp);
			break;
		default:
			return fail(p, "bad escape in a string");
		}
	}
	p->s++;
	*o = 0;
	return 0;
}

static int number(struct jp *p, struct mf_jval *v)
{
	const char *q = p->s;
	uint64_t u = 0;
	bool over = false;

	v->type = MF_J_NUM;
	if (q < p->end && *q == '-')
		q++;
	if (q >= p->end || *q < '0' || *q > '9')
		return fail(p, "bad number");
	for (; q < p->end && *q >= '0' && *q <= '9'; q++) {
		if (u > (UINT64_MAX - (uint64_t)(*q - '0')) / 10)
			over = true;
		u = u * 10 + (uint64_t)(*q - '0');
	}
	v->is_int = *p->s != '-' && !over;
	if (q < p->end && *q == '.') {
		v->is_int = false;
		for (q++; q < p->end && *q >= '0' && *q <= '9'; q++)
			;
	}
	if (q < p->end && (*q == 'e' || *q == 'E')) {
		v->is_int = false;
		q++;
		if (q < p->end && (*q == '+' || *q == '-'))
			q++;
		if (q >= p->end || *q < '0' || *q > '9')
			return fail(p, "bad number");
		for (; q < p->end && *q >= '0' && *q <= '9'; q++)
			;
	}
	v->u = v->is_int ? u : 0;
	p->s = q;
	return 0;
}

static int value(struct jp *p, struct mf_jval *v);

/* Grow an array/object by one element; its value zeroed. */
static struct mf_jval *append(struct jp *p, struct mf_jval *v, size_t *cap)
{
	if (v->n == *cap) {
		size_t n = *cap ? *cap * 2 : 8;
		struct mf_jval *nv = realloc(v->v, n * sizeof(*nv));
		char **nk;

		if (!nv)
			return NULL;
		v->v = nv;
		if (v->type == MF_J_OBJ) {
			nk = realloc(v->keys, n * sizeof(*nk));
			if (!nk)
				return NULL;
			v->keys = nk;
		}
		*cap = n;
	}
	memset(&v->v[v->n], 0, sizeof(v->v[0]));
	if (v->type == MF_J_OBJ)
		v->keys[v->n] = NULL;
	return &v->v[v->n++];
}

static int container(struct jp *p, struct mf_jval *v, char close)
{
	struct mf_jval *e;
	size_t cap = 0;

	if (++p->depth > MF_JREAD_DEPTH)
		return fail(p, "nested too deeply");
	v->type = close == '}' ? MF_J_OBJ : MF_J_ARR;
	p->s++;
	skip_ws(p);
	if (p->s < p->end && *p->s == close) {
		p->s++;
		p->depth--;
		return 0;
	}
	for (;;) {
		e = append(p, v, &cap);
		if (!e)
			return fail(p, "out of memory");
		skip_ws(p);
		if (v->type == MF_J_OBJ) {
			if (p->s >= p->end || *p->s != '"')
				return fail(p, "expected a key");
			if (string(p, &v->keys[v->n - 1]))
				return -1;
			skip_ws(p);
			if (p->s >= p->end || *p->s != ':')
				return fail(p, "expected ':'");
			p->s++;
		}
		if (value(p, e))
			return -1;
		skip_ws(p);
		if (p->s < p->end && *p->s == ',') {
			p->s++;
			continue;
		}
		if (p->s < p->end && *p->s == close) {
			p->s++;
			p->depth--;
			return 0;
		}
		return fail(p, close == '}' ? "expected ',' or '}'" :
					      "expected ',' or ']'");
	}
}

static int value(struct jp *p, struct mf_jval *v)
{
	skip_ws(p);
	if (p->s >= p->end)
		return fail(p, "unexpected end");
	switch (*p->s) {
	case '{':
		return container(p, v, '}');
	case '[':
		return container(p, v, ']');
	case '"':
		v->type = MF_J_STR;
		return string(p, &v->str);
	}
	if (lit(p, "true") || lit(p, "false")) {
		v->type = MF_J_BOOL;
		v->u = p->s[-1] == 'e' && p->s[-2] == 'u';
		return 0;
	}
	if (lit(p, "null")) {
		v->type = MF_J_NULL;
		return 0;
	}
	return number(p, v);
}

int mf_jparse(const char *text, size_t len, struct mf_jval *out, char *err,
	      size_t errlen)
{
	struct jp p = { text, text + len, 0, err, errlen };
	const char *c;
	unsigned int line = 1;
	int r;

	memset(out, 0, sizeof(*out));
	err[0] = 0;
	r = value(&p, out);
	if (!r) {
		skip_ws(&p);
		if (p.s != p.end)
			r = fail(&p, "text after the document");
	}
	if (r) {
		char why[160];

		for (c = text; c < p.s && c < p.end; c++)
			line += *c == '\n';
		snprintf(why, sizeof(why), "%s", err);
		snprintf(err, errlen, "line %u: %s", line, why);
	}
	return r;
}

const struct mf_jval *mf_jget(const struct mf_jval *obj, const char *key)
{
	size_t i;

	if (!obj || obj->type != MF_J_OBJ)
		return NULL;
	for (i = 0; i < obj->n; i++)
		if (obj->keys[i] && !strcmp(obj->keys[i], key))
			return &obj->v[i];
	return NULL;
}

bool mf_jget_u32(const struct mf_jval *val, uint32_t *v)
{
	if (!val || val->type != MF_J_NUM || !val->is_int ||
	    val->u > UINT32_MAX)
		return false;
	*v = (uint32_t)val->u;
	return true;
}

void mf_jfree(struct mf_jval *v)
{
	size_t i;

	for (i = 0; i < v->n; i++) {
		mf_jfree(&v->v[i]);
		if (v->type == MF_J_OBJ)
			free(v->keys[i]);
	}
	free(v->v);
	free(v->keys);
	free(v->str);
	memset(v, 0, sizeof(*v));
}
