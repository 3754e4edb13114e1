/*
 * test_checks_nic.c - the link, PCIe slot, MTU, queue, RSS and NUMA
 * checks on hand-made facts (flagged, ok, unknown for each), and the
 * healthy host on which none of the NIC checks may warn.  The device
 * settings checks (and link.half_duplex) are in test_checks_nic_settings.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "checks_nic_fixture.h"

/* Every check of the NIC half of the catalogue. */
static const char *const nic_checks[] = {
	"link.down", "link.speed_below_max", "link.half_duplex", "pcie.slot_too_slow",
	"mtu.jumbo_possible", "queues.below_cpus", "rss.indirection_uneven", "irq.remote_numa",
	"irqbalance.fighting", "offload.disabled", "ring.small", "coalesce.off",
	"pause.mismatch",
};

static void test_healthy_host_no_warning(void **state)
{
	struct nd_facts *facts = healthy_facts();

	(void)state;
	for (size_t i = 0; i < ND_ARRAY_SIZE(nic_checks); i++) {
		run(nic_checks[i], facts);
		if (finding.severity >= ND_SEV_WARNING || finding.severity == ND_SEV_UNKNOWN)
			fail_msg("%s: %s: %s", nic_checks[i], nd_severity_name(finding.severity),
				 finding.title);
	}
	/* The two that have something to say on a healthy host say it as info. */
	run("mtu.jumbo_possible", facts);
	assert_int_equal(finding.severity, ND_SEV_INFO);
	facts->irqs.irqbalance_running = true;
	run("irqbalance.fighting", facts);
	assert_int_equal(finding.severity, ND_SEV_INFO);
	free(facts);
}

