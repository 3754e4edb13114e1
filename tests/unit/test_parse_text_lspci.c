/*
 * test_parse_text_lspci.c - lspci -vv text parser on real captures
 * (tests/fixtures/raw/): downgraded and healthy links in the "(ok)" /
 * "(downgraded)" format, the older format with no annotation, VFs with
 * "Speed unknown, Width x0", -nn ids, and space-indented pastes.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "raw_fixture.h"

#include "nicdoctor/parse_text.h"

static void device(const char *file, const char *address, struct nd_pcie_link *out)
{
	char *t = raw(file);
	struct nd_lspci_block b;

	assert_int_equal(nd_lspci_find(t, strlen(t), address, &b), 0);
	assert_int_equal(nd_parse_lspci_device(b.text, b.len, out), 0);
	free(t);
}

static void test_connectx4lx_downgraded(void **state)
{
	struct nd_pcie_link l;

	(void)state;
	device("lspci-vv-connectx4lx-8gt-x8-downgraded-x4.md", "08:00.0", &l);
	assert_string_equal(l.address, "0000:08:00.0");
	assert_string_equal(l.name, "Mellanox Technologies MT27710 Family [ConnectX-4 Lx]");
	assert_string_equal(l.port_type, "endpoint");
	assert_true(l.is_pcie);
	assert_true(l.link_known);
	assert_true(l.cap_gts == 8.0);
	assert_int_equal(l.cap_width, 8);
	assert_true(l.sta_gts == 8.0);
	assert_int_equal(l.sta_width, 4);
	assert_true(l.cap2_max_gts == 8.0);
	assert_int_equal(l.mps_cap_bytes, 512);
	assert_int_equal(l.mps_bytes, 256);
}

static void test_connectx7_and_vf(void **state)
{
	struct nd_pcie_link l;

	(void)state;
	device("lspci-vvv-connectx7-32gt-x16-downgraded-16gt-x8-plus-vfs.txt", "0000:b1:00.1", &l);
	assert_true(l.cap_gts == 32.0);
	assert_int_equal(l.cap_width, 16);
	assert_true(l.sta_gts == 16.0);
	assert_int_equal(l.sta_width, 8);
	assert_int_equal(l.mps_bytes, 512);
	assert_string_equal(l.name, "Mellanox Technologies MT2910 Family [ConnectX-7]");
	/* The VF: "Speed unknown (downgraded), Width x0 (downgraded)". */
	device("lspci-vvv-connectx7-32gt-x16-downgraded-16gt-x8-plus-vfs.txt", "b1:00.2", &l);
	assert_false(l.link_known);
	assert_true(l.sta_gts == 0);
	assert_int_equal(l.sta_width, 0);
	assert_int_equal(l.mps_bytes, 128);
	assert_string_equal(l.link_reason, "LnkSta gives no speed or width (a VF, or the link is down)");
}

static void test_mikrotik_spaces(void **state)
{
	struct nd_pcie_link l;

	(void)state;
	device("lspci-vvv-mikrotik-ccr2004-25g-8gt-x8-downgraded-5gt-x1.md", "01:00.0", &l);
	assert_true(l.cap_gts == 8.0);
	assert_int_equal(l.cap_width, 8);
	assert_true(l.sta_gts == 5.0);
	assert_int_equal(l.sta_width, 1);
	assert_int_equal(l.mps_cap_bytes, 256);
	assert_int_equal(l.mps_bytes, 128);
}

static void test_healthy(void **state)
{
	struct nd_pcie_link l;

	(void)state;
	device("lspci-vv-e810xxv-16gt-x8-ok.md", "01:00.0", &l);
	assert_true(l.cap_gts == 16.0 && l.sta_gts == 16.0);
	assert_int_equal(l.cap_width, 8);
	assert_int_equal(l.sta_width, 8);
	assert_true(l.cap2_max_gts == 16.0);
	/* Listed twice (short, then -vv): the -vv block is taken. */
	device("lspci-vv-x550t2-8gt-x4-ok.md", "05:00.0", &l);
	assert_string_equal(l.name, "Intel Corporation Ethernet Controller 10G X550T");
	assert_true(l.cap_gts == 8.0 && l.sta_gts == 8.0);
	assert_int_equal(l.sta_width, 4);
	/* pciutils < 3.6: "LnkSta: Speed 2.5GT/s, Width x8, TrErr- ..." */
	device("lspci-vvxxx-myri10g-2.5gt-x8-pciutils-test.txt", "02:00.0", &l);
	assert_true(l.sta_gts == 2.5);
	assert_int_equal(l.sta_width, 8);
	assert_true(l.cap_gts == 2.5);
}

