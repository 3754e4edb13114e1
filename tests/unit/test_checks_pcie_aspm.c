/*
 * test_checks_pcie_aspm.c - pcie.aspm_latency on hand-made chains: a NIC
 * behind a PCIe switch (the intel-wired-lan "NAT performance issue 944mbit
 * -> ~40mbit" shape: an I211 behind a switch whose L1 exits add up past
 * what the NIC accepts), within budget, off, L0s, and the unknowns.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "checks_nic_fixture.h"
#include "raw_fixture.h"
#include "nicdoctor/parse_text.h"

static void set_aspm(struct nd_pcie_link *link, bool l1_enabled, unsigned l1_exit_code)
{
	link->aspm.known = true;
	link->aspm.l0s_supported = link->aspm.l1_supported = true;
	link->aspm.l1_enabled = l1_enabled;
	link->aspm.l1_exit_code = l1_exit_code;
	link->aspm.l0s_exit_code = 3;			/* <512ns */
}

/* 03:00.0 (the NIC) - 02:01.0 (switch downstream) | 01:00.0 (switch
 * upstream) - 00:1c.0 (root port): two links, one switch crossed. */
static struct nd_facts *behind_switch(unsigned acceptable_l1_code)
{
	struct nd_facts *facts = healthy_facts();
	struct nd_pci *pci = &facts->pci;

	set_function(&pci->dev, "0000:03:00.0", "endpoint", 2.5, 1);
	set_aspm(&pci->dev, true, 3);			/* <8us */
	pci->dev.aspm.acceptable_known = true;
	pci->dev.aspm.l0s_acceptable_code = 3;		/* <512ns */
	pci->dev.aspm.l1_acceptable_code = acceptable_l1_code;
	pci->n_upstream = 3;
	set_function(&pci->upstream[0], "0000:02:01.0", "downstream", 2.5, 1);
	set_aspm(&pci->upstream[0], true, 2);		/* <4us */
	set_function(&pci->upstream[1], "0000:01:00.0", "upstream", 5, 1);
	set_aspm(&pci->upstream[1], true, 4);		/* <16us */
	set_function(&pci->upstream[2], "0000:00:1c.0", "root_port", 5, 1);
	set_aspm(&pci->upstream[2], true, 2);
	return facts;
}

static void test_switch_over_budget(void **state)
{
	struct nd_facts *facts = behind_switch(3);	/* the NIC accepts 8 us */

	(void)state;
	run("pcie.aspm_latency", facts);
	/* The second link wakes in max(8, 16) + 1 (one switch) = 17 us. */
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_true(evidence_number("l1_total_us") == 17);
	assert_true(evidence_number("acceptable_l1_us") == 8);
	assert_string_equal(evidence_string("decided_by"), "0000:01:00.0-0000:00:1c.0");
	assert_non_null(strstr(finding.title, "17 us"));
	assert_non_null(strstr(finding.title, "8 us"));
	assert_true(finding.ceiling_mbps < 0);
	assert_string_equal(finding.fix.id, "pcie_aspm");
	assert_string_equal(finding.fix.commands[0],
			    "echo 0 > /sys/bus/pci/devices/0000:03:00.0/link/l1_aspm");
	assert_string_equal(finding.fix.commands[1],
			    "echo 0 > /sys/bus/pci/devices/0000:01:00.0/link/l1_aspm");
	/* Everything else is a comment: nothing that is not a command runs. */
	for (unsigned i = 2; i < finding.fix.n_commands; i++)
		assert_int_equal(finding.fix.commands[i][0], '#');
	/* L1 off on the far link: the near one alone is within 8 us. */
	facts->pci.upstream[1].aspm.l1_enabled = false;
	facts->pci.upstream[2].aspm.l1_enabled = false;
	run("pcie.aspm_latency", facts);
	assert_int_equal(finding.severity, ND_SEV_INFO);
	assert_true(evidence_number("l1_total_us") == 8);
	free(facts);
}

