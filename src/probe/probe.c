/*
 * probe.c - runs every probe source for one interface.
 *
 * Live, netlink sources ask the kernel; in a sysroot they are replaced by
 * the snapshot reader (DIR/ethtool/IF.json), and every other source reads
 * the snapshot's /sys and /proc files through the sysroot seam.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nicdoctor/common.h"
#include "nicdoctor/probe.h"
#include "nicdoctor/sanitize.h"
#include "nicdoctor/sysroot.h"

static const struct nd_probe_source sources[] = {
	{ "rtnl", true, nd_probe_rtnl },
	{ "ethtool", true, nd_probe_ethtool },
	{ "drvinfo", true, nd_probe_drvinfo },
	{ "pci", false, nd_probe_pci },
	{ "queues", false, nd_probe_queues },
	/* After rtnl, drvinfo, queues; before irqs, which takes its napi IRQs. */
	{ "queue_table", false, nd_probe_queue_table },
	{ "irqs", false, nd_probe_irqs },
	{ "softnet", false, nd_probe_softnet },
	{ "sysctls", false, nd_probe_sysctls },
	{ "cpus", false, nd_probe_cpus },
	{ "tools", false, nd_probe_tools },
};

static struct {
	int kind;
	char description[sizeof(((struct nd_facts *)0)->origin)];
} origin;

void nd_probe_set_origin(int bundle_kind, const char *description)
{
	origin.kind = bundle_kind;
	nd_strlcpy(origin.description, description, sizeof(origin.description));
}

static void probe_host(struct nd_facts *facts)
{
	if (nd_sysroot_read_line("/proc/sys/kernel/hostname", facts->hostname,
				 sizeof(facts->hostname)) < 0)
		nd_strlcpy(facts->hostname, "unknown", sizeof(facts->hostname));
	if (nd_sysroot_read_line("/proc/sys/kernel/osrelease", facts->kernel,
				 sizeof(facts->kernel)) < 0)
		nd_strlcpy(facts->kernel, "unknown", sizeof(facts->kernel));
}

int nd_probe(const char *ifname, struct nd_facts **ret_facts)
{
	bool live = nd_sysroot_is_live();
	struct nd_facts *facts;

	if (!nd_probe_iface_exists(ifname))
		return -ENODEV;
	facts = calloc(1, sizeof(*facts));
	if (!facts)
		return -ENOMEM;
	nd_strlcpy(facts->ifname, ifname, sizeof(facts->ifname));
	facts->sysroot = !live;
	if (!live)
		nd_strlcpy(facts->origin, origin.description[0] ? origin.description : "a snapshot",
			   sizeof(facts->origin));
	facts->as_root = live && geteuid() == 0;
	probe_host(facts);
	if (!live)
		nd_probe_snapshot(ifname, facts);
	for (size_t i = 0; i < ND_ARRAY_SIZE(sources); i++)
		if (live || !sources[i].needs_live_kernel)
			sources[i].probe(ifname, facts);
	/* Names, versions and reasons from a snapshot or a driver may hold
	 * terminal controls or invalid UTF-8: cleaned once, for every report. */
	nd_facts_sanitize(facts);
	*ret_facts = facts;
	return 0;
}

void nd_facts_free(struct nd_facts *facts)
{
	free(facts);
}
