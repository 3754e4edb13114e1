/*
 * diagnose.c - `nicdoctor diagnose [IF]`: its flags and usage, then the
 * one pipeline (src/diagnose/) for the interface and the report rendered.
 * With --peer the experiment plan runs against a peer (nicdoctor serve or
 * iperf3 -s); without, the loopback baseline measures host capacity;
 * --no-traffic and --sysroot run none.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nicdoctor/auth.h"
#include "nicdoctor/cmd.h"
#include "nicdoctor/common.h"
#include "nicdoctor/bond.h"
#include "nicdoctor/experiment.h"
#include "nicdoctor/fix.h"
#include "nicdoctor/probe.h"
#include "nicdoctor/queues.h"
#include "nicdoctor/report.h"
#include "nicdoctor/sysroot.h"
#include "diagnose_cli.h"

/* Set by SIGINT/SIGTERM; the experiments stop at the next safe point. */
static volatile sig_atomic_t stop_requested;

static const struct {
	const char *name;
	enum nd_format format;
} formats[] = {
	{ "text", ND_FORMAT_TEXT },
	{ "markdown", ND_FORMAT_MARKDOWN },
	{ "json", ND_FORMAT_JSON },
	{ "prometheus", ND_FORMAT_PROMETHEUS },
};

static int parse_format(const char *name, enum nd_format *ret)
{
	for (size_t i = 0; i < ND_ARRAY_SIZE(formats); i++)
		if (!strcmp(name, formats[i].name)) {
			*ret = formats[i].format;
			return 0;
		}
	return -EINVAL;
}

static void diagnose_usage(FILE *out)
{
	fprintf(out,
		"usage: nicdoctor diagnose [IF] [--sysroot DIR]\n"
		"                          [--format text|markdown|json|prometheus]\n"
		"                          [--json] [--redact] [--skip ID,...] [--only ID,...]\n"
		"                          [--peer HOST[:PORT]] [--duration S] [--no-traffic]\n"
		"       nicdoctor diagnose IF1,IF2,... --peer HOST1[:PORT],HOST2[:PORT],...\n"
		"                          [--trial-fixes] [--allow-route] [--sample S]\n"
		"                          [-v|--verbose] [--color[=auto|always|never]]\n"
		"                          [--username USER --rsa-public-key-path FILE]\n"
		"--peer runs the experiment plan against 'nicdoctor serve' or 'iperf3 -s'\n"
		"(about 20 s of traffic, --duration S in total); without it a loopback\n"
		"baseline measures host capacity.  The route to the peer must leave\n"
		"through IF or a bridge, bond or VLAN above it; --allow-route measures\n"
		"another path (lo, another port) on purpose, labelled as that path's,\n"
		"judging none of IF's suspects.  --trial-fixes (root) applies each fix\n"
		"of a suspect that is not refuted, measures, and reverts it.  Counters are\n"
		"judged by their growth during the runs, or without traffic during a\n"
		"sample of S seconds (default 1; 0: none, since-boot totals only).\n"
		"Several ports, one peer each in order: each port's plan alone, then every\n"
		"port at once, pcie.slot_too_slow judged by that together run.\n");
}

static int parse_duration(const char *arg, double *ret_sec)
{
	char *end;
	double sec = strtod(arg, &end);

	if (end == arg || *end || !(sec >= 1 && sec <= 3600))
		return -EINVAL;
	*ret_sec = sec;
	return 0;
}

static int parse_sample(const char *arg, double *ret_sec)
{
	char *end;
	double sec = strtod(arg, &end);

	if (end == arg || *end || !(sec >= 0 && sec <= ND_DIAG_SAMPLE_SEC_MAX))
		return -EINVAL;
	*ret_sec = sec;
	return 0;
}

/* iproute2's -color: no argument means always. */
static int parse_color(const char *arg, struct diagnose_opts *o)
{
	if (!arg || !strcmp(arg, "always"))
		o->color = COLOR_ALWAYS;
	else if (!strcmp(arg, "auto"))
		o->color = COLOR_AUTO;
	else if (!strcmp(arg, "never"))
		o->color = COLOR_NEVER;
	else
		return -EINVAL;
	return 0;
}

