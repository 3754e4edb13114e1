/*
 * iperf_flags.c - the iperf3 3.21 flags bench and serve take beyond their
 * core sets, with 3.21's meanings (its iperf_parse_arguments), and the
 * output plumbing they need: --logfile, the -T/--timestamps line prefix
 * (a stdio cookie stream, so every text line gets it, whoever prints it),
 * --json-stream's stream, -I pidfile.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "nicdoctor/common.h"
#include "iperf_flags.h"
#include "iperf_opts.h"

#define ND_TIMESTAMP_FORMAT "%c "	/* iperf3's TIMESTAMP_FORMAT */
#define ND_IPERF_TIME_MAX_MS (86400 * 1000)

/* iperf3's --dscp names (dscp.c), as TOS byte values. */
static const struct { const char *name; int tos; } dscp_names[] = {
	{ "af11", 0x28 }, { "af12", 0x30 }, { "af13", 0x38 }, { "af21", 0x48 },
	{ "af22", 0x50 }, { "af23", 0x58 }, { "af31", 0x68 }, { "af32", 0x70 },
	{ "af33", 0x78 }, { "af41", 0x88 }, { "af42", 0x90 }, { "af43", 0x98 },
	{ "cs0", 0x00 }, { "cs1", 0x20 }, { "cs2", 0x40 }, { "cs3", 0x60 },
	{ "cs4", 0x80 }, { "cs5", 0xa0 }, { "cs6", 0xc0 }, { "cs7", 0xe0 },
	{ "ef", 0xb8 }, { "va", 0xb0 }, { "lowdelay", 0x10 }, { "throughput", 0x08 },
	{ "reliability", 0x04 },
};

static int parse_dscp(const char *text, int *ret_tos)
{
	long v;

	for (size_t i = 0; i < ND_ARRAY_SIZE(dscp_names); i++)
		if (!strcasecmp(text, dscp_names[i].name)) {
			*ret_tos = dscp_names[i].tos;
			return 0;
		}
	if (nd_parse_long(text, 0, 0, 63, &v) < 0)
		return -EINVAL;
	*ret_tos = (int)v << 2;
	return 0;
}

/* "1G", "5m", "100k": bits/s, 1000-based as iperf3's unit_atof_rate. */
static int parse_rate(const char *text, uint64_t *ret)
{
	const char *end;
	double v;

	if (nd_parse_rate_si(text, &v, &end) < 0 || *end || v > 4e18)
		return -EINVAL;
	*ret = (uint64_t)v;
	return 0;
}

/* --cntl-ka[=IDLE/INTV/CNT], each part optional; IDLE must exceed INTV*CNT. */
static int parse_keepalive(const char *text, struct nd_engine_params *p)
{
	int *dst[3] = { &p->cntl_ka_idle, &p->cntl_ka_intv, &p->cntl_ka_cnt };
	const char *s = text;

	p->cntl_ka = true;
	for (int i = 0; s && *s && i < 3; i++) {
		char *end = (char *)s;
		long v = *s == '/' ? 0 : strtol(s, &end, 10);

		if (*s != '/' && (end == s || v < 0 || v > 86400 || (*end && *end != '/')))
			return -EINVAL;
		*dst[i] = (int)v;
		s = strchr(s, '/');
		if (s)
			s++;
	}
	if (s && *s)
		return -EINVAL;
	if (p->cntl_ka_idle && p->cntl_ka_idle <= p->cntl_ka_intv * p->cntl_ka_cnt)
		return -EINVAL;
	return 0;
}

static int refuse(char *why, size_t size, const char *text)
{
	snprintf(why, size, "%s", text);
	return -ENOTSUP;
}

/* -m: only where the kernel runs MPTCP (net.mptcp.enabled). */
static int mptcp_check(char *why, size_t size)
{
	FILE *f = fopen("/proc/sys/net/mptcp/enabled", "r");
	int on = 0;

	if (f) {
		if (fscanf(f, "%d", &on) != 1)
			on = 0;
		fclose(f);
	}
	if (on == 1)
		return 0;
	refuse(why, size, f ? "-m/--mptcp: MPTCP is disabled in this kernel "
			  "(net.mptcp.enabled = 0)" :
			  "-m/--mptcp: this kernel has no MPTCP (no /proc/sys/net/mptcp/enabled)");
	return -ENOPROTOOPT;	/* the host's, not the command line's fault */
}

