/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli.h - the command framework of the meshfabric tool (iproute2 style).
 *
 * Every command is one file, cmd_<family>.c, exporting one
 * `const struct mf_cmd` listed in the command table of main.c.  A command
 * describes its options in a table (struct mf_opt); the same table drives
 * the parser (mf_args_parse, over mf_args_cmd and mf_args_next),
 * `meshfabric CMD --help` and, through that help text, the bash
 * completion.  -h/--help and -j/--json are accepted by every command
 * without being listed.
 *
 * Exit status: 0 success, 1 runtime failure (MF_EXIT_FAIL), 2 usage error
 * (MF_EXIT_USAGE).  An error is ONE line on stderr, "meshfabric: ...",
 * and nothing on stdout: commands validate everything before they print.
 *
 * To add a command (e.g. `create`):
 *   1. userspace/cmd_fabric.c: static const struct mf_opt create_opts[] =
 *      { MF_OPTS_TOPOLOGY, {"name", 0, "NAME", KEY_NAME, "fabric name"},
 *      {NULL} }; a run function calling mf_args_parse() with a handler
 *      for the command's options that take a value (mf_args_parse
 *      handles --help, bad options, positional arguments unless asked
 *      for, the topology options, and sets a bit for each flag); and
 *      const struct mf_cmd mf_cmd_create = { "create", "one-line help",
 *      "TOPOLOGY [--name NAME]", "description", create_opts, run };
 *   2. declare it below and add &mf_cmd_create to the table in main.c.
 *   3. document it in docs/meshfabric.8; completion picks it up by itself.
 */
#ifndef MF_CLI_H
#define MF_CLI_H

#include <stdio.h>
#include <stdbool.h>
#include <stddef.h>

enum {
	MF_EXIT_OK = 0,
	MF_EXIT_FAIL = 1,
	MF_EXIT_USAGE = 2,
};

struct mf_cmd;

struct mf_ctx {
	bool json;			/* -j/--json, global or per command */
	FILE *out;			/* stdout, fully buffered */
	const struct mf_cmd *cmd;	/* the running command */
};

struct mf_opt {
	const char *name;	/* long name without "--"; NULL ends a table */
	char short_name;	/* 0: none */
	const char *arg;	/* value name for --help; NULL: a flag */
	int key;		/* what mf_args_next returns for it */
	const char *help;	/* one line for --help */
};

struct mf_cmd {
	const char *name;
	const char *summary;	/* one line, for `meshfabric help` */
	const char *synopsis;	/* printed after "usage: meshfabric NAME " */
	const char *description;	/* under the usage line, or NULL */
	const struct mf_opt *opts;	/* NULL-name terminated, or NULL */
	int (*run)(struct mf_ctx *ctx, int argc, char **argv);
};

/* The offline commands (cmd_plan.c, cmd_route.c, cmd_analyze.c). */
extern const struct mf_cmd mf_cmd_plan;
extern const struct mf_cmd mf_cmd_route;
extern const struct mf_cmd mf_cmd_analyze;
/* The fabric commands, driving meshfabric.ko (cmd_fabric.c, cmd_bcast.c,
 * cmd_stats.c). */
extern const struct mf_cmd mf_cmd_create;
extern const struct mf_cmd mf_cmd_destroy;
extern const struct mf_cmd mf_cmd_list;
extern const struct mf_cmd mf_cmd_show;
extern const struct mf_cmd mf_cmd_exec;
extern const struct mf_cmd mf_cmd_bcast;
extern const struct mf_cmd mf_cmd_stats;
extern const struct mf_cmd mf_cmd_monitor;
extern const struct mf_cmd mf_cmd_link;
extern const struct mf_cmd mf_cmd_port;
extern const struct mf_cmd mf_cmd_node;
/* The papers' claims, computed (cmd_papers.c). */
extern const struct mf_cmd mf_cmd_papers;
/* Collectives executed by the kernel (cmd_coll.c). */
extern const struct mf_cmd mf_cmd_coll;

