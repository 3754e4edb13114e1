/*
 * test_checks_drop_share.c - nic.rx_dropped states the share of received
 * frames in its title and grades a record's one read by it: 0.0001% and
 * 0.72% never read alike.
 */
#include "checks_host_fixture.h"
#include "window_fixture.h"

static void add_nicstat(struct nd_facts *facts, const char *name, uint64_t value)
{
	struct nd_stat *s = &facts->nicstats.s[facts->nicstats.count++];

	nd_strlcpy(s->name, name, sizeof(s->name));
	s->value = value;
}

/* A snapshot's one read: no window, the share decides. */
static void test_share_grades_one_read(void **state)
{
	struct nd_facts *facts = facts_new();

	(void)state;
	facts->sysroot = true;
	window_clear(facts);
	/* 0.72%: the driver's rx_missed_errors 123456 of 17 million frames */
	facts->link.stats.rx_packets = 17000000;
	add_nicstat(facts, "rx_missed_errors", 123456);
	run("nic.rx_dropped", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_non_null(strstr(finding.title, "0.72% missed (rx_missed_errors 123456)"));
	assert_non_null(strstr(finding.title, "of 17000000 received"));
	assert_string_equal(finding.fix.id, "rings");
	/* 0.0001%: 17 of 17 million: negligible, ok */
	facts->nicstats.s[0].value = 17;
	run("nic.rx_dropped", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	assert_non_null(strstr(finding.title, "0.0001% missed (rx_missed_errors 17)"));
	assert_non_null(strstr(finding.title, "negligible"));
	assert_int_equal(finding.fix.n_commands, 0);
	/* 0.005%: between: info */
	facts->nicstats.count = 0;
	facts->link.stats.rx_packets = 1000000000;
	facts->link.stats.rx_missed = 50000;
	run("nic.rx_dropped", facts);
	assert_int_equal(finding.severity, ND_SEV_INFO);
	assert_non_null(strstr(finding.title, "0.005% missed (rx_missed 50000)"));
	/* rx_dropped alone at 0.2% of a snapshot's frames */
	facts->link.stats.rx_missed = 0;
	facts->link.stats.rx_dropped = 2000000;
	run("nic.rx_dropped", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_non_null(strstr(finding.title, "0.20% dropped (rx_dropped 2000000)"));
	free(facts);
}

/* With a window that saw none the totals are history: info, share shown. */
static void test_share_history_with_window(void **state)
{
	struct nd_facts *facts = facts_new();

	(void)state;
	facts->link.stats.rx_packets = 17000000;
	add_nicstat(facts, "rx_missed_errors", 123456);
	window_set(facts, 1, 0);
	run("nic.rx_dropped", facts);
	assert_int_equal(finding.severity, ND_SEV_INFO);
	assert_non_null(strstr(finding.title, "0.72% missed"));
	assert_non_null(strstr(finding.title, "none in the last 1 s"));
	/* growing in the window: the window's share leads the title */
	window_set(facts, 10, 0.5);
	run("nic.rx_dropped", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_non_null(strstr(finding.title, "0.72% of received frames missed during the last"));
	assert_non_null(strstr(finding.title, "(rx_missed_errors 61728, 6172.8 missed/s)"));
	free(facts);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_share_grades_one_read, teardown),
		cmocka_unit_test_teardown(test_share_history_with_window, teardown),
	};

	return cmocka_run_group_tests_name("checks_drop_share", tests, NULL, NULL);
}
