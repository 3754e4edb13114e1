/*
 * fix.c - `nicdoctor fix [IF]`: diagnose, plan the changes that answer
 * the findings, and (with --apply) journal, apply and verify them;
 * `fix --revert` puts every journal of the interface back, newest first,
 * after checking all of them.  The writes live in
 * fixes/, the wording in report/fixplan.c.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nicdoctor/auth.h"
#include "nicdoctor/cmd.h"
#include "nicdoctor/common.h"
#include "nicdoctor/diagnose.h"
#include "nicdoctor/experiment.h"
#include "nicdoctor/fix.h"
#include "nicdoctor/probe.h"
#include "nicdoctor/report.h"
#include "nicdoctor/route.h"
#include "nicdoctor/source.h"
#include "nicdoctor/sysroot.h"

#define PEER_RUN_SECONDS 5
#define PEER_STREAMS 4

struct fix_opts {
	const char *ifname;
	const char *only;
	const char *peer;		/* HOST[:PORT] as given */
	char peer_host[256];
	struct nd_fix_peer measure;	/* set when peer */
	const char *username, *public_key_path;
	struct nd_auth_client auth;	/* with --username and --rsa-public-key-path */
	bool apply, persist, revert, rfs, list;
	struct nd_source *src;		/* the live host */
};

static void fix_usage(FILE *out)
{
	fprintf(out,
		"usage: nicdoctor fix [IF] [--apply] [--only ID,...] [--persist] [--rfs]\n"
		"                     [--peer HOST[:PORT]] [--duration S]\n"
		"                     [--username USER --rsa-public-key-path FILE]\n"
		"                     [--use-pkcs1-padding]\n"
		"       nicdoctor fix --revert [--list] [IF]\n"
		"Without --apply, print the plan: one line per change, with the finding it\n"
		"answers and the command a person would type.  --apply (root) journals the\n"
		"original values, applies and reads each back; --revert restores every\n"
		"journal, newest first (--list shows them).  --peer measures receive\n"
		"throughput from an iperf3 server before and after each kind of change and\n"
		"rolls back a kind that made it worse (the route to it must leave through\n"
		"IF, or a bridge, bond or VLAN above it); --username and\n"
		"--rsa-public-key-path authenticate to it as iperf3 does (password from\n"
		"IPERF3_PASSWORD or asked).\n");
}

/* Combinations that make no sense; 0 or ND_EXIT_USAGE after the error. */
static int check_combination(const struct fix_opts *o)
{
	if (o->revert && (o->apply || o->only || o->persist || o->rfs || o->peer)) {
		nd_err("fix: --revert takes only --list and an interface name");
		return ND_EXIT_USAGE;
	}
	if (o->list && !o->revert) {
		nd_err("fix: --list needs --revert");
		return ND_EXIT_USAGE;
	}
	if (o->measure.duration_sec && !o->peer) {
		nd_err("fix: --duration needs --peer");
		return ND_EXIT_USAGE;
	}
	if ((o->username || o->public_key_path || o->auth.pkcs1) && !o->peer) {
		nd_err("fix: --username and --rsa-public-key-path need --peer");
		return ND_EXIT_USAGE;
	}
	if (o->ifname && nd_ifname_valid(o->ifname) < 0) {
		nd_err("invalid interface name '%s'", o->ifname);
		return ND_EXIT_USAGE;
	}
	return 0;
}

/* HOST[:PORT], parsed as diagnose --peer does (experiment/measure.c). */
static int parse_peer(const char *arg, struct fix_opts *o)
{
	uint16_t port;

	if (nd_peer_parse(arg, o->peer_host, sizeof(o->peer_host), &port) < 0)
		return -EINVAL;
	o->peer = arg;
	o->measure.host = o->peer_host;
	o->measure.port = port;
	o->measure.streams = PEER_STREAMS;
	return 0;
}

static int parse_duration(const char *arg, struct fix_opts *o)
{
	char *end;
	double sec = strtod(arg, &end);

	if (end == arg || *end || !(sec >= 1 && sec <= 3600))
		return -EINVAL;
	o->measure.duration_sec = sec;
	return 0;
}

