/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * diagnose.h - the one pipeline: probe -> counter window -> checks ->
 * experiments -> verdicts -> report document (src/diagnose/).
 *
 * Every caller runs it: `diagnose` (one port or several), `fix`'s plan,
 * `serve --share`'s far-end report, and each member of a bond or team.
 * None sequences the stages itself, so the same host is judged the same
 * way by all of them; in particular the counter checks always judge the
 * same window (nd_diagnose_open):
 *   - a record (snapshot, sosreport, ...) holds one read: no window;
 *   - traffic to come (nd_diagnose_traffic, or serve's test): the window
 *     is that traffic, from a read just before it to one just after;
 *   - otherwise a sample of sample_sec (1 s unless asked), two reads of
 *     the counters that far apart; 0: none, the since-boot totals only.
 * A bond's or team's members share the upper device's window.
 */
#ifndef NICDOCTOR_DIAGNOSE_H
#define NICDOCTOR_DIAGNOSE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "nicdoctor/auth.h"
#include "nicdoctor/experiment.h"
#include "nicdoctor/report.h"
#include "nicdoctor/route.h"
#include "nicdoctor/source.h"

/* The default sample and its bound (--sample S). */
#define ND_DIAG_SAMPLE_SEC_DEFAULT 1.0
#define ND_DIAG_SAMPLE_SEC_MAX 60.0
/* Exit code after SIGINT/SIGTERM stopped the experiments (128 + SIGINT,
 * as a shell reports it), every trial change reverted first. */
#define ND_EXIT_INTERRUPTED 130

/* What is diagnosed and how. */
struct nd_diag_request {
	struct nd_source *src;		/* where the facts come from (source.h) */
	const char *ifname;
	const char *skip, *only;	/* comma lists of check IDs, NULL none */
	bool traffic;			/* traffic follows: it will be the window */
	double sample_sec;		/* no traffic: < 0 the default, 0 none */
	bool members;			/* diagnose a bond's or team's members too */
	nd_exp_progress_fn progress;	/* "sampling the counters ...": NULL quiet */
};

/* The traffic (nd_diagnose_traffic): a peer's plan or the loopback baseline. */
struct nd_diag_traffic {
	const char *peer_host;		/* NULL: the loopback baseline */
	uint16_t peer_port;
	double duration_sec;		/* 0: the mode's default */
	bool trial_fixes;
	const struct nd_auth_client *auth;	/* NULL: none */
	volatile sig_atomic_t *stop;	/* set by a signal: stop at a safe point */
	nd_exp_progress_fn progress;	/* NULL: quiet */
	/* The peer's route (route.h), NULL not looked up: throughput.route;
	 * a route that does not leave through the interface (--allow-route)
	 * measures another path, which judges none of its suspects. */
	const struct nd_route *route;
};

/* A member of a bond or team, through the same pipeline. */
struct nd_diag_member;

struct nd_diagnosis {
	struct nd_report report;
	struct nd_facts *facts;		/* owned */
	/* The traffic's numbers and verdicts (nd_diagnose_traffic). */
	struct nd_exp_set set;
	struct nd_exp_summary sum;
	struct nd_exp_trial trials[ND_EXP_MAX_TRIALS];
	unsigned n_trials;
	int traffic_rc;			/* 0, ND_EXIT_ENV, ND_EXIT_INTERRUPTED */
	struct nd_diag_member *members;	/* owned */
	unsigned n_members;
	double window_start_sec;	/* nd_probe_clock_sec() of the first read */
};

/*
 * Probe rq->ifname, take the counter window the rule above gives, run the
 * checks and build the report document (with the members' own reports
 * when asked).  0, or a negative errno after which d holds nothing:
 * -ENODEV no such interface, -EINVAL an unknown check ID (*ret_bad_id
 * names it), another probe error.
 */
int nd_diagnose_open(const struct nd_diag_request *rq, struct nd_diagnosis *d,
		     const char **ret_bad_id);

/*
 * The traffic t on d (opened with rq->traffic): the counter window around
 * it, the checks judged again on that window, the experiments' verdicts,
 * measured ceilings, trials, the far end.  d->traffic_rc says how it went;
 * errors are printed.
 */
void nd_diagnose_traffic(const struct nd_diag_traffic *t, struct nd_diagnosis *d);

/*
 * The window is traffic that someone else drives (serve: the client's
 * test): nd_diagnose_window_begin just before it, nd_diagnose_window_end
 * (what, label: how the evidence and the titles name it) just after, which
 * judges the checks again.
 */
void nd_diagnose_window_begin(struct nd_diagnosis *d);
void nd_diagnose_window_end(struct nd_diagnosis *d, const char *what, const char *label);

void nd_diagnosis_free(struct nd_diagnosis *d);

/* Facts to a report without I/O: every check (skip/only as above), the
 * ceilings; -EINVAL with *ret_bad_id the unknown ID, -ENOMEM.  For facts
 * made elsewhere (tests, a far end's JSON). */
int nd_diagnose_judge(struct nd_report *report, const struct nd_facts *facts, const char *skip,
		      const char *only, const char **ret_bad_id);
/* The registered checks judged again on report->facts, which changed. */
void nd_diagnose_rejudge(struct nd_report *report);

#endif