/* LnkCap's supported states and exit latencies, LnkCtl's enabled ones,
 * DevCap's acceptable latencies (endpoints), as the spec's codes. */
static void test_aspm(void **state)
{
	struct nd_pcie_link l;

	(void)state;
	/* pciutils' test capture: a root port, "ASPM L1, Exit Latency L1
	 * <16us", "LnkCtl: ASPM L1 Enabled"; a root port has no acceptable
	 * latency in DevCap. */
	device("lspci-vvxxxx-rootport-aspm-l1-enabled-pciutils-test.txt", "00:1c.0", &l);
	assert_true(l.aspm.known);
	assert_false(l.aspm.l0s_supported);
	assert_true(l.aspm.l1_supported);
	assert_false(l.aspm.l0s_enabled);
	assert_true(l.aspm.l1_enabled);
	assert_int_equal(l.aspm.l1_exit_code, 4);		/* <16us: 1000 << 4 ns */
	assert_false(l.aspm.acceptable_known);
	/* The X550: "Latency L0s <512ns, L1 <64us", "ASPM L0s L1, Exit
	 * Latency L0s <2us, L1 <16us", "LnkCtl: ASPM Disabled". */
	device("lspci-vv-x550t2-8gt-x4-ok.md", "05:00.0", &l);
	assert_true(l.aspm.known);
	assert_true(l.aspm.l0s_supported && l.aspm.l1_supported);
	assert_false(l.aspm.l0s_enabled || l.aspm.l1_enabled);
	assert_int_equal(l.aspm.l0s_exit_code, 5);		/* <2us: 64 << 5 ns */
	assert_int_equal(l.aspm.l1_exit_code, 4);
	assert_true(l.aspm.acceptable_known);
	assert_int_equal(l.aspm.l0s_acceptable_code, 3);	/* <512ns */
	assert_int_equal(l.aspm.l1_acceptable_code, 6);		/* <64us */
	/* qemu-devel's 82576 (a mail, indented): an endpoint with L1 on. */
	device("lspci-vv-82576-igb-aspm-l1-enabled-qemu-devel.txt", "00:10.0", &l);
	assert_true(l.aspm.known && l.aspm.l1_enabled && !l.aspm.l0s_enabled);
	assert_int_equal(l.aspm.l0s_exit_code, 6);		/* <4us */
	assert_int_equal(l.aspm.l1_exit_code, 6);		/* <64us */
	assert_true(l.aspm.acceptable_known);
	assert_int_equal(l.aspm.l0s_acceptable_code, 3);
	assert_int_equal(l.aspm.l1_acceptable_code, 6);
	/* pciutils < 3.1: "ASPM L0s, Latency L0 unlimited, L1 unlimited". */
	device("lspci-vvxxx-myri10g-2.5gt-x8-pciutils-test.txt", "02:00.0", &l);
	assert_true(l.aspm.known && l.aspm.l0s_supported && !l.aspm.l1_supported);
	assert_int_equal(l.aspm.l0s_exit_code, 7);
	assert_int_equal(l.aspm.l1_exit_code, 7);
	/* "ASPM not supported", "Latency L0s unlimited, L1 unlimited". */
	device("lspci-vvv-mikrotik-ccr2004-25g-8gt-x8-downgraded-5gt-x1.md", "01:00.0", &l);
	assert_true(l.aspm.known);
	assert_false(l.aspm.l0s_supported || l.aspm.l1_supported);
	assert_int_equal(l.aspm.l0s_acceptable_code, 7);
	assert_int_equal(l.aspm.l1_acceptable_code, 7);
}