/* Flags that contradict each other; 0 or ND_EXIT_USAGE after the error. */
static int check_combination(const struct diagnose_opts *o)
{
	const char *bad = NULL;

	if (o->sysroot && (o->peer || o->trial_fixes || o->duration_sec || o->sample_sec >= 0))
		bad = "--sysroot diagnoses a snapshot: no --peer, --duration, --sample or "
		      "--trial-fixes";
	else if (o->no_traffic && (o->peer || o->trial_fixes || o->duration_sec))
		bad = "--no-traffic excludes --peer, --duration and --trial-fixes";
	else if (o->trial_fixes && !o->peer)
		bad = "--trial-fixes needs --peer to measure each fix";
	else if ((o->username || o->public_key_path || o->auth.pkcs1) && !o->peer)
		bad = "--username and --rsa-public-key-path need --peer";
	else if (o->allow_route && !o->peer)
		bad = "--allow-route needs --peer";
	if (!bad)
		return 0;
	nd_err("diagnose: %s", bad);
	return ND_EXIT_USAGE;
}

/* Each option's row: what it sets, or why its value is refused.  A setter
 * returns 0, HELP_SHOWN, or ND_EXIT_USAGE after printing the error. */
#define HELP_SHOWN (-1)

static int set_sysroot(struct diagnose_opts *o, const char *arg) { o->sysroot = arg; return 0; }
static int set_json(struct diagnose_opts *o, const char *arg) { (void)arg; o->format = ND_FORMAT_JSON; return 0; }
static int set_redact(struct diagnose_opts *o, const char *arg) { (void)arg; o->redact = true; return 0; }
static int set_skip(struct diagnose_opts *o, const char *arg) { o->skip = arg; return 0; }
static int set_only(struct diagnose_opts *o, const char *arg) { o->only = arg; return 0; }
static int set_no_traffic(struct diagnose_opts *o, const char *arg) { (void)arg; o->no_traffic = true; return 0; }
static int set_trial(struct diagnose_opts *o, const char *arg) { (void)arg; o->trial_fixes = true; return 0; }
static int set_allow_route(struct diagnose_opts *o, const char *arg) { (void)arg; o->allow_route = true; return 0; }
static int set_verbose(struct diagnose_opts *o, const char *arg) { (void)arg; o->verbose = true; return 0; }
static int set_username(struct diagnose_opts *o, const char *arg) { o->username = arg; return 0; }
static int set_public_key(struct diagnose_opts *o, const char *arg) { o->public_key_path = arg; return 0; }
static int set_pkcs1(struct diagnose_opts *o, const char *arg) { (void)arg; o->auth.pkcs1 = true; return 0; }
static int set_help(struct diagnose_opts *o, const char *arg) { (void)o; (void)arg; diagnose_usage(stdout); return HELP_SHOWN; }

static int set_format(struct diagnose_opts *o, const char *arg)
{
	if (parse_format(arg, &o->format) == 0)
		return 0;
	nd_err("unknown format '%s' (text, markdown, json, prometheus)", arg);
	return ND_EXIT_USAGE;
}

static int set_peer(struct diagnose_opts *o, const char *arg)
{
	o->peer = arg;
	/* HOST1,HOST2: one per port, parsed by diagnose_ports.c */
	if (strchr(arg, ',') ||
	    nd_peer_parse(arg, o->peer_host, sizeof(o->peer_host), &o->peer_port) == 0)
		return 0;
	nd_err("diagnose: invalid peer '%s' (HOST or HOST:PORT)", arg);
	return ND_EXIT_USAGE;
}

static int set_duration(struct diagnose_opts *o, const char *arg)
{
	if (parse_duration(arg, &o->duration_sec) == 0)
		return 0;
	nd_err("diagnose: invalid duration '%s' (1 to 3600 seconds)", arg);
	return ND_EXIT_USAGE;
}

static int set_sample(struct diagnose_opts *o, const char *arg)
{
	if (parse_sample(arg, &o->sample_sec) == 0)
		return 0;
	nd_err("diagnose: invalid sample '%s' (0 to %.0f seconds)", arg, ND_DIAG_SAMPLE_SEC_MAX);
	return ND_EXIT_USAGE;
}

