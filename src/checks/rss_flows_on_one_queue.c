/*
 * rss_flows_on_one_queue.c - several queues, and one of them carrying
 * nearly all packets: the flows hash to one queue (one flow, a tunnel or
 * VLAN the hash does not look into, a table or ntuple rule steering
 * everything to one queue), so one core does the work of all.  The
 * since-boot per-queue counters raise the suspicion; only traffic with
 * several flows confirms it (verdict_queues.c).  RX queues where the
 * counters are known, else TX queues (an mq root counts those).
 *
 * An RX queue with nearly all of a million packets or more is the same
 * one-busy pattern as the vectors', with the same advice (RSS, RPS).
 *
 * Without per-queue counters (a driver with no queue statistics, a
 * sosreport whose ethtool -S has none) the queue vectors' interrupts
 * tell the same story
 * (irq_vector_share.c): one vector taking nearly all of them is traffic
 * reaching one queue, and the fix is RSS or RPS, never IRQ affinity; one
 * vector well above its fair share is an uneven hash (info).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks.h"
#include "irq_vector_share.h"
#include "nic_common.h"
#include "nicdoctor/queues.h"

/* Since boot, one queue with 90% of the packets is suspect ... */
#define SUSPECT_SHARE 0.90
/* ... once the counters hold enough packets to mean something. */
#define SUSPECT_MIN_PACKETS 10000
/* An RX queue with ND_ONE_BUSY_SHARE of a million packets or more is the
 * one-busy pattern the vectors show (irq_vector_share.h): more than a
 * quiet host's ARP and management traffic ever reached the others. */
#define ONE_BUSY_MIN_PACKETS 1000000

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

/* The one-busy advice; top_queue: the busy RX queue, -1 unknown. */
static void one_busy_fix(const struct nd_facts *facts, int top_queue, struct nd_finding *f)
{
	unsigned rx_queues = nd_facts_rx_queues(facts);
	char mask[300];

	nd_finding_fix(f, "rss", "# is RSS on? ethtool -x %s (table), ethtool -n %s rx-flow-hash "
		       "tcp4 (hash fields); one flow stays on one queue whatever RSS does",
		       facts->ifname, facts->ifname);
	if (rx_queues > 1)
		nd_finding_fix(f, "rss", "ethtool -X %s equal %u", facts->ifname, rx_queues);
	if (facts->cpus.st.known && facts->cpus.n_online > 1) {
		nd_rps_mask(facts, mask, sizeof(mask));
		nd_finding_fix(f, "rss", "# where the NIC cannot hash: RPS spreads the stack's work");
		nd_finding_fix(f, "rss", "echo %s > /sys/class/net/%s/queues/rx-%d/rps_cpus", mask,
			       facts->ifname, top_queue >= 0 ? top_queue : 0);
	}
}

/* Whether the interface receives on two queues or more: the count where
 * it is known, else two vectors whose names are not transmit-only
 * ("eth0-tx-0", "virtio0-output.0"). */
static bool several_rx_queues(const struct nd_facts *facts)
{
	unsigned rx_queues = nd_facts_rx_queues(facts), rx_vectors = 0;

	if (rx_queues)
		return rx_queues > 1;
	for (unsigned i = 0; i < facts->irqs.count && i < ND_MAX_IRQS; i++) {
		const char *name = facts->irqs.irq[i].name;

		if (nd_facts_irq_serves_queue(facts, &facts->irqs.irq[i]) &&
		    !strstr(name, "output") && !strstr(name, "-tx-") && !strstr(name, "_tx"))
			rx_vectors++;
	}
	return rx_vectors > 1;
}

/* No per-queue counters: the queue vectors' interrupts; false when they
 * cannot say (fewer than two vectors or RX queues, too few interrupts):
 * with one RX queue, its vector taking everything is no news
 * (rps.off_single_queue judges that host). */
