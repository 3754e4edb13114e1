/*
 * test_verdict_severity.c - verdicts drive severity
 * (src/experiment/verdict_severity.c, verdict*.c): a refuted suspect is
 * info and leaves the exit code and the worst severity (JSON, prometheus)
 * alone, with the check's own severity in severity_before_verdict;
 * tool.iperf3_single_threaded is info until a run shows a per-core limit;
 * path.asymmetric beside a confirmed egress shaper is info, explained by
 * qdisc.rate_limit; a window ceiling is cited only from a check that
 * judged it a problem, and only when the runs agree on it.  Findings are
 * made by hand, as checks would leave them; the numbers are those of a
 * 10GbE host.
 */
#include "verdict_fixture.h"
#include "nicdoctor/report.h"

/* Two CPUs in a run: the busiest at busy_pct, the other at 10%. */
static void cpu_busy(struct nd_exp_run *r, double busy_pct)
{
	r->cpus_count = 2;
	r->cpus[0].cpu = 0;
	r->cpus[0].busy_pct = busy_pct;
	r->cpus[0].softirq_pct = 5;
	r->cpus[1].cpu = 1;
	r->cpus[1].busy_pct = 10;
}

/* A report owning fs (n of them, moved in) on facts with no link speed. */
static struct nd_report *report_of(struct nd_finding *fs, unsigned n, struct nd_facts **ret_facts)
{
	struct nd_report *report = calloc(1, sizeof(*report));
	struct nd_finding *owned = calloc(n, sizeof(*owned));

	*ret_facts = calloc(1, sizeof(**ret_facts));
	assert_non_null(report);
	assert_non_null(owned);
	assert_non_null(*ret_facts);
	strcpy((*ret_facts)->ifname, "eth0");
	memcpy(owned, fs, n * sizeof(*owned));
	nd_report_init(report, *ret_facts, owned, n);
	return report;
}

static void report_done(struct nd_report *report, struct nd_facts *facts)
{
	nd_report_free(report);
	free(report);
	free(facts);
}

static const cJSON *json_finding(const cJSON *doc, const char *id)
{
	const cJSON *f;

	cJSON_ArrayForEach(f, cJSON_GetObjectItem(doc, "findings"))
		if (!strcmp(cJSON_GetObjectItem(f, "id")->valuestring, id))
			return f;
	fail_msg("no finding %s", id);
	return NULL;
}

static char *render(const struct nd_report *report, enum nd_format format)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	assert_non_null(out);
	assert_int_equal(nd_report_render(report, format, out), 0);
	fclose(out);
	return text;
}

/* Measured 9300 Mbit/s, clearly above a 3662 Mbit/s PCIe ceiling: the
 * suspect is refuted, info, and no longer sets the exit code. */
static void test_refuted_is_info_and_leaves_exit_code(void **state)
{
	struct nd_exp_set *set = peer_set(9300, 8000, 9200);
	struct nd_exp_summary sum;
	struct nd_finding fs[2];
	struct nd_facts *facts;
	struct nd_report *report;
	const cJSON *f;
	cJSON *doc;
	char *prom;

	(void)state;
	finding(&fs[0], "pcie.slot_too_slow", ND_SEV_WARNING);
	with_ceiling(&fs[0], "pcie", 3662);
	finding(&fs[1], "queues.single", ND_SEV_OK);
	nd_verdicts_decide(fs, 2, set, &sum);
	assert_int_equal(fs[0].verdict, ND_VERDICT_REFUTED);
	assert_int_equal(fs[0].severity, ND_SEV_INFO);
	assert_true(fs[0].severity_by_verdict);
	assert_int_equal(fs[0].severity_before_verdict, ND_SEV_WARNING);
	assert_int_equal(nd_finding_check_severity(&fs[0]), ND_SEV_WARNING);
	assert_false(fs[1].severity_by_verdict);

	report = report_of(fs, 2, &facts);
	assert_int_equal(nd_report_exit_code(report), ND_EXIT_OK);
	doc = nd_report_to_json(report);
	f = json_finding(doc, "pcie.slot_too_slow");
	assert_string_equal(cJSON_GetObjectItem(f, "severity")->valuestring, "info");
	assert_string_equal(cJSON_GetObjectItem(f, "severity_before_verdict")->valuestring,
			    "warning");
	assert_null(cJSON_GetObjectItem(json_finding(doc, "queues.single"),
					"severity_before_verdict"));
	assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "summary"),
						"worst")->valuestring, "info");
	cJSON_Delete(doc);
	prom = render(report, ND_FORMAT_PROMETHEUS);
	assert_non_null(strstr(prom, "nicdoctor_worst_severity{interface=\"eth0\"} 1\n"));
	free(prom);
	report_done(report, facts);
	free(set);
}

