/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * serve_opts.c - the parsers of serve's own rows of the option table
 * (iperf_opts_table.c) that a field setter cannot be: port ranges, sizes,
 * --server-bitrate-limit, and the flags that set two fields.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicdoctor/common.h"
#include "iperf_opts.h"

#define CFG(ctx) ((struct nd_server_config *)(ctx)->base[ND_BASE_CFG])

/* "512M", "1G", "65536": bytes, K/M/G binary as iperf3's sizes; 1 MiB..1 TiB. */
static int parse_size(const char *text, uint64_t *ret_bytes)
{
	char *end;
	unsigned long long v;
	unsigned shift = 0;

	errno = 0;
	v = strtoull(text, &end, 10);
	if (end == text || errno || *text == '-')
		return -EINVAL;
	switch (*end) {
	case 'k': case 'K': shift = 10; end++; break;
	case 'm': case 'M': shift = 20; end++; break;
	case 'g': case 'G': shift = 30; end++; break;
	}
	if (*end || v > (1ULL << 40) >> shift || v << shift < (1ULL << 20))
		return -EINVAL;
	*ret_bytes = (uint64_t)v << shift;
	return 0;
}

/*
 * --server-bitrate-limit RATE[/S]: bits/s with iperf3's decimal K, M, G, T
 * and an averaging interval of 0.1 to 60 s (0: checked at the start only).
 */
static int parse_bitrate_limit(const char *text, struct nd_server_config *cfg)
{
	const char *end;
	double v, iv = cfg->bitrate_limit_interval_sec;

	if (nd_parse_rate_si(text, &v, &end) < 0)
		return -EINVAL;
	if (*end == '/') {
		if (nd_parse_decimal(end + 1, &iv, &end) < 0 || (iv != 0 && (iv < 0.1 || iv > 60)))
			return -EINVAL;
	}
	if (*end || v > 1e15)
		return -EINVAL;
	cfg->bitrate_limit_bps = (uint64_t)v;
	cfg->bitrate_limit_interval_sec = iv;
	return 0;
}

/* -p PORT or FIRST-LAST: one listening socket per port (listeners.c). */
int nd_opt_serve_ports(const struct nd_opt *row, const char *arg, struct nd_opt_ctx *ctx)
{
	struct nd_server_config *cfg = CFG(ctx);
	uint16_t ports[ND_SERVER_LISTEN_MAX];
	char err[160];
	int n = 0, rc = nd_ports_parse(arg, ports, ND_SERVER_LISTEN_MAX, &n, err, sizeof(err));

	if (rc == 0 && (strchr(arg, ',') || ports[n - 1] - ports[0] + 1 != n))
		rc = -EINVAL, snprintf(err, sizeof(err), "invalid port '%s': PORT or FIRST-LAST", arg);
	(void)row;
	if (rc < 0) {
		snprintf(ctx->why, sizeof(ctx->why), "%s", err);
		return -EINVAL;
	}
	cfg->port = ports[0];
	cfg->port_last = n > 1 ? ports[n - 1] : 0;
	return 0;
}

int nd_opt_serve_memory(const struct nd_opt *row, const char *arg, struct nd_opt_ctx *ctx)
{
	(void)row;
	return parse_size(arg, &CFG(ctx)->max_memory_bytes);
}

int nd_opt_serve_bitrate_limit(const struct nd_opt *row, const char *arg,
			       struct nd_opt_ctx *ctx)
{
	(void)row;
	return parse_bitrate_limit(arg, CFG(ctx));
}

/* --max-tests N: given, so a config default does not replace it. */
int nd_opt_serve_max_tests(const struct nd_opt *row, const char *arg, struct nd_opt_ctx *ctx)
{
	long v;

	(void)row;
	if (nd_parse_long(arg, 10, 1, 64, &v))
		return -EINVAL;
	CFG(ctx)->max_tests = (int)v;
	CFG(ctx)->max_tests_given = true;
	return 0;
}

int nd_opt_serve_idle(const struct nd_opt *row, const char *arg, struct nd_opt_ctx *ctx)
{
	long v;

	(void)row;
	if (nd_parse_long(arg, 10, 1, 3600, &v))
		return -EINVAL;
	CFG(ctx)->idle_timeout_ms = (int)v * 1000;
	return 0;
}

/* iperf3: a positive number of seconds. */
int nd_opt_serve_skew(const struct nd_opt *row, const char *arg, struct nd_opt_ctx *ctx)
{
	struct serve_opts *o = ctx->base[ND_BASE_SERVE];
	long v;

	(void)row;
	if (nd_parse_long(arg, 10, 1, 86400 * 366, &v))
		return -EINVAL;
	o->auth.skew_threshold_sec = (int)v;
	o->skew_set = true;
	return 0;
}
