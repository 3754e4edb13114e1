/*
 * bond_members.c - a bond's members diagnosed as NICs of their own: each
 * is probed (live or from the same sysroot) and run through every
 * registered check; the bond's report carries, per member, its worst
 * severity and its findings of warning or worse.  The bond checks judge
 * the bond; a member's PCIe slot or ring drops show up here.
 */
#include <errno.h>
#include <string.h>

#include "nicdoctor/bond.h"
#include "nicdoctor/common.h"
#include "nicdoctor/probe.h"
#include "nicdoctor/report.h"

static cJSON *member_json(const char *name, int *ret_worst)
{
	cJSON *o = cJSON_CreateObject(), *list;
	struct nd_facts *facts = NULL;
	struct nd_report report;
	const char *bad_id = NULL;
	int worst = ND_SEV_OK, r;

	*ret_worst = ND_SEV_OK;
	if (!o)
		return NULL;
	cJSON_AddStringToObject(o, "name", name);
	r = nd_ifname_valid(name) < 0 ? -EINVAL : nd_probe(name, &facts);
	if (r < 0) {
		cJSON_AddStringToObject(o, "worst", nd_severity_name(ND_SEV_UNKNOWN));
		cJSON_AddStringToObject(o, "error", r == -ENODEV   ? "no such interface"
						    : r == -EINVAL ? "invalid interface name"
								   : strerror(-r));
		cJSON_AddArrayToObject(o, "findings");
		*ret_worst = ND_SEV_UNKNOWN;
		return o;
	}
	r = nd_report_build(&report, facts, NULL, NULL, &bad_id);
	list = cJSON_CreateArray();
	for (unsigned i = 0; r == 0 && list && i < report.n_findings; i++) {
		const struct nd_finding *f = &report.findings[i];
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
		cJSON_AddItemToArray(list, item);
	}
	cJSON_AddStringToObject(o, "worst", nd_severity_name(worst));
	cJSON_AddItemToObject(o, "findings", list);
	if (r == 0)
		nd_report_free(&report);
	nd_facts_free(facts);
	*ret_worst = worst;
	return o;
}

cJSON *nd_bond_members_report(const struct nd_facts *facts, int *ret_worst)
{
	const struct nd_bond *b = &facts->bond;
	cJSON *arr;

	*ret_worst = ND_SEV_OK;
	if (!b->st.known || !b->is_bond)
		return NULL;
	arr = cJSON_CreateArray();
	for (unsigned i = 0; arr && i < b->n_members; i++) {
		int worst;
		cJSON *m = member_json(b->members[i].name, &worst);

		if (m)
			cJSON_AddItemToArray(arr, m);
		/* A member's own trouble makes the bond's report a warning at
		 * most: the bond checks judge whether the bond still carries
		 * traffic (a member without link is bond.member_down's call).
		 * An unreadable member is said in its entry. */
		if (worst >= ND_SEV_WARNING)
			*ret_worst = ND_SEV_WARNING;
	}
	return arr;
}
