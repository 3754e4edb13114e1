/*
 * test_checks_host.c - the host-side checks (socket buffer sysctls, backlog,
 * softnet drops and squeezes, NIC drop counters, shaping, CPU governor,
 * iperf3 version) on hand-made facts: flagged, ok and unknown for each, the
 * numbers of real softnet_stat captures, Debian's defaults on a 10G LAN,
 * and a healthy host on which none of them warns.
 */
#include <math.h>
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

static const char *const host_checks[] = {
	"sysctl.rmem_max_low", "sysctl.wmem_max_low", "sysctl.backlog_low", "softnet.dropped",
	"softnet.squeezed", "nic.rx_dropped", "qdisc.rate_limit", "cpu.governor_powersave",
	"tool.iperf3_single_threaded",
};

static void set_sysctl(struct nd_sysctl *ctl, const char *text)
{
	ctl->known = true;
	nd_strlcpy(ctl->text, text, sizeof(ctl->text));
	ctl->reason[0] = '\0';
}

static void unset_sysctl(struct nd_sysctl *ctl, const char *reason)
{
	ctl->known = false;
	ctl->text[0] = '\0';
	nd_strlcpy(ctl->reason, reason, sizeof(ctl->reason));
}

/* Debian 12's defaults (linux 6.1, from /proc/sys on a fresh install). */
static void set_debian_sysctls(struct nd_facts *facts)
{
	set_sysctl(&facts->sysctl.rmem_max, "212992");
	set_sysctl(&facts->sysctl.wmem_max, "212992");
	set_sysctl(&facts->sysctl.tcp_rmem, "4096 131072 6291456");
	set_sysctl(&facts->sysctl.tcp_wmem, "4096 16384 4194304");
	set_sysctl(&facts->sysctl.netdev_max_backlog, "1000");
	set_sysctl(&facts->sysctl.netdev_budget, "300");
}

static void add_softnet(struct nd_facts *facts, unsigned cpu, uint64_t processed,
			uint64_t dropped, uint64_t time_squeeze)
{
	struct nd_softnet_cpu *row = &facts->softnet.cpu[facts->softnet.count++];

	nd_status_set_known(&facts->softnet.st);
	row->cpu = cpu;
	row->processed = processed;
	row->dropped = dropped;
	row->time_squeeze = time_squeeze;
	row->columns = 13;
}

/* A 10GbE port at MTU 1500 on a 4-CPU host, Debian sysctls, quiet softnet,
 * performance governor, no shaper, iperf3 3.16. */
static struct nd_facts *facts_new(void)
{
	struct nd_facts *facts = calloc(1, sizeof(*facts));

	assert_non_null(facts);
	nd_strlcpy(facts->ifname, "enp9s0f0", sizeof(facts->ifname));
	nd_status_set_known(&facts->cpus.st);
	for (unsigned cpu = 0; cpu < 4; cpu++) {
		nd_cpuset_add(&facts->cpus.online, cpu);
		nd_strlcpy(facts->cpus.governor[cpu], "performance", sizeof(facts->cpus.governor[0]));
		add_softnet(facts, cpu, 5000000, 0, 0);
	}
	facts->cpus.n_online = 4;
	facts->cpus.governor_known = true;
	nd_status_set_known(&facts->link.st);
	facts->link.mtu = 1500;
	facts->link.stats.rx_packets = 1000000000;
	nd_strlcpy(facts->link.qdisc, "mq", sizeof(facts->link.qdisc));
	nd_status_set_known(&facts->linkmodes.st);
	facts->linkmodes.speed_mbps = 10000;
	nd_status_set_known(&facts->qdisc.st);
	nd_status_set_known(&facts->nicstats.st);
	nd_status_set_known(&facts->rings.st);
	facts->rings.rx = 512;
	facts->rings.rx_max = 4096;
	set_debian_sysctls(facts);
	nd_status_set_known(&facts->tools.iperf3);
	nd_strlcpy(facts->tools.iperf3_version, "3.16", sizeof(facts->tools.iperf3_version));
	facts->tools.iperf3_major = 3;
	facts->tools.iperf3_minor = 16;
	return facts;
}

static void run(const char *id, const struct nd_facts *facts)
{
	const struct nd_check *check = nd_check_find(id);

	assert_non_null(check);
	nd_finding_free(&finding);
	nd_check_run(check, facts, &finding);
}

