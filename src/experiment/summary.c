/*
 * summary.c - the report's `throughput` object (nicdoctor.report/1): how
 * the experiments ran, every run's numbers, the headline numbers (measured
 * against the wire, the binding bottleneck) and the trial fixes.  Pure
 * data to JSON, like a check's evidence; report/ renders it.
 */
#include <math.h>
#include <string.h>

#include "nicdoctor/experiment.h"
#include "verdict_int.h"

static double round1(double v)
{
	return round(v * 10.0) / 10.0;
}

static void num_or_null(cJSON *obj, const char *key, bool known, double v)
{
	if (known)
		cJSON_AddNumberToObject(obj, key, v);
	else
		cJSON_AddNullToObject(obj, key);
}

static cJSON *run_json(const struct nd_exp_run *run, enum nd_exp_run_kind k, bool loopback)
{
	cJSON *obj = cJSON_CreateObject(), *cpus, *c;

	if (!obj)
		return NULL;
	cJSON_AddStringToObject(obj, "name", loopback ? "loopback_one" : nd_exp_run_name(k));
	cJSON_AddStringToObject(obj, "direction", run->reverse ? "reverse" : "forward");
	cJSON_AddNumberToObject(obj, "streams", run->streams);
	cJSON_AddNumberToObject(obj, "duration_sec", round(run->duration_sec * 100) / 100);
	cJSON_AddNumberToObject(obj, "mbps", round1(run->mbps));
	num_or_null(obj, "retransmits", run->retransmits >= 0, (double)run->retransmits);
	if (run->reverse)
		num_or_null(obj, "peer_retransmits", run->peer_retransmits >= 0,
			    (double)run->peer_retransmits);
	num_or_null(obj, "rtt_usec", run->rtt_usec > 0, round(run->rtt_usec));
	num_or_null(obj, "min_rtt_usec", run->min_rtt_usec > 0, run->min_rtt_usec);
	if (run->nic_valid) {
		c = cJSON_AddObjectToObject(obj, "nic");
		cJSON_AddNumberToObject(c, "rx_dropped", (double)run->nic_rx_dropped);
		cJSON_AddNumberToObject(c, "tx_dropped", (double)run->nic_tx_dropped);
		cJSON_AddNumberToObject(c, "rx_errors", (double)run->nic_rx_errors);
		cJSON_AddNumberToObject(c, "tx_errors", (double)run->nic_tx_errors);
	} else {
		cJSON_AddNullToObject(obj, "nic");
	}
	if (run->softnet_valid) {
		c = cJSON_AddObjectToObject(obj, "softnet");
		cJSON_AddNumberToObject(c, "dropped", (double)run->softnet_dropped);
		cJSON_AddNumberToObject(c, "squeezed", (double)run->softnet_squeezed);
	} else {
		cJSON_AddNullToObject(obj, "softnet");
	}
	cpus = cJSON_AddArrayToObject(obj, "cpus");
	for (int i = 0; cpus && i < run->cpus_count; i++) {
		c = cJSON_CreateObject();
		if (!c)
			break;
		cJSON_AddNumberToObject(c, "cpu", run->cpus[i].cpu);
		cJSON_AddNumberToObject(c, "busy_pct", round1(run->cpus[i].busy_pct));
		cJSON_AddNumberToObject(c, "softirq_pct", round1(run->cpus[i].softirq_pct));
		cJSON_AddItemToArray(cpus, c);
	}
	return obj;
}

cJSON *nd_exp_bottleneck_json(const struct nd_finding *f, const char *host)
{
	cJSON *obj = cJSON_CreateObject();
	const char *kind;

	if (!obj)
		return NULL;
	cJSON_AddStringToObject(obj, "id", f->id);
	cJSON_AddStringToObject(obj, "host", host);
	cJSON_AddStringToObject(obj, "verdict", nd_verdict_name(f->verdict));
	num_or_null(obj, "ceiling_mbps", f->ceiling_mbps >= 0, round1(f->ceiling_mbps));
	if (f->ceiling_mbps >= 0)
		cJSON_AddStringToObject(obj, "ceiling_source", f->ceiling_source);
	else
		cJSON_AddNullToObject(obj, "ceiling_source");
	cJSON_AddStringToObject(obj, "reason", nd_json_reason(f->experiment));
	kind = cJSON_GetStringValue(cJSON_GetObjectItem(f->experiment, "kind"));
	cJSON_AddStringToObject(obj, "kind", kind ? kind : "other");
	return obj;
}