/* A critical ceiling clearly below the measurement while a shaper is
 * confirmed: the shaper binds first, the link is untested above it and
 * stays critical.  A refuted verdict makes it info; applying again after
 * the verdict changes (the ports together confirm it) starts from the
 * check's; judged again, it is the check's again. */
static void test_explained_critical_stays_and_reapplied(void **state)
{
	struct nd_exp_set *set = peer_set(190, 185, 950);
	struct nd_exp_summary sum;
	struct nd_finding fs[2];

	(void)state;
	finding(&fs[0], "qdisc.rate_limit", ND_SEV_WARNING);
	with_ceiling(&fs[0], "shaping", 200);
	finding(&fs[1], "pcie.link_downgraded", ND_SEV_CRITICAL);
	with_ceiling(&fs[1], "pcie", 3662);
	nd_verdicts_decide(fs, 2, set, &sum);
	assert_int_equal(fs[0].verdict, ND_VERDICT_CONFIRMED);
	assert_int_equal(fs[0].severity, ND_SEV_WARNING);
	assert_false(fs[0].severity_by_verdict);
	assert_int_equal(fs[1].verdict, ND_VERDICT_INCONCLUSIVE);
	assert_int_equal(fs[1].severity, ND_SEV_CRITICAL);
	assert_false(fs[1].severity_by_verdict);
	fs[1].verdict = ND_VERDICT_REFUTED;
	nd_verdict_apply_severity(&fs[1]);
	assert_int_equal(fs[1].severity, ND_SEV_INFO);
	assert_int_equal(fs[1].severity_before_verdict, ND_SEV_CRITICAL);
	/* again, same verdict: unchanged */
	nd_verdict_apply_severity(&fs[1]);
	assert_int_equal(fs[1].severity, ND_SEV_INFO);
	assert_int_equal(fs[1].severity_before_verdict, ND_SEV_CRITICAL);
	fs[1].verdict = ND_VERDICT_CONFIRMED;
	nd_verdict_apply_severity(&fs[1]);
	assert_int_equal(fs[1].severity, ND_SEV_CRITICAL);
	assert_false(fs[1].severity_by_verdict);
	/* the check said it: it is judged again as a suspect */
	fs[1].verdict = ND_VERDICT_UNTESTED;
	fs[1].severity = ND_SEV_INFO;
	fs[1].severity_by_verdict = true;
	fs[1].severity_before_verdict = ND_SEV_CRITICAL;
	nd_verdicts_decide(fs, 2, set, &sum);
	assert_int_equal(fs[1].verdict, ND_VERDICT_INCONCLUSIVE);
	assert_int_equal(fs[1].severity, ND_SEV_CRITICAL);
	nd_finding_free(&fs[0]);
	nd_finding_free(&fs[1]);
	free(set);
}

/* tool.iperf3_single_threaded as the check leaves it: info, with a fix. */
static void tool_finding(struct nd_finding *f)
{
	finding(f, "tool.iperf3_single_threaded", ND_SEV_INFO);
	nd_finding_fix(f, "tool", "nicdoctor bench -c HOST -P 4");
}

