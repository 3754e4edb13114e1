/*
 * irq_concentrated.c - every queue interrupt of the NIC served by one CPU.
 *
 * Judged from the counts first (where interrupts actually landed: the azure
 * mlx5 case had distinct smp_affinity masks and still every count on CPU0),
 * then from the effective affinity when the counts are too few to say.
 * The counts are the observation window's where it has enough (what landed
 * where while diagnose watched: the runs, or the sample); since-boot counts
 * keep an affinity long changed (a fix applied, irqbalance moving them) and
 * judge only without one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks.h"
#include "counter_window.h"
#include "nic_common.h"
#include "nicdoctor/queues.h"

/* Below this many queue interrupts in total the counts say nothing yet. */
#define IRQ_MIN_COUNTS 1000
/* One CPU taking this share of all queue interrupts is "concentrated":
 * a spread over two CPUs already gives each about half. */
#define IRQ_CONCENTRATED_SHARE 0.90

struct irq_tally {
	unsigned queue_irqs;
	uint64_t total;
	uint64_t per_cpu[ND_IRQ_MAX_CPUS];
	bool same_effective;		/* every queue IRQ's effective affinity is one same CPU */
	int effective_cpu;
};

static void tally(const struct nd_irqs *irqs, const struct nd_chain *chain, unsigned columns,
		  struct irq_tally *t)
{
	memset(t, 0, sizeof(*t));
	t->same_effective = true;
	t->effective_cpu = -1;
	for (unsigned i = 0; i < irqs->count && i < ND_MAX_IRQS; i++) {
		const struct nd_irq *irq = &irqs->irq[i];
		const struct nd_cpuset *eff = irq->effective_known ? &irq->effective :
					      irq->affinity_known ? &irq->affinity : NULL;

		if (!nd_chain_irq_serves_queue(chain, irq))
			continue;
		t->queue_irqs++;
		for (unsigned cpu = 0; cpu < columns; cpu++) {
			t->per_cpu[cpu] += irq->per_cpu[cpu];
			t->total += irq->per_cpu[cpu];
		}
		if (!eff || nd_cpuset_count(eff) != 1 ||
		    (t->effective_cpu >= 0 && t->effective_cpu != nd_cpuset_first(eff)))
			t->same_effective = false;
		else
			t->effective_cpu = nd_cpuset_first(eff);
	}
}

static void add_fix(const struct nd_facts *facts, const struct nd_chain *chain,
		    struct nd_finding *f)
{
	const struct nd_irqs *irqs = &facts->irqs;
	unsigned n_cpus = nd_cpuset_count(&facts->cpus.online), next = 0;

	if (facts->irqs.irqbalance_running)
		nd_finding_fix(f, "irq_affinity", "# irqbalance runs: ban these IRQs "
			       "(IRQBALANCE_BANNED_CPULIST or --banirq) or it rewrites them");
	for (unsigned i = 0; i < irqs->count && i < ND_MAX_IRQS && n_cpus; i++) {
		unsigned cpu, seen = 0;

		if (!nd_chain_irq_serves_queue(chain, &irqs->irq[i]))
			continue;
		/* The next online CPU, round robin, as ixgbe's set_irq_affinity does. */
		for (cpu = 0; cpu < ND_CPUSET_BITS; cpu++)
			if (nd_cpuset_has(&facts->cpus.online, cpu) && seen++ == next % n_cpus)
				break;
		next++;
		nd_finding_fix(f, "irq_affinity", "echo %u > /proc/irq/%u/smp_affinity_list",
			       cpu, irqs->irq[i].irq);
	}
}

/* The window's queue interrupts, when it saw enough of them to judge;
 * boot_share is the since-boot busiest CPU's share (< 0 unknown). */
