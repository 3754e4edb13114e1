/*
 * pci.c - the "pci" probe source: the NIC's PCI function, the bridges above
 * it up to the root port and its sibling functions, through libpci's sysfs
 * backend pointed at <sysroot>/sys/bus/pci.
 *
 * For each function: IDs and names, NUMA node, and from the PCI Express
 * capability the port type, LnkCap/LnkCap2/LnkSta speed and width, the
 * max payload size (DevCap supported, DevCtl in use) and ASPM (LnkCap's
 * states and exit latencies, LnkCtl's enabled states, DevCap's acceptable
 * latencies).  Without root the
 * kernel lets us read only the first 64 bytes of config space, so the link
 * comes from sysfs current_link_* / max_link_* instead (from_sysfs).
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pci/pci.h>

#include "nicdoctor/common.h"
#include "nicdoctor/probe.h"
#include "nicdoctor/sysroot.h"
#include "nicdoctor/pci_access.h"
#include "nicdoctor/sysfs_util.h"

#define CONFIG_HEADER_BYTES 64

/*
 * libpci reports fatal errors through a callback that must not return and
 * gets no context pointer, so the only way back is a jump; it is
 * thread-local so that concurrent probes do not share it.
 */
static _Thread_local jmp_buf *pci_error_jump;
static _Thread_local char pci_error_text[ND_REASON_LEN];

static void __attribute__((noreturn, format(printf, 1, 2))) pci_error_cb(char *msg, ...)
{
	va_list ap;

	va_start(ap, msg);
	vsnprintf(pci_error_text, sizeof(pci_error_text), msg, ap);
	va_end(ap);
	longjmp(*pci_error_jump, 1);
}

static void __attribute__((format(printf, 1, 2))) pci_quiet_cb(char *msg, ...)
{
	(void)msg;
}

/* LnkCap/LnkSta speed code -> GT/s per lane; 0 for reserved codes. */
static double speed_code_gts(unsigned code)
{
	static const double gts[] = { 0, 2.5, 5, 8, 16, 32, 64 };

	return code < ND_ARRAY_SIZE(gts) ? gts[code] : 0;
}

static const char *port_type_name(unsigned type)
{
	switch (type) {
	case PCI_EXP_TYPE_ENDPOINT:	return "endpoint";
	case PCI_EXP_TYPE_LEG_END:	return "legacy_endpoint";
	case PCI_EXP_TYPE_ROOT_PORT:	return "root_port";
	case PCI_EXP_TYPE_UPSTREAM:	return "upstream";
	case PCI_EXP_TYPE_DOWNSTREAM:	return "downstream";
	case PCI_EXP_TYPE_PCI_BRIDGE:	return "pci_bridge";
	case PCI_EXP_TYPE_PCIE_BRIDGE:	return "pcie_bridge";
	case PCI_EXP_TYPE_ROOT_INT_EP:	return "rc_endpoint";
	case PCI_EXP_TYPE_ROOT_EC:	return "rc_event_collector";
	default:			return "";
	}
}

/* "8.0 GT/s PCIe" -> 8.0; "Unknown" or unreadable -> 0. */
static double read_sysfs_speed(const struct nd_root *root, const char *dir, const char *file)
{
	char path[PATH_MAX], text[64], *end;
	double gts;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if (nd_sysroot_read_line(root, path, text, sizeof(text)) < 0)
		return 0;
	gts = strtod(text, &end);
	return end == text || gts <= 0 || gts > 1024 ? 0 : gts;
}

static unsigned read_sysfs_width(const struct nd_root *root, const char *dir, const char *file)
{
	char path[PATH_MAX];
	unsigned long long width;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if (nd_probe_read_unsigned(root, path, &width) < 0 || width > 32)
		return 0;
	return (unsigned)width;
}

