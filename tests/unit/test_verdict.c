/*
 * test_verdict.c - the verdict logic (src/experiment/verdict*.c) on
 * recorded measurement sets: confirmed, refuted and inconclusive for each
 * kind of suspect (ceiling, window, CPU, per-flow, drops), the field case
 * (x1 5 GT/s PCIe link: 3.55 Gbit/s measured against 3.66 and a 9415
 * wire ceiling), path.asymmetric, and the loopback baseline judging
 * nothing.  Findings are made by hand, as checks would leave them.
 */
#include "verdict_fixture.h"

/* Four CPUs at the given busy/softirq shares. */
static void cpus(struct nd_exp_run *run, const double busy[4], const double softirq[4])
{
	run->cpus_count = 4;
	for (int i = 0; i < 4; i++) {
		run->cpus[i].cpu = i;
		run->cpus[i].busy_pct = busy[i];
		run->cpus[i].softirq_pct = softirq[i];
	}
}

static const char *reason(const struct nd_finding *f)
{
	const cJSON *r = cJSON_GetObjectItem(f->experiment, "reason");

	return cJSON_IsString(r) ? r->valuestring : "";
}

static void test_field_case_pcie_confirmed(void **state)
{
	struct nd_exp_set *set = peer_set(3550, 3400, 3540);
	struct nd_finding fs[2];
	struct nd_exp_summary sum;

	(void)state;
	finding(&fs[0], "pcie.link_downgraded", ND_SEV_CRITICAL);
	with_ceiling(&fs[0], "pcie", 3662);
	finding(&fs[1], "offload.disabled", ND_SEV_WARNING);
	nd_verdicts_decide(fs, 2, set, &sum);
	assert_int_equal(fs[0].verdict, ND_VERDICT_CONFIRMED);
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(fs[0].experiment, "lowest")));
	assert_non_null(strstr(reason(&fs[0]), "3550 Mbit/s sits at the 3662 Mbit/s pcie"));
	/* No experiment speaks to offloads: untested, no experiment object. */
	assert_int_equal(fs[1].verdict, ND_VERDICT_UNTESTED);
	assert_null(fs[1].experiment);
	assert_int_equal(sum.binding, 0);
	assert_true(sum.measured_mbps == 3550);
	assert_false(sum.at_wire);
	free_findings(fs, 2);
	free(set);
}

static void test_ceiling_refuted_above_and_inconclusive_below(void **state)
{
	struct nd_exp_set *set = peer_set(5000, 4000, 5000);
	struct nd_finding fs[2];
	struct nd_exp_summary sum;

	(void)state;
	finding(&fs[0], "pcie.slot_too_slow", ND_SEV_WARNING);
	with_ceiling(&fs[0], "pcie", 3662);	/* measured clearly above it */
	finding(&fs[1], "pcie.link_downgraded", ND_SEV_CRITICAL);
	with_ceiling(&fs[1], "pcie", 7877);	/* clearly below, nothing explains */
	nd_verdicts_decide(fs, 2, set, &sum);
	assert_int_equal(fs[0].verdict, ND_VERDICT_REFUTED);
	assert_int_equal(fs[1].verdict, ND_VERDICT_INCONCLUSIVE);
	assert_int_equal(sum.binding, -1);
	free_findings(fs, 2);
	free(set);
}

/* A confirmed shaper explains why the runs stayed clearly below the
 * downgraded link's ceiling: the link is not refuted (and so stays
 * critical), it is untested above the shaper, which is named. */
