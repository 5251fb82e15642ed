/* SPDX-License-Identifier: GPL-2.0 */
/* The only environment the portable core sees.
 *
 * The core (topology, routing, schedules, checker) is compiled twice: into
 * meshfabric.ko by Kbuild and into the userspace tool and its tests by the
 * host compiler.  It may use only what this header provides:
 *   u8/u16/u32/u64/s32/s64, bool, size_t, NULL, memset/memcpy,
 *   mf_alloc/mf_zalloc/mf_free (large, may sleep), mf_free_all,
 *   mf_alloc_array (checks for overflow), mf_resched (a scheduling
 *   point: the core runs in process context, never atomic), swap(),
 *   ARRAY_SIZE(),
 *   negative errno values
 *   (-EINVAL, -ENOMEM, -E2BIG, -EOPNOTSUPP, -ERANGE, -ENOENT, -EPROTO),
 *   snprintf for error texts.
 * No floating point (the kernel forbids it), no recursion deeper than
 * O(log N) frames, no large stack arrays (kernel stacks are 16 KiB).
 */
#ifndef MF_COMPAT_H
#define MF_COMPAT_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/limits.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/sched.h>

/* A scheduling point in the core's long loops (a check or a repair of a
 * 65536-node schedule): every caller is in process context, with at
 * most mutexes held.
 */
static inline void mf_resched(void)
{
	cond_resched();
}

/* The core runs on behalf of a user (schedules built for BCAST, link
 * accounting): its memory is charged to the caller's memory cgroup.
 */
static inline void *mf_alloc(size_t n)
{
	return kvmalloc(n, GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
}

static inline void *mf_zalloc(size_t n)
{
	return kvzalloc(n, GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
}

static inline void mf_free(void *p)
{
	kvfree(p);
}

#else /* userspace */
#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;

#ifndef U32_MAX
#define U32_MAX ((u32)~0U)
#endif
#ifndef BIT
#define BIT(n) (1UL << (n))
#endif
#ifndef U64_MAX
#define U64_MAX ((u64)~0ULL)
#endif
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

/* The kernel's swap() (linux/minmax.h); each argument evaluated once. */
#define swap(a, b)							\
	do {								\
		__typeof__(a) *__pa = &(a), *__pb = &(b), __tmp = *__pa; \
		*__pa = *__pb;						\
		*__pb = __tmp;						\
	} while (0)

static inline void mf_resched(void)
{
}

static inline void *mf_alloc(size_t n)
{
	return malloc(n ? n : 1);
}

static inline void *mf_zalloc(size_t n)
{
	return calloc(1, n ? n : 1);
}

static inline void mf_free(void *p)
{
	free(p);
}
#endif /* __KERNEL__ */

/* mf_free() on each of the n pointers p[] (mf_free_all's worker). */
static inline void mf_free_each(void *const *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		mf_free(p[i]);
}

/* mf_free() on every argument (each a pointer, NULL ones allowed). */
#define mf_free_all(...)						\
	mf_free_each((void *const[]){ __VA_ARGS__ },			\
		     sizeof((void *const[]){ __VA_ARGS__ }) / sizeof(void *))

/* a / b for u64 (the kernel has no 64-bit division on every target). */
static inline u64 mf_div64(u64 a, u64 b)
{
#ifdef __KERNEL__
	return div64_u64(a, b);
#else
	return a / b;
#endif
}

/* n * size bytes, or NULL if that exceeds 2^34 or size_t (32-bit hosts). */
static inline void *mf_alloc_array(size_t n, size_t size, bool zero)
{
	u64 bytes;

	if (size && (u64)n > ((u64)1 << 34) / size)
		return NULL;
	bytes = (u64)n * size;
	if ((size_t)bytes != bytes)
		return NULL;
	return zero ? mf_zalloc((size_t)bytes) : mf_alloc((size_t)bytes);
}

/* Grow an array from old to new elements (new > old), keeping contents. */
static inline void *mf_grow(void *p, size_t old, size_t new, size_t size)
{
	void *q = mf_alloc_array(new, size, false);

	if (!q)
		return NULL;
	if (p && old)
		memcpy(q, p, old * size);
	mf_free(p);
	return q;
}

#endif /* MF_COMPAT_H */
