/*
 * verdict_more.c - the rest of the pure verdict logic: drop and squeeze
 * counters during the runs, the window ceiling at the measured RTT, the
 * binding bottleneck for the headline, and path.asymmetric (forward and
 * reverse differ).  No I/O; unit tested with verdict.c.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nicdoctor/experiment.h"
#include "verdict_int.h"

/* Forward and reverse differing by more than a fifth is more than run
 * noise and TCP's direction-dependent ACK cost: the path is asymmetric. */
#define ASYMMETRY_SHARE 0.20
/* Line rate "reached" for the headline: within 10% of the wire goodput. */
#define HEADLINE_WIRE_SHARE 0.90

static double round1(double v)
{
	return round(v * 10.0) / 10.0;
}

struct counter_sum {
	bool valid;
	uint64_t count;
	int64_t retransmits;		/* -1 unknown */
};

static struct counter_sum sum_counters(const struct nd_exp_set *set, enum nd_suspect_kind kind)
{
	struct counter_sum s = { .retransmits = -1 };

	for (int k = 0; k < ND_RUN_KINDS; k++) {
		const struct nd_exp_run *run = nd_exp_run_get(set, (enum nd_exp_run_kind)k);

		if (!run)
			continue;
		if (run->retransmits >= 0)
			s.retransmits = (s.retransmits < 0 ? 0 : s.retransmits) + run->retransmits;
		if (kind == ND_SUSPECT_DROPS_NIC && run->nic_valid) {
			s.valid = true;
			s.count += run->nic_rx_dropped + run->nic_rx_errors;
		} else if (kind == ND_SUSPECT_DROPS_SOFTNET && run->softnet_valid) {
			s.valid = true;
			s.count += run->softnet_dropped;
		} else if (kind == ND_SUSPECT_SQUEEZE && run->softnet_valid) {
			s.valid = true;
			s.count += run->softnet_squeezed;
		}
	}
	return s;
}

/*
 * Drops counted while the runs went confirm a drop suspect.  None counted
 * and no retransmission at all refutes it; retransmissions without a drop
 * here mean loss elsewhere (or a counter this NIC does not keep), which
 * speaks neither way.
 */
void nd_judge_counters(struct nd_finding *f, const struct nd_exp_set *set)
{
	enum nd_suspect_dir dir;
	enum nd_suspect_kind kind = nd_suspect_kind_of(f, &dir);
	struct counter_sum s = sum_counters(set, kind);
	const char *what = kind == ND_SUSPECT_DROPS_NIC ? "interface receive drops and errors"
			   : kind == ND_SUSPECT_SQUEEZE ? "softnet time squeezes"
							 : "softnet backlog drops";
	cJSON *e;

	if (!nd_exp_run_get(set, ND_RUN_FORWARD_MANY) && !nd_exp_run_get(set, ND_RUN_REVERSE_MANY))
		return;
	e = cJSON_CreateObject();
	cJSON_AddStringToObject(e, "kind", kind == ND_SUSPECT_SQUEEZE ? "squeeze" : "drops");
	cJSON_AddStringToObject(e, "counter", what);
	if (!s.valid) {
		cJSON_AddNullToObject(e, "during_runs");
		return nd_verdict_set(f, ND_VERDICT_INCONCLUSIVE, e, "%s could not be sampled", what);
	}
	cJSON_AddNumberToObject(e, "during_runs", (double)s.count);
	if (s.retransmits >= 0)
		cJSON_AddNumberToObject(e, "retransmits", (double)s.retransmits);
	else
		cJSON_AddNullToObject(e, "retransmits");
	if (s.count > 0)
		return nd_verdict_set(f, ND_VERDICT_CONFIRMED, e, "%llu %s during the runs",
				      (unsigned long long)s.count, what);
	if (kind == ND_SUSPECT_SQUEEZE || s.retransmits == 0)
		return nd_verdict_set(f, ND_VERDICT_REFUTED, e, "no %s during the runs%s", what,
				      kind == ND_SUSPECT_SQUEEZE ? "" : " and no retransmission");
	nd_verdict_set(f, ND_VERDICT_INCONCLUSIVE, e, "no %s, but %lld retransmissions: loss "
		       "elsewhere or uncounted", what, (long long)s.retransmits);
}

double nd_verdict_per_flow_mbps(const struct nd_exp_set *set, enum nd_suspect_dir dir,
				const char **ret_run)
{
	const struct nd_exp_run *run;

	if (dir == ND_DIR_REVERSE) {
		/* No one-stream reverse run: the mean stream of the many. */
		run = nd_exp_run_get(set, ND_RUN_REVERSE_MANY);
		*ret_run = nd_exp_run_name(ND_RUN_REVERSE_MANY);
		return run && run->streams > 0 ? run->mbps / run->streams : -1;
	}
	run = nd_exp_run_get(set, ND_RUN_FORWARD_ONE);
	*ret_run = nd_exp_run_name(ND_RUN_FORWARD_ONE);
	return run ? run->mbps : -1;
}