static int set_color(struct diagnose_opts *o, const char *arg)
{
	if (parse_color(arg, o) == 0)
		return 0;
	nd_err("diagnose: invalid color '%s' (auto, always, never)", arg);
	return ND_EXIT_USAGE;
}

static const struct diagnose_option {
	const char *name;
	int has_arg;
	char short_name;		/* 0: long only */
	int (*set)(struct diagnose_opts *o, const char *arg);
} options[] = {
	{ "sysroot", required_argument, 0, set_sysroot },
	{ "format", required_argument, 0, set_format },
	{ "json", no_argument, 0, set_json },
	{ "redact", no_argument, 0, set_redact },
	{ "skip", required_argument, 0, set_skip },
	{ "only", required_argument, 0, set_only },
	{ "no-traffic", no_argument, 0, set_no_traffic },
	{ "peer", required_argument, 0, set_peer },
	{ "duration", required_argument, 0, set_duration },
	{ "trial-fixes", no_argument, 0, set_trial },
	{ "allow-route", no_argument, 0, set_allow_route },
	{ "sample", required_argument, 0, set_sample },
	{ "verbose", no_argument, 'v', set_verbose },
	{ "color", optional_argument, 0, set_color },
	{ "colour", optional_argument, 0, set_color },
	{ "username", required_argument, 0, set_username },
	{ "rsa-public-key-path", required_argument, 0, set_public_key },
	{ "use-pkcs1-padding", no_argument, 0, set_pkcs1 },
	{ "help", no_argument, 'h', set_help },
};

/* getopt_long's value of row i: its short form, else 256 + i. */
static int option_value(size_t i)
{
	return options[i].short_name ? options[i].short_name : 256 + (int)i;
}

/* 0, or an exit code (>0) after printing the error; -1 after --help. */
static int parse_args(int argc, char **argv, struct diagnose_opts *o)
{
	struct option longopts[ND_ARRAY_SIZE(options) + 1];
	int c;

	memset(longopts, 0, sizeof(longopts));
	for (size_t i = 0; i < ND_ARRAY_SIZE(options); i++)
		longopts[i] = (struct option){ options[i].name, options[i].has_arg, NULL,
					       option_value(i) };
	opterr = 0;
	while ((c = getopt_long(argc, argv, "hv", longopts, NULL)) != -1) {
		size_t i = 0;
		int r;

		while (i < ND_ARRAY_SIZE(options) && option_value(i) != c)
			i++;
		if (i == ND_ARRAY_SIZE(options)) {
			nd_err_option("diagnose", argc, argv);
			return ND_EXIT_USAGE;
		}
		r = options[i].set(o, optarg);
		if (r)
			return r;
	}
	if (optind < argc)
		o->ifname = argv[optind++];
	if (optind < argc) {
		nd_err("diagnose: unexpected argument '%s'", argv[optind]);
		return ND_EXIT_USAGE;
	}
	return check_combination(o);
}

static void on_signal(int signo)
{
	(void)signo;
	stop_requested = 1;
}

/* SIGINT/SIGTERM only ask to stop: the experiments revert first. */
static void catch_stop_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

static nd_exp_progress_fn progress_fn(void)
{
	return isatty(STDERR_FILENO) ? nd_progress_stderr : NULL;
}

static void request_of(const struct diagnose_opts *o, struct nd_diag_request *rq)
{
	*rq = (struct nd_diag_request){
		.src = o->src, .ifname = o->ifname, .skip = o->skip, .only = o->only,
		.traffic = !o->no_traffic && !o->sysroot,
		.sample_sec = o->sample_sec, .members = true, .progress = progress_fn(),
	};
}

/* The plan against the peer, or the loopback baseline; verdicts. */
void diagnose_run_experiments(const struct diagnose_opts *o, struct nd_diagnosis *d)
{
	struct nd_diag_traffic t = {
		.peer_host = o->peer ? o->peer_host : NULL, .peer_port = o->peer_port,
		.duration_sec = o->duration_sec, .trial_fixes = o->trial_fixes,
		.auth = o->auth.public_key ? &o->auth : NULL, .stop = &stop_requested,
		.progress = progress_fn(), .route = o->peer && o->route_known ? &o->route : NULL,
	};
	catch_stop_signals();
	nd_diagnose_traffic(&t, d);
}

