/*
 * test_checks_virt.c - guest NICs: the PCIe checks do not apply to a
 * paravirtual function (virtio, vmxnet3), to an emulated NIC in a VM, or
 * to a VF whose LnkSta is x0; a physical card with the same link still
 * gets its finding.  The q35 case is the issue's: virtio with a
 * host-set speed of 25000 behind QEMU's 2.5GT/s x1 root port.
 * virt.emulated_nic on each emulated model, with the hypervisor's fix;
 * an emulated NIC's speed and duplex are no wire's; virt.virtio_queues
 * on the queue pairs a virtio host offers its 8 vCPUs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "checks_nic_fixture.h"

static const char *const pcie_checks[] = {
	"pcie.link_downgraded", "pcie.slot_too_slow", "pcie.aspm_latency",
};

/* A q35 guest: the NIC at 01:00.0 behind QEMU's root port, both
 * 2.5GT/s x1 (QEMU's defaults), speed 25000 set on the host. */
static struct nd_facts *q35_guest(uint16_t vendor, uint16_t device, const char *driver)
{
	struct nd_facts *facts = healthy_facts();

	set_function(&facts->pci.dev, "0000:01:00.0", "endpoint", 2.5, 1);
	facts->pci.dev.vendor_id = vendor;
	facts->pci.dev.device_id = device;
	facts->pci.dev.mps_bytes = 128;
	facts->pci.n_siblings = 0;
	facts->pci.n_upstream = 1;
	set_function(&facts->pci.upstream[0], "0000:00:02.0", "root_port", 2.5, 1);
	nd_status_set_known(&facts->drvinfo.st);
	nd_strlcpy(facts->drvinfo.driver, driver, sizeof(facts->drvinfo.driver));
	facts->linkmodes.speed_mbps = 25000;
	return facts;
}

static void set_virt(struct nd_facts *facts, const char *kind)
{
	nd_status_set_known(&facts->virt.st);
	nd_strlcpy(facts->virt.kind, kind, sizeof(facts->virt.kind));
}

static void assert_not_applicable(const char *phrase)
{
	assert_true(finding.not_applicable);
	assert_int_equal(finding.severity, ND_SEV_OK);
	assert_true(finding.ceiling_mbps < 0);
	assert_int_equal(finding.fix.n_commands, 0);
	if (!strstr(finding.title, phrase))
		fail_msg("title '%s' lacks '%s'", finding.title, phrase);
}

static void test_physical_card_same_link_is_critical(void **state)
{
	/* The same link under an Intel card: the finding the guest must not get. */
	struct nd_facts *facts = q35_guest(0x8086, 0x159b, "ice");

	(void)state;
	run("pcie.slot_too_slow", facts);
	assert_int_equal(finding.severity, ND_SEV_CRITICAL);
	assert_false(finding.not_applicable);
	free(facts);
}

static void test_virtio_q35_not_applicable(void **state)
{
	struct nd_facts *facts = q35_guest(0x1af4, 0x1041, "virtio_net");

	(void)state;
	for (size_t i = 0; i < ND_ARRAY_SIZE(pcie_checks); i++) {
		run(pcie_checks[i], facts);
		assert_not_applicable("a paravirtual function (virtio_net, 1af4:1041): no PCIe link");
	}
	/* By the IDs alone (no driver read), and by the driver alone. */
	facts->drvinfo.st.known = false;
	run("pcie.slot_too_slow", facts);
	assert_not_applicable("a paravirtual function (1af4:1041)");
	nd_status_set_known(&facts->drvinfo.st);
	facts->pci.dev.vendor_id = facts->pci.dev.device_id = 0;
	run("pcie.slot_too_slow", facts);
	assert_not_applicable("a paravirtual function (virtio_net)");
	free(facts);
}

static void test_vmxnet3_not_applicable(void **state)
{
	struct nd_facts *facts = q35_guest(0x15ad, 0x07b0, "vmxnet3");

	(void)state;
	facts->linkmodes.speed_mbps = 10000;
	for (size_t i = 0; i < ND_ARRAY_SIZE(pcie_checks); i++) {
		run(pcie_checks[i], facts);
		assert_not_applicable("a paravirtual function (vmxnet3, 15ad:07b0)");
	}
	free(facts);
}

static void test_emulated_only_in_a_vm(void **state)
{
	/* QEMU's e1000e is an 82574L: a real card too, judged on bare metal. */
	struct nd_facts *facts = q35_guest(0x8086, 0x10d3, "e1000e");

	(void)state;
	facts->linkmodes.speed_mbps = 1000;
	facts->pci.upstream[0].cap_gts = facts->pci.upstream[0].sta_gts = 2.5;
	facts->pci.dev.sta_gts = 2.5;
	facts->pci.dev.cap_gts = 5;	/* trained below capability */
	set_virt(facts, "none");
	run("pcie.link_downgraded", facts);
	assert_false(finding.not_applicable);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	set_virt(facts, "qemu");
	for (size_t i = 0; i < ND_ARRAY_SIZE(pcie_checks); i++) {
		run(pcie_checks[i], facts);
		assert_not_applicable("an emulated NIC in a qemu VM (e1000e, 8086:10d3)");
	}
	set_virt(facts, "unknown");
	run("pcie.slot_too_slow", facts);
	assert_not_applicable("an emulated NIC in a VM (e1000e");
	free(facts);
}

