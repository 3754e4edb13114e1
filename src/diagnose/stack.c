/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stack.c - a stacked device (bridge, VLAN, macvlan, macvtap, ipvlan,
 * vxlan, geneve, a bond under a VLAN ...) followed down to the devices
 * with a driver, as members.c follows a bond's members: each lower is
 * probed through the same source, appended to d->members (stacked, with
 * the device it is under), read in the upper's counter window and judged
 * by every check.  A loop guard (each name once) and a depth cap
 * (ND_STACK_MAX_DEPTH) bound the walk.
 *
 * From the lowers' facts the upper gets its wire: the physical lower a
 * frame leaves by (the fastest leaf with a speed), its MTU, and the bytes
 * each device on the way adds (facts->stack.via*, encap_bytes); the
 * upper's own speed (a bridge's fastest port, a bond's sum) is no wire.
 * With traffic, the lowers' suspects are judged on the upper's runs, and
 * a limit confirmed on a lower is the upper's bottleneck "via" it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicdoctor/common.h"
#include "nicdoctor/diagnose.h"
#include "nicdoctor/probe.h"
#include "pipeline_int.h"

static bool known_name(const struct nd_diagnosis *d, const char *name)
{
	if (!strcmp(d->facts->ifname, name))
		return true;
	for (unsigned i = 0; i < d->n_members; i++)
		if (!strcmp(d->members[i].name, name))
			return true;
	return false;
}

static void add_lowers(struct nd_diagnosis *d, const struct nd_facts *upper, unsigned depth)
{
	const struct nd_stack *s = &upper->stack;

	if (!s->st.known || depth > ND_STACK_MAX_DEPTH)
		return;
	for (unsigned i = 0; i < s->n_lowers && d->n_members < ND_DIAG_MAX_MEMBERS; i++) {
		struct nd_diag_member *m;

		if (known_name(d, s->lowers[i]))
			continue;	/* a loop, or a bond's member already read */
		m = &d->members[d->n_members++];
		memset(m, 0, sizeof(*m));
		nd_strlcpy(m->name, s->lowers[i], sizeof(m->name));
		nd_strlcpy(m->upper, upper->ifname, sizeof(m->upper));
		m->stacked = true;
		m->depth = depth;
	}
}

void nd_diag_stack_probe(struct nd_source *src, struct nd_diagnosis *d)
{
	struct nd_diag_member *grown;
	unsigned first = d->n_members;

	if (!d->facts->stack.st.known || !d->facts->stack.n_lowers)
		return;
	grown = realloc(d->members, ND_DIAG_MAX_MEMBERS * sizeof(*grown));
	if (!grown)
		return;
	d->members = grown;
	add_lowers(d, d->facts, 1);
	/* Breadth first: the members array is the queue. */
	for (unsigned i = first; i < d->n_members; i++) {
		struct nd_diag_member *m = &d->members[i];

		m->error = nd_ifname_valid(m->name) < 0 ? -EINVAL
							 : nd_probe(src, m->name, &m->d.facts);
		if (m->error == 0)
			add_lowers(d, m->d.facts, m->depth + 1);
	}
	nd_diag_stack_derive(d);
}

/* The kinds whose own speed is no wire: a bond's or team's is its
 * members' sum, and the bond checks judge it as it is. */
static bool wireless_kind(const char *kind)
{
	return nd_stack_kind_virtual(kind) && strcmp(kind, "bond") && strcmp(kind, "team") &&
	       strcmp(kind, "veth") && strcmp(kind, "tun");
}

struct leaf {
	int64_t speed;
	unsigned mtu, encap, mtu_encap;
	char via[ND_IFNAMSIZ], path[128];
	bool found;
};

/* The bytes a device adds that its lower's MTU must hold: a tunnel's
 * headers; not a VLAN tag, which the lower's MTU does not count. */
static unsigned mtu_overhead(const struct nd_stack *s)
{
	return strcmp(s->kind, "vlan") ? nd_stack_encap_bytes(s->kind, s->underlay_ipv6) : 0;
}

