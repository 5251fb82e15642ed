// SPDX-License-Identifier: GPL-2.0
/*
 * json.c - streaming JSON writer (contract in json.h).  Numbers are
 * formatted by hand: a 1024x1024 plan writes millions of them.
 */
#include <string.h>

#include "json.h"
#include "topo.h"

void mf_json_init(struct mf_json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->first[0] = true;
	j->after_key = false;
}

/* Separator before a value or key at the current level. */
static void sep(struct mf_json *j)
{
	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (!j->first[j->depth])
		putc_unlocked(',', j->f);
	j->first[j->depth] = false;
}

static void open(struct mf_json *j, char o, char c)
{
	sep(j);
	putc_unlocked(o, j->f);
	if (j->depth + 1 < MF_JSON_MAX_DEPTH) {
		j->depth++;
		j->first[j->depth] = true;
		j->close[j->depth] = c;
	}
}

void mf_json_obj(struct mf_json *j)
{
	open(j, '{', '}');
}

void mf_json_arr(struct mf_json *j)
{
	open(j, '[', ']');
}

void mf_json_close(struct mf_json *j)
{
	j->after_key = false;	/* a value written raw after its key */
	if (!j->depth)
		return;
	putc_unlocked(j->close[j->depth], j->f);
	j->depth--;
}

static void put_string(FILE *f, const char *s)
{
	/* RFC 8259 two-character escapes: the character, its letter */
	static const char esc[] = "\"\\\n\r\t\b\f", as[] = "\"\\nrtbf";
	static const char hex[] = "0123456789abcdef";
	const char *e;
	unsigned char c;

	putc_unlocked('"', f);
	for (; (c = (unsigned char)*s); s++) {
		e = strchr(esc, c);
		if (e) {
			putc_unlocked('\\', f);
			putc_unlocked(as[e - esc], f);
		} else if (c < 0x20 || c == 0x7f) {
			fputs("\\u00", f);
			putc_unlocked(hex[c >> 4], f);
			putc_unlocked(hex[c & 15], f);
		} else {
			putc_unlocked((int)c, f);
		}
	}
	putc_unlocked('"', f);
}

void mf_json_key(struct mf_json *j, const char *key)
{
	/* still after a key: its value was written raw (fprintf), so this
	 * key needs its comma (sep() skips it right after a key)
	 */
	j->after_key = false;
	sep(j);
	put_string(j->f, key);
	putc_unlocked(':', j->f);
	j->after_key = true;
}

void mf_json_str(struct mf_json *j, const char *s)
{
	sep(j);
	put_string(j->f, s);
}

static void put_u64(FILE *f, uint64_t v)
{
	char buf[24];
	int n = 0;

	do {
		buf[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		putc_unlocked(buf[--n], f);
}

void mf_json_u64(struct mf_json *j, uint64_t v)
{
	sep(j);
	put_u64(j->f, v);
}

void mf_json_s64(struct mf_json *j, int64_t v)
{
	sep(j);
	if (v < 0) {
		putc_unlocked('-', j->f);
		put_u64(j->f, (uint64_t)0 - (uint64_t)v);
	} else {
		put_u64(j->f, (uint64_t)v);
	}
}

void mf_json_bool(struct mf_json *j, bool v)
{
	sep(j);
	fputs(v ? "true" : "false", j->f);
}

void mf_json_null(struct mf_json *j)
{
	sep(j);
	fputs("null", j->f);
}

void mf_json_raw(struct mf_json *j)
{
	sep(j);
}

void mf_json_end(struct mf_json *j)
{
	while (j->depth)
		mf_json_close(j);
	putc_unlocked('\n', j->f);
}

void mf_json_topology(struct mf_json *j, const struct mf_topo *t)
{
	u32 i;

	mf_json_key(j, "topology");
	mf_json_obj(j);
	mf_json_kv_str(j, "kind", mf_topo_kind_name(t->kind));
	mf_json_key(j, "dims");
	mf_json_arr(j);
	for (i = 0; i < t->ndims; i++)
		mf_json_u64(j, t->dims[i]);
	mf_json_close(j);
	mf_json_close(j);
}