static bool judge_vectors(const struct nd_facts *facts, struct nd_finding *f)
{
	struct nd_chain *chain;
	struct nd_irq_share s;
	char queue[32] = "", when[80];

	if (!facts->irqs.st.known || !several_rx_queues(facts) ||
	    !(chain = calloc(1, sizeof(*chain))))
		return false;
	nd_queue_chain_build(facts, chain);
	nd_irq_share_judged(facts, chain, &s, NULL);
	free(chain);
	nd_irq_share_when(facts, &s, when, sizeof(when));
	if (s.pattern == ND_IRQ_FEW || !s.per_vector_known)
		return false;
	cJSON_AddStringToObject(f->evidence, "queue_kind", "rx");
	cJSON_AddStringToObject(f->evidence, "counter_source", "queue vectors' interrupts");
	nd_irq_share_evidence(&s, f->evidence);
	nd_chain_add_evidence(facts, f->evidence);
	if (s.top_queue >= 0)
		snprintf(queue, sizeof(queue), " (queue %d)", s.top_queue);
	switch (s.pattern) {
	case ND_IRQ_ONE_BUSY:
		nd_finding_set(f, ND_SEV_WARNING, "IRQ %u%s took %.0f%% of %u queue vectors' "
			       "interrupts %s: traffic reaches one queue (RSS off or unsupported, "
			       "or one flow)", s.top_irq, queue, s.top_vector_share * 100.0,
			       s.vectors, when);
		one_busy_fix(facts, s.top_queue, f);
		break;
	case ND_IRQ_ONE_HOT:
		nd_finding_set(f, ND_SEV_INFO, "IRQ %u%s took %.0f%% of %u queue vectors' "
			       "interrupts %s (even: %.0f%%): the flows hash unevenly", s.top_irq,
			       queue, s.top_vector_share * 100.0, s.vectors,
			       when, 100.0 / s.vectors);
		nd_finding_fix(f, "rss", "# more flows spread better; check the hash: ethtool -x %s, "
			       "ethtool -n %s rx-flow-hash tcp4 (sdfn: addresses and ports)",
			       facts->ifname, facts->ifname);
		break;
	default:
		nd_finding_set(f, ND_SEV_OK, "%u queue vectors share the interrupts %s: the "
			       "busiest has %.0f%%", s.vectors, when,
			       s.top_vector_share * 100.0);
		break;
	}
	return true;
}

void nd_check_rss_flows_on_one_queue(const struct nd_facts *facts, struct nd_finding *f)
{
	const struct nd_queue_table *qt = &facts->queue_table;
	unsigned kind = ND_QUEUE_RX;
	const char *name;
	struct tally t = { 0, 0, -1 };
	double share;

	if (qt->st.known) {
		tally_kind(qt, ND_QUEUE_RX, &t);
		if (t.queues < 2) {
			struct tally tx;

			tally_kind(qt, ND_QUEUE_TX, &tx);
			if (tx.queues >= 2) {
				t = tx;
				kind = ND_QUEUE_TX;
			}
		}
	}
	if (t.queues < 2 && judge_vectors(facts, f))
		return;
	if (!qt->st.known)
		return nd_finding_unknown(f, "queue table", qt->st.reason);
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
	if (kind == ND_QUEUE_RX && t.total >= ONE_BUSY_MIN_PACKETS && share >= ND_ONE_BUSY_SHARE) {
		cJSON_AddStringToObject(f->evidence, "pattern", nd_irq_pattern_name(ND_IRQ_ONE_BUSY));
		nd_finding_set(f, ND_SEV_WARNING, "rx-%u took %.0f%% of %u rx queues' packets "
			       "since boot: traffic reaches one queue (RSS off or unsupported, or "
			       "one flow)", qt->q[t.top].id, share * 100.0, t.queues);
		one_busy_fix(facts, (int)qt->q[t.top].id, f);
		return;
	}
	if (t.total >= SUSPECT_MIN_PACKETS && share >= SUSPECT_SHARE) {
		nd_finding_set(f, ND_SEV_WARNING, "%s-%u carried %.0f%% of %u %s queues' packets "
			       "since boot: the flows may hash to one queue", name, qt->q[t.top].id,
			       share * 100.0, t.queues, name);
		nd_finding_fix(f, "rss", "# with several flows running: nicdoctor watch %s "
			       "(which queue moves), ethtool -x %s, ethtool -n %s (rules)",
			       facts->ifname, facts->ifname, facts->ifname);
		return;
	}
	if (t.total < SUSPECT_MIN_PACKETS) {
		nd_finding_set(f, ND_SEV_OK, "%u %s queues counted %llu packets since boot: too "
			       "few to compare", t.queues, name, (unsigned long long)t.total);
		return;
	}
	nd_finding_set(f, ND_SEV_OK, "%u %s queues share the packets since boot: the busiest "
		       "has %.0f%%", t.queues, name, share * 100.0);
}
