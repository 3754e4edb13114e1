/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * traffic.c - the second half of the one pipeline: the traffic (the plan
 * against a peer, or the loopback baseline) as the counter window, the
 * checks judged again on it, the verdicts, the measured ceilings (CPU,
 * socket windows), --trial-fixes, and the far end's view.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nicdoctor/bond.h"
#include "nicdoctor/common.h"
#include "nicdoctor/diagnose.h"
#include "nicdoctor/fix.h"
#include "nicdoctor/probe.h"
#include "nicdoctor/queues.h"
#include "nicdoctor/sysroot.h"
#include "pipeline_int.h"

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
		char detail[160];
		double mbps = nd_verdict_window_ceiling_detail(f, set, detail, sizeof(detail));

		if (mbps < 0 || strncmp(f->id, "sysctl.", 7) != 0)
			continue;
		nd_report_add_ceiling(report, "window", mbps, detail);
	}
}

/* --trial-fixes: root, the fixes lock, then the A/B runs. */
static int run_trials(const struct nd_diag_traffic *t, const struct nd_exp_target *target,
		      struct nd_diagnosis *d)
{
	struct nd_report *report = &d->report;
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
			      &d->set, t->stop, t->progress, NULL, d->trials, &d->n_trials);
	close(lock_fd);
	for (unsigned i = 0; i < d->n_trials; i++)
		if (!d->trials[i].reverted)
			nd_err("trial of %s: %s", d->trials[i].kind, d->trials[i].error);
	if (r == -EINTR)
		return ND_EXIT_INTERRUPTED;
	if (r < 0) {
		char msg[400];

		nd_exp_peer_message(&d->set, r, msg, sizeof(msg));
		nd_err("%s", r == -EIO ? "a trial fix could not be reverted" : msg);
		return ND_EXIT_ENV;
	}
	return 0;
}

/* The counters' window over the runs: the counter checks judge what
 * grew while the traffic ran, before the verdicts test them. */
static void window_over_runs(struct nd_diagnosis *d)
{
	const struct nd_exp_set *set = &d->set;
	double traffic_sec = 0;
	unsigned runs = 0;
	char label[64];

	for (unsigned i = 0; i < ND_RUN_KINDS; i++)
		if (set->runs[i].done) {
			runs++;
			traffic_sec += set->runs[i].duration_sec;
		}
	if (!runs) {
		nd_counter_window_unknown(&d->facts->window, "no traffic run completed");
		return;
	}
	if (set->mode == ND_EXP_LOOPBACK)
		snprintf(label, sizeof(label), "the %.0f s loopback baseline", traffic_sec);
	else
		snprintf(label, sizeof(label), "the %u run%s (%.0f s of traffic)", runs,
			 runs == 1 ? "" : "s", traffic_sec);
	nd_probe_bond_window_end(&nd_root_live, d->facts,
				 nd_probe_clock_sec() - d->window_start_sec);
	nd_diagnose_window_end(d, set->mode == ND_EXP_LOOPBACK ? "run loopback baseline"
							      : "run peer plan", label);
}

/* The far end's view and verdicts; its bottleneck becomes the headline's
 * when it explains the measurement better than ours. */
static void add_far_end(struct nd_diagnosis *d)
{
	struct nd_report *report = &d->report;
	cJSON *far_bottleneck = NULL;

	report->peer = nd_far_peer_json(&d->set, &far_bottleneck);
	if (report->throughput &&
	    nd_far_binding_wins(far_bottleneck, &d->sum, report->findings, report->n_findings)) {
		cJSON_ReplaceItemInObjectCaseSensitive(report->throughput, "bottleneck",
						       far_bottleneck);
		far_bottleneck = NULL;
	}
	cJSON_Delete(far_bottleneck);
	nd_exp_set_release(&d->set);
}

static int run_traffic(const struct nd_diag_traffic *t, const struct nd_exp_target *target,
		       struct nd_diagnosis *d)
{
	if (t->peer_host) {
		nd_peer_format(d->set.peer, sizeof(d->set.peer), t->peer_host, t->peer_port);
		return nd_exp_run_plan(target, d->report.facts,
				       t->duration_sec ? t->duration_sec : ND_EXP_PLAN_SEC_DEFAULT,
				       t->stop, t->progress, NULL, &d->set);
	}
	return nd_exp_run_baseline(t->duration_sec ? t->duration_sec : ND_EXP_BASELINE_SEC_DEFAULT,
				   t->progress, NULL, &d->set);
}

/* The route in the throughput object: null when not looked up. */
static void add_route(struct nd_report *report, const struct nd_route *route)
{
	cJSON *obj;

	if (!report->throughput)
		return;
	obj = route ? nd_route_json(route, report->facts->ifname) : NULL;
	cJSON_AddItemToObject(report->throughput, "route", obj ? obj : cJSON_CreateNull());
}

void nd_diagnose_traffic(const struct nd_diag_traffic *t, struct nd_diagnosis *d)
{
	struct nd_exp_target target = { .host = t->peer_host, .port = t->peer_port,
					.ifname = d->facts->ifname, .want_peer = true,
					.auth = t->auth };
	struct nd_report *report = &d->report;
	/* --allow-route over another path: its numbers are that path's, and
	 * speak to none of this interface's suspects (as the loopback
	 * baseline does not), nor to its wire. */
	bool other_path = t->peer_host && t->route &&
			  !nd_route_matches(t->route, d->facts->ifname);
	char msg[400];
	int r;

	d->set.wire_mbps = other_path ? -1 : nd_facts_wire_ceiling_mbps(report->facts);
	nd_diagnose_window_begin(d);
	nd_probe_bond_window_start(&nd_root_live, d->facts);
	r = run_traffic(t, &target, d);
	if (r == -EINTR || (t->stop && *t->stop)) {
		d->set.interrupted = true;
		d->traffic_rc = ND_EXIT_INTERRUPTED;
	} else if (r < 0 && t->peer_host) {
		nd_exp_peer_message(&d->set, r, msg, sizeof(msg));
		nd_err("%s", msg);
		d->traffic_rc = ND_EXIT_ENV;
	} else if (r < 0) {
		nd_err("loopback baseline: %s", d->set.error);
	}
	window_over_runs(d);
	nd_verdicts_decide(report->findings, other_path ? 0 : report->n_findings, &d->set,
			   &d->sum);
	if (!other_path)
		nd_verdict_asymmetric(&d->set, report->findings, report->n_findings);
	add_cpu_ceiling(report, &d->set);
	if (!other_path)
		add_window_ceilings(report, &d->set);
	if (t->trial_fixes && !other_path && r == 0 && !d->traffic_rc)
		d->traffic_rc = run_trials(t, &target, d);
	report->throughput = nd_exp_throughput_json(&d->set, &d->sum, report->findings,
						    report->n_findings, d->trials, d->n_trials);
	if (!other_path)
		nd_diag_stack_verdicts(d);
	if (t->peer_host)
		add_route(report, t->route);
	add_far_end(d);
}
