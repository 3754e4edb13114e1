/*
 * far.c - the far end of a two-ended diagnosis.  `nicdoctor serve` sends
 * its own report for the interface the test arrived on; here its suspects
 * are judged with the same verdict logic as ours, on the runs seen from its
 * side: our forward runs are its receive runs, measured against the CPU
 * load it reported.  A receive-side cause (one RX queue, RPS off, IRQs on
 * one CPU, a downgraded PCIe link) is so attributed to the host it is on.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicdoctor/common.h"
#include "nicdoctor/experiment.h"
#include "nicdoctor/sanitize.h"
#include "nicdoctor/share.h"

#define FAR_MAX_FINDINGS 64

static enum nd_severity severity_of(const char *name)
{
	for (int s = ND_SEV_OK; s <= ND_SEV_CRITICAL; s++)
		if (name && !strcmp(name, nd_severity_name((enum nd_severity)s)))
			return (enum nd_severity)s;
	return ND_SEV_UNKNOWN;
}

static const char *str_of(const cJSON *obj, const char *key)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);

	return cJSON_IsString(item) ? item->valuestring : NULL;
}

/* The far end's findings as ours; IDs this version does not know are
 * left out (a newer server may have more checks). */
static unsigned findings_from(const cJSON *report, struct nd_finding *fs, unsigned max)
{
	const cJSON *f;
	unsigned n = 0;

	cJSON_ArrayForEach(f, cJSON_GetObjectItemCaseSensitive(report, "findings")) {
		const struct nd_check *check = nd_check_find(str_of(f, "id") ? str_of(f, "id") : "");
		const cJSON *ceiling = cJSON_GetObjectItemCaseSensitive(f, "ceiling_mbps");
		struct nd_finding *out = &fs[n];

		if (!check || n >= max || cJSON_IsTrue(cJSON_GetObjectItem(f, "skipped")))
			continue;
		memset(out, 0, sizeof(*out));
		out->id = check->id;
		out->severity = severity_of(str_of(f, "severity"));
		nd_strlcpy(out->title, str_of(f, "title") ? str_of(f, "title") : "", sizeof(out->title));
		out->ceiling_mbps = cJSON_IsNumber(ceiling) ? ceiling->valuedouble : -1;
		nd_strlcpy(out->ceiling_source, str_of(f, "ceiling_source") ?
			   str_of(f, "ceiling_source") : "", sizeof(out->ceiling_source));
		out->evidence = cJSON_Duplicate(cJSON_GetObjectItem(f, "evidence"), 1);
		n++;
	}
	return n;
}

/* The runs as the far end saw them: directions swapped, its CPU load. */
static void mirror(const struct nd_exp_set *set, double far_wire_mbps, struct nd_exp_set *ret)
{
	static const struct { enum nd_exp_run_kind ours, theirs; } map[] = {
		{ ND_RUN_FORWARD_MANY, ND_RUN_REVERSE_MANY },
		{ ND_RUN_REVERSE_MANY, ND_RUN_FORWARD_MANY },
	};

	memset(ret, 0, sizeof(*ret));
	ret->mode = set->mode;
	ret->wire_mbps = far_wire_mbps;
	for (size_t i = 0; i < ND_ARRAY_SIZE(map); i++) {
		const struct nd_exp_run *src = &set->runs[map[i].ours];
		struct nd_exp_run *dst = &ret->runs[map[i].theirs];

		if (!src->done)
			continue;
		*dst = *src;
		dst->reverse = !src->reverse;
		/* Our counters and TCP_INFO say nothing of the far host. */
		dst->nic_valid = dst->softnet_valid = false;
		dst->retransmits = dst->peer_retransmits = -1;
		dst->cpus_count = src->far_cpus_count;
		memcpy(dst->cpus, src->far_cpus, sizeof(dst->cpus));
		dst->far_cpus_count = 0;
	}
}

static double far_wire_mbps(const cJSON *report, double fallback)
{
	const cJSON *c;

	cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(report, "ceilings")) {
		const cJSON *mbps = cJSON_GetObjectItemCaseSensitive(c, "mbps");

		if (str_of(c, "source") && !strcmp(str_of(c, "source"), "wire") &&
		    cJSON_IsNumber(mbps))
			return mbps->valuedouble;
	}
	return fallback;
}