static void test_ceiling_below_untested_when_explained(void **state)
{
	struct nd_exp_set *set = peer_set(2870, 2850, 2860);
	struct nd_finding fs[3];
	struct nd_exp_summary sum;

	(void)state;
	finding(&fs[0], "pcie.link_downgraded", ND_SEV_CRITICAL);
	with_ceiling(&fs[0], "pcie", 7877);
	finding(&fs[1], "qdisc.rate_limit", ND_SEV_WARNING);
	with_ceiling(&fs[1], "shaping", 3000);	/* egress: forward only */
	finding(&fs[2], "link.speed_below_max", ND_SEV_WARNING);
	with_ceiling(&fs[2], "wire", 3100);	/* at it too, but not the lowest */
	nd_verdicts_decide(fs, 3, set, &sum);
	assert_int_equal(fs[1].verdict, ND_VERDICT_CONFIRMED);
	assert_int_equal(fs[0].verdict, ND_VERDICT_INCONCLUSIVE);
	assert_string_equal(cJSON_GetObjectItem(fs[0].experiment, "explained_by")->valuestring,
			    "qdisc.rate_limit");
	assert_non_null(strstr(cJSON_GetObjectItem(fs[0].experiment, "reason")->valuestring,
			       "binds first"));
	assert_int_equal(fs[0].severity, ND_SEV_CRITICAL);
	/* At its ceiling too, but the shaper's is lower: it binds first. */
	assert_int_equal(fs[2].verdict, ND_VERDICT_INCONCLUSIVE);
	assert_int_equal(sum.binding, 1);
	free_findings(fs, 3);
	free(set);
}

static void test_ceiling_at_but_not_lowest(void **state)
{
	struct nd_exp_set *set = peer_set(2950, 2900, 2940);
	struct nd_finding fs[2];
	struct nd_exp_summary sum;

	(void)state;
	finding(&fs[0], "pcie.slot_too_slow", ND_SEV_WARNING);
	with_ceiling(&fs[0], "pcie", 3200);
	finding(&fs[1], "link.speed_below_max", ND_SEV_WARNING);
	with_ceiling(&fs[1], "wire", 3000);
	nd_verdicts_decide(fs, 2, set, &sum);
	assert_int_equal(fs[1].verdict, ND_VERDICT_CONFIRMED);
	assert_int_equal(fs[0].verdict, ND_VERDICT_INCONCLUSIVE);
	assert_non_null(strstr(reason(&fs[0]), "lower one binds first"));
	free_findings(fs, 2);
	free(set);
}

static void test_cpu_confirmed_refuted_inconclusive(void **state)
{
	static const double pegged[4] = { 98, 6, 4, 5 }, pegged_soft[4] = { 85, 1, 1, 1 };
	static const double spread[4] = { 60, 55, 58, 61 }, spread_soft[4] = { 35, 30, 33, 36 };
	static const double busy_all[4] = { 95, 80, 75, 70 }, busy_soft[4] = { 30, 5, 5, 5 };
	struct nd_exp_set *set = peer_set(3000, 2900, 3000);
	struct nd_finding f;
	struct nd_exp_summary sum;

	(void)state;
	cpus(&set->runs[ND_RUN_REVERSE_MANY], pegged, pegged_soft);
	finding(&f, "rps.off_single_queue", ND_SEV_WARNING);
	nd_verdicts_decide(&f, 1, set, &sum);
	assert_int_equal(f.verdict, ND_VERDICT_CONFIRMED);
	assert_int_equal(cJSON_GetObjectItem(f.experiment, "busiest_cpu")->valueint, 0);
	assert_int_equal(sum.binding, 0);
	nd_finding_free(&f);

	cpus(&set->runs[ND_RUN_REVERSE_MANY], spread, spread_soft);
	finding(&f, "queues.single", ND_SEV_WARNING);
	nd_verdicts_decide(&f, 1, set, &sum);
	assert_int_equal(f.verdict, ND_VERDICT_REFUTED);
	nd_finding_free(&f);

	cpus(&set->runs[ND_RUN_REVERSE_MANY], busy_all, busy_soft);
	finding(&f, "irq.concentrated", ND_SEV_WARNING);
	nd_verdicts_decide(&f, 1, set, &sum);
	assert_int_equal(f.verdict, ND_VERDICT_INCONCLUSIVE);
	nd_finding_free(&f);

	/* A pegged CPU but the wire reached: the layout is not what limits. */
	set->runs[ND_RUN_REVERSE_MANY].mbps = 9300;
	cpus(&set->runs[ND_RUN_REVERSE_MANY], pegged, pegged_soft);
	finding(&f, "queues.below_cpus", ND_SEV_WARNING);
	nd_verdicts_decide(&f, 1, set, &sum);
	assert_int_equal(f.verdict, ND_VERDICT_REFUTED);
	nd_finding_free(&f);
	free(set);
}

