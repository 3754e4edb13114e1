/*
 * test_probe_virt.c - the "virt" probe source through the sysroot seam:
 * each source in its turn on a tree made here (the files as the kernel
 * lays them out, the texts real captures from tests/fixtures/raw), and
 * the sos 4.2 KVM guest fixture, whose lscpu names KVM.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "nicdoctor/common.h"
#include "nicdoctor/virt.h"
#include "raw_fixture.h"

static char tree[64];

static void put(const char *path, const char *text)
{
	char full[512], *slash;

	snprintf(full, sizeof(full), "%s%s", tree, path);
	for (slash = strchr(full + strlen(tree) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(full, 0755);
		*slash = '/';
	}
	FILE *f = fopen(full, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **state)
{
	(void)state;
	snprintf(tree, sizeof(tree), "/tmp/nd-test-virt-XXXXXX");
	return mkdtemp(tree) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tree);
	return system(cmd) == 0 ? 0 : -1;
}

static struct nd_facts *probe(const char *dir, const char *pci_address)
{
	struct nd_facts *facts = calloc(1, sizeof(*facts));
	struct nd_root *root;

	assert_non_null(facts);
	if (pci_address) {
		nd_status_set_known(&facts->pci.st);
		nd_strlcpy(facts->pci.dev.address, pci_address, sizeof(facts->pci.dev.address));
	}
	assert_int_equal(nd_root_open(dir, &root), 0);
	nd_probe_virt(root, "eth0", facts);
	nd_root_close(root);
	return facts;
}

static void assert_virt(const struct nd_facts *facts, const char *kind, const char *source)
{
	assert_true(facts->virt.st.known);
	assert_string_equal(facts->virt.kind, kind);
	assert_string_equal(facts->virt.st.source, source);
}

static void test_sos_lscpu(void **state)
{
	struct nd_facts *facts = probe("tests/fixtures/sos42-kvm-virtio", NULL);

	(void)state;
	assert_virt(facts, "qemu", "sos_commands/processor/lscpu");
	assert_string_equal(facts->virt.vendor, "KVM");
	free(facts);
}

static void test_dmi_first(void **state)
{
	char *cpuinfo = raw("cpuinfo-firecracker-guest-1cpu.txt");
	struct nd_facts *facts;

	(void)state;
	put("/proc/cpuinfo", cpuinfo);
	put("/sys/class/dmi/id/sys_vendor", "QEMU\n");
	put("/sys/class/dmi/id/product_name", "Standard PC (Q35 + ICH9, 2009)\n");
	facts = probe(tree, NULL);
	assert_virt(facts, "qemu", "/sys/class/dmi/id/sys_vendor");
	assert_string_equal(facts->virt.vendor, "QEMU Standard PC (Q35 + ICH9, 2009)");
	free(facts);
	/* A maker that is no hypervisor, but the CPUID flag: a VM all the same. */
	put("/sys/class/dmi/id/sys_vendor", "Dell Inc.\n");
	put("/sys/class/dmi/id/product_name", "PowerEdge R740\n");
	facts = probe(tree, NULL);
	assert_virt(facts, "unknown", "/proc/cpuinfo");
	free(facts);
	/* Xen says so itself, before DMI. */
	put("/sys/hypervisor/type", "xen\n");
	facts = probe(tree, NULL);
	assert_virt(facts, "xen", "/sys/hypervisor/type");
	free(facts);
	free(cpuinfo);
}

static void test_subsystem_and_bare_metal(void **state)
{
	char *host = raw("cpuinfo-grep-vmx-baremetal-kvm-host.txt");
	struct nd_facts *facts;

	(void)state;
	put("/proc/cpuinfo", host);
	facts = probe(tree, "0000:00:02.0");
	assert_virt(facts, "none", "/proc/cpuinfo");
	free(facts);
	/* QEMU's subsystem on an emulated function names QEMU (sysfs holds
	 * the IDs as "0x1af4"). */
	put("/sys/bus/pci/devices/0000:00:02.0/subsystem_vendor", "0x1af4\n");
	put("/sys/bus/pci/devices/0000:00:02.0/subsystem_device", "0x1100\n");
	facts = probe(tree, "0000:00:02.0");
	assert_virt(facts, "qemu", "/sys/bus/pci/devices/0000:00:02.0/subsystem_vendor");
	assert_string_equal(facts->virt.vendor, "PCI subsystem 1af4:1100 of 0000:00:02.0");
	free(facts);
	/* A card's own subsystem (Intel's) says nothing. */
	put("/sys/bus/pci/devices/0000:00:02.0/subsystem_vendor", "0x8086\n");
	put("/sys/bus/pci/devices/0000:00:02.0/subsystem_device", "0x0001\n");
	facts = probe(tree, "0000:00:02.0");
	assert_virt(facts, "none", "/proc/cpuinfo");
	free(facts);
	free(host);
}

static void test_nothing_read(void **state)
{
	struct nd_facts *facts = probe(tree, NULL);

	(void)state;
	assert_false(facts->virt.st.known);
	assert_non_null(strstr(facts->virt.st.reason, "/proc/cpuinfo"));
	free(facts);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sos_lscpu),
		cmocka_unit_test_setup_teardown(test_dmi_first, setup, teardown),
		cmocka_unit_test_setup_teardown(test_subsystem_and_bare_metal, setup, teardown),
		cmocka_unit_test_setup_teardown(test_nothing_read, setup, teardown),
	};

	return cmocka_run_group_tests_name("probe_virt", tests, NULL, NULL);
}
