/*
 * json.c - the report as one JSON document ("nicdoctor.report/1", the
 * contract in DESIGN.md and nicdoctor(8)).  Every other format renders from
 * this document.  A fact that is unknown is null, never a made-up zero.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "nicdoctor/common.h"
#include "nicdoctor/queues.h"
#include "nicdoctor/report.h"
#include "render.h"

/* Mbit/s to 0.1: more digits would be noise, and cJSON prints them all. */
static double round_mbps(double mbps)
{
	return round(mbps * 10.0) / 10.0;
}

static void add_str_or_null(cJSON *obj, const char *key, bool known, const char *value)
{
	if (known && value && value[0])
		cJSON_AddStringToObject(obj, key, value);
	else
		cJSON_AddNullToObject(obj, key);
}

static void add_num_or_null(cJSON *obj, const char *key, bool known, double value)
{
	if (known)
		cJSON_AddNumberToObject(obj, key, value);
	else
		cJSON_AddNullToObject(obj, key);
}

static void add_bool_or_null(cJSON *obj, const char *key, bool known, bool value)
{
	if (known)
		cJSON_AddBoolToObject(obj, key, value);
	else
		cJSON_AddNullToObject(obj, key);
}

/* The queue chain (queue, NAPI, IRQ, CPUs, node) as "queues", or null. */
static void queues_json(cJSON *obj, const struct nd_facts *facts)
{
	struct nd_chain *chain = calloc(1, sizeof(*chain));

	if (chain)
		nd_queue_chain_build(facts, chain);
	if (chain && chain->count)
		cJSON_AddItemToObject(obj, "queues", nd_chain_to_json(chain, NULL));
	else
		cJSON_AddNullToObject(obj, "queues");
	free(chain);
}

static cJSON *interface_json(const struct nd_facts *facts)
{
	cJSON *obj = cJSON_CreateObject();
	const struct nd_link *link = &facts->link;
	const struct nd_linkmodes *lm = &facts->linkmodes;
	const struct nd_drvinfo *drv = &facts->drvinfo;
	const struct nd_pci *pci = &facts->pci;
	unsigned rx_queues = nd_facts_rx_queues(facts);
	const char *pci_address = pci->st.known ? pci->dev.address : NULL;

	if (!obj)
		return NULL;
	if (!pci_address && drv->st.known && strncmp(drv->bus_info, "0000:", 5) == 0)
		pci_address = drv->bus_info;
	add_str_or_null(obj, "name", true, facts->ifname);
	add_str_or_null(obj, "driver", drv->st.known, drv->driver);
	add_str_or_null(obj, "driver_version", drv->st.known, drv->version);
	add_str_or_null(obj, "firmware", drv->st.known, drv->fw_version);
	add_str_or_null(obj, "pci_address", pci_address != NULL, pci_address);
	add_str_or_null(obj, "mac", link->st.known, link->mac);
	add_num_or_null(obj, "speed_mbps", lm->st.known && lm->speed_mbps >= 0,
			(double)lm->speed_mbps);
	if (lm->st.known && lm->duplex >= 0)
		cJSON_AddStringToObject(obj, "duplex", lm->duplex ? "full" : "half");
	else
		cJSON_AddNullToObject(obj, "duplex");
	add_num_or_null(obj, "mtu", link->st.known, link->mtu);
	add_str_or_null(obj, "operstate", link->st.known, link->operstate);
	add_bool_or_null(obj, "carrier", link->st.known, link->carrier);
	add_str_or_null(obj, "qdisc", link->st.known, link->qdisc);
	add_num_or_null(obj, "rx_queues", rx_queues > 0, rx_queues);
	add_num_or_null(obj, "tx_queues", link->st.known && link->tx_queues > 0,
			link->tx_queues);
	add_num_or_null(obj, "numa_node", pci->st.known && pci->numa_node >= 0, pci->numa_node);
	queues_json(obj, facts);
	return obj;
}

/* host.virt: whether the host is a VM, whose, and what said so; null
 * when nothing could be read. */