static void test_per_flow(void **state)
{
	static const double one_mbps[3] = { 2000, 7000, 5600 };
	static const enum nd_verdict want[3] = { ND_VERDICT_CONFIRMED, ND_VERDICT_REFUTED,
						 ND_VERDICT_INCONCLUSIVE };
	static const double busy[4] = { 97, 20, 15, 10 }, soft[4] = { 10, 5, 5, 5 };

	(void)state;
	for (int i = 0; i < 3; i++) {
		struct nd_exp_set *set = peer_set(8000, one_mbps[i], 8000);
		struct nd_exp_summary sum;
		struct nd_finding f;

		/* one core saturated while the one stream ran */
		cpus(&set->runs[ND_RUN_FORWARD_ONE], busy, soft);

		finding(&f, "tool.iperf3_single_threaded", ND_SEV_WARNING);
		nd_verdicts_decide(&f, 1, set, &sum);
		assert_int_equal(f.verdict, want[i]);
		/* A per-flow limit does not hold many streams back: no bottleneck. */
		assert_int_equal(sum.binding, -1);
		nd_finding_free(&f);
		free(set);
	}
}

static void test_window_with_measured_rtt(void **state)
{
	/* 65536-byte window at a 500 us RTT: 1048.6 Mbit/s per connection. */
	static const double one_mbps[3] = { 1000, 3000, 700 };
	static const enum nd_verdict want[3] = { ND_VERDICT_CONFIRMED, ND_VERDICT_REFUTED,
						 ND_VERDICT_INCONCLUSIVE };

	(void)state;
	for (int i = 0; i < 3; i++) {
		struct nd_exp_set *set = peer_set(4000, one_mbps[i], 4000);
		struct nd_exp_summary sum;
		struct nd_finding f;

		for (int k = 0; k < ND_RUN_KINDS; k++)
			set->runs[k].min_rtt_usec = k == ND_RUN_REVERSE_MANY ? 0 : 500;
		finding(&f, "sysctl.wmem_max_low", ND_SEV_WARNING);
		with_ceiling(&f, "window", 1048.6 / 2);	/* the check's assumed RTT */
		cJSON_AddNumberToObject(f.evidence, "autotune_window_bytes", 65536);
		assert_true(nd_verdict_window_ceiling_mbps(&f, set) > 1048 &&
			    nd_verdict_window_ceiling_mbps(&f, set) < 1049);
		nd_verdicts_decide(&f, 1, set, &sum);
		assert_int_equal(f.verdict, want[i]);
		assert_string_equal(cJSON_GetObjectItem(f.experiment, "run")->valuestring,
				    "forward_one");
		nd_finding_free(&f);
		free(set);
	}
}

static void test_window_without_rtt_inconclusive(void **state)
{
	struct nd_exp_set *set = peer_set(4000, 1000, 4000);
	struct nd_exp_summary sum;
	struct nd_finding f;

	(void)state;
	for (int k = 0; k < ND_RUN_KINDS; k++)
		set->runs[k].min_rtt_usec = 0;
	finding(&f, "sysctl.rmem_max_low", ND_SEV_WARNING);
	cJSON_AddNumberToObject(f.evidence, "autotune_window_bytes", 65536);
	nd_verdicts_decide(&f, 1, set, &sum);
	assert_int_equal(f.verdict, ND_VERDICT_INCONCLUSIVE);
	nd_finding_free(&f);
	free(set);
}

