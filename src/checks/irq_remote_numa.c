/*
 * irq_remote_numa.c - the NIC's queue interrupts are served by CPUs of
 * another NUMA node than the one the card hangs off.  Every packet's
 * descriptors and data then cross the socket interconnect (DMA lands in
 * the card's node, the softirq runs in the other), which costs latency and
 * interconnect bandwidth; the usual tuning keeps queue IRQs on the local
 * node's CPUs.
 *
 * Where interrupts landed is judged from the counts first (what actually
 * happened), then from the effective affinity when too few have fired.
 */
#include <stdio.h>
#include <string.h>

#include "checks.h"
#include "nic_common.h"
#include "nicdoctor/queues.h"

/* Below this many queue interrupts in total the counts say nothing yet
 * (the same bar as irq.concentrated). */
#define IRQ_MIN_COUNTS 1000
/* This share of the queue IRQs served remotely or more is a warning; a
 * few remote ones (more queues than local CPUs spill over) are info. */
#define REMOTE_WARN_SHARE 0.5
/* Fix lines kept for per-IRQ commands; the rest of ND_FIX_MAX_COMMANDS
 * holds the irqbalance note and the "N more" line. */
#define FIX_IRQ_LINES (ND_FIX_MAX_COMMANDS - 2)

struct numa_tally {
	unsigned queue_irqs, remote_irqs, mixed_irqs;
	bool by_counts;
	unsigned remote[ND_MAX_IRQS];	/* indexes into irqs->irq of the remote ones */
};

static uint64_t queue_counts_total(const struct nd_facts *facts)
{
	unsigned columns = nd_irq_columns(facts);
	uint64_t total = 0;

	for (unsigned i = 0; i < facts->irqs.count && i < ND_MAX_IRQS; i++)
		if (nd_facts_irq_serves_queue(facts, &facts->irqs.irq[i]))
			for (unsigned col = 0; col < columns; col++)
				total += facts->irqs.irq[i].per_cpu[col];
	return total;
}

/* 1 remote, 0 local, -1 neither (split, or affinity not read). */
static int irq_remote(const struct nd_facts *facts, const struct nd_irq *irq,
		      const struct nd_cpuset *node, bool by_counts)
{
	const struct nd_cpuset *eff = irq->effective_known ? &irq->effective :
				      irq->affinity_known ? &irq->affinity : NULL;
	unsigned in_node = 0, cpus;

	if (by_counts) {
		uint64_t local = 0, remote = 0;

		for (unsigned col = 0; col < nd_irq_columns(facts); col++) {
			if (nd_cpuset_has(node, nd_irq_column_cpu(facts, col)))
				local += irq->per_cpu[col];
			else
				remote += irq->per_cpu[col];
		}
		return local + remote == 0 ? -1 : remote > local;
	}
	if (!eff || nd_cpuset_empty(eff))
		return -1;
	cpus = nd_cpuset_count(eff);
	for (unsigned cpu = 0; cpu < ND_CPUSET_BITS; cpu++)
		if (nd_cpuset_has(eff, cpu) && nd_cpuset_has(node, cpu))
			in_node++;
	return in_node == 0 ? 1 : in_node == cpus ? 0 : -1;
}

static void tally(const struct nd_facts *facts, const struct nd_cpuset *node,
		  struct numa_tally *t)
{
	memset(t, 0, sizeof(*t));
	t->by_counts = queue_counts_total(facts) >= IRQ_MIN_COUNTS;
	for (unsigned i = 0; i < facts->irqs.count && i < ND_MAX_IRQS; i++) {
		int remote;

		if (!nd_facts_irq_serves_queue(facts, &facts->irqs.irq[i]))
			continue;
		t->queue_irqs++;
		remote = irq_remote(facts, &facts->irqs.irq[i], node, t->by_counts);
		if (remote > 0)
			t->remote[t->remote_irqs++] = i;
		else if (remote < 0)
			t->mixed_irqs++;
	}
}

/* Pin each remote IRQ to the next local CPU in turn, as ixgbe's
 * set_irq_affinity script does for a node. */
