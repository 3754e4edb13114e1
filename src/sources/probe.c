/*
 * probe.c - fill the facts of one interface from an open source.
 *
 * The source's table (source_ops.h) fills what netlink gives live and the
 * PCI group: live from the kernel, from DIR/ethtool/IF.json in a snapshot,
 * from the command output of a sosreport (sos.c).  The readers of
 * src/probe/ read /sys and /proc (the host's or the tree's: the source's
 * root, sysroot.h); where netlink said nothing the link group comes from
 * /sys/class/net/IF (link_sysfs.c); then the source fills its gaps.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nicdoctor/common.h"
#include "nicdoctor/probe.h"
#include "nicdoctor/sanitize.h"
#include "nicdoctor/sysroot.h"
#include "nicdoctor/virt.h"
#include "source_ops.h"

/* The sysfs/procfs readers every kind runs after its netlink and PCI
 * fills, in this order: queue_table after queues (and the netlink
 * groups), before irqs, which takes its napi IRQs. */
static void (*const common_readers[])(const struct nd_root *root, const char *ifname,
				      struct nd_facts *facts) = {
	nd_probe_queues,
	nd_probe_queue_table,
	nd_probe_irqs,
	nd_probe_softnet,
	nd_probe_sysctls,
	nd_probe_cpus,
	nd_probe_tools,
	nd_probe_bond,
	nd_probe_virt,		/* after the PCI group: its subsystem IDs */
	nd_probe_stack,
};

/* Where each group came from when its source did not say (live kernel or
 * a plain tree), so that every fact names its origin in the evidence. */
static void default_sources(const struct nd_source *src, const char *ifname,
			    struct nd_facts *facts)
{
	static const struct {
		size_t offset;
		const char *live, *tree;	/* %s: the interface */
	} table[] = {
		{ offsetof(struct nd_facts, link.st), "netlink", "ethtool/%s.json" },
		{ offsetof(struct nd_facts, qdisc.st), "netlink", "ethtool/%s.json" },
		{ offsetof(struct nd_facts, linkmodes.st), "netlink", "ethtool/%s.json" },
		{ offsetof(struct nd_facts, channels.st), "netlink", "ethtool/%s.json" },
		{ offsetof(struct nd_facts, features.st), "netlink", "ethtool/%s.json" },
		{ offsetof(struct nd_facts, rings.st), "netlink", "ethtool/%s.json" },
		{ offsetof(struct nd_facts, coalesce.st), "netlink", "ethtool/%s.json" },
		{ offsetof(struct nd_facts, pause.st), "netlink", "ethtool/%s.json" },
		{ offsetof(struct nd_facts, rss.st), "netlink", "ethtool/%s.json" },
		{ offsetof(struct nd_facts, nicstats.st), "ethtool ioctl", "ethtool/%s.json" },
		{ offsetof(struct nd_facts, drvinfo.st), "ethtool ioctl", "ethtool/%s.json" },
		{ offsetof(struct nd_facts, pci.st), "libpci (sys/bus/pci)", "libpci (sys/bus/pci)" },
		{ offsetof(struct nd_facts, queues.st), "/sys/class/net/%s/queues",
		  "/sys/class/net/%s/queues" },
		{ offsetof(struct nd_facts, irqs.st), "/proc/interrupts", "/proc/interrupts" },
		{ offsetof(struct nd_facts, softnet.st), "/proc/net/softnet_stat",
		  "/proc/net/softnet_stat" },
		{ offsetof(struct nd_facts, cpus.st), "/sys/devices/system/cpu",
		  "/sys/devices/system/cpu" },
	};
	struct nd_sysctl *ctl = (struct nd_sysctl *)&facts->sysctl;
	bool live = nd_source_is_live(src), bundle_paths = src->ops->bundle_paths;

	for (size_t i = 0; i < ND_ARRAY_SIZE(table); i++) {
		struct nd_status *st = (struct nd_status *)((char *)facts + table[i].offset);
		const char *fmt = live ? table[i].live : table[i].tree;

		/* A bundle's files are named as the bundle names them. */
		if (!st->source[0] && st->known)
			snprintf(st->source, sizeof(st->source), fmt, ifname);
		if (bundle_paths && st->source[0] == '/')
			memmove(st->source, st->source + 1, strlen(st->source));
	}
	/* proc/sys copied into a bundle: named as the bundle names it. */
	for (size_t i = 0; bundle_paths && i < sizeof(facts->sysctl) / sizeof(*ctl); i++)
		if (ctl[i].source[0] == '/')
			memmove(ctl[i].source, ctl[i].source + 1, strlen(ctl[i].source));
}

static void probe_host(const struct nd_root *root, struct nd_facts *facts)
{
	if (nd_sysroot_read_line(root, "/proc/sys/kernel/hostname", facts->hostname,
				 sizeof(facts->hostname)) < 0)
		nd_strlcpy(facts->hostname, "unknown", sizeof(facts->hostname));
	if (nd_sysroot_read_line(root, "/proc/sys/kernel/osrelease", facts->kernel,
				 sizeof(facts->kernel)) < 0)
		nd_strlcpy(facts->kernel, "unknown", sizeof(facts->kernel));
}

int nd_probe(struct nd_source *src, const char *ifname, struct nd_facts **ret_facts)
{
	const struct nd_root *root = src->root;
	bool live = nd_source_is_live(src);
	struct nd_facts *facts;

	if (!nd_source_iface_exists(src, ifname))
		return -ENODEV;
	facts = calloc(1, sizeof(*facts));
	if (!facts)
		return -ENOMEM;
	nd_strlcpy(facts->ifname, ifname, sizeof(facts->ifname));
	facts->sysroot = !live;
	if (!live)
		nd_strlcpy(facts->origin, src->description[0] ? src->description : "a snapshot",
			   sizeof(facts->origin));
	facts->as_root = live && geteuid() == 0;
	probe_host(root, facts);
	src->ops->fill_netlink(src, ifname, facts);
	src->ops->fill_pci(src, ifname, facts);
	for (size_t i = 0; i < ND_ARRAY_SIZE(common_readers); i++)
		common_readers[i](root, ifname, facts);
	nd_probe_link_sysfs(root, ifname, facts);
	if (src->ops->fill_gaps)
		src->ops->fill_gaps(src, ifname, facts);
	default_sources(src, ifname, facts);
	/* Names, versions and reasons from a snapshot or a driver may hold
	 * terminal controls or invalid UTF-8: cleaned once, for every report. */
	nd_facts_sanitize(facts);
	*ret_facts = facts;
	return 0;
}