static void virt_json(cJSON *host, const struct nd_virt *virt)
{
	cJSON *obj;

	if (!virt->st.known || !virt->kind[0]) {
		cJSON_AddNullToObject(host, "virt");
		return;
	}
	obj = cJSON_AddObjectToObject(host, "virt");
	if (!obj)
		return;
	cJSON_AddStringToObject(obj, "kind", virt->kind);
	cJSON_AddStringToObject(obj, "vendor", virt->vendor);
	cJSON_AddStringToObject(obj, "source", virt->st.source);
}

static cJSON *host_json(const struct nd_facts *facts)
{
	cJSON *obj = cJSON_CreateObject();

	if (!obj)
		return NULL;
	add_str_or_null(obj, "name", true, facts->hostname);
	add_str_or_null(obj, "kernel", true, facts->kernel);
	add_num_or_null(obj, "cpus_online", facts->cpus.st.known && facts->cpus.n_online > 0,
			facts->cpus.n_online);
	cJSON_AddBoolToObject(obj, "as_root", facts->as_root);
	cJSON_AddBoolToObject(obj, "sysroot", facts->sysroot);
	add_str_or_null(obj, "origin", facts->sysroot && facts->origin[0], facts->origin);
	virt_json(obj, &facts->virt);
	return obj;
}

/* What the probe could not read, group by group, with the reason: a
 * support engineer must see what was not looked at. */
static const struct {
	const char *name;
	size_t offset;
} fact_groups[] = {
	{ "link", offsetof(struct nd_facts, link.st) },
	{ "qdisc", offsetof(struct nd_facts, qdisc.st) },
	{ "linkmodes", offsetof(struct nd_facts, linkmodes.st) },
	{ "channels", offsetof(struct nd_facts, channels.st) },
	{ "features", offsetof(struct nd_facts, features.st) },
	{ "rings", offsetof(struct nd_facts, rings.st) },
	{ "coalesce", offsetof(struct nd_facts, coalesce.st) },
	{ "pause", offsetof(struct nd_facts, pause.st) },
	{ "rss", offsetof(struct nd_facts, rss.st) },
	{ "nicstats", offsetof(struct nd_facts, nicstats.st) },
	{ "drvinfo", offsetof(struct nd_facts, drvinfo.st) },
	{ "pci", offsetof(struct nd_facts, pci.st) },
	{ "queues", offsetof(struct nd_facts, queues.st) },
	{ "irqs", offsetof(struct nd_facts, irqs.st) },
	{ "softnet", offsetof(struct nd_facts, softnet.st) },
	{ "cpus", offsetof(struct nd_facts, cpus.st) },
};

static cJSON *unreadable_json(const struct nd_facts *facts)
{
	cJSON *obj = cJSON_CreateObject();

	for (size_t i = 0; obj && i < ND_ARRAY_SIZE(fact_groups); i++) {
		const struct nd_status *st =
			(const struct nd_status *)((const char *)facts + fact_groups[i].offset);

		if (!st->known)
			cJSON_AddStringToObject(obj, fact_groups[i].name,
						st->reason[0] ? st->reason : "not read");
	}
	return obj;
}

/* sources.sysctl: the distinct files the sysctls were read from, in order. */
static void sysctl_sources(const struct nd_sysctls *sysctls, cJSON *obj)
{
	const struct nd_sysctl *ctl = (const struct nd_sysctl *)sysctls;
	char text[512] = "";
	size_t used = 0;

	for (size_t i = 0; i < sizeof(*sysctls) / sizeof(*ctl); i++) {
		if (!ctl[i].known || !ctl[i].source[0] || strstr(text, ctl[i].source) ||
		    used >= sizeof(text))
			continue;
		used += (size_t)snprintf(text + used, sizeof(text) - used, "%s%s",
					 used ? ", " : "", ctl[i].source);
	}
	if (text[0])
		cJSON_AddStringToObject(obj, "sysctl", text);
}

/* Which file or interface each group was read from (the evidence of an
 * offline diagnosis: a support engineer can check the reading). */
