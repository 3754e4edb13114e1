/*
 * softnet_dropped.c - softnet.dropped: packets dropped because a CPU's
 * input backlog (netdev_max_backlog) was full: /proc/net/softnet_stat
 * column 2.  Packets reach the backlog through RPS/RFS steering and
 * netif_rx (veth, tunnels, loopback); a drop there is a lost packet the
 * sender must retransmit.
 */
#include <inttypes.h>
#include <stdio.h>

#include "softnet_tally.h"
#include "checks.h"

/* A CPU is judged only from this many drops: a handful over the uptime is
 * a burst that TCP absorbs, not a limit. */
#define DROPPED_WARN_MIN_COUNT 100
/* Warn from 10 drops per million processed packets.  Mathis et al. (TCP
 * rate ~ MSS/RTT x 1.22/sqrt(p)): at p = 1e-5, a 1448-byte MSS and a 0.5 ms
 * LAN RTT one connection is held to ~8.9 Gbit/s, below 10GbE goodput. */
#define DROPPED_WARN_SHARE 1e-5

static void add_fix(const struct nd_facts *facts, struct nd_finding *f)
{
	const struct nd_sysctl *backlog = &facts->sysctl.netdev_max_backlog;
	uint64_t current = 0;

	if (backlog->known && sscanf(backlog->text, "%" SCNu64, &current) == 1)
		cJSON_AddNumberToObject(f->evidence, "netdev_max_backlog", (double)current);
	nd_finding_fix(f, "sysctl", "sysctl -w net.core.netdev_max_backlog=%" PRIu64,
		       nd_softnet_backlog_suggest(facts, current));
}

void nd_check_softnet_dropped(const struct nd_facts *facts, struct nd_finding *f)
{
	struct nd_softnet_tally t;

	if (!facts->softnet.st.known)
		return nd_finding_unknown(f, "softnet_stat", facts->softnet.st.reason);
	nd_softnet_tally(&facts->softnet, offsetof(struct nd_softnet_cpu, dropped), "dropped",
			 DROPPED_WARN_MIN_COUNT, f->evidence, &t);
	cJSON_AddNumberToObject(f->evidence, "warn_min_count", DROPPED_WARN_MIN_COUNT);
	cJSON_AddNumberToObject(f->evidence, "warn_share_pct", DROPPED_WARN_SHARE * 100.0);
	if (!t.total) {
		nd_finding_set(f, ND_SEV_OK, "no backlog drops on %u CPU%s", facts->softnet.count,
			       facts->softnet.count == 1 ? "" : "s");
		return;
	}
	if (t.worst_known && t.worst_share >= DROPPED_WARN_SHARE) {
		nd_finding_set(f, ND_SEV_WARNING,
			       "input backlog full: %" PRIu64 " packets dropped on %u CPU%s; "
			       "CPU%u dropped %" PRIu64 " per %" PRIu64 " processed (%.4f%%)",
			       t.total, t.cpus_counted, t.cpus_counted == 1 ? "" : "s",
			       t.worst_cpu, t.worst_count, t.worst_processed,
			       t.worst_share * 100.0);
		add_fix(facts, f);
		return;
	}
	nd_finding_set(f, ND_SEV_INFO,
		       "%" PRIu64 " backlog drop%s on %u CPU%s since boot: below %d per CPU or "
		       "%.3f%% of its packets", t.total, t.total == 1 ? "" : "s", t.cpus_counted,
		       t.cpus_counted == 1 ? "" : "s", DROPPED_WARN_MIN_COUNT,
		       DROPPED_WARN_SHARE * 100.0);
}
