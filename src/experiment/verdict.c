/*
 * verdict.c - the verdicts of DESIGN.md's ceiling model: each suspect
 * (a warning or critical finding) against the measured runs.  Pure: no
 * I/O, the findings and a recorded measurement set in, verdicts and the
 * numbers that decided them (`experiment`) out; unit tested on recorded
 * sets (tests/unit/test_verdict*.c).
 *
 * Kinds of suspect and what speaks to them:
 *   ceiling  - a computed ceiling (pcie, shaping, link speed): confirmed
 *              when the measurement sits at it and it is the lowest;
 *              refuted when clearly above it, or clearly below it while
 *              another confirmed cause explains the shortfall.
 *   window   - socket buffers: the same rule per connection, with the
 *              ceiling recomputed from the measured RTT (window / RTT).
 *   cpu      - queues, RPS, IRQs: one CPU pegged mostly in softirq while
 *              the others idle, below the wire; refuted when spread.
 *   per-flow - one stream far below many with a CPU saturated while it
 *              ran (a per-core limit: a single-threaded tool).
 *   drops    - the counters that moved during the runs.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "nicdoctor/experiment.h"
#include "verdict_int.h"

/* The ceiling model's goodput ignores ACKs, retransmissions and what a
 * shaper counts (tbf meters whole frames: ~4.5% headers at MTU 1500), so
 * a measurement within 15% below a ceiling "sits at" it; 15% is also the
 * acceptance the shaped-link test holds the model to. */
#define AT_CEILING_LOW_SHARE 0.85
/* Clearly above: more than 10% over, beyond two hosts' clocks, a shaper's
 * burst and run-to-run noise (fix --peer sees 5% between equal runs). */
#define ABOVE_CEILING_SHARE 1.10
/* Line rate "reached": within 10% of the wire goodput. */
#define WIRE_REACHED_SHARE 0.90
/* A CPU at 90% busy has no room left for the next packet burst. */
#define CPU_SATURATED_BUSY_PCT 90.0
/* "Mostly softirq": at least half of the pegged CPU's busy time is
 * receive/transmit processing rather than the application. */
#define CPU_SOFTIRQ_MOSTLY_SHARE 0.5
/* The other CPUs "idle": on average under half busy. */
#define CPU_OTHERS_IDLE_PCT 50.0
/* Receive work counts as spread when two or more CPUs each spend a
 * quarter of their time in softirq. */
#define CPU_SPREAD_SOFTIRQ_PCT 25.0
/* One stream under 60% of many: far more than run-to-run noise and the
 * few percent more flows win by filling each other's gaps. */
#define SINGLE_FLOW_FAR_BELOW_SHARE 0.60
/* One stream at 85% of many or more: no per-flow limit to speak of. */
#define SINGLE_FLOW_SAME_SHARE 0.85

static const struct {
	const char *id;
	enum nd_suspect_kind kind;
	enum nd_suspect_dir dir;
} suspect_table[] = {
	{ "link.speed_below_max", ND_SUSPECT_CEILING, ND_DIR_BOTH },
	{ "pcie.link_downgraded", ND_SUSPECT_CEILING, ND_DIR_BOTH },
	{ "pcie.slot_too_slow", ND_SUSPECT_CEILING, ND_DIR_BOTH },
	{ "qdisc.rate_limit", ND_SUSPECT_CEILING, ND_DIR_FORWARD },	/* egress shaper */
	{ "sysctl.rmem_max_low", ND_SUSPECT_WINDOW, ND_DIR_REVERSE },	/* we receive */
	{ "sysctl.wmem_max_low", ND_SUSPECT_WINDOW, ND_DIR_FORWARD },	/* we send */
	{ "queues.single", ND_SUSPECT_CPU, ND_DIR_REVERSE },
	{ "queues.below_cpus", ND_SUSPECT_CPU, ND_DIR_REVERSE },
	{ "rss.indirection_uneven", ND_SUSPECT_CPU, ND_DIR_REVERSE },
	{ "rps.off_single_queue", ND_SUSPECT_CPU, ND_DIR_REVERSE },
	{ "irq.concentrated", ND_SUSPECT_CPU, ND_DIR_REVERSE },
	{ "tool.iperf3_single_threaded", ND_SUSPECT_PER_FLOW, ND_DIR_FORWARD },
	{ "nic.rx_dropped", ND_SUSPECT_DROPS_NIC, ND_DIR_BOTH },
	{ "ring.small", ND_SUSPECT_DROPS_NIC, ND_DIR_BOTH },
	{ "softnet.dropped", ND_SUSPECT_DROPS_SOFTNET, ND_DIR_BOTH },
	{ "sysctl.backlog_low", ND_SUSPECT_DROPS_SOFTNET, ND_DIR_BOTH },
	{ "softnet.squeezed", ND_SUSPECT_SQUEEZE, ND_DIR_BOTH },
	{ "rss.flows_on_one_queue", ND_SUSPECT_QUEUES, ND_DIR_BOTH },
};