static int output_flag(int c, const char *arg, struct nd_engine_params *p,
		       struct nd_iperf_out *o)
{
	switch (c) {
	case 'V': o->out.verbose = true; return 0;
	case 'f':
		if (!arg[0] || arg[1] || !strchr("kKmMgGtTaA", arg[0]))
			return -EINVAL;
		o->out.format = strchr("aA", arg[0]) ? 0 : arg[0];
		return 0;
	case 'v': o->version = true; return 0;
	case ND_OPT_JSON_STREAM: o->json_stream = true; return 0;
	case ND_OPT_JSON_STREAM_FULL: o->json_stream_full = true; return 0;	/* with --json-stream */
	case ND_OPT_FORCEFLUSH: o->forceflush = true; return 0;
	case ND_OPT_TIMESTAMPS:
		o->timestamps = true;
		o->ts_format = arg ? arg : ND_TIMESTAMP_FORMAT;
		return 0;
	case ND_OPT_LOGFILE: o->logfile = arg; return 0;
	case 'I': o->pidfile = arg; return 0;
	case 'd':
		p->debug = nd_iperf_debug_level(arg);
		return p->debug < 0 ? -EINVAL : 0;
	default:
		return 1;
	}
}

int nd_iperf_debug_level(const char *arg)
{
	long v = 4;

	if (arg && nd_parse_long(arg, 10, 0, 4, &v) < 0)
		return -EINVAL;
	return v ? (int)v : 4;
}

/* --cport PORT (iperf3's: stream i binds PORT+i) or FIRST-LAST (ours: the
 * ports a run may bind, --spread chooses among them). */
static int parse_cport(const char *arg, struct nd_engine_params *p)
{
	const char *dash = strchr(arg, '-');
	char first[8];
	long a, b = 0;

	if (!dash) {
		if (nd_parse_long(arg, 10, 1, 65535, &a) < 0)
			return -EINVAL;
		p->cport = (uint16_t)a;
		p->cport_last = 0;
		return 0;
	}
	if ((size_t)(dash - arg) >= sizeof(first))
		return -EINVAL;
	memcpy(first, arg, (size_t)(dash - arg));
	first[dash - arg] = '\0';
	if (nd_parse_long(first, 10, 1, 65535, &a) < 0 ||
	    nd_parse_long(dash + 1, 10, 1, 65535, &b) < 0 || b < a)
		return -EINVAL;
	p->cport = (uint16_t)a;
	p->cport_last = (uint16_t)b;
	return 0;
}

int nd_iperf_flag(int c, const char *arg, struct nd_engine_params *p, struct nd_iperf_out *o,
		  char *why, size_t why_size)
{
	long v;
	int rc = output_flag(c, arg, p, o);

	if (rc <= 0)
		return rc;
	switch (c) {
	case ND_OPT_BIND_DEV:
		if (nd_ifname_valid(arg) < 0)
			return -EINVAL;
		p->bind_dev = arg;
		return 0;
	case ND_OPT_CPORT: return parse_cport(arg, p);
	case 'm':
		rc = mptcp_check(why, why_size);
		p->mptcp = rc == 0;
		return rc;
	case ND_OPT_DONT_FRAGMENT: p->dont_fragment = true; return 0;
	case ND_OPT_DSCP: return parse_dscp(arg, &p->tos);
	case 'L':
		if (nd_parse_long(arg, 0, 1, 0xfffff, &v) < 0)
			return -EINVAL;
		p->flowlabel = (uint32_t)v;
		return 0;
	case ND_OPT_PACING_TIMER:
		if (nd_parse_long(arg, 10, 1, 1000000000, &v) < 0)
			return -EINVAL;
		p->pacing_timer_usec = (int)v;
		return 0;
	case ND_OPT_FQ_RATE: return parse_rate(arg, &p->fq_rate_bps);
	case ND_OPT_NO_FQ_PACING: p->fq_rate_bps = 0; return 0;	/* deprecated in 3.21 */
	case ND_OPT_EXTRA_DATA: p->extra_data = arg; return 0;
	case ND_OPT_REPEATING_PAYLOAD: p->repeating_payload = true; return 0;
	case ND_OPT_UDP_64BIT: return 0;	/* ours are always 64-bit */
	case ND_OPT_GSRO: p->gsro = true; return 0;
	case ND_OPT_CNTL_KA: return parse_keepalive(arg, p);
	case ND_OPT_SND_TIMEOUT:
		if (nd_parse_long(arg, 10, 0, ND_IPERF_TIME_MAX_MS, &v) < 0)
			return -EINVAL;
		p->snd_timeout_ms = (int)v;
		return 0;
	case 'F': p->file = arg; return 0;
	case ND_OPT_SCTP: case ND_OPT_NSTREAMS: case 'X':
		return refuse(why, why_size, "SCTP is not supported: nicdoctor measures TCP and "
			      "UDP only (iperf3 3.21 built here has no SCTP either)");
	default:
		return -EINVAL;
	}
}

/* The table's rows of these flags (iperf_opts_table.c), bench's and serve's. */
int nd_opt_iperf_flag(const struct nd_opt *row, const char *arg, struct nd_opt_ctx *ctx)
{
	return nd_iperf_flag(nd_opt_val(row), arg, ctx->base[ND_BASE_PARAMS],
			     ctx->base[ND_BASE_IOUT], ctx->why, sizeof(ctx->why));
}

