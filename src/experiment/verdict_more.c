/*
 * verdict_more.c - the rest of the pure verdict logic: drop and squeeze
 * counters during the runs, the window ceiling at the measured RTT, the
 * binding bottleneck for the headline.  No I/O; unit tested with
 * verdict.c.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nicdoctor/experiment.h"
#include "verdict_int.h"

/* Line rate "reached" for the headline: within 10% of the wire goodput. */
#define HEADLINE_WIRE_SHARE 0.90

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

/*
 * The window ceiling of each run: window / the lowest RTT our sending
 * sockets saw in it (the path without the queue a bulk run builds, which
 * would make any window look like the limit).  A queue that stays full
 * (a shaper's) raises even that minimum, by a different amount each run:
 * then the runs disagree, and the ceiling is nobody's to cite.
 */
int nd_verdict_window_measure(const struct nd_finding *f, const struct nd_exp_set *set,
			      struct nd_window_measure *ret)
{
	const cJSON *w = cJSON_GetObjectItem(f->evidence, "autotune_window_bytes");

	memset(ret, 0, sizeof(*ret));
	if (!cJSON_IsNumber(w) || w->valuedouble <= 0)
		return -ENODATA;
	ret->window_bytes = w->valuedouble;
	for (int k = 0; k < ND_RUN_KINDS; k++) {
		const struct nd_exp_run *run = nd_exp_run_get(set, (enum nd_exp_run_kind)k);
		double rtt = run ? run->min_rtt_usec : 0;

		if (!(rtt > 0))
			continue;
		if (!ret->runs || rtt < ret->rtt_low_usec)
			ret->rtt_low_usec = rtt;
		if (!ret->runs || rtt > ret->rtt_high_usec)
			ret->rtt_high_usec = rtt;
		ret->runs++;
	}
	if (!ret->runs)
		return -ENODATA;
	/* bits per usec = Mbit/s */
	ret->high_mbps = ret->window_bytes * 8.0 / ret->rtt_low_usec;
	ret->low_mbps = ret->window_bytes * 8.0 / ret->rtt_high_usec;
	ret->stable = ret->high_mbps <= ND_WINDOW_STABLE_RATIO * ret->low_mbps;
	return 0;
}

double nd_verdict_window_ceiling_mbps(const struct nd_finding *f, const struct nd_exp_set *set)
{
	struct nd_window_measure m;

	if (nd_verdict_window_measure(f, set, &m) < 0 || !m.stable)
		return -1;
	return m.high_mbps;
}

double nd_verdict_window_ceiling_detail(const struct nd_finding *f, const struct nd_exp_set *set,
					char *detail, size_t size)
{
	double mbps = nd_verdict_window_ceiling_mbps(f, set);
	bool send = cJSON_GetObjectItem(f->evidence, "tcp_wmem") != NULL;

	if (mbps < 0)
		return -1;
	/* Name the check only where it judged the window a problem and
	 * the runs did not refute it. */
	if (f->id && !f->skipped && f->severity >= ND_SEV_WARNING)
		snprintf(detail, size, "%s: autotuned window / the measured RTT, per TCP "
			 "connection", f->id);
	else
		snprintf(detail, size, "autotuned %s window (net.ipv4.tcp_%cmem max / 2) / the "
			 "measured RTT, per TCP connection", send ? "send" : "receive",
			 send ? 'w' : 'r');
	return mbps;
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
