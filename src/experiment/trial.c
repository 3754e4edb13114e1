/*
 * trial.c - `diagnose --trial-fixes`: an A/B run per fixable suspect.
 *
 * Each suspect that a fix kind answers and the runs did not refute gets
 * its fix planned alone, journalled (fsync'd before anything changes, so
 * after a crash `nicdoctor fix --revert` restores it), applied with
 * read-back, measured with the forward many-stream run, and reverted from
 * the journal at once, whatever the run did.  A stop request (SIGINT,
 * SIGTERM) or a failing run ends the trials after that revert.  The
 * writes themselves are the fixes engine's (fixes/), never ours.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nicdoctor/common.h"
#include "nicdoctor/experiment.h"
#include "nicdoctor/fix.h"
#include "verdict_int.h"

struct trial_ctx {
	const struct nd_facts *facts;
	const struct nd_exp_target *target;
	struct nd_exp_set *set;
	nd_exp_progress_fn progress;
	void *arg;
};

static void say(const struct trial_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void say(const struct trial_ctx *c, const char *fmt, ...)
{
	char line[320];
	va_list ap;

	if (!c->progress)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	c->progress(line, c->arg);
}

static bool wants_trial(const struct nd_finding *f)
{
	if (!f->id || f->skipped || f->severity < ND_SEV_WARNING ||
	    f->verdict == ND_VERDICT_REFUTED)
		return false;
	return nd_fix_kind_for_check(f->id) != NULL;
}

/* Put everything back from the journal and record the state on disk. */
static int revert_journal(struct nd_fix_journal *j, struct nd_exp_trial *t)
{
	struct nd_fix_outcome out = { .failed_index = -1 };
	int r = nd_fix_revert(j, NULL, NULL, &out);

	nd_strlcpy(j->state, r < 0 ? "revert-failed" : "reverted", sizeof(j->state));
	if (nd_fix_journal_write(j) < 0 && r == 0)
		r = -EIO;
	t->reverted = r == 0;
	if (r < 0)
		snprintf(t->error, sizeof(t->error), "revert incomplete (%s): run 'nicdoctor fix "
			 "--revert %s'", out.failed_detail[0] ? out.failed_detail : strerror(-r),
			 j->ifname);
	return r < 0 ? -EIO : 0;
}

/* Journal, apply, measure, revert one plan.  0, -EIO (revert failed) or
 * the run's negative errno. */
static int trial_one(const struct trial_ctx *c, const struct nd_fix_plan *plan,
		     struct nd_exp_trial *t)
{
	const struct nd_exp_run *before = &c->set->runs[ND_RUN_FORWARD_MANY];
	struct nd_fix_outcome out = { .failed_index = -1 };
	struct nd_fix_journal *j = calloc(1, sizeof(*j));
	struct nd_exp_run *after = calloc(1, sizeof(*after));
	char why[320];
	int r, run_r = 0;

	if (!j || !after) {
		free(j);
		free(after);
		return -ENOMEM;
	}
	r = nd_fix_journal_capture(j, plan, why, sizeof(why));
	if (r == 0) {
		nd_strlcpy(j->state, "applying", sizeof(j->state));
		r = nd_fix_journal_write(j);
		if (r < 0)
			snprintf(why, sizeof(why), "cannot write the journal in '%s': %s",
				 nd_fix_state_dir(), strerror(-r));
	}
	if (r < 0) {
		snprintf(t->error, sizeof(t->error), "not tried: %s", why);
		t->reverted = true;	/* nothing was changed */
		r = 0;
		goto out;
	}
	/* A failed step undoes what this call applied; revert covers the rest. */
	r = nd_fix_apply_range(j, 0, j->n_steps, NULL, NULL, &out);
	if (r < 0) {
		snprintf(t->error, sizeof(t->error), "not applied: %s", out.failed_detail);
	} else {
		say(c, "trial %s: applied %u change%s, measuring", t->kind, j->n_steps,
		    j->n_steps == 1 ? "" : "s");
		run_r = nd_exp_measure(c->target, before->streams, false,
				       nd_exp_run_sec(before->duration_sec, 1), after,
				       c->set->error, sizeof(c->set->error));
		if (run_r == 0) {
			t->measured = true;
			t->before_mbps = before->mbps;
			t->after_mbps = after->mbps;
		} else {
			snprintf(t->error, sizeof(t->error), "run failed: %s", c->set->error);
		}
	}
	r = revert_journal(j, t);
	say(c, "trial %s: %s", t->kind, t->reverted ? "reverted" : t->error);
	if (r == 0)
		r = run_r;
out:
	nd_fix_journal_free(j);
	free(j);
	free(after);
	return r;
}

/* Plan the fix of one finding alone; 0 with no steps when nothing to do. */
static int plan_for(const struct trial_ctx *c, const struct nd_finding *f,
		    struct nd_fix_plan *plan)
{
	const struct nd_exp_run *fwd = &c->set->runs[ND_RUN_FORWARD_MANY];
	struct nd_fix_options opts = { .rtt_usec = fwd->min_rtt_usec,
				       .rtt_measured = fwd->min_rtt_usec > 0 };

	return nd_fix_plan_build(c->facts, f, 1, &opts, plan);
}

int nd_exp_run_trials(const struct nd_facts *facts, const struct nd_finding *findings,
		      unsigned n_findings, const struct nd_exp_target *target,
		      struct nd_exp_set *set, const volatile sig_atomic_t *stop,
		      nd_exp_progress_fn progress, void *arg, struct nd_exp_trial *trials,
		      unsigned *ret_n_trials)
{
	struct trial_ctx c = { facts, target, set, progress, arg };
	struct nd_fix_plan *plan = calloc(1, sizeof(*plan));
	unsigned n = 0;
	int r = 0;

	*ret_n_trials = 0;
	if (!plan)
		return -ENOMEM;
	if (!set->runs[ND_RUN_FORWARD_MANY].done) {
		free(plan);
		return 0;
	}
	for (unsigned i = 0; i < n_findings && n < ND_EXP_MAX_TRIALS && r == 0; i++) {
		struct nd_exp_trial *t = &trials[n];

		if (stop && *stop) {
			set->interrupted = true;
			r = -EINTR;
			break;
		}
		if (!wants_trial(&findings[i]))
			continue;
		r = plan_for(&c, &findings[i], plan);
		if (r < 0 || plan->n_steps == 0) {
			r = 0;		/* nothing this kind can change here */
			continue;
		}
		memset(t, 0, sizeof(*t));
		nd_strlcpy(t->finding_id, findings[i].id, sizeof(t->finding_id));
		nd_strlcpy(t->kind, plan->steps[0].kind->name, sizeof(t->kind));
		t->steps = plan->n_steps;
		n++;
		r = trial_one(&c, plan, t);
		if (r == 0 && stop && *stop) {
			set->interrupted = true;
			r = -EINTR;
		}
	}
	*ret_n_trials = n;
	free(plan);
	return r;
}
