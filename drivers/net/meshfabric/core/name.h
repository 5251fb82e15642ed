/* SPDX-License-Identifier: GPL-2.0 */
/* The fabric-name rule (uapi: MESHFABRIC_IOC_CREATE), one definition for
 * the kernel's CREATE validation and the tool's argument parsing.
 */
#ifndef MF_NAME_H
#define MF_NAME_H

#include "mf_compat.h"

/* 0 if name (at most len bytes) is a valid fabric name: NUL-terminated
 * within len, 1..len-1 characters of [A-Za-z0-9._], a letter first, not
 * "lo", not "mf<digits>" (reserved for unnamed fabrics) unless
 * reserved_ok; -EINVAL otherwise.
 * The empty name is valid (the kernel then chooses "mf<id>").  The NUL is
 * found before any character is looked at twice: name is never read past
 * len bytes.
 */
int mf_name_check(const char *name, size_t len, bool reserved_ok);

#endif /* MF_NAME_H */
