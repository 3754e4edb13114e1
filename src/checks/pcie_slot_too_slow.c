/*
 * pcie_slot_too_slow.c - the card or its slot cannot carry every port at
 * line rate even when nothing is downgraded.
 *
 * Two ways a path is too narrow by design, not by bad training (that is
 * pcie.link_downgraded):
 *  - the card's own LnkCap shared by all its ports: a dual-port 10G card
 *    at 5 GT/s x4 moves at most 4 x 4.0 Gb/s x 256/280 = 14629 Mbit/s,
 *    less than 2 x 9415 Mbit/s of TCP goodput;
 *  - a bridge between the card and the CPU narrower than the card: a
 *    root port wired x4 under an x8 card, a switch uplink at x4.
 * All arithmetic is the ceiling model's (ceiling.h); a port's share is the
 * path's ceiling divided by the ports that share it.
 */
#include <stdio.h>
#include <string.h>

#include "nicdoctor/ceiling.h"
#include "checks.h"
#include "nic_common.h"

/* Two links whose ceilings differ by less than this are equally fast:
 * Gen4 x4 and Gen3 x8 are the same 63016 Mbit/s, up to rounding. */
#define PCIE_SAME_MBPS 1.0

struct pcie_path {
	double card_mbps;		/* the card's LnkCap, MPS in use */
	double path_mbps;		/* min over the card and the bridges */
	const struct nd_pcie_link *narrowest;	/* bridge that sets path_mbps, or NULL */
	bool narrowest_by_sta;		/* ... through its LnkSta rather than LnkCap */
	unsigned ports;			/* this port + sibling ports of the card */
	long port_speed_mbps;
	bool speed_from_modes;		/* this port's link is down: best supported mode */
	double port_goodput_mbps;
	unsigned mtu;
	bool mtu_assumed;
};

/* Another function of the card counts as a port when it is the same kind
 * of device: a VF shares its PF's port and link (and has its own device
 * ID from the SR-IOV capability, and LnkSta x0), and another function
 * kind (storage, management) is not a network port. */
static bool sibling_is_port(const struct nd_pcie_link *self, const struct nd_pcie_link *sib)
{
	if (self->vendor_id || self->device_id)
		return sib->vendor_id == self->vendor_id && sib->device_id == self->device_id;
	return sib->link_known && sib->sta_width > 0;
}

static void count_ports(const struct nd_pci *pci, struct pcie_path *path, cJSON *evidence)
{
	cJSON *counted = cJSON_AddArrayToObject(evidence, "ports_counted");
	cJSON *skipped = cJSON_AddArrayToObject(evidence, "functions_not_counted");

	path->ports = 1;
	cJSON_AddItemToArray(counted, cJSON_CreateString(pci->dev.address));
	for (unsigned i = 0; i < pci->n_siblings && i < ND_MAX_SIBLINGS; i++) {
		const struct nd_pcie_link *sib = &pci->siblings[i];

		if (sibling_is_port(&pci->dev, sib)) {
			path->ports++;
			cJSON_AddItemToArray(counted, cJSON_CreateString(sib->address));
		} else {
			cJSON_AddItemToArray(skipped, cJSON_CreateString(sib->address));
		}
	}
}

/* The speed every port is taken to run at: this port's negotiated speed,
 * else (link down) the best mode it supports.  Sibling ports have no
 * facts of their own, so they are assumed alike; the evidence says so. */
static bool port_speed(const struct nd_facts *facts, struct pcie_path *path)
{
	const struct nd_linkmodes *lm = &facts->linkmodes;

	path->speed_from_modes = false;
	path->port_speed_mbps = 0;
	if (!lm->st.known)
		return false;
	if (lm->speed_mbps > 0) {
		path->port_speed_mbps = (long)lm->speed_mbps;
		return true;
	}
	path->port_speed_mbps = nd_linkmodes_best_mbps(lm->supported, lm->n_supported, NULL, 0);
	path->speed_from_modes = path->port_speed_mbps > 0;
	return path->speed_from_modes;
}

