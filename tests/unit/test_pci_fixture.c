/*
 * test_pci_fixture.c - the libpci probe source on sysroot fixtures built
 * from real config space dumps (tests/fixtures/, see each README).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "nicdoctor/probe.h"
#include "nicdoctor/sysroot.h"

static struct nd_facts *probe_pci(const char *fixture, const char *ifname)
{
	char dir[256];
	struct nd_facts *facts = calloc(1, sizeof(*facts));
	struct nd_root *root;

	assert_non_null(facts);
	snprintf(dir, sizeof(dir), "tests/fixtures/%s", fixture);
	assert_int_equal(nd_root_open(dir, &root), 0);
	nd_probe_pci(root, ifname, facts);
	nd_root_close(root);
	return facts;
}

static void test_healthy_x16(void **state)
{
	struct nd_facts *f = probe_pci("healthy-x16", "enp1s0f0np0");
	const struct nd_pcie_link *dev = &f->pci.dev;

	(void)state;
	assert_true(f->pci.st.known);
	assert_string_equal(dev->address, "0000:01:00.0");
	assert_int_equal(dev->vendor_id, 0x15b3);
	assert_int_equal(dev->device_id, 0x1019);
	assert_string_equal(dev->port_type, "endpoint");
	assert_true(dev->is_pcie && dev->link_known && !dev->from_sysfs);
	assert_true(dev->cap_gts == 16.0 && dev->sta_gts == 16.0 && dev->cap2_max_gts == 16.0);
	assert_int_equal(dev->cap_width, 16);
	assert_int_equal(dev->sta_width, 16);
	assert_int_equal(dev->mps_bytes, 512);
	assert_int_equal(dev->mps_cap_bytes, 512);
	assert_int_equal(f->pci.numa_node, 0);
	/* The root port was not captured: listed in the chain, link unknown. */
	assert_int_equal(f->pci.n_upstream, 1);
	assert_string_equal(f->pci.upstream[0].address, "0000:00:01.0");
	assert_false(f->pci.upstream[0].link_known);
	assert_non_null(strstr(f->pci.upstream[0].link_reason, "not listed"));
	assert_int_equal(f->pci.n_siblings, 0);
	free(f);
}

static void test_downgraded_x1(void **state)
{
	struct nd_facts *f = probe_pci("downgraded-x1", "enp1s0f0np0");

	(void)state;
	assert_true(f->pci.dev.link_known);
	assert_true(f->pci.dev.cap_gts == 16.0 && f->pci.dev.sta_gts == 5.0);
	assert_int_equal(f->pci.dev.cap_width, 16);
	assert_int_equal(f->pci.dev.sta_width, 1);
	free(f);
}

static void test_downgraded_82599(void **state)
{
	struct nd_facts *f = probe_pci("downgraded-82599-x2", "eth0");
	const struct nd_pcie_link *dev = &f->pci.dev, *rp = &f->pci.upstream[0];

	(void)state;
	assert_true(f->pci.st.known);
	assert_int_equal(dev->vendor_id, 0x8086);
	assert_int_equal(dev->device_id, 0x10fb);
	assert_true(dev->cap_gts == 5.0 && dev->sta_gts == 2.5);
	assert_int_equal(dev->cap_width, 8);
	assert_int_equal(dev->sta_width, 2);
	assert_true(dev->cap2_max_gts == 0);		/* LnkCap2 is all zero in the dump */
	assert_int_equal(dev->mps_bytes, 128);		/* DevCtl */
	assert_int_equal(dev->mps_cap_bytes, 512);	/* DevCap */
	assert_int_equal(f->pci.n_upstream, 1);
	assert_string_equal(rp->address, "0000:00:10.0");
	assert_true(rp->from_sysfs && rp->link_known);
	assert_true(rp->sta_gts == 2.5);
	assert_int_equal(rp->sta_width, 2);
	assert_int_equal(f->pci.n_siblings, 1);
	assert_string_equal(f->pci.siblings[0].address, "0000:01:00.1");
	assert_int_equal(f->pci.siblings[0].sta_width, 2);
	free(f);
}

