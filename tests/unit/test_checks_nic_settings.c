/*
 * test_checks_nic_settings.c - the device settings checks (duplex,
 * offloads, rings, coalescing, pause, irqbalance) on hand-made facts: flagged, ok
 * and unknown for each, starting from the healthy host of
 * checks_nic_fixture.h.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "checks_nic_fixture.h"
#include "window_fixture.h"

static bool fix_mentions(const char *text)
{
	for (unsigned i = 0; i < finding.fix.n_commands; i++)
		if (strstr(finding.fix.commands[i], text))
			return true;
	return false;
}


static void test_link_half_duplex(void **state)
{
	struct nd_facts *facts = healthy_facts();

	(void)state;
	run("link.half_duplex", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	facts->linkmodes.speed_mbps = 100;
	facts->linkmodes.duplex = 0;
	facts->linkmodes.autoneg = false;
	run("link.half_duplex", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_string_equal(evidence_string("duplex"), "half");
	assert_true(evidence_number("speed_mbps") == 100);
	assert_string_equal(finding.fix.commands[0], "ethtool -s enp65s0f0 autoneg on");
	/* We negotiate, the partner does not (serverfault 328105: an ISP's
	 * port forced to 100/Full): parallel detection gave half duplex, and
	 * only forcing this end to the partner's speed, full duplex, mends it. */
	facts->linkmodes.autoneg = true;
	facts->linkmodes.n_lp_advertised = 0;
	run("link.half_duplex", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_true(cJSON_IsFalse(evidence_item("partner_autoneg")));
	assert_non_null(strstr(finding.title, "the link partner does not negotiate"));
	assert_string_equal(finding.fix.commands[0],
			    "ethtool -s enp65s0f0 speed 100 duplex full autoneg off");
	assert_true(fix_mentions("parallel detection"));
	/* The partner negotiates (and offers only half duplex): the old advice. */
	add_mode(facts->linkmodes.lp_advertised, &facts->linkmodes.n_lp_advertised,
		 "100baseT/Half");
	add_mode(facts->linkmodes.lp_advertised, &facts->linkmodes.n_lp_advertised, "Autoneg");
	run("link.half_duplex", facts);
	assert_true(evidence_bool("partner_autoneg"));
	assert_string_equal(finding.fix.commands[0], "ethtool -s enp65s0f0 autoneg on");
	/* The mode lists unread: the partner's negotiation is unknown, old advice. */
	facts->linkmodes.n_lp_advertised = 0;
	nd_status_set_unknown(&facts->linkmodes.modes_st, "sysfs speed only");
	run("link.half_duplex", facts);
	assert_string_equal(finding.fix.commands[0], "ethtool -s enp65s0f0 autoneg on");
	nd_status_set_known(&facts->linkmodes.modes_st);
	facts->linkmodes.duplex = -1;
	run("link.half_duplex", facts);
	assert_unknown("duplex");
	nd_status_set_unknown(&facts->linkmodes.st, "no permission");
	run("link.half_duplex", facts);
	assert_unknown("link modes");
	free(facts);
}

static struct nd_feature *feature(struct nd_facts *facts, const char *name)
{
	for (unsigned i = 0; i < facts->features.count; i++)
		if (!strcmp(facts->features.f[i].name, name))
			return &facts->features.f[i];
	fail_msg("no feature %s in the fixture", name);
	return NULL;
}

static const char *offload_state(const char *keyword)
{
	const cJSON *states = evidence_item("offloads");
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(states, keyword);

	return cJSON_IsString(item) ? item->valuestring : "";
}