/* Probe and check; 0 or an exit code after the error. */
int diagnose_build_report(struct diagnose_opts *o, struct nd_diagnosis *d)
{
	struct nd_diag_request rq;

	request_of(o, &rq);
	return nd_cmd_diagnose_open(&rq, d);
}

/* iproute2's rule, and no-color.org's: auto colours a terminal only, and
 * not when NO_COLOR is set and not empty; an explicit --color=always wins. */
bool diagnose_want_color(int when)
{
	const char *no_color = getenv("NO_COLOR");

	if (when != COLOR_AUTO)
		return when == COLOR_ALWAYS;
	return isatty(STDOUT_FILENO) && !(no_color && *no_color);
}

/* The peer's credentials, read before any traffic: 0 or an exit code. */
int diagnose_setup_auth(struct diagnose_opts *o)
{
	char err[300];
	int r = nd_auth_client_setup(&o->auth, o->username, o->public_key_path, err, sizeof(err));

	if (r < 0)
		nd_err("diagnose: %s", err);
	return r == 0 ? 0 : r == -EINVAL ? ND_EXIT_USAGE : ND_EXIT_ENV;
}

/* Before any traffic: a peer reached over lo or another port would
 * measure that path under IF's name.  A name that does not resolve is the
 * engine's to report, as it always was ("peer 'x' is unreachable"). */
int diagnose_check_route(struct diagnose_opts *o)
{
	char why[300], line[300];
	int r;

	/* an unknown interface is the probe's to name */
	if (!o->peer || o->sysroot || o->no_traffic ||
	    !nd_probe_iface_exists(&nd_root_live, o->ifname))
		return 0;
	r = nd_probe_route(&nd_root_live, o->peer_host, &o->route, why, sizeof(why));
	if (r == -EHOSTUNREACH)
		return 0;
	if (r < 0) {
		nd_err("diagnose: %s", why);
		return ND_EXIT_ENV;
	}
	o->route_known = true;
	if (nd_route_matches(&o->route, o->ifname))
		return 0;
	nd_route_describe(&o->route, o->ifname, line, sizeof(line));
	if (!o->allow_route) {
		nd_err("diagnose: %s: diagnose %s, or --allow-route to measure over %s anyway",
		       line, o->route.dev, o->route.dev);
		return ND_EXIT_USAGE;
	}
	if (o->trial_fixes) {
		nd_err("diagnose: %s: --trial-fixes would measure %s's fixes over %s", line,
		       o->ifname, o->route.dev);
		return ND_EXIT_USAGE;
	}
	return 0;
}

int cmd_diagnose(int argc, char **argv)
{
	struct diagnose_opts o = { .format = ND_FORMAT_TEXT, .sample_sec = -1 };
	struct nd_diagnosis d;
	char default_if[ND_IFNAMSIZ];
	int r, rc;

	rc = parse_args(argc, argv, &o);
	if (rc)
		return rc < 0 ? ND_EXIT_OK : rc;
	if (diagnose_is_ports(&o))
		return diagnose_ports(&o);
	rc = diagnose_setup_auth(&o);
	if (!rc)
		rc = nd_cmd_open_source(o.sysroot, &o.src);
	if (!rc)
		rc = nd_resolve_iface(o.src, &o.ifname, default_if, sizeof(default_if));
	if (!rc)
		rc = diagnose_check_route(&o);
	if (!rc)
		rc = diagnose_build_report(&o, &d);
	if (rc) {
		nd_source_close(o.src);
		return rc;
	}
	if (!o.no_traffic && !o.sysroot)
		diagnose_run_experiments(&o, &d);
	d.report.redact = o.redact;
	d.report.verbose = o.verbose;
	d.report.color = o.format == ND_FORMAT_TEXT && diagnose_want_color(o.color);
	r = nd_report_render(&d.report, o.format, stdout);
	rc = r < 0 ? ND_EXIT_ENV : nd_report_exit_code(&d.report);
	if (r < 0)
		nd_err("cannot render the report: %s", strerror(-r));
	else if (d.traffic_rc)
		rc = d.traffic_rc;
	nd_diagnosis_free(&d);
	nd_source_close(o.src);
	nd_auth_client_clear(&o.auth);
	return rc;
}
