/*
 * virt.c - the "virt" probe source: is this host a virtual machine, and
 * whose?  Asked in turn, the first that names one wins:
 *   /sys/hypervisor/type            Xen (and Xen-based clouds)
 *   /sys/class/dmi/id/sys_vendor,   what the hypervisor's firmware says
 *   .../product_name                the machine is ("QEMU", "VMware, Inc.")
 *   a bundle's dmidecode            the same, where sysfs was not copied
 *   the NIC's PCI subsystem IDs     QEMU's 1af4:1100 on its emulated
 *                                   devices, VMware's 15ad on its own
 *   a bundle's lscpu                "Hypervisor vendor: KVM"
 *   /proc/cpuinfo                   the CPUID "hypervisor" flag: a VM,
 *                                   name unknown
 * When DMI or cpuinfo was read and none names a hypervisor, kind "none".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicdoctor/common.h"
#include "nicdoctor/probe.h"
#include "nicdoctor/virt.h"

#define DMI_DIR "/sys/class/dmi/id"
/* As a bundle names them (the source); read below its root with a '/'. */
#define SOS_DMIDECODE "sos_commands/hardware/dmidecode"
#define SOS_LSCPU "sos_commands/processor/lscpu"

static void found(struct nd_virt *virt, const char *kind, const char *vendor, const char *source)
{
	nd_status_set_known(&virt->st);
	nd_strlcpy(virt->kind, kind, sizeof(virt->kind));
	nd_strlcpy(virt->vendor, vendor, sizeof(virt->vendor));
	nd_strlcpy(virt->st.source, source, sizeof(virt->st.source));
}

/* 1 named a hypervisor, 0 read and named none, -1 not read. */
static int from_dmi(const struct nd_root *root, struct nd_virt *virt)
{
	char vendor[64] = "", product[64] = "", both[132], *text = NULL;
	const char *source = DMI_DIR "/sys_vendor";
	size_t len;
	bool have = nd_sysroot_read_line(root, source, vendor, sizeof(vendor)) == 0;

	have |= nd_sysroot_read_line(root, DMI_DIR "/product_name", product,
				     sizeof(product)) == 0;
	if (!have && !nd_sysroot_is_live(root) &&
	    nd_sysroot_read_alloc(root, "/" SOS_DMIDECODE, &text, &len) == 0) {
		have = nd_parse_dmidecode_system(text, len, vendor, sizeof(vendor), product,
						 sizeof(product)) == 0;
		source = SOS_DMIDECODE;
	}
	free(text);
	if (!have)
		return -1;
	snprintf(both, sizeof(both), "%s%s%s", vendor, vendor[0] && product[0] ? " " : "",
		 product);
	found(virt, nd_virt_kind_of_dmi(vendor, product), both, source);
	return strcmp(virt->kind, "none") != 0;
}

/* Emulated devices keep their maker's IDs but QEMU's subsystem (hw/pci/
 * pci.c: PCI_SUBVENDOR_ID_REDHAT_QUMRANET 0x1af4, PCI_SUBDEVICE_ID_QEMU
 * 0x1100); VMware's virtual devices carry VMware's 0x15ad. */
static bool from_subsystem(const struct nd_root *root, const struct nd_pci *pci,
			   struct nd_virt *virt)
{
	char path[96], vendor[16], device[16], said[64];
	unsigned long sv, sd;

	if (!pci->st.known || !pci->dev.address[0])
		return false;
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/subsystem_device",
		 pci->dev.address);
	if (nd_sysroot_read_line(root, path, device, sizeof(device)) < 0)
		return false;
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/subsystem_vendor",
		 pci->dev.address);
	if (nd_sysroot_read_line(root, path, vendor, sizeof(vendor)) < 0)
		return false;
	sv = strtoul(vendor, NULL, 16);
	sd = strtoul(device, NULL, 16);
	snprintf(said, sizeof(said), "PCI subsystem %04lx:%04lx of %s", sv, sd, pci->dev.address);
	if (sv == 0x1af4 && sd == 0x1100)
		found(virt, "qemu", said, path);
	else if (sv == 0x15ad)
		found(virt, "vmware", said, path);
	else
		return false;
	return true;
}

static bool from_lscpu(const struct nd_root *root, struct nd_virt *virt)
{
	char name[64], *text = NULL;
	size_t len;
	int r;

	if (nd_sysroot_is_live(root) || nd_sysroot_read_alloc(root, "/" SOS_LSCPU, &text, &len) < 0)
		return false;
	r = nd_parse_lscpu_hypervisor(text, len, name, sizeof(name));
	free(text);
	if (r < 0)
		return false;
	found(virt, nd_virt_kind_of_hypervisor(name), name, SOS_LSCPU);
	return true;
}

/* 1 flag set, 0 read without it, -1 not read. */
static int from_cpuinfo(const struct nd_root *root, struct nd_virt *virt)
{
	char *text = NULL;
	size_t len;
	int r;

	if (nd_sysroot_read_alloc(root, "/proc/cpuinfo", &text, &len) < 0)
		return -1;
	r = nd_parse_cpuinfo_hypervisor(text, len);
	free(text);
	if (r == 1)
		found(virt, "unknown", "CPUID hypervisor flag", "/proc/cpuinfo");
	return r < 0 ? -1 : r;
}

void nd_probe_virt(const struct nd_root *root, const char *ifname, struct nd_facts *facts)
{
	struct nd_virt *virt = &facts->virt, dmi;
	char type[32];
	int dmi_said, cpu_said;

	(void)ifname;
	memset(virt, 0, sizeof(*virt));
	if (nd_sysroot_read_line(root, "/sys/hypervisor/type", type, sizeof(type)) == 0 &&
	    type[0]) {
		found(virt, nd_virt_kind_of_hypervisor(type), type, "/sys/hypervisor/type");
		return;
	}
	memset(&dmi, 0, sizeof(dmi));
	dmi_said = from_dmi(root, &dmi);
	if (dmi_said == 1) {
		*virt = dmi;
		return;
	}
	if (from_subsystem(root, &facts->pci, virt) || from_lscpu(root, virt))
		return;
	cpu_said = from_cpuinfo(root, virt);
	if (cpu_said == 1)
		return;
	if (dmi_said == 0)
		*virt = dmi;	/* a maker that is no hypervisor */
	else if (cpu_said == 0)
		found(virt, "none", "no CPUID hypervisor flag", "/proc/cpuinfo");
	else
		nd_status_set_unknown(&virt->st, "none of /sys/hypervisor/type, %s, /proc/cpuinfo "
				      "could be read", DMI_DIR);
}