/* 0, -1 after --help, or an exit code after the error. */
static int parse_args(int argc, char **argv, struct fix_opts *o)
{
	enum { OPT_APPLY = 256, OPT_ONLY, OPT_PEER, OPT_PERSIST, OPT_REVERT, OPT_RFS,
	       OPT_DURATION, OPT_LIST, OPT_USERNAME, OPT_RSA_PUBLIC_KEY, OPT_PKCS1 };
	static const struct option longopts[] = {
		{ "apply", no_argument, NULL, OPT_APPLY },
		{ "only", required_argument, NULL, OPT_ONLY },
		{ "peer", required_argument, NULL, OPT_PEER },
		{ "persist", no_argument, NULL, OPT_PERSIST },
		{ "revert", no_argument, NULL, OPT_REVERT },
		{ "rfs", no_argument, NULL, OPT_RFS },
		{ "duration", required_argument, NULL, OPT_DURATION },
		{ "list", no_argument, NULL, OPT_LIST },
		{ "username", required_argument, NULL, OPT_USERNAME },
		{ "rsa-public-key-path", required_argument, NULL, OPT_RSA_PUBLIC_KEY },
		{ "use-pkcs1-padding", no_argument, NULL, OPT_PKCS1 },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_APPLY: o->apply = true; break;
		case OPT_ONLY: o->only = optarg; break;
		case OPT_PEER:
			if (parse_peer(optarg, o) < 0) {
				nd_err("fix: invalid peer '%s' (HOST or HOST:PORT)", optarg);
				return ND_EXIT_USAGE;
			}
			break;
		case OPT_DURATION:
			if (parse_duration(optarg, o) < 0) {
				nd_err("fix: invalid duration '%s' (1 to 3600 seconds)", optarg);
				return ND_EXIT_USAGE;
			}
			break;
		case OPT_PERSIST: o->persist = true; break;
		case OPT_REVERT: o->revert = true; break;
		case OPT_RFS: o->rfs = true; break;
		case OPT_LIST: o->list = true; break;
		case OPT_USERNAME: o->username = optarg; break;
		case OPT_RSA_PUBLIC_KEY: o->public_key_path = optarg; break;
		case OPT_PKCS1: o->auth.pkcs1 = true; break;
		case 'h': fix_usage(stdout); return -1;
		default:
			nd_err_option("fix", argc, argv);
			return ND_EXIT_USAGE;
		}
	}
	if (optind < argc)
		o->ifname = argv[optind++];
	if (optind < argc) {
		nd_err("fix: unexpected argument '%s'", argv[optind]);
		return ND_EXIT_USAGE;
	}
	return check_combination(o);
}

static void print_step(const struct nd_fix_step *step, unsigned index,
		       enum nd_fix_phase phase, int result, const char *value_now, void *arg)
{
	(void)arg;
	nd_render_fix_step(step, index, phase, result, value_now, stdout);
	fflush(stdout);		/* a test watches progress while it pauses */
}

/* The pipeline (no traffic: its counter sample is the window), then the
 * plan.  0 or an exit code after the error. */
static int make_plan(const struct fix_opts *o, double rtt_usec, struct nd_fix_plan *plan)
{
	struct nd_fix_options fopts = { .rfs = o->rfs, .rtt_usec = rtt_usec,
					.rtt_measured = rtt_usec > 0 };
	struct nd_diag_request rq = {
		.src = o->src, .ifname = o->ifname, .only = o->only, .sample_sec = -1,
		.progress = isatty(STDERR_FILENO) ? nd_progress_stderr : NULL,
	};
	struct nd_diagnosis d;
	int r = nd_cmd_diagnose_open(&rq, &d);

	if (r)
		return r;
	r = nd_fix_plan_build(d.facts, d.report.findings, d.report.n_findings, &fopts, plan);
	nd_diagnosis_free(&d);
	if (r < 0) {
		nd_err("cannot plan fixes for '%s': %s", o->ifname, strerror(-r));
		return ND_EXIT_ENV;
	}
	return 0;
}

/* Undo everything after a late failure (persisting), files included. */
static void undo_all(struct nd_fix_journal *j, struct nd_fix_outcome *out)
{
	unsigned failed_file;

	nd_fix_undo_range(j, 0, j->n_steps, print_step, NULL, out);
	nd_fix_persist_restore(j, &failed_file);
}