/* The link from sysfs attributes, when config space is closed to us. */
static void fill_link_from_sysfs(const struct nd_root *root, const char *dir,
				 struct nd_pcie_link *link, const char *why)
{
	link->sta_gts = read_sysfs_speed(root, dir, "current_link_speed");
	link->sta_width = read_sysfs_width(root, dir, "current_link_width");
	link->cap_gts = read_sysfs_speed(root, dir, "max_link_speed");
	link->cap_width = read_sysfs_width(root, dir, "max_link_width");
	link->from_sysfs = true;
	link->link_known = link->sta_gts > 0 && link->sta_width > 0;
	/* The kernel creates current_link_* only for PCI Express functions. */
	link->is_pcie = link->link_known;
	if (link->link_known)
		snprintf(link->link_reason, sizeof(link->link_reason),
			 "%s; link from sysfs current_link_*, max payload unknown", why);
	else
		snprintf(link->link_reason, sizeof(link->link_reason),
			 "%s; no readable current_link_speed/current_link_width in '%s'", why, dir);
}

/* ASPM's registers as the spec's codes (struct nd_pcie_aspm).  DevCap's
 * acceptable latencies are defined for endpoints only. */
static void fill_aspm(uint32_t devcap, uint32_t lnkcap, unsigned lnkctl, unsigned type,
		      struct nd_pcie_aspm *aspm)
{
	unsigned support = (lnkcap & PCI_EXP_LNKCAP_ASPM) >> 10;

	aspm->known = true;
	aspm->l0s_supported = support & 1;
	aspm->l1_supported = support & 2;
	aspm->l0s_exit_code = (lnkcap & PCI_EXP_LNKCAP_L0S) >> 12;
	aspm->l1_exit_code = (lnkcap & PCI_EXP_LNKCAP_L1) >> 15;
	aspm->l0s_enabled = lnkctl & 1;
	aspm->l1_enabled = lnkctl & 2;
	if (type == PCI_EXP_TYPE_ENDPOINT || type == PCI_EXP_TYPE_LEG_END) {
		aspm->acceptable_known = true;
		aspm->l0s_acceptable_code = (devcap & PCI_EXP_DEVCAP_L0S) >> 6;
		aspm->l1_acceptable_code = (devcap & PCI_EXP_DEVCAP_L1) >> 9;
	}
}

/* Decode the PCI Express capability at cap_pos. */
static void fill_link_from_cap(struct pci_dev *d, int cap_pos, struct nd_pcie_link *link)
{
	unsigned flags = pci_read_word(d, cap_pos + PCI_EXP_FLAGS);
	unsigned type = (flags & PCI_EXP_FLAGS_TYPE) >> 4;
	uint32_t devcap = pci_read_long(d, cap_pos + PCI_EXP_DEVCAP);
	unsigned devctl = pci_read_word(d, cap_pos + PCI_EXP_DEVCTL);
	uint32_t lnkcap, lnkcap2;
	unsigned lnksta;

	link->is_pcie = true;
	nd_strlcpy(link->port_type, port_type_name(type), sizeof(link->port_type));
	link->mps_cap_bytes = 128u << (devcap & PCI_EXP_DEVCAP_PAYLOAD);
	link->mps_bytes = 128u << ((devctl & PCI_EXP_DEVCTL_PAYLOAD) >> 5);
	if (type == PCI_EXP_TYPE_ROOT_INT_EP || type == PCI_EXP_TYPE_ROOT_EC) {
		nd_strlcpy(link->link_reason, "root complex integrated: no PCIe link",
			   sizeof(link->link_reason));
		return;
	}
	lnkcap = pci_read_long(d, cap_pos + PCI_EXP_LNKCAP);
	lnksta = pci_read_word(d, cap_pos + PCI_EXP_LNKSTA);
	fill_aspm(devcap, lnkcap, pci_read_word(d, cap_pos + PCI_EXP_LNKCTL), type, &link->aspm);
	link->cap_gts = speed_code_gts(lnkcap & PCI_EXP_LNKCAP_SPEED);
	link->cap_width = (lnkcap & PCI_EXP_LNKCAP_WIDTH) >> 4;
	link->sta_gts = speed_code_gts(lnksta & PCI_EXP_LNKSTA_SPEED);
	link->sta_width = (lnksta & PCI_EXP_LNKSTA_WIDTH) >> 4;
	if ((flags & PCI_EXP_FLAGS_VERS) >= 2) {
		lnkcap2 = pci_read_long(d, cap_pos + PCI_EXP_LNKCAP2);
		for (int bit = 6; bit >= 0; bit--)
			if (PCI_EXP_LNKCAP2_SPEED(lnkcap2) & (1u << bit)) {
				link->cap2_max_gts = speed_code_gts((unsigned)bit + 1);
				break;
			}
	}
	link->link_known = true;
	/* A VF or a link in training reports speed 0 / width 0. */
	if (link->sta_gts == 0 || link->sta_width == 0)
		snprintf(link->link_reason, sizeof(link->link_reason),
			 "LnkSta reports no trained link (speed code %u, width x%u)",
			 lnksta & PCI_EXP_LNKSTA_SPEED, link->sta_width);
}