static void test_vf_width_x0_not_applicable(void **state)
{
	/* lspci of a VF: "LnkCap: Speed 8GT/s, Width x8", "LnkSta: Speed unknown, Width x0". */
	struct nd_facts *facts = healthy_facts();

	(void)state;
	facts->pci.dev.cap_gts = 8;
	facts->pci.dev.sta_gts = 0;
	facts->pci.dev.sta_width = 0;
	nd_status_set_known(&facts->drvinfo.st);
	nd_strlcpy(facts->drvinfo.driver, "iavf", sizeof(facts->drvinfo.driver));
	for (size_t i = 0; i < ND_ARRAY_SIZE(pcie_checks); i++) {
		run(pcie_checks[i], facts);
		assert_not_applicable("a virtual function (iavf, 8086:159b): LnkSta x0, its "
				      "link is the physical function's");
	}
	free(facts);
}


/* QEMU's pcnet as a Debian guest reports it: 10 Mb/s half duplex. */
static struct nd_facts *pcnet_guest(const char *kind)
{
	struct nd_facts *facts = q35_guest(0x1022, 0x2000, "pcnet32");

	facts->pci.dev.is_pcie = false;
	facts->linkmodes.speed_mbps = 10;
	facts->linkmodes.duplex = 0;
	facts->linkmodes.autoneg = false;
	nd_strlcpy(facts->link.mac, "52:54:00:12:34:56", sizeof(facts->link.mac));
	set_virt(facts, kind);
	return facts;
}

static bool fix_has(const char *text)
{
	for (unsigned i = 0; i < finding.fix.n_commands; i++)
		if (strstr(finding.fix.commands[i], text))
			return true;
	return false;
}

