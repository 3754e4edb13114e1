/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench_opts.c - the parsers of bench's own rows of the option table
 * (iperf_opts_table.c): sizes, rates and seconds as bench has always
 * taken them, -A's CPU lists (bench's and iperf3's), --spread.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicdoctor/common.h"
#include "nicdoctor/net.h"
#include "iperf_opts.h"

/* Limits shared with the server's checks (params.c) and iperf3's. */
#define BENCH_TIME_MAX_SEC     86400.0
#define BENCH_INTERVAL_MIN_SEC 0.1
#define BENCH_INTERVAL_MAX_SEC 60.0
#define BENCH_AMOUNT_MAX       4.6e18	/* the server takes up to INT64_MAX / 2 */

/*
 * "128K", "1.5M", "2G": 1024-based for sizes, 1000-based for rates.  A size
 * is at least one byte or block; a rate is 0 (unlimited) or at least 1 bit/s,
 * so "0.5" is refused rather than truncated to a different meaning.
 */
static int parse_amount(const char *text, bool rate, uint64_t *ret)
{
	const char *end;
	double v, k = rate ? 1000.0 : 1024.0;

	if (nd_parse_decimal(text, &v, &end) < 0 || v < 0)
		return -EINVAL;
	switch (*end) {
	case 'k': case 'K': v *= k; end++; break;
	case 'm': case 'M': v *= k * k; end++; break;
	case 'g': case 'G': v *= k * k * k; end++; break;
	case 't': case 'T': v *= k * k * k * k; end++; break;
	default: break;
	}
	/* iperf3's "-b RATE/BURST": the burst is accepted and ignored. */
	if (*end != '\0' && !(rate && *end == '/'))
		return -EINVAL;
	if (v > BENCH_AMOUNT_MAX || (v < 1 && !(rate && v == 0)))
		return -ERANGE;
	*ret = (uint64_t)v;
	return 0;
}

/* Seconds for -t (1 to 86400: the wire carries whole seconds, and 0.4 would
 * reach the server as 0) and -i (0, or 0.1 to 60 as in iperf3). */
static int parse_seconds(const char *text, bool interval, double *ret)
{
	const char *end;
	double v;

	if (nd_parse_decimal(text, &v, &end) < 0 || *end)
		return -EINVAL;
	if (interval ? v != 0 && (v < BENCH_INTERVAL_MIN_SEC || v > BENCH_INTERVAL_MAX_SEC) :
		       v < 1 || v > BENCH_TIME_MAX_SEC)
		return -ERANGE;
	*ret = v;
	return 0;
}

/* "0,1,2" or "0-3": one CPU per stream, in order, repeats allowed. */
static int parse_cpus(const char *text, struct nd_engine_params *p)
{
	const char *s = text;

	p->cpus_count = 0;
	while (*s) {
		char *end;
		long a = strtol(s, &end, 10), b = a;

		if (end == s || a < 0 || a >= 4096)
			return -EINVAL;
		if (*end == '-') {
			s = end + 1;
			b = strtol(s, &end, 10);
			if (end == s || b < a || b >= 4096)
				return -EINVAL;
		}
		for (long c = a; c <= b; c++) {
			if (p->cpus_count >= ND_ENGINE_MAX_STREAMS)
				return -EINVAL;
			p->cpus[p->cpus_count++] = (int)c;
		}
		s = end;
		if (*s == ',')
			s++;
		else if (*s)
			return -EINVAL;
	}
	return p->cpus_count > 0 ? 0 : -EINVAL;
}

/*
 * iperf3's -A N[,M]: this process on core N (as iperf3, the number is read
 * up to the first non-digit), the server's test on core M.
 */
static int parse_iperf3_affinity(const char *text, struct nd_engine_params *p, int *ret_cpu)
{
	const char *comma = strchr(text, ',');
	char *end;
	long n = strtol(text, &end, 0), m;

	if (end == text || n < 0 || n > 1024)
		return -EINVAL;
	if (comma) {
		m = strtol(comma + 1, &end, 0);
		if (end == comma + 1 || m < 0 || m > 1024)
			return -EINVAL;
		p->server_affinity = (int)m;
	}
	*ret_cpu = (int)n;
	return 0;
}

#define PARAMS(ctx) ((struct nd_engine_params *)(ctx)->base[ND_BASE_PARAMS])

int nd_opt_bench_time(const struct nd_opt *row, const char *arg, struct nd_opt_ctx *ctx)
{
	(void)row;
	ctx->duration_set = true;
	return parse_seconds(arg, false, &PARAMS(ctx)->duration_sec);
}

int nd_opt_bench_interval(const struct nd_opt *row, const char *arg, struct nd_opt_ctx *ctx)
{
	(void)row;
	return parse_seconds(arg, true, &PARAMS(ctx)->interval_sec);
}

int nd_opt_bench_bytes(const struct nd_opt *row, const char *arg, struct nd_opt_ctx *ctx)
{
	(void)row;
	return parse_amount(arg, false, &PARAMS(ctx)->bytes_total) ? -EINVAL : 0;
}

int nd_opt_bench_blocks(const struct nd_opt *row, const char *arg, struct nd_opt_ctx *ctx)
{
	(void)row;
	return parse_amount(arg, false, &PARAMS(ctx)->blocks_total) ? -EINVAL : 0;
}

int nd_opt_bench_bitrate(const struct nd_opt *row, const char *arg, struct nd_opt_ctx *ctx)
{
	struct nd_engine_params *p = PARAMS(ctx);

	(void)row;
	if (parse_amount(arg, true, &p->rate_bps))
		return -EINVAL;
	p->rate_set = true;
	return 0;
}

int nd_opt_bench_length(const struct nd_opt *row, const char *arg, struct nd_opt_ctx *ctx)
{
	uint64_t amount;

	(void)row;
	if (parse_amount(arg, false, &amount) || !amount || amount > ND_TCP_LEN_MAX)
		return -EINVAL;
	PARAMS(ctx)->len_bytes = (uint32_t)amount;
	return 0;
}

int nd_opt_bench_window(const struct nd_opt *row, const char *arg, struct nd_opt_ctx *ctx)
{
	uint64_t amount;

	(void)row;
	if (parse_amount(arg, false, &amount) || !amount || amount > (1u << 30))
		return -EINVAL;
	PARAMS(ctx)->window_bytes = (uint32_t)amount;
	return 0;
}

int nd_opt_bench_cpus(const struct nd_opt *row, const char *arg, struct nd_opt_ctx *ctx)
{
	(void)row;
	return parse_cpus(arg, PARAMS(ctx));
}

int nd_opt_bench_iperf3_affinity(const struct nd_opt *row, const char *arg,
				 struct nd_opt_ctx *ctx)
{
	(void)row;
	return parse_iperf3_affinity(arg, PARAMS(ctx), &ctx->process_cpu);
}

int nd_opt_bench_sample_if(const struct nd_opt *row, const char *arg, struct nd_opt_ctx *ctx)
{
	(void)row;
	if (nd_ifname_valid(arg) < 0)
		return -EINVAL;
	PARAMS(ctx)->ifname = arg;
	return 0;
}

int nd_opt_bench_spread(const struct nd_opt *row, const char *arg, struct nd_opt_ctx *ctx)
{
	struct bench_targets *tg = ctx->base[ND_BASE_TARGETS];

	(void)row;
	tg->spread = arg ? arg : "place";
	if (strcmp(tg->spread, "place") && strcmp(tg->spread, "count")) {
		snprintf(ctx->why, sizeof(ctx->why),
			 "bench: invalid value '%s' for --spread: place or count", arg);
		return -EINVAL;
	}
	return 0;
}
