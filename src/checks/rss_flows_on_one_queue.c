/*
 * rss_flows_on_one_queue.c - several queues, and one of them carrying
 * nearly all packets: the flows hash to one queue (one flow, a tunnel or
 * VLAN the hash does not look into, a table or ntuple rule steering
 * everything to one queue), so one core does the work of all.  The
 * since-boot per-queue counters raise the suspicion; only traffic with
 * several flows confirms it (verdict_queues.c).  RX queues where the
 * counters are known, else TX queues (an mq root counts those).
 */
#include <stdio.h>
#include <string.h>

#include "checks.h"
#include "nicdoctor/queues.h"

/* Since boot, one queue with 90% of the packets is suspect ... */
#define SUSPECT_SHARE 0.90
/* ... once the counters hold enough packets to mean something. */
#define SUSPECT_MIN_PACKETS 10000

struct tally {
	unsigned queues;
	uint64_t total;
	int top;
};

static void tally_kind(const struct nd_queue_table *qt, unsigned kind, struct tally *t)
{
	memset(t, 0, sizeof(*t));
	t->top = -1;
	for (unsigned i = 0; i < qt->count && i < ND_MAX_QUEUE_ROWS; i++) {
		if (qt->q[i].kind != kind || !qt->q[i].counters_known)
			continue;
		t->queues++;
		t->total += qt->q[i].packets;
		if (t->top < 0 || qt->q[i].packets > qt->q[t->top].packets)
			t->top = (int)i;
	}
}

void nd_check_rss_flows_on_one_queue(const struct nd_facts *facts, struct nd_finding *f)
{
	const struct nd_queue_table *qt = &facts->queue_table;
	unsigned kind = ND_QUEUE_RX;
	const char *name;
	struct tally t;
	double share;

	if (!qt->st.known)
		return nd_finding_unknown(f, "queue table", qt->st.reason);
	tally_kind(qt, ND_QUEUE_RX, &t);
	if (t.queues < 2) {
		struct tally tx;

		tally_kind(qt, ND_QUEUE_TX, &tx);
		if (tx.queues >= 2) {
			t = tx;
			kind = ND_QUEUE_TX;
		}
	}
	name = kind == ND_QUEUE_RX ? "rx" : "tx";
	cJSON_AddStringToObject(f->evidence, "queue_kind", name);
	cJSON_AddNumberToObject(f->evidence, "queues_with_counters", t.queues);
	if (t.queues < 2) {
		nd_finding_set(f, ND_SEV_OK, "fewer than two queues with per-queue counters: "
			       "nothing to spread or to compare");
		return;
	}
	cJSON_AddStringToObject(f->evidence, "counter_source", qt->q[t.top].counter_source);
	cJSON_AddNumberToObject(f->evidence, "packets_since_boot", (double)t.total);
	share = t.total ? (double)qt->q[t.top].packets / (double)t.total : 0;
	cJSON_AddNumberToObject(f->evidence, "busiest_queue_share_pct",
				(double)(long)(share * 1000.0) / 10.0);
	nd_chain_add_evidence(facts, f->evidence);
	if (t.total >= SUSPECT_MIN_PACKETS && share >= SUSPECT_SHARE) {
		nd_finding_set(f, ND_SEV_WARNING, "%s-%u carried %.0f%% of %u %s queues' packets "
			       "since boot: the flows may hash to one queue", name, qt->q[t.top].id,
			       share * 100.0, t.queues, name);
		nd_finding_fix(f, "rss", "# with several flows running: nicdoctor watch %s "
			       "(which queue moves), ethtool -x %s, ethtool -n %s (rules)",
			       facts->ifname, facts->ifname, facts->ifname);
		return;
	}
	nd_finding_set(f, ND_SEV_OK, "%u %s queues share the packets since boot: the busiest "
		       "has %.0f%%", t.queues, name, share * 100.0);
}
