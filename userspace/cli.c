// SPDX-License-Identifier: GPL-2.0
/*
 * cli.c - option parsing, --help and error reporting shared by every
 * command (contract in cli.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "cli.h"
#include "parse.h"

static const struct mf_opt common_opts[] = {
	{ "json", 'j', NULL, 'j', "JSON output" },
	{ "help", 'h', NULL, 'h', "show this help and exit" },
	{ NULL, 0, NULL, 0, NULL }
};

void mf_args_init(struct mf_args *a, struct mf_ctx *ctx, int argc, char **argv)
{
	a->ctx = ctx;
	a->cmd = ctx->cmd;
	a->argc = argc;
	a->argv = argv;
	a->i = 1;
}

static const struct mf_opt *find_long(const struct mf_opt *t, const char *s,
				      size_t len)
{
	for (; t && t->name; t++)
		if (strlen(t->name) == len && !strncmp(t->name, s, len))
			return t;
	return NULL;
}

static const struct mf_opt *find_short(const struct mf_opt *t, char c)
{
	for (; t && t->name; t++)
		if (t->short_name && t->short_name == c)
			return t;
	return NULL;
}

int mf_args_next(struct mf_args *a, const char **val)
{
	const struct mf_opt *o;
	const char *s, *eq = NULL;
	char shown[64];
	size_t len;

again:
	*val = NULL;
	if (a->i >= a->argc)
		return MF_ARG_END;
	s = a->argv[a->i++];
	if (!strcmp(s, "--"))
		return MF_ARG_REST;
	if (s[0] != '-' || !s[1]) {
		*val = s;
		return MF_ARG_POSITIONAL;
	}
	if (s[1] == '-') {
		eq = strchr(s + 2, '=');
		len = eq ? (size_t)(eq - s - 2) : strlen(s + 2);
		o = find_long(a->cmd->opts, s + 2, len);
		if (!o)
			o = find_long(common_opts, s + 2, len);
		snprintf(shown, sizeof(shown), "--%.*s",
			 (int)(len > 40 ? 40 : len),
			 s + 2);
		if (eq)
			eq++;
	} else {
		o = find_short(a->cmd->opts, s[1]);
		if (!o)
			o = find_short(common_opts, s[1]);
		snprintf(shown, sizeof(shown), "-%c", s[1]);
		if (s[2])
			eq = s + 2;
		if (o && !o->arg && eq) {
			/* no bundling of flags: "-jx" is an error */
			mf_usage(a->cmd, "unknown option '%.40s'", s);
			return MF_ARG_ERROR;
		}
	}
	if (!o) {
		mf_usage(a->cmd, "unknown option '%s'", shown);
		return MF_ARG_ERROR;
	}
	if (!o->arg) {
		if (eq) {
			mf_usage(a->cmd, "option '%s' takes no value", shown);
			return MF_ARG_ERROR;
		}
		if (o == &common_opts[0]) {
			a->ctx->json = true;
			goto again;
		}
		if (o == &common_opts[1])
			return MF_ARG_HELP;
		return o->key;
	}
	if (!eq) {
		if (a->i >= a->argc) {
			mf_usage(a->cmd, "option '%s' needs a value (%s)",
				 shown, o->arg);
			return MF_ARG_ERROR;
		}
		eq = a->argv[a->i++];
	}
	*val = eq;
	return o->key;
}

static void print_opts(FILE *f, const struct mf_opt *t)
{
	char head[64];

	for (; t && t->name; t++) {
		if (t->short_name)
			snprintf(head, sizeof(head), "-%c, --%s%s%s",
				 t->short_name, t->name, t->arg ? " " : "",
				 t->arg ? t->arg : "");
		else
			snprintf(head, sizeof(head), "    --%s%s%s", t->name,
				 t->arg ? " " : "", t->arg ? t->arg : "");
		fprintf(f, "  %-28s %s\n", head, t->help);
	}
}