/* Results of mf_args_next besides option keys (keep keys >= 0). */
enum {
	MF_ARG_END = -1,	/* no more arguments */
	MF_ARG_ERROR = -2,	/* bad option; message printed, exit 2 */
	MF_ARG_HELP = -3,	/* -h/--help: call mf_cmd_help and return */
	MF_ARG_POSITIONAL = -4,	/* a non-option argument, in *val */
	MF_ARG_REST = -5,	/* "--": the rest is mf_args_rest() */
	MF_ARG_STOP = -6,	/* mf_args_cmd: return its *rc */
};

/* What a command accepts besides options (mf_args_cmd flags). */
#define MF_ARGS_POSITIONAL	0x1
#define MF_ARGS_REST		0x2

struct mf_topo_arg;

struct mf_args {
	struct mf_ctx *ctx;
	const struct mf_cmd *cmd;
	int argc;
	char **argv;
	int i;			/* next argument */
};

/* argv[0] is the command name; options start at argv[1]. */
void mf_args_init(struct mf_args *a, struct mf_ctx *ctx, int argc, char **argv);
/*
 * The next argument: an option key (with its value in *val, NULL for a
 * flag) or one of MF_ARG_*.  -j/--json is handled here (ctx->json).
 * Accepts "--name value", "--name=value", "-x value", "-xvalue".
 */
int mf_args_next(struct mf_args *a, const char **val);
/*
 * mf_args_next with what every command's option loop shares: -h/--help
 * printed and a bad option reported both give MF_ARG_STOP with *rc the exit
 * status; positional arguments and "--" are usage errors (MF_ARG_STOP)
 * unless flags accept them (MF_ARGS_*); with ta, --mesh/--torus/--hex are
 * consumed into it.  Everything else is returned as mf_args_next does.
 */
int mf_args_cmd(struct mf_args *a, struct mf_topo_arg *ta, unsigned int flags,
		const char **val, int *rc);
/*
 * A command of positional words only (link, port): at least one and at
 * most max of them into pos, their count, or -1 with *rc the exit status
 * (help printed, a bad option, too many words, none: usage with none).
 */
int mf_args_words(struct mf_ctx *ctx, int argc, char **argv, char **pos,
		  int max, const char *none, int *rc);
/*
 * A command's option handler for mf_args_parse: an option's key (or
 * MF_ARG_POSITIONAL) with its value into the command's
 * state st; 0, or -1 with a one-line reason in err, a usage error.
 */
typedef int (*mf_opt_fn)(void *st, int key, const char *val, char *err,
			 size_t errlen);
/*
 * The option loop every command shares: mf_args_cmd over the whole
 * command line.  A flag (an option without a value) sets the bit of its
 * key in *seen (keys 1..31) if seen is given; every other key goes to
 * fn.  -1 when every
 * argument went through; else the exit status the command returns
 * (after --help, or a usage error reported).
 */
int mf_args_parse(struct mf_ctx *ctx, int argc, char **argv,
		  struct mf_topo_arg *ta, unsigned int flags, mf_opt_fn fn,
		  void *st, unsigned int *seen);
/* A command's one positional argument (a fabric's NAME) into *name: -1
 * with the reason in err if it came already.
 */
int mf_arg_name(const char **name, const char *val, char *err, size_t errlen);
/* After MF_ARG_REST: the arguments after "--". */
static inline char **mf_args_rest(struct mf_args *a, int *count)
{
	*count = a->argc - a->i;
	return a->argv + a->i;
}

/* Print the command's --help on ctx->out; returns MF_EXIT_OK. */
int mf_cmd_help(struct mf_ctx *ctx, const struct mf_cmd *cmd);

/* "meshfabric: MSG" on stderr; return MF_EXIT_FAIL. */
int mf_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "meshfabric: MSG (see 'meshfabric CMD --help')"; return MF_EXIT_USAGE. */
int mf_usage(const struct mf_cmd *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Text of a negative errno from the core ("out of memory", ...). */
const char *mf_strerror(int err);

#endif /* MF_CLI_H */