static const char *split_one(const char *spec, char *buf, size_t size, const char **dev)
{
	struct in6_addr a6;
	char *pct;

	if (!spec || !strchr(spec, '%') || strlen(spec) >= size)
		return spec;
	nd_strlcpy(buf, spec, size);
	pct = strchr(buf, '%');
	*pct = '\0';
	if (!pct[1] || (inet_pton(AF_INET6, buf, &a6) == 1 && IN6_IS_ADDR_LINKLOCAL(&a6)))
		return spec;
	*dev = pct + 1;
	return buf;
}

void nd_iperf_split_dev(struct nd_engine_params *p, struct nd_iperf_out *o)
{
	const char *dev = NULL;

	p->host = split_one(p->host, o->host_buf, sizeof(o->host_buf), &dev);
	p->bind_addr = split_one(p->bind_addr, o->bind_buf, sizeof(o->bind_buf), &dev);
	if (dev && !p->bind_dev)
		p->bind_dev = dev;
}

int nd_iperf_finish(struct nd_engine_params *p, bool duration_set, struct nd_iperf_out *o,
		    char *why, size_t why_size)
{
	struct stat st;

	(void)o;
	if (p->bind_dev && nd_ifname_valid(p->bind_dev) < 0) {
		snprintf(why, why_size, "invalid interface name '%s' after %%", p->bind_dev);
		return -EINVAL;
	}
	if (!p->file)
		return 0;
	if (p->udp)
		return refuse(why, why_size, "-F/--file: cannot transfer a file over UDP "
			      "(as iperf3: its datagram header would overwrite the data)");
	if (!p->bytes_total && !p->blocks_total && !duration_set &&
	    stat(p->file, &st) == 0 && st.st_size > 0)
		p->bytes_total = (uint64_t)st.st_size;
	return 0;
}

/* The -T/--timestamps prefix: a cookie stream that starts every line with it. */
struct prefix_stream {
	FILE *to;
	const struct nd_iperf_out *o;
	bool at_line_start;
};

static ssize_t prefix_write(void *cookie, const char *buf, size_t size)
{
	struct prefix_stream *ps = cookie;

	for (size_t i = 0; i < size; i++) {
		if (ps->at_line_start) {
			if (ps->o->timestamps) {
				char stamp[128];
				time_t now = time(NULL);
				struct tm tm;

				localtime_r(&now, &tm);
				if (strftime(stamp, sizeof(stamp), ps->o->ts_format, &tm) > 0)
					fputs(stamp, ps->to);
			}
			if (ps->o->title)
				fprintf(ps->to, "%s:  ", ps->o->title);
			ps->at_line_start = false;
		}
		fputc(buf[i], ps->to);
		if (buf[i] == '\n') {
			ps->at_line_start = true;
			if (ps->o->forceflush)
				fflush(ps->to);
		}
	}
	return (ssize_t)size;
}

static int prefix_close(void *cookie)
{
	struct prefix_stream *ps = cookie;

	fflush(ps->to);
	free(ps);
	return 0;
}

static FILE *prefix_open(FILE *to, const struct nd_iperf_out *o)
{
	cookie_io_functions_t io = { .write = prefix_write, .close = prefix_close };
	struct prefix_stream *ps = calloc(1, sizeof(*ps));
	FILE *f;

	if (!ps)
		return NULL;
	*ps = (struct prefix_stream){ .to = to, .o = o, .at_line_start = true };
	f = fopencookie(ps, "w", io);
	if (!f) {
		free(ps);
		return NULL;
	}
	/* Line-buffered, so interval lines go out when they are printed. */
	setvbuf(f, NULL, _IOLBF, 0);
	return f;
}

int nd_iperf_out_open(struct nd_iperf_out *o, char *why, size_t why_size)
{
	o->raw = stdout;
	if (o->logfile) {
		o->raw = fopen(o->logfile, "a");
		if (!o->raw) {
			int rc = -errno;

			snprintf(why, why_size, "cannot open log file '%s': %s", o->logfile,
				 strerror(errno));
			o->raw = stdout;
			return rc;
		}
		setvbuf(o->raw, NULL, _IOLBF, 0);
	}
	o->text = o->raw;
	if (o->title || o->timestamps) {
		o->text = prefix_open(o->raw, o);
		if (!o->text) {
			o->text = o->raw;
			return -ENOMEM;
		}
	}
	if (o->json_stream)
		o->out.json_stream = o->raw;
	if (o->pidfile) {
		FILE *pf = fopen(o->pidfile, "w");

		if (!pf) {
			int rc = -errno;

			snprintf(why, why_size, "cannot write PID file '%s': %s", o->pidfile,
				 strerror(-rc));
			return rc;
		}
		fprintf(pf, "%d", (int)getpid());
		fclose(pf);
		o->pidfile_written = true;
	}
	return 0;
}

void nd_iperf_out_close(struct nd_iperf_out *o)
{
	if (o->text && o->text != o->raw)
		fclose(o->text);
	if (o->raw && o->raw != stdout)
		fclose(o->raw);
	else
		fflush(stdout);
	if (o->pidfile_written)
		unlink(o->pidfile);
	o->text = o->raw = NULL;
}
