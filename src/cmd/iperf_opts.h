/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iperf_opts.h - the one option table of the iperf3-compatible commands
 * (bench, serve, iperf3 -c, iperf3 -s), as ethtool's args[]: a row per
 * flag with its names, argument, parser or field setter, help line and
 * the commands that take it.  The table drives getopt_long's arrays, the
 * dispatch, --help and `nicdoctor __options` (t9002 compares the bash
 * completion and the man page with it).  Private to src/cmd/.
 */
#ifndef NICDOCTOR_IPERF_OPTS_H
#define NICDOCTOR_IPERF_OPTS_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "nicdoctor/auth.h"
#include "nicdoctor/engine.h"
#include "iperf_flags.h"
#include "nicdoctor/multi.h"
#include "nicdoctor/share.h"

/* Which commands take a row. */
enum {
	ND_IN_BENCH = 1 << 0,
	ND_IN_SERVE = 1 << 1,
	ND_IN_IPERF3_C = 1 << 2,	/* iperf3 -c: bench's, with iperf3's -A */
	ND_IN_IPERF3_S = 1 << 3,	/* iperf3 -s: serve's */
};

/* The structures a field setter writes into, named by the row. */
enum nd_opt_base {
	ND_BASE_PARAMS,		/* struct nd_engine_params: bench's test, serve's ip */
	ND_BASE_IOUT,		/* struct nd_iperf_out */
	ND_BASE_CLIENT,		/* struct nd_client_opts */
	ND_BASE_BAUTH,		/* struct bench_auth */
	ND_BASE_TARGETS,	/* struct bench_targets */
	ND_BASE_CFG,		/* struct nd_server_config */
	ND_BASE_SERVE,		/* struct serve_opts */
	ND_BASE_COUNT,
};

enum nd_opt_set {
	ND_SET_NONE,		/* the row's parse function does it */
	ND_SET_TRUE,		/* bool field = true */
	ND_SET_STR,		/* const char * field = the argument */
	ND_SET_INT,		/* int field = value (a constant: -4, -1) */
	ND_SET_LONG,		/* int field = the argument, lo..hi in radix */
};

/* What bench's authentication options name; the key is read once all are. */
struct bench_auth {
	const char *public_key_path;
	struct nd_auth_client client;
};

/* -c and -p as given; several targets run at once (multi.c). */
struct bench_targets {
	const char *hosts, *ports;
	const char *spread;		/* --spread[=MODE] (src/spread/run.c), NULL off */
	struct nd_targets list;
};

struct serve_opts {
	struct nd_share_policy share;	/* who is answered with our findings */
	bool share_flag, no_share_flag;
	const char *share_from;
	const char *config;		/* NULL: the default file, if it exists */
	const char *private_key_path;
	struct nd_auth_server auth;
	bool skew_set;
	bool daemon;			/* -D */
	const char *pidfile_arg;	/* -I */
	const char *logfile;		/* --logfile */
	char pidfile[4096];		/* absolute, once checked */
	int log_fd;
	/* --timestamps, -F, --snd-timeout, --cntl-ka, -m as iperf_flags.c
	 * parses them for bench; copied into the server's config. */
	struct nd_engine_params ip;
	struct nd_iperf_out io;
};

/* One parse of one command line. */
struct nd_opt_ctx {
	unsigned cmd;			/* one ND_IN_* */
	const char *name;		/* for nd_err_option: bench, iperf3, serve */
	void *base[ND_BASE_COUNT];
	void (*usage)(FILE *f);		/* -h */
	bool duration_set;		/* bench: -t given */
	int process_cpu;		/* iperf3 -c -A N: this process's core */
	bool reported;			/* the parser printed its own error */
	char why[200];			/* or: the error, printed by the driver */
};

