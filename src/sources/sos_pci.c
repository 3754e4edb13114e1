/*
 * sos_pci.c - PCI facts from a sosreport: the NIC's function and the
 * bridges above it.
 *
 * sos copies /proc/bus/pci, so the binary config space of each function is
 * in proc/bus/pci/BB/DD.F (DDDD:BB/DD.F for a domain other than 0).  Those
 * bytes go through the one decoder (pci.c, libpci's linux-proc method with
 * proc.path at the bundle's copy) when they reach the PCI Express
 * capability; otherwise the function comes from lspci's text
 * (sos_commands/pci/lspci_-nnvv, older lspci_-nvv or lspci).  The address
 * is the PCI part of the sys/class/net/IF symlink's target (which also
 * names the bridges), else ethtool -i's bus-info.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicdoctor/common.h"
#include "nicdoctor/parse_text.h"
#include "nicdoctor/probe.h"
#include "nicdoctor/sysroot.h"
#include "nicdoctor/pci_access.h"
#include "sos.h"
#include "source_ops.h"
#include "nicdoctor/sysfs_util.h"

/* Addresses along the symlink's path, root port first, the function last. */
struct pci_path {
	unsigned count;
	char addr[ND_MAX_PCI_CHAIN + 1][16];
};

/* true when the symlink says the netdev is virtual (/sys/devices/virtual). */
static bool path_from_symlink(const struct nd_root *root, const char *ifname, struct pci_path *path)
{
	char link[64], canon[PATH_MAX], comp[NAME_MAX + 1];
	const char *rest = canon;

	path->count = 0;
	snprintf(link, sizeof(link), "/sys/class/net/%s", ifname);
	if (nd_probe_resolve(root, link, canon, sizeof(canon)) < 0)
		return false;
	while (nd_path_next_component(&rest, comp, sizeof(comp)) == 1)
		if (nd_probe_is_pci_address(comp) && path->count < ND_ARRAY_SIZE(path->addr))
			nd_strlcpy(path->addr[path->count++], comp, sizeof(path->addr[0]));
	return !strncmp(canon, "/sys/devices/virtual/", 21);
}

struct proc_decode {
	const struct nd_root *root;
	unsigned domain, bus, dev, func;
	struct nd_pcie_link *link;
};

static void decode_cb(struct pci_access *pacc, void *arg)
{
	struct proc_decode *p = arg;
	struct pci_dev *d = pci_get_dev(pacc, (int)p->domain, (int)p->bus, (int)p->dev, (int)p->func);

	if (!d)
		return;
	nd_pci_fill_function(p->root, pacc, d, NULL, p->link);
	pci_free_dev(d);
}

/* The function from its recorded config bytes.  0 when they reach the
 * PCI Express link registers (or hold a whole header without that
 * capability); negative errno with the reason in link->link_reason. */
static int from_proc(const struct nd_root *root, const char *address, struct nd_pcie_link *link,
		     char *source, size_t size)
{
	struct proc_decode p = { .root = root, .link = link };
	char dir[48], file[64], host_dir[PATH_MAX], why[ND_REASON_LEN] = "";
	int r;

	if (sscanf(address, "%x:%x:%x.%x", &p.domain, &p.bus, &p.dev, &p.func) != 4)
		return -EINVAL;
	if (p.domain)
		snprintf(dir, sizeof(dir), "/proc/bus/pci/%04x:%02x", p.domain, p.bus);
	else
		snprintf(dir, sizeof(dir), "/proc/bus/pci/%02x", p.bus);
	snprintf(file, sizeof(file), "%s/%02x.%x", dir, p.dev, p.func);
	if (!nd_sysroot_exists(root, file))
		return -ENOENT;
	/* libpci opens proc.path/BB/DD.F itself: each step must stay inside. */
	r = nd_probe_host_path_confined(root, "/proc/bus/pci", false, why, sizeof(why));
	if (r == 0)
		r = nd_probe_host_path_confined(root, dir, false, why, sizeof(why));
	if (r == 0)
		r = nd_probe_host_path_confined(root, file, false, why, sizeof(why));
	if (r == 0)
		r = nd_sysroot_path(root, host_dir, sizeof(host_dir), "/proc/bus/pci");
	if (r < 0) {
		snprintf(link->link_reason, sizeof(link->link_reason), "'%s' not read: %s", file + 1,
			 why[0] ? why : strerror(-r));
		return r;
	}
	memset(link, 0, sizeof(*link));
	if (nd_pci_run(PCI_ACCESS_PROC_BUS_PCI, "proc.path", host_dir, decode_cb, &p, why,
		       sizeof(why)) < 0) {
		nd_strlcpy(link->link_reason, why, sizeof(link->link_reason));
		return -EIO;
	}
	nd_strlcpy(source, file + 1, size);
	if (link->link_known || (!link->is_pcie && strstr(link->link_reason, "no PCI Express")))
		return 0;
	return -ENODATA;
}