static void test_drop_counters(void **state)
{
	static const char *const ids[] = { "nic.rx_dropped", "ring.small", "softnet.dropped",
					   "sysctl.backlog_low" };

	(void)state;
	for (size_t i = 0; i < ND_ARRAY_SIZE(ids); i++) {
		struct nd_exp_set *set = peer_set(6000, 5000, 6000);
		bool nic = i < 2;
		struct nd_exp_summary sum;
		struct nd_finding f;

		/* Nothing dropped, nothing retransmitted: refuted. */
		finding(&f, ids[i], ND_SEV_WARNING);
		nd_verdicts_decide(&f, 1, set, &sum);
		assert_int_equal(f.verdict, ND_VERDICT_REFUTED);
		nd_finding_free(&f);
		/* Retransmissions but no drop counted here: inconclusive. */
		set->runs[ND_RUN_FORWARD_MANY].retransmits = 40;
		finding(&f, ids[i], ND_SEV_WARNING);
		nd_verdicts_decide(&f, 1, set, &sum);
		assert_int_equal(f.verdict, ND_VERDICT_INCONCLUSIVE);
		nd_finding_free(&f);
		/* Drops during the reverse run: confirmed. */
		if (nic)
			set->runs[ND_RUN_REVERSE_MANY].nic_rx_dropped = 1234;
		else
			set->runs[ND_RUN_REVERSE_MANY].softnet_dropped = 77;
		finding(&f, ids[i], ND_SEV_WARNING);
		nd_verdicts_decide(&f, 1, set, &sum);
		assert_int_equal(f.verdict, ND_VERDICT_CONFIRMED);
		assert_int_equal(cJSON_GetObjectItem(f.experiment, "during_runs")->valueint,
				 nic ? 1234 : 77);
		nd_finding_free(&f);
		free(set);
	}
}

static void test_squeeze_and_unsampled(void **state)
{
	struct nd_exp_set *set = peer_set(6000, 5000, 6000);
	struct nd_exp_summary sum;
	struct nd_finding f;

	(void)state;
	finding(&f, "softnet.squeezed", ND_SEV_WARNING);
	nd_verdicts_decide(&f, 1, set, &sum);
	assert_int_equal(f.verdict, ND_VERDICT_REFUTED);
	nd_finding_free(&f);
	set->runs[ND_RUN_FORWARD_MANY].softnet_squeezed = 12;
	finding(&f, "softnet.squeezed", ND_SEV_WARNING);
	nd_verdicts_decide(&f, 1, set, &sum);
	assert_int_equal(f.verdict, ND_VERDICT_CONFIRMED);
	nd_finding_free(&f);
	for (int k = 0; k < ND_RUN_KINDS; k++)
		set->runs[k].softnet_valid = false;
	finding(&f, "softnet.squeezed", ND_SEV_WARNING);
	nd_verdicts_decide(&f, 1, set, &sum);
	assert_int_equal(f.verdict, ND_VERDICT_INCONCLUSIVE);
	nd_finding_free(&f);
	free(set);
}

static void test_ok_and_skipped_stay_untested(void **state)
{
	struct nd_exp_set *set = peer_set(3000, 3000, 3000);
	struct nd_finding fs[2];
	struct nd_exp_summary sum;

	(void)state;
	finding(&fs[0], "qdisc.rate_limit", ND_SEV_OK);
	with_ceiling(&fs[0], "shaping", 20000);
	finding(&fs[1], "pcie.link_downgraded", ND_SEV_CRITICAL);
	with_ceiling(&fs[1], "pcie", 3000);
	fs[1].skipped = true;
	nd_verdicts_decide(fs, 2, set, &sum);
	assert_int_equal(fs[0].verdict, ND_VERDICT_UNTESTED);
	assert_int_equal(fs[1].verdict, ND_VERDICT_UNTESTED);
	free_findings(fs, 2);
	free(set);
}

static void test_asymmetric(void **state)
{
	struct nd_exp_set *set = peer_set(9000, 8000, 5000);
	struct nd_finding f;

	(void)state;
	finding(&f, "path.asymmetric", ND_SEV_OK);
	assert_true(nd_verdict_asymmetric(set, &f, 1));
	assert_string_equal(f.id, "path.asymmetric");
	assert_int_equal(f.verdict, ND_VERDICT_CONFIRMED);
	assert_int_equal(f.severity, ND_SEV_WARNING);
	assert_string_equal(cJSON_GetObjectItem(f.evidence, "slower")->valuestring, "reverse");
	assert_non_null(strstr(f.title, "reverse (peer to here) is slower"));
	set->runs[ND_RUN_REVERSE_MANY].mbps = 7500;	/* 17% apart: within tolerance */
	assert_false(nd_verdict_asymmetric(set, &f, 1));
	assert_int_equal(f.severity, ND_SEV_OK);
	assert_int_equal(f.verdict, ND_VERDICT_UNTESTED);
	assert_null(f.experiment);
	set->runs[ND_RUN_REVERSE_MANY].mbps = 9500;
	set->runs[ND_RUN_FORWARD_MANY].mbps = 6000;
	assert_true(nd_verdict_asymmetric(set, &f, 1));
	assert_string_equal(cJSON_GetObjectItem(f.evidence, "slower")->valuestring, "forward");
	nd_finding_free(&f);
	free(set);
}

