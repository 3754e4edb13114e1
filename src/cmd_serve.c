/*
 * cmd_serve.c - `nicdoctor serve`: an iperf3-compatible server.  -1 runs one
 * test and exits; --max-tests N runs up to N tests from different clients
 * at once, within one budget of streams and buffer memory (--max-streams,
 * --max-memory); --idle-timeout bounds every control read, --rcv-timeout
 * the silence of a client in any state.  With --share (or "share = yes" in
 * the config file) a diagnose client is told this host's own findings for
 * the interface the test arrives on, if consent.c allows it that client.
 * --rsa-private-key-path and --authorized-users-path make every test
 * authenticate as with iperf3 -s.
 * As a service: -D detaches, -I writes a pidfile, --logfile (or syslog
 * under -D) takes the output; --server-max-duration and
 * --server-bitrate-limit bound what a client may ask, as in iperf3 3.21.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "nicdoctor/auth.h"
#include "nicdoctor/cmd.h"
#include "nicdoctor/common.h"
#include "nicdoctor/daemon.h"
#include "nicdoctor/engine.h"
#include "nicdoctor/iperf_flags.h"
#include "nicdoctor/multi.h"
#include "nicdoctor/serve_iperf.h"
#include "nicdoctor/share.h"

#define SERVE_CONFIG_DEFAULT "/etc/nicdoctor/serve.conf"

enum {
	OPT_MAX_TESTS = 256, OPT_IDLE_TIMEOUT, OPT_TESTS, OPT_NO_SHARE, OPT_CONFIG,
	OPT_RCV_TIMEOUT, OPT_MAX_STREAMS, OPT_MAX_MEMORY,
	/* Consent and authentication (issue 17), kept together. */
	OPT_SHARE, OPT_SHARE_FROM, OPT_RSA_PRIVATE_KEY, OPT_AUTH_USERS, OPT_SKEW, OPT_PKCS1,
	OPT_LOGFILE, OPT_MAX_DURATION, OPT_BITRATE_LIMIT,
};

/* iperf3 3.21's "Server or Client" flags that iperf_flags.c parses for both. */
#define SERVE_IPERF_SHARED(c) \
	((c) == ND_OPT_TIMESTAMPS || (c) == 'F' || (c) == ND_OPT_SND_TIMEOUT || \
	 (c) == ND_OPT_CNTL_KA || (c) == 'm' || (c) == ND_OPT_CPORT)

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
	{ "share", no_argument, NULL, OPT_SHARE },
	{ "share-from", required_argument, NULL, OPT_SHARE_FROM },
	{ "rsa-private-key-path", required_argument, NULL, OPT_RSA_PRIVATE_KEY },
	{ "authorized-users-path", required_argument, NULL, OPT_AUTH_USERS },
	{ "time-skew-threshold", required_argument, NULL, OPT_SKEW },
	{ "use-pkcs1-padding", no_argument, NULL, OPT_PKCS1 },
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
	{ "xbind", required_argument, NULL, 'X' },
	{ "nstreams", required_argument, NULL, ND_OPT_NSTREAMS },
	{ "json-stream", no_argument, NULL, ND_OPT_JSON_STREAM },
	{ "json-stream-full-output", no_argument, NULL, ND_OPT_JSON_STREAM_FULL },
	{ "timestamps", optional_argument, NULL, ND_OPT_TIMESTAMPS },
	{ "file", required_argument, NULL, 'F' },
	{ "snd-timeout", required_argument, NULL, ND_OPT_SND_TIMEOUT },
	{ "cntl-ka", optional_argument, NULL, ND_OPT_CNTL_KA },
	{ "mptcp", no_argument, NULL, 'm' },
	{ "cport", required_argument, NULL, ND_OPT_CPORT },
	{ "help", no_argument, NULL, 'h' },
	/* Service life and limits, iperf3 3.21's names. */
	{ "daemon", no_argument, NULL, 'D' },
	{ "pidfile", required_argument, NULL, 'I' },
	{ "logfile", required_argument, NULL, OPT_LOGFILE },
	{ "server-max-duration", required_argument, NULL, OPT_MAX_DURATION },
	{ "server-bitrate-limit", required_argument, NULL, OPT_BITRATE_LIMIT },
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