static const cJSON *evidence_item(const char *path)
{
	char key[128], *dot;
	const cJSON *item = finding.evidence;

	/* "a.b" looks up b inside object a. */
	nd_strlcpy(key, path, sizeof(key));
	dot = strchr(key, '.');
	if (dot) {
		*dot = '\0';
		item = cJSON_GetObjectItemCaseSensitive(item, key);
		return cJSON_GetObjectItemCaseSensitive(item, dot + 1);
	}
	return cJSON_GetObjectItemCaseSensitive(item, key);
}

static const char *evidence_string(const char *path)
{
	const cJSON *item = evidence_item(path);

	return cJSON_IsString(item) ? item->valuestring : "";
}

static double evidence_number(const char *path)
{
	const cJSON *item = evidence_item(path);

	assert_true(cJSON_IsNumber(item));
	return item->valuedouble;
}

static void assert_fix(unsigned index, const char *command)
{
	assert_true(index < finding.fix.n_commands);
	assert_string_equal(finding.fix.commands[index], command);
}

/* ---- sysctl.rmem_max_low / sysctl.wmem_max_low ------------------------- */

static void test_window_debian_defaults_10g_lan(void **state)
{
	struct nd_facts *facts = facts_new();

	(void)state;
	/* Autotuning: 6291456 / 2 = 3 MiB window, x 8 / 500 us = 50332 Mbit/s. */
	run("sysctl.rmem_max_low", facts);
	assert_int_equal(finding.severity, ND_SEV_INFO);
	assert_true(finding.ceiling_mbps == 50332);
	assert_string_equal(finding.ceiling_source, "window");
	assert_true(evidence_number("rmem_max") == 212992);
	assert_string_equal(evidence_string("tcp_rmem"), "4096 131072 6291456");
	assert_true(evidence_number("autotune_window_bytes") == 3145728);
	assert_true(evidence_number("rtt_assumed_usec") == 500);
	assert_true(evidence_number("wire_ceiling_mbps") == 9415);
	/* Programs setting SO_RCVBUF get 212992 bytes: 3408 Mbit/s at 0.5 ms. */
	assert_true(evidence_number("sockopt_ceiling_mbps") == 3408);
	assert_true(evidence_number("line_rate_up_to_rtt_usec") == 2673);
	/* 2 x 10 Gbit/s x 0.5 ms = 1.25 MB, rounded up to 2 MiB; tcp_rmem is fine. */
	assert_int_equal(finding.fix.n_commands, 1);
	assert_fix(0, "sysctl -w net.core.rmem_max=2097152");
	assert_string_equal(finding.fix.id, "sysctl");

	run("sysctl.wmem_max_low", facts);
	assert_int_equal(finding.severity, ND_SEV_INFO);
	assert_true(finding.ceiling_mbps == 33554);
	assert_true(evidence_number("wmem_max") == 212992);
	assert_string_equal(evidence_string("tcp_wmem"), "4096 16384 4194304");
	assert_fix(0, "sysctl -w net.core.wmem_max=2097152");
	free(facts);
}

