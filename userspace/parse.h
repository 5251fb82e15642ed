/* SPDX-License-Identifier: GPL-2.0 */
/*
 * parse.h - parsing and printing of the tool's values: topologies
 * (--mesh AxBx..., --torus AxBx..., --hex N), nodes (coordinates "3,4" or
 * a plain node id; for H_n the paper's address), algorithm, routing and
 * port-model names.
 *
 * Parsers return 0, or -1 with a one-line reason in err (errlen bytes)
 * that the caller prints after "meshfabric: ".
 */
#ifndef MF_PARSE_H
#define MF_PARSE_H

#include "topo.h"
#include "algo.h"

/* A one-line reason into err (vsnprintf); returns -1, for parsers. */
int mf_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The index of s among names[0..n-1] (NULL entries match nothing); -1. */
int mf_pick(const char *s, const char *const *names, unsigned int n);

/* Option keys of the topology options, shared by every command. */
enum {
	MF_KEY_MESH = 0x100 + MESHFABRIC_KIND_MESH,
	MF_KEY_TORUS = 0x100 + MESHFABRIC_KIND_TORUS,
	MF_KEY_HEX = 0x100 + MESHFABRIC_KIND_HEX,
};

#define MF_OPTS_TOPOLOGY \
	{ "mesh", 0, "AxBx...", MF_KEY_MESH, \
	  "d-dimensional mesh, 1..8 sizes >= 2 (e.g. 8x8)" }, \
	{ "torus", 0, "AxBx...", MF_KEY_TORUS, \
	  "d-dimensional torus, 1..8 sizes >= 2 (e.g. 5x5)" }, \
	{ "hex", 0, "N", MF_KEY_HEX, \
	  "wrapped hexagonal mesh H_N, N >= 2 (3N^2-3N+1 nodes)" }

/* A topology option as given on the command line, resolved later. */
struct mf_topo_arg {
	u32 kind;		/* 0: none given yet */
	const char *text;
};

/* Record --mesh/--torus/--hex (key MF_KEY_*); error if one was given. */
int mf_topo_arg_set(struct mf_topo_arg *ta, int key, const char *text,
		    char *err, size_t errlen);
/* Build the topology; error if none was given or it is invalid. */
int mf_topo_arg_build(const struct mf_topo_arg *ta, struct mf_topo *t,
		      char *err, size_t errlen);

/* "8x8" -> dims {8, 8}, ndims 2 (1..8 sizes, each 2..MF_MAX_NODES). */
int mf_parse_dims(const char *s, u32 *dims, u32 *ndims, char *err,
		  size_t errlen);
/* A topology of kind from its option text ("8x8", or "4" for hex). */
int mf_parse_topo(u32 kind, const char *s, struct mf_topo *t, char *err,
		  size_t errlen);
/* A node: coordinates "x0,x1,..." (all ndims) or a plain node id / address. */
int mf_parse_node(const struct mf_topo *t, const char *s, u32 *id, char *err,
		  size_t errlen);
/* Port of t named name ("x+", "+11") or numbered ("0".."nports-1"). */
int mf_parse_port(const struct mf_topo *t, const char *name, u32 *port);
/* The same, or an extra port (external ports: "e0".."e15" are ports
 * nports .. nports + MESHFABRIC_PORTS_MAX - 1).
 */
int mf_parse_xport(const struct mf_topo *t, const char *name, u32 *port);
/* An unsigned decimal in [min, max]. */
int mf_parse_u32(const char *s, u32 min, u32 max, u32 *v);

/* MESHFABRIC_ALGO_* of a name ("auto" included). */
int mf_parse_algo(const char *s, u32 *id, char *err, size_t errlen);
/* MESHFABRIC_ROUTE_* of a name ("default" included). */
int mf_parse_routing(const char *s, u32 *routing, char *err, size_t errlen);
/* MESHFABRIC_MODEL_* of "one-port" / "all-port". */
int mf_parse_model(const char *s, u32 *model, char *err, size_t errlen);

/* "one-port", "all-port". */
const char *mf_model_name(u32 model);
/* "8x8", "5x5x5", or "H_4". */
void mf_format_shape(const struct mf_topo *t, char *buf, size_t len);
/* "3,4" for a mesh/torus node, "11" for a hex address. */
void mf_format_node(const struct mf_topo *t, u32 id, char *buf, size_t len);
/* The same with another separator ("3-4" for namespace names). */
void mf_format_coords(const struct mf_topo *t, u32 id, char sep, char *buf,
		      size_t len);
/* A node's MAC, the uapi's layout 02:6d:FF:NN:NN:NN (fabric id, node). */
void mf_format_mac(u32 fabric, u32 node, char *buf, size_t len);
/* A port's direction: "x+", "y-", "d4+" (mesh/torus), "+1", "-11" (hex);
 * an extra port (nports and up): "e0", "e1"...
 */
void mf_format_port(const struct mf_topo *t, u32 port, char *buf, size_t len);

/* Resolve routing for t (MESHFABRIC_ROUTE_DEFAULT included) into *out;
 * -1 with "routing a1 is not defined on tori" in err if t has no such
 * routing.
 */
int mf_routing_for(const struct mf_topo *t, u32 routing, u32 *out, char *err,
		   size_t errlen);

#endif /* MF_PARSE_H */