/* A bridge's ceiling at the card's MPS: LnkCap always; LnkSta too, except
 * on the port facing the card, whose LnkSta is the card's own link (a
 * downgrade there is pcie.link_downgraded's finding, not the slot's). */
static double bridge_mbps(const struct nd_pcie_link *bridge, bool faces_card, unsigned mps,
			  bool *ret_by_sta)
{
	double cap = nd_ceiling_pcie_mbps(bridge->cap_gts, bridge->cap_width, mps);
	double sta = faces_card ? -1 :
		     nd_ceiling_pcie_mbps(bridge->sta_gts, bridge->sta_width, mps);

	*ret_by_sta = sta > 0 && (cap <= 0 || sta < cap);
	return *ret_by_sta ? sta : cap;
}

static void walk_bridges(const struct nd_pci *pci, struct pcie_path *path, cJSON *evidence)
{
	cJSON *bridges = cJSON_AddArrayToObject(evidence, "bridges");
	char text[64];

	path->path_mbps = path->card_mbps;
	path->narrowest = NULL;
	for (unsigned i = 0; i < pci->n_upstream && i < ND_MAX_PCI_CHAIN; i++) {
		const struct nd_pcie_link *bridge = &pci->upstream[i];
		cJSON *item = cJSON_CreateObject();
		bool by_sta;
		double mbps;

		cJSON_AddItemToArray(bridges, item);
		cJSON_AddStringToObject(item, "device", bridge->address);
		cJSON_AddStringToObject(item, "port_type", bridge->port_type);
		if (!bridge->is_pcie || !bridge->link_known) {
			cJSON_AddStringToObject(item, "judged", bridge->is_pcie ?
						"no: link not read" : "no: not PCI Express");
			continue;
		}
		snprintf(text, sizeof(text), "%gGT/s x%u", bridge->cap_gts, bridge->cap_width);
		cJSON_AddStringToObject(item, "lnkcap", text);
		snprintf(text, sizeof(text), "%gGT/s x%u", bridge->sta_gts, bridge->sta_width);
		cJSON_AddStringToObject(item, "lnksta", text);
		mbps = bridge_mbps(bridge, i == 0, pci->dev.mps_bytes, &by_sta);
		if (mbps <= 0)
			continue;
		cJSON_AddNumberToObject(item, "ceiling_mbps", nd_round_mbps(mbps));
		if (mbps + PCIE_SAME_MBPS < path->path_mbps) {
			path->path_mbps = mbps;
			path->narrowest = bridge;
			path->narrowest_by_sta = by_sta;
		}
	}
}

static void add_card_evidence(const struct nd_pci *pci, const struct pcie_path *path,
			      cJSON *evidence)
{
	char text[64];

	cJSON_AddStringToObject(evidence, "device", pci->dev.address);
	snprintf(text, sizeof(text), "%gGT/s x%u", pci->dev.cap_gts, pci->dev.cap_width);
	cJSON_AddStringToObject(evidence, "lnkcap", text);
	if (pci->dev.mps_bytes)
		cJSON_AddNumberToObject(evidence, "max_payload_bytes", pci->dev.mps_bytes);
	else
		cJSON_AddStringToObject(evidence, "max_payload_bytes", "unknown: 128 assumed");
	cJSON_AddNumberToObject(evidence, "card_ceiling_at_capability_mbps",
				nd_round_mbps(path->card_mbps));
}

