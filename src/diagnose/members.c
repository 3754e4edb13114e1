/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * members.c - a bond's or team's members diagnosed as NICs of their own,
 * through the same pipeline as the upper device and in its counter
 * window: each is probed (live or from the same record) and run through
 * every registered check; the upper's report carries, per member, its
 * worst severity and its findings of warning or worse.  The bond checks
 * judge the bond; a member's PCIe slot or ring drops show up here.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "nicdoctor/bond.h"
#include "nicdoctor/check.h"
#include "nicdoctor/common.h"
#include "pipeline_int.h"

static void bond_members_probe(struct nd_source *src, struct nd_diagnosis *d)
{
	const struct nd_bond *b = &d->facts->bond;

	if (!b->st.known || !b->is_bond || !b->n_members)
		return;
	d->members = calloc(b->n_members, sizeof(*d->members));
	if (!d->members)
		return;
	d->n_members = b->n_members;
	for (unsigned i = 0; i < b->n_members; i++) {
		struct nd_diag_member *m = &d->members[i];

		nd_strlcpy(m->name, b->members[i].name, sizeof(m->name));
		m->error = nd_ifname_valid(m->name) < 0 ? -EINVAL : nd_probe(src, m->name, &m->d.facts);
	}
}

void nd_diag_members_probe(struct nd_source *src, struct nd_diagnosis *d)
{
	bond_members_probe(src, d);
	nd_diag_stack_probe(src, d);
}

cJSON *nd_diag_member_json(const struct nd_diag_member *m, int *ret_worst)
{
	cJSON *o = cJSON_CreateObject(), *list;
	int worst = ND_SEV_OK;

	*ret_worst = ND_SEV_OK;
	if (!o)
		return NULL;
	cJSON_AddStringToObject(o, "name", m->name);
	if (m->error < 0) {
		cJSON_AddStringToObject(o, "worst", nd_severity_name(ND_SEV_UNKNOWN));
		cJSON_AddStringToObject(o, "error", m->error == -ENODEV   ? "no such interface"
						    : m->error == -EINVAL ? "invalid interface name"
									  : strerror(-m->error));
		cJSON_AddArrayToObject(o, "findings");
		*ret_worst = ND_SEV_UNKNOWN;
		return o;
	}
	list = cJSON_CreateArray();
	for (unsigned i = 0; list && i < m->d.report.n_findings; i++) {
		const struct nd_finding *f = &m->d.report.findings[i];
		cJSON *item;

		if (f->skipped)
			continue;
		if ((int)f->severity > worst)
			worst = f->severity;
		if (f->severity < ND_SEV_WARNING || !(item = cJSON_CreateObject()))
			continue;
		cJSON_AddStringToObject(item, "id", f->id);
		cJSON_AddStringToObject(item, "severity", nd_severity_name(f->severity));
		cJSON_AddStringToObject(item, "title", f->title);
		if (m->stacked && f->verdict != ND_VERDICT_UNTESTED)	/* judged on the upper's runs */
			cJSON_AddStringToObject(item, "verdict", nd_verdict_name(f->verdict));
		cJSON_AddItemToArray(list, item);
	}
	cJSON_AddStringToObject(o, "worst", nd_severity_name(worst));
	cJSON_AddItemToObject(o, "findings", list);
	*ret_worst = worst;
	return o;
}

/* The upper's report: one entry per member, worst severities folded. */
static void members_report(struct nd_diagnosis *d)
{
	struct nd_report *report = &d->report;
	cJSON *arr;

	cJSON_Delete(report->members);
	report->members = NULL;
	report->members_worst = ND_SEV_OK;
	nd_diag_stack_report(d);
	if (!d->members || d->members[0].stacked)
		return;		/* no bond members: a stack's lowers only */
	arr = cJSON_CreateArray();
	for (unsigned i = 0; arr && i < d->n_members; i++) {
		int worst;
		cJSON *m;

		if (d->members[i].stacked)
			continue;
		m = nd_diag_member_json(&d->members[i], &worst);

		if (m)
			cJSON_AddItemToArray(arr, m);
		/* A member's own trouble makes the bond's report a warning at
		 * most: the bond checks judge whether the bond still carries
		 * traffic (a member without link is bond.member_down's call).
		 * An unreadable member is said in its entry. */
		if (worst >= ND_SEV_WARNING)
			report->members_worst = ND_SEV_WARNING;
	}
	report->members = arr;
}

void nd_diag_members_judge(struct nd_diagnosis *d)
{
	for (unsigned i = 0; i < d->n_members; i++) {
		struct nd_diag_member *m = &d->members[i];

		if (m->error < 0)
			continue;
		m->error = nd_diagnose_judge(&m->d.report, m->d.facts, NULL, NULL, NULL);
		if (m->error < 0) {
			nd_facts_free(m->d.facts);
			m->d.facts = NULL;
		}
	}
	members_report(d);
}

void nd_diag_members_rejudge(struct nd_diagnosis *d)
{
	for (unsigned i = 0; i < d->n_members; i++)
		if (d->members[i].error == 0)
			nd_diagnose_rejudge(&d->members[i].d.report);
	members_report(d);
}

void nd_diag_members_free(struct nd_diagnosis *d)
{
	for (unsigned i = 0; i < d->n_members; i++)
		nd_diagnosis_free(&d->members[i].d);
	free(d->members);
	d->members = NULL;
	d->n_members = 0;
}