/* Everything about one function; dir is its canonical sysfs directory,
 * NULL when the bytes come from a record (no current_link_* to fall back on). */
void nd_pci_fill_function(const struct nd_root *root, struct pci_access *pacc, struct pci_dev *d,
			  const char *dir,
			  struct nd_pcie_link *link)
{
	char name[sizeof(link->name)];
	struct pci_cap *cap;
	uint8_t probe[4], exp_regs[PCI_EXP_LNKSTA + 2];

	memset(link, 0, sizeof(*link));
	snprintf(link->address, sizeof(link->address), "%04x:%02x:%02x.%d",
		 (unsigned)d->domain & 0xffff, d->bus, d->dev, d->func);
	pci_fill_info(d, PCI_FILL_IDENT | PCI_FILL_CLASS);
	link->vendor_id = d->vendor_id;
	link->device_id = d->device_id;
	if (pci_lookup_name(pacc, name, sizeof(name), PCI_LOOKUP_VENDOR | PCI_LOOKUP_DEVICE |
			    PCI_LOOKUP_NO_NUMBERS, d->vendor_id, d->device_id))
		nd_strlcpy(link->name, name, sizeof(link->name));
	if (!pci_read_block(d, CONFIG_HEADER_BYTES, probe, sizeof(probe))) {
		if (dir)
			fill_link_from_sysfs(root, dir, link,
					     "config space past 64 bytes is closed (not root)");
		else
			nd_strlcpy(link->link_reason, "the recorded config space ends at 64 bytes",
				   sizeof(link->link_reason));
		return;
	}
	pci_fill_info(d, PCI_FILL_CAPS);
	cap = pci_find_cap(d, PCI_CAP_ID_EXP, PCI_CAP_NORMAL);
	if (!cap) {
		nd_strlcpy(link->link_reason, "no PCI Express capability (conventional PCI or virtual device)",
			   sizeof(link->link_reason));
		return;
	}
	/* A short record (or a hostile one) may end inside the capability:
	 * libpci would hand back 0xff bytes as if they were registers. */
	if (!pci_read_block(d, cap->addr, exp_regs, sizeof(exp_regs))) {
		link->is_pcie = true;
		snprintf(link->link_reason, sizeof(link->link_reason),
			 "config space ends inside the PCI Express capability at 0x%x", cap->addr);
		return;
	}
	fill_link_from_cap(d, cap->addr, link);
}

static struct pci_dev *find_dev(struct pci_access *pacc, const char *address)
{
	unsigned domain, bus, dev, func;

	if (sscanf(address, "%x:%x:%x.%u", &domain, &bus, &dev, &func) != 4)
		return NULL;
	for (struct pci_dev *d = pacc->devices; d; d = d->next)
		if ((unsigned)d->domain == domain && d->bus == bus && d->dev == dev && d->func == func)
			return d;
	return NULL;
}

