/*
 * test_checks_host.c - the socket-buffer sysctls, the backlog and softnet
 * drops and squeezes on hand-made facts: flagged, ok and unknown for each,
 * the numbers of real softnet_stat captures and Debian's defaults on a 10G
 * LAN.  The rest of the host-side checks: test_checks_host_more.c.
 */
#include "checks_host_fixture.h"
#include "window_fixture.h"

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
	facts->link.carrier = false;
	strcpy(facts->link.operstate, "down");
	run("sysctl.rmem_max_low", facts);
	assert_int_equal(finding.severity, ND_SEV_UNKNOWN);
	assert_string_equal(evidence_string("missing"), "link speed");
	assert_non_null(strstr(evidence_string("reason"), "the link is down"));
	/* a link up whose driver gives no speed (virtio_net): the speed is the
	 * unknown, not whether the link is down */
	facts->link.carrier = true;
	strcpy(facts->link.operstate, "up");
	run("sysctl.rmem_max_low", facts);
	assert_int_equal(finding.severity, ND_SEV_UNKNOWN);
	assert_null(strstr(evidence_string("reason"), "link down"));
	assert_non_null(strstr(evidence_string("reason"), "reports no link speed"));
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
	/* Drops only in the past (none in the window, or no window): info. */
	window_set(facts, 1, 0);
	run("sysctl.backlog_low", facts);
	assert_int_equal(finding.severity, ND_SEV_INFO);
	assert_int_equal(finding.fix.n_commands, 0);
	/* one drop history, one finding naming it: softnet.dropped counts them,
	 * this one is the setting and refers there */
	assert_string_equal(finding.title, "netdev_max_backlog at the default 1000; its drops: "
			    "see softnet.dropped");
	run("softnet.dropped", facts);
	assert_non_null(strstr(finding.title, "18430 drops since boot"));
	window_clear(facts);
	run("sysctl.backlog_low", facts);
	assert_int_equal(finding.severity, ND_SEV_INFO);
	assert_null(strstr(finding.title, "18430"));
	/* The same drops growing in the window: a warning with the rate. */
	window_set(facts, 2, 0.5);
	run("sysctl.backlog_low", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_non_null(strstr(finding.title, "drops/s"));
	assert_true(evidence_number("netdev_max_backlog") == 1000);
	assert_true(evidence_number("dropped_total") == 0x2382 + 0x247c);
	assert_true(evidence_number("cpus_with_dropped") == 2);
	assert_string_equal(evidence_string("cpus_with_dropped_list"), "0-1");
	assert_true(evidence_number("window.cpus_with_dropped") == 2);
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
	/* 9090 drops in 124.3M packets on CPU0, 9340 in 124.2M on CPU1: ~75 ppm,
	 * all of them in the last second. */
	set_router_softnet(facts);
	window_set(facts, 1, 1);
	run("softnet.dropped", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_non_null(strstr(finding.title, "18430.0 drops/s"));
	assert_true(evidence_number("window.dropped") == 18430);
	assert_true(evidence_number("window.dropped_per_sec") == 18430);
	assert_true(evidence_number("dropped_total") == 18430);
	per_cpu = evidence_item("per_cpu");
	assert_int_equal(cJSON_GetArraySize(per_cpu), 2);
	cpu1 = cJSON_GetArrayItem(per_cpu, 1);
	assert_true(cJSON_GetObjectItem(cpu1, "cpu")->valuedouble == 1);
	assert_true(cJSON_GetObjectItem(cpu1, "dropped")->valuedouble == 0x247c);
	assert_true(fabs(cJSON_GetObjectItem(cpu1, "share_pct")->valuedouble - 0.0075) < 1e-9);
	assert_non_null(strstr(finding.title, "CPU1"));
	assert_fix(0, "sysctl -w net.core.netdev_max_backlog=30000");

	/* The same host with those drops only in the past: info, with the
	 * uptime and the empty window; a snapshot (no window) the same. */
	facts->uptime.st.known = true;
	facts->uptime.seconds = 47 * 60;
	window_set(facts, 1, 0);
	run("softnet.dropped", facts);
	assert_int_equal(finding.severity, ND_SEV_INFO);
	assert_string_equal(finding.title, "backlog drops in the past: 18430 drops since boot, "
			    "47 min ago; none in the last 1 s");
	assert_int_equal(finding.fix.n_commands, 0);
	assert_true(evidence_number("window.dropped") == 0);
	window_clear(facts);
	facts->sysroot = true;
	run("softnet.dropped", facts);
	assert_int_equal(finding.severity, ND_SEV_INFO);
	assert_non_null(strstr(finding.title, "47 min before the snapshot"));
	assert_true(cJSON_IsNull(evidence_item("window")));
	assert_true(evidence_number("uptime_sec") == 47 * 60);
	facts->sysroot = false;

	/* A few drops in a busy host: info, no fix. */
	facts->softnet.count = 0;
	add_softnet(facts, 0, 50000000, 0, 0);
	add_softnet(facts, 3, 50000000, 7, 0);
	window_set(facts, 1, 1);
	run("softnet.dropped", facts);
	assert_int_equal(finding.severity, ND_SEV_INFO);
	assert_true(evidence_number("cpus_with_dropped") == 1);
	assert_string_equal(evidence_string("cpus_with_dropped_list"), "3");
	assert_int_equal(finding.fix.n_commands, 0);

	/* Many drops but a tiny share (1 per million) over 1000 s: 4/s, info;
	 * the same in one second is 4000/s, netdata's alarm and ours. */
	facts->softnet.cpu[1].processed = 4000000000ULL;
	facts->softnet.cpu[1].dropped = 4000;
	window_set(facts, 1000, 1);
	run("softnet.dropped", facts);
	assert_int_equal(finding.severity, ND_SEV_INFO);
	window_set(facts, 1, 1);
	run("softnet.dropped", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);

	facts->softnet.cpu[1].dropped = 0;
	window_set(facts, 1, 1);
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
	/* In the past only: info, no fix. */
	run("softnet.squeezed", facts);
	assert_int_equal(finding.severity, ND_SEV_INFO);
	assert_non_null(strstr(finding.title, "in the past"));
	assert_int_equal(finding.fix.n_commands, 0);
	window_set(facts, 1, 1);
	run("softnet.squeezed", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_non_null(strstr(finding.title, "CPU5"));
	assert_non_null(strstr(finding.title, "6100"));
	assert_non_null(strstr(finding.title, "squeezes/s"));
	assert_true(evidence_number("time_squeeze_total") == 1 + 1 + 378 + 3 + 1 + 6100);
	assert_true(evidence_number("cpus_with_time_squeeze") == 6);
	assert_string_equal(evidence_string("cpus_with_time_squeeze_list"), "0-5");
	assert_int_equal(cJSON_GetArraySize(evidence_item("per_cpu")), 6);
	assert_fix(0, "sysctl -w net.core.netdev_budget=600");
	assert_fix(1, "sysctl -w net.core.netdev_budget_usecs=$(( $(sysctl -n "
		   "net.core.netdev_budget_usecs) * 2 ))");
	/* Two of eight CPUs squeezed often: spreading is suggested too. */
	assert_int_equal(finding.fix.n_commands, 3);

	/* CPU5 healthy: CPU2's 0.13% is info, no fix. */
	facts->softnet.cpu[5].time_squeeze = 0;
	window_set(facts, 1, 1);
	run("softnet.squeezed", facts);
	assert_int_equal(finding.severity, ND_SEV_INFO);
	assert_non_null(strstr(finding.title, "CPU2"));
	assert_int_equal(finding.fix.n_commands, 0);

	/* hjr3's 6.4.7 capture: 61 squeezes in 7.9M packets: normal. */
	facts->softnet.count = 0;
	add_softnet(facts, 0, 0x0078b644, 0, 0x3d);
	add_softnet(facts, 1, 0x006d1ebe, 0, 0x4f);
	window_set(facts, 1, 1);
	run("softnet.squeezed", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	window_clear(facts);
	run("softnet.squeezed", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);

	/* A few squeezes on an idle CPU since boot: below the count, whatever
	 * the share; in a window, fewer than 10 on a CPU the same. */
	facts->softnet.count = 0;
	add_softnet(facts, 0, 200, 0, 50);
	window_set(facts, 1, 0.1);
	run("softnet.squeezed", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	window_clear(facts);
	run("softnet.squeezed", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);

	nd_status_set_unknown(&facts->softnet.st, "no such file");
	run("softnet.squeezed", facts);
	assert_int_equal(finding.severity, ND_SEV_UNKNOWN);
	free(facts);
}

/* Sum of key over an array of objects. */
static double sum_of(const cJSON *arr, const char *key)
{
	const cJSON *e;
	double sum = 0;

	cJSON_ArrayForEach(e, arr)
		sum += cJSON_GetObjectItem(e, key)->valuedouble;
	return sum;
}

/* Every softnet check's evidence read back against its inputs: counts
 * count, lists list, totals add up, rates are growth over the window. */
static void test_softnet_evidence_agrees(void **state)
{
	static const struct { const char *id, *name; } checks[] = {
		{ "softnet.dropped", "dropped" }, { "softnet.squeezed", "time_squeeze" },
		{ "sysctl.backlog_low", "dropped" },
	};
	struct nd_facts *facts = facts_new();
	char key[64];

	(void)state;
	facts->softnet.count = 0;
	add_softnet(facts, 0, 1000000, 1034, 0);	/* the CPU 0 */
	add_softnet(facts, 2, 2000000, 0, 600);
	add_softnet(facts, 5, 3000000, 40, 30);
	window_set(facts, 2, 0.5);
	for (size_t i = 0; i < sizeof(checks) / sizeof(checks[0]); i++) {
		const char *name = checks[i].name;
		bool drops = !strcmp(name, "dropped");
		const cJSON *per_cpu, *win;

		run(checks[i].id, facts);
		per_cpu = evidence_item("per_cpu");
		win = evidence_item("window");
		snprintf(key, sizeof(key), "cpus_with_%s", name);
		assert_true(evidence_number(key) == 2);
		assert_int_equal(cJSON_GetArraySize(per_cpu), 2);
		snprintf(key, sizeof(key), "cpus_with_%s_list", name);
		assert_string_equal(evidence_string(key), drops ? "0,5" : "2,5");
		snprintf(key, sizeof(key), "%s_total", name);
		assert_true(evidence_number(key) == (drops ? 1074 : 630));
		assert_true(sum_of(per_cpu, name) == evidence_number(key));
		assert_true(evidence_number("processed_total") == 6000000);
		/* the window: half of each counter grew in 2 s */
		assert_true(cJSON_GetObjectItem(win, "seconds")->valuedouble == 2);
		assert_true(cJSON_GetObjectItem(win, name)->valuedouble == (drops ? 537 : 315));
		assert_true(sum_of(cJSON_GetObjectItem(win, "per_cpu"), name) ==
			    cJSON_GetObjectItem(win, name)->valuedouble);
		assert_true(cJSON_GetObjectItem(win, "processed")->valuedouble == 3000000);
		snprintf(key, sizeof(key), "cpus_with_%s", name);
		assert_true(cJSON_GetObjectItem(win, key)->valuedouble == 2);
		snprintf(key, sizeof(key), "%s_per_sec", name);
		assert_true(cJSON_GetObjectItem(win, key)->valuedouble ==
			    round(cJSON_GetObjectItem(win, name)->valuedouble / 2 * 10) / 10);
	}
	free(facts);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_softnet_evidence_agrees, teardown),
		cmocka_unit_test_teardown(test_window_debian_defaults_10g_lan, teardown),
		cmocka_unit_test_teardown(test_window_small_autotuning_warns, teardown),
		cmocka_unit_test_teardown(test_window_debian_defaults_100g, teardown),
		cmocka_unit_test_teardown(test_window_tuned_ok, teardown),
		cmocka_unit_test_teardown(test_window_unknown, teardown),
		cmocka_unit_test_teardown(test_backlog_low, teardown),
		cmocka_unit_test_teardown(test_softnet_dropped, teardown),
		cmocka_unit_test_teardown(test_softnet_squeezed, teardown),
	};

	return cmocka_run_group_tests_name("checks_host", tests, NULL, NULL);
}