/* Walk from upper (its facts, encap so far) down to a leaf: the fastest. */
static void walk(const struct nd_diagnosis *d, const struct nd_facts *upper, unsigned encap,
		 unsigned mtu_encap, const char *path, unsigned depth, struct leaf *best)
{
	for (unsigned i = 0; i < d->n_members && depth <= ND_STACK_MAX_DEPTH; i++) {
		const struct nd_diag_member *m = &d->members[i];
		const struct nd_facts *f = m->d.facts;
		char here[128];
		unsigned e = encap, me = mtu_encap;
		int64_t speed;

		if (!m->stacked || !f || strcmp(m->upper, upper->ifname))
			continue;
		snprintf(here, sizeof(here), "%s -> %s", path, m->name);
		if (f->stack.st.known && f->stack.n_lowers) {
			e += nd_stack_encap_bytes(f->stack.kind, f->stack.underlay_ipv6);
			me += mtu_overhead(&f->stack);
			walk(d, f, e, me, here, depth + 1, best);
			continue;
		}
		speed = f->linkmodes.st.known ? f->linkmodes.speed_mbps : -1;
		if (best->found && (speed <= 0 || speed <= best->speed))
			continue;
		best->found = true;
		best->speed = speed;
		best->mtu = f->link.st.known ? f->link.mtu : 0;
		best->encap = e;
		best->mtu_encap = me;
		nd_strlcpy(best->via, m->name, sizeof(best->via));
		nd_strlcpy(best->path, here, sizeof(best->path));
	}
}

static void derive_one(const struct nd_diagnosis *d, struct nd_facts *f)
{
	struct nd_stack *s = &f->stack;
	struct leaf best = { .speed = -1 };

	s->wire_known = false;
	if (!s->st.known || !s->n_lowers || !wireless_kind(s->kind))
		return;
	walk(d, f, nd_stack_encap_bytes(s->kind, s->underlay_ipv6), mtu_overhead(s), f->ifname,
	     1, &best);
	if (!best.found)
		return;
	s->wire_known = true;
	nd_strlcpy(s->via, best.via, sizeof(s->via));
	nd_strlcpy(s->via_path, best.path, sizeof(s->via_path));
	s->via_speed_mbps = best.speed;
	s->via_mtu = best.mtu;
	s->encap_bytes = best.encap;
	s->mtu_overhead = best.mtu_encap;
}

void nd_diag_stack_derive(struct nd_diagnosis *d)
{
	derive_one(d, d->facts);
	for (unsigned i = 0; i < d->n_members; i++)
		if (d->members[i].stacked && d->members[i].d.facts)
			derive_one(d, d->members[i].d.facts);
}

/* "eno1 (ixgbe, 0000:03:00.0)": a lower as the chain names it. */
static void lower_label(const struct nd_facts *f, char *buf, size_t size)
{
	const char *driver = f && f->drvinfo.st.known ? f->drvinfo.driver : "";
	const char *pci = f && f->pci.st.known ? f->pci.dev.address : "";

	if (driver[0] && pci[0])
		snprintf(buf, size, "%s, %s", driver, pci);
	else if (driver[0])
		snprintf(buf, size, "%s", driver);
	else
		buf[0] = '\0';
}

void nd_diag_stack_report(struct nd_diagnosis *d)
{
	struct nd_report *report = &d->report;
	const struct nd_stack *s = &d->facts->stack;
	cJSON *o, *arr;

	cJSON_Delete(report->stack);
	report->stack = NULL;
	if (!d->n_members || !d->members[d->n_members - 1].stacked)
		return;
	o = cJSON_CreateObject();
	if (!o)
		return;
	cJSON_AddStringToObject(o, "kind", s->kind[0] ? s->kind : "unknown");
	if (s->vlan_id >= 0)
		cJSON_AddNumberToObject(o, "vlan_id", s->vlan_id);
	if (s->wire_known) {
		cJSON_AddStringToObject(o, "via", s->via);
		cJSON_AddStringToObject(o, "path", s->via_path);
		cJSON_AddNumberToObject(o, "encap_bytes", s->encap_bytes);
	} else {
		cJSON_AddNullToObject(o, "via");
	}
	arr = cJSON_AddArrayToObject(o, "lowers");
	for (unsigned i = 0; arr && i < d->n_members; i++) {
		const struct nd_diag_member *m = &d->members[i];
		const struct nd_facts *f = m->d.facts;
		char label[96];
		int worst;
		cJSON *e;

		if (!m->stacked || !(e = nd_diag_member_json(m, &worst)))
			continue;
		cJSON_AddStringToObject(e, "upper", m->upper);
		cJSON_AddNumberToObject(e, "depth", m->depth);
		cJSON_AddStringToObject(e, "kind", f && f->stack.kind[0] ? f->stack.kind : "device");
		lower_label(f, label, sizeof(label));
		cJSON_AddStringToObject(e, "driver", f && f->drvinfo.st.known ? f->drvinfo.driver : "");
		if (f && f->pci.st.known && f->pci.dev.address[0])
			cJSON_AddStringToObject(e, "pci", f->pci.dev.address);
		else
			cJSON_AddNullToObject(e, "pci");
		cJSON_AddStringToObject(e, "label", label);
		cJSON_AddItemToArray(arr, e);
		/* As a bond's members: a lower's trouble makes the upper's report
		 * a warning at most (a bridge's other port without carrier, a
		 * stopped guest's tap, is no outage of the bridge). */
		if (worst >= ND_SEV_WARNING)
			report->members_worst = ND_SEV_WARNING;
	}
	report->stack = o;
}

