/* SPDX-License-Identifier: GPL-2.0 */
/*
 * print.h - every field printed once for text and JSON, as iproute2's
 * print_string(PRINT_ANY, key, fmt, value) (include/json_print.h):
 *
 *   mf_print_str(&p, MF_PRINT_ANY, "state", "%-6s", "up");
 *
 * writes "state":"up" in JSON mode (json.h does commas, nesting and
 * escaping) and the value through fmt in text mode.  MF_PRINT_FP prints
 * only in text, MF_PRINT_JSON only in JSON; a NULL key inside an array
 * gives a bare JSON value, a NULL fmt prints nothing in text.  Objects
 * and arrays exist only in JSON: the open/close calls do nothing in text.
 */
#ifndef MF_PRINT_H
#define MF_PRINT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "json.h"
#include "mf_compat.h"

enum {
	MF_PRINT_FP = 1,	/* text only */
	MF_PRINT_JSON = 2,	/* JSON only */
	MF_PRINT_ANY = 3,	/* both */
};

struct mf_print {
	FILE *f;
	bool json;
	struct mf_json j;
};

void mf_print_start(struct mf_print *p, FILE *f, bool json);
/* JSON: close whatever is open and write the final newline. */
void mf_print_end(struct mf_print *p);

void mf_print_obj_open(struct mf_print *p, const char *key);
void mf_print_obj_close(struct mf_print *p);
void mf_print_arr_open(struct mf_print *p, const char *key);
void mf_print_arr_close(struct mf_print *p);

void mf_print_str(struct mf_print *p, int type, const char *key,
		  const char *fmt, const char *v);
/* fmt takes an unsigned long long (%llu) */
void mf_print_u64(struct mf_print *p, int type, const char *key,
		  const char *fmt, unsigned long long v);
/* fmt takes a long long (%lld) */
void mf_print_s64(struct mf_print *p, int type, const char *key,
		  const char *fmt, long long v);
/* JSON: "%g", as iproute2's print_float */
void mf_print_double(struct mf_print *p, int type, const char *key,
		     const char *fmt, double v);
/* The same with the JSON number written through jfmt ("%.3f"). */
void mf_print_float(struct mf_print *p, int type, const char *key,
		    const char *jfmt, const char *fmt, double v);
/* JSON: true or false; text: fmt with "yes" or "no" (%s). */
void mf_print_bool(struct mf_print *p, int type, const char *key,
		   const char *fmt, bool v);
/* JSON: null; text: fmt as it is (e.g. "none") */
void mf_print_null(struct mf_print *p, int type, const char *key,
		   const char *fmt);
/* Text only, printf-like. */
void mf_print_fp(struct mf_print *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

struct mf_topo;
/*
 * A number JSON gives as it is and text by its name (%s in fmt): a node
 * (mf_format_node: "3,4", hex address), a port (mf_format_port: "x+"),
 * a time (mf_format_time: "1.5us"), a rate (mf_format_rate: "1Gbit").
 */
void mf_print_node(struct mf_print *p, int type, const char *key,
		   const char *fmt, const struct mf_topo *t, u32 id);
void mf_print_port(struct mf_print *p, int type, const char *key,
		   const char *fmt, const struct mf_topo *t, u32 port);
void mf_print_time(struct mf_print *p, int type, const char *key,
		   const char *fmt, u64 ns);
void mf_print_rate(struct mf_print *p, int type, const char *key,
		   const char *fmt, u64 bps);
/* A loss in parts per 10^9 (mf_format_loss: "1%"). */
void mf_print_loss(struct mf_print *p, int type, const char *key,
		   const char *fmt, u32 ppb);
/* A directed link in the columns of stats and monitor (FROM PORT TO):
 * JSON "node", "port", "peer".
 */
void mf_print_link_columns(struct mf_print *p, const struct mf_topo *t,
			   u32 node, u32 port, u32 peer);
/* A link's state: JSON "state":"down"|"up", text fmt with DOWN or up. */
void mf_print_link_state(struct mf_print *p, const char *fmt, bool down);
/* JSON: "topology":{"kind","dims"}; text: fmt with kind and shape (%s %s). */
void mf_print_topology(struct mf_print *p, const struct mf_topo *t,
		       const char *fmt);

#endif /* MF_PRINT_H */
