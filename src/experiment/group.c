/*
 * group.c - the ports of one card alone and together (issue 15):
 * pcie.slot_too_slow judged by the together run.  Pure: the ports' facts,
 * findings and measured runs in, the slot, the verdict and its sentence
 * ("together 14.2 of 18.8 Gbit/s: the x4 5GT/s slot caps the pair at
 * 14.6") out.  Unit tested in tests/unit/test_group.c.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nicdoctor/ceiling.h"
#include "nicdoctor/common.h"
#include "nicdoctor/group.h"

/* The shares verdict.c holds every ceiling to: within 15% below a ceiling
 * the measurement sits at it, more than 10% above it refutes it. */
#define AT_CEILING_LOW_SHARE 0.85
#define ABOVE_CEILING_SHARE 1.10
/* Together "moves what each did alone": the same 15%. */
#define SAME_AS_ALONE_SHARE 0.85

/* "0000:01:00.1" -> "0000:01:00": the device, whatever the function. */
static bool device_of(const char *address, char *buf, size_t size)
{
	const char *dot = strrchr(address, '.');

	if (!address[0] || !dot || (size_t)(dot - address) >= size)
		return false;
	snprintf(buf, size, "%.*s", (int)(dot - address), address);
	return true;
}

static bool same_device(const struct nd_facts *const *facts, unsigned n,
			struct nd_group_slot *slot)
{
	char other[16];

	for (unsigned i = 0; i < n; i++) {
		const struct nd_pci *pci = &facts[i]->pci;

		if (!pci->st.known || !device_of(pci->dev.address, other, sizeof(other))) {
			snprintf(slot->why_not, sizeof(slot->why_not), "%s has no PCI function",
				 facts[i]->ifname);
			return false;
		}
		if (i == 0) {
			nd_strlcpy(slot->device, other, sizeof(slot->device));
		} else if (strcmp(other, slot->device) != 0) {
			snprintf(slot->why_not, sizeof(slot->why_not),
				 "%s is on %s, %s on %s: not one card", facts[0]->ifname,
				 facts[0]->pci.dev.address, facts[i]->ifname, pci->dev.address);
			return false;
		}
	}
	return true;
}

/* The card's link as it runs (LnkSta: a link trained down carries only
 * that), then any bridge above narrower by its LnkCap or, except the port
 * facing the card (whose LnkSta is the card's), by its LnkSta. */
static void shared_ceiling(const struct nd_pci *pci, struct nd_group_slot *slot)
{
	const struct nd_pcie_link *dev = &pci->dev;
	bool sta = dev->sta_gts > 0 && dev->sta_width > 0;
	double gts = sta ? dev->sta_gts : dev->cap_gts;
	unsigned width = sta ? dev->sta_width : dev->cap_width;

	slot->ceiling_mbps = nd_ceiling_pcie_mbps(gts, width, dev->mps_bytes);
	if (sta && (dev->sta_gts < dev->cap_gts || dev->sta_width < dev->cap_width))
		snprintf(slot->link, sizeof(slot->link), "x%u %gGT/s link (trained down from "
			 "x%u %gGT/s)", width, gts, dev->cap_width, dev->cap_gts);
	else
		snprintf(slot->link, sizeof(slot->link), "x%u %gGT/s slot", width, gts);
	for (unsigned i = 0; i < pci->n_upstream && i < ND_MAX_PCI_CHAIN; i++) {
		const struct nd_pcie_link *b = &pci->upstream[i];
		double cap, bsta;

		if (!b->is_pcie || !b->link_known)
			continue;
		cap = nd_ceiling_pcie_mbps(b->cap_gts, b->cap_width, dev->mps_bytes);
		bsta = i == 0 ? -1 : nd_ceiling_pcie_mbps(b->sta_gts, b->sta_width,
							   dev->mps_bytes);
		if (bsta > 0 && (cap <= 0 || bsta < cap))
			cap = bsta;
		if (cap > 0 && (slot->ceiling_mbps <= 0 || cap < slot->ceiling_mbps)) {
			slot->ceiling_mbps = cap;
			snprintf(slot->link, sizeof(slot->link), "x%u %gGT/s bridge %s",
				 cap == bsta ? b->sta_width : b->cap_width,
				 cap == bsta ? b->sta_gts : b->cap_gts, b->address);
		}
	}
}

