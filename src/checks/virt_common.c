/*
 * virt_common.c - which guest NICs have no PCIe link or wire of their own
 * (see virt_common.h).  The IDs are the hypervisors' own: QEMU's
 * hw/net/{e1000,e1000e,rtl8139,pcnet-pci,eepro100,tulip,vmxnet3}.c and
 * include/hw/pci/pci_ids.h, the virtio spec (1af4:1000-107f, 1041 the
 * modern net device), Google's gVNIC (1ae0:0042).
 */
#include <stdio.h>
#include <string.h>

#include "virt_common.h"

static const struct nd_emulated_model models[] = {
	{ "e1000", 0x8086, 0x100e, "Intel 82540EM",
	  "QEMU e1000, VMware e1000, VirtualBox 82540EM" },
	{ "e1000e", 0x8086, 0x10d3, "Intel 82574L", "QEMU e1000e, VMware e1000e" },
	{ "8139cp", 0x10ec, 0x8139, "Realtek RTL8139", "QEMU rtl8139" },
	{ "8139too", 0x10ec, 0x8139, "Realtek RTL8139", "QEMU rtl8139" },
	{ "pcnet32", 0x1022, 0x2000, "AMD PCnet32 (79C970)",
	  "QEMU pcnet, VMware vlance, VirtualBox PCnet" },
	{ "e100", 0x8086, 0x1229, "Intel 8255x", "QEMU i82550..i82559" },
	{ "e100", 0x8086, 0x1209, "Intel 8255x",
	  "QEMU i82551, i82557c, i82558b, i82559er" },
	{ "tulip", 0x1011, 0x0019, "DEC 21143", "QEMU tulip" },
	{ "tulip", 0x1011, 0x0009, "DEC 21140", "Hyper-V Legacy Network Adapter" },
};

const struct nd_emulated_model *nd_emulated_model(const struct nd_facts *facts)
{
	const char *driver = facts->drvinfo.st.known ? facts->drvinfo.driver : "";
	const struct nd_pcie_link *dev = &facts->pci.dev;
	bool ids = facts->pci.st.known && !facts->pci.no_device;

	/* The PCI IDs first: a driver name alone (e1000e) is also a real card's. */
	for (size_t i = 0; ids && i < sizeof(models) / sizeof(models[0]); i++)
		if (dev->vendor_id == models[i].vendor_id && dev->device_id == models[i].device_id)
			return &models[i];
	for (size_t i = 0; driver[0] && i < sizeof(models) / sizeof(models[0]); i++)
		if (!strcmp(driver, models[i].driver))
			return &models[i];
	return NULL;
}

bool nd_virt_in_vm(const struct nd_facts *facts)
{
	return facts->virt.st.known && facts->virt.kind[0] && strcmp(facts->virt.kind, "none");
}

static bool paravirtual(const struct nd_facts *facts)
{
	static const char *const drivers[] = { "virtio_net", "vmxnet3", "gve" };
	const struct nd_pcie_link *dev = &facts->pci.dev;

	if (facts->pci.st.known && !facts->pci.no_device &&
	    ((dev->vendor_id == 0x1af4 && dev->device_id >= 0x1000 && dev->device_id <= 0x107f) ||
	     (dev->vendor_id == 0x15ad && dev->device_id == 0x07b0) ||
	     (dev->vendor_id == 0x1ae0 && dev->device_id == 0x0042)))
		return true;
	for (size_t i = 0; facts->drvinfo.st.known && i < sizeof(drivers) / sizeof(drivers[0]); i++)
		if (!strcmp(facts->drvinfo.driver, drivers[i]))
			return true;
	return false;
}

/* LnkSta "Speed unknown, Width x0" on a function whose config space reads:
 * a VF (its link is the PF's), not a link that failed (then nothing reads). */
static bool untrained_vf(const struct nd_facts *facts)
{
	const struct nd_pcie_link *dev = &facts->pci.dev;

	return facts->pci.st.known && dev->is_pcie && dev->link_known && !dev->cap_from_sta &&
	       dev->sta_width == 0 && dev->sta_gts <= 0;
}

static void describe(const struct nd_facts *facts, const char *what, char *why, size_t size)
{
	const struct nd_pcie_link *dev = &facts->pci.dev;
	const char *driver = facts->drvinfo.st.known && facts->drvinfo.driver[0] ?
			     facts->drvinfo.driver : NULL;
	bool ids = facts->pci.st.known && (dev->vendor_id || dev->device_id);
	char id_text[16] = "";

	if (!why || !size)
		return;
	if (ids)
		snprintf(id_text, sizeof(id_text), "%04x:%04x", dev->vendor_id, dev->device_id);
	if (driver && ids)
		snprintf(why, size, "%s (%s, %s)", what, driver, id_text);
	else if (driver || ids)
		snprintf(why, size, "%s (%s)", what, driver ? driver : id_text);
	else
		snprintf(why, size, "%s", what);
}

enum nd_nic_kind nd_nic_kind(const struct nd_facts *facts, char *why, size_t why_size)
{
	if (paravirtual(facts)) {
		describe(facts, "a paravirtual function", why, why_size);
		return ND_NIC_PARAVIRTUAL;
	}
	if (nd_emulated_model(facts) && nd_virt_in_vm(facts)) {
		char what[64];

		if (strcmp(facts->virt.kind, "unknown"))
			snprintf(what, sizeof(what), "an emulated NIC in a %s VM",
				 facts->virt.kind);
		else
			snprintf(what, sizeof(what), "an emulated NIC in a VM");
		describe(facts, what, why, why_size);
		return ND_NIC_EMULATED;
	}
	if (untrained_vf(facts)) {
		describe(facts, "a virtual function", why, why_size);
		return ND_NIC_VF;
	}
	if (why && why_size)
		why[0] = '\0';
	return ND_NIC_PHYSICAL;
}

bool nd_nic_speed_is_label(const struct nd_facts *facts, char *why, size_t why_size)
{
	return nd_nic_kind(facts, why, why_size) == ND_NIC_EMULATED;
}

bool nd_link_check_not_applicable(const struct nd_facts *facts, struct nd_finding *f)
{
	char why[ND_TITLE_LEN - 40];

	if (!nd_nic_speed_is_label(facts, why, sizeof(why)))
		return false;
	nd_finding_not_applicable(f, "%s: the speed is a label", why);
	cJSON_AddStringToObject(f->evidence, "nic_kind", why);
	return true;
}

bool nd_nic_is_virtio_net(const struct nd_facts *facts)
{
	const struct nd_pcie_link *dev = &facts->pci.dev;

	if (facts->drvinfo.st.known && facts->drvinfo.driver[0])
		return !strcmp(facts->drvinfo.driver, "virtio_net");
	return facts->pci.st.known && !facts->pci.no_device && dev->vendor_id == 0x1af4 &&
	       (dev->device_id == 0x1000 || dev->device_id == 0x1041);
}
