/*
 * virt.h - whether the host is a virtual machine: the pure readers of
 * what says so (DMI names, dmidecode, lscpu, /proc/cpuinfo; src/parse/
 * virt_text.c) and the probe that asks them in turn (src/probe/virt.c).
 */
#ifndef NICDOCTOR_VIRT_H
#define NICDOCTOR_VIRT_H

#include <stddef.h>

#include "nicdoctor/facts.h"
#include "nicdoctor/sysroot.h"

/* The hypervisor a DMI system vendor and product name are ("QEMU",
 * "Standard PC (Q35 + ICH9, 2009)" -> "qemu"); "none" for any other
 * maker.  Either may be "" (not read). */
const char *nd_virt_kind_of_dmi(const char *sys_vendor, const char *product);

/* The hypervisor lscpu's "Hypervisor vendor" or /sys/hypervisor/type
 * names ("KVM" -> "qemu", "xen" -> "xen"); "unknown" for another name. */
const char *nd_virt_kind_of_hypervisor(const char *name);

/* dmidecode's "System Information" section: its Manufacturer and Product
 * Name.  0, or -EINVAL when the text has no such section. */
int nd_parse_dmidecode_system(const char *text, size_t len, char *vendor, size_t vendor_size,
			      char *product, size_t product_size);

/* lscpu's "Hypervisor vendor:" value.  0, or -ENOENT when absent (lscpu
 * prints it only under a hypervisor). */
int nd_parse_lscpu_hypervisor(const char *text, size_t len, char *buf, size_t size);

/* /proc/cpuinfo: 1 when a "flags" line holds the CPUID "hypervisor" flag,
 * 0 when the flags lines lack it, -EINVAL when there is no flags line. */
int nd_parse_cpuinfo_hypervisor(const char *text, size_t len);

/* Fill facts->virt from the root (live or a record), after the PCI group. */
void nd_probe_virt(const struct nd_root *root, const char *ifname, struct nd_facts *facts);

#endif