static cJSON *sources_json(const struct nd_facts *facts)
{
	cJSON *obj = cJSON_CreateObject();

	for (size_t i = 0; obj && i < ND_ARRAY_SIZE(fact_groups); i++) {
		const struct nd_status *st =
			(const struct nd_status *)((const char *)facts + fact_groups[i].offset);

		if (st->source[0])
			cJSON_AddStringToObject(obj, fact_groups[i].name, st->source);
	}
	if (obj)
		sysctl_sources(&facts->sysctl, obj);
	return obj;
}

static cJSON *ceilings_json(const struct nd_report *report)
{
	cJSON *arr = cJSON_CreateArray();

	for (unsigned i = 0; arr && i < report->n_ceilings; i++) {
		const struct nd_ceiling *c = &report->ceilings[i];
		cJSON *obj = cJSON_CreateObject();

		if (!obj)
			break;
		cJSON_AddStringToObject(obj, "source", c->source);
		cJSON_AddNumberToObject(obj, "mbps", round_mbps(c->mbps));
		cJSON_AddStringToObject(obj, "detail", c->detail);
		cJSON_AddItemToArray(arr, obj);
	}
	return arr;
}

static cJSON *fix_json(const struct nd_fix_hint *fix)
{
	cJSON *obj, *cmds;

	if (!fix->id[0])
		return cJSON_CreateNull();
	obj = cJSON_CreateObject();
	if (!obj)
		return NULL;
	cJSON_AddStringToObject(obj, "id", fix->id);
	cmds = cJSON_AddArrayToObject(obj, "commands");
	for (unsigned i = 0; cmds && i < fix->n_commands && i < ND_FIX_MAX_COMMANDS; i++)
		cJSON_AddItemToArray(cmds, cJSON_CreateString(fix->commands[i]));
	return obj;
}

static cJSON *dup_or(const cJSON *item, cJSON *fallback)
{
	if (!item)
		return fallback;
	cJSON_Delete(fallback);
	return cJSON_Duplicate(item, true);
}

static cJSON *finding_json(const struct nd_finding *f)
{
	cJSON *obj = cJSON_CreateObject();

	if (!obj)
		return NULL;
	cJSON_AddStringToObject(obj, "id", f->id ? f->id : "");
	/* A skipped check was not judged: no severity rather than a false "ok". */
	if (f->skipped)
		cJSON_AddNullToObject(obj, "severity");
	else
		cJSON_AddStringToObject(obj, "severity", nd_severity_name(f->severity));
	/* Only where a verdict changed it: what the check had said. */
	if (!f->skipped && f->severity_by_verdict)
		cJSON_AddStringToObject(obj, "severity_before_verdict",
					nd_severity_name(f->severity_before_verdict));
	cJSON_AddStringToObject(obj, "title", f->title);
	cJSON_AddItemToObject(obj, "evidence", dup_or(f->evidence, cJSON_CreateObject()));
	add_num_or_null(obj, "ceiling_mbps", f->ceiling_mbps >= 0, round_mbps(f->ceiling_mbps));
	add_str_or_null(obj, "ceiling_source", f->ceiling_mbps >= 0, f->ceiling_source);
	cJSON_AddStringToObject(obj, "verdict", nd_verdict_name(f->verdict));
	cJSON_AddItemToObject(obj, "experiment", dup_or(f->experiment, cJSON_CreateNull()));
	if (f->explained_by[0])	/* an effect of this confirmed cause */
		cJSON_AddStringToObject(obj, "explained_by", f->explained_by);
	cJSON_AddItemToObject(obj, "fix", fix_json(&f->fix));
	cJSON_AddBoolToObject(obj, "skipped", f->skipped);
	/* ok because there is nothing here to judge ("not a bond"), not passed */
	cJSON_AddBoolToObject(obj, "not_applicable", !f->skipped && f->not_applicable);
	return obj;
}

