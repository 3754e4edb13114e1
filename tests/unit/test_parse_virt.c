/*
 * test_parse_virt.c - the readers of what names a hypervisor, on real
 * captures: a QEMU guest's dmidecode (hotsos), a KVM guest's lscpu
 * (sos 4.2), /proc/cpuinfo of a microVM and of a bare-metal KVM host;
 * the DMI names each hypervisor's firmware writes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <cmocka.h>

#include "nicdoctor/virt.h"
#include "raw_fixture.h"

static void test_dmidecode_system(void **state)
{
	char *text = raw("dmidecode-qemu-i440fx-hotsos-openstack.txt");
	char vendor[64], product[64];

	(void)state;
	assert_int_equal(nd_parse_dmidecode_system(text, strlen(text), vendor, sizeof(vendor),
						   product, sizeof(product)), 0);
	/* Not the BIOS's "SeaBIOS" nor the chassis's Manufacturer. */
	assert_string_equal(vendor, "QEMU");
	assert_string_equal(product, "Standard PC (i440FX + PIIX, 1996)");
	assert_string_equal(nd_virt_kind_of_dmi(vendor, product), "qemu");
	/* Cut before the System Information section: none. */
	assert_int_equal(nd_parse_dmidecode_system(text, (size_t)(strstr(text, "System Inf") - text),
						   vendor, sizeof(vendor), product,
						   sizeof(product)), -EINVAL);
	free(text);
}

static void test_lscpu_hypervisor(void **state)
{
	char *text = raw("sos42-lscpu-2cpu-kvm.txt");
	char name[32];

	(void)state;
	assert_int_equal(nd_parse_lscpu_hypervisor(text, strlen(text), name, sizeof(name)), 0);
	assert_string_equal(name, "KVM");
	assert_string_equal(nd_virt_kind_of_hypervisor(name), "qemu");
	*strstr(text, "Hypervisor vendor") = 'h';
	assert_int_equal(nd_parse_lscpu_hypervisor(text, strlen(text), name, sizeof(name)),
			 -ENOENT);
	free(text);
}

static void test_cpuinfo_flag(void **state)
{
	char *guest = raw("cpuinfo-firecracker-guest-1cpu.txt");
	char *host = raw("cpuinfo-grep-vmx-baremetal-kvm-host.txt");

	(void)state;
	assert_int_equal(nd_parse_cpuinfo_hypervisor(guest, strlen(guest)), 1);
	/* A KVM host has vmx (and "vmx flags"), not the hypervisor bit. */
	assert_int_equal(nd_parse_cpuinfo_hypervisor(host, strlen(host)), 0);
	assert_int_equal(nd_parse_cpuinfo_hypervisor("processor\t: 0\n", 14), -EINVAL);
	free(guest);
	free(host);
}

static void test_dmi_names(void **state)
{
	(void)state;
	/* sys_vendor and product_name as each firmware writes them. */
	assert_string_equal(nd_virt_kind_of_dmi("QEMU", "Standard PC (Q35 + ICH9, 2009)"), "qemu");
	assert_string_equal(nd_virt_kind_of_dmi("Red Hat", "KVM"), "qemu");
	assert_string_equal(nd_virt_kind_of_dmi("VMware, Inc.", "VMware Virtual Platform"),
			    "vmware");
	assert_string_equal(nd_virt_kind_of_dmi("innotek GmbH", "VirtualBox"), "virtualbox");
	assert_string_equal(nd_virt_kind_of_dmi("Microsoft Corporation", "Virtual Machine"),
			    "hyperv");
	assert_string_equal(nd_virt_kind_of_dmi("Microsoft Corporation", "Surface Pro 7"), "none");
	assert_string_equal(nd_virt_kind_of_dmi("Amazon EC2", "m5.large"), "aws");
	assert_string_equal(nd_virt_kind_of_dmi("Amazon EC2", "c5n.metal"), "none");
	assert_string_equal(nd_virt_kind_of_dmi("Google", "Google Compute Engine"), "gce");
	assert_string_equal(nd_virt_kind_of_dmi("Xen", "HVM domU"), "xen");
	assert_string_equal(nd_virt_kind_of_dmi("Dell Inc.", "PowerEdge R740"), "none");
	assert_string_equal(nd_virt_kind_of_dmi("", ""), "none");
	assert_string_equal(nd_virt_kind_of_hypervisor("xen"), "xen");
	assert_string_equal(nd_virt_kind_of_hypervisor("Microsoft"), "hyperv");
	assert_string_equal(nd_virt_kind_of_hypervisor("bhyve"), "unknown");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dmidecode_system),
		cmocka_unit_test(test_lscpu_hypervisor),
		cmocka_unit_test(test_cpuinfo_flag),
		cmocka_unit_test(test_dmi_names),
	};

	return cmocka_run_group_tests_name("parse_virt", tests, NULL, NULL);
}