/* Bridges above the function: PCI-address components of its path, nearest first. */
static void fill_upstream(const struct nd_root *root, struct pci_access *pacc, const char *fn_dir,
			  struct nd_pci *pci)
{
	char dir[PATH_MAX];
	char *slash;

	nd_strlcpy(dir, fn_dir, sizeof(dir));
	while ((slash = strrchr(dir, '/')) != NULL && slash != dir && pci->n_upstream < ND_MAX_PCI_CHAIN) {
		struct nd_pcie_link *link = &pci->upstream[pci->n_upstream];
		struct pci_dev *d;

		*slash = '\0';
		slash = strrchr(dir, '/');
		if (!slash || !nd_probe_is_pci_address(slash + 1))
			break;
		d = find_dev(pacc, slash + 1);
		if (d) {
			nd_pci_fill_function(root, pacc, d, dir, link);
		} else {
			memset(link, 0, sizeof(*link));
			nd_strlcpy(link->address, slash + 1, sizeof(link->address));
			fill_link_from_sysfs(root, dir, link,
					     "bridge not listed under /sys/bus/pci/devices");
		}
		pci->n_upstream++;
	}
}

/* Other functions of the same card: same domain, bus and device number. */
static void fill_siblings(const struct nd_root *root, struct pci_access *pacc, struct pci_dev *self,
			  const char *fn_dir,
			  struct nd_pci *pci)
{
	char parent[PATH_MAX], dir[PATH_MAX + 16];
	char *slash;

	nd_strlcpy(parent, fn_dir, sizeof(parent));
	slash = strrchr(parent, '/');
	if (slash)
		*slash = '\0';
	for (struct pci_dev *d = pacc->devices; d && pci->n_siblings < ND_MAX_SIBLINGS; d = d->next) {
		if (d == self || d->domain != self->domain || d->bus != self->bus || d->dev != self->dev)
			continue;
		snprintf(dir, sizeof(dir), "%s/%04x:%02x:%02x.%d", parent,
			 (unsigned)d->domain & 0xffff, d->bus, d->dev, d->func);
		nd_pci_fill_function(root, pacc, d, dir, &pci->siblings[pci->n_siblings++]);
	}
}

static int read_numa_node(const struct nd_root *root, struct pci_dev *d, const char *fn_dir)
{
	char path[PATH_MAX + 16], text[16];

	pci_fill_info(d, PCI_FILL_NUMA_NODE);
	if (d->known_fields & PCI_FILL_NUMA_NODE)
		return d->numa_node;
	snprintf(path, sizeof(path), "%s/numa_node", fn_dir);
	if (nd_sysroot_read_line(root, path, text, sizeof(text)) < 0)
		return -1;
	return atoi(text);
}

static void probe_with_pacc(const struct nd_root *root, struct pci_access *pacc, const char *fn_dir,
			    struct nd_pci *pci)
{
	const char *address = strrchr(fn_dir, '/') + 1;
	struct pci_dev *self;

	pci_scan_bus(pacc);
	self = find_dev(pacc, address);
	if (!self) {
		nd_status_set_unknown(&pci->st, "PCI function %s not listed under '/sys/bus/pci/devices'",
				      address);
		return;
	}
	nd_pci_fill_function(root, pacc, self, fn_dir, &pci->dev);
	pci->numa_node = read_numa_node(root, self, fn_dir);
	fill_upstream(root, pacc, fn_dir, pci);
	fill_siblings(root, pacc, self, fn_dir, pci);
	nd_status_set_known(&pci->st);
}

/*
 * libpci opens <root>/sys/bus/pci/... itself, with plain open(), so in a
 * snapshot an absolute or ../ symlink there would make it read the host's
 * files.  Before it runs, every path it can open (the bus directory, each
 * device and each device's files, the slots) must resolve inside the root.
 * The snapshot is a static tree we were handed, so checking first is enough.
 */