static void add_fix(const struct nd_facts *facts, const struct nd_cpuset *node,
		    const struct numa_tally *t, struct nd_finding *f)
{
	struct nd_cpuset local;
	unsigned n_local, next = 0, cpu = 0;

	/* A node's cpulist names present CPUs; only online ones take IRQs. */
	nd_cpuset_zero(&local);
	for (unsigned c = 0; c < ND_CPUSET_BITS; c++)
		if (nd_cpuset_has(node, c) && nd_cpuset_has(&facts->cpus.online, c))
			nd_cpuset_add(&local, c);
	n_local = nd_cpuset_count(&local);

	if (facts->irqs.irqbalance_known && facts->irqs.irqbalance_running)
		nd_finding_fix(f, "irq_affinity", "# irqbalance runs: ban these IRQs "
			       "(IRQBALANCE_BANNED_CPULIST or --banirq) or it rewrites them");
	for (unsigned k = 0; k < t->remote_irqs && k < FIX_IRQ_LINES && n_local; k++) {
		unsigned seen = 0;

		for (cpu = 0; cpu < ND_CPUSET_BITS; cpu++)
			if (nd_cpuset_has(&local, cpu) && seen++ == next % n_local)
				break;
		next++;
		nd_finding_fix(f, "irq_affinity", "echo %u > /proc/irq/%u/smp_affinity_list", cpu,
			       facts->irqs.irq[t->remote[k]].irq);
	}
	if (t->remote_irqs > FIX_IRQ_LINES)
		nd_finding_fix(f, "irq_affinity", "# and %u more IRQs the same way (evidence "
			       "remote_irqs)", t->remote_irqs - FIX_IRQ_LINES);
}

static void add_evidence(const struct nd_facts *facts, int node, const struct nd_cpuset *local,
			 const struct numa_tally *t, cJSON *evidence)
{
	cJSON *remote = cJSON_AddArrayToObject(evidence, "remote_irqs");
	char list[512];

	cJSON_AddNumberToObject(evidence, "nic_numa_node", node);
	cJSON_AddStringToObject(evidence, "node_cpus",
				nd_cpuset_format_list(local, list, sizeof(list)));
	cJSON_AddNumberToObject(evidence, "queue_irqs", t->queue_irqs);
	cJSON_AddNumberToObject(evidence, "remote_irq_count", t->remote_irqs);
	cJSON_AddNumberToObject(evidence, "undecided_irqs", t->mixed_irqs);
	cJSON_AddStringToObject(evidence, "judged_by", t->by_counts ?
				"interrupt counts (majority per IRQ)" : "effective affinity");
	for (unsigned k = 0; k < t->remote_irqs; k++)
		cJSON_AddItemToArray(remote, cJSON_CreateNumber(facts->irqs.irq[t->remote[k]].irq));
}

void nd_check_irq_remote_numa(const struct nd_facts *facts, struct nd_finding *f)
{
	const struct nd_cpus *cpus = &facts->cpus;
	int node = facts->pci.numa_node;
	struct numa_tally t;

	if (!facts->pci.st.known)
		return nd_finding_unknown(f, "NIC NUMA node", facts->pci.st.reason);
	if (!cpus->st.known)
		return nd_finding_unknown(f, "NUMA nodes' CPUs", cpus->st.reason);
	cJSON_AddNumberToObject(f->evidence, "numa_nodes", cpus->n_nodes);
	if (cpus->n_nodes <= 1) {
		nd_finding_set(f, ND_SEV_OK, "one NUMA node: every CPU is local to the NIC");
		return;
	}
	if (node < 0)
		return nd_finding_unknown(f, "NIC NUMA node", "firmware gives the device no node "
					  "(numa_node -1) on a multi-node host");
	if ((unsigned)node >= cpus->n_nodes ||
	    (unsigned)node >= sizeof(cpus->node_cpus) / sizeof(cpus->node_cpus[0]) ||
	    nd_cpuset_empty(&cpus->node_cpus[node]))
		return nd_finding_unknown(f, "NUMA nodes' CPUs", "no CPU list for the NIC's node");
	if (!facts->irqs.st.known)
		return nd_finding_unknown(f, "interface interrupts", facts->irqs.st.reason);
	tally(facts, &cpus->node_cpus[node], &t);
	add_evidence(facts, node, &cpus->node_cpus[node], &t, f->evidence);
	if (!t.remote_irqs) {
		nd_finding_set(f, ND_SEV_OK, "queue interrupts served on the NIC's node %d", node);
		return;
	}
	nd_finding_set(f, t.remote_irqs >= REMOTE_WARN_SHARE * t.queue_irqs ? ND_SEV_WARNING :
		       ND_SEV_INFO, "%u of %u queue interrupts served off the NIC's NUMA node %d",
		       t.remote_irqs, t.queue_irqs, node);
	add_fix(facts, &cpus->node_cpus[node], &t, f);
}
