/*
 * test_checks_foundation.c - the four foundation checks on hand-made facts:
 * flagged, ok and unknown for each, and the field cases' numbers.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "nicdoctor/check.h"
#include "nicdoctor/common.h"

static struct nd_finding finding;

static struct nd_facts *facts_new(void)
{
	struct nd_facts *facts = calloc(1, sizeof(*facts));

	assert_non_null(facts);
	nd_strlcpy(facts->ifname, "enp9s0f0", sizeof(facts->ifname));
	nd_status_set_known(&facts->cpus.st);
	for (unsigned cpu = 0; cpu < 4; cpu++)
		nd_cpuset_add(&facts->cpus.online, cpu);
	facts->cpus.n_online = 4;
	nd_status_set_known(&facts->link.st);
	facts->link.mtu = 1500;
	nd_status_set_known(&facts->linkmodes.st);
	facts->linkmodes.speed_mbps = 10000;
	return facts;
}

static void run(const char *id, const struct nd_facts *facts)
{
	const struct nd_check *check = nd_check_find(id);

	assert_non_null(check);
	nd_finding_free(&finding);
	nd_check_run(check, facts, &finding);
}

static const char *evidence_string(const char *key)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(finding.evidence, key);

	return cJSON_IsString(item) ? item->valuestring : "";
}

/* An 82599-like 10G endpoint capable of 5 GT/s x8. */
static void set_pcie(struct nd_facts *facts, double sta_gts, unsigned sta_width, unsigned mps)
{
	struct nd_pcie_link *dev = &facts->pci.dev;

	nd_status_set_known(&facts->pci.st);
	nd_strlcpy(dev->address, "0000:09:00.0", sizeof(dev->address));
	nd_strlcpy(dev->port_type, "endpoint", sizeof(dev->port_type));
	dev->is_pcie = dev->link_known = true;
	dev->cap_gts = 5;
	dev->cap_width = 8;
	dev->sta_gts = sta_gts;
	dev->sta_width = sta_width;
	dev->mps_bytes = mps;
}

static void test_pcie_field_case_critical(void **state)
{
	struct nd_facts *facts = facts_new();

	(void)state;
	set_pcie(facts, 5, 1, 256);
	run("pcie.link_downgraded", facts);
	assert_int_equal(finding.severity, ND_SEV_CRITICAL);
	assert_true(finding.ceiling_mbps == 3657);
	assert_string_equal(finding.ceiling_source, "pcie");
	assert_string_equal(evidence_string("lnksta"), "5GT/s x1");
	assert_non_null(strstr(evidence_string("math"), "= 3657 Mbit/s"));
	assert_string_equal(finding.fix.id, "pcie_slot");
	free(facts);
}

