/*
 * irq_affinity.c - fix kind "irq_affinity": the NIC's queue interrupts one
 * per CPU local to the NIC, round robin (as the drivers'
 * set_irq_affinity scripts do), through /proc/irq/N/smp_affinity_list.
 * irqbalance rewrites affinities it manages, so the plan says so and how
 * to ban these IRQs.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "fixes.h"
/* The queue-IRQ rule the irq checks count by, so fix and finding agree. */

/* "irq/45" -> 45; -EINVAL otherwise. */
static int key_irq(const char *key, unsigned *ret_irq)
{
	if (strncmp(key, "irq/", 4))
		return -EINVAL;
	return nd_fix_parse_unsigned(key + 4, ret_irq);
}

/* The n-th CPU of the set, wrapping round. */
static unsigned nth_cpu(const struct nd_cpuset *set, unsigned count, unsigned n)
{
	unsigned seen = 0;

	for (unsigned cpu = 0; cpu < ND_CPUSET_BITS; cpu++)
		if (nd_cpuset_has(set, cpu) && seen++ == n % count)
			return cpu;
	return 0;
}

static void note_irqbalance(const struct nd_irqs *irqs, struct nd_fix_plan *plan,
			    const char *banned)
{
	if (!irqs->irqbalance_running)
		return;
	nd_fix_plan_note(plan, "irqbalance is running and will rewrite these affinities: "
			 "stop it (systemctl disable --now irqbalance) or ban the IRQs with "
			 "IRQBALANCE_ARGS=\"%s\" in /etc/default/irqbalance", banned);
}

static int irq_plan(const struct nd_fix_ctx *ctx, const struct nd_finding *finding,
		    struct nd_fix_plan *plan)
{
	const struct nd_irqs *irqs = &ctx->facts->irqs;
	char banned[sizeof(plan->notes[0]) - 200] = "";
	unsigned next = 0;
	int r = 0;

	if (!irqs->st.known || !ctx->n_local_cpus) {
		nd_fix_plan_note(plan, "irq_affinity: cannot plan, %s",
				 irqs->st.known ? "no local CPUs" : irqs->st.reason);
		return 0;
	}
	for (unsigned i = 0; i < irqs->count && i < ND_MAX_IRQS && r == 0; i++) {
		const struct nd_irq *irq = &irqs->irq[i];
		struct nd_fix_step step = { .kind = &nd_fix_kind_irq_affinity };
		unsigned cpu;
		size_t used = strlen(banned);

		if (!nd_irq_is_queue(irq) || !irq->affinity_known)
			continue;
		cpu = nth_cpu(&ctx->local_cpus, ctx->n_local_cpus, next++);
		snprintf(step.key, sizeof(step.key), "irq/%u", irq->irq);
		snprintf(step.what, sizeof(step.what), "irq %u (%s) affinity", irq->irq, irq->name);
		nd_cpuset_format_list(&irq->affinity, step.current, sizeof(step.current));
		snprintf(step.target, sizeof(step.target), "%u", cpu);
		snprintf(step.finding_id, sizeof(step.finding_id), "%s", finding->id);
		nd_fix_step_command(&step, "echo %u > /proc/irq/%u/smp_affinity_list", cpu,
				    irq->irq);
		snprintf(banned + used, sizeof(banned) - used, "%s--banirq=%u", used ? " " : "",
			 irq->irq);
		r = nd_fix_plan_add(plan, &step);
	}
	if (next)
		note_irqbalance(irqs, plan, banned);
	return r;
}

static int irq_get(const char *ifname, const char *key, char *ret_value, size_t size)
{
	char path[PATH_MAX], text[ND_FIX_VALUE_LEN];
	struct nd_cpuset set;
	unsigned irq;
	int r;

	(void)ifname;
	r = key_irq(key, &irq);
	if (r < 0)
		return r;
	snprintf(path, sizeof(path), "/proc/irq/%u/smp_affinity_list", irq);
	r = nd_fix_read_file(path, text, sizeof(text));
	if (r < 0)
		return r;
	r = nd_cpuset_parse_list(text, &set);
	if (r < 0)
		return r;
	nd_cpuset_format_list(&set, ret_value, size);
	return 0;
}

static int irq_set(const char *ifname, const char *key, const char *value)
{
	char path[PATH_MAX];
	unsigned irq;
	int r;

	(void)ifname;
	r = key_irq(key, &irq);
	if (r < 0)
		return r;
	snprintf(path, sizeof(path), "/proc/irq/%u/smp_affinity_list", irq);
	return nd_fix_write_file(path, value);
}

static int irq_persist(const char *udev_match, const struct nd_fix_step *step,
		       struct nd_fix_persist_text *out)
{
	unsigned irq;

	if (key_irq(step->key, &irq) < 0)
		return -EINVAL;
	/* IRQ numbers are this boot's: the rule says so where it is read. */
	return nd_fix_appendf(&out->text[ND_PERSIST_UDEV],
			      "# IRQ %u is this boot's number; re-run 'nicdoctor fix --apply "
			      "--persist' if it changes\n"
			      "ACTION==\"add\", SUBSYSTEM==\"net\", %s, "
			      "RUN+=\"/bin/sh -c 'echo %s > /proc/irq/%u/smp_affinity_list'\"\n",
			      irq, udev_match, step->target, irq);
}

/* /proc/irq/N/smp_affinity_list and a CPU list ("0-3,8"). */
static int irq_check(const char *key, const char *value)
{
	unsigned irq;

	if (key_irq(key, &irq) < 0 || !nd_fix_chars_only(value, "0123456789,-"))
		return -EINVAL;
	return 0;
}

static const char *const irq_checks[] = { "irq.concentrated", "irq.remote_numa", NULL };

const struct nd_fix_kind nd_fix_kind_irq_affinity = {
	.name = "irq_affinity",
	.check_ids = irq_checks,
	.plan = irq_plan,
	.get = irq_get,
	.set = irq_set,
	.persist = irq_persist,
	.check = irq_check,
};