static void test_within_budget_and_off(void **state)
{
	struct nd_facts *facts = behind_switch(6);	/* <64us */

	(void)state;
	run("pcie.aspm_latency", facts);
	assert_int_equal(finding.severity, ND_SEV_INFO);
	assert_non_null(strstr(finding.title, "ASPM L1 enabled: exits add up to 17 us on wake"));
	assert_true(evidence_number("acceptable_l1_us") == 64);
	/* "no limit" (code 7): never over budget. */
	facts->pci.dev.aspm.l1_acceptable_code = 7;
	run("pcie.aspm_latency", facts);
	assert_int_equal(finding.severity, ND_SEV_INFO);
	assert_string_equal(evidence_string("acceptable_l1_us"), "no limit");
	/* ASPM off on both links. */
	facts->pci.dev.aspm.l1_enabled = facts->pci.upstream[0].aspm.l1_enabled = false;
	facts->pci.upstream[1].aspm.l1_enabled = facts->pci.upstream[2].aspm.l1_enabled = false;
	run("pcie.aspm_latency", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	assert_int_equal(finding.fix.n_commands, 0);
	free(facts);
}

static void test_l0s_and_one_end(void **state)
{
	struct nd_facts *facts = behind_switch(6);

	(void)state;
	/* L0s on the NIC's link, exit "unlimited" (> 4 us) against 512 ns. */
	facts->pci.dev.aspm.l0s_enabled = true;
	facts->pci.dev.aspm.l0s_exit_code = 7;
	run("pcie.aspm_latency", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_non_null(strstr(finding.title, "L0s"));
	assert_string_equal(finding.fix.commands[0],
			    "echo 0 > /sys/bus/pci/devices/0000:03:00.0/link/l0s_aspm");
	free(facts);
	/* The port above not read (a record naming no bridges): the NIC's
	 * own end is judged, and the evidence says the other is unknown. */
	facts = behind_switch(3);
	facts->pci.n_upstream = 0;
	facts->pci.dev.aspm.l1_exit_code = 4;		/* 16 us > 8 */
	run("pcie.aspm_latency", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_true(evidence_number("l1_total_us") == 16);
	assert_non_null(strstr(evidence_string("note"), "not read"));
	free(facts);
}

/* A real capture (qemu-devel, 2025-03-03): an 82576 with "LnkCtl: ASPM
 * L1 Enabled", L1 exit <64us, DevCap acceptable L1 <64us, no port above
 * in the guest.  64 us against 64 us is within budget (the kernel's test
 * is "greater than"): info, not a warning. */
static void test_real_82576_within_budget(void **state)
{
	struct nd_facts *facts = healthy_facts();
	char *text = raw("lspci-vv-82576-igb-aspm-l1-enabled-qemu-devel.txt");
	struct nd_lspci_block block;

	(void)state;
	assert_int_equal(nd_lspci_find(text, strlen(text), "00:10.0", &block), 0);
	assert_int_equal(nd_parse_lspci_device(block.text, block.len, &facts->pci.dev), 0);
	facts->pci.n_upstream = 0;
	run("pcie.aspm_latency", facts);
	assert_int_equal(finding.severity, ND_SEV_INFO);
	assert_string_equal(finding.title, "ASPM L1 enabled: exits add up to 64 us on wake "
			    "(the NIC accepts 64 us)");
	assert_true(evidence_number("l1_total_us") == 64);
	assert_true(evidence_number("acceptable_l1_us") == 64);
	free(text);
	free(facts);
}

static void test_unknowns(void **state)
{
	struct nd_facts *facts = behind_switch(3);

	(void)state;
	facts->pci.dev.aspm.known = false;
	run("pcie.aspm_latency", facts);
	assert_unknown("ASPM (LnkCap/LnkCtl)");
	facts->pci.dev.aspm.known = true;
	facts->pci.dev.aspm.acceptable_known = false;
	run("pcie.aspm_latency", facts);
	assert_unknown("acceptable latency (DevCap)");
	nd_status_set_unknown(&facts->pci.st, "no lspci");
	run("pcie.aspm_latency", facts);
	assert_unknown("pci");
	facts->pci.no_device = true;
	run("pcie.aspm_latency", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	free(facts);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_switch_over_budget, teardown),
		cmocka_unit_test_teardown(test_within_budget_and_off, teardown),
		cmocka_unit_test_teardown(test_l0s_and_one_end, teardown),
		cmocka_unit_test_teardown(test_real_82576_within_budget, teardown),
		cmocka_unit_test_teardown(test_unknowns, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
