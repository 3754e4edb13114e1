/*
 * test_checks_cloud.c - cloud.ena_allowance on the ethtool -S of a real
 * ENA instance (tests/fixtures/raw, Linux 5.4.0-1084-aws: every allowance
 * counter 0), with the window's second read made here: a counter that
 * grew by 10 or more is a warning, fewer info, a since-boot total alone
 * history.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "checks_nic_fixture.h"
#include "nicdoctor/parse_text.h"
#include "raw_fixture.h"

static struct nd_facts *ena_facts(void)
{
	struct nd_facts *facts = healthy_facts();
	char *text = raw("ethtool-S-ena-2queues-aws-5.4.txt");

	assert_int_equal(nd_parse_ethtool_stats(text, strlen(text), &facts->nicstats), 0);
	free(text);
	nd_status_set_known(&facts->drvinfo.st);
	nd_strlcpy(facts->drvinfo.driver, "ena", sizeof(facts->drvinfo.driver));
	return facts;
}

static void set_stat(struct nd_nicstats *stats, const char *name, uint64_t value)
{
	for (unsigned i = 0; i < stats->count; i++)
		if (!strcmp(stats->s[i].name, name)) {
			stats->s[i].value = value;
			return;
		}
	fail_msg("no counter %s", name);
}

/* A 10 s window over which name grew by grew. */
static void window(struct nd_facts *facts, const char *name, uint64_t grew)
{
	struct nd_counter_window *w = &facts->window;
	uint64_t start = 0;

	w->known = true;
	w->seconds = 10;
	nd_strlcpy(w->what, "runs", sizeof(w->what));
	nd_strlcpy(w->label, "the 3 runs", sizeof(w->label));
	w->before.nicstats = facts->nicstats;
	w->after.nicstats = facts->nicstats;
	for (unsigned i = 0; i < facts->nicstats.count; i++)
		if (!strcmp(facts->nicstats.s[i].name, name))
			start = facts->nicstats.s[i].value;
	set_stat(&w->after.nicstats, name, start + grew);
}

static void test_ena_quiet(void **state)
{
	struct nd_facts *facts = ena_facts();

	(void)state;
	run("cloud.ena_allowance", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	assert_false(finding.not_applicable);
	free(facts);
}

static void test_ena_window(void **state)
{
	struct nd_facts *facts = ena_facts();
	const cJSON *win;

	(void)state;
	window(facts, "bw_out_allowance_exceeded", 250);
	run("cloud.ena_allowance", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_non_null(strstr(finding.title, "outbound bandwidth allowance was exceeded 250 "
			       "times during the 3 runs (25.0/s"));
	assert_true(finding.ceiling_mbps < 0);
	win = cJSON_GetObjectItem(evidence_item("window"), "exceeded");
	assert_int_equal(cJSON_GetObjectItem(win, "bw_out_allowance_exceeded")->valueint, 250);
	assert_string_equal(finding.fix.id, "cloud_allowance");
	assert_non_null(strstr(finding.fix.commands[0], "# outbound bandwidth"));
	/* A few: info, no fix. */
	window(facts, "pps_allowance_exceeded", 3);
	run("cloud.ena_allowance", facts);
	assert_int_equal(finding.severity, ND_SEV_INFO);
	assert_int_equal(finding.fix.n_commands, 0);
	free(facts);
}

static void test_ena_history_and_others(void **state)
{
	struct nd_facts *facts = ena_facts();

	(void)state;
	/* No window: a total is history. */
	set_stat(&facts->nicstats, "conntrack_allowance_exceeded", 7);
	run("cloud.ena_allowance", facts);
	assert_int_equal(finding.severity, ND_SEV_INFO);
	assert_non_null(strstr(finding.title, "history: conntrack_allowance_exceeded 7"));
	/* A window in which it did not grow: still history. */
	window(facts, "conntrack_allowance_exceeded", 0);
	run("cloud.ena_allowance", facts);
	assert_int_equal(finding.severity, ND_SEV_INFO);
	free(facts);
	/* Another driver without the counters. */
	facts = healthy_facts();
	run("cloud.ena_allowance", facts);
	assert_true(finding.not_applicable);
	free(facts);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_ena_quiet, teardown),
		cmocka_unit_test_teardown(test_ena_window, teardown),
		cmocka_unit_test_teardown(test_ena_history_and_others, teardown),
	};

	return cmocka_run_group_tests_name("checks_cloud", tests, NULL, NULL);
}