void nd_group_slot_of(const struct nd_facts *const *facts, unsigned n, double scale,
		      struct nd_group_slot *ret)
{
	memset(ret, 0, sizeof(*ret));
	ret->ceiling_mbps = -1;
	ret->scale = scale > 0 ? scale : 1;
	if (n < 2) {
		nd_strlcpy(ret->why_not, "one port: nothing shared", sizeof(ret->why_not));
		return;
	}
	ret->shared = same_device(facts, n, ret);
	if (!ret->shared)
		return;
	if (!facts[0]->pci.dev.is_pcie || !facts[0]->pci.dev.link_known) {
		nd_strlcpy(ret->link, "PCIe link not read", sizeof(ret->link));
		return;
	}
	shared_ceiling(&facts[0]->pci, ret);
	if (ret->ceiling_mbps > 0)
		ret->ceiling_mbps *= ret->scale;
}

void nd_group_port_ceiling(const struct nd_finding *findings, unsigned n,
			   struct nd_group_port *port)
{
	port->link_ceiling_mbps = -1;
	port->link_ceiling_source[0] = '\0';
	for (unsigned i = 0; i < n; i++) {
		const struct nd_finding *f = &findings[i];

		if (f->skipped || !(f->ceiling_mbps > 0) ||
		    (strcmp(f->ceiling_source, "wire") && strcmp(f->ceiling_source, "shaping")))
			continue;
		if (port->link_ceiling_mbps < 0 || f->ceiling_mbps < port->link_ceiling_mbps) {
			port->link_ceiling_mbps = f->ceiling_mbps;
			nd_strlcpy(port->link_ceiling_source, f->ceiling_source,
				   sizeof(port->link_ceiling_source));
		}
	}
}

/* --- the sentence --- */

struct sums {
	double alone, links, together;	/* < 0: some port without one */
	double div;			/* 1000: Gbit/s, 1: Mbit/s */
	const char *unit;
};

static void add_or_unknown(double *sum, double v)
{
	if (*sum < 0 || v < 0)
		*sum = -1;
	else
		*sum += v;
}

static void sums_of(const struct nd_group *g, struct sums *s)
{
	double top;

	s->alone = s->links = s->together = 0;
	for (unsigned i = 0; i < g->n_ports; i++) {
		add_or_unknown(&s->alone, g->ports[i].alone_mbps);
		add_or_unknown(&s->links, g->ports[i].link_ceiling_mbps);
		add_or_unknown(&s->together, g->ports[i].together_mbps);
	}
	top = fmax(fmax(s->alone, s->links), fmax(s->together, g->slot.ceiling_mbps));
	s->div = top >= 1000 ? 1000 : 1;
	s->unit = top >= 1000 ? "Gbit/s" : "Mbit/s";
}

/* "each alone 9.8" when they round alike, else "alone 9.8 and 9.4". */
static void alone_text(const struct nd_group *g, const struct sums *s, char *buf, size_t size)
{
	bool alike = true;
	size_t used;

	for (unsigned i = 1; i < g->n_ports; i++)
		alike &= round(g->ports[i].alone_mbps / s->div * 10) ==
			 round(g->ports[0].alone_mbps / s->div * 10);
	if (alike) {
		snprintf(buf, size, "each alone %.1f", g->ports[0].alone_mbps / s->div);
		return;
	}
	used = (size_t)snprintf(buf, size, "alone");
	for (unsigned i = 0; i < g->n_ports && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%s%.1f",
					 i == 0 ? " " : i + 1 == g->n_ports ? " and " : ", ",
					 g->ports[i].alone_mbps / s->div);
}

