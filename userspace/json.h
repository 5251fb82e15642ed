/* SPDX-License-Identifier: GPL-2.0 */
/*
 * json.h - a small streaming JSON writer (RFC 8259) used by every command.
 *
 * Output goes straight to a FILE (buffered stdout), so documents of any
 * size are written without building strings in memory.  Commas, nesting
 * and string escaping are handled here; the caller only says what comes
 * next.  Output is compact (one line); mf_json_end adds the final newline.
 *
 *   struct mf_json j;
 *   mf_json_init(&j, stdout);
 *   mf_json_obj(&j);  mf_json_kv_u64(&j, "nodes", 64);  mf_json_close(&j);
 *   mf_json_end(&j);                      ->  {"nodes":64}\n
 */
#ifndef MF_JSON_H
#define MF_JSON_H

#include <stdio.h>
#include <stdbool.h>
#include <stdint.h>

#define MF_JSON_MAX_DEPTH 32

struct mf_json {
	FILE *f;
	unsigned int depth;
	bool first[MF_JSON_MAX_DEPTH];	/* no element yet at this level */
	char close[MF_JSON_MAX_DEPTH];	/* '}' or ']' */
	bool after_key;
};

void mf_json_init(struct mf_json *j, FILE *f);
void mf_json_obj(struct mf_json *j);		/* { */
void mf_json_arr(struct mf_json *j);		/* [ */
void mf_json_close(struct mf_json *j);		/* } or ] of the innermost */
void mf_json_key(struct mf_json *j, const char *key);
void mf_json_str(struct mf_json *j, const char *s);
void mf_json_u64(struct mf_json *j, uint64_t v);
void mf_json_s64(struct mf_json *j, int64_t v);
void mf_json_bool(struct mf_json *j, bool v);
void mf_json_null(struct mf_json *j);
/* The separator before a value the caller writes itself (a number). */
void mf_json_raw(struct mf_json *j);
/* Close whatever is open and write the final newline. */
void mf_json_end(struct mf_json *j);

static inline void mf_json_kv_str(struct mf_json *j, const char *k,
				  const char *v)
{
	mf_json_key(j, k);
	mf_json_str(j, v);
}

static inline void mf_json_kv_u64(struct mf_json *j, const char *k, uint64_t v)
{
	mf_json_key(j, k);
	mf_json_u64(j, v);
}

static inline void mf_json_kv_s64(struct mf_json *j, const char *k, int64_t v)
{
	mf_json_key(j, k);
	mf_json_s64(j, v);
}

static inline void mf_json_kv_bool(struct mf_json *j, const char *k, bool v)
{
	mf_json_key(j, k);
	mf_json_bool(j, v);
}

struct mf_topo;
/* "topology": {"kind": "mesh", "dims": [8, 8]} (hex: "dims": [n]). */
void mf_json_topology(struct mf_json *j, const struct mf_topo *t);

#endif /* MF_JSON_H */