/* The lowest RTT our sending sockets saw: the path without the queue a
 * bulk run builds, which would make any window look like the limit. */
static double path_rtt_usec(const struct nd_exp_set *set)
{
	double best = 0;

	for (int k = 0; k < ND_RUN_KINDS; k++) {
		const struct nd_exp_run *run = nd_exp_run_get(set, (enum nd_exp_run_kind)k);

		if (run && run->min_rtt_usec > 0 && (best == 0 || run->min_rtt_usec < best))
			best = run->min_rtt_usec;
	}
	return best;
}

double nd_verdict_window_ceiling_mbps(const struct nd_finding *f, const struct nd_exp_set *set)
{
	const cJSON *w = cJSON_GetObjectItem(f->evidence, "autotune_window_bytes");
	double rtt = path_rtt_usec(set);

	if (!cJSON_IsNumber(w) || w->valuedouble <= 0 || rtt <= 0)
		return -1;
	return w->valuedouble * 8.0 / rtt;	/* bits per usec = Mbit/s */
}

static bool explains_many(const struct nd_finding *f)
{
	enum nd_suspect_dir dir;
	enum nd_suspect_kind kind = nd_suspect_kind_of(f, &dir);

	return kind == ND_SUSPECT_CEILING || kind == ND_SUSPECT_CPU;
}

void nd_verdict_binding(const struct nd_finding *fs, unsigned n, const struct nd_exp_set *set,
			struct nd_exp_summary *ret)
{
	double lowest = -1;

	ret->at_wire = set->wire_mbps > 0 && ret->measured_mbps >= 0 &&
		       ret->measured_mbps >= set->wire_mbps * HEADLINE_WIRE_SHARE;
	/* The confirmed ceiling the measurement sits at, else a pegged CPU,
	 * else confirmed drops: what holds many streams back. */
	for (unsigned i = 0; i < n; i++) {
		if (fs[i].verdict != ND_VERDICT_CONFIRMED || !explains_many(&fs[i]))
			continue;
		if (ret->binding < 0 ||
		    (fs[i].ceiling_mbps >= 0 && (lowest < 0 || fs[i].ceiling_mbps < lowest))) {
			ret->binding = (int)i;
			lowest = fs[i].ceiling_mbps;
		}
	}
	for (unsigned i = 0; i < n && ret->binding < 0; i++)
		if (fs[i].verdict == ND_VERDICT_CONFIRMED && nd_suspect_explains_shortfall(&fs[i]))
			ret->binding = (int)i;
}

bool nd_verdict_asymmetric(const struct nd_exp_set *set, struct nd_finding *f)
{
	const struct nd_exp_run *fwd = nd_exp_run_get(set, ND_RUN_FORWARD_MANY);
	const struct nd_exp_run *rev = nd_exp_run_get(set, ND_RUN_REVERSE_MANY);
	double high, low, diff;
	bool reverse_slower;
	cJSON *e;

	if (set->mode != ND_EXP_PEER || !fwd || !rev)
		return false;
	high = fmax(fwd->mbps, rev->mbps);
	low = fmin(fwd->mbps, rev->mbps);
	if (high <= 0)
		return false;
	diff = (high - low) / high;
	if (diff <= ASYMMETRY_SHARE)
		return false;
	reverse_slower = rev->mbps < fwd->mbps;
	memset(f, 0, sizeof(*f));
	f->id = "path.asymmetric";
	f->severity = ND_SEV_WARNING;
	f->ceiling_mbps = -1;
	snprintf(f->title, sizeof(f->title), "%s is slower: %.0f Mbit/s against %.0f Mbit/s %s "
		 "(%.0f%% less)", reverse_slower ? "reverse (peer to here)" : "forward (here to peer)",
		 low, high, reverse_slower ? "forward" : "reverse", 100.0 * diff);
	f->evidence = cJSON_CreateObject();
	cJSON_AddNumberToObject(f->evidence, "forward_mbps", round1(fwd->mbps));
	cJSON_AddNumberToObject(f->evidence, "reverse_mbps", round1(rev->mbps));
	cJSON_AddStringToObject(f->evidence, "slower", reverse_slower ? "reverse" : "forward");
	e = cJSON_CreateObject();
	cJSON_AddStringToObject(e, "kind", "direction");
	cJSON_AddNumberToObject(e, "forward_mbps", round1(fwd->mbps));
	cJSON_AddNumberToObject(e, "reverse_mbps", round1(rev->mbps));
	cJSON_AddStringToObject(e, "slower", reverse_slower ? "reverse" : "forward");
	cJSON_AddNumberToObject(e, "difference_pct", round1(100.0 * diff));
	cJSON_AddNumberToObject(e, "tolerance_pct", 100.0 * ASYMMETRY_SHARE);
	nd_verdict_set(f, ND_VERDICT_CONFIRMED, e, "%s is %.0f%% below %s, more than %.0f%%",
		       reverse_slower ? "reverse" : "forward", 100.0 * diff,
		       reverse_slower ? "forward" : "reverse", 100.0 * ASYMMETRY_SHARE);
	return true;
}
