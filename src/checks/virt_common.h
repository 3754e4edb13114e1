/*
 * virt_common.h - what kind of function a guest's NIC is: paravirtual
 * (virtio, vmxnet3, gVNIC), emulated (QEMU's e1000 and friends), an
 * SR-IOV virtual function, or a physical NIC; for the checks that do not
 * apply to a function with no link of its own (pcie.*, link.*).  Pure.
 */
#ifndef NICDOCTOR_CHECKS_VIRT_COMMON_H
#define NICDOCTOR_CHECKS_VIRT_COMMON_H

#include <stdbool.h>
#include <stddef.h>

#include "nicdoctor/check.h"
#include "nicdoctor/facts.h"

enum nd_nic_kind {
	ND_NIC_PHYSICAL = 0,		/* or not known to be anything else */
	ND_NIC_PARAVIRTUAL,
	ND_NIC_EMULATED,
	ND_NIC_VF,
};

/* An emulated NIC model the hypervisor offers for old guests. */
struct nd_emulated_model {
	const char *driver;		/* the guest's driver: "e1000" */
	uint16_t vendor_id, device_id;	/* the device the hypervisor emulates */
	const char *chip;		/* "Intel 82540EM" */
	const char *offered_as;		/* "QEMU e1000, VMware e1000, ..." */
};

/* The emulated model the NIC's driver or PCI IDs name; NULL for none. */
const struct nd_emulated_model *nd_emulated_model(const struct nd_facts *facts);

/* Whether facts->virt says the host is a VM (any kind but "none"). */
bool nd_virt_in_vm(const struct nd_facts *facts);

/* The kind of the NIC's function, and in why (may be NULL) a phrase for a
 * title: "a paravirtual function (virtio_net, 1af4:1041)".  An emulated
 * model counts only in a VM: the same chips exist as real cards. */
enum nd_nic_kind nd_nic_kind(const struct nd_facts *facts, char *why, size_t why_size);

/* Whether the NIC is virtio-net (its driver, or a virtio PCI network
 * function: 1af4:1000 legacy, 1af4:1041 modern). */
bool nd_nic_is_virtio_net(const struct nd_facts *facts);

/* An emulated NIC in a VM: its speed and duplex are what the model
 * reports (pcnet32 "10 Mb/s half"), not a wire's; why as nd_nic_kind's. */
bool nd_nic_speed_is_label(const struct nd_facts *facts, char *why, size_t why_size);

/* Mark f not applicable because of that: "an emulated NIC in a qemu VM
 * (pcnet32, 1022:2000): the speed is a label"; false (f untouched) when
 * the NIC's speed is its own. */
bool nd_link_check_not_applicable(const struct nd_facts *facts, struct nd_finding *f);

#endif