static void add_port_evidence(const struct pcie_path *path, cJSON *evidence)
{
	cJSON_AddNumberToObject(evidence, "ports", path->ports);
	cJSON_AddNumberToObject(evidence, "port_speed_mbps", (double)path->port_speed_mbps);
	cJSON_AddNumberToObject(evidence, "mtu", path->mtu);
	cJSON_AddNumberToObject(evidence, "port_goodput_mbps",
				nd_round_mbps(path->port_goodput_mbps));
	cJSON_AddNumberToObject(evidence, "all_ports_goodput_mbps",
				nd_round_mbps(path->port_goodput_mbps * path->ports));
	cJSON_AddNumberToObject(evidence, "path_ceiling_mbps", nd_round_mbps(path->path_mbps));
	cJSON_AddStringToObject(evidence, "assumed",
				path->speed_from_modes ?
				"link down: every port taken at this port's best supported speed" :
				path->ports > 1 ? "other ports taken at this port's speed and MTU "
				"(their own links are not probed)" : "none");
	if (path->mtu_assumed)
		cJSON_AddStringToObject(evidence, "mtu_assumed", "MTU not read: 1500 assumed");
}

/* What limits the path, for the title: the card's LnkCap or a bridge. */
static void describe_limit(const struct nd_pci *pci, const struct pcie_path *path,
			   char *buf, size_t size)
{
	const struct nd_pcie_link *link = path->narrowest ? path->narrowest : &pci->dev;
	bool sta = path->narrowest && path->narrowest_by_sta;

	snprintf(buf, size, "%s %s at %gGT/s x%u", path->narrowest ? "bridge" :
		 pci->dev.cap_from_sta ? "link of" : "card",
		 link->address, sta ? link->sta_gts : link->cap_gts,
		 sta ? link->sta_width : link->cap_width);
}

static void add_fix(const struct nd_facts *facts, const struct pcie_path *path,
		    struct nd_finding *f)
{
	const struct nd_pcie_link *dev = &facts->pci.dev;

	nd_finding_fix(f, "pcie_slot", "lspci -vv -s %s | grep -E 'LnkCap:|LnkSta:'",
		       path->narrowest ? path->narrowest->address : dev->address);
	if (path->narrowest)
		nd_finding_fix(f, "pcie_slot", "# move the card to a CPU-attached slot wired for "
			       "x%u at %gGT/s (the board manual lists each slot's lanes and "
			       "whether it hangs off the chipset or a switch)",
			       dev->cap_width, dev->cap_gts);
	else if (dev->cap_from_sta)
		/* Only the trained link is known (the kernel's log): the card
		 * may do more than the slot gave it; the slot is what to try. */
		nd_finding_fix(f, "pcie_slot", "# move the card to a slot with more lanes or a "
			       "higher speed (the board manual lists each slot's lanes), or use "
			       "fewer of its ports at full rate");
	else
		nd_finding_fix(f, "pcie_slot", "# the card itself is the limit: use fewer of its "
			       "ports at full rate, or a card with a wider/faster PCIe interface");
}

/* The driver's need ("at least 20GT/s of bandwidth is required": the
 * rate after encoding its ports want together) as goodput, the ports'
 * way (port goodput / port speed); 0 unsaid. */
static double kernel_need_mbps(const struct nd_pci *pci, const struct pcie_path *path)
{
	if (!pci->kernel_need_gts || path->port_speed_mbps <= 0)
		return 0;
	return pci->kernel_need_gts * 1000.0 * path->port_goodput_mbps /
	       (double)path->port_speed_mbps;
}

/* Flagged: title, severity and ceiling.  Below one port's goodput nothing
 * reaches line rate (critical, as pcie.link_downgraded); below all ports
 * together (or the driver's own need, when its log says it), line rate on
 * every port at once is impossible (warning); a narrower bridge that
 * still carries every port is worth knowing (info).  A link known only
 * from the kernel's boot log is the link at boot, not read now: at most a
 * warning, the lspci that reads it first in the fix. */