static void test_nn_ids_and_no_express(void **state)
{
	char *t = raw("sos42-lspci_-nnvv-kvm-virtio.txt");
	struct nd_lspci_block b;
	struct nd_pcie_link l;
	size_t pos = 0;
	unsigned n = 0;

	(void)state;
	while (nd_lspci_next(t, strlen(t), &pos, &b) == 0)
		n++;
	assert_int_equal(n, 10);
	assert_int_equal(nd_lspci_find(t, strlen(t), "00:03.0", &b), 0);
	assert_int_equal(nd_parse_lspci_device(b.text, b.len, &l), 0);
	assert_int_equal(l.vendor_id, 0x1af4);
	assert_int_equal(l.device_id, 0x1000);
	assert_string_equal(l.name, "Red Hat, Inc. Virtio network device");
	assert_false(l.is_pcie);
	assert_false(l.link_known);
	assert_int_equal(nd_lspci_find(t, strlen(t), "00:1f.0", &b), -ENOENT);
	free(t);
	assert_int_equal(nd_parse_lspci_device("garbage\n", 8, &l), -EINVAL);
}

/* A header line with nothing below (plain lspci): no capability list is
 * no word on PCI Express, unlike a list without it. */
static void test_no_capability_list(void **state)
{
	static const char plain[] = "05:00.0 Ethernet controller: Intel Corporation Ethernet "
				    "Controller 10G X550T (rev 01)\n";
	static const char conventional[] = "05:00.0 Ethernet controller: Some PCI NIC\n"
					   "\tControl: I/O- Mem+ BusMaster+\n"
					   "\tCapabilities: [dc] Power Management version 2\n";
	struct nd_pcie_link l;

	(void)state;
	assert_int_equal(nd_parse_lspci_device(plain, strlen(plain), &l), 0);
	assert_false(l.is_pcie);
	assert_false(l.link_known);
	assert_string_equal(l.link_reason, "the lspci text lists no capabilities (not lspci -vv)");
	assert_int_equal(nd_parse_lspci_device(conventional, strlen(conventional), &l), 0);
	assert_non_null(strstr(l.link_reason, "no PCI Express capability"));
}

/* lspci -PP: each header is the path from the root bus; the function is
 * its last component, in the first's domain. */
static void test_pp_path_headers(void **state)
{
	char *t = raw("lspci-vv-PP-82599-tn-rpi5-excerpt.txt");
	static const char two[] = "00:1c.0/03:00.0 Ethernet controller: A\n"
				  "00:1c.0/03:00.1 Ethernet controller: A\n";
	struct nd_lspci_block b;
	struct nd_pcie_link l;
	size_t pos = 0;

	(void)state;
	assert_int_equal(nd_lspci_next(t, strlen(t), &pos, &b), 0);
	assert_string_equal(b.address, "0000:01:00.0");
	assert_int_equal(b.len, strlen(t));
	assert_int_equal(nd_lspci_find(t, strlen(t), "0000:01:00.0", &b), 0);
	assert_int_equal(nd_parse_lspci_device(b.text, b.len, &l), 0);
	assert_int_equal(l.vendor_id, 0x8086);
	assert_int_equal(l.device_id, 0x151c);
	assert_string_equal(l.name, "Intel Corporation 82599 10 Gigabit TN Network Connection");
	/* The excerpt ends before the Express capability: not read, not "not PCIe". */
	assert_false(l.link_known);
	assert_int_equal(nd_lspci_find(two, sizeof(two) - 1, "03:00.1", &b), 0);
	assert_string_equal(b.address, "0000:03:00.1");
	assert_int_equal(nd_lspci_find(two, sizeof(two) - 1, "00:1c.0", &b), -ENOENT);
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_connectx4lx_downgraded),
		cmocka_unit_test(test_connectx7_and_vf),
		cmocka_unit_test(test_mikrotik_spaces),
		cmocka_unit_test(test_healthy),
		cmocka_unit_test(test_aspm),
		cmocka_unit_test(test_nn_ids_and_no_express),
		cmocka_unit_test(test_no_capability_list),
		cmocka_unit_test(test_pp_path_headers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
