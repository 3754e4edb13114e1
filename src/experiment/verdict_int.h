/*
 * verdict_int.h - private to src/experiment/: the suspect kinds and the
 * helpers the verdict files share.
 */
#ifndef NICDOCTOR_EXPERIMENT_VERDICT_INT_H
#define NICDOCTOR_EXPERIMENT_VERDICT_INT_H

#include "nicdoctor/experiment.h"

enum nd_suspect_kind {
	ND_SUSPECT_NONE = 0,		/* no experiment speaks to it: untested */
	ND_SUSPECT_CEILING,
	ND_SUSPECT_WINDOW,
	ND_SUSPECT_CPU,
	ND_SUSPECT_PER_FLOW,
	ND_SUSPECT_DROPS_NIC,
	ND_SUSPECT_DROPS_SOFTNET,
	ND_SUSPECT_SQUEEZE,
	ND_SUSPECT_QUEUES,		/* per-queue traffic of a run (verdict_queues.c) */
};

/* The direction a suspect limits: forward = this host sends. */
enum nd_suspect_dir { ND_DIR_BOTH = 0, ND_DIR_FORWARD, ND_DIR_REVERSE };

struct nd_cpu_load {
	int top;			/* index of the busiest CPU, -1 none */
	double others_busy_pct;		/* mean over the other CPUs */
	int cpus_in_softirq;		/* CPUs with a large softirq share */
	bool pegged, mostly_softirq, others_idle;
};

enum nd_suspect_kind nd_suspect_kind_of(const struct nd_finding *f, enum nd_suspect_dir *ret_dir);
bool nd_suspect_explains_shortfall(const struct nd_finding *f);
const struct nd_exp_run *nd_exp_run_get(const struct nd_exp_set *set, enum nd_exp_run_kind k);
const char *nd_exp_run_name(enum nd_exp_run_kind k);
/* Replace f's verdict and experiment (owned), with a one-line reason. */
void nd_verdict_set(struct nd_finding *f, enum nd_verdict v, cJSON *experiment,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
const char *nd_json_reason(const cJSON *experiment);
void nd_cpu_load_of(const struct nd_exp_run *run, struct nd_cpu_load *ret);
/* What one connection moved in this direction, < 0 when not measured. */
double nd_verdict_per_flow_mbps(const struct nd_exp_set *set, enum nd_suspect_dir dir,
				const char **ret_run);
void nd_judge_counters(struct nd_finding *f, const struct nd_exp_set *set);
/* verdict_queues.c: the run's per-queue packets into e ("queues") and a
 * clause citing the busiest queue into cite ("" when none measured). */
void nd_verdict_queue_evidence(struct nd_finding *f, cJSON *e, const struct nd_exp_run *run,
			       unsigned kind, char *cite, size_t size);
void nd_judge_queue_flows(struct nd_finding *f, const struct nd_exp_set *set);
void nd_verdict_binding(const struct nd_finding *fs, unsigned n, const struct nd_exp_set *set,
			struct nd_exp_summary *ret);

#endif
