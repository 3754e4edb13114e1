/*
 * pcie_link_downgraded.c - the PCIe link trained below what both ends can do.
 *
 * Judged as pciutils judges "(downgraded)" in `lspci -vv`: LnkSta below
 * LnkCap in speed or width, except on root ports, switch downstream ports
 * and PCIe-to-PCI bridges, whose LnkCap describes the slot, not the link.
 * The field case: a 10G card at x1 5 GT/s measured 3.55 Gbit/s; the PCIe
 * ceiling (1 x 4.0 Gb/s x 256/280 = 3657 Mbit/s) was the cause, and the
 * fix was in the BIOS.
 */
#include <stdio.h>
#include <string.h>

#include "nicdoctor/ceiling.h"
#include "checks.h"
#include "nic_common.h"

static bool port_judged(const struct nd_pcie_link *link)
{
	static const char *const exempt[] = { "root_port", "downstream", "pcie_bridge" };

	for (size_t i = 0; i < sizeof(exempt) / sizeof(exempt[0]); i++)
		if (!strcmp(link->port_type, exempt[i]))
			return false;
	return true;
}

static bool link_downgraded(const struct nd_pcie_link *link)
{
	return link->link_known && link->sta_width && link->sta_gts > 0 &&
	       (link->sta_gts < link->cap_gts || link->sta_width < link->cap_width);
}

static void add_link_evidence(cJSON *obj, const struct nd_pcie_link *link)
{
	char text[48];

	cJSON_AddStringToObject(obj, "device", link->address);
	snprintf(text, sizeof(text), "%gGT/s x%u", link->cap_gts, link->cap_width);
	cJSON_AddStringToObject(obj, "lnkcap", text);
	snprintf(text, sizeof(text), "%gGT/s x%u", link->sta_gts, link->sta_width);
	cJSON_AddStringToObject(obj, "lnksta", text);
	if (link->mps_bytes)
		cJSON_AddNumberToObject(obj, "max_payload_bytes", link->mps_bytes);
	else
		cJSON_AddNullToObject(obj, "max_payload_bytes");
	if (link->from_sysfs)
		cJSON_AddStringToObject(obj, "source", "sysfs current_link_* (config space closed)");
}

/* The ceiling math, spelled out for the report: lanes x lane rate x MPS share. */
static void add_math(cJSON *obj, const struct nd_pcie_link *link, double ceiling_mbps)
{
	unsigned mps = link->mps_bytes ? link->mps_bytes : 128;
	char math[200];

	snprintf(math, sizeof(math),
		 "%u lane%s x %.3f Gb/s (%g GT/s, %s) x %u/(%u+24) = %.0f Mbit/s%s",
		 link->sta_width, link->sta_width == 1 ? "" : "s", nd_pcie_lane_gbps(link->sta_gts),
		 link->sta_gts, link->sta_gts <= 5.0 ? "8b/10b" : "128b/130b", mps, mps,
		 ceiling_mbps, link->mps_bytes ? "" : " (MPS unknown, 128 assumed)");
	cJSON_AddStringToObject(obj, "math", math);
}

/* The first downgraded link between the NIC and its root port, NIC first. */
static const struct nd_pcie_link *find_downgraded(const struct nd_pci *pci)
{
	if (link_downgraded(&pci->dev) && port_judged(&pci->dev))
		return &pci->dev;
	for (unsigned i = 0; i < pci->n_upstream && i < ND_MAX_PCI_CHAIN; i++)
		if (link_downgraded(&pci->upstream[i]) && port_judged(&pci->upstream[i]))
			return &pci->upstream[i];
	return NULL;
}

void nd_check_pcie_link_downgraded(const struct nd_facts *facts, struct nd_finding *f)
{
	const struct nd_pci *pci = &facts->pci;
	const struct nd_pcie_link *bad;
	double wire_mbps, pcie_mbps;

	if (nd_pcie_check_not_applicable(facts, f))
		return;
	if (!pci->st.known)
		return nd_finding_unknown(f, "pci", pci->st.reason);
	if (!pci->dev.is_pcie) {
		nd_finding_set(f, ND_SEV_OK, "%s is not a PCI Express device: no link to train",
			       pci->dev.address);
		return;
	}
	if (!pci->dev.link_known)
		return nd_finding_unknown(f, "pcie link (LnkCap/LnkSta)", pci->dev.link_reason);
	if (pci->dev.cap_from_sta)
		return nd_finding_unknown(f, "pcie link capability (LnkCap)",
					  "the kernel's log gives the trained link only, not what "
					  "the card can do");
	if (!pci->dev.sta_width || pci->dev.sta_gts <= 0)
		return nd_finding_unknown(f, "pcie link status",
					  "LnkSta reports no trained link (a virtual function "
					  "uses its physical function's link)");
	bad = find_downgraded(pci);
	if (!bad) {
		nd_finding_set(f, ND_SEV_OK, "PCIe link at capability: %gGT/s x%u",
			       pci->dev.sta_gts, pci->dev.sta_width);
		add_link_evidence(f->evidence, &pci->dev);
		return;
	}
	pcie_mbps = nd_ceiling_pcie_mbps(bad->sta_gts, bad->sta_width, bad->mps_bytes);
	wire_mbps = nd_facts_wire_ceiling_mbps(facts);
	add_link_evidence(f->evidence, bad);
	add_math(f->evidence, bad, pcie_mbps);
	cJSON_AddNumberToObject(f->evidence, "pcie_ceiling_at_capability_mbps",
				(double)(long)nd_ceiling_pcie_mbps(bad->cap_gts, bad->cap_width,
								   bad->mps_bytes));
	if (wire_mbps > 0)
		cJSON_AddNumberToObject(f->evidence, "wire_ceiling_mbps", (double)(long)wire_mbps);
	else
		cJSON_AddStringToObject(f->evidence, "wire_ceiling_mbps", "unknown (link speed not read)");
	nd_finding_ceiling(f, "pcie", pcie_mbps);
	nd_finding_set(f, wire_mbps > 0 && pcie_mbps < wire_mbps ? ND_SEV_CRITICAL : ND_SEV_WARNING,
		       "PCIe link %s runs at %gGT/s x%u of %gGT/s x%u: ceiling %.0f Mbit/s",
		       bad->address, bad->sta_gts, bad->sta_width, bad->cap_gts, bad->cap_width,
		       f->ceiling_mbps);
	nd_finding_fix(f, "pcie_slot", "lspci -vv -s %s | grep -E 'LnkCap:|LnkSta:'", bad->address);
	nd_finding_fix(f, "pcie_slot", "# reseat the card in a slot wired for x%u; in the BIOS/UEFI "
		       "set this slot's link speed to Auto/Gen and check lane bifurcation",
		       bad->cap_width);
}