static const char *const lspci_files[] = {
	"sos_commands/pci/lspci_-nnvv", "sos_commands/pci/lspci_-nvv", "lspci",
	"sos_commands/pci/lspci",
};

static int from_lspci(const struct nd_root *root, const char *address, struct nd_pcie_link *link,
		      char *source, size_t size)
{
	struct nd_lspci_block block;
	const char *name = lspci_files[0];
	char *text = NULL;
	size_t len = 0;
	int r = nd_sos_read_first(root, lspci_files, ND_ARRAY_SIZE(lspci_files), &text, &len,
				  &name);

	if (r < 0)
		return r;
	r = nd_lspci_find(text, len, address, &block);
	if (r == 0)
		r = nd_parse_lspci_device(block.text, block.len, link);
	free(text);
	if (r < 0)
		return r;
	nd_strlcpy(source, name, size);
	/* Only a capability list without Express says "not PCIe"; no list
	 * (plain lspci, no root) leaves the link unread. */
	if (!link->link_known && !link->is_pcie && !strstr(link->link_reason, "no PCI Express"))
		return -ENODATA;
	return 0;
}

/* Bytes first, lspci's text second; 0 when either gave the function. */
static int fill_one(const struct nd_root *root, const char *address, struct nd_pcie_link *link,
		    char *source, size_t size)
{
	char proc_reason[ND_REASON_LEN] = "";
	int r = from_proc(root, address, link, source, size);

	if (r == 0)
		return 0;
	if (r != -ENOENT)
		nd_strlcpy(proc_reason, link->link_reason, sizeof(proc_reason));
	memset(link, 0, sizeof(*link));
	r = from_lspci(root, address, link, source, size);
	if (r == -ENODATA) {
		char why[ND_REASON_LEN];

		nd_strlcpy(why, link->link_reason, sizeof(why));
		memset(link, 0, sizeof(*link));
		/* A reason cut short still names the function and the file first. */
		if (snprintf(link->link_reason, sizeof(link->link_reason), "%s in '%s': %s%s%s",
			     address, source, why, proc_reason[0] ? "; " : "",
			     proc_reason) >= (int)sizeof(link->link_reason))
			link->link_reason[sizeof(link->link_reason) - 1] = '\0';
		source[0] = '\0';
	} else if (r < 0) {
		memset(link, 0, sizeof(*link));
		snprintf(link->link_reason, sizeof(link->link_reason),
			 "%s%s%s not in the sosreport's proc/bus/pci nor its lspci -vv text",
			 proc_reason, proc_reason[0] ? "; " : "", address);
	}
	nd_strlcpy(link->address, address, sizeof(link->address));
	return r;
}

static int read_numa(const struct nd_root *root, const char *ifname)
{
	char path[64], text[16], *end;
	long node;

	snprintf(path, sizeof(path), "/sys/class/net/%s/device/numa_node", ifname);
	if (nd_sysroot_read_line(root, path, text, sizeof(text)) < 0)
		return -1;
	node = strtol(text, &end, 10);
	return end == text || node < 0 || node > 4096 ? -1 : (int)node;
}

void nd_sos_fill_pci(struct nd_source *src, const char *ifname, struct nd_facts *facts)
{
	const struct nd_root *root = src->root;
	struct nd_pci *pci = &facts->pci;
	struct pci_path path;
	const char *address;
	char source[sizeof(pci->st.source)] = "";
	bool virtual;

	memset(pci, 0, sizeof(*pci));
	pci->numa_node = -1;
	virtual = path_from_symlink(root, ifname, &path);
	if (!path.count && facts->drvinfo.st.known && nd_probe_is_pci_address(facts->drvinfo.bus_info))
		nd_strlcpy(path.addr[path.count++], facts->drvinfo.bus_info, sizeof(path.addr[0]));
	if (!path.count) {
		if (virtual || (facts->drvinfo.st.known && !facts->drvinfo.bus_info[0])) {
			/* ethtool -i named no bus, or the netdev sits below
			 * /sys/devices/virtual: there is no PCI function. */
			pci->no_device = true;
			nd_status_set_unknown(&pci->st, "no PCI device (virtual interface)");
		} else {
			nd_status_set_unknown(&pci->st, "the sosreport names no PCI address for '%s' "
					      "(no ethtool_-i_%s, no sys/class/net/%s)",
					      ifname, ifname, ifname);
		}
		return;
	}
	address = path.addr[path.count - 1];
	if (fill_one(root, address, &pci->dev, source, sizeof(source)) < 0) {
		nd_status_set_unknown(&pci->st, "%s", pci->dev.link_reason);
		return;
	}
	pci->numa_node = read_numa(root, ifname);
	for (unsigned i = path.count - 1; i-- > 0 && pci->n_upstream < ND_MAX_PCI_CHAIN;) {
		char ignored[sizeof(source)];

		fill_one(root, path.addr[i], &pci->upstream[pci->n_upstream++], ignored,
			 sizeof(ignored));
	}
	nd_status_set_known(&pci->st);
	nd_strlcpy(pci->st.source, source, sizeof(pci->st.source));
}
