// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - the meshfabric tool: global options and the command table.
 *
 *   meshfabric [-j|--json] [-h|--help] [-V|--version] COMMAND [ARGS...]
 *
 * Each command is one file (cmd_*.c) exporting a struct mf_cmd; to add
 * one, list it in `commands` below (see cli.h).
 */
#include <errno.h>
#include <string.h>

#include "cli.h"

#ifndef MESHFABRIC_VERSION
#define MESHFABRIC_VERSION "0.1"
#endif

static const struct mf_cmd *const commands[] = {
	&mf_cmd_plan,
	&mf_cmd_route,
	&mf_cmd_analyze,
	&mf_cmd_create,
	&mf_cmd_destroy,
	&mf_cmd_list,
	&mf_cmd_show,
	&mf_cmd_exec,
	&mf_cmd_bcast,
	&mf_cmd_stats,
	&mf_cmd_monitor,
	&mf_cmd_link,
	&mf_cmd_node,
	&mf_cmd_papers,
	&mf_cmd_port,
	&mf_cmd_coll,
	NULL
};

static int help_main(struct mf_ctx *ctx, int argc, char **argv);

static const struct mf_opt help_opts[] = {
	{ "commands", 0, NULL, 'c', "list the command names, one a line" },
	{ NULL, 0, NULL, 0, NULL }
};

static const struct mf_cmd cmd_help = {
	"help", "show the commands, or one command's help",
	"[COMMAND] [--commands]", NULL, help_opts, help_main,
};

static const struct mf_cmd *find_cmd(const char *name)
{
	int i;

	if (!strcmp(name, "help"))
		return &cmd_help;
	for (i = 0; commands[i]; i++)
		if (!strcmp(commands[i]->name, name))
			return commands[i];
	return NULL;
}

static void overview(FILE *f)
{
	int i;

	fprintf(f,
		"usage: meshfabric [-j|--json] [-h|--help] [-V|--version] COMMAND [ARGS...]\n\n"
		"Emulated multiprocessor interconnects and their broadcast algorithms.\n\n"
		"commands:\n");
	for (i = 0; commands[i]; i++)
		fprintf(f, "  %-10s %s\n", commands[i]->name, commands[i]->summary);
	fprintf(f, "  %-10s %s\n\n", "help", cmd_help.summary);
	fprintf(f, "'meshfabric COMMAND --help' describes each command; see meshfabric(8).\n");
}

static int help_main(struct mf_ctx *ctx, int argc, char **argv)
{
	const struct mf_cmd *c = NULL;
	struct mf_args a;
	const char *val;
	bool names = false;
	int k, i;

	mf_args_init(&a, ctx, argc, argv);
	while ((k = mf_args_next(&a, &val)) != MF_ARG_END) {
		switch (k) {
		case MF_ARG_ERROR:
			return MF_EXIT_USAGE;
		case MF_ARG_HELP:
			return mf_cmd_help(ctx, &cmd_help);
		case 'c':
			names = true;
			break;
		case MF_ARG_POSITIONAL:
			if (c)
				return mf_usage(&cmd_help, "unexpected argument '%.40s'", val);
			c = find_cmd(val);
			if (!c)
				return mf_usage(NULL, "unknown command '%.40s'", val);
			break;
		default:
			return mf_usage(&cmd_help, "unexpected '--'");
		}
	}
	if (names) {
		for (i = 0; commands[i]; i++)
			fprintf(ctx->out, "%s\n", commands[i]->name);
		fprintf(ctx->out, "help\n");
		return MF_EXIT_OK;
	}
	if (c)
		return mf_cmd_help(ctx, c);
	overview(ctx->out);
	return MF_EXIT_OK;
}

int main(int argc, char **argv)
{
	static char obuf[1 << 16];
	struct mf_ctx ctx = { .json = false, .out = stdout };
	const struct mf_cmd *cmd;
	int i, rc;

	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		const char *s = argv[i];

		if (!strcmp(s, "-j") || !strcmp(s, "--json")) {
			ctx.json = true;
		} else if (!strcmp(s, "-h") || !strcmp(s, "--help")) {
			overview(stdout);
			goto out;
		} else if (!strcmp(s, "-V") || !strcmp(s, "--version")) {
			printf("meshfabric %s\n", MESHFABRIC_VERSION);
			goto out;
		} else if (!strcmp(s, "--")) {
			i++;
			break;
		} else {
			return mf_usage(NULL, "unknown option '%.40s'", s);
		}
	}
	if (i >= argc)
		return mf_usage(NULL, "no command given");
	cmd = find_cmd(argv[i]);
	if (!cmd)
		return mf_usage(NULL, "unknown command '%.40s'", argv[i]);
	ctx.cmd = cmd;
	rc = cmd->run(&ctx, argc - i, argv + i);
	if (rc)
		return rc;
out:
	if (fflush(stdout) || ferror(stdout))
		return mf_fail("write error: %s", strerror(errno));
	return MF_EXIT_OK;
}