static void usage(FILE *f)
{
	fprintf(f, "usage: nicdoctor serve [-p PORT[-LAST]] [-1] [-B ADDR[%%DEV]] [-4|-6]\n"
		   "         [--max-tests N] [--max-streams N] [--max-memory SIZE]\n"
		   "         [--idle-timeout S]"
		   " [--rcv-timeout MS] [--tests N] [-q] [--config FILE]\n"
		   "         [--share [--share-from CIDR,...] | --no-share]\n"
		   "         [--rsa-private-key-path FILE --authorized-users-path FILE\n"
		   "          [--time-skew-threshold S] [--use-pkcs1-padding]]\n"
		   "         [-D] [-I PIDFILE] [--logfile FILE] [--server-max-duration S]\n"
		   "         [--server-bitrate-limit RATE[/S]]\n"
		   "         [-J] [-V] [-f UNIT] [-i S] [-A CPU] [--bind-dev DEV] [-v] [-d]\n"
		   "         [--forceflush] [--json-stream [--json-stream-full-output]]\n"
		   "         [--timestamps[=FORMAT]] [-F FILE] [--snd-timeout MS]\n"
		   "         [--cntl-ka[=IDLE/INTV/CNT]] [-m]\n");
}

static cJSON *peer_payload(const struct nd_peer_request *req, void *arg)
{
	const struct serve_opts *o = arg;
	char why[300];
	bool allowed = nd_share_allowed(&o->share, req->peer, req->authenticated, why,
					sizeof(why));

	return nd_share_payload(req->local, allowed, allowed ? NULL : why);
}

/* Flags win over the file; without either nothing is shared. */
static int apply_config(struct serve_opts *o)
{
	const char *path = o->config ? o->config : SERVE_CONFIG_DEFAULT;
	char err[300];

	o->share.share = false;
	if (!o->config && access(path, F_OK) != 0)
		goto done;
	if (nd_share_read_config(path, &o->share.share, err, sizeof(err)) < 0) {
		nd_err("%s", err);
		return -EINVAL;
	}
done:
	if (o->share_flag)
		o->share.share = true;
	if (o->no_share_flag)
		o->share.share = false;
	if (o->share_from && nd_share_parse_nets(o->share_from, &o->share, err, sizeof(err)) < 0) {
		nd_err("%s", err);
		return -EINVAL;
	}
	return 0;
}

/* iperf3's server authentication: both files or neither, checked now so a
 * wrong path fails at start and not at the first client. */
