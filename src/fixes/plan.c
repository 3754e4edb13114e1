/*
 * plan.c - from findings to a plan: each fix kind, in registry order, is
 * asked about each finding it answers.  A step that changes nothing, or a
 * knob an earlier finding already planned, is dropped here so the plan
 * holds exactly the writes --apply will make.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "nicdoctor/common.h"
#include "fixes.h"

void nd_fix_local_cpus(const struct nd_facts *facts, struct nd_cpuset *ret_set)
{
	int node = facts->pci.st.known ? facts->pci.numa_node : -1;

	if (node >= 0 && (unsigned)node < facts->cpus.n_nodes &&
	    (unsigned)node < ND_ARRAY_SIZE(facts->cpus.node_cpus) &&
	    !nd_cpuset_empty(&facts->cpus.node_cpus[node]))
		*ret_set = facts->cpus.node_cpus[node];
	else
		*ret_set = facts->cpus.online;
}

int nd_fix_plan_add(struct nd_fix_plan *plan, const struct nd_fix_step *step)
{
	if (!strcmp(step->current, step->target))
		return 0;
	for (unsigned i = 0; i < plan->n_steps; i++)
		if (plan->steps[i].kind == step->kind && !strcmp(plan->steps[i].key, step->key))
			return 0;
	if (plan->n_steps >= ND_FIX_MAX_STEPS)
		return -ENOSPC;
	plan->steps[plan->n_steps++] = *step;
	return 0;
}

void nd_fix_plan_note(struct nd_fix_plan *plan, const char *fmt, ...)
{
	char note[sizeof(plan->notes[0])];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(note, sizeof(note), fmt, ap);
	va_end(ap);
	for (unsigned i = 0; i < plan->n_notes; i++)
		if (!strcmp(plan->notes[i], note))
			return;
	if (plan->n_notes < ND_FIX_MAX_NOTES)
		memcpy(plan->notes[plan->n_notes++], note, sizeof(note));
}

void nd_fix_step_command(struct nd_fix_step *step, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(step->command, sizeof(step->command), fmt, ap);
	va_end(ap);
}

static bool kind_answers(const struct nd_fix_kind *kind, const char *check_id)
{
	for (const char *const *id = kind->check_ids; *id; id++)
		if (!strcmp(*id, check_id))
			return true;
	return false;
}

int nd_fix_plan_build(const struct nd_facts *facts, const struct nd_finding *findings,
		      unsigned n_findings, const struct nd_fix_options *opts,
		      struct nd_fix_plan *plan)
{
	struct nd_fix_ctx ctx = { .facts = facts, .opts = opts };
	int r;

	memset(plan, 0, sizeof(*plan));
	nd_strlcpy(plan->ifname, facts->ifname, sizeof(plan->ifname));
	plan->rtt_usec = opts->rtt_usec > 0 ? opts->rtt_usec : ND_FIX_DEFAULT_RTT_USEC;
	plan->rtt_measured = opts->rtt_usec > 0 && opts->rtt_measured;
	nd_fix_local_cpus(facts, &ctx.local_cpus);
	ctx.n_local_cpus = nd_cpuset_count(&ctx.local_cpus);
	for (unsigned k = 0; k < nd_fix_kinds_count; k++) {
		const struct nd_fix_kind *kind = nd_fix_kinds[k];

		for (unsigned i = 0; i < n_findings; i++) {
			if (!findings[i].id || !kind_answers(kind, findings[i].id) ||
			    !nd_fix_finding_wants(kind, &findings[i]))
				continue;
			r = kind->plan(&ctx, &findings[i], plan);
			if (r < 0)
				return r;
		}
	}
	return 0;
}

int nd_fix_parse_unsigned(const char *text, unsigned *ret_value)
{
	unsigned long long value = 0;

	if (!text || !*text)
		return -EINVAL;
	for (const char *p = text; *p; p++) {
		if (*p < '0' || *p > '9')
			return -EINVAL;
		value = value * 10 + (unsigned)(*p - '0');
		if (value > 0xffffffffULL)
			return -ERANGE;
	}
	*ret_value = (unsigned)value;
	return 0;
}
