/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pcie_aspm.c - pcie.aspm_latency: ASPM (L0s, L1) enabled on the NIC's
 * link or a link above it, judged as the kernel's pcie_aspm_check_latency
 * judges it.  On each link from the NIC up to the root port, L1 wakes in
 * the larger of its two ends' LnkCap exit latencies; a wake crosses every
 * switch below that link, 1 us each, and the slowest link on the way
 * counts (the path maximum); the total must stay within the L1 latency the
 * NIC's DevCap accepts.  L0s is judged per link against DevCap's L0s.
 *
 * The field case (intel-wired-lan, "NAT performance issue 944mbit ->
 * ~40mbit", July 2020): an I211 behind a PCIe switch forwarded 40 Mbit/s
 * with ASPM L1 on and 944 without; the exits above the switch added up
 * past what the I211 accepts.  ASPM within budget is info: its wake still
 * costs microseconds per idle gap.
 */
#include <stdio.h>
#include <string.h>

#include "checks.h"
#include "nic_common.h"

#define ASPM_NO_LIMIT (-1L)

struct aspm_link {
	const struct nd_pcie_link *lower, *upper;	/* upper NULL: not read */
	bool l0s, l1;					/* enabled */
	long l0s_exit_ns, l1_exit_ns;			/* the larger of the two ends */
	long l1_total_ns;				/* path max + 1 us per switch below */
};

static long l0s_exit_ns(unsigned code)
{
	return code >= 7 ? 5000 : 64L << code;		/* 7: "more than 4 us" */
}

static long l1_exit_ns(unsigned code)
{
	return code >= 7 ? 65000 : 1000L << code;	/* 7: "more than 64 us" */
}

static long acceptable_ns(unsigned code, long unit_ns)
{
	return code >= 7 ? ASPM_NO_LIMIT : unit_ns << code;
}

/* The end of a link that faces the root (a root or downstream port). */
static bool faces_down(const struct nd_pcie_link *l)
{
	return !strcmp(l->port_type, "root_port") || !strcmp(l->port_type, "downstream") ||
	       !strcmp(l->port_type, "pcie_bridge");
}

static long max_long(long a, long b)
{
	return a > b ? a : b;
}

static void link_fill(struct aspm_link *k, const struct nd_pcie_link *lower,
		      const struct nd_pcie_link *upper)
{
	const struct nd_pcie_aspm *lo = &lower->aspm;
	const struct nd_pcie_aspm *up = upper && upper->aspm.known ? &upper->aspm : NULL;

	memset(k, 0, sizeof(*k));
	k->lower = lower;
	k->upper = up ? upper : NULL;
	/* L1 needs both ends; L0s is per transmitter, either end's counts. */
	k->l1 = lo->l1_enabled && (!up || up->l1_enabled);
	k->l0s = lo->l0s_enabled || (up && up->l0s_enabled);
	k->l1_exit_ns = l1_exit_ns(lo->l1_exit_code);
	k->l0s_exit_ns = lo->l0s_enabled ? l0s_exit_ns(lo->l0s_exit_code) : 0;
	if (up) {
		k->l1_exit_ns = max_long(k->l1_exit_ns, l1_exit_ns(up->l1_exit_code));
		if (up->l0s_enabled)
			k->l0s_exit_ns = max_long(k->l0s_exit_ns, l0s_exit_ns(up->l0s_exit_code));
	}
}

/* The links from the NIC up: a function facing the root next to the one
 * above it that faces down.  Returns how many; *ret_partial when the
 * port above some link was not read. */
static unsigned build_links(const struct nd_pci *pci, struct aspm_link *links, bool *ret_partial)
{
	const struct nd_pcie_link *chain[ND_MAX_PCI_CHAIN + 1];
	unsigned n_chain = 0, n = 0;
	long path_max = 0;

	chain[n_chain++] = &pci->dev;
	for (unsigned i = 0; i < pci->n_upstream && i < ND_MAX_PCI_CHAIN; i++)
		chain[n_chain++] = &pci->upstream[i];
	*ret_partial = false;
	for (unsigned i = 0; i < n_chain; i++) {
		const struct nd_pcie_link *upper = i + 1 < n_chain ? chain[i + 1] : NULL;

		if (faces_down(chain[i]) || !chain[i]->aspm.known)
			continue;
		if (upper && !faces_down(upper))
			upper = NULL;
		*ret_partial |= !upper || !upper->aspm.known;
		link_fill(&links[n], chain[i], upper);
		if (links[n].l1)
			path_max = max_long(path_max, links[n].l1_exit_ns);
		/* Each link above the first is one more switch to cross. */
		links[n].l1_total_ns = path_max + 1000L * n;
		n++;
		if (!upper)
			break;
	}
	return n;
}

static void add_us(cJSON *obj, const char *key, long ns)
{
	if (ns == ASPM_NO_LIMIT)
		cJSON_AddStringToObject(obj, key, "no limit");
	else
		cJSON_AddNumberToObject(obj, key, (double)ns / 1000.0);
}

static void add_link_evidence(cJSON *array, const struct aspm_link *k)
{
	cJSON *o = cJSON_CreateObject();
	char name[40];

	snprintf(name, sizeof(name), "%s-%s", k->lower->address,
		 k->upper ? k->upper->address : "?");
	cJSON_AddStringToObject(o, "link", name);
	cJSON_AddStringToObject(o, "l1", k->l1 ? "enabled" : "disabled");
	cJSON_AddStringToObject(o, "l0s", k->l0s ? "enabled" : "disabled");
	/* Latencies of the states in use only: an unsupported state's
	 * field holds whatever the device left there. */
	if (k->l1) {
		add_us(o, "l1_exit_us", k->l1_exit_ns);
		add_us(o, "l1_total_us", k->l1_total_ns);
	}
	if (k->l0s)
		cJSON_AddNumberToObject(o, "l0s_exit_ns", (double)k->l0s_exit_ns);
	cJSON_AddItemToArray(array, o);
}

static void fix_commands(struct nd_finding *f, const struct aspm_link *links, unsigned n,
			 bool l1, bool l0s)
{
	/* The link's attributes live on its lower (downstream) device. */
	for (unsigned i = 0; i < n; i++) {
		if (l1 && links[i].l1)
			nd_finding_fix(f, "pcie_aspm", "echo 0 > /sys/bus/pci/devices/%s/link/l1_aspm",
				       links[i].lower->address);
		if (l0s && links[i].l0s)
			nd_finding_fix(f, "pcie_aspm", "echo 0 > /sys/bus/pci/devices/%s/link/l0s_aspm",
				       links[i].lower->address);
	}
	nd_finding_fix(f, "pcie_aspm", "# (Linux 5.5+; without link/: setpci -s ADDR "
		       "CAP_EXP+0x10.w=0:3 on both ends, or the BIOS's ASPM setting)");
	nd_finding_fix(f, "pcie_aspm", "# every link until reboot: echo performance > "
		       "/sys/module/pcie_aspm/parameters/policy; for good: pcie_aspm=off");
}

void nd_check_pcie_aspm_latency(const struct nd_facts *facts, struct nd_finding *f)
{
	const struct nd_pci *pci = &facts->pci;
	const struct nd_pcie_aspm *nic = &pci->dev.aspm;
	struct aspm_link links[ND_MAX_PCI_CHAIN + 1];
	const struct aspm_link *worst_l1 = NULL, *bad_l0s = NULL;
	long acc_l1, acc_l0s;
	unsigned n;
	bool partial, any_l1 = false, any_l0s = false;
	cJSON *array;

	if (nd_pcie_check_not_applicable(facts, f))
		return;
	if (!pci->st.known)
		return nd_finding_unknown(f, "pci", pci->st.reason);
	if (!pci->dev.is_pcie) {
		nd_finding_set(f, ND_SEV_OK, "%s is not a PCI Express device: no ASPM",
			       pci->dev.address);
		return;
	}
	if (!nic->known)
		return nd_finding_unknown(f, "ASPM (LnkCap/LnkCtl)", pci->dev.from_sysfs ?
					  "config space past 64 bytes is closed (not root)" :
					  pci->dev.link_reason[0] ? pci->dev.link_reason :
					  "the record has no LnkCap/LnkCtl for the NIC");
	n = build_links(pci, links, &partial);
	for (unsigned i = 0; i < n; i++) {
		any_l1 |= links[i].l1;
		any_l0s |= links[i].l0s;
	}
	array = cJSON_AddArrayToObject(f->evidence, "links");
	for (unsigned i = 0; i < n; i++)
		add_link_evidence(array, &links[i]);
	if (partial)
		cJSON_AddStringToObject(f->evidence, "note", "the port above a link was not read: "
					"that link judged from the NIC's side");
	if (!any_l1 && !any_l0s) {
		nd_finding_set(f, ND_SEV_OK, "ASPM off on the %u link%s from the NIC up", n,
			       n == 1 ? "" : "s");
		return;
	}
	if (!nic->acceptable_known)
		return nd_finding_unknown(f, "acceptable latency (DevCap)",
					  "the NIC's DevCap gives no acceptable L0s/L1 latency "
					  "(not an endpoint)");
	acc_l1 = acceptable_ns(nic->l1_acceptable_code, 1000);
	acc_l0s = acceptable_ns(nic->l0s_acceptable_code, 64);
	add_us(f->evidence, "acceptable_l1_us", acc_l1);
	if (acc_l0s == ASPM_NO_LIMIT)
		cJSON_AddStringToObject(f->evidence, "acceptable_l0s_ns", "no limit");
	else
		cJSON_AddNumberToObject(f->evidence, "acceptable_l0s_ns", (double)acc_l0s);
	for (unsigned i = 0; i < n; i++) {
		const struct aspm_link *k = &links[i];

		if (k->l1 && (!worst_l1 || k->l1_total_ns > worst_l1->l1_total_ns))
			worst_l1 = k;
		if (k->l0s && acc_l0s != ASPM_NO_LIMIT && k->l0s_exit_ns > acc_l0s && !bad_l0s)
			bad_l0s = k;
	}
	if (worst_l1) {
		char name[40];

		snprintf(name, sizeof(name), "%s-%s", worst_l1->lower->address,
			 worst_l1->upper ? worst_l1->upper->address : "?");
		add_us(f->evidence, "l1_total_us", worst_l1->l1_total_ns);
		cJSON_AddStringToObject(f->evidence, "decided_by", name);
	}
	if (worst_l1 && acc_l1 != ASPM_NO_LIMIT && worst_l1->l1_total_ns > acc_l1) {
		fix_commands(f, links, n, true, false);
		nd_finding_set(f, ND_SEV_WARNING, "ASPM L1 wakes in up to %ld us (link %s, %u "
			       "switch%s crossed), above the %ld us the NIC accepts: traffic "
			       "after each idle gap waits", worst_l1->l1_total_ns / 1000,
			       worst_l1->upper ? worst_l1->upper->address : worst_l1->lower->address,
			       (unsigned)(worst_l1 - links), worst_l1 == links + 1 ? "" : "es",
			       acc_l1 / 1000);
		return;
	}
	fix_commands(f, links, n, !bad_l0s, true);
	if (bad_l0s) {
		nd_finding_set(f, ND_SEV_WARNING, "ASPM L0s exits in up to %ld ns on link %s, above "
			       "the %ld ns the NIC accepts", bad_l0s->l0s_exit_ns,
			       bad_l0s->lower->address, acc_l0s);
		return;
	}
	if (worst_l1 && acc_l1 == ASPM_NO_LIMIT)
		nd_finding_set(f, ND_SEV_INFO, "ASPM L1 enabled: exits add up to %ld us on wake "
			       "(the NIC sets no limit)", worst_l1->l1_total_ns / 1000);
	else if (worst_l1)
		nd_finding_set(f, ND_SEV_INFO, "ASPM L1 enabled: exits add up to %ld us on wake "
			       "(the NIC accepts %ld us)", worst_l1->l1_total_ns / 1000,
			       acc_l1 / 1000);
	else
		nd_finding_set(f, ND_SEV_INFO, "ASPM L0s enabled: exits within the %ld ns the NIC "
			       "accepts", acc_l0s);
}
