/*
 * irq_concentrated.c - every queue interrupt of the NIC served by one CPU.
 * Only when several vectors fire (irq_vector_share.c): one busy vector is
 * traffic reaching one queue, which rss.flows_on_one_queue judges, and no
 * affinity can spread.
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
#include "irq_vector_share.h"
#include "nic_common.h"
#include "nicdoctor/queues.h"

/* The counts are irq_vector_share.c's; this is the affinity fallback. */
struct irq_tally {
	unsigned queue_irqs;
	bool same_effective;		/* every queue IRQ's effective affinity is one same CPU */
	int effective_cpu;
};

static void tally(const struct nd_irqs *irqs, const struct nd_chain *chain, struct irq_tally *t)
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

/* Queue IRQs: the kernel's napi -> IRQ links where it gave them, else
 * IRQ names; the chain goes into the evidence either way. */
static void judge(const struct nd_facts *facts, const struct nd_chain *chain,
		  struct nd_finding *f);

void nd_check_irq_concentrated(const struct nd_facts *facts, struct nd_finding *f)
{
	struct nd_chain *chain = calloc(1, sizeof(*chain));

	if (chain) {
		nd_queue_chain_build(facts, chain);
		/* Without interrupts the finding says only what is missing. */
		if (chain->count && facts->irqs.st.known)
			cJSON_AddItemToObject(f->evidence, "queue_chain",
					      nd_chain_to_json(chain, NULL));
		if (chain->kernel_irqs)
			cJSON_AddStringToObject(f->evidence, "queue_irqs_from", "netdev");
	}
	judge(facts, chain, f);
	free(chain);
}

/* The since-boot and window counts' busiest CPU into the evidence. */
static void add_counts(const struct nd_facts *facts, const struct nd_irq_share *boot,
		       const struct nd_irq_share *win, struct nd_finding *f)
{
	cJSON_AddNumberToObject(f->evidence, "queue_interrupts_total", (double)boot->total);
	if (boot->total >= ND_IRQ_MIN_COUNTS) {
		cJSON_AddNumberToObject(f->evidence, "busiest_cpu", boot->top_cpu);
		cJSON_AddNumberToObject(f->evidence, "busiest_cpu_share_pct",
					nd_share_pct1(boot->top_cpu_share));
	}
	if (!win)
		return;
	nd_window_evidence(facts, f->evidence);
	cJSON_AddNumberToObject(f->evidence, "window_queue_interrupts", (double)win->total);
	if (win->total >= ND_IRQ_MIN_COUNTS) {
		cJSON_AddNumberToObject(f->evidence, "window_busiest_cpu", win->top_cpu);
		cJSON_AddNumberToObject(f->evidence, "window_busiest_cpu_share_pct",
					nd_share_pct1(win->top_cpu_share));
	}
}

/* s: the counts judged (the window's or since boot's); boot for history. */
static void judge_pattern(const struct nd_facts *facts, const struct nd_chain *chain,
			  const struct nd_irq_share *s, const struct nd_irq_share *boot,
			  unsigned queue_irqs, struct nd_finding *f)
{
	char history[96] = "", when[80];

	nd_irq_share_when(facts, s, when, sizeof(when));
	nd_irq_share_evidence(s, f->evidence);
	switch (s->pattern) {
	case ND_IRQ_ONE_CPU:
		if (s->from_window)
			nd_finding_set(f, ND_SEV_WARNING, "%.0f%% of the %llu queue interrupts %s "
				       "were on CPU%u", s->top_cpu_share * 100.0,
				       (unsigned long long)s->total, when, s->top_cpu);
		else
			nd_finding_set(f, ND_SEV_WARNING, "%.0f%% of %u queue interrupts' counts "
				       "since boot are on CPU%u", s->top_cpu_share * 100.0,
				       queue_irqs, s->top_cpu);
		add_fix(facts, chain, f);
		return;
	case ND_IRQ_ONE_BUSY:
		/* Moving the idle vectors elsewhere would leave the one that
		 * works where it is: the cause is upstream of the IRQs. */
		nd_finding_set(f, ND_SEV_OK, "IRQ %u took %.0f%% of %u queue vectors' interrupts %s: "
			       "traffic reaches one queue, not an affinity problem (see "
			       "rss.flows_on_one_queue)", s->top_irq, s->top_vector_share * 100.0,
			       s->vectors, when);
		return;
	case ND_IRQ_ONE_HOT:
		nd_finding_set(f, ND_SEV_OK, "queue interrupts spread over CPUs %s (busiest CPU%u "
			       "%.0f%%), but IRQ %u took %.0f%% (see rss.flows_on_one_queue)", when,
			       s->top_cpu, s->top_cpu_share * 100.0, s->top_irq,
			       s->top_vector_share * 100.0);
		return;
	default:
		break;
	}
	if (!s->from_window) {
		nd_finding_set(f, ND_SEV_OK, "queue interrupts spread: busiest CPU%u has %.0f%%",
			       s->top_cpu, s->top_cpu_share * 100.0);
		return;
	}
	if (boot->pattern == ND_IRQ_ONE_CPU)
		snprintf(history, sizeof(history), " (since boot %.0f%% were on CPU%u: history)",
			 boot->top_cpu_share * 100.0, boot->top_cpu);
	nd_finding_set(f, ND_SEV_OK, "queue interrupts spread %s: busiest CPU%u had %.0f%%%s",
		       when, s->top_cpu, s->top_cpu_share * 100.0, history);
}

static void judge(const struct nd_facts *facts, const struct nd_chain *chain,
		  struct nd_finding *f)
{
	const struct nd_irqs *irqs = &facts->irqs;
	unsigned columns = nd_irq_columns(facts);
	struct irq_tally t;
	struct nd_irq_share boot, win;
	bool window;

	if (!irqs->st.known)
		return nd_finding_unknown(f, "interface interrupts", irqs->st.reason);
	tally(irqs, chain, &t);
	cJSON_AddNumberToObject(f->evidence, "queue_irqs", t.queue_irqs);
	cJSON_AddNumberToObject(f->evidence, "cpus", columns);
	if (t.queue_irqs < 2 || columns < 2) {
		nd_finding_set(f, ND_SEV_OK, "%u queue interrupt%s on %u CPU%s: nothing to spread",
			       t.queue_irqs, t.queue_irqs == 1 ? "" : "s", columns,
			       columns == 1 ? "" : "s");
		return;
	}
	nd_irq_share_boot(facts, chain, &boot);
	window = nd_irq_share_window(facts, chain, &win);
	add_counts(facts, &boot, window ? &win : NULL, f);
	if (window && win.total >= ND_IRQ_MIN_COUNTS)
		return judge_pattern(facts, chain, &win, &boot, t.queue_irqs, f);
	if (boot.total >= ND_IRQ_MIN_COUNTS)
		return judge_pattern(facts, chain, &boot, &boot, t.queue_irqs, f);
	nd_irq_share_evidence(window ? &win : &boot, f->evidence);	/* "few-counts" */
	if (t.same_effective && t.effective_cpu >= 0) {
		cJSON_AddNumberToObject(f->evidence, "affinity_cpu", t.effective_cpu);
		nd_finding_set(f, ND_SEV_WARNING, "all %u queue interrupts are pinned to CPU%d",
			       t.queue_irqs, t.effective_cpu);
		add_fix(facts, chain, f);
		return;
	}
	nd_finding_set(f, ND_SEV_OK, "queue interrupt affinities differ (few counts yet)");
}