static int finish_apply(struct nd_fix_journal *j, const struct fix_opts *o,
			struct nd_fix_outcome *out)
{
	unsigned failed_file = 0;
	int r = 0;

	bool failed = out->failed_index >= 0 || out->error;

	if (!failed && o->persist) {
		r = nd_fix_persist_write(j, &failed_file);
		if (r < 0) {
			nd_err("cannot write '%s': %s; undoing every change",
			       j->files[failed_file].path, strerror(-r));
			undo_all(j, out);
		}
	}
	nd_strlcpy(j->state, failed || r < 0 ? "rolled-back" : "applied", sizeof(j->state));
	if (nd_fix_journal_write(j) < 0)
		nd_err("cannot update the journal '%s'", j->path);
	if (r < 0)
		return ND_EXIT_ENV;
	nd_render_fix_applied(j, out, stdout);
	if (!failed)
		return ND_EXIT_OK;
	if (out->failed_index >= 0)
		nd_err("fix failed at step %d (%s): %s", out->failed_index + 1,
		       j->steps[out->failed_index].what, out->failed_detail);
	else
		nd_err("fix failed: %s", out->failed_detail);
	return ND_EXIT_ENV;
}

static void print_measure(const char *kind, double mbps, double level_mbps, bool rolled_back,
			  void *arg)
{
	const struct nd_fix_baseline *base = arg;

	nd_render_fix_measure(kind, mbps, level_mbps, rolled_back, base->noise_share, stdout);
	fflush(stdout);
}

/* Every journal of the interface, checked; 0 or an exit code after the
 * error.  A refused journal is named with the reason. */
static int load_journals(const char *ifname, bool pending_only, struct nd_fix_journal_set *set)
{
	char path[PATH_MAX] = "", why[320] = "";
	int r = nd_fix_journal_load_all(ifname, pending_only, set, path, sizeof(path), why,
					sizeof(why));

	if (r == -EBADMSG || r == -EPERM || r == -E2BIG)
		nd_err("cannot use journal '%s': %s", path, why);
	else if (r < 0)
		nd_err("cannot read the journals in '%s': %s", nd_fix_state_dir(), strerror(-r));
	return r < 0 ? ND_EXIT_ENV : 0;
}

/* The journals this apply builds on: none may still be "applying" (its
 * values are half-applied, not originals). */
static int load_earlier(const char *ifname, struct nd_fix_journal_set *set)
{
	const struct nd_fix_journal *busy;
	int rc = load_journals(ifname, true, set);

	if (rc)
		return rc;
	busy = nd_fix_journal_set_applying(set);
	if (!busy)
		return 0;
	nd_err("journal '%s' of '%s' is still applying (the apply was interrupted): "
	       "run 'nicdoctor fix --revert %s' first", busy->path, ifname, ifname);
	nd_fix_journal_set_free(set);
	return ND_EXIT_ENV;
}

/* Journal first (fsync'd), then step by step (kind by kind with a peer). */
static int apply_plan(const struct nd_fix_plan *plan, const struct fix_opts *o,
		      const struct nd_fix_baseline *base, const struct nd_fix_journal_set *earlier)
{
	struct nd_fix_journal *j = calloc(1, sizeof(*j));
	struct nd_fix_outcome out = { .failed_index = -1 };
	char why[320];
	int r, rc;

	if (!j)
		return ND_EXIT_ENV;
	r = nd_fix_journal_capture_after(j, plan, earlier, why, sizeof(why));
	if (r < 0) {
		nd_err("%s", why);
		rc = ND_EXIT_ENV;
		goto out;
	}
	nd_strlcpy(j->state, "applying", sizeof(j->state));
	r = o->persist ? nd_fix_persist_prepare(j) : 0;
	if (r < 0) {
		nd_err("cannot prepare the --persist files: %s", strerror(-r));
		rc = ND_EXIT_ENV;
		goto out;
	}
	r = nd_fix_journal_write(j);
	if (r < 0) {
		nd_err("cannot write the journal in '%s': %s (nothing changed)",
		       nd_fix_state_dir(), strerror(-r));
		rc = ND_EXIT_ENV;
		goto out;
	}
	if (base) {
		struct nd_fix_verify_cbs cbs = { print_step, print_measure, (void *)base };

		nd_fix_apply_verified(j, &o->measure, base, &cbs, &out);
	} else {
		nd_fix_apply_range(j, 0, j->n_steps, print_step, NULL, &out);
	}
	rc = finish_apply(j, o, &out);
out:
	nd_fix_journal_free(j);
	free(j);
	return rc;
}

