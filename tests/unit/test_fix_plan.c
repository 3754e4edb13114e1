/*
 * test_fix_plan.c - the fix planners on hand-made facts and findings: what
 * each kind plans, the clamp to the device maximum and the NIC's NUMA
 * node, the severity filter, one step per knob, and the --persist files.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "nicdoctor/check.h"
#include "nicdoctor/common.h"
#include "nicdoctor/fix.h"

static struct nd_fix_plan plan;
static const struct nd_fix_options no_opts;

static struct nd_facts *facts_new(unsigned n_cpus)
{
	struct nd_facts *facts = calloc(1, sizeof(*facts));

	assert_non_null(facts);
	nd_strlcpy(facts->ifname, "eth0", sizeof(facts->ifname));
	nd_status_set_known(&facts->cpus.st);
	for (unsigned cpu = 0; cpu < n_cpus; cpu++)
		nd_cpuset_add(&facts->cpus.online, cpu);
	facts->cpus.n_online = n_cpus;
	nd_status_set_known(&facts->linkmodes.st);
	facts->linkmodes.speed_mbps = 10000;
	facts->pci.numa_node = -1;
	return facts;
}

static struct nd_finding finding(const char *id, enum nd_severity sev)
{
	struct nd_finding f = { .id = id, .severity = sev, .ceiling_mbps = -1 };

	return f;
}

static void build(const struct nd_facts *facts, const struct nd_finding *findings, unsigned n,
		  const struct nd_fix_options *opts)
{
	assert_int_equal(nd_fix_plan_build(facts, findings, n, opts, &plan), 0);
}

static void expect_step(unsigned i, const char *kind, const char *key, const char *current,
			const char *target, const char *command)
{
	const struct nd_fix_step *s = &plan.steps[i];

	assert_true(i < plan.n_steps);
	assert_string_equal(s->kind->name, kind);
	assert_string_equal(s->key, key);
	assert_string_equal(s->current, current);
	assert_string_equal(s->target, target);
	if (command)
		assert_string_equal(s->command, command);
}

static void test_channels_combined_clamped(void **state)
{
	struct nd_facts *facts = facts_new(16);
	struct nd_finding f[] = { finding("queues.single", ND_SEV_WARNING),
				  finding("queues.below_cpus", ND_SEV_WARNING) };

	(void)state;
	nd_status_set_known(&facts->channels.st);
	facts->channels.combined = 1;
	facts->channels.combined_max = 8;
	build(facts, f, 2, &no_opts);
	/* Two findings, one knob: one step, min(device 8, 16 CPUs). */
	assert_int_equal(plan.n_steps, 1);
	expect_step(0, "channels", "combined", "1", "8", "ethtool -L eth0 combined 8");
	assert_string_equal(plan.steps[0].finding_id, "queues.single");
	free(facts);
}

static void test_channels_rx_tx_local_node(void **state)
{
	struct nd_facts *facts = facts_new(8);
	struct nd_finding f = finding("queues.single", ND_SEV_WARNING);

	(void)state;
	nd_status_set_known(&facts->channels.st);
	facts->channels.rx = 1;
	facts->channels.rx_max = 16;
	facts->channels.tx = 1;
	facts->channels.tx_max = 2;
	/* The NIC on node 1 with CPUs 4-6: three local CPUs. */
	nd_status_set_known(&facts->pci.st);
	facts->pci.numa_node = 1;
	facts->cpus.n_nodes = 2;
	for (unsigned cpu = 4; cpu < 7; cpu++)
		nd_cpuset_add(&facts->cpus.node_cpus[1], cpu);
	build(facts, &f, 1, &no_opts);
	assert_int_equal(plan.n_steps, 2);
	expect_step(0, "channels", "rx", "1", "3", "ethtool -L eth0 rx 3");
	expect_step(1, "channels", "tx", "1", "2", "ethtool -L eth0 tx 2");
	free(facts);
}

