// SPDX-License-Identifier: GPL-2.0
/*
 * print.c - one call per field for text and JSON output (contract in
 * print.h), over the streaming JSON writer of json.c.
 */
#include <stdarg.h>

#include "print.h"
#include "parse.h"
#include "units.h"

void mf_print_start(struct mf_print *p, FILE *f, bool json)
{
	p->f = f;
	p->json = json;
	if (json)
		mf_json_init(&p->j, f);
}

void mf_print_end(struct mf_print *p)
{
	if (p->json)
		mf_json_end(&p->j);
}

/* In JSON mode and wanted there: write the key (if any); true. */
static bool json_field(struct mf_print *p, int type, const char *key)
{
	if (!p->json || !(type & MF_PRINT_JSON))
		return false;
	if (key)
		mf_json_key(&p->j, key);
	return true;
}

static bool text_field(struct mf_print *p, int type, const char *fmt)
{
	return !p->json && (type & MF_PRINT_FP) && fmt;
}

void mf_print_obj_open(struct mf_print *p, const char *key)
{
	if (json_field(p, MF_PRINT_JSON, key))
		mf_json_obj(&p->j);
}

void mf_print_arr_open(struct mf_print *p, const char *key)
{
	if (json_field(p, MF_PRINT_JSON, key))
		mf_json_arr(&p->j);
}

void mf_print_obj_close(struct mf_print *p)
{
	if (p->json)
		mf_json_close(&p->j);
}

void mf_print_arr_close(struct mf_print *p)
{
	mf_print_obj_close(p);
}

void mf_print_str(struct mf_print *p, int type, const char *key,
		  const char *fmt, const char *v)
{
	if (json_field(p, type, key))
		mf_json_str(&p->j, v);
	else if (text_field(p, type, fmt))
		fprintf(p->f, fmt, v);
}

void mf_print_u64(struct mf_print *p, int type, const char *key,
		  const char *fmt, unsigned long long v)
{
	if (json_field(p, type, key))
		mf_json_u64(&p->j, v);
	else if (text_field(p, type, fmt))
		fprintf(p->f, fmt, v);
}

void mf_print_double(struct mf_print *p, int type, const char *key,
		     const char *fmt, double v)
{
	mf_print_float(p, type, key, NULL, fmt, v);
}

void mf_print_null(struct mf_print *p, int type, const char *key,
		   const char *fmt)
{
	if (json_field(p, type, key))
		mf_json_null(&p->j);
	else if (text_field(p, type, fmt))
		fputs(fmt, p->f);
}

void mf_print_fp(struct mf_print *p, const char *fmt, ...)
{
	va_list ap;

	if (p->json)
		return;
	va_start(ap, fmt);
	vfprintf(p->f, fmt, ap);
	va_end(ap);
}

void mf_print_topology(struct mf_print *p, const struct mf_topo *t,
		       const char *fmt)
{
	char shape[96];

	if (p->json) {
		mf_json_topology(&p->j, t);
		return;
	}
	mf_format_shape(t, shape, sizeof(shape));
	fprintf(p->f, fmt, mf_topo_kind_name(t->kind), shape);
}

void mf_print_s64(struct mf_print *p, int type, const char *key,
		  const char *fmt, long long v)
{
	if (json_field(p, type, key))
		mf_json_s64(&p->j, v);
	else if (text_field(p, type, fmt))
		fprintf(p->f, fmt, v);
}

void mf_print_float(struct mf_print *p, int type, const char *key,
		    const char *jfmt, const char *fmt, double v)
{
	if (json_field(p, type, key)) {
		mf_json_raw(&p->j);
		fprintf(p->f, jfmt ? jfmt : "%g", v);
	} else if (text_field(p, type, fmt)) {
		fprintf(p->f, fmt, v);
	}
}

void mf_print_bool(struct mf_print *p, int type, const char *key,
		   const char *fmt, bool v)
{
	if (json_field(p, type, key))
		mf_json_bool(&p->j, v);
	else if (text_field(p, type, fmt))
		fprintf(p->f, fmt, v ? "yes" : "no");
}

/* v as a number in JSON, by the name name() gives it in text. */
static void print_named(struct mf_print *p, int type, const char *key,
			const char *fmt, u64 v, const struct mf_topo *t,
			void (*name)(const struct mf_topo *t, u32 v, char *buf,
				     size_t len),
			void (*unit)(u64 v, char *buf, size_t len))
{
	char buf[64];

	if (json_field(p, type, key)) {
		mf_json_u64(&p->j, v);
	} else if (text_field(p, type, fmt)) {
		if (name)
			name(t, (u32)v, buf, sizeof(buf));
		else
			unit(v, buf, sizeof(buf));
		fprintf(p->f, fmt, buf);
	}
}

void mf_print_node(struct mf_print *p, int type, const char *key,
		   const char *fmt, const struct mf_topo *t, u32 id)
{
	print_named(p, type, key, fmt, id, t, mf_format_node, NULL);
}

void mf_print_port(struct mf_print *p, int type, const char *key,
		   const char *fmt, const struct mf_topo *t, u32 port)
{
	print_named(p, type, key, fmt, port, t, mf_format_port, NULL);
}

void mf_print_time(struct mf_print *p, int type, const char *key,
		   const char *fmt, u64 ns)
{
	print_named(p, type, key, fmt, ns, NULL, NULL, mf_format_time);
}

void mf_print_rate(struct mf_print *p, int type, const char *key,
		   const char *fmt, u64 bps)
{
	print_named(p, type, key, fmt, bps, NULL, NULL, mf_format_rate);
}

static void format_loss(u64 ppb, char *buf, size_t len)
{
	mf_format_loss((u32)ppb, buf, len);
}

void mf_print_loss(struct mf_print *p, int type, const char *key,
		   const char *fmt, u32 ppb)
{
	print_named(p, type, key, fmt, ppb, NULL, NULL, format_loss);
}

void mf_print_link_columns(struct mf_print *p, const struct mf_topo *t,
			   u32 node, u32 port, u32 peer)
{
	mf_print_node(p, MF_PRINT_ANY, "node", "%-10s ", t, node);
	mf_print_port(p, MF_PRINT_ANY, "port", "%-5s ", t, port);
	mf_print_node(p, MF_PRINT_ANY, "peer", "%-10s ", t, peer);
}

void mf_print_link_state(struct mf_print *p, const char *fmt, bool down)
{
	mf_print_str(p, MF_PRINT_JSON, "state", NULL, down ? "down" : "up");
	mf_print_str(p, MF_PRINT_FP, NULL, fmt, down ? "DOWN" : "up");
}