static bool is_ceiling(const struct nd_finding *f)
{
	const char *kind = cJSON_GetStringValue(cJSON_GetObjectItem(f->experiment, "kind"));

	return kind && !strcmp(kind, "ceiling");
}

/* The lowers' suspects judged on the upper's runs.  A lower's binding
 * limit is the headline's when the upper has none of its own, or when it
 * is a ceiling the measurement sits at and the upper's is not (a CPU
 * saturated behind a shaper is the shaper's doing), as the verdicts rank
 * one host's causes. */
void nd_diag_stack_verdicts(struct nd_diagnosis *d)
{
	int from = -1, binding = -1;
	bool upper_ceiling = d->sum.binding >= 0 &&
			     (unsigned)d->sum.binding < d->report.n_findings &&
			     is_ceiling(&d->report.findings[d->sum.binding]);

	for (unsigned i = 0; i < d->n_members; i++) {
		struct nd_diag_member *m = &d->members[i];
		int b;

		if (!m->stacked || m->error < 0 || !m->d.facts)
			continue;
		nd_verdicts_decide(m->d.report.findings, m->d.report.n_findings, &d->set, &m->d.sum);
		b = m->d.sum.binding;
		if (b < 0 || (unsigned)b >= m->d.report.n_findings)
			continue;
		/* the first lower ceiling, else the first lower limit */
		if (from < 0 || (is_ceiling(&m->d.report.findings[b]) &&
				 !is_ceiling(&d->members[from].d.report.findings[binding]))) {
			from = (int)i;
			binding = b;
		}
	}
	nd_diag_stack_report(d);
	if (from < 0 || upper_ceiling || !d->report.throughput)
		return;
	if (d->sum.binding >= 0 && !is_ceiling(&d->members[from].d.report.findings[binding]))
		return;		/* the upper's own limit, no lower ceiling under it */
	{
		const struct nd_diag_member *m = &d->members[from];
		cJSON *b = nd_exp_bottleneck_json(&m->d.report.findings[binding], "here");

		if (!b)
			return;
		const struct nd_finding *f = &m->d.report.findings[binding];
		cJSON *lf = cJSON_CreateObject(), *fix = cJSON_CreateObject();
		cJSON *cmds = cJSON_CreateArray(), *arr = cJSON_CreateArray();

		cJSON_AddStringToObject(b, "via", m->name);
		/* Its fix, as the headline prints it (it is typed for the lower). */
		for (unsigned c = 0; cmds && c < f->fix.n_commands; c++)
			cJSON_AddItemToArray(cmds, cJSON_CreateString(f->fix.commands[c]));
		cJSON_AddStringToObject(lf, "id", f->id);
		cJSON_AddItemToObject(fix, "commands", cmds);
		cJSON_AddItemToObject(lf, "fix", fix);
		cJSON_AddItemToArray(arr, lf);
		cJSON_AddItemToObject(b, "lower_findings", arr);
		cJSON_ReplaceItemInObjectCaseSensitive(d->report.throughput, "bottleneck", b);
	}
}