static void test_severity_filter(void **state)
{
	struct nd_facts *facts = facts_new(4);
	struct nd_finding f[] = { finding("queues.single", ND_SEV_OK),
				  finding("queues.below_cpus", ND_SEV_INFO),
				  finding("rps.off_single_queue", ND_SEV_WARNING),
				  finding("ring.small", ND_SEV_UNKNOWN) };

	(void)state;
	nd_status_set_known(&facts->channels.st);
	facts->channels.combined = 1;
	facts->channels.combined_max = 8;
	nd_status_set_known(&facts->rings.st);
	facts->rings.rx = 512;
	facts->rings.rx_max = 4096;
	f[2].skipped = true;		/* --only left it out */
	build(facts, f, 4, &no_opts);
	assert_int_equal(plan.n_steps, 0);
	free(facts);
}

static void test_rps_and_rfs(void **state)
{
	struct nd_facts *facts = facts_new(4);
	struct nd_finding f = finding("rps.off_single_queue", ND_SEV_WARNING);
	struct nd_fix_options rfs = { .rfs = true };

	(void)state;
	nd_status_set_known(&facts->queues.st);
	facts->queues.n_rx = 1;
	facts->sysctl.rps_sock_flow_entries.known = true;
	nd_strlcpy(facts->sysctl.rps_sock_flow_entries.text, "0", 64);
	build(facts, &f, 1, &no_opts);
	assert_int_equal(plan.n_steps, 1);
	expect_step(0, "rps", "queues/rx-0/rps_cpus", "0", "f",
		    "echo f > /sys/class/net/eth0/queues/rx-0/rps_cpus");
	build(facts, &f, 1, &rfs);
	assert_int_equal(plan.n_steps, 3);
	expect_step(1, "rps", "queues/rx-0/rps_flow_cnt", "0", "32768", NULL);
	expect_step(2, "rps", "net.core.rps_sock_flow_entries", "0", "32768",
		    "sysctl -w net.core.rps_sock_flow_entries=32768");
	/* A mask someone set is left alone. */
	nd_cpuset_add(&facts->queues.rps_cpus[0], 1);
	build(facts, &f, 1, &no_opts);
	assert_int_equal(plan.n_steps, 0);
	free(facts);
}

static void add_feature(struct nd_facts *facts, const char *name, bool active, bool wanted,
			bool fixed)
{
	struct nd_feature *feat = &facts->features.f[facts->features.count++];

	nd_strlcpy(feat->name, name, sizeof(feat->name));
	feat->active = active;
	feat->wanted = wanted;
	feat->fixed = fixed;
}

static void test_offloads(void **state)
{
	struct nd_facts *facts = facts_new(4);
	struct nd_finding f = finding("offload.disabled", ND_SEV_WARNING);

	(void)state;
	nd_status_set_known(&facts->features.st);
	add_feature(facts, "rx-gro", false, false, false);
	add_feature(facts, "tx-tcp-segmentation", false, true, false);	/* waits for sg */
	add_feature(facts, "tx-scatter-gather", false, false, false);
	add_feature(facts, "rx-checksum", false, false, true);		/* fixed */
	add_feature(facts, "tx-generic-segmentation", true, true, false);
	build(facts, &f, 1, &no_opts);
	assert_int_equal(plan.n_steps, 2);
	/* Dependency order: scatter-gather before GRO. */
	expect_step(0, "offloads", "tx-scatter-gather", "off", "on", "ethtool -K eth0 sg on");
	expect_step(1, "offloads", "rx-gro", "off", "on", "ethtool -K eth0 gro on");
	free(facts);
}

/* A feature whose dependency the hardware cannot give is never planned:
 * the kernel would keep it off (sqm-scripts#11: SG off [fixed]). */
static void test_offloads_fixed_dependency(void **state)
{
	struct nd_facts *facts = facts_new(4);
	struct nd_finding f = finding("offload.disabled", ND_SEV_WARNING);

	(void)state;
	nd_status_set_known(&facts->features.st);
	add_feature(facts, "tx-scatter-gather", false, false, true);
	add_feature(facts, "tx-checksum-ipv4", false, false, false);
	add_feature(facts, "tx-tcp-segmentation", false, false, false);
	add_feature(facts, "tx-generic-segmentation", false, false, false);
	add_feature(facts, "rx-gro", false, false, false);
	build(facts, &f, 1, &no_opts);
	/* TSO and GSO need SG: only the checksum and GRO can come on. */
	assert_int_equal(plan.n_steps, 2);
	expect_step(0, "offloads", "tx-checksum-ipv4", "off", "on", NULL);
	expect_step(1, "offloads", "rx-gro", "off", "on", "ethtool -K eth0 gro on");
	free(facts);
}

