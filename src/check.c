/*
 * check.c - helpers for check bodies and registry look-up.
 */
#include <math.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "nicdoctor/ceiling.h"
#include "nicdoctor/check.h"
#include "nicdoctor/common.h"

const struct nd_check *nd_check_find(const char *id)
{
	for (unsigned i = 0; i < nd_checks_count; i++)
		if (!strcmp(nd_checks[i].id, id))
			return &nd_checks[i];
	return NULL;
}

#define GROUP(g) offsetof(struct nd_facts, g.st)

/* The fact groups each family of checks reads, so that the evidence can
 * name where they came from without the checks knowing (DESIGN.md,
 * "Sources").  First matching prefix wins; 0 ends a list. */
static const struct {
	const char *prefix;
	size_t groups[3];
} check_groups[] = {
	{ "link.down", { GROUP(link) } },
	{ "link.", { GROUP(linkmodes) } },
	{ "pcie.", { GROUP(pci), GROUP(linkmodes) } },
	{ "mtu.", { GROUP(link), GROUP(linkmodes) } },
	{ "queues.", { GROUP(channels), GROUP(link) } },
	{ "rss.", { GROUP(rss), GROUP(channels) } },
	{ "rps.", { GROUP(queues), GROUP(channels) } },
	{ "irq", { GROUP(irqs) } },
	{ "offload.", { GROUP(features) } },
	{ "coalesce.", { GROUP(coalesce) } },
	{ "sysctl.backlog", { GROUP(softnet) } },
	{ "softnet.", { GROUP(softnet) } },
	{ "nic.", { GROUP(link), GROUP(nicstats) } },
	{ "ring.", { GROUP(rings), GROUP(nicstats) } },
	{ "pause.", { GROUP(pause) } },
	{ "qdisc.", { GROUP(qdisc) } },
	{ "cpu.", { GROUP(cpus) } },
};

#define SYSCTL(m) offsetof(struct nd_facts, sysctl.m)

/* The sysctls each check reads (sysctls have a source each, no group status). */
static const struct {
	const char *prefix;
	size_t sysctls[2];
} check_sysctls[] = {
	{ "sysctl.backlog", { SYSCTL(netdev_max_backlog) } },
	{ "sysctl.rmem", { SYSCTL(rmem_max), SYSCTL(tcp_rmem) } },
	{ "sysctl.wmem", { SYSCTL(wmem_max), SYSCTL(tcp_wmem) } },
	{ "softnet.dropped", { SYSCTL(netdev_max_backlog) } },
	{ "softnet.squeezed", { SYSCTL(netdev_budget) } },
};

static size_t add_source(char *text, size_t size, size_t used, const char *source)
{
	if (!source[0] || strstr(text, source) || used >= size)
		return used;
	return used + (size_t)snprintf(text + used, size - used, "%s%s", used ? ", " : "", source);
}

/* evidence.source: the distinct sources of the sysctls and groups the check read. */
static void add_sources(const struct nd_facts *facts, struct nd_finding *f)
{
	char text[320] = "";
	size_t used = 0;

	for (size_t i = 0; i < ND_ARRAY_SIZE(check_sysctls); i++) {
		if (strncmp(f->id, check_sysctls[i].prefix, strlen(check_sysctls[i].prefix)))
			continue;
		for (size_t s = 0; s < ND_ARRAY_SIZE(check_sysctls[i].sysctls); s++)
			if (check_sysctls[i].sysctls[s])
				used = add_source(text, sizeof(text), used,
						  ((const struct nd_sysctl *)((const char *)facts +
						   check_sysctls[i].sysctls[s]))->source);
		break;
	}
	for (size_t i = 0; i < ND_ARRAY_SIZE(check_groups); i++) {
		if (strncmp(f->id, check_groups[i].prefix, strlen(check_groups[i].prefix)))
			continue;
		for (size_t g = 0; g < ND_ARRAY_SIZE(check_groups[i].groups); g++) {
			if (!check_groups[i].groups[g])
				break;
			used = add_source(text, sizeof(text), used,
					  ((const struct nd_status *)((const char *)facts +
					   check_groups[i].groups[g]))->source);
		}
		break;
	}
	if (text[0] && f->evidence && !cJSON_GetObjectItem(f->evidence, "source"))
		cJSON_AddStringToObject(f->evidence, "source", text);
}

void nd_check_run(const struct nd_check *check, const struct nd_facts *facts,
		  struct nd_finding *f)
{
	memset(f, 0, sizeof(*f));
	f->id = check->id;
	f->ceiling_mbps = -1;
	f->evidence = cJSON_CreateObject();
	f->verdict = ND_VERDICT_UNTESTED;
	check->run(facts, f);
	add_sources(facts, f);
}

void nd_finding_free(struct nd_finding *f)
{
	cJSON_Delete(f->evidence);
	cJSON_Delete(f->experiment);
	f->evidence = NULL;
	f->experiment = NULL;
}

void nd_finding_set(struct nd_finding *f, enum nd_severity sev, const char *fmt, ...)
{
	va_list ap;

	f->severity = sev;
	va_start(ap, fmt);
	vsnprintf(f->title, sizeof(f->title), fmt, ap);
	va_end(ap);
}

void nd_finding_unknown(struct nd_finding *f, const char *fact, const char *reason)
{
	nd_finding_set(f, ND_SEV_UNKNOWN, "cannot tell: %s unknown", fact);
	cJSON_AddStringToObject(f->evidence, "missing", fact);
	cJSON_AddStringToObject(f->evidence, "reason", reason && *reason ? reason : "not read");
}

void nd_finding_fix(struct nd_finding *f, const char *fix_id, const char *fmt, ...)
{
	va_list ap;

	if (!f->fix.id[0])
		nd_strlcpy(f->fix.id, fix_id, sizeof(f->fix.id));
	if (f->fix.n_commands >= ND_FIX_MAX_COMMANDS)
		return;
	va_start(ap, fmt);
	vsnprintf(f->fix.commands[f->fix.n_commands], sizeof(f->fix.commands[0]), fmt, ap);
	va_end(ap);
	f->fix.n_commands++;
}

void nd_finding_ceiling(struct nd_finding *f, const char *source, double mbps)
{
	f->ceiling_mbps = round(mbps);
	nd_strlcpy(f->ceiling_source, source, sizeof(f->ceiling_source));
}

const char *nd_severity_name(enum nd_severity sev)
{
	static const char *const names[] = { "ok", "info", "unknown", "warning", "critical" };

	return (unsigned)sev < ND_ARRAY_SIZE(names) ? names[sev] : "unknown";
}

const char *nd_verdict_name(enum nd_verdict v)
{
	static const char *const names[] = { "untested", "confirmed", "refuted", "inconclusive" };

	return (unsigned)v < ND_ARRAY_SIZE(names) ? names[v] : "untested";
}

double nd_facts_wire_ceiling_mbps(const struct nd_facts *facts)
{
	if (!facts->linkmodes.st.known || facts->linkmodes.speed_mbps <= 0 ||
	    !facts->link.st.known)
		return -1;
	return nd_ceiling_wire_mbps((double)facts->linkmodes.speed_mbps, facts->link.mtu,
				    ND_L4_TCP);
}
