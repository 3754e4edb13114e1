/*
 * virt_emulated_nic.c - a guest on an emulated NIC (QEMU's e1000,
 * e1000e, rtl8139, pcnet, i8255x, tulip; VMware's e1000/vlance; Hyper-V's
 * legacy adapter): the hypervisor models an old card register by
 * register, so every access the driver makes traps into it, where a
 * paravirtual NIC (virtio-net, vmxnet3, netvsc) shares rings with the host
 * and needs no such model.  The fix is in the hypervisor's configuration,
 * not in the guest.  No ceiling: none is documented, and the speed the
 * model reports is a label (see link.speed_below_max).
 */
#include <stdio.h>
#include <string.h>

#include "checks.h"
#include "virt_common.h"

struct hypervisor_fix {
	const char *kind;
	const char *driver;		/* the guest's paravirtual driver */
};

static const struct hypervisor_fix fixes[] = {
	{ "qemu", "virtio_net" }, { "virtualbox", "virtio_net" }, { "vmware", "vmxnet3" },
	{ "hyperv", "hv_netvsc" }, { "xen", "xen-netfront" },
};

static const struct hypervisor_fix *fix_for(const char *kind)
{
	for (size_t i = 0; i < sizeof(fixes) / sizeof(fixes[0]); i++)
		if (!strcmp(kind, fixes[i].kind))
			return &fixes[i];
	return NULL;
}

static void fix_qemu(const struct nd_facts *facts, struct nd_finding *f)
{
	const char *mac = facts->link.st.known && facts->link.mac[0] ? facts->link.mac : "MAC";

	nd_finding_fix(f, "virt_nic", "# libvirt: virsh edit DOMAIN, in this <interface> set "
		       "<model type='virtio'/>, then shut the guest down and start it");
	nd_finding_fix(f, "virt_nic", "# Proxmox: qm set VMID --net0 virtio=%s,bridge=vmbr0 "
		       "(the MAC kept; the bridge as the VM has it)", mac);
	nd_finding_fix(f, "virt_nic", "# plain QEMU: -device virtio-net-pci,netdev=ID instead of "
		       "this model");
}

static void add_fix(const struct nd_facts *facts, const struct hypervisor_fix *hv,
		    struct nd_finding *f)
{
	const char *kind = hv ? hv->kind : "";

	if (!hv || !strcmp(kind, "qemu"))
		fix_qemu(facts, f);
	if (!hv || !strcmp(kind, "vmware"))
		nd_finding_fix(f, "virt_nic", "# VMware: with the VM off, Edit Settings > Network "
			       "adapter > Adapter Type: VMXNET 3 (.vmx: ethernet0.virtualDev = "
			       "\"vmxnet3\")");
	if (!hv || !strcmp(kind, "virtualbox"))
		nd_finding_fix(f, "virt_nic", "# VirtualBox: VBoxManage modifyvm VM --nictype1 "
			       "virtio (the VM off; --nictypeN for adapter N)");
	if (hv && !strcmp(kind, "hyperv"))
		nd_finding_fix(f, "virt_nic", "# Hyper-V: replace the Legacy Network Adapter "
			       "with a Network Adapter: Add-VMNetworkAdapter -VMName VM "
			       "-SwitchName SWITCH");
	if (hv && !strcmp(kind, "xen"))
		nd_finding_fix(f, "virt_nic", "# Xen: drop model= and type=ioemu from the vif "
			       "line so the guest gets the PV netfront");
	nd_finding_fix(f, "virt_nic", "# the guest then runs %s instead of %s",
		       hv ? hv->driver : "virtio_net (QEMU/KVM, VirtualBox) or vmxnet3 (VMware)",
		       facts->drvinfo.st.known && facts->drvinfo.driver[0] ?
		       facts->drvinfo.driver : "the emulated model");
}

void nd_check_virt_emulated_nic(const struct nd_facts *facts, struct nd_finding *f)
{
	const struct nd_emulated_model *model = nd_emulated_model(facts);
	const struct nd_virt *virt = &facts->virt;
	const struct hypervisor_fix *hv;

	if (!model) {
		nd_finding_not_applicable(f, "not an emulated NIC model");
		return;
	}
	cJSON_AddStringToObject(f->evidence, "chip", model->chip);
	cJSON_AddStringToObject(f->evidence, "offered_as", model->offered_as);
	cJSON_AddStringToObject(f->evidence, "driver", facts->drvinfo.st.known ?
				facts->drvinfo.driver : "unknown");
	if (!virt->st.known)
		return nd_finding_unknown(f, "whether the host is a VM", virt->st.reason);
	cJSON_AddStringToObject(f->evidence, "hypervisor", virt->kind);
	cJSON_AddStringToObject(f->evidence, "hypervisor_said", virt->vendor);
	cJSON_AddStringToObject(f->evidence, "hypervisor_source", virt->st.source);
	if (!nd_virt_in_vm(facts)) {
		nd_finding_not_applicable(f, "a real %s card: the host is not a VM",
					  facts->drvinfo.st.known ? facts->drvinfo.driver :
					  model->chip);
		return;
	}
	hv = fix_for(virt->kind);
	cJSON_AddStringToObject(f->evidence, "paravirtual_driver",
				hv ? hv->driver : "virtio_net or vmxnet3 (hypervisor unknown)");
	nd_finding_set(f, ND_SEV_WARNING, "emulated %s in a %s%s: every register access traps "
		       "into the hypervisor; a paravirtual NIC (%s) avoids it",
		       model->chip, strcmp(virt->kind, "unknown") ? virt->kind : "",
		       strcmp(virt->kind, "unknown") ? " VM" : "VM",
		       hv ? hv->driver : "virtio_net, vmxnet3");
	add_fix(facts, hv, f);
}
