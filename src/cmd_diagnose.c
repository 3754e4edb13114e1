/*
 * cmd_diagnose.c - `nicdoctor diagnose [IF]`: probe, check, experiment,
 * judge, report.  With --peer the experiment plan runs against a peer
 * (nicdoctor serve or iperf3 -s); without, the loopback baseline measures
 * host capacity; --no-traffic and --sysroot run none.  The experiments
 * and verdicts live in src/experiment/, the wording in src/report/.
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
#include "cmd_diagnose.h"

/* --sample's default: two reads of the counters a second apart. */
#define SAMPLE_SEC_DEFAULT 1.0
#define SAMPLE_SEC_MAX 60.0



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
		"                          [--trial-fixes] [--sample S] [-v|--verbose]\n"
		"                          [--color[=auto|always|never]]\n"
		"                          [--username USER --rsa-public-key-path FILE]\n"
		"--peer runs the experiment plan against 'nicdoctor serve' or 'iperf3 -s'\n"
		"(about 20 s of traffic, --duration S in total); without it a loopback\n"
		"baseline measures host capacity.  --trial-fixes (root) applies each fix\n"
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

	if (end == arg || *end || !(sec >= 0 && sec <= SAMPLE_SEC_MAX))
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
	if (!bad)
		return 0;
	nd_err("diagnose: %s", bad);
	return ND_EXIT_USAGE;
}

/* 0, or an exit code (>0) after printing the error. */
static int parse_args(int argc, char **argv, struct diagnose_opts *o)
{
	enum { OPT_SYSROOT = 256, OPT_FORMAT, OPT_JSON, OPT_REDACT, OPT_SKIP, OPT_ONLY,
	       OPT_NO_TRAFFIC, OPT_PEER, OPT_DURATION, OPT_TRIAL, OPT_SAMPLE, OPT_COLOR,
	       OPT_USERNAME, OPT_RSA_PUBLIC_KEY, OPT_PKCS1 };
	static const struct option longopts[] = {
		{ "sysroot", required_argument, NULL, OPT_SYSROOT },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "redact", no_argument, NULL, OPT_REDACT },
		{ "skip", required_argument, NULL, OPT_SKIP },
		{ "only", required_argument, NULL, OPT_ONLY },
		{ "no-traffic", no_argument, NULL, OPT_NO_TRAFFIC },
		{ "peer", required_argument, NULL, OPT_PEER },
		{ "duration", required_argument, NULL, OPT_DURATION },
		{ "trial-fixes", no_argument, NULL, OPT_TRIAL },
		{ "sample", required_argument, NULL, OPT_SAMPLE },
		{ "verbose", no_argument, NULL, 'v' },
		{ "color", optional_argument, NULL, OPT_COLOR },
		{ "colour", optional_argument, NULL, OPT_COLOR },
		{ "username", required_argument, NULL, OPT_USERNAME },
		{ "rsa-public-key-path", required_argument, NULL, OPT_RSA_PUBLIC_KEY },
		{ "use-pkcs1-padding", no_argument, NULL, OPT_PKCS1 },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "hv", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_SYSROOT: o->sysroot = optarg; break;
		case OPT_FORMAT:
			if (parse_format(optarg, &o->format) < 0) {
				nd_err("unknown format '%s' (text, markdown, json, prometheus)", optarg);
				return ND_EXIT_USAGE;
			}
			break;
		case OPT_JSON: o->format = ND_FORMAT_JSON; break;
		case OPT_REDACT: o->redact = true; break;
		case OPT_SKIP: o->skip = optarg; break;
		case OPT_ONLY: o->only = optarg; break;
		case OPT_NO_TRAFFIC: o->no_traffic = true; break;
		case OPT_TRIAL: o->trial_fixes = true; break;
		case OPT_PEER:
			o->peer = optarg;
			/* HOST1,HOST2: one per port, parsed by cmd_diagnose_ports.c */
			if (!strchr(optarg, ',') && nd_peer_parse(optarg, o->peer_host, sizeof(o->peer_host),
					  &o->peer_port) < 0) {
				nd_err("diagnose: invalid peer '%s' (HOST or HOST:PORT)", optarg);
				return ND_EXIT_USAGE;
			}
			break;
		case OPT_DURATION:
			if (parse_duration(optarg, &o->duration_sec) < 0) {
				nd_err("diagnose: invalid duration '%s' (1 to 3600 seconds)", optarg);
				return ND_EXIT_USAGE;
			}
			break;
		case OPT_SAMPLE:
			if (parse_sample(optarg, &o->sample_sec) < 0) {
				nd_err("diagnose: invalid sample '%s' (0 to %.0f seconds)", optarg,
				       SAMPLE_SEC_MAX);
				return ND_EXIT_USAGE;
			}
			break;
		case OPT_COLOR:
			if (parse_color(optarg, o) < 0) {
				nd_err("diagnose: invalid color '%s' (auto, always, never)", optarg);
				return ND_EXIT_USAGE;
			}
			break;
		case 'v': o->verbose = true; break;
		case OPT_USERNAME: o->username = optarg; break;
		case OPT_RSA_PUBLIC_KEY: o->public_key_path = optarg; break;
		case OPT_PKCS1: o->auth.pkcs1 = true; break;
		case 'h': diagnose_usage(stdout); return -1;
		default:
			nd_err_option("diagnose", argc, argv);
			return ND_EXIT_USAGE;
		}
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

