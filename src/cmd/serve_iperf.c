/*
 * serve_iperf.c - iperf3 3.21's "Server or Client" flags as `serve` takes
 * them (its own -J -V -f -i -A --bind-dev -v -d --json-stream; the option
 * table gives --timestamps, -F, --snd-timeout, --cntl-ka, -m, --cport to
 * bench's parser in iperf_flags.c) with 3.21's server meanings, and the --timestamps prefix
 * on everything the server prints.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "nicdoctor/common.h"
#include "nicdoctor/engine.h"
#include "iperf_flags.h"
#include "serve_iperf.h"
#include "iperf_opts.h"

/* -A N: the whole server on core N, as iperf3 -s -A pins its process. */
static int set_affinity(const char *text)
{
	cpu_set_t set;
	long cpu;

	if (nd_parse_long(text, 0, 0, CPU_SETSIZE - 1, &cpu) < 0)
		return -EINVAL;
	CPU_ZERO(&set);
	CPU_SET((int)cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) < 0 ? -errno : 0;
}

/* iperf3's server flags: 0, 1 (done, exit 0) or a negative errno after the message. */
int nd_serve_iperf_flag(int c, const char *arg, struct nd_server_config *cfg)
{
	double secs;
	const char *end;
	int rc;

	switch (c) {
	case 'J': cfg->json_log = true; return 0;
	case 'V': cfg->verbose_text = true; return 0;
	case 'f':
		if (!arg[0] || arg[1] || !strchr("kKmMgGtTaA", arg[0]))
			break;
		cfg->format = strchr("aA", arg[0]) ? 0 : arg[0];
		return 0;
	case 'i':
		if (nd_parse_decimal(arg, &secs, &end) < 0 || *end ||
		    (secs != 0 && (secs < 0.1 || secs > 60)))
			break;
		cfg->interval_set = true;
		cfg->interval_sec = secs;
		return 0;
	case 'A':
		rc = set_affinity(arg);
		if (rc == -EINVAL)
			break;
		if (rc < 0)
			nd_err("serve: cannot run on CPU '%s': %s", arg, strerror(-rc));
		return rc;
	case ND_OPT_BIND_DEV:
		if (nd_ifname_valid(arg) < 0)
			break;
		cfg->bind_dev = arg;
		return 0;
	case 'v':
		printf("nicdoctor %s (iperf 3.21 compatible)\n", ND_VERSION);
		return 1;
	case 'd':	/* as the client's: states, parameters, results, on stderr */
		cfg->debug = nd_iperf_debug_level(arg);
		if (cfg->debug < 0)
			break;
		return 0;
	case ND_OPT_FORCEFLUSH:
		return 0;	/* every line is flushed already */
	case ND_OPT_SCTP: case ND_OPT_NSTREAMS: case 'X':
		nd_err("SCTP is not supported: nicdoctor measures TCP and UDP only");
		return -EINVAL;
	case ND_OPT_JSON_STREAM:	/* -J's content as event lines, as 3.21 */
		cfg->json_stream = cfg->json_log = true;
		return 0;
	case ND_OPT_JSON_STREAM_FULL:	/* alone it changes nothing, as in 3.21 */
		cfg->json_stream_full = true;
		return 0;
	}
	nd_err("serve: invalid value '%s'", arg ? arg : "");
	return -EINVAL;
}

/* The table's rows of these flags (iperf_opts_table.c); each says its own error. */
int nd_opt_serve_iperf(const struct nd_opt *row, const char *arg, struct nd_opt_ctx *ctx)
{
	int rc = nd_serve_iperf_flag(nd_opt_val(row), arg, ctx->base[ND_BASE_CFG]);

	ctx->reported = rc < 0;
	return rc > 0 ? ND_OPT_STOP : rc;
}

/* What iperf_flags.c parsed for serve (--timestamps, -F, --snd-timeout,
 * --cntl-ka, -m, --cport), as the server's settings. */
void nd_serve_apply_shared(const struct nd_engine_params *ip, struct nd_server_config *cfg)
{
	cfg->file = ip->file;
	cfg->snd_timeout_ms = ip->snd_timeout_ms;
	cfg->cntl_ka = ip->cntl_ka;
	cfg->cntl_ka_idle = ip->cntl_ka_idle;
	cfg->cntl_ka_intv = ip->cntl_ka_intv;
	cfg->cntl_ka_cnt = ip->cntl_ka_cnt;
	cfg->mptcp = ip->mptcp;
}

/* -B ADDR%DEV: the part after % is --bind-dev, as 3.21's server takes it. */
void nd_serve_split_bind(struct nd_engine_params *ip, struct nd_iperf_out *io,
			 struct nd_server_config *cfg)
{
	ip->host = NULL;
	ip->bind_addr = cfg->bind_addr;
	ip->bind_dev = NULL;
	nd_iperf_split_dev(ip, io);
	cfg->bind_addr = ip->bind_addr;
	if (ip->bind_dev && !cfg->bind_dev)
		cfg->bind_dev = ip->bind_dev;
}

/*
 * --timestamps: every line the server prints, from any thread, starts with
 * the time, so stdout itself becomes iperf_flags.c's prefix stream (as
 * daemon.c makes it syslog's); JSON goes to the stream beneath, unprefixed,
 * as 3.21 prints it.
 */
void nd_serve_output_start(struct nd_iperf_out *io, struct nd_server *server)
{
	char why[200] = "";

	if (!io->timestamps)
		return;
	/* Each line out at once, as the server's own lines are, whatever
	 * stdout is (a file or a pipe buffers the stream beneath). */
	io->forceflush = true;
	if (nd_iperf_out_open(io, why, sizeof(why)) < 0) {
		nd_err("serve: no timestamps: %s", why[0] ? why : strerror(ENOMEM));
		return;
	}
	nd_server_set_json_out(server, io->raw);
	stdout = io->text;
}

void nd_serve_output_stop(struct nd_iperf_out *io)
{
	if (!io->raw)
		return;
	fflush(stdout);
	stdout = io->raw;
	nd_iperf_out_close(io);
}