static void test_pcie_downgraded_but_enough_is_warning(void **state)
{
	struct nd_facts *facts = facts_new();

	(void)state;
	/* 5 GT/s x4 with MPS 256 carries 14629 Mbit/s: above 10GbE's goodput. */
	set_pcie(facts, 5, 4, 256);
	run("pcie.link_downgraded", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	/* Unknown speed: cannot compare with the wire, so never critical. */
	set_pcie(facts, 2.5, 2, 128);
	facts->linkmodes.speed_mbps = -1;
	run("pcie.link_downgraded", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_true(finding.ceiling_mbps == 3368);
	free(facts);
}

static void test_pcie_ok_and_exempt_ports(void **state)
{
	struct nd_facts *facts = facts_new();

	(void)state;
	set_pcie(facts, 5, 8, 256);
	run("pcie.link_downgraded", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	/* A root port's LnkCap describes the slot: pciutils never calls it downgraded. */
	facts->pci.n_upstream = 1;
	facts->pci.upstream[0] = facts->pci.dev;
	nd_strlcpy(facts->pci.upstream[0].port_type, "root_port", 24);
	facts->pci.upstream[0].cap_width = 16;
	run("pcie.link_downgraded", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	/* A switch's upstream port below capability is judged. */
	nd_strlcpy(facts->pci.upstream[0].port_type, "upstream", 24);
	run("pcie.link_downgraded", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	free(facts);
}

static void test_pcie_unknown(void **state)
{
	struct nd_facts *facts = facts_new();

	(void)state;
	nd_status_set_unknown(&facts->pci.st, "no PCI device (virtual interface)");
	run("pcie.link_downgraded", facts);
	assert_int_equal(finding.severity, ND_SEV_UNKNOWN);
	assert_string_equal(evidence_string("reason"), "no PCI device (virtual interface)");
	set_pcie(facts, 0, 0, 0);	/* a VF: "Speed unknown, Width x0" */
	run("pcie.link_downgraded", facts);
	/* Its link is the PF's: nothing to judge (test_checks_virt.c). */
	assert_true(finding.not_applicable);
	assert_int_equal(finding.severity, ND_SEV_OK);
	free(facts);
}

static void set_channels(struct nd_facts *facts, unsigned combined, unsigned combined_max)
{
	nd_status_set_known(&facts->channels.st);
	facts->channels.combined = combined;
	facts->channels.combined_max = combined_max;
}

static void test_queues_single(void **state)
{
	struct nd_facts *facts = facts_new();

	(void)state;
	set_channels(facts, 1, 63);
	run("queues.single", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_string_equal(finding.fix.commands[0], "ethtool -L enp9s0f0 combined 4");
	set_channels(facts, 4, 63);
	run("queues.single", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	set_channels(facts, 1, 1);
	run("queues.single", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	/* One queue known from sysfs, but the device maximum is not. */
	nd_status_set_unknown(&facts->channels.st, "ethtool netlink: Operation not supported");
	nd_status_set_known(&facts->queues.st);
	facts->queues.n_rx = 1;
	run("queues.single", facts);
	assert_int_equal(finding.severity, ND_SEV_UNKNOWN);
	free(facts);
}

static void set_rps(struct nd_facts *facts, unsigned n_rx, const char *mask)
{
	nd_status_set_known(&facts->queues.st);
	facts->queues.n_rx = n_rx;
	assert_int_equal(nd_cpuset_parse_mask(mask, &facts->queues.rps_cpus[0]), 0);
}

static void test_rps_off_single_queue(void **state)
{
	struct nd_facts *facts = facts_new();

	(void)state;
	set_rps(facts, 1, "0");
	run("rps.off_single_queue", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_string_equal(finding.fix.commands[0],
			    "echo f > /sys/class/net/enp9s0f0/queues/rx-0/rps_cpus");
	set_rps(facts, 1, "00000000,0000000e");
	run("rps.off_single_queue", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	set_rps(facts, 4, "0");
	run("rps.off_single_queue", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	facts->cpus.n_online = 1;
	set_rps(facts, 1, "0");
	run("rps.off_single_queue", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	nd_status_set_unknown(&facts->queues.st, "cannot read");
	run("rps.off_single_queue", facts);
	assert_int_equal(finding.severity, ND_SEV_UNKNOWN);
	free(facts);
}

static void add_irq(struct nd_facts *facts, unsigned irq, const char *name,
		    const uint64_t *counts, const char *affinity)
{
	struct nd_irq *entry = &facts->irqs.irq[facts->irqs.count++];

	entry->irq = irq;
	nd_strlcpy(entry->name, name, sizeof(entry->name));
	for (unsigned cpu = 0; cpu < facts->irqs.n_cpu_columns; cpu++)
		entry->per_cpu[cpu] = counts[cpu];
	entry->affinity_known = nd_cpuset_parse_list(affinity, &entry->affinity) == 0;
}

/* A window whose queue interrupts grew by `grew` per CPU column (4 columns). */
static void irq_window(struct nd_facts *facts, const uint64_t *grew)
{
	struct nd_counter_window *w = &facts->window;

	memset(w, 0, sizeof(*w));
	w->known = true;
	w->seconds = 12;
	nd_strlcpy(w->what, "run peer plan", sizeof(w->what));
	nd_strlcpy(w->label, "the 3 runs (12 s of traffic)", sizeof(w->label));
	w->before.queue_irqs.known = w->after.queue_irqs.known = true;
	w->before.queue_irqs.n_columns = w->after.queue_irqs.n_columns = 4;
	for (unsigned c = 0; c < 4; c++) {
		w->before.queue_irqs.column_cpu[c] = w->after.queue_irqs.column_cpu[c] = c;
		w->before.queue_irqs.per_column[c] = 1000000;
		w->after.queue_irqs.per_column[c] = 1000000 + grew[c];
	}
}

/* Since boot the counts piled on CPU0; what the window saw decides. */
static void test_irq_concentrated_window(void **state)
{
	static const uint64_t on_cpu0[4] = { 50000, 3, 0, 0 };
	static const uint64_t spread[4][4] = { { 9000, 0, 0, 0 }, { 0, 9000, 0, 0 },
					       { 0, 0, 9000, 0 }, { 0, 0, 0, 9000 } };
	static const uint64_t grew_spread[4] = { 3000, 2900, 3100, 3000 };
	static const uint64_t grew_on_cpu2[4] = { 10, 20, 40000, 0 };
	static const uint64_t grew_few[4] = { 5, 0, 0, 0 };
	struct nd_facts *facts = facts_new();
	const cJSON *e;

	(void)state;
	nd_status_set_known(&facts->irqs.st);
	facts->irqs.n_cpu_columns = 4;
	for (unsigned q = 0; q < 4; q++)
		add_irq(facts, 41 + q, "eth0-TxRx", on_cpu0, "0-3");
	/* a fix spread them since: the window is what the host does now */
	irq_window(facts, grew_spread);
	run("irq.concentrated", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	assert_string_equal(finding.title, "queue interrupts spread in the 3 runs (12 s of "
			    "traffic): busiest CPU2 had 26% (since boot 100% were on CPU0: history)");
	e = cJSON_GetObjectItem(finding.evidence, "window_queue_interrupts");
	assert_true(cJSON_IsNumber(e) && e->valuedouble == 12000);
	assert_non_null(cJSON_GetObjectItem(finding.evidence, "window"));
	/* too few in the window: since boot decides, and says so */
	irq_window(facts, grew_few);
	run("irq.concentrated", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_string_equal(finding.title, "100% of 4 queue interrupts' counts since boot are on CPU0");
	/* spread since boot, piled on one CPU in the window */
	facts->irqs.count = 0;
	for (unsigned q = 0; q < 4; q++)
		add_irq(facts, 41 + q, "eth0-TxRx", spread[q], "0-3");
	irq_window(facts, grew_on_cpu2);
	run("irq.concentrated", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_string_equal(finding.title, "100% of the 40030 queue interrupts in the 3 runs (12 s "
			    "of traffic) were on CPU2");
	assert_int_equal(finding.fix.n_commands, 4);
	free(facts);
}

static void test_irq_concentrated(void **state)
{
	static const uint64_t on_cpu0[4] = { 50000, 3, 0, 0 };
	static const uint64_t spread[4][4] = { { 9000, 0, 0, 0 }, { 0, 9000, 0, 0 },
					       { 0, 0, 9000, 0 }, { 0, 0, 0, 9000 } };
	static const uint64_t few[4] = { 1, 0, 0, 0 };
	struct nd_facts *facts = facts_new();
	char name[32];

	(void)state;
	nd_status_set_known(&facts->irqs.st);
	facts->irqs.n_cpu_columns = 4;
	add_irq(facts, 40, "mlx5_async@pci:0000:09:00.0", spread[1], "0-3");
	for (unsigned q = 0; q < 4; q++) {
		snprintf(name, sizeof(name), "mlx5_comp%u@pci:0000:09:00.0", q);
		add_irq(facts, 41 + q, name, on_cpu0, "0-3");
	}
	run("irq.concentrated", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_int_equal(finding.fix.n_commands, 4);
	assert_string_equal(finding.fix.commands[1], "echo 1 > /proc/irq/42/smp_affinity_list");

	facts->irqs.count = 0;
	for (unsigned q = 0; q < 4; q++)
		add_irq(facts, 41 + q, "eth0-TxRx", spread[q], "0-3");
	run("irq.concentrated", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);

	/* Too few counts: fall back to affinity, all pinned to CPU2. */
	facts->irqs.count = 0;
	for (unsigned q = 0; q < 4; q++)
		add_irq(facts, 41 + q, "eth0-TxRx", few, "2");
	run("irq.concentrated", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);

	nd_status_set_unknown(&facts->irqs.st, "no msi_irqs");
	run("irq.concentrated", facts);
	assert_int_equal(finding.severity, ND_SEV_UNKNOWN);
	free(facts);
}

static int teardown(void **state)
{
	(void)state;
	nd_finding_free(&finding);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_pcie_field_case_critical, teardown),
		cmocka_unit_test_teardown(test_pcie_downgraded_but_enough_is_warning, teardown),
		cmocka_unit_test_teardown(test_pcie_ok_and_exempt_ports, teardown),
		cmocka_unit_test_teardown(test_pcie_unknown, teardown),
		cmocka_unit_test_teardown(test_queues_single, teardown),
		cmocka_unit_test_teardown(test_rps_off_single_queue, teardown),
		cmocka_unit_test_teardown(test_irq_concentrated, teardown),
		cmocka_unit_test_teardown(test_irq_concentrated_window, teardown),
	};

	return cmocka_run_group_tests_name("checks_foundation", tests, NULL, NULL);
}
