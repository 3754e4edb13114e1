/*
 * softnet_squeezed.c - softnet.squeezed: net_rx_action ran out of budget
 * (net.core.netdev_budget packets or netdev_budget_usecs time) with
 * packets still waiting: /proc/net/softnet_stat column 3, time_squeeze.
 * The rest is deferred to ksoftirqd; when that happens on most rounds the
 * CPU is at its receive limit and the NIC ring fills (drops, misses).
 *
 * How it is judged: each CPU's squeezes are compared with the packets it
 * processed, over the observation window (the traffic runs, or diagnose's
 * short sample); the cumulative count since boot is history, at most info
 * (a few squeezes in days of uptime are normal bursts).  A round cut
 * short by the default 300-packet budget has processed 300 packets, so one
 * squeeze per 300 packets means every round ran out: the CPU is saturated.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "counter_window.h"
#include "softnet_tally.h"
#include "checks.h"

/* Fewer squeezes than this on a CPU since boot are bursts, whatever the
 * share (in the window: ND_WINDOW_MIN_COUNT). */
#define SQUEEZE_MIN_COUNT 100
/* One squeeze per 10000 packets: some rounds ran out (info). */
#define SQUEEZE_INFO_SHARE 1e-4
/* One squeeze per netdev_budget (default 300) packets: every round ran out. */
#define SQUEEZE_WARN_SHARE (1.0 / 300.0)
/* netdev_budget's kernel default, assumed when the sysctl is unknown. */
#define BUDGET_DEFAULT 300

static void add_fix(const struct nd_facts *facts, struct nd_finding *f,
		    const struct nd_softnet_tally *t)
{
	const struct nd_sysctl *budget = &facts->sysctl.netdev_budget;
	uint64_t current = BUDGET_DEFAULT;

	if (budget->known && sscanf(budget->text, "%" SCNu64, &current) == 1)
		cJSON_AddNumberToObject(f->evidence, "netdev_budget", (double)current);
	nd_finding_fix(f, "sysctl", "sysctl -w net.core.netdev_budget=%" PRIu64, current * 2);
	nd_finding_fix(f, "sysctl", "sysctl -w net.core.netdev_budget_usecs=$(( $(sysctl -n "
		       "net.core.netdev_budget_usecs) * 2 ))");
	if (facts->cpus.st.known && t->cpus_over_min * 2 <= facts->cpus.n_online)
		nd_finding_fix(f, "sysctl", "# squeezed often on %u of %u CPUs: spreading receive "
			       "work (more RX queues, RPS) relieves them more than a bigger budget",
			       t->cpus_over_min, facts->cpus.n_online);
}

static void judge_window(const struct nd_facts *facts, struct nd_finding *f,
			 const struct nd_softnet_view *v)
{
	const struct nd_softnet_tally *t = &v->win;

	if (!t->worst_known || t->worst_share < SQUEEZE_INFO_SHARE) {
		nd_finding_set(f, ND_SEV_OK, "%" PRIu64 " time squeeze%s during %s (%.1f/s): no CPU "
			       "runs out of softirq budget often", t->total, t->total == 1 ? "" : "s",
			       facts->window.label, v->rate_per_sec);
		return;
	}
	if (t->worst_share >= SQUEEZE_WARN_SHARE) {
		nd_finding_set(f, ND_SEV_WARNING,
			       "softirq budget exhausted: %.1f squeezes/s during %s, CPU%u %" PRIu64
			       " in %" PRIu64 " packets (%.2f%%), about every round; %" PRIu64
			       " since boot", v->rate_per_sec, facts->window.label, t->worst_cpu,
			       t->worst_count, t->worst_processed, t->worst_share * 100.0,
			       v->boot.total);
		add_fix(facts, f, t);
		return;
	}
	nd_finding_set(f, ND_SEV_INFO,
		       "softirq budget sometimes exhausted: %.1f squeezes/s during %s, CPU%u %"
		       PRIu64 " in %" PRIu64 " packets (%.3f%%)", v->rate_per_sec,
		       facts->window.label, t->worst_cpu, t->worst_count, t->worst_processed,
		       t->worst_share * 100.0);
}

void nd_check_softnet_squeezed(const struct nd_facts *facts, struct nd_finding *f)
{
	struct nd_softnet_view v;
	char history[256];

	if (!facts->softnet.st.known)
		return nd_finding_unknown(f, "softnet_stat", facts->softnet.st.reason);
	nd_softnet_view(facts, offsetof(struct nd_softnet_cpu, time_squeeze), "time_squeeze",
			SQUEEZE_MIN_COUNT, ND_WINDOW_MIN_COUNT, f->evidence, &v);
	cJSON_AddNumberToObject(f->evidence, "min_count", SQUEEZE_MIN_COUNT);
	cJSON_AddNumberToObject(f->evidence, "window_min_count", ND_WINDOW_MIN_COUNT);
	cJSON_AddNumberToObject(f->evidence, "info_share_pct", SQUEEZE_INFO_SHARE * 100.0);
	cJSON_AddNumberToObject(f->evidence, "warn_share_pct",
				round(SQUEEZE_WARN_SHARE * 1e6) / 1e4);
	if (v.window && v.win.total)
		return judge_window(facts, f, &v);
	if (!v.boot.worst_known || v.boot.worst_share < SQUEEZE_INFO_SHARE) {
		nd_finding_set(f, ND_SEV_OK, "%" PRIu64 " time squeeze%s since boot: no CPU runs "
			       "out of softirq budget often", v.boot.total,
			       v.boot.total == 1 ? "" : "s");
		return;
	}
	/* Often in the past, not now: what it was is context, not a verdict. */
	nd_finding_set(f, ND_SEV_INFO, "softirq budget exhausted in the past (CPU%u %.3f%% of "
		       "its packets): %s", v.boot.worst_cpu, v.boot.worst_share * 100.0,
		       nd_softnet_history_text(facts, v.boot.total, "squeezes", history,
					       sizeof(history)));
}
