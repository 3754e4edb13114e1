/*
 * probe.c - runs every probe source for one interface.
 *
 * Live, netlink sources ask the kernel; in a sysroot they are replaced by
 * the snapshot reader (DIR/ethtool/IF.json) or, for a sosreport, by its
 * record source (sos.c), and every other source reads the tree's /sys and
 * /proc files through the sysroot seam.  Where netlink said nothing the
 * link group comes from /sys/class/net/IF (link_sysfs.c).
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dirent.h>

#include "nicdoctor/bundle.h"
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
	{ "bond", false, nd_probe_bond },
};

static struct {
	int kind;
	char description[sizeof(((struct nd_facts *)0)->origin)];
} origin;

static const struct nd_record_source *const records[] = { &nd_record_sos };

void nd_probe_set_origin(int bundle_kind, const char *description)
{
	origin.kind = bundle_kind;
	nd_strlcpy(origin.description, description, sizeof(origin.description));
}

const struct nd_record_source *nd_probe_record(void)
{
	if (nd_sysroot_is_live())
		return NULL;
	for (size_t i = 0; i < ND_ARRAY_SIZE(records); i++)
		if (records[i]->bundle_kind == origin.kind)
			return records[i];
	return NULL;
}

const char *nd_probe_origin_noun(void)
{
	const struct nd_record_source *rec = nd_probe_record();

	return rec ? rec->noun : "the snapshot";
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(a, b);
}

int nd_probe_list_ifaces(char (*names)[ND_IFNAMSIZ], unsigned max, unsigned *ret_count)
{
	const struct nd_record_source *rec = nd_probe_record();
	unsigned count = 0, unique = 0;
	struct dirent *ent;
	DIR *dir = nd_sysroot_opendir("/sys/class/net");

	while (dir && count < max && (ent = readdir(dir)) != NULL)
		if (ent->d_name[0] != '.' && nd_ifname_valid(ent->d_name) == 0)
			nd_strlcpy(names[count++], ent->d_name, ND_IFNAMSIZ);
	if (dir)
		closedir(dir);
	if (rec && rec->list_ifaces) {
		unsigned more = 0;

		if (rec->list_ifaces(names + count, max - count, &more) == 0)
			count += more;
	}
	qsort(names, count, ND_IFNAMSIZ, cmp_names);
	for (unsigned i = 0; i < count; i++)
		if (!unique || strcmp(names[unique - 1], names[i]))
			memmove(names[unique++], names[i], ND_IFNAMSIZ);
	*ret_count = unique;
	return 0;
}

/* Where each group came from when its source did not say (live kernel or
 * a plain tree), so that every fact names its origin in the evidence. */
static void default_sources(const char *ifname, struct nd_facts *facts, bool live)
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

	for (size_t i = 0; i < ND_ARRAY_SIZE(table); i++) {
		struct nd_status *st = (struct nd_status *)((char *)facts + table[i].offset);
		const char *fmt = live ? table[i].live : table[i].tree;

		/* A bundle's files are named as the bundle names them. */
		if (!st->source[0] && st->known)
			snprintf(st->source, sizeof(st->source), fmt, ifname);
		if (nd_probe_record() && st->source[0] == '/')
			memmove(st->source, st->source + 1, strlen(st->source));
	}
	/* proc/sys copied into a bundle: named as the bundle names it. */
	for (size_t i = 0; nd_probe_record() && i < sizeof(facts->sysctl) / sizeof(*ctl); i++)
		if (ctl[i].source[0] == '/')
			memmove(ctl[i].source, ctl[i].source + 1, strlen(ctl[i].source));
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

/*
 * ND_TEST_PCI_SYSROOT=DIR (a test seam, documented in README's testing
 * section): on a live run the PCI group alone is read from the fixture
 * tree DIR, so a test can give the virtual ports it sends real traffic
 * through the functions of a real dual-port card (t8104).
 */
static void probe_pci(const char *ifname, struct nd_facts *facts, bool live)
{
	const char *seam = live ? getenv("ND_TEST_PCI_SYSROOT") : NULL;
	int r;

	if (!seam || !*seam) {
		nd_probe_pci(ifname, facts);
		return;
	}
	r = nd_sysroot_set(seam);
	if (r < 0) {
		nd_status_set_unknown(&facts->pci.st, "ND_TEST_PCI_SYSROOT '%s': %s", seam,
				      strerror(-r));
		return;
	}
	nd_probe_pci(ifname, facts);
	nd_sysroot_set("/");
}

int nd_probe(const char *ifname, struct nd_facts **ret_facts)
{
	bool live = nd_sysroot_is_live();
	const struct nd_record_source *rec;
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
	rec = nd_probe_record();
	if (rec)
		rec->fill_netlink(ifname, facts);
	else if (!live)
		nd_probe_snapshot(ifname, facts);
	for (size_t i = 0; i < ND_ARRAY_SIZE(sources); i++) {
		if (!live && sources[i].needs_live_kernel)
			continue;
		if (rec && rec->fill_pci && sources[i].probe == nd_probe_pci)
			rec->fill_pci(ifname, facts);
		else if (sources[i].probe == nd_probe_pci)
			probe_pci(ifname, facts, live);
		else
			sources[i].probe(ifname, facts);
	}
	nd_probe_link_sysfs(ifname, facts);
	if (rec && rec->fill_gaps)
		rec->fill_gaps(ifname, facts);
	default_sources(ifname, facts, live);
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