/* pcie.aspm_latency's links become journaled sysfs writes, one per
 * state the check names; a journal naming anything else is refused. */
static void test_pcie_aspm(void **state)
{
	struct nd_facts *facts = facts_new(4);
	struct nd_finding f = finding("pcie.aspm_latency", ND_SEV_WARNING);
	const struct nd_fix_kind *kind = nd_fix_kind_find("pcie_aspm");

	(void)state;
	nd_strlcpy(f.fix.id, "pcie_aspm", sizeof(f.fix.id));
	nd_strlcpy(f.fix.commands[0], "echo 0 > /sys/bus/pci/devices/0000:03:00.0/link/l1_aspm",
		   sizeof(f.fix.commands[0]));
	nd_strlcpy(f.fix.commands[1], "echo 0 > /sys/bus/pci/devices/0000:01:00.0/link/l0s_aspm",
		   sizeof(f.fix.commands[1]));
	nd_strlcpy(f.fix.commands[2], "# every link until reboot: ...", sizeof(f.fix.commands[2]));
	f.fix.n_commands = 3;
	build(facts, &f, 1, &no_opts);
	assert_int_equal(plan.n_steps, 2);
	expect_step(0, "pcie_aspm", "pci/0000:03:00.0/l1_aspm", "1", "0",
		    "echo 0 > /sys/bus/pci/devices/0000:03:00.0/link/l1_aspm");
	expect_step(1, "pcie_aspm", "pci/0000:01:00.0/l0s_aspm", "1", "0", NULL);
	assert_non_null(kind);
	assert_int_equal(kind->check("pci/0000:03:00.0/l1_aspm", "0"), 0);
	assert_int_equal(kind->check("pci/0000:03:00.0/l1_aspm", "1"), 0);
	assert_int_equal(kind->check("pci/../../../etc/l1_aspm", "0"), -EINVAL);
	assert_int_equal(kind->check("pci/0000:03:00.0/clkpm", "0"), -EINVAL);
	assert_int_equal(kind->check("pci/0000:03:00.0/l1_aspm", "2"), -EINVAL);
	/* Info (ASPM on within budget) is not applied. */
	f.severity = ND_SEV_INFO;
	build(facts, &f, 1, &no_opts);
	assert_int_equal(plan.n_steps, 0);
	free(facts);
}

static void test_sysctl_sizes(void **state)
{
	struct nd_facts *facts = facts_new(4);
	struct nd_finding f[] = { finding("sysctl.rmem_max_low", ND_SEV_INFO),
				  finding("sysctl.wmem_max_low", ND_SEV_WARNING),
				  finding("softnet.dropped", ND_SEV_WARNING) };
	struct nd_sysctls *s = &facts->sysctl;
	struct nd_fix_options measured = { .rtt_usec = 4000, .rtt_measured = true };

	(void)state;
	f[0].fix.n_commands = 1;	/* info counts for sysctl when it carries a fix */
	s->rmem_max.known = s->wmem_max.known = s->tcp_rmem.known = s->tcp_wmem.known = true;
	s->netdev_max_backlog.known = true;
	nd_strlcpy(s->rmem_max.text, "212992", 64);
	nd_strlcpy(s->wmem_max.text, "212992", 64);
	nd_strlcpy(s->tcp_rmem.text, "4096 131072 6291456", 64);
	nd_strlcpy(s->tcp_wmem.text, "4096 16384 2097152", 64);
	nd_strlcpy(s->netdev_max_backlog.text, "1000", 64);
	build(facts, f, 3, &no_opts);
	/* 2 x 10000 Mbit/s x 1 ms = 2.5 MB, rounded up to 3 MiB. */
	assert_int_equal(plan.n_steps, 4);
	expect_step(0, "sysctl", "net.core.rmem_max", "212992", "3145728",
		    "sysctl -w net.core.rmem_max=3145728");
	expect_step(1, "sysctl", "net.core.wmem_max", "212992", "3145728", NULL);
	expect_step(2, "sysctl", "net.ipv4.tcp_wmem", "4096 16384 2097152",
		    "4096 16384 3145728", "sysctl -w net.ipv4.tcp_wmem='4096 16384 3145728'");
	expect_step(3, "sysctl", "net.core.netdev_max_backlog", "1000", "30000", NULL);
	assert_non_null(strstr(plan.notes[0], "RTT 1.0 ms (default"));
	/* A measured 4 ms RTT: 10 MB -> 10 MiB. */
	build(facts, f, 1, &measured);
	expect_step(0, "sysctl", "net.core.rmem_max", "212992", "10485760", NULL);
	expect_step(1, "sysctl", "net.ipv4.tcp_rmem", "4096 131072 6291456",
		    "4096 131072 10485760", NULL);
	assert_non_null(strstr(plan.notes[0], "(measured)"));
	free(facts);
}