static void test_link_down(void **state)
{
	struct nd_facts *facts = healthy_facts();

	(void)state;
	run("link.down", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	/* The X553 capture: "Speed: Unknown!", "Link detected: no". */
	facts->link.carrier = false;
	nd_strlcpy(facts->link.operstate, "down", sizeof(facts->link.operstate));
	facts->linkmodes.speed_mbps = -1;
	facts->linkmodes.duplex = -1;
	run("link.down", facts);
	assert_int_equal(finding.severity, ND_SEV_CRITICAL);
	assert_false(evidence_bool("carrier"));
	assert_string_equal(evidence_string("operstate"), "down");
	assert_string_equal(finding.fix.id, "link_up");
	assert_string_equal(finding.fix.commands[0], "ip link set dev enp65s0f0 up");
	/* The checks that need a link stand aside rather than guess. */
	run("link.speed_below_max", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	run("link.half_duplex", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	/* Carrier but operstate lowerlayerdown (a bond slave's master down). */
	facts->link.carrier = true;
	nd_strlcpy(facts->link.operstate, "lowerlayerdown", sizeof(facts->link.operstate));
	run("link.down", facts);
	assert_int_equal(finding.severity, ND_SEV_CRITICAL);
	/* Carrier with operstate "unknown", as many virtual drivers report. */
	nd_strlcpy(facts->link.operstate, "unknown", sizeof(facts->link.operstate));
	run("link.down", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	nd_status_set_unknown(&facts->link.st, "rtnetlink: Operation not permitted");
	run("link.down", facts);
	assert_unknown("link state (carrier, operstate)");
	assert_string_equal(evidence_string("reason"), "rtnetlink: Operation not permitted");
	free(facts);
}

static void test_link_speed_below_max(void **state)
{
	struct nd_facts *facts = healthy_facts();

	(void)state;
	run("link.speed_below_max", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	assert_true(evidence_number("best_common_mbps") == 25000);
	/* 25G both ends, linked at 10G: a 10G-rated cable or module. */
	facts->linkmodes.speed_mbps = 10000;
	run("link.speed_below_max", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_true(finding.ceiling_mbps == 9415);
	assert_string_equal(finding.ceiling_source, "wire");
	assert_true(evidence_number("goodput_at_negotiated_mbps") == 9415);
	assert_true(evidence_number("goodput_at_best_mbps") == 23537);
	assert_string_equal(evidence_string("best_from"), "advertised and partner-advertised");
	assert_string_equal(finding.fix.id, "link_speed");
	assert_string_equal(finding.fix.commands[0],
			    "ethtool -s enp65s0f0 speed 25000 duplex full autoneg on");
	/* A partner that only does 10G: 10G is the best common mode, and the
	 * partner is what holds the link there: partner-limited. */
	facts->linkmodes.n_lp_advertised = 0;
	add_mode(facts->linkmodes.lp_advertised, &facts->linkmodes.n_lp_advertised,
		 "10000baseCR/Full");
	run("link.speed_below_max", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_true(evidence_number("best_common_mbps") == 10000);
	assert_string_equal(evidence_string("limited_by"), "partner");
	assert_string_equal(finding.fix.id, "link_partner");
	assert_true(finding.ceiling_mbps == 9415);
	/* The same partner on a port that supports only 10G: nothing wrong. */
	facts->linkmodes.n_supported = facts->linkmodes.n_advertised = 0;
	add_mode(facts->linkmodes.supported, &facts->linkmodes.n_supported, "10000baseCR/Full");
	add_mode(facts->linkmodes.advertised, &facts->linkmodes.n_advertised, "10000baseCR/Full");
	run("link.speed_below_max", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	free(facts);
	facts = healthy_facts();
	facts->linkmodes.speed_mbps = 10000;
	/* Partner's modes not reported: only a hint. */
	facts->linkmodes.n_lp_advertised = 0;
	run("link.speed_below_max", facts);
	assert_int_equal(finding.severity, ND_SEV_INFO);
	assert_true(finding.ceiling_mbps == 9415);
	assert_true(evidence_number("best_common_mbps") == 25000);
	nd_status_set_unknown(&facts->linkmodes.st, "ethtool netlink: Operation not supported");
	run("link.speed_below_max", facts);
	assert_unknown("link modes");
	free(facts);
}

static void set_modes(char (*list)[48], unsigned *n, const char *const *modes)
{
	*n = 0;
	for (; *modes; modes++)
		add_mode(list, n, *modes);
}

static bool fix_has_command(void)
{
	for (unsigned i = 0; i < finding.fix.n_commands; i++)
		if (finding.fix.commands[i][0] != '#')
			return true;
	return false;
}

/* openwrt#15348's EdgeRouter X: the port supports and advertises
 * 1000baseT/Full, the partner advertises 10/100 only, the link is at 100. */
static void test_link_partner_limited(void **state)
{
	static const char *const ours[] = { "10baseT/Half", "10baseT/Full", "100baseT/Half",
					    "100baseT/Full", "1000baseT/Full", NULL };
	static const char *const partner[] = { "10baseT/Half", "10baseT/Full", "100baseT/Half",
					       "100baseT/Full", "Autoneg", NULL };
	struct nd_facts *facts = healthy_facts();
	struct nd_linkmodes *lm = &facts->linkmodes;

	(void)state;
	set_modes(lm->supported, &lm->n_supported, ours);
	set_modes(lm->advertised, &lm->n_advertised, ours);
	set_modes(lm->lp_advertised, &lm->n_lp_advertised, partner);
	lm->speed_mbps = 100;
	run("link.speed_below_max", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_string_equal(evidence_string("limited_by"), "partner");
	assert_true(evidence_number("partner_best_mbps") == 100);
	assert_true(evidence_number("this_port_best_mbps") == 1000);
	assert_non_null(strstr(finding.title, "partner-limited"));
	/* The wire ceiling of the 100 Mbit/s link. */
	assert_string_equal(finding.ceiling_source, "wire");
	assert_true(finding.ceiling_mbps >= 94 && finding.ceiling_mbps < 95);
	/* The fix is on the other end: nothing to run here. */
	assert_string_equal(finding.fix.id, "link_partner");
	assert_false(fix_has_command());
	assert_non_null(strstr(finding.fix.commands[0], "link partner"));
	assert_non_null(strstr(finding.fix.commands[0], "10/100"));
	assert_non_null(strstr(finding.fix.commands[1], "a 2-pair cable limits gigabit to 100"));
	/* Both ends advertise gigabit but the link is at 100: the cable or
	 * a downshift, not the partner (bazzite#5094). */
	set_modes(lm->lp_advertised, &lm->n_lp_advertised, ours);
	run("link.speed_below_max", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_string_equal(finding.fix.id, "link_speed");
	assert_string_equal(evidence_string("limited_by"), "link");
	free(facts);
}

/* openwrt#12321's AQR113C: 2500baseT/Full supported but not advertised,
 * the partner advertises it; the capture has no Speed line. */
static void test_link_not_advertised(void **state)
{
	static const char *const supported[] = { "100baseT/Full", "1000baseT/Full",
						 "10000baseT/Full", "2500baseT/Full",
						 "5000baseT/Full", NULL };
	static const char *const advertised[] = { "100baseT/Full", "1000baseT/Full",
						  "10000baseT/Full", NULL };
	static const char *const partner[] = { "100baseT/Full", "1000baseT/Full",
					       "2500baseT/Full", NULL };
	struct nd_facts *facts = healthy_facts();
	struct nd_linkmodes *lm = &facts->linkmodes;

	(void)state;
	set_modes(lm->supported, &lm->n_supported, supported);
	set_modes(lm->advertised, &lm->n_advertised, advertised);
	set_modes(lm->lp_advertised, &lm->n_lp_advertised, partner);
	lm->speed_mbps = -1;
	run("link.speed_below_max", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_string_equal(evidence_string("limited_by"), "advertisement");
	assert_true(evidence_number("best_common_mbps") == 1000);
	assert_true(evidence_number("best_if_advertised_mbps") == 2500);
	assert_string_equal(finding.fix.id, "link_speed");
	assert_string_equal(finding.fix.commands[0],
			    "ethtool -s enp65s0f0 advertise 2500baseT/Full on");
	/* Linked at 1000 it is the same finding. */
	lm->speed_mbps = 1000;
	run("link.speed_below_max", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_string_equal(evidence_string("limited_by"), "advertisement");
	/* Advertised as well: the link can reach 2500 and is at it. */
	set_modes(lm->advertised, &lm->n_advertised, supported);
	lm->speed_mbps = 2500;
	run("link.speed_below_max", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_string_equal(evidence_string("limited_by"), "partner");
	/* Link down, speed unknown: no link, nothing negotiated. */
	lm->speed_mbps = -1;
	facts->link.carrier = false;
	run("link.speed_below_max", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	free(facts);
}

/* An 82599ES-like dual-port 10G card: 5 GT/s x8 capable. */
static struct nd_facts *dual_10g_facts(double cap_gts, unsigned cap_width)
{
	struct nd_facts *facts = healthy_facts();
	struct nd_pcie_link *dev = &facts->pci.dev;

	set_function(dev, "0000:09:00.0", "endpoint", cap_gts, cap_width);
	dev->vendor_id = 0x8086;
	dev->device_id = 0x10fb;
	facts->pci.siblings[0] = *dev;
	nd_strlcpy(facts->pci.siblings[0].address, "0000:09:00.1", 16);
	facts->pci.n_upstream = 1;
	set_function(&facts->pci.upstream[0], "0000:00:03.0", "root_port", 8, 16);
	facts->linkmodes.speed_mbps = 10000;
	facts->linkmodes.n_supported = 0;
	add_mode(facts->linkmodes.supported, &facts->linkmodes.n_supported, "10000baseSR/Full");
	add_mode(facts->linkmodes.supported, &facts->linkmodes.n_supported, "1000baseX/Full");
	return facts;
}

static void test_pcie_slot_dual_10g_gen2_x4(void **state)
{
	/* The example: 2 x 10G on 5 GT/s x4, MPS 256. */
	struct nd_facts *facts = dual_10g_facts(5, 4);

	(void)state;
	run("pcie.slot_too_slow", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_true(evidence_number("card_ceiling_at_capability_mbps") == 14629);
	assert_true(evidence_number("ports") == 2);
	assert_true(evidence_number("port_goodput_mbps") == 9415);
	assert_true(evidence_number("all_ports_goodput_mbps") == 18830);
	assert_true(finding.ceiling_mbps == 7314);
	assert_string_equal(finding.ceiling_source, "pcie");
	assert_non_null(strstr(evidence_string("assumed"),
			       "other ports taken at this port's speed"));
	assert_string_equal(finding.fix.id, "pcie_slot");
	assert_string_equal(finding.fix.commands[0],
			    "lspci -vv -s 0000:09:00.0 | grep -E 'LnkCap:|LnkSta:'");
	/* A VF on the same device number shares the PF's port: not counted. */
	facts->pci.n_siblings = 2;
	facts->pci.siblings[1] = facts->pci.dev;
	facts->pci.siblings[1].device_id = 0x10ed;
	facts->pci.siblings[1].sta_width = 0;
	nd_strlcpy(facts->pci.siblings[1].name, "Intel Corporation 82599 Ethernet Controller "
		   "Virtual Function", sizeof(facts->pci.siblings[1].name));
	run("pcie.slot_too_slow", facts);
	assert_true(evidence_number("ports") == 2);
	assert_true(finding.ceiling_mbps == 7314);
	/* Without IDs (sysfs only) a function with a trained link is a port,
	 * the VF (LnkSta x0) still is not. */
	facts->pci.dev.vendor_id = facts->pci.dev.device_id = 0;
	run("pcie.slot_too_slow", facts);
	assert_true(evidence_number("ports") == 2);
	assert_int_equal(cJSON_GetArraySize(evidence_item("functions_not_counted")), 1);
	/* Single port on the same card: 14629 carries 9415, ok. */
	facts->pci.n_siblings = 0;
	run("pcie.slot_too_slow", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	assert_true(finding.ceiling_mbps < 0);
	/* At capability 5 GT/s x8 both ports fit. */
	free(facts);
	facts = dual_10g_facts(5, 8);
	run("pcie.slot_too_slow", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	assert_true(evidence_number("path_ceiling_mbps") == 29257);
	free(facts);
}

static void test_pcie_slot_card_below_one_port(void **state)
{
	/* A 10G card whose own LnkCap is 5 GT/s x1 (AQC107 on a CM4-style
	 * board): 3657 Mbit/s, not even one port at line rate. */
	struct nd_facts *facts = dual_10g_facts(5, 1);

	(void)state;
	facts->pci.n_siblings = 0;
	run("pcie.slot_too_slow", facts);
	assert_int_equal(finding.severity, ND_SEV_CRITICAL);
	assert_true(finding.ceiling_mbps == 3657);
	/* The same link known only from the kernel's boot log (ixgbe's
	 * "bandwidth of 4GT/s available", ntop/PF_RING#283): the link at
	 * boot, not read now: a warning, the lspci check first. */
	facts->pci.dev.cap_from_sta = true;
	facts->pci.link_from_log = true;
	run("pcie.slot_too_slow", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_true(finding.ceiling_mbps == 3657);
	assert_non_null(strstr(evidence_string("severity_from_log"), "kernel's log"));
	assert_string_equal(finding.fix.commands[0],
			    "lspci -vv -s 0000:09:00.0 | grep -E 'LnkCap:|LnkSta:'");
	free(facts);
}

/* The driver's own need ("at least 20GT/s of bandwidth is required", the
 * x520-2 of ahelpme.com) where the other port is not in the records. */
static void test_pcie_slot_kernel_need(void **state)
{
	struct nd_facts *facts = dual_10g_facts(5, 4);

	(void)state;
	facts->pci.n_siblings = 0;
	run("pcie.slot_too_slow", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);	/* 14629 carries one port */
	facts->pci.kernel_need_gts = 20;
	run("pcie.slot_too_slow", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_true(evidence_number("kernel_need_gts") == 20);
	assert_true(evidence_number("needed_mbps") == 18830);
	assert_non_null(strstr(finding.title, "the driver needs 20GT/s"));
	/* a need the path meets changes nothing */
	facts->pci.kernel_need_gts = 8;
	run("pcie.slot_too_slow", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	free(facts);
}

static void test_pcie_slot_bridges(void **state)
{
	struct nd_facts *facts = healthy_facts();
	struct nd_pci *pci = &facts->pci;

	(void)state;
	/* 2 x 25G at 16 GT/s x8 under an x16 root port: fine. */
	run("pcie.slot_too_slow", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	assert_true(evidence_number("card_ceiling_at_capability_mbps") == 115228);
	assert_true(evidence_number("all_ports_goodput_mbps") == 47074);
	/* Behind a switch whose uplink is 8 GT/s x4: 28807 < 47074. */
	set_function(&pci->upstream[0], "0000:3c:08.0", "downstream", 16, 8);
	set_function(&pci->upstream[1], "0000:3b:00.0", "upstream", 8, 4);
	set_function(&pci->upstream[2], "0000:3a:01.0", "root_port", 8, 16);
	pci->upstream[2].sta_width = 4;
	pci->n_upstream = 3;
	run("pcie.slot_too_slow", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_true(evidence_number("path_ceiling_mbps") == 28807);
	assert_true(finding.ceiling_mbps == 14404);
	assert_non_null(strstr(finding.title, "bridge 0000:3b:00.0 at 8GT/s x4"));
	assert_string_equal(finding.fix.commands[0],
			    "lspci -vv -s 0000:3b:00.0 | grep -E 'LnkCap:|LnkSta:'");
	/* Uplink x8 at 8 GT/s: narrower than the card, still enough: info. */
	pci->upstream[1].cap_width = pci->upstream[1].sta_width = 8;
	pci->upstream[2].sta_width = 8;
	run("pcie.slot_too_slow", facts);
	assert_int_equal(finding.severity, ND_SEV_INFO);
	assert_true(finding.ceiling_mbps < 0);
	/* A card trained down to x4 under an x16 slot: the root port's LnkSta
	 * is the card's own link, pcie.link_downgraded's finding, not ours. */
	pci->n_upstream = 1;
	set_function(&pci->upstream[0], "0000:40:01.1", "root_port", 16, 16);
	pci->upstream[0].sta_width = 1;
	pci->dev.sta_width = 1;
	run("pcie.slot_too_slow", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	free(facts);
}

static void test_pcie_slot_link_down_and_unknown(void **state)
{
	struct nd_facts *facts = dual_10g_facts(5, 4);

	(void)state;
	/* Link down: the port is taken at its best supported mode, said so. */
	facts->linkmodes.speed_mbps = -1;
	run("pcie.slot_too_slow", facts);
	assert_true(evidence_number("port_speed_mbps") == 10000);
	assert_non_null(strstr(evidence_string("assumed"), "best supported speed"));
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	facts->linkmodes.n_supported = 0;
	run("pcie.slot_too_slow", facts);
	assert_unknown("link speed");
	facts->pci.dev.link_known = false;
	nd_strlcpy(facts->pci.dev.link_reason, "config space closed", ND_REASON_LEN);
	run("pcie.slot_too_slow", facts);
	assert_unknown("pcie link capability (LnkCap)");
	nd_status_set_unknown(&facts->pci.st, "no PCI device (virtual interface)");
	run("pcie.slot_too_slow", facts);
	assert_unknown("pci");
	free(facts);
}

static void test_mtu_jumbo_possible(void **state)
{
	struct nd_facts *facts = healthy_facts();

	(void)state;
	run("mtu.jumbo_possible", facts);
	assert_int_equal(finding.severity, ND_SEV_INFO);
	assert_true(evidence_number("mtu") == 1500);
	assert_true(evidence_number("jumbo_mtu") == 9000);
	assert_true(evidence_number("goodput_now_mbps") == 23537);
	assert_true(evidence_number("goodput_jumbo_mbps") == 24751);
	assert_non_null(strstr(finding.title, "from 23537 to 24751 Mbit/s"));
	assert_string_equal(finding.fix.commands[0], "ip link set dev enp65s0f0 mtu 9000");
	/* A device whose maximum is below 9000: that maximum. */
	facts->link.max_mtu = 4000;
	run("mtu.jumbo_possible", facts);
	assert_int_equal(finding.severity, ND_SEV_INFO);
	assert_true(evidence_number("jumbo_mtu") == 4000);
	assert_true(evidence_number("goodput_jumbo_mbps") == 24443);
	facts->link.max_mtu = 1500;
	run("mtu.jumbo_possible", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	facts->link.max_mtu = 9702;
	facts->link.mtu = 9000;
	run("mtu.jumbo_possible", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	facts->link.mtu = 1500;
	facts->linkmodes.speed_mbps = -1;
	run("mtu.jumbo_possible", facts);
	assert_unknown("link speed");
	assert_string_equal(evidence_string("reason"),
			    "the driver reports no speed (virtual device?)");
	nd_status_set_unknown(&facts->link.st, "rtnetlink failed");
	run("mtu.jumbo_possible", facts);
	assert_unknown("MTU");
	free(facts);
}

static void set_cpus(struct nd_facts *facts, unsigned n_cpus)
{
	nd_cpuset_zero(&facts->cpus.online);
	for (unsigned cpu = 0; cpu < n_cpus; cpu++)
		nd_cpuset_add(&facts->cpus.online, cpu);
	facts->cpus.n_online = n_cpus;
}

static void test_queues_below_cpus(void **state)
{
	struct nd_facts *facts = healthy_facts();

	(void)state;
	run("queues.below_cpus", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	assert_true(evidence_number("usable_queues") == 8);
	/* 8 queues on 16 CPUs: half, info. */
	set_cpus(facts, 16);
	run("queues.below_cpus", facts);
	assert_int_equal(finding.severity, ND_SEV_INFO);
	assert_string_equal(finding.fix.commands[0], "ethtool -L enp65s0f0 combined 16");
	/* 7 of 16: fewer than half, warning. */
	facts->channels.combined = 7;
	run("queues.below_cpus", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	facts->channels.combined = 3;
	run("queues.below_cpus", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_true(evidence_number("rx_queues") == 3);
	assert_true(evidence_number("device_max_queues") == 64);
	assert_string_equal(finding.fix.id, "channels");
	/* The device caps it: 3 of its maximum 3 is not "below". */
	facts->channels.combined_max = facts->channels.rx_max = 3;
	run("queues.below_cpus", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	/* One queue is queues.single's finding. */
	facts->channels.combined = 1;
	facts->channels.combined_max = 64;
	run("queues.below_cpus", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	facts->channels.combined = 2;
	nd_status_set_unknown(&facts->channels.st, "ethtool netlink: Operation not supported");
	run("queues.below_cpus", facts);
	assert_unknown("channels (device maximum)");
	nd_status_set_unknown(&facts->cpus.st, "cannot read");
	run("queues.below_cpus", facts);
	assert_unknown("online CPUs");
	free(facts);
}

static void test_rss_indirection_uneven(void **state)
{
	struct nd_facts *facts = healthy_facts();
	const cJSON *missing;

	(void)state;
	run("rss.indirection_uneven", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	assert_true(evidence_number("min_entries") == 64);
	/* `ethtool -X equal 6` left after raising the channels to 8. */
	for (unsigned i = 0; i < HEALTHY_RSS_SIZE; i++)
		facts->rss.indir[i] = i % 6;
	run("rss.indirection_uneven", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	missing = evidence_item("queues_missing");
	assert_int_equal(cJSON_GetArraySize(missing), 2);
	assert_int_equal(cJSON_GetArrayItem(missing, 0)->valueint, 6);
	assert_string_equal(finding.fix.commands[0], "ethtool -X enp65s0f0 equal 8");
	/* Weighted: queue 0 three times the others. */
	for (unsigned i = 0; i < HEALTHY_RSS_SIZE; i++)
		facts->rss.indir[i] = i % 10 < 3 ? 0 : 1 + i % 10 % 7;
	run("rss.indirection_uneven", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_true(evidence_number("max_entries") >= 2 * evidence_number("min_entries"));
	/* 64 entries over 48 queues: 2 and 1, the default's rounding. */
	facts->channels.combined = 48;
	facts->rss.size = 64;
	for (unsigned i = 0; i < 64; i++)
		facts->rss.indir[i] = i % 48;
	run("rss.indirection_uneven", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	facts->rss.size = 0;
	run("rss.indirection_uneven", facts);
	assert_unknown("RSS indirection table");
	nd_status_set_unknown(&facts->rss.st, "ethtool netlink: Operation not supported");
	run("rss.indirection_uneven", facts);
	assert_unknown("RSS indirection table");
	/* One queue (virtio-net): no table needed, known or not. */
	facts->channels.combined = 1;
	run("rss.indirection_uneven", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	free(facts);
}

/* A two-socket host: node 0 = CPUs 0-7, node 1 = CPUs 8-15. */
static void two_nodes(struct nd_facts *facts)
{
	set_cpus(facts, 16);
	facts->cpus.n_nodes = 2;
	nd_cpuset_zero(&facts->cpus.node_cpus[1]);
	for (unsigned cpu = 8; cpu < 16; cpu++)
		nd_cpuset_add(&facts->cpus.node_cpus[1], cpu);
	facts->irqs.n_cpu_columns = 16;
}

static void test_irq_remote_numa(void **state)
{
	struct nd_facts *facts = healthy_facts();

	(void)state;
	run("irq.remote_numa", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	two_nodes(facts);
	run("irq.remote_numa", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	assert_string_equal(evidence_string("node_cpus"), "0-7");
	/* The card on node 1, its queue IRQs served on CPUs 0-7. */
	facts->pci.numa_node = 1;
	run("irq.remote_numa", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_true(evidence_number("remote_irq_count") == 8);
	assert_true(evidence_number("queue_irqs") == 8);
	assert_string_equal(evidence_string("judged_by"), "interrupt counts (majority per IRQ)");
	assert_string_equal(finding.fix.id, "irq_affinity");
	assert_int_equal(finding.fix.n_commands, 8);
	assert_string_equal(finding.fix.commands[0], "echo 8 > /proc/irq/100/smp_affinity_list");
	assert_string_equal(finding.fix.commands[7], "echo 15 > /proc/irq/107/smp_affinity_list");
	/* Two of eight moved to node 1 by counts: info. */
	for (unsigned q = 0; q < 6; q++) {
		struct nd_irq *irq = &facts->irqs.irq[1 + q];

		irq->per_cpu[8 + q] = irq->per_cpu[q];
		irq->per_cpu[q] = 0;
	}
	run("irq.remote_numa", facts);
	assert_int_equal(finding.severity, ND_SEV_INFO);
	assert_true(evidence_number("remote_irq_count") == 2);
	/* Too few counts: the effective affinity decides (all on node 0). */
	for (unsigned i = 0; i < facts->irqs.count; i++)
		memset(facts->irqs.irq[i].per_cpu, 0, sizeof(facts->irqs.irq[i].per_cpu));
	run("irq.remote_numa", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_string_equal(evidence_string("judged_by"), "effective affinity");
	facts->pci.numa_node = -1;
	run("irq.remote_numa", facts);
	assert_unknown("NIC NUMA node");
	facts->pci.numa_node = 1;
	nd_status_set_unknown(&facts->irqs.st, "no msi_irqs");
	run("irq.remote_numa", facts);
	assert_unknown("interface interrupts");
	free(facts);
}

/* /proc/interrupts columns are online CPUs in order: with CPUs 0-3
 * offline the first column is CPU 4. */
static void test_irq_remote_numa_offline_columns(void **state)
{
	struct nd_facts *facts = healthy_facts();

	(void)state;
	two_nodes(facts);
	facts->pci.numa_node = 1;
	nd_cpuset_zero(&facts->cpus.online);
	for (unsigned cpu = 8; cpu < 16; cpu++)
		nd_cpuset_add(&facts->cpus.online, cpu);
	facts->cpus.n_online = 8;
	facts->irqs.n_cpu_columns = 8;
	run("irq.remote_numa", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	free(facts);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_healthy_host_no_warning, teardown),
		cmocka_unit_test_teardown(test_link_down, teardown),
		cmocka_unit_test_teardown(test_link_speed_below_max, teardown),
		cmocka_unit_test_teardown(test_link_partner_limited, teardown),
		cmocka_unit_test_teardown(test_link_not_advertised, teardown),
		cmocka_unit_test_teardown(test_pcie_slot_dual_10g_gen2_x4, teardown),
		cmocka_unit_test_teardown(test_pcie_slot_card_below_one_port, teardown),
		cmocka_unit_test_teardown(test_pcie_slot_kernel_need, teardown),
		cmocka_unit_test_teardown(test_pcie_slot_bridges, teardown),
		cmocka_unit_test_teardown(test_pcie_slot_link_down_and_unknown, teardown),
		cmocka_unit_test_teardown(test_mtu_jumbo_possible, teardown),
		cmocka_unit_test_teardown(test_queues_below_cpus, teardown),
		cmocka_unit_test_teardown(test_rss_indirection_uneven, teardown),
		cmocka_unit_test_teardown(test_irq_remote_numa, teardown),
		cmocka_unit_test_teardown(test_irq_remote_numa_offline_columns, teardown),
	};

	return cmocka_run_group_tests_name("checks_nic", tests, NULL, NULL);
}