static void test_tool_info_until_a_per_core_limit(void **state)
{
	struct nd_exp_set *set = peer_set(8000, 2000, 8000);
	struct nd_exp_set none = { .mode = ND_EXP_NONE };
	struct nd_exp_summary sum;
	struct nd_finding f;

	(void)state;
	/* --no-traffic: info, untested, nothing changed */
	tool_finding(&f);
	nd_verdicts_decide(&f, 1, &none, &sum);
	assert_int_equal(f.verdict, ND_VERDICT_UNTESTED);
	assert_int_equal(f.severity, ND_SEV_INFO);
	assert_false(f.severity_by_verdict);
	nd_finding_free(&f);

	/* one stream at 25% of many, but no CPU saturated: not one core */
	cpu_busy(&set->runs[ND_RUN_FORWARD_ONE], 60);
	tool_finding(&f);
	nd_verdicts_decide(&f, 1, set, &sum);
	assert_int_equal(f.verdict, ND_VERDICT_INCONCLUSIVE);
	assert_int_equal(f.severity, ND_SEV_INFO);
	assert_non_null(strstr(cJSON_GetObjectItem(f.experiment, "reason")->valuestring,
			       "no CPU was saturated"));
	nd_finding_free(&f);

	/* no per-CPU load measured: inconclusive, info */
	set->runs[ND_RUN_FORWARD_ONE].cpus_count = 0;
	tool_finding(&f);
	nd_verdicts_decide(&f, 1, set, &sum);
	assert_int_equal(f.verdict, ND_VERDICT_INCONCLUSIVE);
	assert_int_equal(f.severity, ND_SEV_INFO);
	nd_finding_free(&f);

	/* at 25% of many with CPU 0 at 96%: a per-core limit, a warning */
	cpu_busy(&set->runs[ND_RUN_FORWARD_ONE], 96);
	tool_finding(&f);
	nd_verdicts_decide(&f, 1, set, &sum);
	assert_int_equal(f.verdict, ND_VERDICT_CONFIRMED);
	assert_int_equal(f.severity, ND_SEV_WARNING);
	assert_true(f.severity_by_verdict);
	assert_int_equal(f.severity_before_verdict, ND_SEV_INFO);
	/* a per-flow limit holds no many-stream run back: no bottleneck */
	assert_int_equal(sum.binding, -1);
	nd_finding_free(&f);

	/* one stream at 90% of many, CPU busy or not: refuted, still info */
	set->runs[ND_RUN_FORWARD_ONE].mbps = 7200;
	tool_finding(&f);
	nd_verdicts_decide(&f, 1, set, &sum);
	assert_int_equal(f.verdict, ND_VERDICT_REFUTED);
	assert_int_equal(f.severity, ND_SEV_INFO);
	assert_false(f.severity_by_verdict);
	nd_finding_free(&f);

	/* ok (iperf3 3.16 or none) is no suspect */
	finding(&f, "tool.iperf3_single_threaded", ND_SEV_OK);
	nd_verdicts_decide(&f, 1, set, &sum);
	assert_int_equal(f.verdict, ND_VERDICT_UNTESTED);
	nd_finding_free(&f);
	free(set);
}

/* Forward at the 200 Mbit/s egress shaper, reverse at 950: the shaper
 * explains the asymmetry.  Reverse slower is not the egress shaper's. */
static void test_asymmetry_explained_by_egress_shaper(void **state)
{
	struct nd_exp_set *set = peer_set(190, 185, 950);
	struct nd_exp_summary sum;
	struct nd_finding fs[2];
	struct nd_facts *facts;
	struct nd_report *report;
	const cJSON *f;
	cJSON *doc;

	(void)state;
	finding(&fs[0], "qdisc.rate_limit", ND_SEV_WARNING);
	with_ceiling(&fs[0], "shaping", 200);
	finding(&fs[1], "path.asymmetric", ND_SEV_OK);
	fs[1].not_applicable = true;
	nd_verdicts_decide(fs, 2, set, &sum);
	assert_true(nd_verdict_asymmetric(set, fs, 2));
	assert_int_equal(fs[1].verdict, ND_VERDICT_CONFIRMED);
	assert_int_equal(fs[1].severity, ND_SEV_INFO);
	assert_false(fs[1].not_applicable);
	assert_string_equal(fs[1].explained_by, "qdisc.rate_limit");
	assert_non_null(strstr(fs[1].title, "forward (here to peer) is slower"));
	assert_non_null(strstr(fs[1].title, "explained by qdisc.rate_limit"));
	assert_true(strlen(fs[1].title) < ND_TITLE_LEN - 1);
	/* the Suspects line reads as an effect first */
	assert_non_null(strstr(cJSON_GetObjectItem(fs[1].experiment, "reason")->valuestring,
			       "explained by qdisc.rate_limit (confirmed, it limits forward only)"));

	report = report_of(fs, 2, &facts);
	assert_int_equal(nd_report_exit_code(report), ND_EXIT_WARNING);	/* the shaper */
	doc = nd_report_to_json(report);
	f = json_finding(doc, "path.asymmetric");
	assert_string_equal(cJSON_GetObjectItem(f, "severity")->valuestring, "info");
	assert_string_equal(cJSON_GetObjectItem(f, "explained_by")->valuestring,
			    "qdisc.rate_limit");
	assert_null(cJSON_GetObjectItem(json_finding(doc, "qdisc.rate_limit"), "explained_by"));
	cJSON_Delete(doc);

	/* the same shaper, reverse the slower: not explained, a warning */
	set->runs[ND_RUN_FORWARD_MANY].mbps = 950;
	set->runs[ND_RUN_REVERSE_MANY].mbps = 190;
	assert_true(nd_verdict_asymmetric(set, report->findings, 2));
	assert_int_equal(report->findings[1].severity, ND_SEV_WARNING);
	assert_string_equal(report->findings[1].explained_by, "");
	assert_null(strstr(report->findings[1].title, "explained"));

	/* skipped: left alone */
	report->findings[1].skipped = true;
	report->findings[1].verdict = ND_VERDICT_UNTESTED;
	assert_false(nd_verdict_asymmetric(set, report->findings, 2));
	assert_int_equal(report->findings[1].verdict, ND_VERDICT_UNTESTED);
	report_done(report, facts);
	free(set);
}

