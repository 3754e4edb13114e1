/*
 * cmd_serve.c - `nicdoctor serve`: an iperf3-compatible server.  -1 runs one
 * test and exits; --max-tests N runs up to N tests from different clients
 * at once, within one budget of streams and buffer memory (--max-streams,
 * --max-memory); --idle-timeout bounds every control read, --rcv-timeout
 * the silence of a client in any state.  A diagnose client
 * is told this host's own findings for the interface the test arrives on,
 * unless --no-share or "share = no" in the config file says otherwise.
 */
#include <errno.h>
#include <sched.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "nicdoctor/cmd.h"
#include "nicdoctor/common.h"
#include "nicdoctor/engine.h"
#include "nicdoctor/iperf_flags.h"
#include "nicdoctor/share.h"

#define SERVE_CONFIG_DEFAULT "/etc/nicdoctor/serve.conf"

enum {
	OPT_MAX_TESTS = 256, OPT_IDLE_TIMEOUT, OPT_TESTS, OPT_NO_SHARE, OPT_CONFIG,
	OPT_RCV_TIMEOUT, OPT_MAX_STREAMS, OPT_MAX_MEMORY,
};

static const struct option serve_options[] = {
	{ "port", required_argument, NULL, 'p' },
	{ "one-off", no_argument, NULL, '1' },
	{ "bind", required_argument, NULL, 'B' },
	{ "version4", no_argument, NULL, '4' },
	{ "version6", no_argument, NULL, '6' },
	{ "max-tests", required_argument, NULL, OPT_MAX_TESTS },
	{ "idle-timeout", required_argument, NULL, OPT_IDLE_TIMEOUT },
	{ "rcv-timeout", required_argument, NULL, OPT_RCV_TIMEOUT },
	{ "max-streams", required_argument, NULL, OPT_MAX_STREAMS },
	{ "max-memory", required_argument, NULL, OPT_MAX_MEMORY },
	{ "tests", required_argument, NULL, OPT_TESTS },
	{ "quiet", no_argument, NULL, 'q' },
	{ "no-share", no_argument, NULL, OPT_NO_SHARE },
	{ "config", required_argument, NULL, OPT_CONFIG },
	/* iperf3 3.21's server-side flags (iperf_flags.h, parse_iperf_flag) */
	{ "json", no_argument, NULL, 'J' },
	{ "verbose", no_argument, NULL, 'V' },
	{ "format", required_argument, NULL, 'f' },
	{ "interval", required_argument, NULL, 'i' },
	{ "affinity", required_argument, NULL, 'A' },
	{ "bind-dev", required_argument, NULL, ND_OPT_BIND_DEV },
	{ "version", no_argument, NULL, 'v' },
	{ "debug", optional_argument, NULL, 'd' },
	{ "forceflush", no_argument, NULL, ND_OPT_FORCEFLUSH },
	{ "sctp", no_argument, NULL, ND_OPT_SCTP },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* The signal handler's only way to reach the loop: an atomic flag store. */
static struct nd_server *signal_target;

static void on_signal(int sig)
{
	(void)sig;
	if (signal_target)
		nd_server_request_stop(signal_target);
}

struct serve_opts {
	bool share;			/* answer diagnose clients with our findings */
	bool no_share_flag;
	const char *config;		/* NULL: the default file, if it exists */
};

static void usage(FILE *f)
{
	fprintf(f, "usage: nicdoctor serve [-p PORT] [-1] [-B ADDR] [-4|-6] [--max-tests N]\n"
		   "         [--max-streams N] [--max-memory SIZE] [--idle-timeout S]\n"
		   "         [--rcv-timeout MS] [--tests N] [-q] [--no-share] [--config FILE]\n"
		   "         [-J] [-V] [-f UNIT] [-i S] [-A CPU] [--bind-dev DEV] [-v] [-d]\n"
		   "         [--forceflush]\n");
}

static cJSON *peer_payload(const struct sockaddr *local, void *arg)
{
	const struct serve_opts *o = arg;

	return nd_share_payload(local, o->share);
}

/* --no-share wins over the file; a missing default file means "share". */
static int apply_config(struct serve_opts *o)
{
	const char *path = o->config ? o->config : SERVE_CONFIG_DEFAULT;
	char err[300];

	o->share = true;
	if (!o->config && access(path, F_OK) != 0)
		goto done;
	if (nd_share_read_config(path, &o->share, err, sizeof(err)) < 0) {
		nd_err("%s", err);
		return -EINVAL;
	}
done:
	if (o->no_share_flag)
		o->share = false;
	return 0;
}

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
static int parse_iperf_flag(int c, const char *arg, struct nd_server_config *cfg)
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
	case 'd': case ND_OPT_FORCEFLUSH:
		return 0;	/* every line is flushed already; no debug output here */
	case ND_OPT_SCTP:
		nd_err("SCTP is not supported: nicdoctor measures TCP and UDP only");
		return -EINVAL;
	}
	nd_err("serve: invalid value '%s'", arg ? arg : "");
	return -EINVAL;
}

