/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run.c - the one place checks are run: the registry looked up by ID,
 * --skip and --only lists checked against it, every registered check run
 * on a facts value (again after a counter window was measured), and the
 * evidence's "source" named from the fact groups each family reads.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicdoctor/check.h"
#include "nicdoctor/common.h"

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
	{ "tool.iperf3", { offsetof(struct nd_facts, tools.iperf3) } },
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

/* The kernel's own PCIe verdict, in its words, beside every PCIe check's
 * evidence (the link may have come from it), and where it disagrees. */
static void add_kernel_pcie(const struct nd_facts *facts, struct nd_finding *f)
{
	const struct nd_pci *pci = &facts->pci;

	if (strncmp(f->id, "pcie.", 5) || !f->evidence || !pci->kernel_said[0])
		return;
	cJSON_AddStringToObject(f->evidence, "kernel_said", pci->kernel_said);
	cJSON_AddStringToObject(f->evidence, "kernel_said_in", pci->kernel_source);
	if (pci->kernel_disagrees[0])
		cJSON_AddStringToObject(f->evidence, "kernel_disagrees", pci->kernel_disagrees);
}

/* What a stacked upper does not have: a PHY (modes, duplex, errors), a
 * PCIe link, queues,
 * RSS and RPS of its own receive path, interrupts, coalescing, rings,
 * pause frames.  Its lowers are diagnosed for them (the report's stack). */
static bool hardware_check(const char *id)
{
	static const char *const ids[] = {
		"link.speed_below_max", "link.half_duplex", "link.phy_errors",
		"pcie.link_downgraded", "pcie.slot_too_slow", "pcie.aspm_latency",
		"queues.single", "queues.below_cpus",
		"rss.indirection_uneven", "rss.flows_on_one_queue", "rps.off_single_queue",
		"irq.concentrated", "irq.remote_numa", "irqbalance.fighting", "coalesce.off",
		"ring.small", "pause.mismatch",
	};

	for (size_t i = 0; i < ND_ARRAY_SIZE(ids); i++)
		if (!strcmp(id, ids[i]))
			return true;
	return false;
}

/* A stacked upper (bridge, VLAN, macvlan, tunnel) has no PHY, PCIe link,
 * queues or IRQs of its own: its lowers carry them.  One with a PCI
 * function of its own (a test's seam gives a macvlan one, to stand for a
 * port of a card) is judged as the NIC it is. */
static bool stacked_without_hardware(const struct nd_facts *facts)
{
	return nd_stack_is_upper(&facts->stack) &&
	       !(facts->pci.st.known && !facts->pci.no_device);
}

void nd_check_run(const struct nd_check *check, const struct nd_facts *facts,
		  struct nd_finding *f)
{
	memset(f, 0, sizeof(*f));
	f->id = check->id;
	f->ceiling_mbps = -1;
	f->evidence = cJSON_CreateObject();
	f->verdict = ND_VERDICT_UNTESTED;
	if (stacked_without_hardware(facts) && hardware_check(check->id))
		nd_finding_not_applicable(f, "a %s has none of its own: its lowers are judged",
					  facts->stack.kind);
	else
		check->run(facts, f);
	add_sources(facts, f);
	add_kernel_pcie(facts, f);
}

/* Call fn for each non-empty, whitespace-trimmed item of a comma list;
 * stops at the first non-zero return and returns it. */
static int list_each(const char *list, int (*fn)(const char *item, size_t len, void *ctx),
		     void *ctx)
{
	const char *p = list;

	while (p && *p) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		const char *item = p;
		int r;

		while (len > 0 && (*item == ' ' || *item == '\t')) {
			item++;
			len--;
		}
		while (len > 0 && (item[len - 1] == ' ' || item[len - 1] == '\t'))
			len--;
		if (len > 0) {
			r = fn(item, len, ctx);
			if (r)
				return r;
		}
		p = end ? end + 1 : NULL;
	}
	return 0;
}

static const struct nd_check *registry_find(const char *item, size_t len)
{
	for (unsigned i = 0; i < nd_checks_count; i++) {
		if (strlen(nd_checks[i].id) == len && strncmp(nd_checks[i].id, item, len) == 0)
			return &nd_checks[i];
	}
	return NULL;
}

struct bad_id {
	char *buf;
	size_t size;
};

const struct nd_check *nd_check_find(const char *id)
{
	return registry_find(id, strlen(id));
}

static int validate_item(const char *item, size_t len, void *ctx)
{
	struct bad_id *bad = ctx;

	if (registry_find(item, len))
		return 0;
	if (len >= bad->size)
		len = bad->size - 1;
	memcpy(bad->buf, item, len);
	bad->buf[len] = '\0';
	return -EINVAL;
}

static int match_item(const char *item, size_t len, void *ctx)
{
	const char *id = ctx;

	return strlen(id) == len && strncmp(id, item, len) == 0;
}

static bool list_has(const char *list, const char *id)
{
	return list_each(list, match_item, (void *)id) != 0;
}

static void finding_skipped(const struct nd_check *check, struct nd_finding *f)
{
	memset(f, 0, sizeof(*f));
	f->id = check->id;
	f->severity = ND_SEV_OK;
	f->skipped = true;
	f->ceiling_mbps = -1;
	f->verdict = ND_VERDICT_UNTESTED;
	nd_strlcpy(f->title, check->help ? check->help : "", sizeof(f->title));
}

int nd_checks_run(const struct nd_facts *facts, const char *skip, const char *only,
		  struct nd_finding **ret_findings, char *bad_id, size_t bad_id_size)
{
	/* An --only list that names nothing (",") selects nothing: skip all. */
	bool only_given = only != NULL && only[0] != '\0';
	struct bad_id bad = { bad_id, bad_id_size };
	struct nd_finding *findings;
	int r;

	r = list_each(skip, validate_item, &bad);
	if (r == 0)
		r = list_each(only, validate_item, &bad);
	if (r < 0)
		return r;
	findings = calloc(nd_checks_count ? nd_checks_count : 1, sizeof(*findings));
	if (!findings)
		return -ENOMEM;
	for (unsigned i = 0; i < nd_checks_count; i++) {
		const struct nd_check *check = &nd_checks[i];
		struct nd_finding *f = &findings[i];

		if (list_has(skip, check->id) || (only_given && !list_has(only, check->id))) {
			finding_skipped(check, f);
		} else {
			nd_check_run(check, facts, f);
			if (!f->id)
				f->id = check->id;
		}
	}
	*ret_findings = findings;
	return 0;
}

void nd_checks_rerun(const struct nd_facts *facts, struct nd_finding *findings, unsigned n)
{
	/* Only the registered checks (experiments' findings follow them) that
	 * ran; skipped ones stay skipped. */
	for (unsigned i = 0; i < n && i < nd_checks_count; i++) {
		struct nd_finding *f = &findings[i];

		if (f->skipped)
			continue;
		nd_finding_free(f);
		nd_check_run(&nd_checks[i], facts, f);
		if (!f->id)
			f->id = nd_checks[i].id;
	}
}