static void test_rings(void **state)
{
	struct nd_facts *facts = facts_new(4);
	struct nd_finding f = finding("ring.small", ND_SEV_WARNING);

	(void)state;
	nd_status_set_known(&facts->rings.st);
	facts->rings.rx = 512;
	facts->rings.rx_max = 4096;
	facts->rings.tx = 4096;
	facts->rings.tx_max = 4096;
	build(facts, &f, 1, &no_opts);
	assert_int_equal(plan.n_steps, 1);
	expect_step(0, "rings", "rx", "512", "4096", "ethtool -G eth0 rx 4096");
	free(facts);
}

/* link.half_duplex with a partner that does not negotiate (serverfault
 * 328105): one "link" step forcing this end to the partner's speed, full
 * duplex; revert's value is "autoneg".  A negotiating partner: no step. */
static void test_link_forced_partner(void **state)
{
	struct nd_facts *facts = facts_new(4);
	const struct nd_fix_kind *kind = nd_fix_kind_find("link");
	struct nd_fix_persist_text text = { { NULL } };
	struct nd_finding f = { .ceiling_mbps = -1 };

	(void)state;
	assert_non_null(kind);
	assert_ptr_equal(nd_fix_kind_for_check("link.half_duplex"), kind);
	nd_status_set_known(&facts->linkmodes.modes_st);
	facts->linkmodes.speed_mbps = 100;
	facts->linkmodes.duplex = 0;
	facts->linkmodes.autoneg = true;
	nd_check_run(nd_check_find("link.half_duplex"), facts, &f);
	assert_int_equal(f.severity, ND_SEV_WARNING);
	build(facts, &f, 1, &no_opts);
	assert_int_equal(plan.n_steps, 1);
	expect_step(0, "link", "link", "autoneg", "100/full",
		    "ethtool -s eth0 speed 100 duplex full autoneg off");
	assert_int_equal(kind->persist("", &plan.steps[0], &text), 0);
	assert_string_equal(text.text[ND_PERSIST_LINK],
			    "AutoNegotiation=no\nBitsPerSecond=100M\nDuplex=full\n");
	free(text.text[ND_PERSIST_LINK]);
	/* what a journal may name */
	assert_int_equal(kind->check("link", "autoneg"), 0);
	assert_int_equal(kind->check("link", "1000/half"), 0);
	assert_int_equal(kind->check("link", "100/fast"), -EINVAL);
	assert_int_equal(kind->check("link", "/full"), -EINVAL);
	assert_int_equal(kind->check("link", "0/full"), -EINVAL);
	assert_int_equal(kind->check("speed", "autoneg"), -EINVAL);
	nd_finding_free(&f);
	/* the partner negotiates: not this kind's change */
	nd_strlcpy(facts->linkmodes.lp_advertised[0], "Autoneg", 48);
	facts->linkmodes.n_lp_advertised = 1;
	memset(&f, 0, sizeof(f));
	nd_check_run(nd_check_find("link.half_duplex"), facts, &f);
	assert_int_equal(f.severity, ND_SEV_WARNING);
	build(facts, &f, 1, &no_opts);
	assert_int_equal(plan.n_steps, 0);
	nd_finding_free(&f);
	free(facts);
}

static void add_irq(struct nd_facts *facts, unsigned irq, const char *name, unsigned cpu)
{
	struct nd_irq *i = &facts->irqs.irq[facts->irqs.count++];

	i->irq = irq;
	nd_strlcpy(i->name, name, sizeof(i->name));
	i->affinity_known = true;
	nd_cpuset_add(&i->affinity, cpu);
}