static void test_window_small_autotuning_warns(void **state)
{
	struct nd_facts *facts = facts_new();

	(void)state;
	/* Linux 2.6's old tcp_rmem max: an 87380-byte window, 1398 Mbit/s at 0.5 ms. */
	set_sysctl(&facts->sysctl.tcp_rmem, "4096 87380 174760");
	run("sysctl.rmem_max_low", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_true(finding.ceiling_mbps == 1398);
	assert_string_equal(finding.ceiling_source, "window");
	assert_true(evidence_number("recommended_bytes") == 2097152);
	assert_int_equal(finding.fix.n_commands, 2);
	assert_fix(0, "sysctl -w net.core.rmem_max=2097152");
	assert_fix(1, "sysctl -w net.ipv4.tcp_rmem=\"4096 87380 2097152\"");

	/* rmem_max already large: only tcp_rmem needs raising. */
	set_sysctl(&facts->sysctl.rmem_max, "67108864");
	run("sysctl.rmem_max_low", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_int_equal(finding.fix.n_commands, 1);
	assert_fix(0, "sysctl -w net.ipv4.tcp_rmem=\"4096 87380 2097152\"");

	set_sysctl(&facts->sysctl.tcp_wmem, "4096 16384 65536");
	run("sysctl.wmem_max_low", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_true(finding.ceiling_mbps == 524);
	assert_fix(1, "sysctl -w net.ipv4.tcp_wmem=\"4096 16384 2097152\"");
	free(facts);
}

static void test_window_debian_defaults_100g(void **state)
{
	struct nd_facts *facts = facts_new();

	(void)state;
	/* At 100G the 3 MiB window is below line rate even at 0.5 ms. */
	facts->linkmodes.speed_mbps = 100000;
	run("sysctl.rmem_max_low", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_true(finding.ceiling_mbps == 50332);
	/* 2 x 100 Gbit/s x 0.5 ms = 12.5 MB -> 12 MiB (12582912). */
	assert_fix(1, "sysctl -w net.ipv4.tcp_rmem=\"4096 131072 12582912\"");
	free(facts);
}

static void test_window_tuned_ok(void **state)
{
	struct nd_facts *facts = facts_new();

	(void)state;
	set_sysctl(&facts->sysctl.rmem_max, "67108864");
	set_sysctl(&facts->sysctl.tcp_rmem, "4096 87380 67108864");
	run("sysctl.rmem_max_low", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	assert_true(finding.ceiling_mbps == 536871);
	assert_int_equal(finding.fix.n_commands, 0);
	free(facts);
}

static void test_window_unknown(void **state)
{
	struct nd_facts *facts = facts_new();

	(void)state;
	unset_sysctl(&facts->sysctl.rmem_max, "no permission");
	run("sysctl.rmem_max_low", facts);
	assert_int_equal(finding.severity, ND_SEV_UNKNOWN);
	assert_string_equal(evidence_string("missing"), "net.core.rmem_max");
	assert_string_equal(evidence_string("reason"), "no permission");
	assert_true(finding.ceiling_mbps < 0);

	unset_sysctl(&facts->sysctl.tcp_wmem, "cannot read");
	run("sysctl.wmem_max_low", facts);
	assert_int_equal(finding.severity, ND_SEV_UNKNOWN);
	assert_string_equal(evidence_string("missing"), "net.ipv4.tcp_wmem");

	set_debian_sysctls(facts);
	set_sysctl(&facts->sysctl.tcp_rmem, "4096 131072");
	run("sysctl.rmem_max_low", facts);
	assert_int_equal(finding.severity, ND_SEV_UNKNOWN);
	assert_string_equal(evidence_string("missing"), "net.ipv4.tcp_rmem");
	set_sysctl(&facts->sysctl.tcp_rmem, "4096 131072 6291456 1");
	run("sysctl.rmem_max_low", facts);
	assert_int_equal(finding.severity, ND_SEV_UNKNOWN);

	/* Link down: no speed, no wire ceiling to compare with. */
	set_debian_sysctls(facts);
	facts->linkmodes.speed_mbps = -1;
	run("sysctl.rmem_max_low", facts);
	assert_int_equal(finding.severity, ND_SEV_UNKNOWN);
	assert_string_equal(evidence_string("missing"), "link speed");
	free(facts);
}

/* ---- sysctl.backlog_low ------------------------------------------------ */

/* The 2001 NAPI router (fixtures-raw/softnet_stat-2001-napi-router-...):
 * 076b152d 00002382 ... and 07678c10 0000247c ... */
static void set_router_softnet(struct nd_facts *facts)
{
	facts->softnet.count = 0;
	add_softnet(facts, 0, 0x076b152d, 0x2382, 0);
	add_softnet(facts, 1, 0x07678c10, 0x247c, 0);
}

static void test_backlog_low(void **state)
{
	struct nd_facts *facts = facts_new();

	(void)state;
	set_router_softnet(facts);
	run("sysctl.backlog_low", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_true(evidence_number("netdev_max_backlog") == 1000);
	assert_true(evidence_number("dropped_total") == 0x2382 + 0x247c);
	assert_string_equal(evidence_string("cpus_with_dropped"), "0-1");
	assert_fix(0, "sysctl -w net.core.netdev_max_backlog=30000");
	/* A faster link gets ESnet's 100G value. */
	facts->linkmodes.speed_mbps = 100000;
	run("sysctl.backlog_low", facts);
	assert_fix(0, "sysctl -w net.core.netdev_max_backlog=250000");

	/* Raised already: softnet.dropped judges the drops. */
	set_sysctl(&facts->sysctl.netdev_max_backlog, "30000");
	run("sysctl.backlog_low", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);

	/* Default backlog but no drops: nothing to fix. */
	set_sysctl(&facts->sysctl.netdev_max_backlog, "1000");
	facts->softnet.count = 0;
	add_softnet(facts, 0, 123456, 0, 4);
	run("sysctl.backlog_low", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	assert_int_equal(finding.fix.n_commands, 0);

	unset_sysctl(&facts->sysctl.netdev_max_backlog, "no such file");
	run("sysctl.backlog_low", facts);
	assert_int_equal(finding.severity, ND_SEV_UNKNOWN);
	assert_string_equal(evidence_string("missing"), "net.core.netdev_max_backlog");
	set_sysctl(&facts->sysctl.netdev_max_backlog, "1000");
	nd_status_set_unknown(&facts->softnet.st, "cannot read '/proc/net/softnet_stat'");
	run("sysctl.backlog_low", facts);
	assert_int_equal(finding.severity, ND_SEV_UNKNOWN);
	assert_string_equal(evidence_string("missing"), "softnet_stat");
	free(facts);
}

/* ---- softnet.dropped --------------------------------------------------- */

static void test_softnet_dropped(void **state)
{
	struct nd_facts *facts = facts_new();
	const cJSON *per_cpu, *cpu1;

	(void)state;
	/* 9090 drops in 124.3M packets on CPU0, 9340 in 124.2M on CPU1: ~75 ppm. */
	set_router_softnet(facts);
	run("softnet.dropped", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_true(evidence_number("dropped_total") == 18430);
	per_cpu = evidence_item("per_cpu");
	assert_int_equal(cJSON_GetArraySize(per_cpu), 2);
	cpu1 = cJSON_GetArrayItem(per_cpu, 1);
	assert_true(cJSON_GetObjectItem(cpu1, "cpu")->valuedouble == 1);
	assert_true(cJSON_GetObjectItem(cpu1, "dropped")->valuedouble == 0x247c);
	assert_true(fabs(cJSON_GetObjectItem(cpu1, "share_pct")->valuedouble - 0.0075) < 1e-9);
	assert_non_null(strstr(finding.title, "CPU1"));
	assert_fix(0, "sysctl -w net.core.netdev_max_backlog=30000");

	/* A few drops in a busy host: info, no fix. */
	facts->softnet.count = 0;
	add_softnet(facts, 0, 50000000, 0, 0);
	add_softnet(facts, 3, 50000000, 7, 0);
	run("softnet.dropped", facts);
	assert_int_equal(finding.severity, ND_SEV_INFO);
	assert_string_equal(evidence_string("cpus_with_dropped"), "3");
	assert_int_equal(finding.fix.n_commands, 0);

	/* Many drops but a tiny share (1 per million): info. */
	facts->softnet.cpu[1].processed = 4000000000ULL;
	facts->softnet.cpu[1].dropped = 4000;
	run("softnet.dropped", facts);
	assert_int_equal(finding.severity, ND_SEV_INFO);

	facts->softnet.cpu[1].dropped = 0;
	run("softnet.dropped", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);

	nd_status_set_unknown(&facts->softnet.st, "no permission");
	run("softnet.dropped", facts);
	assert_int_equal(finding.severity, ND_SEV_UNKNOWN);
	assert_string_equal(evidence_string("reason"), "no permission");
	free(facts);
}

/* ---- softnet.squeezed -------------------------------------------------- */

/* First sample of fixtures-raw/softnet_stat-virtio-vm-8cpu-time_squeeze-
 * cpu5-3samples.md: columns processed and time_squeeze of 8 CPUs. */
static void set_virtio_softnet(struct nd_facts *facts)
{
	static const uint64_t rows[8][2] = {
		{ 0x00b2b85e, 0x1 }, { 0x002923c4, 0x1 }, { 0x00044858, 0x17a },
		{ 0x00c051de, 0x3 }, { 0x000f1032, 0x1 }, { 0x00002bc7, 0x17d4 },
		{ 0x008eb9b3, 0x0 }, { 0x008fa824, 0x0 },
	};

	facts->softnet.count = 0;
	for (unsigned cpu = 0; cpu < 8; cpu++)
		add_softnet(facts, cpu, rows[cpu][0], 0, rows[cpu][1]);
}

static void test_softnet_squeezed(void **state)
{
	struct nd_facts *facts = facts_new();

	(void)state;
	/* CPU5: 6100 squeezes in 11207 packets; CPU2: 378 in 280664 (0.13%). */
	set_virtio_softnet(facts);
	for (unsigned cpu = 4; cpu < 8; cpu++)
		nd_cpuset_add(&facts->cpus.online, cpu);
	facts->cpus.n_online = 8;
	run("softnet.squeezed", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_non_null(strstr(finding.title, "CPU5"));
	assert_non_null(strstr(finding.title, "6100"));
	assert_true(evidence_number("time_squeeze_total") == 1 + 1 + 378 + 3 + 1 + 6100);
	assert_string_equal(evidence_string("cpus_with_time_squeeze"), "0-5");
	assert_int_equal(cJSON_GetArraySize(evidence_item("per_cpu")), 6);
	assert_fix(0, "sysctl -w net.core.netdev_budget=600");
	assert_fix(1, "sysctl -w net.core.netdev_budget_usecs=$(( $(sysctl -n "
		   "net.core.netdev_budget_usecs) * 2 ))");
	/* Two of eight CPUs squeezed often: spreading is suggested too. */
	assert_int_equal(finding.fix.n_commands, 3);

	/* CPU5 healthy: CPU2's 0.13% is info, no fix. */
	facts->softnet.cpu[5].time_squeeze = 0;
	run("softnet.squeezed", facts);
	assert_int_equal(finding.severity, ND_SEV_INFO);
	assert_non_null(strstr(finding.title, "CPU2"));
	assert_int_equal(finding.fix.n_commands, 0);

	/* hjr3's 6.4.7 capture: 61 squeezes in 7.9M packets: normal. */
	facts->softnet.count = 0;
	add_softnet(facts, 0, 0x0078b644, 0, 0x3d);
	add_softnet(facts, 1, 0x006d1ebe, 0, 0x4f);
	run("softnet.squeezed", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);

	/* A few squeezes on an idle CPU: below the count, whatever the share. */
	facts->softnet.count = 0;
	add_softnet(facts, 0, 200, 0, 50);
	run("softnet.squeezed", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);

	nd_status_set_unknown(&facts->softnet.st, "no such file");
	run("softnet.squeezed", facts);
	assert_int_equal(finding.severity, ND_SEV_UNKNOWN);
	free(facts);
}

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

	/* Ring overflow: 50000 missed in 1e9 packets (50 ppm). */
	facts->link.stats.rx_missed = 50000;
	add_nicstat(facts, "rx_no_buffer_count", 40000);
	run("nic.rx_dropped", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
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
	run("nic.rx_dropped", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_true(evidence_number("dropped_total") == 7206525);

	/* rx_dropped from unhandled protocols (LLDP every 30 s for a day). */
	facts->nicstats.count = 0;
	facts->link.stats.rx_packets = 1000000000;
	facts->link.stats.rx_dropped = 2880;
	run("nic.rx_dropped", facts);
	assert_int_equal(finding.severity, ND_SEV_INFO);
	assert_int_equal(finding.fix.n_commands, 0);

	nd_status_set_unknown(&facts->link.st, "rtnetlink: no such device");
	nd_status_set_unknown(&facts->nicstats.st, "ETHTOOL_GSTATS: no such device");
	run("nic.rx_dropped", facts);
	assert_int_equal(finding.severity, ND_SEV_UNKNOWN);
	assert_string_equal(evidence_string("reason"), "rtnetlink: no such device");
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
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_string_equal(evidence_string("iperf3_version"), "3.12");
	assert_string_equal(finding.fix.id, "tool");
	assert_fix(0, "nicdoctor bench -c HOST -P 4");
	assert_true(finding.fix.n_commands >= 3);

	set_iperf3(facts, 3, 9);	/* 3.9 < 3.16: compared as numbers */
	run("tool.iperf3_single_threaded", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
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
	/* Debian defaults, 10G LAN: at most info (SO_RCVBUF-capped programs). */
	for (size_t i = 0; i < ND_ARRAY_SIZE(host_checks); i++) {
		run(host_checks[i], facts);
		assert_true(finding.severity < ND_SEV_UNKNOWN);
	}
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
		cmocka_unit_test_teardown(test_window_debian_defaults_10g_lan, teardown),
		cmocka_unit_test_teardown(test_window_small_autotuning_warns, teardown),
		cmocka_unit_test_teardown(test_window_debian_defaults_100g, teardown),
		cmocka_unit_test_teardown(test_window_tuned_ok, teardown),
		cmocka_unit_test_teardown(test_window_unknown, teardown),
		cmocka_unit_test_teardown(test_backlog_low, teardown),
		cmocka_unit_test_teardown(test_softnet_dropped, teardown),
		cmocka_unit_test_teardown(test_softnet_squeezed, teardown),
		cmocka_unit_test_teardown(test_nic_rx_dropped, teardown),
		cmocka_unit_test_teardown(test_qdisc_rate_limit, teardown),
		cmocka_unit_test_teardown(test_cpu_governor, teardown),
		cmocka_unit_test_teardown(test_iperf3_version, teardown),
		cmocka_unit_test_teardown(test_healthy_host_no_warning, teardown),
		cmocka_unit_test_teardown(test_debian_host_no_warning, teardown),
	};

	return cmocka_run_group_tests_name("checks_host", tests, NULL, NULL);
}