static void test_offload_disabled(void **state)
{
	struct nd_facts *facts = healthy_facts();

	(void)state;
	run("offload.disabled", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	/* The E810's generic checksum bit is fixed off; IPv4's is on. */
	assert_string_equal(offload_state("tx"), "on");
	assert_string_equal(evidence_string("lro"), "off [fixed]");
	feature(facts, "tx-tcp-segmentation")->active = false;
	feature(facts, "tx-tcp-segmentation")->wanted = false;
	feature(facts, "rx-gro")->active = false;
	feature(facts, "rx-gro")->wanted = false;
	run("offload.disabled", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_string_equal(offload_state("tso"), "off");
	assert_string_equal(offload_state("gro"), "off");
	assert_string_equal(offload_state("gso"), "on");
	assert_non_null(strstr(finding.title, "TSO, GRO off"));
	assert_string_equal(finding.fix.id, "offloads");
	assert_string_equal(finding.fix.commands[0], "ethtool -K enp65s0f0 tso on gro on");
	assert_true(finding.ceiling_mbps < 0);
	/* TX checksum off takes TSO with it: TSO requested but inactive.
	 * Requesting it again changes nothing: the checksum comes first. */
	feature(facts, "tx-tcp-segmentation")->wanted = true;
	feature(facts, "tx-checksum-ipv4")->active = false;
	feature(facts, "tx-checksum-ipv4")->wanted = false;
	run("offload.disabled", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_string_equal(offload_state("tso"),
			    "off [requested on]: the kernel keeps it off until TX checksum is on");
	assert_string_equal(finding.fix.commands[0], "ethtool -K enp65s0f0 tx on gro on");
	/* Off but fixed: the device cannot, nothing to do. */
	free(facts);
	facts = healthy_facts();
	feature(facts, "rx-gro")->active = false;
	feature(facts, "rx-gro")->fixed = true;
	run("offload.disabled", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	assert_string_equal(offload_state("gro"), "off [fixed]: the device cannot");
	/* LRO on is reported, never flagged. */
	feature(facts, "rx-lro")->active = true;
	run("offload.disabled", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	assert_string_equal(evidence_string("lro"), "on");
	assert_non_null(strstr(evidence_string("lro_note"), "forwarding"));
	nd_status_set_unknown(&facts->features.st, "ethtool netlink: Operation not permitted");
	run("offload.disabled", facts);
	assert_unknown("features");
	free(facts);
}

/* sqm-scripts#11's `ethtool -k eth1`: no offload hardware (checksums, SG,
 * TSO off [fixed]); GSO "off [requested on]" because SG is fixed off. */
static void test_offload_fixed_dependency(void **state)
{
	struct nd_facts *facts = healthy_facts();
	static const char *const fixed_off[] = {
		"rx-checksum", "tx-checksum-ipv4", "tx-checksum-ip-generic", "tx-checksum-ipv6",
		"tx-scatter-gather", "tx-tcp-segmentation",
	};

	(void)state;
	for (size_t i = 0; i < ND_ARRAY_SIZE(fixed_off); i++) {
		feature(facts, fixed_off[i])->active = feature(facts, fixed_off[i])->wanted = false;
		feature(facts, fixed_off[i])->fixed = true;
	}
	feature(facts, "tx-generic-segmentation")->active = false;
	feature(facts, "tx-generic-segmentation")->wanted = true;
	run("offload.disabled", facts);
	/* Not a warning, and no `ethtool -K eth1 gso on`: it is requested
	 * already, and the hardware forbids it. */
	assert_int_equal(finding.severity, ND_SEV_INFO);
	assert_int_equal(finding.fix.n_commands, 0);
	assert_string_equal(offload_state("gso"),
			    "off [requested on]: needs scatter-gather, which the device cannot do "
			    "(tx-scatter-gather off [fixed])");
	assert_non_null(strstr(finding.title, "GSO"));
	assert_non_null(strstr(finding.title, "scatter-gather"));
	/* Not requested, changeable, but its dependency is fixed: nothing
	 * to propose either. */
	feature(facts, "tx-generic-segmentation")->wanted = false;
	run("offload.disabled", facts);
	assert_true(finding.severity < ND_SEV_WARNING);
	assert_int_equal(finding.fix.n_commands, 0);
	assert_string_equal(offload_state("gso"),
			    "off: needs scatter-gather, which the device cannot do "
			    "(tx-scatter-gather off [fixed])");
	/* SG changeable: GSO requested waits for it, so only sg is proposed. */
	feature(facts, "tx-scatter-gather")->fixed = false;
	feature(facts, "tx-generic-segmentation")->wanted = true;
	run("offload.disabled", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_string_equal(finding.fix.commands[0], "ethtool -K enp65s0f0 sg on");
	free(facts);
}

static void test_ring_small(void **state)
{
	struct nd_facts *facts = healthy_facts();

	(void)state;
	run("ring.small", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	/* A 512-entry ring of 8160 and the NIC missing frames. */
	facts->rings.rx = 512;
	facts->link.stats.rx_missed = 4711;
	/* ...long ago: info, the fix still offered; the drops themselves are
	 * nic.rx_dropped's, named there once and referred to here */
	run("nic.rx_dropped", facts);
	assert_int_equal(finding.severity, ND_SEV_INFO);
	assert_non_null(strstr(finding.title, "4711"));
	run("ring.small", facts);
	assert_int_equal(finding.severity, ND_SEV_INFO);
	assert_string_equal(finding.title, "RX ring 512 of 8160; its drops: see nic.rx_dropped");
	assert_string_equal(finding.fix.commands[0], "ethtool -G enp65s0f0 rx 8160");
	window_set(facts, 1, 1);
	run("ring.small", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_non_null(strstr(finding.title, "link.rx_missed 4711.0/s"));
	assert_string_equal(evidence_string("largest_growing_counter"), "link.rx_missed");
	assert_true(evidence_number("rx_ring") == 512);
	assert_true(evidence_number("rx_ring_max") == 8160);
	assert_string_equal(evidence_string("largest_drop_counter"), "link.rx_missed");
	assert_string_equal(finding.fix.id, "rings");
	assert_string_equal(finding.fix.commands[0], "ethtool -G enp65s0f0 rx 8160");
	/* The E810-XXV capture: ethtool -S rx_dropped 7206525. */
	facts->link.stats.rx_missed = 0;
	facts->nicstats.s[0].value = 7206525;
	window_set(facts, 1, 1);
	run("ring.small", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_string_equal(evidence_string("largest_drop_counter"), "rx_dropped");
	assert_non_null(strstr(finding.title, "rx_dropped 7206525"));
	/* Transmit drops and flow director misses are not RX drops. */
	facts->nicstats.s[0].value = 0;
	facts->nicstats.s[2].value = 99;		/* tx_dropped */
	add_stat(&facts->nicstats, "fdir_miss", 1234);
	add_stat(&facts->nicstats, "rx_queue_0_xdp_drop", 5);
	window_set(facts, 1, 1);
	run("ring.small", facts);
	assert_int_equal(finding.severity, ND_SEV_INFO);
	assert_string_equal(finding.fix.commands[0], "ethtool -G enp65s0f0 rx 8160");
	/* mlx5's name for a ring that ran empty. */
	add_stat(&facts->nicstats, "rx_out_of_buffer", 17);
	window_set(facts, 1, 1);
	run("ring.small", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	/* Drops with the ring already large: not this check's cause. */
	facts->rings.rx = 4096;
	run("ring.small", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	facts->rings.rx = 512;
	nd_status_set_unknown(&facts->link.st, "no permission");
	nd_status_set_unknown(&facts->nicstats.st, "no permission");
	run("ring.small", facts);
	assert_unknown("drop counters");
	nd_status_set_unknown(&facts->rings.st, "ethtool netlink: Operation not supported");
	run("ring.small", facts);
	assert_unknown("ring sizes");
	free(facts);
}

static void test_coalesce_off(void **state)
{
	struct nd_facts *facts = healthy_facts();

	(void)state;
	run("coalesce.off", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	/* The E810 capture: adaptive off, rx-usecs 12: still coalesced. */
	facts->coalesce.adaptive_rx = false;
	facts->coalesce.rx_usecs = 12;
	run("coalesce.off", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	facts->coalesce.rx_usecs = 0;
	run("coalesce.off", facts);
	assert_int_equal(finding.severity, ND_SEV_INFO);
	assert_false(evidence_bool("adaptive_rx"));
	assert_true(evidence_number("rx_usecs") == 0);
	assert_string_equal(finding.fix.id, "coalesce");
	assert_string_equal(finding.fix.commands[0], "ethtool -C enp65s0f0 adaptive-rx on");
	assert_non_null(strstr(finding.fix.commands[1], "ethtool -C enp65s0f0 rx-usecs 50"));
	/* A frame count batches interrupts without a timer. */
	facts->coalesce.rx_frames = 32;
	run("coalesce.off", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	nd_status_set_unknown(&facts->coalesce.st, "ethtool netlink: Operation not supported");
	run("coalesce.off", facts);
	assert_unknown("interrupt coalescing");
	free(facts);
}

static void test_pause_mismatch(void **state)
{
	struct nd_facts *facts = healthy_facts();

	(void)state;
	run("pause.mismatch", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	assert_string_equal(evidence_string("partner_advertises"), "symmetric");
	facts->pause.rx = facts->pause.tx = false;
	run("pause.mismatch", facts);
	assert_int_equal(finding.severity, ND_SEV_INFO);
	assert_non_null(strstr(finding.title, "flow control off"));
	assert_string_equal(finding.fix.id, "pause");
	assert_string_equal(finding.fix.commands[0], "ethtool -A enp65s0f0 rx on tx on");
	facts->pause.rx = true;
	run("pause.mismatch", facts);
	assert_int_equal(finding.severity, ND_SEV_INFO);
	assert_true(evidence_bool("rx"));
	assert_false(evidence_bool("tx"));
	assert_non_null(strstr(finding.title, "one way only (rx on, tx off)"));
	nd_status_set_unknown(&facts->pause.st, "ethtool netlink: Operation not supported");
	run("pause.mismatch", facts);
	assert_unknown("pause settings");
	free(facts);
}

static void test_irqbalance_fighting(void **state)
{
	struct nd_facts *facts = healthy_facts();

	(void)state;
	run("irqbalance.fighting", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	assert_false(evidence_bool("irqbalance_running"));
	facts->irqs.irqbalance_running = true;
	run("irqbalance.fighting", facts);
	assert_int_equal(finding.severity, ND_SEV_INFO);
	assert_true(evidence_number("queue_irqs") == 8);
	assert_true(evidence_number("irqs_with_affinity_hint") == 8);
	assert_true(evidence_number("irqs_off_their_hint") == 0);
	assert_string_equal(evidence_string("banirq_args"),
			    "--banirq=100 --banirq=101 --banirq=102 --banirq=103 --banirq=104 "
			    "--banirq=105 --banirq=106 --banirq=107");
	assert_string_equal(finding.fix.id, "irqbalance");
	/* The fix line is cut at a word to fit; the evidence keeps it all. */
	assert_string_equal(finding.fix.commands[1],
			    "# IRQBALANCE_ARGS=\"--banirq=100 --banirq=101 --banirq=102 "
			    "--banirq=103 --banirq=104 --banirq=105 --banirq=106 ...\"");
	assert_string_equal(finding.fix.commands[2], "# or keep irqbalance off the NIC's CPUs: "
			    "IRQBALANCE_BANNED_CPULIST=0-7");
	assert_string_equal(finding.fix.commands[finding.fix.n_commands - 1],
			    "systemctl restart irqbalance");
	/* irqbalance already moved two IRQs off the driver's hints. */
	nd_cpuset_zero(&facts->irqs.irq[1].affinity);
	nd_cpuset_add(&facts->irqs.irq[1].affinity, 5);
	nd_cpuset_zero(&facts->irqs.irq[2].affinity);
	nd_cpuset_add(&facts->irqs.irq[2].affinity, 5);
	run("irqbalance.fighting", facts);
	assert_int_equal(finding.severity, ND_SEV_INFO);
	assert_true(evidence_number("irqs_off_their_hint") == 2);
	facts->irqs.irqbalance_known = false;
	run("irqbalance.fighting", facts);
	assert_unknown("irqbalance state");
	nd_status_set_unknown(&facts->irqs.st, "cannot read '/proc/interrupts'");
	run("irqbalance.fighting", facts);
	assert_unknown("interface interrupts");
	free(facts);
}

/* mtu.stack_mismatch: a vxlan's MTU 1500 over a 1500 lower needs 50 B more. */
static void test_mtu_stack_mismatch(void **state)
{
	struct nd_facts *facts = healthy_facts();
	struct nd_stack *s = &facts->stack;

	(void)state;
	run("mtu.stack_mismatch", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);	/* a NIC: nothing to fit */
	assert_true(finding.not_applicable);
	nd_strlcpy(facts->ifname, "vx0", sizeof(facts->ifname));
	nd_status_set_known(&s->st);
	nd_strlcpy(s->kind, "vxlan", sizeof(s->kind));
	s->n_lowers = 1;
	nd_strlcpy(s->lowers[0], "eth0", sizeof(s->lowers[0]));
	run("mtu.stack_mismatch", facts);
	assert_unknown("the lower's MTU");
	s->wire_known = true;
	nd_strlcpy(s->via, "eth0", sizeof(s->via));
	s->via_mtu = 1500;
	s->encap_bytes = s->mtu_overhead = 50;
	facts->link.mtu = 1450;
	run("mtu.stack_mismatch", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	facts->link.mtu = 1500;
	run("mtu.stack_mismatch", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_true(evidence_number("needs_mtu") == 1550);
	assert_true(evidence_number("lower_mtu") == 1500);
	assert_non_null(strstr(finding.title, "eth0"));
	assert_string_equal(finding.fix.commands[0], "ip link set dev vx0 mtu 1450");
	/* a VLAN tag is not in the lower's MTU: 1500 over 1500 fits */
	nd_strlcpy(s->kind, "vlan", sizeof(s->kind));
	s->encap_bytes = 4;
	s->mtu_overhead = 0;
	run("mtu.stack_mismatch", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	free(facts);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_link_half_duplex, teardown),
		cmocka_unit_test_teardown(test_offload_disabled, teardown),
		cmocka_unit_test_teardown(test_offload_fixed_dependency, teardown),
		cmocka_unit_test_teardown(test_ring_small, teardown),
		cmocka_unit_test_teardown(test_coalesce_off, teardown),
		cmocka_unit_test_teardown(test_pause_mismatch, teardown),
		cmocka_unit_test_teardown(test_irqbalance_fighting, teardown),
		cmocka_unit_test_teardown(test_mtu_stack_mismatch, teardown),
	};

	return cmocka_run_group_tests_name("checks_nic_settings", tests, NULL, NULL);
}
