/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pipeline.c - probe -> counter window -> checks -> report document, the
 * first half of the one pipeline (diagnose.h), and the window rule every
 * caller gets.  traffic.c is the second half: experiments and verdicts.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nicdoctor/bond.h"
#include "nicdoctor/check.h"
#include "nicdoctor/common.h"
#include "nicdoctor/diagnose.h"
#include "nicdoctor/probe.h"
#include "nicdoctor/queues.h"
#include "nicdoctor/sysroot.h"
#include "pipeline_int.h"

int nd_diagnose_judge(struct nd_report *report, const struct nd_facts *facts, const char *skip,
		      const char *only, const char **ret_bad_id)
{
	struct nd_finding *findings = NULL;
	char bad_id[sizeof(report->bad_id)] = "";
	int r = nd_checks_run(facts, skip, only, &findings, bad_id, sizeof(bad_id));

	nd_report_init(report, facts, findings, r < 0 ? 0 : nd_checks_count);
	if (r == -EINVAL) {
		nd_strlcpy(report->bad_id, bad_id, sizeof(report->bad_id));
		if (ret_bad_id)
			*ret_bad_id = report->bad_id;
	}
	return r;
}

void nd_diagnose_rejudge(struct nd_report *report)
{
	nd_checks_rerun(report->facts, report->findings, report->n_findings);
	nd_report_collect_ceilings(report);
}

/* What a counter read of one interface covers: the interface and the IRQs
 * the checks take for its queue IRQs. */
static void counter_source(const struct nd_facts *facts, struct window_read *w)
{
	w->src.ifname = facts->ifname;
	w->src.queue_irqs = w->irqs;
	w->src.n_queue_irqs = nd_facts_queue_irqs(facts, w->irqs, ND_MAX_IRQS);
}

/* The interface and its members, read together: one window for all. */
static unsigned window_reads(struct nd_diagnosis *d, struct window_read *reads, unsigned max)
{
	unsigned n = 0;

	reads[n].facts = d->facts;
	counter_source(d->facts, &reads[n++]);
	for (unsigned i = 0; i < d->n_members && n < max; i++) {
		if (!d->members[i].d.facts)
			continue;
		reads[n].facts = d->members[i].d.facts;
		counter_source(d->members[i].d.facts, &reads[n++]);
	}
	return n;
}

void nd_diagnose_window_begin(struct nd_diagnosis *d)
{
	struct window_read reads[1 + ND_DIAG_MAX_MEMBERS];
	unsigned n = window_reads(d, reads, ND_ARRAY_SIZE(reads));

	for (unsigned i = 0; i < n; i++)
		nd_probe_counter_sample(&nd_root_live, &reads[i].src,
					&reads[i].facts->window.before);
	d->window_start_sec = nd_probe_clock_sec();
}

/* Close the window on every interface read (one that cannot be read
 * again is unknown, with why). */
static void window_close(struct nd_diagnosis *d, const char *what, const char *label)
{
	struct window_read reads[1 + ND_DIAG_MAX_MEMBERS];
	unsigned n = window_reads(d, reads, ND_ARRAY_SIZE(reads));
	double seconds = nd_probe_clock_sec() - d->window_start_sec;

	for (unsigned i = 0; i < n; i++) {
		struct nd_counter_window *w = &reads[i].facts->window;

		if (nd_probe_counter_sample(&nd_root_live, &reads[i].src, &w->after) < 0) {
			nd_counter_window_unknown(w, "the counters could not be read again");
			continue;
		}
		nd_counter_window_set(w, what, label, seconds);
	}
}

void nd_diagnose_window_end(struct nd_diagnosis *d, const char *what, const char *label)
{
	window_close(d, what, label);
	nd_diagnose_rejudge(&d->report);
	nd_diag_members_rejudge(d);
}

/* No traffic: two reads sample_sec apart. */
static void window_sample(const struct nd_diag_request *rq, struct nd_diagnosis *d, double sec)
{
	struct timespec ts = { (time_t)sec, (long)((sec - (double)(time_t)sec) * 1e9) };
	char label[64];

	if (rq->progress) {
		snprintf(label, sizeof(label), "sampling the counters for %g s", sec);
		rq->progress(label, NULL);
	}
	nd_diagnose_window_begin(d);
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
	snprintf(label, sizeof(label), "the last %g s", sec);
	window_close(d, "sample", label);
}

/* The one rule (diagnose.h): which window the counter checks judge. */
static void window_open(const struct nd_diag_request *rq, struct nd_diagnosis *d)
{
	double sec = rq->sample_sec < 0 ? ND_DIAG_SAMPLE_SEC_DEFAULT : rq->sample_sec;
	const char *none = !nd_source_is_live(rq->src) ? "a snapshot holds one read"
			   : rq->traffic ? "no traffic run completed"
			   : sec <= 0 ? "--sample 0" : NULL;

	for (unsigned i = 0; i < d->n_members; i++)
		if (d->members[i].d.facts)
			nd_counter_window_unknown(&d->members[i].d.facts->window,
						  none ? none : "no window measured");
	if (none) {
		nd_counter_window_unknown(&d->facts->window, none);
		return;
	}
	window_sample(rq, d, sec);
}

int nd_diagnose_open(const struct nd_diag_request *rq, struct nd_diagnosis *d,
		     const char **ret_bad_id)
{
	int r;

	memset(d, 0, sizeof(*d));
	r = nd_probe(rq->src, rq->ifname, &d->facts);
	if (r < 0)
		return r;
	if (rq->members)
		nd_diag_members_probe(rq->src, d);
	window_open(rq, d);
	r = nd_diagnose_judge(&d->report, d->facts, rq->skip, rq->only, ret_bad_id);
	if (r < 0) {
		nd_diagnosis_free(d);
		return r;
	}
	nd_diag_members_judge(d);
	return 0;
}

void nd_diagnosis_free(struct nd_diagnosis *d)
{
	nd_report_free(&d->report);
	nd_diag_members_free(d);
	nd_facts_free(d->facts);
	d->facts = NULL;
}