static bool judge_window(const struct nd_facts *facts, const struct nd_chain *chain,
			 double boot_share, unsigned boot_cpu, struct nd_finding *f)
{
	const struct nd_counter_window *w = &facts->window;
	const struct nd_irq_sums *a = &w->before.queue_irqs, *b = &w->after.queue_irqs;
	uint64_t total = 0, top = 0;
	unsigned top_column = 0;
	char history[96] = "";
	double share;

	if (!w->known || !a->known || !b->known || a->n_columns != b->n_columns)
		return false;
	for (unsigned c = 0; c < b->n_columns; c++) {
		uint64_t d = nd_counter_delta(a->per_column[c], b->per_column[c]);

		total += d;
		if (d > top) {
			top = d;
			top_column = c;
		}
	}
	nd_window_evidence(facts, f->evidence);
	cJSON_AddNumberToObject(f->evidence, "window_queue_interrupts", (double)total);
	if (total < IRQ_MIN_COUNTS)
		return false;
	share = (double)top / (double)total;
	cJSON_AddNumberToObject(f->evidence, "window_busiest_cpu", b->column_cpu[top_column]);
	cJSON_AddNumberToObject(f->evidence, "window_busiest_cpu_share_pct",
				(double)(long)(share * 1000.0) / 10.0);
	if (share >= IRQ_CONCENTRATED_SHARE) {
		nd_finding_set(f, ND_SEV_WARNING, "%.0f%% of the %llu queue interrupts in %s were "
			       "on CPU%u", share * 100.0, (unsigned long long)total, w->label,
			       b->column_cpu[top_column]);
		add_fix(facts, chain, f);
		return true;
	}
	if (boot_share >= IRQ_CONCENTRATED_SHARE)
		snprintf(history, sizeof(history), " (since boot %.0f%% were on CPU%u: history)",
			 boot_share * 100.0, boot_cpu);
	nd_finding_set(f, ND_SEV_OK, "queue interrupts spread in %s: busiest CPU%u had %.0f%%%s",
		       w->label, b->column_cpu[top_column], share * 100.0, history);
	return true;
}

/* Queue IRQs: the kernel's napi -> IRQ links where it gave them, else
 * IRQ names; the chain goes into the evidence either way. */
static void judge(const struct nd_facts *facts, const struct nd_chain *chain,
		  struct nd_finding *f);

void nd_check_irq_concentrated(const struct nd_facts *facts, struct nd_finding *f)
{
	struct nd_chain *chain = calloc(1, sizeof(*chain));

	if (chain) {
		nd_queue_chain_build(facts, chain);
		if (chain->count)
			cJSON_AddItemToObject(f->evidence, "queue_chain",
					      nd_chain_to_json(chain, NULL));
		if (chain->kernel_irqs)
			cJSON_AddStringToObject(f->evidence, "queue_irqs_from", "netdev");
	}
	judge(facts, chain, f);
	free(chain);
}

static void judge(const struct nd_facts *facts, const struct nd_chain *chain,
		  struct nd_finding *f)
{
	const struct nd_irqs *irqs = &facts->irqs;
	unsigned columns = nd_irq_columns(facts);
	struct irq_tally t;
	unsigned top_column = 0;

	if (!irqs->st.known)
		return nd_finding_unknown(f, "interface interrupts", irqs->st.reason);
	tally(irqs, chain, columns, &t);
	cJSON_AddNumberToObject(f->evidence, "queue_irqs", t.queue_irqs);
	cJSON_AddNumberToObject(f->evidence, "cpus", columns);
	if (t.queue_irqs < 2 || columns < 2) {
		nd_finding_set(f, ND_SEV_OK, "%u queue interrupt%s on %u CPU%s: nothing to spread",
			       t.queue_irqs, t.queue_irqs == 1 ? "" : "s", columns,
			       columns == 1 ? "" : "s");
		return;
	}
	for (unsigned column = 1; column < columns; column++)
		if (t.per_cpu[column] > t.per_cpu[top_column])
			top_column = column;
	cJSON_AddNumberToObject(f->evidence, "queue_interrupts_total", (double)t.total);
	if (t.total >= IRQ_MIN_COUNTS) {
		double share = (double)t.per_cpu[top_column] / (double)t.total;

		cJSON_AddNumberToObject(f->evidence, "busiest_cpu", nd_irq_column_cpu(facts, top_column));
		cJSON_AddNumberToObject(f->evidence, "busiest_cpu_share_pct",
					(double)(long)(share * 1000.0) / 10.0);
		if (judge_window(facts, chain, share, nd_irq_column_cpu(facts, top_column), f))
			return;
		if (share >= IRQ_CONCENTRATED_SHARE) {
			nd_finding_set(f, ND_SEV_WARNING,
				       "%.0f%% of %u queue interrupts' counts since boot are on CPU%u",
				       share * 100.0, t.queue_irqs, nd_irq_column_cpu(facts, top_column));
			add_fix(facts, chain, f);
			return;
		}
		nd_finding_set(f, ND_SEV_OK, "queue interrupts spread: busiest CPU%u has %.0f%%",
			       nd_irq_column_cpu(facts, top_column), share * 100.0);
		return;
	}
	if (judge_window(facts, chain, -1, 0, f))
		return;
	if (t.same_effective && t.effective_cpu >= 0) {
		cJSON_AddNumberToObject(f->evidence, "affinity_cpu", t.effective_cpu);
		nd_finding_set(f, ND_SEV_WARNING, "all %u queue interrupts are pinned to CPU%d",
			       t.queue_irqs, t.effective_cpu);
		add_fix(facts, chain, f);
		return;
	}
	nd_finding_set(f, ND_SEV_OK, "queue interrupt affinities differ (few counts yet)");
}