static void progress_line(const char *line, void *arg)
{
	(void)arg;
	fprintf(stderr, "nicdoctor: %s\n", line);
}

/* The cores that take the NIC's receive work times what one moves. */
static void add_cpu_ceiling(struct nd_report *report, const struct nd_exp_set *set)
{
	const struct nd_exp_run *one = &set->runs[ND_RUN_FORWARD_ONE];
	unsigned cores = nd_facts_rx_queues(report->facts);
	char detail[160];

	if (set->mode != ND_EXP_LOOPBACK || !one->done)
		return;
	if (cores == 0)
		cores = 1;
	if (report->facts->cpus.st.known && report->facts->cpus.n_online &&
	    cores > report->facts->cpus.n_online)
		cores = report->facts->cpus.n_online;
	snprintf(detail, sizeof(detail), "host capacity: %.0f Mbit/s per TCP stream on loopback x "
		 "%u core%s taking the NIC's receive work", one->mbps, cores, cores == 1 ? "" : "s");
	nd_report_add_ceiling(report, "cpu", one->mbps * cores, detail);
}

/* Window / measured RTT of each window finding, as measured ceilings. */
static void add_window_ceilings(struct nd_report *report, const struct nd_exp_set *set)
{
	for (unsigned i = 0; i < report->n_findings; i++) {
		const struct nd_finding *f = &report->findings[i];
		double mbps = nd_verdict_window_ceiling_mbps(f, set);
		char detail[160];

		if (mbps < 0 || strncmp(f->id, "sysctl.", 7) != 0)
			continue;
		snprintf(detail, sizeof(detail), "%s: autotuned window / the measured RTT, per "
			 "TCP connection", f->id);
		nd_report_add_ceiling(report, "window", mbps, detail);
	}
}

static void add_far_end(struct nd_report *report, struct experiments *x);


/* --trial-fixes: root, the fixes lock, then the A/B runs. */
static int run_trials(const struct diagnose_opts *o, struct nd_report *report,
		      const struct nd_exp_target *target, struct experiments *x,
		      nd_exp_progress_fn progress)
{
	int lock_fd = -1, r;

	if (geteuid() != 0) {
		nd_err("diagnose --trial-fixes needs root");
		return ND_EXIT_ENV;
	}
	r = nd_fix_lock(&lock_fd);
	if (r < 0) {
		nd_err("cannot lock '%s': %s", nd_fix_state_dir(),
		       r == -EBUSY ? "another 'nicdoctor fix' holds it" : strerror(-r));
		return ND_EXIT_ENV;
	}
	r = nd_exp_run_trials(report->facts, report->findings, report->n_findings, target,
			      &x->set, &stop_requested, progress, NULL, x->trials, &x->n_trials);
	close(lock_fd);
	for (unsigned i = 0; i < x->n_trials; i++)
		if (!x->trials[i].reverted)
			nd_err("trial of %s: %s", x->trials[i].kind, x->trials[i].error);
	if (r == -EINTR)
		return EXIT_INTERRUPTED;
	if (r < 0) {
		char msg[400];

		nd_exp_peer_message(&x->set, r, msg, sizeof(msg));
		nd_err("%s", r == -EIO ? "a trial fix could not be reverted" : msg);
		return ND_EXIT_ENV;
	}
	(void)o;
	return 0;
}

/* What a counter read of this diagnosis covers: the interface and the IRQs
 * the checks take for its queue IRQs (irqs: ND_MAX_IRQS, the caller's). */