static void judge(const struct nd_facts *facts, const struct pcie_path *path,
		  struct nd_finding *f)
{
	double needed_mbps = path->port_goodput_mbps * path->ports;
	double driver_mbps = kernel_need_mbps(&facts->pci, path);
	double per_port_mbps = path->path_mbps / path->ports;
	bool by_driver = driver_mbps > needed_mbps + PCIE_SAME_MBPS;
	enum nd_severity sev = ND_SEV_WARNING;
	char limit[96], need[48] = "";

	describe_limit(&facts->pci, path, limit, sizeof(limit));
	if (facts->pci.kernel_need_gts)
		cJSON_AddNumberToObject(f->evidence, "kernel_need_gts", facts->pci.kernel_need_gts);
	if (by_driver) {
		needed_mbps = driver_mbps;
		snprintf(need, sizeof(need), " (the driver needs %uGT/s)",
			 facts->pci.kernel_need_gts);
	}
	cJSON_AddNumberToObject(f->evidence, "needed_mbps", nd_round_mbps(needed_mbps));
	if (path->path_mbps >= needed_mbps) {
		nd_finding_set(f, path->narrowest ? ND_SEV_INFO : ND_SEV_OK,
			       "%s: %.0f Mbit/s carries %u port%s at %ld Mbit/s (%.0f needed)",
			       limit, path->path_mbps, path->ports, path->ports == 1 ? "" : "s",
			       path->port_speed_mbps, needed_mbps);
		return;
	}
	nd_finding_ceiling(f, "pcie", per_port_mbps);
	cJSON_AddNumberToObject(f->evidence, "ceiling_per_port_mbps", f->ceiling_mbps);
	if (path->path_mbps < path->port_goodput_mbps) {
		if (facts->pci.link_from_log)
			cJSON_AddStringToObject(f->evidence, "severity_from_log", "warning, not "
						"critical: the link is the kernel's log's at boot, "
						"not read now");
		else
			sev = ND_SEV_CRITICAL;
	}
	nd_finding_set(f, sev, "%s: %.0f Mbit/s for %u x %ld Mbit/s port%s needing %.0f%s: "
		       "%.0f per port", limit, path->path_mbps, path->ports,
		       path->port_speed_mbps, path->ports == 1 ? "" : "s", needed_mbps, need,
		       f->ceiling_mbps);
	add_fix(facts, path, f);
}

void nd_check_pcie_slot_too_slow(const struct nd_facts *facts, struct nd_finding *f)
{
	const struct nd_pci *pci = &facts->pci;
	struct pcie_path path;

	memset(&path, 0, sizeof(path));
	if (nd_pcie_check_not_applicable(facts, f))
		return;
	if (!pci->st.known)
		return nd_finding_unknown(f, "pci", pci->st.reason);
	if (!pci->dev.is_pcie) {
		nd_finding_set(f, ND_SEV_OK, "%s is not a PCI Express device: no slot to judge",
			       pci->dev.address);
		return;
	}
	if (!pci->dev.link_known)
		return nd_finding_unknown(f, "pcie link capability (LnkCap)", pci->dev.link_reason);
	path.card_mbps = nd_ceiling_pcie_mbps(pci->dev.cap_gts, pci->dev.cap_width,
					      pci->dev.mps_bytes);
	if (path.card_mbps <= 0)
		return nd_finding_unknown(f, "pcie link capability (LnkCap)",
					  "LnkCap reports no speed or width");
	if (!port_speed(facts, &path))
		return nd_finding_unknown(f, "link speed", facts->linkmodes.st.known ?
					  "link down and no supported link mode reported" :
					  facts->linkmodes.st.reason);
	path.mtu = nd_port_mtu(facts, &path.mtu_assumed);
	path.port_goodput_mbps = nd_ceiling_wire_mbps((double)path.port_speed_mbps, path.mtu,
						      ND_L4_TCP);
	add_card_evidence(pci, &path, f->evidence);
	count_ports(pci, &path, f->evidence);
	walk_bridges(pci, &path, f->evidence);
	add_port_evidence(&path, f->evidence);
	judge(facts, &path, f);
}