static int parse_args(int argc, char **argv, struct nd_server_config *cfg,
		      struct serve_opts *o)
{
	long v;
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "p:1B:46qh" "JVf:i:A:vd", serve_options,
				NULL)) != -1) {
		switch (c) {
		case 'p':
			if (nd_parse_long(optarg, 10, 1, 65535, &v))
				goto bad;
			cfg->port = (uint16_t)v;
			break;
		case '1': cfg->one_off = 1; break;
		case 'B': cfg->bind_addr = optarg; break;
		case '4': cfg->family = AF_INET; break;
		case '6': cfg->family = AF_INET6; break;
		case 'q': cfg->quiet = true; break;
		case OPT_NO_SHARE: o->no_share_flag = true; break;
		case OPT_CONFIG: o->config = optarg; break;
		case OPT_MAX_TESTS:
			if (nd_parse_long(optarg, 10, 1, 64, &v))
				goto bad;
			cfg->max_tests = (int)v;
			break;
		case OPT_IDLE_TIMEOUT:
			if (nd_parse_long(optarg, 10, 1, 3600, &v))
				goto bad;
			cfg->idle_timeout_ms = (int)v * 1000;
			break;
		case OPT_RCV_TIMEOUT:
			if (nd_parse_long(optarg, 10, 1, 3600000, &v))
				goto bad;
			cfg->rcv_timeout_ms = (int)v;
			break;
		case OPT_MAX_STREAMS:
			if (nd_parse_long(optarg, 10, 1, 64 * 2 * ND_ENGINE_MAX_STREAMS, &v))
				goto bad;
			cfg->max_streams = (int)v;
			break;
		case OPT_MAX_MEMORY:
			if (parse_size(optarg, &cfg->max_memory_bytes))
				goto bad;
			break;
		case OPT_TESTS:
			if (nd_parse_long(optarg, 10, 1, 1000000, &v))
				goto bad;
			cfg->one_off = (int)v;
			break;
		case 'h': usage(stdout); return 1;
		case 'J': case 'V': case 'f': case 'i': case 'A': case 'v': case 'd':
		case ND_OPT_BIND_DEV: case ND_OPT_FORCEFLUSH: case ND_OPT_SCTP:
			v = parse_iperf_flag(c, optarg, cfg);
			if (v)
				return (int)v;
			break;
		default:
			nd_err("serve: unknown or incomplete option '%s'", argv[optind - 1]);
			return -EINVAL;
		}
	}
	if (optind < argc) {
		nd_err("unexpected argument '%s'", argv[optind]);
		return -EINVAL;
	}
	return 0;
bad:
	nd_err("serve: invalid value '%s'", optarg);
	return -EINVAL;
}

int cmd_serve(int argc, char **argv)
{
	struct nd_server_config cfg;
	struct serve_opts opts = { 0 };
	struct nd_server *server;
	struct sigaction sa;
	int rc;

	nd_server_config_init(&cfg);
	rc = parse_args(argc, argv, &cfg, &opts);
	if (rc != 0)
		return rc > 0 ? ND_EXIT_OK : ND_EXIT_USAGE;
	if (apply_config(&opts) < 0)
		return ND_EXIT_USAGE;
	cfg.peer_payload = peer_payload;
	cfg.peer_payload_arg = &opts;
	rc = nd_server_create(&cfg, &server);
	if (rc < 0) {
		nd_err("cannot listen on port %u: %s", cfg.port, strerror(-rc));
		return ND_EXIT_ENV;
	}
	signal_target = server;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
	nd_server_run(server);
	signal_target = NULL;
	nd_server_destroy(server);
	return ND_EXIT_OK;
}
