/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * live.c - the source for this host: netlink and the ethtool ioctls for
 * the link, qdisc, ethtool groups and driver, libpci on /sys/bus/pci, and
 * the running kernel's /sys and /proc for the rest, through a live root
 * of its own (so that collect can record on it).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "nicdoctor/common.h"
#include "nicdoctor/probe.h"
#include "nicdoctor/sysroot.h"
#include "source_ops.h"

static int live_open(struct nd_source *src)
{
	return nd_root_open(NULL, &src->root);
}

static void live_fill_netlink(struct nd_source *src, const char *ifname, struct nd_facts *facts)
{
	nd_probe_rtnl(src->root, ifname, facts);
	nd_probe_ethtool(src->root, ifname, facts);
	nd_probe_drvinfo(src->root, ifname, facts);
}

/*
 * ND_TEST_PCI_SYSROOT=DIR (a test seam, documented in README's testing
 * section): on a live run the PCI group alone is read from the fixture
 * tree DIR, through a root opened on it for this read, so a test can give
 * the virtual ports it sends real traffic through the functions of a real
 * dual-port card (t8104).
 */
static void live_fill_pci(struct nd_source *src, const char *ifname, struct nd_facts *facts)
{
	const char *seam = getenv("ND_TEST_PCI_SYSROOT");
	struct nd_root *pci_root;
	int r;

	if (!seam || !*seam) {
		nd_probe_pci(src->root, ifname, facts);
		return;
	}
	r = nd_root_open(seam, &pci_root);
	if (r < 0) {
		nd_status_set_unknown(&facts->pci.st, "ND_TEST_PCI_SYSROOT '%s': %s", seam,
				      strerror(-r));
		return;
	}
	nd_probe_pci(pci_root, ifname, facts);
	nd_root_close(pci_root);
}

static void live_describe(const struct nd_source *src, char *buf, size_t size)
{
	(void)src;
	nd_strlcpy(buf, "the live host", size);
}

static void live_close(struct nd_source *src)
{
	nd_root_close(src->root);
}

const struct nd_source_ops nd_source_live = {
	.name = "live",
	.noun = "the live host",
	.open = live_open,
	.fill_netlink = live_fill_netlink,
	.fill_pci = live_fill_pci,
	.describe = live_describe,
	.close = live_close,
};
