/*
 * verdict_severity.c - what the verdicts do to a finding's severity, and
 * path.asymmetric, the one effect the runs themselves find.  Pure, like
 * verdict.c; unit tested in tests/unit/test_verdict_severity.c.
 *
 * A check judges from the facts; the runs then judge the check:
 *   - a suspect the runs refuted is not a warning: it becomes info, so it
 *     no longer sets the exit code or the worst severity;
 *   - a tool.* finding is info (the installed tool is not the NIC's
 *     problem until someone measures with it) and becomes a warning only
 *     when a run confirms it;
 *   - an effect a confirmed cause explains (forward slower than reverse
 *     beside a confirmed egress shaper) is info and names that cause.
 * The check's own severity stays in severity_before_verdict, so applying
 * the verdicts again (the ports together change a verdict) starts from it.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nicdoctor/common.h"
#include "nicdoctor/experiment.h"
#include "verdict_int.h"

/* Forward and reverse differing by more than a fifth is more than run
 * noise and TCP's direction-dependent ACK cost: the path is asymmetric. */
#define ASYMMETRY_SHARE 0.20

static double round1(double v)
{
	return round(v * 10.0) / 10.0;
}

bool nd_finding_info_until_confirmed(const struct nd_finding *f)
{
	return f->id && strncmp(f->id, "tool.", 5) == 0;
}

enum nd_severity nd_finding_check_severity(const struct nd_finding *f)
{
	return f->severity_by_verdict ? f->severity_before_verdict : f->severity;
}

void nd_verdict_apply_severity(struct nd_finding *f)
{
	enum nd_severity before = nd_finding_check_severity(f), after = before;

	if (f->skipped)
		return;
	if (f->verdict == ND_VERDICT_REFUTED && before >= ND_SEV_WARNING)
		after = ND_SEV_INFO;
	else if (f->verdict == ND_VERDICT_CONFIRMED && before == ND_SEV_INFO &&
		 nd_finding_info_until_confirmed(f))
		after = ND_SEV_WARNING;
	f->severity = after;
	f->severity_by_verdict = after != before;
	f->severity_before_verdict = f->severity_by_verdict ? before : ND_SEV_OK;
}

void nd_verdicts_apply_severity(struct nd_finding *fs, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		nd_verdict_apply_severity(&fs[i]);
}

/* A confirmed cause that holds back many streams in this direction only
 * (an egress shaper: forward; one receive CPU: reverse); -1 none.  A
 * per-flow or per-connection limit says nothing of many streams, and a
 * cause of both directions does not make them differ. */
static int explaining_cause(const struct nd_finding *fs, unsigned n, enum nd_suspect_dir slower)
{
	for (unsigned i = 0; i < n; i++) {
		enum nd_suspect_dir dir;

		if (fs[i].verdict != ND_VERDICT_CONFIRMED || !nd_suspect_explains_shortfall(&fs[i]))
			continue;
		nd_suspect_kind_of(&fs[i], &dir);
		if (dir == slower)
			return (int)i;
	}
	return -1;
}

static struct nd_finding *find_id(struct nd_finding *fs, unsigned n, const char *id)
{
	for (unsigned i = 0; i < n; i++)
		if (fs[i].id && !strcmp(fs[i].id, id))
			return &fs[i];
	return NULL;
}

static void asymmetric_evidence(struct nd_finding *f, const struct nd_exp_run *fwd,
				const struct nd_exp_run *rev)
{
	cJSON_Delete(f->evidence);
	f->evidence = cJSON_CreateObject();
	cJSON_AddNumberToObject(f->evidence, "forward_mbps", round1(fwd->mbps));
	cJSON_AddNumberToObject(f->evidence, "reverse_mbps", round1(rev->mbps));
	cJSON_AddNumberToObject(f->evidence, "tolerance_pct", 100.0 * ASYMMETRY_SHARE);
	f->not_applicable = false;
	f->ceiling_mbps = -1;
	f->ceiling_source[0] = '\0';
	f->explained_by[0] = '\0';
	f->severity_by_verdict = false;
	cJSON_Delete(f->experiment);
	f->experiment = NULL;
	f->verdict = ND_VERDICT_UNTESTED;
}

bool nd_verdict_asymmetric(const struct nd_exp_set *set, struct nd_finding *fs, unsigned n)
{
	const struct nd_exp_run *fwd = nd_exp_run_get(set, ND_RUN_FORWARD_MANY);
	const struct nd_exp_run *rev = nd_exp_run_get(set, ND_RUN_REVERSE_MANY);
	struct nd_finding *f = find_id(fs, n, "path.asymmetric");
	const char *slower, *faster;
	double high, low, diff;
	int cause;
	cJSON *e;

	if (!f || f->skipped || set->mode != ND_EXP_PEER || !fwd || !rev)
		return false;
	high = fmax(fwd->mbps, rev->mbps);
	low = fmin(fwd->mbps, rev->mbps);
	if (high <= 0)
		return false;
	diff = (high - low) / high;
	asymmetric_evidence(f, fwd, rev);
	if (diff <= ASYMMETRY_SHARE) {
		nd_finding_set(f, ND_SEV_OK, "forward %.0f and reverse %.0f Mbit/s: within %.0f%%",
			       fwd->mbps, rev->mbps, 100.0 * ASYMMETRY_SHARE);
		return false;
	}
	slower = rev->mbps < fwd->mbps ? "reverse" : "forward";
	faster = rev->mbps < fwd->mbps ? "forward" : "reverse";
	cJSON_AddStringToObject(f->evidence, "slower", slower);
	cause = explaining_cause(fs, n, rev->mbps < fwd->mbps ? ND_DIR_REVERSE : ND_DIR_FORWARD);
	nd_finding_set(f, cause < 0 ? ND_SEV_WARNING : ND_SEV_INFO,
		       "%s is slower: %.0f Mbit/s against %.0f Mbit/s %s (%.0f%% less)%s%s",
		       rev->mbps < fwd->mbps ? "reverse (peer to here)" : "forward (here to peer)",
		       low, high, faster, 100.0 * diff, cause < 0 ? "" : ", explained by ",
		       cause < 0 ? "" : fs[cause].id);
	e = cJSON_CreateObject();
	cJSON_AddStringToObject(e, "kind", "direction");
	cJSON_AddNumberToObject(e, "forward_mbps", round1(fwd->mbps));
	cJSON_AddNumberToObject(e, "reverse_mbps", round1(rev->mbps));
	cJSON_AddStringToObject(e, "slower", slower);
	cJSON_AddNumberToObject(e, "difference_pct", round1(100.0 * diff));
	cJSON_AddNumberToObject(e, "tolerance_pct", 100.0 * ASYMMETRY_SHARE);
	if (cause >= 0) {
		nd_strlcpy(f->explained_by, fs[cause].id, sizeof(f->explained_by));
		cJSON_AddStringToObject(e, "explained_by", fs[cause].id);
		/* Read first as an effect, not as a second cause. */
		nd_verdict_set(f, ND_VERDICT_CONFIRMED, e, "explained by %s (confirmed, it limits "
			       "%s only): %s is %.0f%% below %s", fs[cause].id, slower, slower,
			       100.0 * diff, faster);
	} else {
		nd_verdict_set(f, ND_VERDICT_CONFIRMED, e, "%s is %.0f%% below %s, more than %.0f%%",
			       slower, 100.0 * diff, faster, 100.0 * ASYMMETRY_SHARE);
	}
	return true;
}