enum nd_suspect_kind nd_suspect_kind_of(const struct nd_finding *f, enum nd_suspect_dir *ret_dir)
{
	enum nd_severity sev = nd_finding_check_severity(f);

	*ret_dir = ND_DIR_BOTH;
	/* What the check said, not what a verdict made of it; a tool.*
	 * finding is info until a run confirms it, and a suspect all the same. */
	if (!f->id || f->skipped ||
	    (sev < ND_SEV_WARNING && !(sev == ND_SEV_INFO && nd_finding_info_until_confirmed(f))))
		return ND_SUSPECT_NONE;
	for (size_t i = 0; i < sizeof(suspect_table) / sizeof(suspect_table[0]); i++) {
		if (strcmp(f->id, suspect_table[i].id) == 0) {
			*ret_dir = suspect_table[i].dir;
			return suspect_table[i].kind;
		}
	}
	/* Any other finding with a ceiling is judged by it. */
	return f->ceiling_mbps >= 0 ? ND_SUSPECT_CEILING : ND_SUSPECT_NONE;
}

const struct nd_exp_run *nd_exp_run_get(const struct nd_exp_set *set, enum nd_exp_run_kind k)
{
	return set->runs[k].done ? &set->runs[k] : NULL;
}

const char *nd_exp_run_name(enum nd_exp_run_kind k)
{
	static const char *const names[ND_RUN_KINDS] = { "forward_many", "forward_one",
							   "reverse_many" };

	return k < ND_RUN_KINDS ? names[k] : "?";
}

/* The measurement a ceiling in this direction is held to, and its run. */
static double measured_for(const struct nd_exp_set *set, enum nd_suspect_dir dir,
			   const char **ret_run)
{
	const struct nd_exp_run *fwd = nd_exp_run_get(set, ND_RUN_FORWARD_MANY);
	const struct nd_exp_run *rev = nd_exp_run_get(set, ND_RUN_REVERSE_MANY);

	if (dir == ND_DIR_FORWARD || (dir == ND_DIR_BOTH && fwd && (!rev || fwd->mbps >= rev->mbps))) {
		*ret_run = nd_exp_run_name(ND_RUN_FORWARD_MANY);
		return fwd ? fwd->mbps : -1;
	}
	*ret_run = nd_exp_run_name(ND_RUN_REVERSE_MANY);
	return rev ? rev->mbps : -1;
}

