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
 * names the bridges), else ethtool -i's bus-info.  Without either record
 * of the function, the kernel's own verdict in its log ("N Gb/s available
 * PCIe bandwidth ...", sos_commands/kernel/dmesg and the like) is the
 * link; with one, a verdict that says otherwise is kept for the evidence.
 * The card's other functions (same bus and device) come from the same
 * records.  A platform device (ethtool -i's bus-info "f1070000.ethernet")
 * has no PCIe link at all.
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

/* true when the symlink says the netdev is virtual (/sys/devices/virtual);
 * *ret_platform when it hangs below /sys/devices/platform/ with no PCI
 * function on the way. */
static bool path_from_symlink(const struct nd_root *root, const char *ifname, struct pci_path *path,
			      bool *ret_platform)
{
	char link[64], canon[PATH_MAX], comp[NAME_MAX + 1];
	const char *rest = canon;

	path->count = 0;
	*ret_platform = false;
	snprintf(link, sizeof(link), "/sys/class/net/%s", ifname);
	if (nd_probe_resolve(root, link, canon, sizeof(canon)) < 0)
		return false;
	while (nd_path_next_component(&rest, comp, sizeof(comp)) == 1)
		if (nd_probe_is_pci_address(comp) && path->count < ND_ARRAY_SIZE(path->addr))
			nd_strlcpy(path->addr[path->count++], comp, sizeof(path->addr[0]));
	*ret_platform = !path->count && !strncmp(canon, "/sys/devices/platform/", 22);
	return !strncmp(canon, "/sys/devices/virtual/", 21);
}

/* A platform (SoC) device's name as ethtool -i's bus-info gives it: its
 * register address and a name, "f1070000.ethernet", "fe300000.ethernet". */
static bool platform_bus_info(const char *bus)
{
	size_t hex = strspn(bus, "0123456789abcdefABCDEF");

	return hex >= 4 && bus[hex] == '.' && bus[hex + 1] &&
	       strspn(bus + hex + 1, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		      "0123456789_-") == strlen(bus + hex + 1);
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

/* ---- the kernel's verdict ---- */

static const char *const kernel_logs[] = {
	"sos_commands/kernel/dmesg", "var/log/dmesg", "sos_commands/logs/journalctl_--no-pager",
	"sos_commands/logs/journalctl_--no-pager_--catalog_--boot", "boot.txt",
	"var/log/kern.log", "var/log/messages",
};

/* The kernel logs of the bundle, each read once (a journal may be large)
 * for the function and each of its siblings. */
struct klog_cache {
	const struct nd_root *root;
	bool tried[ND_ARRAY_SIZE(kernel_logs)];
	char *text[ND_ARRAY_SIZE(kernel_logs)];
	size_t len[ND_ARRAY_SIZE(kernel_logs)];
};

static void kernel_logs_free(struct klog_cache *kl)
{
	for (size_t i = 0; i < ND_ARRAY_SIZE(kernel_logs); i++)
		free(kl->text[i]);
}

/* The last verdict on `address` in the first kernel log holding one. */
static int kernel_verdict(struct klog_cache *kl, const char *address,
			  struct nd_kernel_pcie *k, const char **ret_log)
{
	for (size_t i = 0; i < ND_ARRAY_SIZE(kernel_logs); i++) {
		if (!kl->tried[i]) {
			kl->tried[i] = true;
			if (nd_sos_read(kl->root, kernel_logs[i], &kl->text[i], &kl->len[i]) < 0)
				kl->text[i] = NULL;
		}
		if (kl->text[i] && nd_parse_kernel_pcie(kl->text[i], kl->len[i], address, k) == 0) {
			*ret_log = kernel_logs[i];
			return 0;
		}
	}
	return -ENOENT;
}

/* The function as the kernel saw it: its link (the narrowest on its path
 * when "limited by" names a port above it: that port's link is the one
 * the device's traffic crosses) and what it is capable of; ixgbe's line
 * says no capability, so the trained link stands for it. */
static void link_from_kernel(const struct nd_kernel_pcie *k, struct nd_pcie_link *link)
{
	memset(link, 0, sizeof(*link));
	nd_strlcpy(link->address, k->address, sizeof(link->address));
	link->is_pcie = true;
	link->link_known = true;
	link->sta_gts = k->gts;
	link->sta_width = k->width;
	link->cap_gts = k->cap_gts > 0 ? k->cap_gts : k->gts;
	link->cap_width = k->cap_width ? k->cap_width : k->width;
	/* "limited by" without "capable of" (cut short), or ixgbe's line. */
	link->cap_from_sta = k->limited ? !k->cap_width : k->avail_gbps <= 0;
}

static bool same_gts(double a, double b)
{
	return a - b < 0.05 && b - a < 0.05;
}

/* The kernel's words for the evidence, and what the other record says
 * otherwise: the kernel's link against LnkSta (of the port it names, when
 * the bundle has that port), its capability against LnkCap. */
static void note_kernel(struct klog_cache *kl, struct nd_pci *pci, const char *source)
{
	struct nd_kernel_pcie k;
	const struct nd_pcie_link *at = &pci->dev;
	const char *log;
	bool other_port;

	if (kernel_verdict(kl, pci->dev.address, &k, &log) < 0)
		return;
	nd_strlcpy(pci->kernel_said, k.words, sizeof(pci->kernel_said));
	snprintf(pci->kernel_source, sizeof(pci->kernel_source), "%s line %u", log, k.line);
	pci->kernel_need_gts = k.need_gts;
	pci->link_from_log = !source;
	if (!source || !pci->dev.link_known)
		return;
	for (unsigned i = 0; k.limited && i < pci->n_upstream && i < ND_MAX_PCI_CHAIN; i++)
		if (!strcmp(pci->upstream[i].address, k.limited_at) && pci->upstream[i].link_known)
			at = &pci->upstream[i];
	/* A limit at a port the bundle does not record bounds the device's
	 * own link from below only: it disagrees when narrower than that. */
	other_port = k.limited && at == &pci->dev && strcmp(k.limited_at, pci->dev.address);
	if (other_port ? at->sta_gts * at->sta_width + 0.05 < k.gts * k.width :
			 !same_gts(at->sta_gts, k.gts) || at->sta_width != k.width)
		snprintf(pci->kernel_disagrees, sizeof(pci->kernel_disagrees),
			 "the kernel's log has %gGT/s x%u%s%s where '%s' has LnkSta %gGT/s x%u "
			 "(%s): the link changed since boot", k.gts, k.width,
			 k.limited_at[0] ? " at " : "", k.limited_at, source, at->sta_gts,
			 at->sta_width, at->address);
	else if (k.cap_width && (!same_gts(pci->dev.cap_gts, k.cap_gts) ||
				 pci->dev.cap_width != k.cap_width))
		snprintf(pci->kernel_disagrees, sizeof(pci->kernel_disagrees),
			 "the kernel's log has the device capable of %gGT/s x%u where '%s' has "
			 "LnkCap %gGT/s x%u", k.cap_gts, k.cap_width, source, pci->dev.cap_gts,
			 pci->dev.cap_width);
}

/* ---- the card's other functions ---- */

/* Functions 0-7 of the same bus and device, each from the records the
 * device came from (config bytes, lspci text: one block per address, so
 * a block lspci printed twice counts once) or else the kernel's log. */
static void fill_siblings(const struct nd_root *root, struct klog_cache *kl, struct nd_pci *pci,
			  bool from_kernel)
{
	unsigned domain, bus, dev, func;

	if (sscanf(pci->dev.address, "%x:%x:%x.%x", &domain, &bus, &dev, &func) != 4)
		return;
	for (unsigned f = 0; f < 8 && pci->n_siblings < ND_MAX_SIBLINGS; f++) {
		struct nd_pcie_link *sib = &pci->siblings[pci->n_siblings];
		struct nd_kernel_pcie k;
		char address[16], ignored[96];
		const char *log;

		if (f == func)
			continue;
		snprintf(address, sizeof(address), "%04x:%02x:%02x.%x", domain, bus, dev, f);
		if (!from_kernel && fill_one(root, address, sib, ignored, sizeof(ignored)) == 0) {
			pci->n_siblings++;
			continue;
		}
		if (kernel_verdict(kl, address, &k, &log) == 0) {
			link_from_kernel(&k, sib);
			pci->n_siblings++;
		} else {
			memset(sib, 0, sizeof(*sib));
		}
	}
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
	const char *bus = facts->drvinfo.st.known ? facts->drvinfo.bus_info : "";
	struct klog_cache kl = { .root = src->root };
	struct nd_kernel_pcie k;
	struct pci_path path;
	const char *address, *log;
	char source[sizeof(pci->st.source)] = "", why[ND_REASON_LEN];
	bool virtual, platform;

	memset(pci, 0, sizeof(*pci));
	pci->numa_node = -1;
	virtual = path_from_symlink(root, ifname, &path, &platform);
	if (!path.count && nd_probe_is_pci_address(bus))
		nd_strlcpy(path.addr[path.count++], bus, sizeof(path.addr[0]));
	if (!path.count) {
		if (platform || platform_bus_info(bus)) {
			/* A SoC's MAC on the platform bus: no PCIe link to judge. */
			pci->no_device = true;
			nd_status_set_unknown(&pci->st, "platform device%s%s, no PCIe link",
					      platform_bus_info(bus) ? " " : "",
					      platform_bus_info(bus) ? bus : "");
		} else if (virtual || (facts->drvinfo.st.known && !bus[0])) {
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
		/* Neither config bytes nor lspci: the kernel's log, if it spoke. */
		nd_strlcpy(why, pci->dev.link_reason, sizeof(why));
		if (kernel_verdict(&kl, address, &k, &log) < 0) {
			nd_status_set_unknown(&pci->st, "%s", why);
			kernel_logs_free(&kl);
			return;
		}
		link_from_kernel(&k, &pci->dev);
		nd_strlcpy(source, log, sizeof(source));
		note_kernel(&kl, pci, NULL);
		fill_siblings(root, &kl, pci, true);
		kernel_logs_free(&kl);
		pci->numa_node = read_numa(root, ifname);
		nd_status_set_known(&pci->st);
		nd_strlcpy(pci->st.source, source, sizeof(pci->st.source));
		return;
	}
	pci->numa_node = read_numa(root, ifname);
	for (unsigned i = path.count - 1; i-- > 0 && pci->n_upstream < ND_MAX_PCI_CHAIN;) {
		char ignored[sizeof(source)];

		fill_one(root, path.addr[i], &pci->upstream[pci->n_upstream++], ignored,
			 sizeof(ignored));
	}
	fill_siblings(root, &kl, pci, false);
	note_kernel(&kl, pci, source);
	kernel_logs_free(&kl);
	nd_status_set_known(&pci->st);
	nd_strlcpy(pci->st.source, source, sizeof(pci->st.source));
}
