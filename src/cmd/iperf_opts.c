/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iperf_opts.c - what the option table (iperf_opts_table.c) drives:
 * getopt_long's arrays for one command, the dispatch of each flag to its
 * row's parser or field setter and the errors that follow, --help's
 * option lines, and `nicdoctor __options COMMAND` for the completion's
 * test.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nicdoctor/cmd.h"
#include "nicdoctor/common.h"
#include "iperf_opts.h"

int nd_opt_val(const struct nd_opt *row)
{
	return row->id ? row->id : row->short_name;
}

const struct nd_opt *nd_opts_find(unsigned cmd, int c)
{
	for (size_t i = 0; i < nd_opts_count; i++)
		if ((nd_opts[i].cmds & cmd) && nd_opt_val(&nd_opts[i]) == c)
			return &nd_opts[i];
	return NULL;
}

void nd_opts_getopt(unsigned cmd, struct nd_opt_getopt *g)
{
	size_t n = 0, len = 0;

	memset(g, 0, sizeof(*g));
	for (size_t i = 0; i < nd_opts_count && n < ND_OPTS_MAX; i++) {
		const struct nd_opt *r = &nd_opts[i];

		if (!(r->cmds & cmd))
			continue;
		g->longs[n++] = (struct option){ r->name, r->has_arg, NULL, nd_opt_val(r) };
		if (!r->short_name || strchr(g->shorts, r->short_name))
			continue;
		g->shorts[len++] = r->short_name;
		/* An optional value is for the long form only: -d takes none (3.21). */
		if (r->has_arg == required_argument)
			g->shorts[len++] = ':';
	}
}

static int set_field(const struct nd_opt *r, const char *arg, struct nd_opt_ctx *ctx)
{
	void *field = (char *)ctx->base[r->base] + r->off;
	long v;

	switch (r->set) {
	case ND_SET_TRUE:
		*(bool *)field = true;
		return 0;
	case ND_SET_STR:
		*(const char **)field = arg;
		return 0;
	case ND_SET_INT:
		*(int *)field = (int)r->lo;
		return 0;
	case ND_SET_LONG:
		if (nd_parse_long(arg, r->radix, r->lo, r->hi, &v) < 0)
			return -EINVAL;
		*(int *)field = (int)v;
		return 0;
	case ND_SET_NONE:
		break;
	}
	return 0;
}

static bool serving(const struct nd_opt_ctx *ctx)
{
	return ctx->cmd & (ND_IN_SERVE | ND_IN_IPERF3_S);
}

/* One flag; 0, ND_OPT_STOP, or a negative errno once the error is out. */
static int take(const struct nd_opt *r, const char *arg, struct nd_opt_ctx *ctx)
{
	int rc;

	ctx->why[0] = '\0';
	ctx->reported = false;
	rc = r->parse ? r->parse(r, arg, ctx) : set_field(r, arg, ctx);
	if (rc >= 0)
		return rc;
	if (ctx->why[0])
		nd_err("%s%s", serving(ctx) ? "serve: " : "", ctx->why);
	else if (ctx->reported)
		;
	else if (serving(ctx))
		nd_err("serve: invalid value '%s'", arg);
	else
		nd_err("bench: invalid value '%s' for --%s%s", arg ? arg : "", r->name,
		       r->hint ? r->hint : "");
	return rc;
}

int nd_opts_parse(int argc, char **argv, struct nd_opt_ctx *ctx)
{
	struct nd_opt_getopt g;
	int c;

	nd_opts_getopt(ctx->cmd, &g);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, g.shorts, g.longs, NULL)) != -1) {
		const struct nd_opt *r = c == '?' || c == ':' ? NULL : nd_opts_find(ctx->cmd, c);
		int rc;

		if (!r) {
			nd_err_option(ctx->name, argc, argv);
			return -EINVAL;
		}
		rc = take(r, optarg, ctx);
		if (rc)
			return rc;
	}
	return 0;
}

int nd_opt_help(const struct nd_opt *row, const char *arg, struct nd_opt_ctx *ctx)
{
	(void)row;
	(void)arg;
	ctx->usage(stdout);
	return ND_OPT_STOP;
}

void nd_opts_help(FILE *f, unsigned cmd)
{
	for (size_t i = 0; i < nd_opts_count; i++) {
		const struct nd_opt *r = &nd_opts[i];
		char left[64];
		int n = 0;

		if (!(r->cmds & cmd))
			continue;
		if (r->short_name)
			n = snprintf(left, sizeof(left), "-%c, ", r->short_name);
		else
			n = snprintf(left, sizeof(left), "    ");
		snprintf(left + n, sizeof(left) - (size_t)n, "--%s%s%s%s", r->name,
			 r->has_arg == optional_argument ? "[=" : r->has_arg ? " " : "",
			 r->metavar ? r->metavar : "", r->has_arg == optional_argument ? "]" : "");
		fprintf(f, "  %-34s %s\n", left, r->help);
	}
}

/* The flags of cmd's rows, -x and --name lines (iperf3's roles repeat some);
 * rows: a row's flags on one line. */
static void list_flags(FILE *f, unsigned cmd, bool rows)
{
	for (size_t i = 0; i < nd_opts_count; i++) {
		const struct nd_opt *r = &nd_opts[i];

		if (!(r->cmds & cmd))
			continue;
		if (r->short_name)
			fprintf(f, "-%c%c", r->short_name, rows ? ' ' : '\n');
		fprintf(f, "--%s\n", r->name);
	}
}

/* `nicdoctor __options [--rows] bench|serve|iperf3`: hidden, for t9002. */
int cmd_options(int argc, char **argv)
{
	bool rows = argc == 3 && !strcmp(argv[1], "--rows");

	argc -= rows;
	argv += rows;
	if (argc != 2) {
		nd_err("usage: nicdoctor __options [--rows] bench|serve|iperf3");
		return ND_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "bench")) {
		list_flags(stdout, ND_IN_BENCH, rows);
	} else if (!strcmp(argv[1], "serve")) {
		list_flags(stdout, ND_IN_SERVE, rows);
	} else if (!strcmp(argv[1], "iperf3")) {
		printf(rows ? "-s --server\n" : "-s\n--server\n");
		list_flags(stdout, ND_IN_IPERF3_C | ND_IN_IPERF3_S, rows);
	} else {
		nd_err("__options: no option table for '%s'", argv[1]);
		return ND_EXIT_USAGE;
	}
	return ND_EXIT_OK;
}