static const struct nd_counter_source *counter_source(const struct nd_facts *facts,
							unsigned *irqs,
							struct nd_counter_source *src)
{
	src->ifname = facts->ifname;
	src->queue_irqs = irqs;
	src->n_queue_irqs = nd_facts_queue_irqs(facts, irqs, ND_MAX_IRQS);
	return src;
}

/* The counters' window over the runs: the counter checks judge what
 * grew while the traffic ran, before the verdicts test them. */
static void window_over_runs(struct nd_facts *facts, struct nd_report *report,
			     const struct nd_exp_set *set, double start_sec)
{
	struct nd_counter_window *w = &facts->window;
	struct nd_counter_source src;
	unsigned irqs[ND_MAX_IRQS];
	double traffic_sec = 0;
	unsigned runs = 0;
	char label[64];

	for (unsigned i = 0; i < ND_RUN_KINDS; i++)
		if (set->runs[i].done) {
			runs++;
			traffic_sec += set->runs[i].duration_sec;
		}
	if (!runs || nd_probe_counter_sample(counter_source(facts, irqs, &src), &w->after) < 0) {
		nd_counter_window_unknown(w, "no traffic run completed");
		return;
	}
	if (set->mode == ND_EXP_LOOPBACK)
		snprintf(label, sizeof(label), "the %.0f s loopback baseline", traffic_sec);
	else
		snprintf(label, sizeof(label), "the %u run%s (%.0f s of traffic)", runs,
			 runs == 1 ? "" : "s", traffic_sec);
	nd_counter_window_set(w, set->mode == ND_EXP_LOOPBACK ? "run loopback baseline"
							      : "run peer plan",
			      label, nd_probe_clock_sec() - start_sec);
	nd_probe_bond_window_end(facts, w->seconds);
	nd_report_rejudge(report, nd_checks_count);
}

/* The plan against the peer, or the loopback baseline; verdicts. */
void diagnose_run_experiments(const struct diagnose_opts *o, struct nd_report *report,
			    struct nd_facts *facts, struct experiments *x)
{
	double start_sec;
	struct nd_exp_target target = { .host = o->peer_host, .port = o->peer_port,
					.ifname = report->facts->ifname, .want_peer = true,
					.auth = o->auth.public_key ? &o->auth : NULL };
	nd_exp_progress_fn progress = isatty(STDERR_FILENO) ? progress_line : NULL;
	struct nd_counter_source src;
	unsigned irqs[ND_MAX_IRQS];
	struct nd_finding asym;
	char msg[400];
	int r;

	x->set.wire_mbps = nd_facts_wire_ceiling_mbps(report->facts);
	catch_stop_signals();
	nd_probe_counter_sample(counter_source(facts, irqs, &src), &facts->window.before);
	nd_probe_bond_window_start(facts);
	start_sec = nd_probe_clock_sec();
	if (o->peer) {
		nd_peer_format(x->set.peer, sizeof(x->set.peer), o->peer_host, o->peer_port);
		r = nd_exp_run_plan(&target, report->facts,
				    o->duration_sec ? o->duration_sec : ND_EXP_PLAN_SEC_DEFAULT,
				    &stop_requested, progress, NULL, &x->set);
	} else {
		r = nd_exp_run_baseline(o->duration_sec ? o->duration_sec
							: ND_EXP_BASELINE_SEC_DEFAULT,
					progress, NULL, &x->set);
	}
	if (r == -EINTR || stop_requested) {
		x->set.interrupted = true;
		x->rc = EXIT_INTERRUPTED;
	} else if (r < 0 && o->peer) {
		nd_exp_peer_message(&x->set, r, msg, sizeof(msg));
		nd_err("%s", msg);
		x->rc = ND_EXIT_ENV;
	} else if (r < 0) {
		nd_err("loopback baseline: %s", x->set.error);
	}
	window_over_runs(facts, report, &x->set, start_sec);
	nd_verdicts_decide(report->findings, report->n_findings, &x->set, &x->sum);
	if (nd_verdict_asymmetric(&x->set, &asym))
		nd_report_add_finding(report, &asym);
	add_cpu_ceiling(report, &x->set);
	add_window_ceilings(report, &x->set);
	if (o->trial_fixes && r == 0 && !x->rc)
		x->rc = run_trials(o, report, &target, x, progress);
	report->throughput = nd_exp_throughput_json(&x->set, &x->sum, report->findings,
						    report->n_findings, x->trials, x->n_trials);
	add_far_end(report, x);
}