static void window_finding(struct nd_finding *f, enum nd_severity sev)
{
	finding(f, "sysctl.wmem_max_low", sev);
	with_ceiling(f, "window", 1048.6 / 2);
	cJSON_AddNumberToObject(f->evidence, "autotune_window_bytes", 65536);
	cJSON_AddStringToObject(f->evidence, "tcp_wmem", "4096 16384 131072");
}

/* Per-run window / min RTT: 500 and 600 us agree (1.2), 500 and 900 us
 * do not (1.8): then nothing is attributed. */
static void test_window_ceiling_stable_and_cited(void **state)
{
	struct nd_exp_set *set = peer_set(4000, 1000, 4000);
	struct nd_window_measure m;
	struct nd_exp_summary sum;
	struct nd_finding f;
	char detail[160];

	(void)state;
	set->runs[ND_RUN_FORWARD_MANY].min_rtt_usec = 600;
	set->runs[ND_RUN_FORWARD_ONE].min_rtt_usec = 500;
	window_finding(&f, ND_SEV_OK);
	assert_int_equal(nd_verdict_window_measure(&f, set, &m), 0);
	assert_int_equal(m.runs, 2);
	assert_true(m.stable);
	/* the passed check is not cited; the sysctl is */
	assert_true(nd_verdict_window_ceiling_detail(&f, set, detail, sizeof(detail)) > 1048);
	assert_null(strstr(detail, "sysctl.wmem_max_low"));
	assert_non_null(strstr(detail, "net.ipv4.tcp_wmem"));
	nd_finding_free(&f);

	/* a warning the runs confirm is cited */
	window_finding(&f, ND_SEV_WARNING);
	nd_verdicts_decide(&f, 1, set, &sum);
	assert_int_equal(f.verdict, ND_VERDICT_CONFIRMED);
	assert_true(nd_verdict_window_ceiling_detail(&f, set, detail, sizeof(detail)) > 1048);
	assert_non_null(strstr(detail, "sysctl.wmem_max_low: "));
	nd_finding_free(&f);

	/* the RTT varied: no ceiling, the suspect inconclusive, not attributed */
	set->runs[ND_RUN_FORWARD_MANY].min_rtt_usec = 900;
	window_finding(&f, ND_SEV_WARNING);
	assert_int_equal(nd_verdict_window_measure(&f, set, &m), 0);
	assert_false(m.stable);
	assert_true(nd_verdict_window_ceiling_mbps(&f, set) < 0);
	assert_true(nd_verdict_window_ceiling_detail(&f, set, detail, sizeof(detail)) < 0);
	nd_verdicts_decide(&f, 1, set, &sum);
	assert_int_equal(f.verdict, ND_VERDICT_INCONCLUSIVE);
	assert_int_equal(f.severity, ND_SEV_WARNING);
	assert_non_null(strstr(cJSON_GetObjectItem(f.experiment, "reason")->valuestring,
			       "varied"));
	assert_non_null(strstr(cJSON_GetObjectItem(f.experiment, "reason")->valuestring,
			       "not attributed"));
	nd_finding_free(&f);

	/* varied, but one stream clearly above even the highest (1048.6):
	 * the window does not limit it */
	set->runs[ND_RUN_FORWARD_ONE].mbps = 3000;
	window_finding(&f, ND_SEV_WARNING);
	nd_verdicts_decide(&f, 1, set, &sum);
	assert_int_equal(f.verdict, ND_VERDICT_REFUTED);
	assert_int_equal(f.severity, ND_SEV_INFO);
	nd_finding_free(&f);
	/* clearly below even the lowest (582.5): something else limits */
	set->runs[ND_RUN_FORWARD_ONE].mbps = 300;
	window_finding(&f, ND_SEV_WARNING);
	nd_verdicts_decide(&f, 1, set, &sum);
	assert_int_equal(f.verdict, ND_VERDICT_INCONCLUSIVE);
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(f.experiment, "clearly_below")));
	nd_finding_free(&f);
	free(set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_refuted_is_info_and_leaves_exit_code),
		cmocka_unit_test(test_explained_critical_stays_and_reapplied),
		cmocka_unit_test(test_tool_info_until_a_per_core_limit),
		cmocka_unit_test(test_asymmetry_explained_by_egress_shaper),
		cmocka_unit_test(test_window_ceiling_stable_and_cited),
	};

	return cmocka_run_group_tests_name("verdict_severity", tests, NULL, NULL);
}
