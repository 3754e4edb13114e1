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
#include "iperf_flags.h"
#include "nicdoctor/multi.h"
#include "serve_iperf.h"
#include "nicdoctor/share.h"
#include "iperf_opts.h"

#define SERVE_CONFIG_DEFAULT "/etc/nicdoctor/serve.conf"

/* The signal handler's only way to reach the loop: an atomic flag store. */
static struct nd_server *signal_target;

static void on_signal(int sig)
{
	(void)sig;
	if (signal_target)
		nd_server_request_stop(signal_target);
}

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
		   "         [--cntl-ka[=IDLE/INTV/CNT]] [-m]\n\noptions:\n");
	nd_opts_help(f, ND_IN_SERVE);
}

/* Only a client sharing is allowed with makes this host probe itself. */
static void *peer_begin(const struct nd_peer_request *req, void *arg)
{
	const struct serve_opts *o = arg;

	if (!nd_share_allowed(&o->share, req->peer, req->authenticated, NULL, 0))
		return NULL;
	return nd_share_begin(req->local);
}

static cJSON *peer_payload(const struct nd_peer_request *req, void *state, void *arg)
{
	const struct serve_opts *o = arg;
	char why[300];
	bool allowed = nd_share_allowed(&o->share, req->peer, req->authenticated, why,
					sizeof(why));

	return nd_share_payload(state, allowed, allowed ? NULL : why);
}

static void peer_end(void *state, void *arg)
{
	(void)arg;
	nd_share_end(state);
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

/* The option table's rows for serve (or iperf3 -s) over argv: 0, 1 (done:
 * -h, -v) or a negative errno after the message. */
static int parse_args(int argc, char **argv, struct nd_server_config *cfg,
		      struct serve_opts *o, bool iperf3_mode)
{
	struct nd_opt_ctx ctx = {
		.cmd = iperf3_mode ? ND_IN_IPERF3_S : ND_IN_SERVE,
		.name = "serve",
		.base = { [ND_BASE_PARAMS] = &o->ip, [ND_BASE_IOUT] = &o->io,
			  [ND_BASE_CFG] = cfg, [ND_BASE_SERVE] = o },
		.usage = usage,
	};
	int rc = nd_opts_parse(argc, argv, &ctx);

	if (rc != 0)
		return rc;
	if (optind < argc) {
		nd_err("unexpected argument '%s'", argv[optind]);
		return -EINVAL;
	}
	return 0;
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

int nd_serve_main(int argc, char **argv, bool iperf3_mode)
{
	struct nd_server_config cfg;
	struct serve_opts opts = { 0 };
	struct nd_server *server;
	bool parent;
	int rc, exit_code = ND_EXIT_OK;

	nd_server_config_init(&cfg);
	rc = parse_args(argc, argv, &cfg, &opts, iperf3_mode);
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
	cfg.peer_begin = peer_begin;
	cfg.peer_payload = peer_payload;
	cfg.peer_end = peer_end;
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

int cmd_serve(int argc, char **argv)
{
	return nd_serve_main(argc, argv, false);
}