/* The far end's view and verdicts; its bottleneck becomes the headline's
 * when it explains the measurement better than ours. */
static void add_far_end(struct nd_report *report, struct experiments *x)
{
	cJSON *far_bottleneck = NULL;

	report->peer = nd_far_peer_json(&x->set, &far_bottleneck);
	if (report->throughput &&
	    nd_far_binding_wins(far_bottleneck, &x->sum, report->findings, report->n_findings)) {
		cJSON_ReplaceItemInObjectCaseSensitive(report->throughput, "bottleneck",
						       far_bottleneck);
		far_bottleneck = NULL;
	}
	cJSON_Delete(far_bottleneck);
	nd_exp_set_release(&x->set);
}

/* Without traffic, the counters' own window: two reads sample_sec apart. */
static void sample_window(const struct diagnose_opts *o, struct nd_facts *facts)
{
	double sec = o->sample_sec < 0 ? SAMPLE_SEC_DEFAULT : o->sample_sec;
	struct nd_counter_source src;
	unsigned irqs[ND_MAX_IRQS];

	if (o->sysroot) {
		nd_counter_window_unknown(&facts->window, "a snapshot holds one read");
		return;
	}
	if (!o->no_traffic) {
		/* the runs will be the window (window_over_runs) */
		nd_counter_window_unknown(&facts->window, "no traffic run completed");
		return;
	}
	if (sec <= 0) {
		nd_counter_window_unknown(&facts->window, "--sample 0");
		return;
	}
	if (isatty(STDERR_FILENO))
		fprintf(stderr, "nicdoctor: sampling the counters for %g s\n", sec);
	nd_probe_counter_window(counter_source(facts, irqs, &src), sec, &facts->window);
}

/* Probe and check; 0 or an exit code after the error. */
int diagnose_build_report(struct diagnose_opts *o, struct nd_report *report,
			struct nd_facts **ret_facts)
{
	const char *bad_id = NULL;
	struct nd_facts *facts;
	int r = nd_probe(o->ifname, &facts);

	if (r == -ENODEV) {
		nd_err("no such interface '%s'", o->ifname);
		return ND_EXIT_USAGE;
	}
	if (r < 0) {
		nd_err("cannot probe '%s': %s", o->ifname, strerror(-r));
		return ND_EXIT_ENV;
	}
	sample_window(o, facts);
	r = nd_report_build(report, facts, o->skip, o->only, &bad_id);
	if (r < 0) {
		nd_err("unknown check ID '%s' (see 'nicdoctor checks')", bad_id ? bad_id : "?");
		nd_facts_free(facts);
		return ND_EXIT_USAGE;
	}
	report->members = nd_bond_members_report(facts, &report->members_worst);
	*ret_facts = facts;
	return 0;
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

int cmd_diagnose(int argc, char **argv)
{
	struct diagnose_opts o = { .format = ND_FORMAT_TEXT, .sample_sec = -1 };
	struct experiments *x = NULL;
	struct nd_report report;
	struct nd_facts *facts = NULL;
	char default_if[ND_IFNAMSIZ];
	int r, rc;

	rc = parse_args(argc, argv, &o);
	if (rc)
		return rc < 0 ? ND_EXIT_OK : rc;
	if (diagnose_is_ports(&o))
		return diagnose_ports(&o);
	rc = diagnose_setup_auth(&o);
	if (!rc)
		rc = nd_use_sysroot(o.sysroot);
	if (!rc)
		rc = nd_resolve_iface(&o.ifname, default_if, sizeof(default_if));
	if (!rc)
		rc = diagnose_build_report(&o, &report, &facts);
	if (rc)
		return rc;
	if (!o.no_traffic && !o.sysroot) {
		x = calloc(1, sizeof(*x));
		if (x)
			diagnose_run_experiments(&o, &report, facts, x);
	}
	report.redact = o.redact;
	report.verbose = o.verbose;
	report.color = o.format == ND_FORMAT_TEXT && diagnose_want_color(o.color);
	r = nd_report_render(&report, o.format, stdout);
	rc = r < 0 ? ND_EXIT_ENV : nd_report_exit_code(&report);
	if (r < 0)
		nd_err("cannot render the report: %s", strerror(-r));
	else if (x && x->rc)
		rc = x->rc;
	free(x);
	nd_report_free(&report);
	nd_facts_free(facts);
	nd_auth_client_clear(&o.auth);
	return rc;
}