/* Revert one journal and record its new state; 0 or ND_EXIT_ENV. */
static int revert_one(struct nd_fix_journal *j)
{
	struct nd_fix_outcome out = { .failed_index = -1 };
	int r = nd_fix_revert(j, print_step, NULL, &out);

	nd_strlcpy(j->state, r < 0 ? "revert-failed" : "reverted", sizeof(j->state));
	if (nd_fix_journal_write(j) < 0)
		nd_err("cannot update the journal '%s'", j->path);
	nd_render_fix_reverted(j, &out, stdout);
	if (r < 0) {
		nd_err("revert of '%s' incomplete: %s", j->ifname, out.failed_detail);
		return ND_EXIT_ENV;
	}
	return 0;
}

static void no_journal(const struct fix_opts *o, const char *what)
{
	nd_err("no journal %s%s%s%s in '%s'", what, o->ifname ? " for '" : "",
	       o->ifname ? o->ifname : "", o->ifname ? "'" : "", nd_fix_state_dir());
}

/* Every pending journal, newest first: each restores the values from
 * before its own apply, so the last one leaves the originals.  All are
 * checked before the first write; a failure stops the walk. */
static int run_revert(const struct fix_opts *o)
{
	struct nd_fix_journal_set set;
	int rc = load_journals(o->ifname, !o->list, &set);

	if (rc)
		return rc;
	if (o->list) {
		if (set.n)
			nd_render_fix_journals(&set, stdout);
		else
			printf("no journals%s%s%s in '%s'\n", o->ifname ? " for '" : "",
			       o->ifname ? o->ifname : "", o->ifname ? "'" : "", nd_fix_state_dir());
	} else if (!set.n_seen) {
		no_journal(o, "to revert");
		rc = ND_EXIT_ENV;
	} else if (!set.n) {
		printf("nothing to revert: every journal%s%s%s in '%s' is reverted\n",
		       o->ifname ? " of '" : "", o->ifname ? o->ifname : "", o->ifname ? "'" : "",
		       nd_fix_state_dir());
	}
	for (unsigned i = 0; !o->list && i < set.n && rc == 0; i++)
		rc = revert_one(set.j[i]);
	nd_fix_journal_set_free(&set);
	return rc;
}

/* Dry run with --persist: name the files an apply would write. */
static void preview_persist(const struct nd_fix_plan *plan)
{
	struct nd_fix_journal *j = calloc(1, sizeof(*j));

	if (!j)
		return;
	nd_strlcpy(j->ifname, plan->ifname, sizeof(j->ifname));
	j->n_steps = plan->n_steps;
	memcpy(j->steps, plan->steps, plan->n_steps * sizeof(plan->steps[0]));
	if (nd_fix_persist_prepare(j) == 0)
		nd_render_fix_persist_preview(j, stdout);
	nd_fix_journal_free(j);
	free(j);
}

/* The peer's route leaves through IF (route.h), as for diagnose --peer:
 * over lo or another port, a change to IF would be kept or rolled back on
 * that path's numbers.  A name that does not resolve is the measurement's
 * to report.  0 or an exit code after one line. */
static int check_route(const struct fix_opts *o)
{
	struct nd_route route;
	char why[300], line[300];
	int r = nd_probe_route(&nd_root_live, o->peer_host, &route, why, sizeof(why));

	if (r == -EHOSTUNREACH)
		return 0;
	if (r < 0) {
		nd_err("fix: %s (nothing changed)", why);
		return ND_EXIT_ENV;
	}
	if (nd_route_matches(&route, o->ifname))
		return 0;
	nd_err("fix: %s: --peer measures %s's changes, name a peer reached through it",
	       nd_route_describe(&route, o->ifname, line, sizeof(line)), o->ifname);
	return ND_EXIT_USAGE;
}