static int pci_tree_confined(const struct nd_root *root, char *why, size_t why_size)
{
	static const char *const dirs[] = { "/sys/bus/pci/devices", "/sys/bus/pci/slots" };
	int r = nd_probe_host_path_confined(root, "/sys/bus/pci", true, why, why_size);

	for (size_t i = 0; r == 0 && i < ND_ARRAY_SIZE(dirs); i++) {
		char path[PATH_MAX];
		struct dirent *ent;
		DIR *d;

		r = nd_probe_host_path_confined(root, dirs[i], true, why, why_size);
		d = r == 0 ? nd_sysroot_opendir(root, dirs[i]) : NULL;
		while (d && r == 0 && (ent = readdir(d)) != NULL) {
			if (ent->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", dirs[i], ent->d_name);
			r = nd_probe_host_path_confined(root, path, true, why, why_size);
		}
		if (d)
			closedir(d);
	}
	return r;
}

int nd_pci_run(int method, const char *param, const char *value,
	       void (*fn)(struct pci_access *pacc, void *arg), void *arg,
	       char *why, size_t why_size)
{
	struct pci_access *pacc = pci_alloc();
	jmp_buf jump;
	int r = 0;

	if (!pacc) {
		nd_strlcpy(why, "cannot set up libpci", why_size);
		return -ENOMEM;
	}
	pacc->error = pci_error_cb;
	pacc->warning = pci_quiet_cb;
	pacc->debug = pci_quiet_cb;
	pacc->method = method;
	pci_error_jump = &jump;
	if (setjmp(jump) == 0) {
		pci_set_param(pacc, (char *)param, (char *)value);
		pci_init(pacc);
		fn(pacc, arg);
	} else {
		snprintf(why, why_size, "libpci: %s", pci_error_text);
		r = -EIO;
	}
	pci_error_jump = NULL;
	pci_cleanup(pacc);
	return r;
}

struct sysfs_probe {
	const struct nd_root *root;
	const char *fn_dir;
	struct nd_pci *pci;
};

static void probe_sysfs_cb(struct pci_access *pacc, void *arg)
{
	struct sysfs_probe *p = arg;

	probe_with_pacc(p->root, pacc, p->fn_dir, p->pci);
}

void nd_probe_pci(const struct nd_root *root, const char *ifname, struct nd_facts *facts)
{
	struct nd_pci *pci = &facts->pci;
	char fn_dir[PATH_MAX], bus_path[PATH_MAX], why[ND_REASON_LEN] = "";
	struct sysfs_probe p = { root, fn_dir, pci };
	int r;

	memset(pci, 0, sizeof(*pci));
	pci->numa_node = -1;
	r = nd_probe_pci_function_dir(root, ifname, fn_dir, sizeof(fn_dir));
	if (r == -ENODEV) {
		nd_status_set_unknown(&pci->st, "no PCI device (virtual interface)");
		pci->no_device = true;
		return;
	}
	if (r < 0) {
		nd_status_set_unknown(&pci->st, "device of '%s' is not on PCI: %s", ifname,
				      strerror(-r));
		return;
	}
	snprintf(bus_path, sizeof(bus_path), "/sys/bus/pci/devices/%s", strrchr(fn_dir, '/') + 1);
	if (!nd_sysroot_exists(root, bus_path)) {
		nd_status_set_unknown(&pci->st, "PCI function %s not listed under '/sys/bus/pci/devices'",
				      strrchr(fn_dir, '/') + 1);
		return;
	}
	r = pci_tree_confined(root, why, sizeof(why));
	if (r < 0) {
		nd_status_set_unknown(&pci->st, "PCI facts not read: %s",
				      why[0] ? why : strerror(-r));
		return;
	}
	r = nd_sysroot_path(root, bus_path, sizeof(bus_path), "/sys/bus/pci");
	if (r < 0) {
		nd_status_set_unknown(&pci->st, "cannot set up libpci");
		return;
	}
	if (nd_pci_run(PCI_ACCESS_SYS_BUS_PCI, "sysfs.path", bus_path, probe_sysfs_cb, &p, why,
		       sizeof(why)) < 0)
		nd_status_set_unknown(&pci->st, "%s", why);
}