int mf_cmd_help(struct mf_ctx *ctx, const struct mf_cmd *cmd)
{
	FILE *f = ctx->out;

	fprintf(f, "usage: meshfabric %s %s\n\n%s\n", cmd->name, cmd->synopsis,
		cmd->summary);
	if (cmd->description)
		fprintf(f, "\n%s", cmd->description);
	fprintf(f, "\noptions:\n");
	print_opts(f, cmd->opts);
	print_opts(f, common_opts);
	return MF_EXIT_OK;
}

int mf_fail(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("meshfabric: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return MF_EXIT_FAIL;
}

int mf_usage(const struct mf_cmd *cmd, const char *fmt, ...)
{
	va_list ap;

	fputs("meshfabric: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (cmd)
		fprintf(stderr, " (see 'meshfabric %s --help')\n", cmd->name);
	else
		fputs(" (see 'meshfabric help')\n", stderr);
	return MF_EXIT_USAGE;
}

const char *mf_strerror(int err)
{
	switch (err) {
	case -ENOMEM:
		return "out of memory";
	case -E2BIG:
		return "too large";
	case -EOPNOTSUPP:
		return "not supported (not implemented yet in this build?)";
	case -EINVAL:
		return "invalid argument";
	case -ERANGE:
		return "result out of range";
	}
	return strerror(err < 0 ? -err : err);
}

int mf_args_cmd(struct mf_args *a, struct mf_topo_arg *ta, unsigned int flags,
		const char **val, int *rc)
{
	char err[256];
	int k;

	for (;;) {
		k = mf_args_next(a, val);
		switch (k) {
		case MF_ARG_ERROR:
			*rc = MF_EXIT_USAGE;
			return MF_ARG_STOP;
		case MF_ARG_HELP:
			*rc = mf_cmd_help(a->ctx, a->cmd);
			return MF_ARG_STOP;
		case MF_ARG_POSITIONAL:
			if (flags & MF_ARGS_POSITIONAL)
				return k;
			*rc = mf_usage(a->cmd, "unexpected argument '%.40s'",
				       *val);
			return MF_ARG_STOP;
		case MF_ARG_REST:
			if (flags & MF_ARGS_REST)
				return k;
			*rc = mf_usage(a->cmd, "unexpected '--'");
			return MF_ARG_STOP;
		case MF_KEY_MESH:
		case MF_KEY_TORUS:
		case MF_KEY_HEX:
			if (!ta)
				return k;
			if (mf_topo_arg_set(ta, k, *val, err, sizeof(err))) {
				*rc = mf_usage(a->cmd, "%s", err);
				return MF_ARG_STOP;
			}
			continue;
		default:
			return k;
		}
	}
}

int mf_args_words(struct mf_ctx *ctx, int argc, char **argv, char **pos,
		  int max, const char *none, int *rc)
{
	const char *val;
	struct mf_args a;
	int k, n = 0;

	mf_args_init(&a, ctx, argc, argv);
	while ((k = mf_args_cmd(&a, NULL, MF_ARGS_POSITIONAL, &val, rc)) !=
	       MF_ARG_END) {
		if (k == MF_ARG_STOP)
			return -1;
		if (n == max) {
			*rc = mf_usage(ctx->cmd, "too many arguments");
			return -1;
		}
		pos[n++] = (char *)val;
	}
	if (!n) {
		*rc = mf_usage(ctx->cmd, "%s", none);
		return -1;
	}
	return n;
}

int mf_args_parse(struct mf_ctx *ctx, int argc, char **argv,
		  struct mf_topo_arg *ta, unsigned int flags, mf_opt_fn fn,
		  void *st, unsigned int *seen)
{
	struct mf_args a;
	const char *val;
	char err[256];
	int k, rc;

	mf_args_init(&a, ctx, argc, argv);
	while ((k = mf_args_cmd(&a, ta, flags, &val, &rc)) != MF_ARG_END) {
		if (k == MF_ARG_STOP)
			return rc;
		if (!val && seen && k > 0 && k < 32)
			*seen |= 1u << k;
		else if (fn(st, k, val, err, sizeof(err)))
			return mf_usage(a.cmd, "%s", err);
	}
	return -1;
}

int mf_arg_name(const char **name, const char *val, char *err, size_t errlen)
{
	if (*name)
		return mf_err(err, errlen, "unexpected argument '%.40s'", val);
	*name = val;
	return 0;
}