/* With --peer: the level to beat and the RTT to size buffers by. */
static int measure_baseline(struct fix_opts *o, struct nd_fix_baseline *base)
{
	char why[320];
	int r;

	if (!o->peer)
		return 0;
	r = check_route(o);
	if (r)
		return r;
	r = nd_auth_client_setup(&o->auth, o->username, o->public_key_path, why, sizeof(why));
	if (r < 0) {
		nd_err("fix: %s", why);
		return r == -EINVAL ? ND_EXIT_USAGE : ND_EXIT_ENV;
	}
	o->measure.auth = o->auth.public_key ? &o->auth : NULL;
	o->measure.ifname = o->ifname;
	if (!o->measure.duration_sec)
		o->measure.duration_sec = PEER_RUN_SECONDS;
	r = nd_fix_measure_baseline(&o->measure, base, why, sizeof(why));
	if (r < 0) {
		nd_err("%s (nothing changed)", why);
		return ND_EXIT_ENV;
	}
	nd_render_fix_baseline(&o->measure, base, stdout);
	return 0;
}

static int run_plan(struct fix_opts *o)
{
	struct nd_fix_plan *plan = calloc(1, sizeof(*plan));
	struct nd_fix_baseline base = { 0 };
	struct nd_fix_journal_set earlier = { 0 };
	char default_if[ND_IFNAMSIZ];
	int rc;

	if (!plan)
		return ND_EXIT_ENV;
	rc = nd_resolve_iface(o->src, &o->ifname, default_if, sizeof(default_if));
	if (rc) {
		free(plan);
		return rc;
	}
	if (!nd_source_iface_exists(o->src, o->ifname)) {
		nd_err("no such interface '%s'", o->ifname);
		free(plan);
		return ND_EXIT_USAGE;
	}
	/* Before anything is measured or planned: a killed apply comes first. */
	rc = o->apply ? load_earlier(o->ifname, &earlier) : 0;
	if (rc == 0)
		rc = measure_baseline(o, &base);
	if (rc == 0)
		rc = make_plan(o, base.rtt_usec, plan);
	if (rc == 0) {
		nd_render_fix_plan(plan, !o->apply, stdout);
		if (o->apply && plan->n_steps)
			rc = apply_plan(plan, o, o->peer ? &base : NULL, &earlier);
		else if (o->persist && plan->n_steps)
			preview_persist(plan);
	}
	nd_fix_journal_set_free(&earlier);
	free(plan);
	return rc;
}

int cmd_fix(int argc, char **argv)
{
	struct fix_opts o = { 0 };
	int rc = parse_args(argc, argv, &o), lock_fd = -1, r;

	if (rc)
		return rc < 0 ? ND_EXIT_OK : rc;
	if ((o.apply || o.revert) && geteuid() != 0) {
		nd_err("fix %s needs root", o.revert ? "--revert" : "--apply");
		return ND_EXIT_ENV;
	}
	if (o.apply || o.revert) {
		char why[PATH_MAX + 64] = "";

		/* Journals are obeyed by root: refuse a directory others can write. */
		r = nd_fix_state_dir_check(why, sizeof(why));
		if (r == -EPERM) {
			nd_err("refusing the journals: %s", why);
			return ND_EXIT_ENV;
		}
	}
	if ((o.apply || o.revert) && !o.list) {
		r = nd_fix_lock(&lock_fd);
		if (r == -EBUSY)
			nd_err("another 'nicdoctor fix' is applying or reverting in '%s'",
			       nd_fix_state_dir());
		else if (r < 0)
			nd_err("cannot lock '%s': %s", nd_fix_state_dir(), strerror(-r));
		if (r < 0)
			return ND_EXIT_ENV;
	}
	rc = nd_cmd_open_source(NULL, &o.src);
	if (!rc)
		rc = o.revert ? run_revert(&o) : run_plan(&o);
	nd_source_close(o.src);
	nd_auth_client_clear(&o.auth);
	if (lock_fd >= 0)
		close(lock_fd);
	return rc;
}