void nd_verdict_set(struct nd_finding *f, enum nd_verdict v, cJSON *experiment,
		    const char *fmt, ...)
{
	char reason[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(reason, sizeof(reason), fmt, ap);
	va_end(ap);
	if (experiment)
		cJSON_AddStringToObject(experiment, "reason", reason);
	cJSON_Delete(f->experiment);
	f->experiment = experiment;
	f->verdict = v;
}

static double round1(double v)
{
	return round(v * 10.0) / 10.0;
}

/* --- ceilings (and windows, per connection) --- */

struct ceiling_item {
	unsigned index;
	double ceiling_mbps, measured_mbps;
	const char *run;
	bool refuted, at;
};

static cJSON *ceiling_experiment(const struct ceiling_item *c, const char *source)
{
	cJSON *e = cJSON_CreateObject();

	if (!e)
		return NULL;
	cJSON_AddStringToObject(e, "kind", "ceiling");
	cJSON_AddStringToObject(e, "run", c->run);
	cJSON_AddNumberToObject(e, "measured_mbps", round1(c->measured_mbps));
	cJSON_AddNumberToObject(e, "ceiling_mbps", round1(c->ceiling_mbps));
	cJSON_AddStringToObject(e, "ceiling_source", source);
	cJSON_AddNumberToObject(e, "measured_share_pct",
				round1(100.0 * c->measured_mbps / c->ceiling_mbps));
	cJSON_AddNumberToObject(e, "at_ceiling_from_pct", 100.0 * AT_CEILING_LOW_SHARE);
	cJSON_AddNumberToObject(e, "above_ceiling_from_pct", 100.0 * ABOVE_CEILING_SHARE);
	return e;
}

/*
 * The window ceiling a measurement is held to: the runs' when they agree
 * (within ND_WINDOW_STABLE_RATIO).  When they vary (a shaper's queue moved
 * the RTT), a measurement clearly above the highest or clearly below the
 * lowest still says plainly whether the window limits; in between nothing
 * is attributed (ret_varied, with its experiment set on f).
 */
static double window_ceiling_for(struct nd_finding *f, const struct nd_exp_set *set,
				 const struct ceiling_item *c, bool *ret_varied)
{
	struct nd_window_measure m;
	cJSON *e;

	*ret_varied = false;
	if (nd_verdict_window_measure(f, set, &m) < 0)
		return -1;
	if (m.stable || c->measured_mbps > m.high_mbps * ABOVE_CEILING_SHARE)
		return m.high_mbps;
	if (c->measured_mbps < m.low_mbps * AT_CEILING_LOW_SHARE)
		return m.low_mbps;
	*ret_varied = true;
	e = cJSON_CreateObject();
	cJSON_AddStringToObject(e, "kind", "ceiling");
	cJSON_AddStringToObject(e, "run", c->run);
	cJSON_AddNumberToObject(e, "measured_mbps", round1(c->measured_mbps));
	cJSON_AddNullToObject(e, "ceiling_mbps");
	cJSON_AddNumberToObject(e, "window_ceiling_low_mbps", round1(m.low_mbps));
	cJSON_AddNumberToObject(e, "window_ceiling_high_mbps", round1(m.high_mbps));
	cJSON_AddNumberToObject(e, "min_rtt_low_usec", round1(m.rtt_low_usec));
	cJSON_AddNumberToObject(e, "min_rtt_high_usec", round1(m.rtt_high_usec));
	cJSON_AddNumberToObject(e, "stable_within_ratio", ND_WINDOW_STABLE_RATIO);
	nd_verdict_set(f, ND_VERDICT_INCONCLUSIVE, e, "the window / RTT ceiling varied across "
		       "the runs, %.0f to %.0f Mbit/s (min RTT %.0f to %.0f us): not attributed",
		       m.low_mbps, m.high_mbps, m.rtt_low_usec, m.rtt_high_usec);
	return -1;
}

/* Ceiling and window suspects, each with its number; returns how many. */
static unsigned collect_ceilings(struct nd_finding *fs, unsigned n, const struct nd_exp_set *set,
				 struct ceiling_item *items)
{
	unsigned count = 0;

	for (unsigned i = 0; i < n; i++) {
		enum nd_suspect_dir dir;
		enum nd_suspect_kind kind = nd_suspect_kind_of(&fs[i], &dir);
		struct ceiling_item *c = &items[count];

		if (kind != ND_SUSPECT_CEILING && kind != ND_SUSPECT_WINDOW)
			continue;
		memset(c, 0, sizeof(*c));
		c->index = i;
		if (kind == ND_SUSPECT_WINDOW) {
			c->measured_mbps = nd_verdict_per_flow_mbps(set, dir, &c->run);
		} else {
			c->ceiling_mbps = fs[i].ceiling_mbps;
			c->measured_mbps = measured_for(set, dir, &c->run);
		}
		if (c->measured_mbps < 0)
			continue;	/* the run did not happen: stays untested */
		if (kind == ND_SUSPECT_WINDOW) {
			bool varied;

			c->ceiling_mbps = window_ceiling_for(&fs[i], set, c, &varied);
			if (varied)
				continue;
		}
		if (!(c->ceiling_mbps > 0)) {
			cJSON *e = cJSON_CreateObject();

			cJSON_AddStringToObject(e, "kind", "ceiling");
			cJSON_AddNumberToObject(e, "measured_mbps", round1(c->measured_mbps));
			nd_verdict_set(&fs[i], ND_VERDICT_INCONCLUSIVE, e,
				       "no ceiling to hold %.0f Mbit/s to (no RTT measured)",
				       c->measured_mbps);
			continue;
		}
		c->refuted = c->measured_mbps > c->ceiling_mbps * ABOVE_CEILING_SHARE;
		c->at = !c->refuted && c->measured_mbps >= c->ceiling_mbps * AT_CEILING_LOW_SHARE;
		count++;
	}
	return count;
}

static void judge_ceilings(struct nd_finding *fs, unsigned n, const struct nd_exp_set *set)
{
	struct ceiling_item items[64];
	unsigned count, lowest = 0;
	bool have_lowest = false;

	if (n > 64)
		n = 64;
	count = collect_ceilings(fs, n, set, items);
	for (unsigned k = 0; k < count; k++) {
		if (!items[k].refuted && (!have_lowest ||
					  items[k].ceiling_mbps < items[lowest].ceiling_mbps)) {
			lowest = k;
			have_lowest = true;
		}
	}
	for (unsigned k = 0; k < count; k++) {
		struct ceiling_item *c = &items[k];
		struct nd_finding *f = &fs[c->index];
		const char *source = f->ceiling_source[0] ? f->ceiling_source : "window";
		cJSON *e = ceiling_experiment(c, source);

		cJSON_AddBoolToObject(e, "lowest", have_lowest && k == lowest);
		if (c->refuted)
			nd_verdict_set(f, ND_VERDICT_REFUTED, e, "measured %.0f Mbit/s, clearly above "
				       "the %.0f Mbit/s %s ceiling", c->measured_mbps, c->ceiling_mbps,
				       source);
		else if (c->at && k == lowest)
			nd_verdict_set(f, ND_VERDICT_CONFIRMED, e, "measured %.0f Mbit/s sits at "
				       "the %.0f Mbit/s %s ceiling, the lowest", c->measured_mbps,
				       c->ceiling_mbps, source);
		else if (c->at)
			nd_verdict_set(f, ND_VERDICT_INCONCLUSIVE, e, "measured %.0f Mbit/s is at "
				       "the %.0f Mbit/s %s ceiling, but a lower one binds first",
				       c->measured_mbps, c->ceiling_mbps, source);
		else
			/* Clearly below: refuted later if another cause is confirmed. */
			nd_verdict_set(f, ND_VERDICT_INCONCLUSIVE, e, "measured %.0f Mbit/s, clearly "
				       "below the %.0f Mbit/s %s ceiling: something else limits",
				       c->measured_mbps, c->ceiling_mbps, source);
		if (!c->refuted && !c->at)
			cJSON_AddBoolToObject(f->experiment, "clearly_below", true);
	}
}

/* A ceiling clearly below which we measured, once another cause is
 * confirmed: that cause explains the shortfall and binds first, so the
 * runs never reached this ceiling.  Not refuted (a downgraded link stays
 * what it is, and binds once the other cause is gone): inconclusive, with
 * the cause that binds first named. */
static void name_explained(struct nd_finding *fs, unsigned n)
{
	int explained = -1;

	for (unsigned i = 0; i < n && explained < 0; i++)
		if (fs[i].verdict == ND_VERDICT_CONFIRMED && nd_suspect_explains_shortfall(&fs[i]))
			explained = (int)i;
	if (explained < 0)
		return;
	for (unsigned i = 0; i < n; i++) {
		cJSON *below = cJSON_GetObjectItem(fs[i].experiment, "clearly_below");
		char reason[256];

		if (fs[i].verdict != ND_VERDICT_INCONCLUSIVE || !cJSON_IsTrue(below))
			continue;
		snprintf(reason, sizeof(reason), "%s; %s is confirmed and binds first: "
			 "untested above it", nd_json_reason(fs[i].experiment), fs[explained].id);
		cJSON_DeleteItemFromObject(fs[i].experiment, "reason");
		cJSON_AddStringToObject(fs[i].experiment, "reason", reason);
		cJSON_AddStringToObject(fs[i].experiment, "explained_by", fs[explained].id);
	}
}

const char *nd_json_reason(const cJSON *experiment)
{
	const cJSON *r = cJSON_GetObjectItem(experiment, "reason");

	return cJSON_IsString(r) ? r->valuestring : "";
}

bool nd_suspect_explains_shortfall(const struct nd_finding *f)
{
	enum nd_suspect_dir dir;
	enum nd_suspect_kind kind = nd_suspect_kind_of(f, &dir);

	/* A per-flow limit does not hold back many streams. */
	return kind != ND_SUSPECT_NONE && kind != ND_SUSPECT_PER_FLOW && kind != ND_SUSPECT_WINDOW;
}

/* --- one CPU pegged (queues, RPS, IRQs) --- */

static void judge_cpu(struct nd_finding *f, const struct nd_exp_set *set)
{
	enum nd_exp_run_kind k = set->runs[ND_RUN_REVERSE_MANY].done ? ND_RUN_REVERSE_MANY
								      : ND_RUN_FORWARD_MANY;
	const struct nd_exp_run *run = nd_exp_run_get(set, k);
	struct nd_cpu_load load;
	char cite[96];
	cJSON *e;

	if (!run)
		return;
	nd_cpu_load_of(run, &load);
	e = cJSON_CreateObject();
	cJSON_AddStringToObject(e, "kind", "cpu");
	cJSON_AddStringToObject(e, "run", nd_exp_run_name(k));
	cJSON_AddNumberToObject(e, "measured_mbps", round1(run->mbps));
	nd_verdict_queue_evidence(f, e, run, k == ND_RUN_REVERSE_MANY ? ND_QUEUE_RX : ND_QUEUE_TX,
				  cite, sizeof(cite));
	if (load.top < 0)
		return nd_verdict_set(f, ND_VERDICT_INCONCLUSIVE, e, "no per-CPU load measured");
	cJSON_AddNumberToObject(e, "busiest_cpu", run->cpus[load.top].cpu);
	cJSON_AddNumberToObject(e, "busy_pct", round1(run->cpus[load.top].busy_pct));
	cJSON_AddNumberToObject(e, "softirq_pct", round1(run->cpus[load.top].softirq_pct));
	cJSON_AddNumberToObject(e, "others_busy_pct", round1(load.others_busy_pct));
	cJSON_AddNumberToObject(e, "cpus_in_softirq", load.cpus_in_softirq);
	cJSON_AddNumberToObject(e, "saturated_from_pct", CPU_SATURATED_BUSY_PCT);
	if (set->wire_mbps > 0 && run->mbps >= set->wire_mbps * WIRE_REACHED_SHARE)
		return nd_verdict_set(f, ND_VERDICT_REFUTED, e, "the wire goodput is reached "
				      "(%.0f of %.0f Mbit/s)", run->mbps, set->wire_mbps);
	if (load.pegged && load.mostly_softirq && load.others_idle)
		return nd_verdict_set(f, ND_VERDICT_CONFIRMED, e, "CPU %d is %.0f%% busy (%.0f%% "
				      "softirq) while the others idle at %.0f%%%s",
				      run->cpus[load.top].cpu, run->cpus[load.top].busy_pct,
				      run->cpus[load.top].softirq_pct, load.others_busy_pct, cite);
	if (!load.pegged)
		return nd_verdict_set(f, ND_VERDICT_REFUTED, e, "no CPU saturated: the busiest, "
				      "CPU %d, is %.0f%% busy", run->cpus[load.top].cpu,
				      run->cpus[load.top].busy_pct);
	if (load.cpus_in_softirq >= 2)
		return nd_verdict_set(f, ND_VERDICT_REFUTED, e, "receive work is spread: %d CPUs "
				      "spend %.0f%% or more in softirq", load.cpus_in_softirq,
				      CPU_SPREAD_SOFTIRQ_PCT);
	nd_verdict_set(f, ND_VERDICT_INCONCLUSIVE, e, "CPU %d is %.0f%% busy (%.0f%% softirq), "
		       "the others %.0f%%: not one CPU alone", run->cpus[load.top].cpu,
		       run->cpus[load.top].busy_pct, run->cpus[load.top].softirq_pct,
		       load.others_busy_pct);
}

void nd_cpu_load_of(const struct nd_exp_run *run, struct nd_cpu_load *ret)
{
	double others = 0;

	memset(ret, 0, sizeof(*ret));
	ret->top = -1;
	for (int i = 0; i < run->cpus_count; i++) {
		if (ret->top < 0 || run->cpus[i].busy_pct > run->cpus[ret->top].busy_pct)
			ret->top = i;
		if (run->cpus[i].softirq_pct >= CPU_SPREAD_SOFTIRQ_PCT)
			ret->cpus_in_softirq++;
	}
	if (ret->top < 0)
		return;
	for (int i = 0; i < run->cpus_count; i++)
		if (i != ret->top)
			others += run->cpus[i].busy_pct;
	ret->others_busy_pct = run->cpus_count > 1 ? others / (run->cpus_count - 1) : 0;
	ret->pegged = run->cpus[ret->top].busy_pct >= CPU_SATURATED_BUSY_PCT;
	ret->mostly_softirq = run->cpus[ret->top].softirq_pct >=
			      CPU_SOFTIRQ_MOSTLY_SHARE * run->cpus[ret->top].busy_pct;
	ret->others_idle = run->cpus_count > 1 && ret->others_busy_pct < CPU_OTHERS_IDLE_PCT;
}

/* --- one stream against many --- */

/*
 * A per-core limit (what a single-threaded tool meets) shows as one
 * stream far below many AND a CPU saturated while that one stream ran:
 * one stream below many with every core idle is a per-connection limit
 * (a window, the path), not the core a tool's threads would share.
 */
static void judge_per_flow(struct nd_finding *f, const struct nd_exp_set *set)
{
	const struct nd_exp_run *one = nd_exp_run_get(set, ND_RUN_FORWARD_ONE);
	const struct nd_exp_run *many = nd_exp_run_get(set, ND_RUN_FORWARD_MANY);
	struct nd_cpu_load load;
	double share;
	cJSON *e;

	if (!one || !many || many->mbps <= 0)
		return;
	share = one->mbps / many->mbps;
	nd_cpu_load_of(one, &load);
	e = cJSON_CreateObject();
	cJSON_AddStringToObject(e, "kind", "per_flow");
	cJSON_AddNumberToObject(e, "one_stream_mbps", round1(one->mbps));
	cJSON_AddNumberToObject(e, "many_streams_mbps", round1(many->mbps));
	cJSON_AddNumberToObject(e, "streams", many->streams);
	cJSON_AddNumberToObject(e, "one_share_pct", round1(100.0 * share));
	cJSON_AddNumberToObject(e, "far_below_pct", 100.0 * SINGLE_FLOW_FAR_BELOW_SHARE);
	if (load.top >= 0) {
		cJSON_AddNumberToObject(e, "one_stream_busiest_cpu", one->cpus[load.top].cpu);
		cJSON_AddNumberToObject(e, "one_stream_busy_pct",
					round1(one->cpus[load.top].busy_pct));
	} else {
		cJSON_AddNullToObject(e, "one_stream_busy_pct");
	}
	cJSON_AddNumberToObject(e, "saturated_from_pct", CPU_SATURATED_BUSY_PCT);
	if (share >= SINGLE_FLOW_SAME_SHARE)
		nd_verdict_set(f, ND_VERDICT_REFUTED, e, "one stream moves %.0f Mbit/s, %.0f%% of "
			       "%d streams' %.0f: no per-flow limit", one->mbps, 100.0 * share,
			       many->streams, many->mbps);
	else if (share >= SINGLE_FLOW_FAR_BELOW_SHARE)
		nd_verdict_set(f, ND_VERDICT_INCONCLUSIVE, e, "one stream moves %.0f%% of what %d "
			       "streams do", 100.0 * share, many->streams);
	else if (load.top < 0)
		nd_verdict_set(f, ND_VERDICT_INCONCLUSIVE, e, "one stream moves %.0f%% of what %d "
			       "streams do; no per-CPU load measured", 100.0 * share, many->streams);
	else if (load.pegged)
		nd_verdict_set(f, ND_VERDICT_CONFIRMED, e, "one stream moves %.0f Mbit/s, %.0f%% "
			       "of %d streams' %.0f, with CPU %d %.0f%% busy: a per-core limit",
			       one->mbps, 100.0 * share, many->streams, many->mbps,
			       one->cpus[load.top].cpu, one->cpus[load.top].busy_pct);
	else
		nd_verdict_set(f, ND_VERDICT_INCONCLUSIVE, e, "one stream moves %.0f%% of what %d "
			       "streams do, but no CPU was saturated (the busiest %.0f%%): not one "
			       "core", 100.0 * share, many->streams, one->cpus[load.top].busy_pct);
}

void nd_verdicts_decide(struct nd_finding *fs, unsigned n, const struct nd_exp_set *set,
			struct nd_exp_summary *ret)
{
	const struct nd_exp_run *fwd = nd_exp_run_get(set, ND_RUN_FORWARD_MANY);

	memset(ret, 0, sizeof(*ret));
	ret->binding = -1;
	ret->measured_mbps = set->mode == ND_EXP_PEER && fwd ? fwd->mbps : -1;
	ret->wire_mbps = set->wire_mbps;
	/* The loopback baseline measures the host, not the NIC: it speaks
	 * to no suspect. */
	if (set->mode != ND_EXP_PEER)
		return;
	for (unsigned i = 0; i < n; i++) {
		enum nd_suspect_dir dir;

		switch (nd_suspect_kind_of(&fs[i], &dir)) {
		case ND_SUSPECT_CPU: judge_cpu(&fs[i], set); break;
		case ND_SUSPECT_PER_FLOW: judge_per_flow(&fs[i], set); break;
		case ND_SUSPECT_DROPS_NIC:
		case ND_SUSPECT_DROPS_SOFTNET:
		case ND_SUSPECT_SQUEEZE: nd_judge_counters(&fs[i], set); break;
		case ND_SUSPECT_QUEUES: nd_judge_queue_flows(&fs[i], set); break;
		default: break;
		}
	}
	judge_ceilings(fs, n, set);
	name_explained(fs, n);
	nd_verdict_binding(fs, n, set, ret);
	nd_verdicts_apply_severity(fs, n);
}