/* Our verdicts into the far report's findings, matched by ID. */
static void write_back(cJSON *report, const struct nd_finding *fs, unsigned n)
{
	cJSON *f;

	cJSON_ArrayForEach(f, cJSON_GetObjectItemCaseSensitive(report, "findings")) {
		for (unsigned i = 0; i < n; i++) {
			if (!str_of(f, "id") || strcmp(str_of(f, "id"), fs[i].id))
				continue;
			cJSON_DeleteItemFromObjectCaseSensitive(f, "verdict");
			cJSON_AddStringToObject(f, "verdict", nd_verdict_name(fs[i].verdict));
			if (fs[i].severity_by_verdict) {	/* as in our own findings */
				cJSON_ReplaceItemInObjectCaseSensitive(
					f, "severity",
					cJSON_CreateString(nd_severity_name(fs[i].severity)));
				cJSON_AddStringToObject(f, "severity_before_verdict",
							nd_severity_name(fs[i].severity_before_verdict));
			}
			cJSON_DeleteItemFromObjectCaseSensitive(f, "experiment");
			cJSON_AddItemToObject(f, "experiment", fs[i].experiment ?
					      cJSON_Duplicate(fs[i].experiment, 1) :
					      cJSON_CreateNull());
		}
	}
}

/* Judge the shared report; returns the far end's bottleneck or NULL. */
static cJSON *judge(const struct nd_exp_set *set, cJSON *report)
{
	struct nd_finding *fs = calloc(FAR_MAX_FINDINGS, sizeof(*fs));
	struct nd_exp_set *seen = calloc(1, sizeof(*seen));
	struct nd_exp_summary sum = { .measured_mbps = -1, .binding = -1 };
	cJSON *bottleneck = NULL;
	unsigned n;

	if (!fs || !seen) {
		free(fs);
		free(seen);
		return NULL;
	}
	n = findings_from(report, fs, FAR_MAX_FINDINGS);
	mirror(set, far_wire_mbps(report, set->wire_mbps), seen);
	nd_verdicts_decide(fs, n, seen, &sum);
	write_back(report, fs, n);
	if (sum.binding >= 0 && (unsigned)sum.binding < n)
		bottleneck = nd_exp_bottleneck_json(&fs[sum.binding], "far end");
	for (unsigned i = 0; i < n; i++)
		nd_finding_free(&fs[i]);
	free(fs);
	free(seen);
	return bottleneck;
}

static cJSON *far_cpus(const struct nd_exp_run *run)
{
	cJSON *arr = cJSON_CreateArray();

	for (int i = 0; arr && i < run->far_cpus_count; i++) {
		cJSON *c = cJSON_CreateObject();

		cJSON_AddNumberToObject(c, "cpu", run->far_cpus[i].cpu);
		cJSON_AddNumberToObject(c, "busy_pct", run->far_cpus[i].busy_pct);
		cJSON_AddNumberToObject(c, "softirq_pct", run->far_cpus[i].softirq_pct);
		cJSON_AddItemToArray(arr, c);
	}
	return arr;
}

static void set_status(cJSON *peer, const char *status, const char *reason)
{
	cJSON_AddStringToObject(peer, "status", status);
	cJSON_AddStringToObject(peer, "reason", reason);
}

/* Why a plan that stopped before the far end answered has no view of it:
 * "unreachable" when no run got through (refused, no route, no answer),
 * "busy", "interrupted", or "failed" for the rest; the reason is the line
 * diagnose printed.  NULL when the plan did not fail. */
static const char *plan_failure(const struct nd_exp_set *set, char *reason, size_t size)
{
	bool some_done = false;

	for (int k = 0; k < ND_RUN_KINDS; k++)
		some_done |= set->runs[k].done;
	if (set->err >= 0)
		return NULL;
	nd_exp_peer_message(set, set->err, reason, size);
	switch (set->err) {
	case -ECONNREFUSED: case -EHOSTUNREACH: case -ENETUNREACH: case -ETIMEDOUT:
		return some_done ? "failed" : "unreachable";
	case -EBUSY:
		return "busy";
	case -EINTR:
		snprintf(reason, size, "interrupted before the far end answered");
		return "interrupted";
	default:
		return "failed";
	}
}

