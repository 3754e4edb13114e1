/*
 * test_report_coherence.c - the report never contradicts itself (issue
 * 22): "no problem found" when nothing is warning or worse, not-applicable
 * checks apart from the passed ones, fix commands wrapped as the shell
 * reads them, a reverse run's retransmits as the peer's.
 */
#include "report_fixture.h"

/* Nothing warning or worse: the result says "no problem found", and how
 * many checks could not judge, never "unknown"; a check with nothing to
 * judge is not applicable, in JSON and text, never among the passed. */
static void test_result_no_problem_not_applicable(void **state)
{
	struct fixture *fx = *state;
	struct nd_finding *f = fx->report.findings;
	cJSON *doc;
	char *text;

	f[0].severity = ND_SEV_OK;
	f[0].not_applicable = true;
	nd_strlcpy(f[0].title, "not a bond", sizeof(f[0].title));
	f[1].severity = ND_SEV_OK;
	f[1].not_applicable = true;
	nd_strlcpy(f[1].title, "not a bond", sizeof(f[1].title));
	doc = nd_report_to_json(&fx->report);
	assert_true(cJSON_IsTrue(get(finding_by_id(doc, "t.crit"), "not_applicable")));
	assert_true(cJSON_IsFalse(get(finding_by_id(doc, "t.ok"), "not_applicable")));
	assert_int_equal(get(get(get(doc, "summary"), "counts"), "not_applicable")->valueint, 2);
	assert_int_equal(get(get(get(doc, "summary"), "counts"), "ok")->valueint, 1);
	assert_string_equal(get(get(doc, "summary"), "worst")->valuestring, "unknown");
	cJSON_Delete(doc);

	text = render(&fx->report, ND_FORMAT_TEXT);
	assert_non_null(strstr(text, "\nPassed: t.ok\n"));
	assert_non_null(strstr(text, "\nNot applicable: t.crit, t.warn (not a bond)\n"));
	assert_non_null(strstr(text, "\nResult: no problem found (1 info, 1 ok, 2 not applicable, "
				     "1 skipped); 1 check\n    could not judge (listed above, with "
				     "why)\n"));
	assert_null(strstr(text, "Result: unknown"));
	free(text);
	fx->report.verbose = true;
	text = render(&fx->report, ND_FORMAT_TEXT);
	assert_non_null(strstr(text, "\n[ NA ] t.crit  not a bond\n"));
	free(text);
	text = render(&fx->report, ND_FORMAT_MARKDOWN);
	assert_non_null(strstr(text, "**Result: no problem found** (1 info, 1 ok, "));
	assert_non_null(strstr(text, "| `t.crit` | not applicable | "));
	free(text);
}

/* A fix command wraps only where the shell splits words: a quoted
 * argument stays whole on its line; a comment ending a command continues
 * as comment lines, never with a backslash. */
static void test_text_fix_wraps_as_shell(void **state)
{
	struct fixture *fx = *state;
	struct nd_finding *f = &fx->report.findings[0];
	char *text;

	strcpy(f->fix.commands[0], "ethtool enp0s8 | grep -E 'Speed|Duplex|Link detected|Supported "
				   "link modes|Advertised link modes'");
	strcpy(f->fix.commands[1], "tc qdisc del dev eth0 root # removes the shaper: the root "
				   "qdisc and every class under it; the kernel puts back its default");
	f->fix.n_commands = 2;
	text = render(&fx->report, ND_FORMAT_TEXT);
	assert_non_null(strstr(text, "\n         ethtool enp0s8 | grep -E \\\n           'Speed|Duplex"
				     "|Link detected|Supported link modes|Advertised link modes'\n"));
	assert_non_null(strstr(text, "\n         tc qdisc del dev eth0 root # removes the shaper: "
				     "the root qdisc and\n         # every class under it"));
	assert_null(strstr(text, "it; \\\n"));
	free(text);
}

/* A reverse run's sender is the peer: no "retr ?" for what this side
 * cannot count; the peer's own count when it reported one, starred. */
static void test_reverse_run_retransmits(void **state)
{
	struct fixture *fx = *state;
	char *text;

	fx->report.throughput = cJSON_Parse(
		"{\"mode\": \"peer\", \"peer\": \"10.1.2.3:5201\", \"measured_mbps\": 900,"
		" \"wire_ceiling_mbps\": 941, \"runs\": ["
		"{\"name\": \"forward_many\", \"direction\": \"forward\", \"streams\": 4,"
		" \"mbps\": 900, \"retransmits\": 3, \"min_rtt_usec\": 120},"
		"{\"name\": \"reverse_many\", \"direction\": \"reverse\", \"streams\": 4,"
		" \"mbps\": 910, \"retransmits\": null, \"peer_retransmits\": 17,"
		" \"min_rtt_usec\": null}]}");
	assert_non_null(fx->report.throughput);
	text = render(&fx->report, ND_FORMAT_TEXT);
	assert_null(strstr(text, "retr ?"));
	assert_non_null(strstr(text, "retr 3      min RTT 120 us"));
	assert_non_null(strstr(text, "retr 17*    min RTT n/a*"));
	assert_non_null(strstr(text, "\n  * reverse: the peer sends"));
	free(text);
	text = render(&fx->report, ND_FORMAT_MARKDOWN);
	assert_non_null(strstr(text, "| reverse_many | 4 | 910 | 17 (the peer's) | n/a (the peer "
				     "sends) |\n"));
	assert_null(strstr(text, "| -1 |"));
	free(text);
	/* a peer that reported none */
	cJSON_DeleteItemFromObject(cJSON_GetArrayItem(cJSON_GetObjectItem(fx->report.throughput,
									   "runs"), 1),
				   "peer_retransmits");
	text = render(&fx->report, ND_FORMAT_TEXT);
	assert_non_null(strstr(text, "retr n/a*   min RTT n/a*"));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_result_no_problem_not_applicable, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_text_fix_wraps_as_shell, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reverse_run_retransmits, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