static void scale_note(const struct nd_group *g, char *buf, size_t size)
{
	buf[0] = '\0';
	if (g->slot.scale != 1)
		snprintf(buf, size, " [test seam: PCIe ceiling x%g]", g->slot.scale);
}

static bool judge_untestable(struct nd_group *g, const struct sums *s)
{
	const char *why = NULL;

	if (!g->slot.shared)
		why = g->slot.why_not;
	else if (!g->together_done || s->together < 0)
		why = g->error[0] ? g->error : "the together run did not complete";
	else if (s->alone < 0)
		why = "a port's own run did not complete";
	if (why) {
		g->verdict = ND_VERDICT_UNTESTED;
		snprintf(g->reason, sizeof(g->reason), "no slot verdict: %s", why);
		return true;
	}
	if (!(g->slot.ceiling_mbps > 0)) {
		g->verdict = ND_VERDICT_INCONCLUSIVE;
		snprintf(g->reason, sizeof(g->reason), "together %.1f %s, alone %.1f: the shared "
			 "slot's ceiling is unknown (%s)", s->together / s->div, s->unit,
			 s->alone / s->div, g->slot.link[0] ? g->slot.link : "no PCIe link");
		return true;
	}
	return false;
}

void nd_group_judge(struct nd_group *g)
{
	const char *pair = g->n_ports == 2 ? "the pair" : "the ports";
	const char *both = g->n_ports == 2 ? "both ports" : "all ports";
	double slot = g->slot.ceiling_mbps;
	char alone[160], note[64];
	struct sums s;

	sums_of(g, &s);
	if (judge_untestable(g, &s))
		return;
	alone_text(g, &s, alone, sizeof(alone));
	scale_note(g, note, sizeof(note));
	if (s.together > slot * ABOVE_CEILING_SHARE) {
		g->verdict = ND_VERDICT_REFUTED;
		snprintf(g->reason, sizeof(g->reason), "%s together move %.1f %s, above the ceiling "
			 "%.1f of the %s: the slot is not the limit%s", both, s.together / s.div,
			 s.unit, slot / s.div, g->slot.link, note);
	} else if (s.together >= s.alone * SAME_AS_ALONE_SHARE) {
		g->verdict = ND_VERDICT_REFUTED;
		snprintf(g->reason, sizeof(g->reason), "%s together move %.1f %s, %s: the slot "
			 "carries %s, its ceiling %.1f on the %s%s", both, s.together / s.div, s.unit,
			 alone, g->n_ports == 2 ? "both" : "all", slot / s.div, g->slot.link, note);
	} else if (s.together >= slot * AT_CEILING_LOW_SHARE) {
		g->verdict = ND_VERDICT_CONFIRMED;
		snprintf(g->reason, sizeof(g->reason), "together %.1f of %.1f %s: the %s caps %s "
			 "at %.1f (%s)%s", s.together / s.div,
			 (s.links > 0 ? s.links : s.alone) / s.div, s.unit, g->slot.link, pair,
			 slot / s.div, alone, note);
	} else {
		g->verdict = ND_VERDICT_INCONCLUSIVE;
		snprintf(g->reason, sizeof(g->reason), "together %.1f %s, below both the ceiling "
			 "%.1f of the %s and the %.1f the ports moved alone: something else the "
			 "ports share (CPU, the peers) limits %s%s", s.together / s.div, s.unit,
			 slot / s.div, g->slot.link, s.alone / s.div, pair, note);
	}
}

static double round1(double v)
{
	return round(v * 10.0) / 10.0;
}

static cJSON *number_or_null(double v)
{
	return v >= 0 ? cJSON_CreateNumber(round1(v)) : cJSON_CreateNull();
}

static cJSON *experiment_json(const struct nd_group *g)
{
	cJSON *e = cJSON_CreateObject();
	struct sums s;

	sums_of(g, &s);
	cJSON_AddStringToObject(e, "kind", "together");
	cJSON_AddStringToObject(e, "run", "together_forward_many");
	cJSON_AddItemToObject(e, "measured_mbps", number_or_null(s.together));
	cJSON_AddItemToObject(e, "alone_sum_mbps", number_or_null(s.alone));
	cJSON_AddItemToObject(e, "links_ceiling_mbps", number_or_null(s.links));
	cJSON_AddItemToObject(e, "ceiling_mbps", number_or_null(g->slot.ceiling_mbps));
	cJSON_AddStringToObject(e, "ceiling_source", "pcie");
	cJSON_AddStringToObject(e, "reason", g->reason);
	return e;
}

