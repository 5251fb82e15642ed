// SPDX-License-Identifier: GPL-2.0
/* The fabric-name rule (name.h).  '-' is not allowed: the tool names the
 * namespace of node (x, y) of fabric NAME "NAME-x-y", and a '-' inside
 * NAME would make two fabrics' namespace names collide ("a-1" node 2 and
 * "a" node 1,2).  A letter first and not "lo": the tool names each node's
 * interface after its fabric.
 */
#include "name.h"

static bool mf_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '.' || c == '_';
}

int mf_name_check(const char *name, size_t len, bool reserved_ok)
{
	size_t i, digits = 0;

	for (i = 0; i < len && name[i]; i++) {
		if (!mf_name_char(name[i]) ||
		    (!i && !((name[0] >= 'a' && name[0] <= 'z') ||
			     (name[0] >= 'A' && name[0] <= 'Z'))))
			return -EINVAL;
		if (i >= 2 && name[i] >= '0' && name[i] <= '9')
			digits++;
	}
	if (i == len)
		return -EINVAL;		/* no NUL within len bytes */
	if (i == 2 && name[0] == 'l' && name[1] == 'o')
		return -EINVAL;
	/* "mf<digits>" is reserved for the default names of unnamed fabrics */
	if (!reserved_ok && i > 2 && name[0] == 'm' && name[1] == 'f' &&
	    digits == i - 2)
		return -EINVAL;
	return 0;
}
