/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * meshfabric.h - userspace ABI of meshfabric.ko (/dev/meshfabric).
 *
 * Constants in the first part are shared by the kernel module, the
 * userspace tool and the portable core: topology kinds, routing algorithms
 * and broadcast algorithms.  Their values are ABI and never change.
 */
#ifndef _UAPI_LINUX_MESHFABRIC_H
#define _UAPI_LINUX_MESHFABRIC_H

#include <linux/types.h>
#include <linux/ioctl.h>

/* Topology kinds. */
#define MESHFABRIC_KIND_MESH		1	/* d-D mesh, 1 <= d <= 8 */
#define MESHFABRIC_KIND_TORUS		2	/* d-D torus, 1 <= d <= 8 */
#define MESHFABRIC_KIND_HEX		3	/* C-wrapped hexagonal mesh H_n */

#define MESHFABRIC_MAX_DIMS		8

/* Routing algorithms (next hop towards a destination, shortest paths). */
#define MESHFABRIC_ROUTE_DEFAULT	0	/* dor for mesh/torus, a1 for hex */
#define MESHFABRIC_ROUTE_DOR		1	/* dimension order, 004 Def. 3 */
#define MESHFABRIC_ROUTE_DIAGONAL	2	/* 004 Def. 4 (tori) */
#define MESHFABRIC_ROUTE_A1		3	/* 003 algorithm A1 (H_n) */
#define MESHFABRIC_ROUTE_CDO		4	/* cyclic dimension order, 002 */
#define MESHFABRIC_ROUTE_MAX		4

/* Broadcast algorithms. */
#define MESHFABRIC_ALGO_AUTO		0
#define MESHFABRIC_ALGO_EYES		1	/* 000/001, one-port */
#define MESHFABRIC_ALGO_HEX		2	/* 003 A2, one-port */
#define MESHFABRIC_ALGO_TREE		3	/* 004 communication graph, all-port */
#define MESHFABRIC_ALGO_BINOMIAL	4	/* recursive doubling, one-port */
#define MESHFABRIC_ALGO_FLOOD		5	/* all-port BFS */
#define MESHFABRIC_ALGO_TSAY_WANG	6	/* 002, all-port torus */
#define MESHFABRIC_ALGO_MINTCD		7	/* search, one-port */
#define MESHFABRIC_ALGO_MAX		7

/* Port models. */
#define MESHFABRIC_MODEL_ONE_PORT	1
#define MESHFABRIC_MODEL_ALL_PORT	2

#endif /* _UAPI_LINUX_MESHFABRIC_H */