static void test_root_port_chain(void **state)
{
	struct nd_facts *f = probe_pci("healthy-cx3pro-rootport", "ens2");
	const struct nd_pcie_link *rp = &f->pci.upstream[0];

	(void)state;
	assert_int_equal(f->pci.dev.device_id, 0x1007);
	assert_true(f->pci.dev.sta_gts == 8.0);
	assert_int_equal(f->pci.dev.sta_width, 8);
	assert_int_equal(f->pci.dev.mps_bytes, 256);
	assert_int_equal(f->pci.n_upstream, 1);
	assert_string_equal(rp->address, "0000:00:02.0");
	assert_string_equal(rp->port_type, "root_port");
	assert_int_equal(rp->vendor_id, 0x8086);
	assert_true(rp->link_known && !rp->from_sysfs);
	assert_true(rp->cap_gts == 8.0 && rp->sta_gts == 8.0);
	assert_int_equal(rp->cap_width, 8);
	/* ASPM from the config bytes (lspci -F on the same bytes: root port
	 * "ASPM L1, Exit Latency L1 <16us", card "ASPM L0s, Exit Latency L0s
	 * unlimited", DevCap "Latency L0s <64ns, L1 unlimited", both
	 * "LnkCtl: ASPM Disabled"). */
	assert_true(rp->aspm.known);
	assert_true(rp->aspm.l1_supported && !rp->aspm.l0s_supported);
	assert_int_equal(rp->aspm.l1_exit_code, 4);
	assert_int_equal(rp->aspm.l0s_exit_code, 3);
	assert_false(rp->aspm.l0s_enabled || rp->aspm.l1_enabled);
	assert_false(rp->aspm.acceptable_known);
	assert_true(f->pci.dev.aspm.known && f->pci.dev.aspm.acceptable_known);
	assert_true(f->pci.dev.aspm.l0s_supported && !f->pci.dev.aspm.l1_supported);
	assert_int_equal(f->pci.dev.aspm.l0s_exit_code, 7);
	assert_int_equal(f->pci.dev.aspm.l0s_acceptable_code, 0);
	assert_int_equal(f->pci.dev.aspm.l1_acceptable_code, 7);
	free(f);
}

static void test_nonroot_64_bytes(void **state)
{
	struct nd_facts *f = probe_pci("nonroot-64b", "enp130s0f0");
	const struct nd_pcie_link *dev = &f->pci.dev;

	(void)state;
	assert_true(f->pci.st.known);
	assert_int_equal(dev->device_id, 0x1015);
	assert_true(dev->from_sysfs && dev->link_known && dev->is_pcie);
	assert_true(dev->sta_gts == 8.0);
	assert_int_equal(dev->sta_width, 8);
	assert_true(dev->cap_gts == 0);			/* max_link_* not captured */
	assert_int_equal(dev->mps_bytes, 0);
	assert_non_null(strstr(dev->link_reason, "64 bytes"));
	assert_int_equal(f->pci.numa_node, 2);
	free(f);
}

static void test_unknowns(void **state)
{
	struct nd_facts *f = probe_pci("irq-one-cpu", "eth1");

	(void)state;
	assert_false(f->pci.st.known);
	assert_non_null(strstr(f->pci.st.reason, "8b76:00:02.0"));
	free(f);
	f = probe_pci("healthy-x16", "nosuch0");
	assert_false(f->pci.st.known);
	assert_string_equal(f->pci.st.reason, "no PCI device (virtual interface)");
	free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_healthy_x16),
		cmocka_unit_test(test_downgraded_x1),
		cmocka_unit_test(test_downgraded_82599),
		cmocka_unit_test(test_root_port_chain),
		cmocka_unit_test(test_nonroot_64_bytes),
		cmocka_unit_test(test_unknowns),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