static cJSON *trials_json(const struct nd_exp_trial *trials, unsigned n)
{
	cJSON *arr = cJSON_CreateArray();

	for (unsigned i = 0; arr && i < n; i++) {
		const struct nd_exp_trial *t = &trials[i];
		cJSON *obj = cJSON_CreateObject();

		if (!obj)
			break;
		cJSON_AddStringToObject(obj, "finding", t->finding_id);
		cJSON_AddStringToObject(obj, "fix", t->kind);
		cJSON_AddNumberToObject(obj, "steps", t->steps);
		num_or_null(obj, "before_mbps", t->measured, round1(t->before_mbps));
		num_or_null(obj, "after_mbps", t->measured, round1(t->after_mbps));
		num_or_null(obj, "change_pct", t->measured && t->before_mbps > 0,
			    round1(100.0 * (t->after_mbps - t->before_mbps) / t->before_mbps));
		cJSON_AddBoolToObject(obj, "reverted", t->reverted);
		if (t->error[0])
			cJSON_AddStringToObject(obj, "error", t->error);
		else
			cJSON_AddNullToObject(obj, "error");
		cJSON_AddItemToArray(arr, obj);
	}
	return arr;
}

static void headline_numbers(cJSON *obj, const struct nd_exp_set *set,
			     const struct nd_exp_summary *sum)
{
	bool measured = sum->measured_mbps >= 0;
	const struct nd_exp_run *one = nd_exp_run_get(set, ND_RUN_FORWARD_ONE);

	num_or_null(obj, "wire_ceiling_mbps", set->wire_mbps > 0, round1(set->wire_mbps));
	num_or_null(obj, "measured_mbps", measured, round1(sum->measured_mbps));
	num_or_null(obj, "share_of_wire_pct", measured && set->wire_mbps > 0,
		    round1(100.0 * sum->measured_mbps / set->wire_mbps));
	cJSON_AddBoolToObject(obj, "at_wire", sum->at_wire);
	if (set->mode == ND_EXP_LOOPBACK)
		num_or_null(obj, "host_capacity_mbps", one != NULL, one ? round1(one->mbps) : 0);
}

cJSON *nd_exp_throughput_json(const struct nd_exp_set *set, const struct nd_exp_summary *sum,
			      const struct nd_finding *findings, unsigned n_findings,
			      const struct nd_exp_trial *trials, unsigned n_trials)
{
	bool loopback = set->mode == ND_EXP_LOOPBACK;
	cJSON *obj, *runs;

	if (set->mode == ND_EXP_NONE)
		return NULL;
	obj = cJSON_CreateObject();
	if (!obj)
		return NULL;
	cJSON_AddStringToObject(obj, "mode", loopback ? "loopback" : "peer");
	cJSON_AddStringToObject(obj, "peer", set->peer);
	if (loopback)
		cJSON_AddStringToObject(obj, "label", "host capacity: what one TCP stream moves "
					"through this host's stack on loopback, not wire speed");
	if (set->error[0])
		cJSON_AddStringToObject(obj, "error", set->error);
	else
		cJSON_AddNullToObject(obj, "error");
	cJSON_AddBoolToObject(obj, "interrupted", set->interrupted);
	headline_numbers(obj, set, sum);
	if (sum->binding >= 0 && (unsigned)sum->binding < n_findings)
		cJSON_AddItemToObject(obj, "bottleneck", nd_exp_bottleneck_json(&findings[sum->binding], "here"));
	else
		cJSON_AddNullToObject(obj, "bottleneck");
	runs = cJSON_AddArrayToObject(obj, "runs");
	for (int k = 0; runs && k < ND_RUN_KINDS; k++)
		if (set->runs[k].done)
			cJSON_AddItemToArray(runs, run_json(&set->runs[k], (enum nd_exp_run_kind)k,
							    loopback));
	cJSON_AddItemToObject(obj, "trials", trials_json(trials, n_trials));
	return obj;
}