static void test_loopback_judges_nothing(void **state)
{
	struct nd_exp_set *set = calloc(1, sizeof(*set));
	struct nd_finding f;
	struct nd_exp_summary sum;
	cJSON *tp;

	(void)state;
	set->mode = ND_EXP_LOOPBACK;
	set->wire_mbps = WIRE_10G_MBPS;
	run(set, ND_RUN_FORWARD_ONE, 1, 25000);
	finding(&f, "pcie.link_downgraded", ND_SEV_CRITICAL);
	with_ceiling(&f, "pcie", 3662);
	nd_verdicts_decide(&f, 1, set, &sum);
	assert_int_equal(f.verdict, ND_VERDICT_UNTESTED);
	assert_false(nd_verdict_asymmetric(set, &f, 1));
	tp = nd_exp_throughput_json(set, &sum, &f, 1, NULL, 0);
	assert_string_equal(cJSON_GetObjectItem(tp, "mode")->valuestring, "loopback");
	assert_true(cJSON_GetObjectItem(tp, "host_capacity_mbps")->valuedouble == 25000);
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(tp, "measured_mbps")));
	assert_non_null(strstr(cJSON_GetObjectItem(tp, "label")->valuestring, "not wire speed"));
	cJSON_Delete(tp);
	nd_finding_free(&f);
	free(set);
}

static void test_throughput_json(void **state)
{
	struct nd_exp_set *set = peer_set(3550, 3400, 3540);
	struct nd_exp_trial trial = { .finding_id = "rps.off_single_queue", .kind = "rps",
				      .steps = 1, .measured = true, .before_mbps = 3550,
				      .after_mbps = 3700, .reverted = true };
	struct nd_exp_summary sum;
	struct nd_finding f;
	cJSON *tp, *runs;

	(void)state;
	finding(&f, "pcie.link_downgraded", ND_SEV_CRITICAL);
	with_ceiling(&f, "pcie", 3662);
	nd_verdicts_decide(&f, 1, set, &sum);
	tp = nd_exp_throughput_json(set, &sum, &f, 1, &trial, 1);
	assert_true(cJSON_GetObjectItem(tp, "measured_mbps")->valuedouble == 3550);
	assert_true(cJSON_GetObjectItem(tp, "share_of_wire_pct")->valuedouble == 37.7);
	assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(tp, "bottleneck"),
						"id")->valuestring, "pcie.link_downgraded");
	runs = cJSON_GetObjectItem(tp, "runs");
	assert_int_equal(cJSON_GetArraySize(runs), 3);
	assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(runs, 2), "direction")
			    ->valuestring, "reverse");
	assert_true(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(tp, "trials"), 0),
					"change_pct")->valuedouble == 4.2);
	cJSON_Delete(tp);
	nd_finding_free(&f);
	free(set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_field_case_pcie_confirmed),
		cmocka_unit_test(test_ceiling_refuted_above_and_inconclusive_below),
		cmocka_unit_test(test_ceiling_below_untested_when_explained),
		cmocka_unit_test(test_ceiling_at_but_not_lowest),
		cmocka_unit_test(test_cpu_confirmed_refuted_inconclusive),
		cmocka_unit_test(test_per_flow),
		cmocka_unit_test(test_window_with_measured_rtt),
		cmocka_unit_test(test_window_without_rtt_inconclusive),
		cmocka_unit_test(test_drop_counters),
		cmocka_unit_test(test_squeeze_and_unsampled),
		cmocka_unit_test(test_ok_and_skipped_stay_untested),
		cmocka_unit_test(test_asymmetric),
		cmocka_unit_test(test_loopback_judges_nothing),
		cmocka_unit_test(test_throughput_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
