/*
 * irqbalance_fighting.c - irqbalance runs and will move the NIC's queue
 * interrupts: it rewrites /proc/irq/N/smp_affinity every rebalance
 * interval (10 s), so affinity pinned by hand, or by a driver's
 * set_irq_affinity script, silently comes undone, and current irqbalance
 * no longer follows the driver's affinity_hint (its --hintpolicy option
 * is gone).  Info only: irqbalance is a sound default; it matters when
 * someone pins queues, which then needs irqbalance told to keep off.
 */
#include <stdio.h>
#include <string.h>

#include "checks.h"
#include "nic_common.h"
#include "nicdoctor/queues.h"

/* Room for the --banirq list inside one fix line (commands are 160
 * bytes); the full list is in the evidence. */
#define BANIRQ_TEXT_MAX 100

struct hint_tally {
	unsigned queue_irqs, with_hint, off_hint;
	struct nd_cpuset hinted_cpus;	/* union of the queue IRQs' hints */
	char banirq[1024];		/* "--banirq=41 --banirq=42 ..." */
};

static bool cpuset_equal(const struct nd_cpuset *a, const struct nd_cpuset *b)
{
	return !memcmp(a->bits, b->bits, sizeof(a->bits));
}

static void tally(const struct nd_facts *facts, struct hint_tally *t)
{
	const struct nd_irqs *irqs = &facts->irqs;
	size_t used = 0;

	memset(t, 0, sizeof(*t));
	for (unsigned i = 0; i < irqs->count && i < ND_MAX_IRQS; i++) {
		const struct nd_irq *irq = &irqs->irq[i];

		if (!nd_facts_irq_serves_queue(facts, irq))
			continue;
		t->queue_irqs++;
		if (used < sizeof(t->banirq))
			used += (size_t)snprintf(t->banirq + used, sizeof(t->banirq) - used,
						 "%s--banirq=%u", used ? " " : "", irq->irq);
		if (!irq->hint_known || nd_cpuset_empty(&irq->hint))
			continue;
		t->with_hint++;
		for (unsigned cpu = 0; cpu < ND_CPUSET_BITS; cpu++)
			if (nd_cpuset_has(&irq->hint, cpu))
				nd_cpuset_add(&t->hinted_cpus, cpu);
		if (irq->affinity_known && !cpuset_equal(&irq->affinity, &irq->hint))
			t->off_hint++;
	}
}

/* The --banirq list cut to fit one fix line, at a word boundary. */
static void short_banirq(const char *banirq, char *buf, size_t size)
{
	size_t full = strlen(banirq), len = full;

	if (len > BANIRQ_TEXT_MAX) {
		len = BANIRQ_TEXT_MAX;
		while (len && banirq[len] != ' ')
			len--;
	}
	snprintf(buf, size, "%.*s%s", (int)len, banirq, len < full ? " ..." : "");
}

static void add_fix(const struct hint_tally *t, struct nd_finding *f)
{
	char args[BANIRQ_TEXT_MAX + 8], cpus[256];

	short_banirq(t->banirq, args, sizeof(args));
	nd_finding_fix(f, "irqbalance", "# before pinning by hand, in /etc/default/irqbalance "
		       "(Debian) or /etc/sysconfig/irqbalance (RHEL):");
	nd_finding_fix(f, "irqbalance", "# IRQBALANCE_ARGS=\"%s\"", args);
	if (!nd_cpuset_empty(&t->hinted_cpus))
		nd_finding_fix(f, "irqbalance", "# or keep irqbalance off the NIC's CPUs: "
			       "IRQBALANCE_BANNED_CPULIST=%s",
			       nd_cpuset_format_list(&t->hinted_cpus, cpus, sizeof(cpus)));
	nd_finding_fix(f, "irqbalance", "systemctl restart irqbalance");
}

void nd_check_irqbalance_fighting(const struct nd_facts *facts, struct nd_finding *f)
{
	const struct nd_irqs *irqs = &facts->irqs;
	struct hint_tally t;

	if (!irqs->st.known)
		return nd_finding_unknown(f, "interface interrupts", irqs->st.reason);
	if (!irqs->irqbalance_known)
		return nd_finding_unknown(f, "irqbalance state", "the process list was not read");
	cJSON_AddBoolToObject(f->evidence, "irqbalance_running", irqs->irqbalance_running);
	if (!irqs->irqbalance_running) {
		nd_finding_set(f, ND_SEV_OK, "irqbalance not running: IRQ affinity stays as set");
		return;
	}
	tally(facts, &t);
	cJSON_AddNumberToObject(f->evidence, "queue_irqs", t.queue_irqs);
	cJSON_AddNumberToObject(f->evidence, "irqs_with_affinity_hint", t.with_hint);
	cJSON_AddNumberToObject(f->evidence, "irqs_off_their_hint", t.off_hint);
	cJSON_AddStringToObject(f->evidence, "banirq_args", t.banirq);
	if (!t.queue_irqs || (facts->cpus.st.known && facts->cpus.n_online <= 1)) {
		nd_finding_set(f, ND_SEV_OK, "irqbalance runs, but there is nothing to move");
		return;
	}
	if (t.off_hint)
		nd_finding_set(f, ND_SEV_INFO, "irqbalance runs and %u of %u queue IRQs are off "
			       "the driver's affinity hint: hand pinning is undone unless banned",
			       t.off_hint, t.with_hint);
	else
		nd_finding_set(f, ND_SEV_INFO, "irqbalance runs: it rewrites the affinity of the "
			       "%u queue IRQs unless they are banned", t.queue_irqs);
	add_fix(&t, f);
}