void nd_group_apply(const struct nd_group *g, struct nd_finding *findings, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		struct nd_finding *f = &findings[i];

		if (!f->id || strcmp(f->id, "pcie.slot_too_slow") || f->skipped ||
		    nd_finding_check_severity(f) < ND_SEV_WARNING ||
		    g->verdict == ND_VERDICT_UNTESTED)
			continue;
		cJSON_Delete(f->experiment);
		f->experiment = experiment_json(g);
		f->verdict = g->verdict;
		nd_verdict_apply_severity(f);	/* from the check's, again */
	}
}

static cJSON *port_json(const struct nd_group_port *p)
{
	cJSON *o = cJSON_CreateObject();
	char peer[300];

	nd_peer_format(peer, sizeof(peer), p->host, p->port);
	cJSON_AddStringToObject(o, "interface", p->ifname);
	cJSON_AddStringToObject(o, "peer", peer);
	if (p->pci_address[0])
		cJSON_AddStringToObject(o, "pci_address", p->pci_address);
	else
		cJSON_AddNullToObject(o, "pci_address");
	cJSON_AddItemToObject(o, "link_ceiling_mbps", number_or_null(p->link_ceiling_mbps));
	if (p->link_ceiling_source[0])
		cJSON_AddStringToObject(o, "link_ceiling_source", p->link_ceiling_source);
	cJSON_AddNumberToObject(o, "streams", p->streams);
	cJSON_AddItemToObject(o, "alone_mbps", number_or_null(p->alone_mbps));
	cJSON_AddItemToObject(o, "together_mbps", number_or_null(p->together_mbps));
	if (p->error[0])
		cJSON_AddStringToObject(o, "error", p->error);
	return o;
}

cJSON *nd_group_json(const struct nd_group *g)
{
	cJSON *o = cJSON_CreateObject(), *ports = cJSON_AddArrayToObject(o, "ports");
	cJSON *slot = cJSON_AddObjectToObject(o, "slot");
	cJSON *v = cJSON_AddObjectToObject(o, "verdict");
	struct sums s;

	for (unsigned i = 0; i < g->n_ports; i++)
		cJSON_AddItemToArray(ports, port_json(&g->ports[i]));
	sums_of(g, &s);
	cJSON_AddStringToObject(o, "clock", "every port set up, then started together");
	cJSON_AddNumberToObject(o, "duration_sec", round1(g->together_sec));
	cJSON_AddItemToObject(o, "together_mbps", number_or_null(s.together));
	cJSON_AddItemToObject(o, "alone_sum_mbps", number_or_null(s.alone));
	cJSON_AddItemToObject(o, "links_ceiling_mbps", number_or_null(s.links));
	if (g->error[0])
		cJSON_AddStringToObject(o, "error", g->error);
	cJSON_AddBoolToObject(slot, "shared", g->slot.shared);
	if (g->slot.shared)
		cJSON_AddStringToObject(slot, "device", g->slot.device);
	else
		cJSON_AddStringToObject(slot, "why_not", g->slot.why_not);
	cJSON_AddStringToObject(slot, "link", g->slot.link);
	cJSON_AddItemToObject(slot, "ceiling_mbps", number_or_null(g->slot.ceiling_mbps));
	if (g->slot.scale != 1)
		cJSON_AddNumberToObject(slot, "test_scale", g->slot.scale);
	cJSON_AddStringToObject(v, "id", "pcie.slot_too_slow");
	cJSON_AddStringToObject(v, "verdict", nd_verdict_name(g->verdict));
	cJSON_AddStringToObject(v, "reason", g->reason);
	return o;
}