static cJSON *summary_json(const struct nd_report *report)
{
	unsigned counts[ND_SEV_CRITICAL + 1] = { 0 }, skipped = 0, not_applicable = 0;
	enum nd_severity worst = ND_SEV_OK;
	cJSON *obj = cJSON_CreateObject(), *c;

	if (!obj)
		return NULL;
	for (unsigned i = 0; i < report->n_findings; i++) {
		const struct nd_finding *f = &report->findings[i];

		if (f->skipped) {
			skipped++;
			continue;
		}
		if (f->not_applicable) {
			not_applicable++;
			continue;
		}
		if (f->severity <= ND_SEV_CRITICAL)
			counts[f->severity]++;
		if (f->severity > worst)
			worst = f->severity;
	}
	c = cJSON_AddObjectToObject(obj, "counts");
	if (c) {
		for (int sev = ND_SEV_OK; sev <= ND_SEV_CRITICAL; sev++)
			cJSON_AddNumberToObject(c, nd_severity_name(sev), counts[sev]);
		cJSON_AddNumberToObject(c, "skipped", skipped);
		cJSON_AddNumberToObject(c, "not_applicable", not_applicable);
	}
	cJSON_AddStringToObject(obj, "worst", nd_severity_name(worst));
	return obj;
}

cJSON *nd_report_to_json(const struct nd_report *report)
{
	cJSON *doc = cJSON_CreateObject(), *tool, *findings;

	if (!doc)
		return NULL;
	cJSON_AddStringToObject(doc, "schema", ND_REPORT_SCHEMA);
	tool = cJSON_AddObjectToObject(doc, "tool");
	if (tool) {
		cJSON_AddStringToObject(tool, "name", "nicdoctor");
		cJSON_AddStringToObject(tool, "version", ND_VERSION);
	}
	cJSON_AddItemToObject(doc, "interface", interface_json(report->facts));
	cJSON_AddItemToObject(doc, "host", host_json(report->facts));
	cJSON_AddItemToObject(doc, "unreadable", unreadable_json(report->facts));
	cJSON_AddItemToObject(doc, "sources", sources_json(report->facts));
	cJSON_AddItemToObject(doc, "ceilings", ceilings_json(report));
	findings = cJSON_AddArrayToObject(doc, "findings");
	for (unsigned i = 0; findings && i < report->n_findings; i++)
		cJSON_AddItemToArray(findings, finding_json(&report->findings[i]));
	cJSON_AddItemToObject(doc, "throughput", dup_or(report->throughput, cJSON_CreateNull()));
	cJSON_AddItemToObject(doc, "peer", dup_or(report->peer, cJSON_CreateNull()));
	if (report->members)	/* bonds only: other reports keep their shape */
		cJSON_AddItemToObject(doc, "members", cJSON_Duplicate(report->members, true));
	if (report->stack)	/* stacked devices only */
		cJSON_AddItemToObject(doc, "stack", cJSON_Duplicate(report->stack, true));
	cJSON_AddItemToObject(doc, "summary", summary_json(report));
	/* One failed allocation anywhere leaves a hole; refuse a partial report. */
	if (!cJSON_GetObjectItem(doc, "summary") || !findings ||
	    cJSON_GetArraySize(findings) != (int)report->n_findings) {
		cJSON_Delete(doc);
		return NULL;
	}
	return doc;
}

cJSON *nd_report_document(const struct nd_report *report)
{
	cJSON *doc = nd_report_to_json(report);

	if (doc && report->redact)
		nd_redact_json(doc, report->facts);
	return doc;
}

int nd_report_print_json(cJSON *doc, FILE *out)
{
	char *text;
	int r = 0;

	if (!doc)
		return -ENOMEM;
	text = cJSON_Print(doc);
	cJSON_Delete(doc);
	if (!text)
		return -ENOMEM;
	if (fputs(text, out) == EOF || fputc('\n', out) == EOF)
		r = -EIO;
	free(text);
	return r;
}

int nd_render_json(const struct nd_report *report, FILE *out)
{
	return nd_report_print_json(nd_report_document(report), out);
}