cJSON *nd_far_peer_json(const struct nd_exp_set *set, cJSON **ret_bottleneck)
{
	const cJSON *view = set->far_view, *report;
	const char *failure;
	char why[400];
	cJSON *peer;

	*ret_bottleneck = NULL;
	if (set->mode != ND_EXP_PEER || !(peer = cJSON_CreateObject()))
		return NULL;
	cJSON_AddStringToObject(peer, "host", set->peer);
	report = cJSON_GetObjectItemCaseSensitive(view, "report");
	if (!view && (failure = plan_failure(set, why, sizeof(why)))) {
		set_status(peer, failure, why);
	} else if (!view) {
		set_status(peer, "silent", "the peer is not nicdoctor serve (a stock iperf3, or "
			   "no run completed): no view of the far end");
	} else if (cJSON_IsTrue(cJSON_GetObjectItem(view, "declined"))) {
		/* Its reason says how its operator enables sharing; an older
		 * serve sends none. */
		snprintf(why, sizeof(why), "the far end declined to share its report: %s",
			 str_of(view, "reason") ? str_of(view, "reason") :
			 "it was started with --no-share, or without --share");
		set_status(peer, "declined", why);
		nd_sanitize_json(cJSON_GetObjectItemCaseSensitive(peer, "reason"));
	} else if (!cJSON_IsObject(report)) {
		set_status(peer, "error", str_of(view, "error") ? str_of(view, "error") :
			   "the far end sent no report");
		nd_sanitize_json(cJSON_GetObjectItemCaseSensitive(peer, "reason"));
	} else {
		cJSON *copy = cJSON_Duplicate(report, 1);

		/* What another host sent: no control or invalid UTF-8 goes on to
		 * the verdicts, the bottleneck or any renderer. */
		nd_sanitize_json(copy);
		set_status(peer, "shared", "the far end's own findings for the interface the "
			   "test arrived on");
		if (copy)
			*ret_bottleneck = judge(set, copy);
		cJSON_AddItemToObject(peer, "report", copy);
	}
	cJSON_AddItemToObject(peer, "cpus_forward", far_cpus(&set->runs[ND_RUN_FORWARD_MANY]));
	cJSON_AddItemToObject(peer, "cpus_reverse", far_cpus(&set->runs[ND_RUN_REVERSE_MANY]));
	return peer;
}

/* How strongly a confirmed suspect explains the measurement, as the
 * verdicts rank a binding cause: a ceiling it sits at, else a saturated
 * CPU, else drops and the rest. */
static int binding_rank(bool has_ceiling, const char *kind)
{
	if (has_ceiling)
		return 3;
	return kind && !strcmp(kind, "cpu") ? 2 : 1;
}

bool nd_far_binding_wins(const cJSON *far_bottleneck, const struct nd_exp_summary *sum,
			 const struct nd_finding *findings, unsigned n_findings)
{
	const cJSON *far_ceiling = cJSON_GetObjectItem(far_bottleneck, "ceiling_mbps");
	const struct nd_finding *ours;
	int far_rank, our_rank;

	if (!far_bottleneck)
		return false;
	if (sum->binding < 0 || (unsigned)sum->binding >= n_findings)
		return true;
	ours = &findings[sum->binding];
	far_rank = binding_rank(cJSON_IsNumber(far_ceiling),
				cJSON_GetStringValue(cJSON_GetObjectItem(far_bottleneck, "kind")));
	our_rank = binding_rank(ours->ceiling_mbps >= 0, cJSON_GetStringValue(
					cJSON_GetObjectItem(ours->experiment, "kind")));
	if (far_rank != our_rank)
		return far_rank > our_rank;
	/* Two ceilings: the lower binds; otherwise ours stands. */
	return far_rank == 3 && far_ceiling->valuedouble < ours->ceiling_mbps;
}
