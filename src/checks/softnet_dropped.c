/*
 * softnet_dropped.c - softnet.dropped: packets dropped because a CPU's
 * input backlog (netdev_max_backlog) was full: /proc/net/softnet_stat
 * column 2.  Packets reach the backlog through RPS/RFS steering and
 * netif_rx (veth, tunnels, loopback); a drop there is a lost packet the
 * sender must retransmit.
 *
 * Judged by what the counter does in the observation window (the traffic
 * runs, or diagnose's own short sample): a total since boot that did not
 * grow is one old burst, reported as info with the uptime, never a warning.
 */
#include <inttypes.h>
#include <stdio.h>

#include "counter_window.h"
#include "softnet_tally.h"
#include "checks.h"

/* Warn from 10 drops per million processed packets on a CPU.  Mathis et
 * al. (TCP rate ~ MSS/RTT x 1.22/sqrt(p)): at p = 1e-5, a 1448-byte MSS and
 * a 0.5 ms LAN RTT one connection is held to ~8.9 Gbit/s, below 10GbE
 * goodput. */
#define DROPPED_WARN_SHARE 1e-5
/* ...or from 10 drops per second whatever the share: netdata's
 * 1min_netdev_backlog_exceeded alarm level. */
#define DROPPED_WARN_RATE 10.0

static void add_fix(const struct nd_facts *facts, struct nd_finding *f)
{
	const struct nd_sysctl *backlog = &facts->sysctl.netdev_max_backlog;
	uint64_t current = 0;

	if (backlog->known && sscanf(backlog->text, "%" SCNu64, &current) == 1)
		cJSON_AddNumberToObject(f->evidence, "netdev_max_backlog", (double)current);
	nd_finding_fix(f, "sysctl", "sysctl -w net.core.netdev_max_backlog=%" PRIu64,
		       nd_softnet_backlog_suggest(facts, current));
}

static void judge_window(const struct nd_facts *facts, struct nd_finding *f,
			 const struct nd_softnet_view *v)
{
	const struct nd_softnet_tally *t = &v->win;
	char when[64];

	nd_uptime_text(facts, when, sizeof(when));
	if ((t->worst_known && t->worst_share >= DROPPED_WARN_SHARE) ||
	    v->rate_per_sec >= DROPPED_WARN_RATE) {
		char worst[64] = "";

		if (t->worst_known)
			snprintf(worst, sizeof(worst), ", CPU%u %.4f%% of its packets", t->worst_cpu,
				 t->worst_share * 100.0);
		nd_finding_set(f, ND_SEV_WARNING,
			       "input backlog full: %.1f drops/s during %s (%" PRIu64 " on %u CPU%s%s)"
			       "; %" PRIu64 " since boot, %s", v->rate_per_sec, facts->window.label,
			       t->total, t->cpus_counted, t->cpus_counted == 1 ? "" : "s", worst,
			       v->boot.total, when);
		add_fix(facts, f);
		return;
	}
	nd_finding_set(f, ND_SEV_INFO,
		       "%" PRIu64 " backlog drop%s during %s (%.1f/s): below %d per CPU, %.0f/s "
		       "or %.3f%% of a CPU's packets; %" PRIu64 " since boot", t->total,
		       t->total == 1 ? "" : "s", facts->window.label, v->rate_per_sec,
		       ND_WINDOW_MIN_COUNT, DROPPED_WARN_RATE, DROPPED_WARN_SHARE * 100.0,
		       v->boot.total);
}

void nd_check_softnet_dropped(const struct nd_facts *facts, struct nd_finding *f)
{
	struct nd_softnet_view v;
	char history[256];

	if (!facts->softnet.st.known)
		return nd_finding_unknown(f, "softnet_stat", facts->softnet.st.reason);
	nd_softnet_view(facts, offsetof(struct nd_softnet_cpu, dropped), "dropped", 1,
			ND_WINDOW_MIN_COUNT, f->evidence, &v);
	cJSON_AddNumberToObject(f->evidence, "warn_min_count", ND_WINDOW_MIN_COUNT);
	cJSON_AddNumberToObject(f->evidence, "warn_share_pct", DROPPED_WARN_SHARE * 100.0);
	cJSON_AddNumberToObject(f->evidence, "warn_rate_per_sec", DROPPED_WARN_RATE);
	if (v.window && v.win.total)
		return judge_window(facts, f, &v);
	if (!v.boot.total) {
		nd_finding_set(f, ND_SEV_OK, "no backlog drops on %u CPU%s", facts->softnet.count,
			       facts->softnet.count == 1 ? "" : "s");
		return;
	}
	nd_finding_set(f, ND_SEV_INFO, "backlog drops in the past: %s",
		       nd_softnet_history_text(facts, v.boot.total, "drops", history,
					       sizeof(history)));
}
