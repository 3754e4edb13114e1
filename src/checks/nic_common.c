/*
 * nic_common.c - readers over facts shared by the NIC checks: link mode
 * names, which interrupts are queue interrupts, /proc/interrupts columns.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nic_common.h"
#include "virt_common.h"

long nd_linkmode_speed_mbps(const char *mode)
{
	char *end;
	long speed;

	if (!isdigit((unsigned char)mode[0]))
		return 0;
	speed = strtol(mode, &end, 10);
	/* Every speed mode is "<Mbit/s>base<medium>/<duplex>" (kernel's
	 * link_mode_names[]); anything else is a flag bit. */
	return strncmp(end, "base", 4) ? 0 : speed;
}

bool nd_linkmode_full_duplex(const char *mode)
{
	const char *slash = strrchr(mode, '/');

	return slash && !strcmp(slash, "/Full");
}

bool nd_linkmode_in(const char (*list)[48], unsigned n, const char *name)
{
	for (unsigned i = 0; i < n && i < ND_MAX_LINKMODES; i++)
		if (!strcmp(list[i], name))
			return true;
	return false;
}

long nd_linkmodes_best_mbps(const char (*list)[48], unsigned n,
			    const char (*other)[48], unsigned n_other)
{
	long best = 0;

	for (unsigned i = 0; i < n && i < ND_MAX_LINKMODES; i++) {
		long speed = nd_linkmode_speed_mbps(list[i]);

		if (speed > best && (!other || nd_linkmode_in(other, n_other, list[i])))
			best = speed;
	}
	return best;
}

unsigned nd_irq_columns(const struct nd_facts *facts)
{
	unsigned columns = facts->irqs.n_cpu_columns;

	return columns < ND_IRQ_MAX_CPUS ? columns : ND_IRQ_MAX_CPUS;
}

unsigned nd_irq_column_cpu(const struct nd_facts *facts, unsigned column)
{
	unsigned seen = 0;

	if (facts->irqs.column_cpu_known && column < ND_IRQ_MAX_CPUS)
		return facts->irqs.column_cpu[column];
	/* Without a header, only when the online set explains the columns
	 * exactly; a capture from another host keeps the column number. */
	if (!facts->cpus.st.known || facts->cpus.n_online != facts->irqs.n_cpu_columns)
		return column;
	for (unsigned cpu = 0; cpu < ND_CPUSET_BITS; cpu++)
		if (nd_cpuset_has(&facts->cpus.online, cpu) && seen++ == column)
			return cpu;
	return column;
}

unsigned nd_port_mtu(const struct nd_facts *facts, bool *ret_assumed)
{
	bool known = facts->link.st.known && facts->link.mtu > 0;

	if (ret_assumed)
		*ret_assumed = !known;
	return known ? facts->link.mtu : 1500;
}

double nd_round_mbps(double mbps)
{
	return round(mbps);
}

void nd_fix_rx_channels(const struct nd_facts *facts, struct nd_finding *f, unsigned target)
{
	/* Raise the kind the driver uses: combined where it has them. */
	if (facts->channels.combined_max > 1)
		nd_finding_fix(f, "channels", "ethtool -L %s combined %u", facts->ifname, target);
	else
		nd_finding_fix(f, "channels", "ethtool -L %s rx %u", facts->ifname, target);
}

bool nd_queue_counts(const struct nd_facts *facts, struct nd_finding *f, unsigned *ret_rx_queues)
{
	char from[ND_REASON_LEN];
	unsigned rx_queues = nd_facts_rx_queues_source(facts, from, sizeof(from));

	if (!facts->cpus.st.known) {
		nd_finding_unknown(f, "online CPUs", facts->cpus.st.reason);
		return false;
	}
	if (!rx_queues) {
		nd_finding_unknown(f, "rx queue count", from);
		return false;
	}
	cJSON_AddNumberToObject(f->evidence, "rx_queues", rx_queues);
	cJSON_AddStringToObject(f->evidence, "rx_queues_from", from);
	cJSON_AddNumberToObject(f->evidence, "cpus_online", facts->cpus.n_online);
	*ret_rx_queues = rx_queues;
	return true;
}

bool nd_pcie_check_not_applicable(const struct nd_facts *facts, struct nd_finding *f)
{
	const char *reason = facts->pci.st.reason;
	char why[ND_TITLE_LEN - 40];

	if (facts->pci.no_device) {
		nd_finding_not_applicable(f, "%s%s", reason,
					  strstr(reason, "no PCIe link") ? "" : ": no PCIe link");
		return true;
	}
	/* What a guest sees as its NIC's link is the hypervisor's invention
	 * (QEMU's root port says 2.5GT/s x1 under a 25G virtio device); a
	 * VF's is its PF's, out of sight. */
	switch (nd_nic_kind(facts, why, sizeof(why))) {
	case ND_NIC_PHYSICAL:
		return false;
	case ND_NIC_VF:
		nd_finding_not_applicable(f, "%s: LnkSta x0, its link is the physical "
					  "function's (not visible here)", why);
		break;
	default:
		nd_finding_not_applicable(f, "%s: no PCIe link to train", why);
		break;
	}
	cJSON_AddStringToObject(f->evidence, "nic_kind", why);
	return true;
}

void nd_rps_mask(const struct nd_facts *facts, char *buf, size_t size)
{
	int node = facts->pci.st.known ? facts->pci.numa_node : -1;
	struct nd_cpuset target = facts->cpus.online;
	char mask[300];
	const char *p = mask;

	/* The CPUs of the NIC's NUMA node when known, else all online. */
	if (node >= 0 && (unsigned)node < facts->cpus.n_nodes &&
	    !nd_cpuset_empty(&facts->cpus.node_cpus[node]))
		target = facts->cpus.node_cpus[node];
	nd_cpuset_format_mask(&target, mask, sizeof(mask));
	/* "0000000f" -> "f": the kernel accepts either, a person types the short one. */
	while (p[0] == '0' && p[1] && p[1] != ',')
		p++;
	snprintf(buf, size, "%s", p);
}

bool nd_stat_name_has(const char *name, const char *word)
{
	char lower[sizeof(((struct nd_stat *)0)->name)];
	size_t i;

	for (i = 0; name[i] && i + 1 < sizeof(lower); i++)
		lower[i] = (char)tolower((unsigned char)name[i]);
	lower[i] = '\0';
	return strstr(lower, word) != NULL;
}
