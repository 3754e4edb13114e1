/*
 * test_checks_host_more.c - NIC drop counters, shaping, the CPU governor
 * and the iperf3 version on hand-made facts: flagged, ok and unknown for
 * each, and a healthy host (and a Debian one) on which no host-side check
 * warns.
 */
#include "checks_host_fixture.h"
#include "window_fixture.h"

/* ---- nic.rx_dropped ---------------------------------------------------- */

static void add_nicstat(struct nd_facts *facts, const char *name, uint64_t value)
{
	struct nd_stat *s = &facts->nicstats.s[facts->nicstats.count++];

	nd_strlcpy(s->name, name, sizeof(s->name));
	s->value = value;
}

static void test_nic_rx_dropped(void **state)
{
	struct nd_facts *facts = facts_new();

	(void)state;
	/* Counters that are not receive drops: nothing flagged. */
	add_nicstat(facts, "fdir_miss", 12345);
	add_nicstat(facts, "tx_dropped", 9);
	add_nicstat(facts, "rx_xdp_drop", 77);
	add_nicstat(facts, "rx_missed_errors", 0);
	run("nic.rx_dropped", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	assert_true(evidence_number("samples") == 1);
	assert_true(cJSON_IsNull(evidence_item("rate_per_sec")));

	/* Ring overflow: 50000 missed in 1e9 packets (50 ppm), long ago: info. */
	facts->link.stats.rx_missed = 50000;
	add_nicstat(facts, "rx_no_buffer_count", 40000);
	run("nic.rx_dropped", facts);
	assert_int_equal(finding.severity, ND_SEV_INFO);
	assert_int_equal(finding.fix.n_commands, 0);
	window_set(facts, 10, 0);
	run("nic.rx_dropped", facts);
	assert_int_equal(finding.severity, ND_SEV_INFO);
	assert_non_null(strstr(finding.title, "none in the last 1 s"));
	/* ...and growing: a tenth of them in a 10 s window, 500 missed/s. */
	window_set(facts, 10, 0.1);
	run("nic.rx_dropped", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_non_null(strstr(finding.title, "500.0 missed/s"));
	assert_true(evidence_number("samples") == 2);
	assert_true(evidence_number("interval_sec") == 10);
	assert_true(evidence_number("rate_per_sec.missed") == 500);
	assert_true(evidence_number("window.missed") == 5000);
	assert_true(evidence_number("window.received") == 100000000);
	assert_true(evidence_number("missed_total") == 50000);
	assert_true(evidence_number("link_stats.rx_missed") == 50000);
	assert_true(evidence_number("nic_counters.rx_no_buffer_count") == 40000);
	assert_null(evidence_item("nic_counters.fdir_miss"));
	assert_true(evidence_number("missed_share_pct") == 0.005);
	assert_string_equal(finding.fix.id, "rings");
	assert_fix(0, "ethtool -G enp9s0f0 rx 4096");

	/* The E810-XXV case: the driver's rx_dropped in the millions. */
	facts->link.stats.rx_missed = 0;
	facts->nicstats.count = 0;
	facts->link.stats.rx_packets = 100000000;
	add_nicstat(facts, "rx_dropped", 7206525);
	add_nicstat(facts, "rx_dropped.nic", 0);
	window_set(facts, 1, 1);
	run("nic.rx_dropped", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_true(evidence_number("dropped_total") == 7206525);
	assert_true(evidence_number("window.dropped") == 7206525);

	/* rx_dropped from unhandled protocols (LLDP every 30 s for a day). */
	facts->nicstats.count = 0;
	facts->link.stats.rx_packets = 1000000000;
	facts->link.stats.rx_dropped = 2880;
	window_set(facts, 86400, 1);
	run("nic.rx_dropped", facts);
	assert_int_equal(finding.severity, ND_SEV_INFO);
	assert_int_equal(finding.fix.n_commands, 0);

	nd_status_set_unknown(&facts->link.st, "rtnetlink: no such device");
	nd_status_set_unknown(&facts->nicstats.st, "ETHTOOL_GSTATS: no such device");
	run("nic.rx_dropped", facts);
	assert_int_equal(finding.severity, ND_SEV_UNKNOWN);
	assert_string_equal(evidence_string("reason"),
			    "rtnetlink: no such device; ETHTOOL_GSTATS: no such device");
	free(facts);
}

/* ---- qdisc.rate_limit -------------------------------------------------- */

static void test_qdisc_rate_limit(void **state)
{
	struct nd_facts *facts = facts_new();

	(void)state;
	run("qdisc.rate_limit", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	assert_true(finding.ceiling_mbps < 0);

	nd_strlcpy(facts->qdisc.kind, "tbf", sizeof(facts->qdisc.kind));
	facts->qdisc.rate_bps = 500000000;
	run("qdisc.rate_limit", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_true(finding.ceiling_mbps == 500);
	assert_string_equal(finding.ceiling_source, "shaping");
	assert_string_equal(evidence_string("shaper"), "tbf");
	assert_true(evidence_number("rate_bps") == 500000000);
	assert_true(evidence_number("link_speed_mbps") == 10000);
	assert_string_equal(finding.fix.id, "qdisc");
	assert_fix(2, "tc qdisc del dev enp9s0f0 root");
	assert_non_null(strstr(finding.fix.commands[1], "removes the shaper"));

	/* Speed unknown: any shaping is flagged. */
	facts->linkmodes.speed_mbps = -1;
	run("qdisc.rate_limit", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);

	/* An htb rate at the link speed does not bind. */
	facts->linkmodes.speed_mbps = 10000;
	nd_strlcpy(facts->qdisc.kind, "htb", sizeof(facts->qdisc.kind));
	facts->qdisc.rate_bps = 10000000000ULL;
	run("qdisc.rate_limit", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);

	nd_status_set_unknown(&facts->qdisc.st, "rtnetlink qdisc dump failed");
	run("qdisc.rate_limit", facts);
	assert_int_equal(finding.severity, ND_SEV_UNKNOWN);
	free(facts);
}

/* ---- cpu.governor_powersave -------------------------------------------- */

static void set_governor(struct nd_facts *facts, unsigned cpu, const char *governor)
{
	nd_strlcpy(facts->cpus.governor[cpu], governor, sizeof(facts->cpus.governor[0]));
}

static void add_irq(struct nd_facts *facts, unsigned irq, const char *affinity)
{
	struct nd_irq *entry = &facts->irqs.irq[facts->irqs.count++];

	nd_status_set_known(&facts->irqs.st);
	entry->irq = irq;
	entry->affinity_known = nd_cpuset_parse_list(affinity, &entry->affinity) == 0;
}

static void test_cpu_governor(void **state)
{
	struct nd_facts *facts = facts_new();

	(void)state;
	run("cpu.governor_powersave", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	assert_string_equal(evidence_string("cpus_checked"), "0-3");
	assert_string_equal(evidence_string("governors.performance"), "0-3");

	/* The NIC's interrupts on CPUs 0-1, which run powersave. */
	add_irq(facts, 40, "0");
	add_irq(facts, 41, "1");
	set_governor(facts, 0, "powersave");
	set_governor(facts, 1, "powersave");
	run("cpu.governor_powersave", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_string_equal(evidence_string("cpus_checked"), "0-1");
	assert_string_equal(evidence_string("governors.powersave"), "0-1");
	assert_non_null(strstr(evidence_string("note"), "intel_pstate"));
	assert_string_equal(finding.fix.id, "cpu_governor");
	assert_fix(0, "cpupower frequency-set -g performance");

	/* intel_pstate's active-mode powersave clocks up under load (HWP): info. */
	nd_strlcpy(facts->cpus.scaling_driver, "intel_pstate", sizeof(facts->cpus.scaling_driver));
	run("cpu.governor_powersave", facts);
	assert_int_equal(finding.severity, ND_SEV_INFO);
	assert_string_equal(evidence_string("scaling_driver"), "intel_pstate");
	/* Its passive mode is acpi-cpufreq-like: a warning again. */
	nd_strlcpy(facts->cpus.scaling_driver, "intel_cpufreq", sizeof(facts->cpus.scaling_driver));
	run("cpu.governor_powersave", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	facts->cpus.scaling_driver[0] = '\0';

	/* Powersave only on CPUs that do not serve the NIC. */
	set_governor(facts, 0, "performance");
	set_governor(facts, 1, "performance");
	set_governor(facts, 2, "powersave");
	set_governor(facts, 3, "conservative");
	run("cpu.governor_powersave", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);

	/* Interrupts unknown: every online CPU counts. */
	nd_status_set_unknown(&facts->irqs.st, "no msi_irqs");
	run("cpu.governor_powersave", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_string_equal(evidence_string("governors.conservative"), "3");
	assert_non_null(strstr(finding.title, "(powersave, conservative) on CPUs 2-3 of 4"));
	/* conservative alone is flagged too. */
	set_governor(facts, 2, "schedutil");
	run("cpu.governor_powersave", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_non_null(strstr(finding.title, "(conservative) on CPU 3 of 4"));
	assert_null(evidence_item("note"));
	assert_string_equal(evidence_string("governors.schedutil"), "2");

	facts->cpus.governor_known = false;
	run("cpu.governor_powersave", facts);
	assert_int_equal(finding.severity, ND_SEV_UNKNOWN);
	assert_string_equal(evidence_string("missing"), "cpufreq governor");
	nd_status_set_unknown(&facts->cpus.st, "cannot read online");
	run("cpu.governor_powersave", facts);
	assert_int_equal(finding.severity, ND_SEV_UNKNOWN);
	free(facts);
}

/* ---- tool.iperf3_single_threaded --------------------------------------- */

static void set_iperf3(struct nd_facts *facts, int major, int minor)
{
	nd_status_set_known(&facts->tools.iperf3);
	snprintf(facts->tools.iperf3_version, sizeof(facts->tools.iperf3_version), "%d.%d",
		 major, minor);
	facts->tools.iperf3_major = major;
	facts->tools.iperf3_minor = minor;
}

static void test_iperf3_version(void **state)
{
	struct nd_facts *facts = facts_new();

	(void)state;
	set_iperf3(facts, 3, 12);
	run("tool.iperf3_single_threaded", facts);
	/* info: only a run that shows a per-core limit makes it a warning */
	assert_int_equal(finding.severity, ND_SEV_INFO);
	assert_string_equal(evidence_string("iperf3_version"), "3.12");
	assert_string_equal(finding.fix.id, "tool");
	assert_fix(0, "nicdoctor bench -c HOST -P 4");
	assert_true(finding.fix.n_commands >= 3);

	set_iperf3(facts, 3, 9);	/* 3.9 < 3.16: compared as numbers */
	run("tool.iperf3_single_threaded", facts);
	assert_int_equal(finding.severity, ND_SEV_INFO);
	assert_true(finding.fix.n_commands >= 3);
	set_iperf3(facts, 3, 16);
	run("tool.iperf3_single_threaded", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	set_iperf3(facts, 4, 0);
	run("tool.iperf3_single_threaded", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);

	nd_status_set_unknown(&facts->tools.iperf3, "iperf3 not found in PATH");
	run("tool.iperf3_single_threaded", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	assert_string_equal(finding.title, "no iperf3 in PATH");

	nd_status_set_unknown(&facts->tools.iperf3, "unrecognised iperf3 version 'x'");
	run("tool.iperf3_single_threaded", facts);
	assert_int_equal(finding.severity, ND_SEV_UNKNOWN);
	free(facts);
}

/* ---- the healthy host -------------------------------------------------- */

static void test_healthy_host_no_warning(void **state)
{
	struct nd_facts *facts = facts_new();

	(void)state;
	/* ESnet-style tuned sysctls, a few squeezes, no drops, a quiet NIC. */
	set_sysctl(&facts->sysctl.rmem_max, "67108864");
	set_sysctl(&facts->sysctl.wmem_max, "67108864");
	set_sysctl(&facts->sysctl.tcp_rmem, "4096 87380 33554432");
	set_sysctl(&facts->sysctl.tcp_wmem, "4096 65536 33554432");
	facts->softnet.cpu[2].time_squeeze = 3;
	add_nicstat(facts, "rx_missed_errors", 0);
	add_nicstat(facts, "fdir_miss", 4242);
	add_irq(facts, 40, "0");
	add_irq(facts, 41, "1-2");
	for (size_t i = 0; i < ND_ARRAY_SIZE(host_checks); i++) {
		run(host_checks[i], facts);
		if (finding.severity != ND_SEV_OK)
			print_message("%s: %s: %s\n", host_checks[i],
				      nd_severity_name(finding.severity), finding.title);
		assert_int_equal(finding.severity, ND_SEV_OK);
	}
	free(facts);
}

static void test_debian_host_no_warning(void **state)
{
	struct nd_facts *facts = facts_new();

	(void)state;
	/* Debian 12 defaults, 10G LAN, its iperf3 3.12: at most info
	 * (SO_RCVBUF-capped programs; a single-threaded iperf3 nobody ran). */
	set_iperf3(facts, 3, 12);
	for (size_t i = 0; i < ND_ARRAY_SIZE(host_checks); i++) {
		run(host_checks[i], facts);
		assert_true(finding.severity < ND_SEV_UNKNOWN);
	}
	free(facts);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_nic_rx_dropped, teardown),
		cmocka_unit_test_teardown(test_qdisc_rate_limit, teardown),
		cmocka_unit_test_teardown(test_cpu_governor, teardown),
		cmocka_unit_test_teardown(test_iperf3_version, teardown),
		cmocka_unit_test_teardown(test_healthy_host_no_warning, teardown),
		cmocka_unit_test_teardown(test_debian_host_no_warning, teardown),
	};

	return cmocka_run_group_tests_name("checks_host_more", tests, NULL, NULL);
}
