/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jread.h - a small JSON reader (RFC 8259) for the documents the tool
 * writes itself, read back: `bcast --schedule FILE` takes plan's JSON.
 * The whole text is parsed into a tree; numbers keep their integer value
 * when they are integers (schedules are all integers).  Nesting is limited
 * to MF_JREAD_DEPTH levels.
 */
#ifndef MF_JREAD_H
#define MF_JREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MF_JREAD_DEPTH 64

enum mf_jtype { MF_J_NULL, MF_J_BOOL, MF_J_NUM, MF_J_STR, MF_J_ARR, MF_J_OBJ };

struct mf_jval {
	enum mf_jtype type;
	bool is_int;		/* MF_J_NUM: an integer in 0..UINT64_MAX */
	uint64_t u;		/* MF_J_NUM integer, MF_J_BOOL 0/1 */
	char *str;		/* MF_J_STR (NUL-terminated, escapes decoded) */
	size_t n;		/* MF_J_ARR/OBJ: elements */
	struct mf_jval *v;	/* MF_J_ARR/OBJ: the elements (values) */
	char **keys;		/* MF_J_OBJ: their keys */
};

/* Parse text (len bytes) into *out: 0, or -1 with "line L: reason" in err
 * (errlen bytes).  Free *out with mf_jfree in both cases.
 */
int mf_jparse(const char *text, size_t len, struct mf_jval *out, char *err,
	      size_t errlen);
/* The value of key in an object (the first one), or NULL. */
const struct mf_jval *mf_jget(const struct mf_jval *obj, const char *key);
/* An integer value that fits v's range: true and *v set. */
bool mf_jget_u32(const struct mf_jval *val, uint32_t *v);
void mf_jfree(struct mf_jval *v);

#endif /* MF_JREAD_H */