static void test_emulated_nic_qemu(void **state)
{
	struct nd_facts *facts = pcnet_guest("qemu");

	(void)state;
	run("virt.emulated_nic", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_true(finding.ceiling_mbps < 0);
	assert_non_null(strstr(finding.title, "emulated AMD PCnet32 (79C970) in a qemu VM"));
	assert_string_equal(evidence_string("paravirtual_driver"), "virtio_net");
	assert_string_equal(finding.fix.id, "virt_nic");
	assert_true(fix_has("<model type='virtio'/>"));
	assert_true(fix_has("qm set VMID --net0 virtio=52:54:00:12:34:56,bridge=vmbr0"));
	assert_false(fix_has("VBoxManage"));
	/* Every fix line a comment: the change is on the hypervisor. */
	for (unsigned i = 0; i < finding.fix.n_commands; i++)
		assert_int_equal(finding.fix.commands[i][0], '#');
	free(facts);
}

static void test_emulated_nic_other_hypervisors(void **state)
{
	struct nd_facts *facts = pcnet_guest("vmware");

	(void)state;
	run("virt.emulated_nic", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_string_equal(evidence_string("paravirtual_driver"), "vmxnet3");
	assert_true(fix_has("ethernet0.virtualDev = \"vmxnet3\""));
	assert_false(fix_has("qm set"));
	set_virt(facts, "virtualbox");
	run("virt.emulated_nic", facts);
	assert_true(fix_has("VBoxManage modifyvm VM --nictype1 virtio"));
	/* A VM of no known hypervisor: each one's setting. */
	set_virt(facts, "unknown");
	run("virt.emulated_nic", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_true(fix_has("qm set") && fix_has("VMXNET 3") && fix_has("VBoxManage"));
	free(facts);
}

static void test_emulated_nic_not_here(void **state)
{
	struct nd_facts *facts = pcnet_guest("none");

	(void)state;
	run("virt.emulated_nic", facts);
	assert_true(finding.not_applicable);
	assert_non_null(strstr(finding.title, "a real pcnet32 card"));
	facts->virt.st.known = false;
	nd_strlcpy(facts->virt.st.reason, "nothing read", sizeof(facts->virt.st.reason));
	run("virt.emulated_nic", facts);
	assert_unknown("whether the host is a VM");
	free(facts);
	facts = q35_guest(0x1af4, 0x1041, "virtio_net");
	set_virt(facts, "qemu");
	run("virt.emulated_nic", facts);
	assert_true(finding.not_applicable);
	free(facts);
}

static void test_emulated_speed_is_a_label(void **state)
{
	struct nd_facts *facts = pcnet_guest("qemu");

	(void)state;
	run("link.half_duplex", facts);
	assert_not_applicable("an emulated NIC in a qemu VM (pcnet32, 1022:2000): the speed is "
			      "a label");
	run("link.speed_below_max", facts);
	assert_not_applicable("the speed is a label");
	assert_true(nd_facts_wire_ceiling_mbps(facts) < 0);
	/* On bare metal the same half duplex is a finding. */
	set_virt(facts, "none");
	run("link.half_duplex", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_true(nd_facts_wire_ceiling_mbps(facts) > 0);
	free(facts);
}

/* A virtio guest on the healthy host's 8 CPUs, the host offering
 * host_max queue pairs, all in use, RPS off. */
static struct nd_facts *virtio_guest(unsigned host_max)
{
	struct nd_facts *facts = q35_guest(0x1af4, 0x1041, "virtio_net");

	facts->channels.combined = facts->channels.combined_max = host_max;
	facts->channels.rx_max = facts->channels.tx_max = 0;
	facts->queues.n_rx = facts->queues.n_tx = host_max;
	nd_strlcpy(facts->link.mac, "52:54:00:12:34:56", sizeof(facts->link.mac));
	set_virt(facts, "qemu");
	return facts;
}

static void test_virtio_one_queue_pair(void **state)
{
	struct nd_facts *facts = virtio_guest(1);

	(void)state;
	run("virt.virtio_queues", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_true(evidence_number("host_queue_pairs") == 1);
	assert_true(evidence_number("vcpus") == HEALTHY_CPUS);
	assert_non_null(strstr(finding.title, "the host offers 1 virtio queue pair to 8 vCPUs"));
	assert_string_equal(finding.fix.id, "virt_queues");
	assert_true(fix_has("<driver name='vhost' queues='8'/>"));
	assert_true(fix_has("qm set VMID --net0 virtio=52:54:00:12:34:56,bridge=vmbr0,queues=8"));
	assert_true(fix_has("ethtool -L " HEALTHY_IF " combined 8"));
	/* RPS meanwhile: the one command that is not a comment. */
	assert_string_equal(finding.fix.commands[finding.fix.n_commands - 1],
			    "echo ff > /sys/class/net/" HEALTHY_IF "/queues/rx-0/rps_cpus");
	/* queues.single passes it on instead of "the device has no more". */
	run("queues.single", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	assert_non_null(strstr(finding.title, "the host offers no more (see virt.virtio_queues)"));
	/* With RPS on already, no RPS line. */
	nd_cpuset_add(&facts->queues.rps_cpus[0], 1);
	run("virt.virtio_queues", facts);
	assert_false(fix_has("rps_cpus"));
	free(facts);
}

static void test_virtio_queue_pairs_enough(void **state)
{
	struct nd_facts *facts = virtio_guest(HEALTHY_CPUS);

	(void)state;
	run("virt.virtio_queues", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	assert_int_equal(finding.fix.n_commands, 0);
	free(facts);
	/* 4 of 8: a warning (below min(vCPUs, 8)); on 16 vCPUs 8 is info. */
	facts = virtio_guest(4);
	run("virt.virtio_queues", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	run("queues.below_cpus", facts);
	assert_non_null(strstr(finding.title, "see virt.virtio_queues"));
	facts->channels.combined = facts->channels.combined_max = 8;
	facts->cpus.n_online = 16;
	run("virt.virtio_queues", facts);
	assert_int_equal(finding.severity, ND_SEV_INFO);
	facts->channels.st.known = false;
	run("virt.virtio_queues", facts);
	assert_int_equal(finding.severity, ND_SEV_UNKNOWN);
	free(facts);
	/* A physical card's maximum is its hardware's: not this check's. */
	facts = healthy_facts();
	run("virt.virtio_queues", facts);
	assert_true(finding.not_applicable);
	free(facts);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_physical_card_same_link_is_critical, teardown),
		cmocka_unit_test_teardown(test_virtio_q35_not_applicable, teardown),
		cmocka_unit_test_teardown(test_vmxnet3_not_applicable, teardown),
		cmocka_unit_test_teardown(test_emulated_only_in_a_vm, teardown),
		cmocka_unit_test_teardown(test_vf_width_x0_not_applicable, teardown),
		cmocka_unit_test_teardown(test_emulated_nic_qemu, teardown),
		cmocka_unit_test_teardown(test_emulated_nic_other_hypervisors, teardown),
		cmocka_unit_test_teardown(test_emulated_nic_not_here, teardown),
		cmocka_unit_test_teardown(test_emulated_speed_is_a_label, teardown),
		cmocka_unit_test_teardown(test_virtio_one_queue_pair, teardown),
		cmocka_unit_test_teardown(test_virtio_queue_pairs_enough, teardown),
	};

	return cmocka_run_group_tests_name("checks_virt", tests, NULL, NULL);
}