static void test_irq_affinity(void **state)
{
	struct nd_facts *facts = facts_new(2);
	struct nd_finding f = finding("irq.concentrated", ND_SEV_WARNING);

	(void)state;
	nd_status_set_known(&facts->irqs.st);
	facts->irqs.irqbalance_running = true;
	add_irq(facts, 40, "eth0-misc", 0);
	add_irq(facts, 41, "eth0-TxRx-0", 0);
	add_irq(facts, 42, "eth0-TxRx-1", 0);
	add_irq(facts, 43, "eth0-TxRx-2", 0);
	build(facts, &f, 1, &no_opts);
	/* 41 -> CPU0 is already right: no step. */
	assert_int_equal(plan.n_steps, 1);
	expect_step(0, "irq_affinity", "irq/42", "0", "1",
		    "echo 1 > /proc/irq/42/smp_affinity_list");
	assert_int_equal(plan.n_notes, 1);
	assert_non_null(strstr(plan.notes[0], "--banirq=41 --banirq=42 --banirq=43"));
	free(facts);
}

static void test_persist_files(void **state)
{
	struct nd_fix_journal *j = calloc(1, sizeof(*j));
	char etc[] = "/tmp/nd-test-persist.XXXXXX";
	struct nd_fix_step *s;

	(void)state;
	assert_non_null(mkdtemp(etc));
	setenv("NICDOCTOR_ETC_DIR", etc, 1);
	nd_strlcpy(j->ifname, "ndtest0", sizeof(j->ifname));	/* no such device: KERNEL match */
	s = &j->steps[j->n_steps++];
	s->kind = nd_fix_kind_find("channels");
	nd_strlcpy(s->key, "combined", sizeof(s->key));
	nd_strlcpy(s->target, "8", sizeof(s->target));
	s = &j->steps[j->n_steps++];
	s->kind = nd_fix_kind_find("rps");
	nd_strlcpy(s->key, "queues/rx-0/rps_cpus", sizeof(s->key));
	nd_strlcpy(s->target, "f", sizeof(s->target));
	s = &j->steps[j->n_steps++];
	s->kind = nd_fix_kind_find("sysctl");
	nd_strlcpy(s->key, "net.core.rmem_max", sizeof(s->key));
	nd_strlcpy(s->target, "3145728", sizeof(s->target));
	assert_int_equal(nd_fix_persist_prepare(j), 0);
	assert_int_equal(j->n_files, 3);
	assert_non_null(strstr(j->files[0].path, "/sysctl.d/90-nicdoctor.conf"));
	assert_non_null(strstr(j->files[0].content, "\nnet.core.rmem_max = 3145728\n"));
	assert_non_null(strstr(j->files[1].path, "/systemd/network/90-nicdoctor-ndtest0.link"));
	assert_non_null(strstr(j->files[1].content, "[Match]\nOriginalName=ndtest0\n"));
	assert_non_null(strstr(j->files[1].content, "\nCombinedChannels=8\n"));
	assert_non_null(strstr(j->files[2].path, "/udev/rules.d/90-nicdoctor-ndtest0.rules"));
	assert_non_null(strstr(j->files[2].content,
			       "ACTION==\"add\", SUBSYSTEM==\"net\", KERNEL==\"ndtest0\", "
			       "ATTR{queues/rx-0/rps_cpus}=\"f\"\n"));
	assert_false(j->files[0].existed);
	nd_fix_journal_free(j);
	rmdir(etc);
	free(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_channels_combined_clamped),
		cmocka_unit_test(test_channels_rx_tx_local_node),
		cmocka_unit_test(test_severity_filter),
		cmocka_unit_test(test_rps_and_rfs),
		cmocka_unit_test(test_offloads),
		cmocka_unit_test(test_offloads_fixed_dependency),
		cmocka_unit_test(test_pcie_aspm),
		cmocka_unit_test(test_sysctl_sizes),
		cmocka_unit_test(test_rings),
		cmocka_unit_test(test_link_forced_partner),
		cmocka_unit_test(test_irq_affinity),
		cmocka_unit_test(test_persist_files),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
