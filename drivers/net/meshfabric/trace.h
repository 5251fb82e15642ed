/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace.h - tracepoints of meshfabric.ko (tracefs events/meshfabric/,
 * perf -e 'meshfabric:*', trace-cmd -e meshfabric, bpftrace
 * tracepoint:meshfabric:*).  Examples in docs/design.md.
 *  - meshfabric_forward: a unicast frame delivered across the fabric;
 *  - meshfabric_drop: a frame dropped, with the reason;
 *  - meshfabric_bcast_step: one step of the broadcast offload.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM meshfabric

#if !defined(_MF_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _MF_TRACE_H

#include <linux/tracepoint.h>

/* enum mf_drop_reason is mf.h's (every includer includes mf.h first). */
TRACE_DEFINE_ENUM(MF_DROP_NODE_GONE);
TRACE_DEFINE_ENUM(MF_DROP_NO_DEST);
TRACE_DEFINE_ENUM(MF_DROP_MTU);
TRACE_DEFINE_ENUM(MF_DROP_QUEUE_FULL);
TRACE_DEFINE_ENUM(MF_DROP_LOSS);
TRACE_DEFINE_ENUM(MF_DROP_LINK_DOWN);
TRACE_DEFINE_ENUM(MF_DROP_TUNNEL);

TRACE_EVENT(meshfabric_forward,
	TP_PROTO(u32 fabric, u32 src, u32 dst, u32 hops, u32 bytes),
	TP_ARGS(fabric, src, dst, hops, bytes),
	TP_STRUCT__entry(
		__field(u32, fabric)
		__field(u32, src)
		__field(u32, dst)
		__field(u32, hops)
		__field(u32, bytes)
	),
	TP_fast_assign(
		__entry->fabric = fabric;
		__entry->src = src;
		__entry->dst = dst;
		__entry->hops = hops;
		__entry->bytes = bytes;
	),
	TP_printk("fabric=%u src=%u dst=%u hops=%u bytes=%u",
		  __entry->fabric, __entry->src, __entry->dst, __entry->hops,
		  __entry->bytes)
);

TRACE_EVENT(meshfabric_drop,
	TP_PROTO(u32 fabric, u32 node, u32 bytes, enum mf_drop_reason reason),
	TP_ARGS(fabric, node, bytes, reason),
	TP_STRUCT__entry(
		__field(u32, fabric)
		__field(u32, node)
		__field(u32, bytes)
		__field(u32, reason)
	),
	TP_fast_assign(
		__entry->fabric = fabric;
		__entry->node = node;
		__entry->bytes = bytes;
		__entry->reason = reason;
	),
	TP_printk("fabric=%u node=%u bytes=%u reason=%s", __entry->fabric,
		  __entry->node, __entry->bytes,
		  __print_symbolic(__entry->reason,
				   { MF_DROP_NODE_GONE, "node_gone" },
				   { MF_DROP_NO_DEST, "unreachable" },
				   { MF_DROP_MTU, "mtu" },
				   { MF_DROP_QUEUE_FULL, "queue_full" },
				   { MF_DROP_LOSS, "loss" },
				   { MF_DROP_LINK_DOWN, "link_down" },
				   { MF_DROP_TUNNEL, "tunnel" }))
);

TRACE_EVENT(meshfabric_bcast_step,
	TP_PROTO(u32 fabric, u32 step, u32 sends, u64 elapsed_ns,
		 u64 fabric_ns),
	TP_ARGS(fabric, step, sends, elapsed_ns, fabric_ns),
	TP_STRUCT__entry(
		__field(u32, fabric)
		__field(u32, step)
		__field(u32, sends)
		__field(u64, elapsed_ns)
		__field(u64, fabric_ns)
	),
	TP_fast_assign(
		__entry->fabric = fabric;
		__entry->step = step;
		__entry->sends = sends;
		__entry->elapsed_ns = elapsed_ns;
		__entry->fabric_ns = fabric_ns;
	),
	TP_printk("fabric=%u step=%u sends=%u elapsed_ns=%llu fabric_ns=%llu",
		  __entry->fabric, __entry->step, __entry->sends,
		  __entry->elapsed_ns, __entry->fabric_ns)
);

/* A LINK_SET: the links of node through port (MESHFABRIC_ALL: every
 * one) now have these parameters (those flags names), or are down (down
 * 1) or up (0) with MESHFABRIC_LINK_STATE.
 */
TRACE_EVENT(meshfabric_link_set,
	TP_PROTO(u32 fabric, u32 node, u32 port, u32 flags, u64 rate,
		 u64 delay_ns, u32 queue, u32 loss, u32 switching, u32 down),
	TP_ARGS(fabric, node, port, flags, rate, delay_ns, queue, loss,
		switching, down),
	TP_STRUCT__entry(
		__field(u32, fabric)
		__field(u32, node)
		__field(u32, port)
		__field(u32, flags)
		__field(u64, rate)
		__field(u64, delay_ns)
		__field(u32, queue)
		__field(u32, loss)
		__field(u32, switching)
		__field(u32, down)
	),
	TP_fast_assign(
		__entry->fabric = fabric;
		__entry->node = node;
		__entry->port = port;
		__entry->flags = flags;
		__entry->rate = rate;
		__entry->delay_ns = delay_ns;
		__entry->queue = queue;
		__entry->loss = loss;
		__entry->switching = switching;
		__entry->down = down;
	),
	TP_printk("fabric=%u node=%d port=%d flags=%#x rate=%llu delay_ns=%llu queue=%u loss_ppb=%u switching=%u down=%u",
		  __entry->fabric, (int)__entry->node, (int)__entry->port,
		  __entry->flags, __entry->rate, __entry->delay_ns,
		  __entry->queue, __entry->loss, __entry->switching,
		  __entry->down)
);

#endif /* _MF_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