struct nd_opt {
	const char *name;		/* long */
	char short_name;		/* 0: none */
	int has_arg;			/* no_argument, required_argument, optional_argument */
	int id;				/* getopt's value when not short_name (ND_OPT_*) */
	unsigned cmds;			/* ND_IN_* */
	int (*parse)(const struct nd_opt *row, const char *arg, struct nd_opt_ctx *ctx);
	enum nd_opt_set set;
	enum nd_opt_base base;
	size_t off;
	long lo, hi;			/* ND_SET_LONG's range; ND_SET_INT's value in lo */
	int radix;
	const char *metavar;		/* for --help */
	const char *hint;		/* bench: what a valid value looks like */
	const char *help;
};

/* A row's parser: 0, ND_OPT_STOP (exit 0 now), or a negative errno. */
#define ND_OPT_STOP 1

extern const struct nd_opt nd_opts[];
extern const size_t nd_opts_count;

#define ND_OPTS_MAX 80		/* rows of one command */

/* getopt_long's arrays for one command, built from the table. */
struct nd_opt_getopt {
	struct option longs[ND_OPTS_MAX + 1];
	char shorts[2 * ND_OPTS_MAX + 1];
};

int nd_opt_val(const struct nd_opt *row);
/* The row that parses getopt's c under cmd: the first, so an alias's primary. */
const struct nd_opt *nd_opts_find(unsigned cmd, int c);
void nd_opts_getopt(unsigned cmd, struct nd_opt_getopt *g);
/* getopt_long over argv with cmd's rows: 0 (optind: the first operand),
 * ND_OPT_STOP, or a negative errno after the message. */
int nd_opts_parse(int argc, char **argv, struct nd_opt_ctx *ctx);
/* One "  -x, --name ARG   help" line per row of cmd. */
void nd_opts_help(FILE *f, unsigned cmd);
int nd_opt_help(const struct nd_opt *row, const char *arg, struct nd_opt_ctx *ctx);

/* Parsers of rows, by the file that holds them. */
/* iperf_flags.c */
int nd_opt_iperf_flag(const struct nd_opt *row, const char *arg, struct nd_opt_ctx *ctx);
/* bench_opts.c */
int nd_opt_bench_time(const struct nd_opt *row, const char *arg, struct nd_opt_ctx *ctx);
int nd_opt_bench_interval(const struct nd_opt *row, const char *arg, struct nd_opt_ctx *ctx);
int nd_opt_bench_bytes(const struct nd_opt *row, const char *arg, struct nd_opt_ctx *ctx);
int nd_opt_bench_blocks(const struct nd_opt *row, const char *arg, struct nd_opt_ctx *ctx);
int nd_opt_bench_bitrate(const struct nd_opt *row, const char *arg, struct nd_opt_ctx *ctx);
int nd_opt_bench_length(const struct nd_opt *row, const char *arg, struct nd_opt_ctx *ctx);
int nd_opt_bench_window(const struct nd_opt *row, const char *arg, struct nd_opt_ctx *ctx);
int nd_opt_bench_cpus(const struct nd_opt *row, const char *arg, struct nd_opt_ctx *ctx);
int nd_opt_bench_iperf3_affinity(const struct nd_opt *row, const char *arg,
				 struct nd_opt_ctx *ctx);
int nd_opt_bench_spread(const struct nd_opt *row, const char *arg, struct nd_opt_ctx *ctx);
int nd_opt_bench_sample_if(const struct nd_opt *row, const char *arg, struct nd_opt_ctx *ctx);
/* serve_opts.c */
int nd_opt_serve_ports(const struct nd_opt *row, const char *arg, struct nd_opt_ctx *ctx);
int nd_opt_serve_memory(const struct nd_opt *row, const char *arg, struct nd_opt_ctx *ctx);
int nd_opt_serve_bitrate_limit(const struct nd_opt *row, const char *arg,
			       struct nd_opt_ctx *ctx);
int nd_opt_serve_max_tests(const struct nd_opt *row, const char *arg, struct nd_opt_ctx *ctx);
int nd_opt_serve_idle(const struct nd_opt *row, const char *arg, struct nd_opt_ctx *ctx);
int nd_opt_serve_skew(const struct nd_opt *row, const char *arg, struct nd_opt_ctx *ctx);
/* serve_iperf.c */
int nd_opt_serve_iperf(const struct nd_opt *row, const char *arg, struct nd_opt_ctx *ctx);

#endif