static int setup_auth(struct serve_opts *o, struct nd_server_config *cfg)
{
	char err[300], *text = NULL;
	size_t len;
	int rc;

	if (!o->private_key_path && !o->auth.users_path) {
		if (!o->skew_set && !o->auth.pkcs1)
			return 0;
		nd_err("serve: --time-skew-threshold and --use-pkcs1-padding need "
		       "--rsa-private-key-path and --authorized-users-path");
		return ND_EXIT_USAGE;
	}
	if (!o->private_key_path || !o->auth.users_path) {
		nd_err("serve: --rsa-private-key-path and --authorized-users-path go together");
		return ND_EXIT_USAGE;
	}
	rc = nd_auth_key_load(o->private_key_path, true, &o->auth.private_key, err, sizeof(err));
	if (rc == 0) {
		rc = nd_auth_users_read(o->auth.users_path, &text, &len, err, sizeof(err));
		free(text);
	}
	if (rc < 0) {
		nd_err("serve: %s", err);
		nd_auth_key_free(o->auth.private_key);
		o->auth.private_key = NULL;
		return ND_EXIT_ENV;
	}
	if (!o->skew_set)
		o->auth.skew_threshold_sec = ND_AUTH_SKEW_DEFAULT_SEC;
	o->share.auth_required = true;
	cfg->auth = &o->auth;
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

/* The options of serve's life as a service; 1: not one of them. */
static int parse_service_arg(int c, const char *arg, struct nd_server_config *cfg,
			     struct serve_opts *o)
{
	long v;

	switch (c) {
	case 'D': o->daemon = true; return 0;
	case 'I': o->pidfile_arg = arg; return 0;
	case OPT_LOGFILE: o->logfile = arg; return 0;
	case OPT_MAX_DURATION:
		if (nd_parse_long(arg, 10, 0, 86400, &v))
			return -EINVAL;
		cfg->max_duration_sec = (int)v;
		return 0;
	case OPT_BITRATE_LIMIT:
		return parse_bitrate_limit(arg, cfg);
	default:
		return 1;
	}
}

/* -p PORT or FIRST-LAST: one listening socket per port (listeners.c). */
static int serve_parse_ports(const char *arg, struct nd_server_config *cfg)
{
	uint16_t ports[ND_SERVER_LISTEN_MAX];
	char err[160];
	int n = 0, rc = nd_ports_parse(arg, ports, ND_SERVER_LISTEN_MAX, &n, err, sizeof(err));

	if (rc == 0 && (strchr(arg, ',') || ports[n - 1] - ports[0] + 1 != n))
		rc = -EINVAL, snprintf(err, sizeof(err), "invalid port '%s': PORT or FIRST-LAST", arg);
	if (rc < 0) {
		nd_err("serve: %s", err);
		return rc;
	}
	cfg->port = ports[0];
	cfg->port_last = n > 1 ? ports[n - 1] : 0;
	return 0;
}

static int parse_args(int argc, char **argv, struct nd_server_config *cfg,
		      struct serve_opts *o)
{
	long v;
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "p:1B:46qhDI:" "JVf:i:A:vdX:F:m", serve_options, NULL)) != -1) {
		int service = parse_service_arg(c, optarg, cfg, o);

		if (service < 0)
			goto bad;
		if (service == 0)
			continue;
		if (SERVE_IPERF_SHARED(c)) {
			service = nd_serve_shared_flag(c, optarg, &o->ip, &o->io);
			if (service == -EINVAL)
				goto bad;
			if (service < 0)
				return service;
			continue;
		}
		switch (c) {
		case 'p':	/* PORT or FIRST-LAST (issue 15) */
			if (serve_parse_ports(optarg, cfg) < 0)
				return -EINVAL;
			break;
		case '1': cfg->one_off = 1; break;
		case 'B': cfg->bind_addr = optarg; break;
		case '4': cfg->family = AF_INET; break;
		case '6': cfg->family = AF_INET6; break;
		case 'q': cfg->quiet = true; break;
		case OPT_NO_SHARE: o->no_share_flag = true; break;
		case OPT_CONFIG: o->config = optarg; break;
		case OPT_SHARE: o->share_flag = true; break;
		case OPT_SHARE_FROM: o->share_from = optarg; break;
		case OPT_RSA_PRIVATE_KEY: o->private_key_path = optarg; break;
		case OPT_AUTH_USERS: o->auth.users_path = optarg; break;
		case OPT_PKCS1: o->auth.pkcs1 = true; break;
		case OPT_SKEW:
			/* iperf3: a positive number of seconds. */
			if (nd_parse_long(optarg, 10, 1, 86400 * 366, &v))
				goto bad;
			o->auth.skew_threshold_sec = (int)v;
			o->skew_set = true;
			break;
		case OPT_MAX_TESTS:
			if (nd_parse_long(optarg, 10, 1, 64, &v))
				goto bad;
			cfg->max_tests = (int)v;
			cfg->max_tests_given = true;
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
		case ND_OPT_NSTREAMS: case 'X': case ND_OPT_JSON_STREAM:
		case ND_OPT_JSON_STREAM_FULL:
			v = nd_serve_iperf_flag(c, optarg, cfg);
			if (v)
				return (int)v;
			break;
		default:
			nd_err_option("serve", argc, argv);
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

/*
 * Before listening, while errors still reach the user: the pidfile's
 * holder, if alive, refuses us; the log file opens with its relative path.
 */
static int service_prepare(struct serve_opts *o)
{
	pid_t holder = 0;
	int rc;

	o->log_fd = -1;
	if (o->pidfile_arg) {
		rc = nd_pidfile_check(o->pidfile_arg, o->pidfile, sizeof(o->pidfile), &holder);
		if (rc == -EEXIST) {
			nd_err("another server appears to be running: '%s' names process %d",
			       o->pidfile_arg, (int)holder);
			return rc;
		}
		if (rc < 0) {
			nd_err("cannot use pidfile '%s': %s", o->pidfile_arg, strerror(-rc));
			return rc;
		}
	}
	if (o->logfile) {
		rc = nd_log_open(o->logfile, &o->log_fd);
		if (rc < 0) {
			nd_err("cannot open log file '%s': %s", o->logfile, strerror(-rc));
			return rc;
		}
	}
	return 0;
}

/*
 * Detach (-D) and take the pidfile and the log; *ret_parent: this is the
 * process that started us, to exit with *ret_exit as the daemon said.
 */
static int service_start(struct serve_opts *o, bool *ret_parent, int *ret_exit)
{
	int notify_fd = -1, rc = 0;

	*ret_parent = false;
	if (o->daemon) {
		rc = nd_daemon_fork(ret_parent, ret_exit, &notify_fd);
		if (rc < 0)
			nd_err("cannot detach: %s", strerror(-rc));
		if (rc < 0 || *ret_parent)
			return rc;
	}
	if (o->pidfile_arg) {
		rc = nd_pidfile_write(o->pidfile);
		if (rc < 0) {
			nd_err(rc == -EEXIST ? "another server took pidfile '%s' meanwhile" :
			       "cannot write pidfile '%s': %s", o->pidfile_arg, strerror(-rc));
			o->pidfile[0] = '\0';
		}
	}
	if (rc == 0 && (o->daemon || o->log_fd >= 0)) {
		rc = nd_log_redirect(o->log_fd, o->daemon);
		o->log_fd = -1;
		if (rc < 0)
			nd_err("cannot redirect the output: %s", strerror(-rc));
	}
	nd_daemon_ready(notify_fd, rc < 0 ? ND_EXIT_ENV : ND_EXIT_OK);
	return rc;
}

static void serve_run(struct nd_server *server, struct serve_opts *o)
{
	struct sigaction sa;

	nd_serve_output_start(&o->io, server);
	signal_target = server;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
	nd_server_run(server);
	signal_target = NULL;
	nd_serve_output_stop(&o->io);
}

int cmd_serve(int argc, char **argv)
{
	struct nd_server_config cfg;
	struct serve_opts opts = { 0 };
	struct nd_server *server;
	bool parent;
	int rc, exit_code = ND_EXIT_OK;

	nd_server_config_init(&cfg);
	rc = parse_args(argc, argv, &cfg, &opts);
	if (rc != 0)	/* -m without MPTCP here: the host's lack, not a usage error */
		return rc > 0 ? ND_EXIT_OK : rc == -ENOPROTOOPT ? ND_EXIT_ENV : ND_EXIT_USAGE;
	nd_serve_apply_shared(&opts.ip, &cfg);
	nd_serve_split_bind(&opts.ip, &opts.io, &cfg);
	if (cfg.bind_dev && nd_ifname_valid(cfg.bind_dev) < 0) {
		nd_err("serve: invalid interface name '%s' after %%", cfg.bind_dev);
		return ND_EXIT_USAGE;
	}
	if (apply_config(&opts) < 0)
		return ND_EXIT_USAGE;
	rc = setup_auth(&opts, &cfg);
	if (rc != 0)
		return rc;
	if (service_prepare(&opts) < 0) {
		nd_auth_key_free(opts.auth.private_key);
		return ND_EXIT_ENV;
	}
	cfg.peer_payload = peer_payload;
	cfg.peer_payload_arg = &opts;
	rc = nd_server_create(&cfg, &server);
	if (rc < 0) {
		nd_err("cannot listen on port %u%s: %s", cfg.port, cfg.port_last ? " or the range "
		       "after it" : "", strerror(-rc));
		nd_auth_key_free(opts.auth.private_key);
		if (opts.log_fd >= 0)
			close(opts.log_fd);
		return ND_EXIT_ENV;
	}
	rc = service_start(&opts, &parent, &exit_code);
	if (rc < 0 || parent) {
		if (opts.log_fd >= 0)
			close(opts.log_fd);
		nd_server_destroy(server);
		nd_pidfile_remove(opts.pidfile);
		return rc < 0 ? ND_EXIT_ENV : exit_code;
	}
	serve_run(server, &opts);
	nd_server_destroy(server);
	nd_auth_key_free(opts.auth.private_key);
	nd_pidfile_remove(opts.pidfile);
	return ND_EXIT_OK;
}
