/*
 * test_checks_phy_errors.c - link.phy_errors on hand-made counters: CRC,
 * alignment and symbol errors as a share of received frames, in a window
 * and since boot, carrier changes in a window (flapping), and counters
 * that were never read (unknown, not "no errors").
 */
#include "checks_host_fixture.h"
#include "nicdoctor/parse_text.h"
#include "window_fixture.h"

static void add_nicstat(struct nd_facts *facts, const char *name, uint64_t value)
{
	struct nd_stat *s = &facts->nicstats.s[facts->nicstats.count++];

	nd_strlcpy(s->name, name, sizeof(s->name));
	s->value = value;
}

static bool fix_has(const char *text)
{
	for (unsigned i = 0; i < finding.fix.n_commands; i++)
		if (strstr(finding.fix.commands[i], text))
			return true;
	return false;
}

/* facts_new's counters come from rtnetlink: rx_crc/rx_frame read. */
static struct nd_facts *phy_facts(void)
{
	struct nd_facts *facts = facts_new();

	facts->link.stats.rx_phy_known = true;
	facts->link.stats.carrier_changes_known = true;
	facts->link.stats.carrier_changes = 2;
	return facts;
}

static void test_phy_since_boot(void **state)
{
	struct nd_facts *facts = phy_facts();

	(void)state;
	facts->sysroot = true;
	window_clear(facts);
	run("link.phy_errors", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	assert_non_null(strstr(finding.title, "no CRC/FCS"));
	/* a snapshot: 0.012% of a billion frames failed the FCS: warning */
	facts->link.stats.rx_crc = 120000;
	add_nicstat(facts, "rx_crc_errors", 120000);
	add_nicstat(facts, "rx_align_errors", 40);
	run("link.phy_errors", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_non_null(strstr(finding.title, "120000 CRC/FCS errors (rx_crc_errors, "
			       "rx_align_errors 40), 0.012% of received"));
	assert_true(evidence_number("crc_errors") == 120000);
	assert_true(evidence_number("alignment_errors") == 40);
	assert_true(evidence_number("error_share_pct") == 0.012);
	assert_true(fix_has("another switch port"));
	assert_true(fix_has("partner"));
	assert_string_equal(finding.fix.id, "phy");
	/* a handful over a billion: info */
	facts->link.stats.rx_crc = 50;
	facts->nicstats.count = 0;
	run("link.phy_errors", facts);
	assert_int_equal(finding.severity, ND_SEV_INFO);
	assert_int_equal(finding.fix.n_commands, 0);
	/* a live window that saw none: the big total is history, info */
	facts->link.stats.rx_crc = 120000;
	facts->sysroot = false;
	window_set(facts, 1, 0);
	run("link.phy_errors", facts);
	assert_int_equal(finding.severity, ND_SEV_INFO);
	assert_non_null(strstr(finding.title, "none in the last 1 s"));
	free(facts);
}

static void test_phy_window(void **state)
{
	struct nd_facts *facts = phy_facts();
	struct nd_counter_window *w;

	(void)state;
	facts->link.stats.rx_crc = 120000;
	window_set(facts, 10, 0);
	w = &facts->window;
	/* 500 CRC errors grew over 10 s of 1 million frames: warning */
	w->before.link.rx_packets = w->after.link.rx_packets - 1000000;
	w->before.link.rx_crc = w->after.link.rx_crc - 500;
	run("link.phy_errors", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_non_null(strstr(finding.title, "the wire corrupts frames: 500 CRC/FCS errors"));
	assert_non_null(strstr(finding.title, "(50.0/s)"));
	assert_true(evidence_number("window.crc_errors") == 500);
	assert_true(fix_has("reseat or replace the cable"));
	/* 3 in the window: info */
	w->before.link.rx_crc = w->after.link.rx_crc - 3;
	run("link.phy_errors", facts);
	assert_int_equal(finding.severity, ND_SEV_INFO);
	/* the carrier went down and up twice in the window: flapping */
	w->after.link.carrier_changes = w->before.link.carrier_changes + 4;
	run("link.phy_errors", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_non_null(strstr(finding.title, "link flapping: the carrier changed 4 times"));
	assert_true(evidence_number("window.carrier_changes") == 4);
	free(facts);
}

/* Counters that were not read are no "no errors". */
static void test_phy_unknown(void **state)
{
	struct nd_facts *facts = phy_facts();

	(void)state;
	facts->link.stats.rx_phy_known = false;
	add_nicstat(facts, "rx_missed_errors", 4);
	run("link.phy_errors", facts);
	assert_int_equal(finding.severity, ND_SEV_UNKNOWN);
	/* ...the driver's names count: mlx5's *_phy, transmit ones do not */
	add_nicstat(facts, "tx_carrier_errors", 9);
	add_nicstat(facts, "rx_crc_errors_phy", 0);
	run("link.phy_errors", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	facts->nicstats.s[2].value = 7;
	add_nicstat(facts, "rx_symbol_err_phy", 700);
	run("link.phy_errors", facts);
	assert_true(evidence_number("symbol_errors") == 700);
	assert_true(evidence_number("crc_errors") == 7);
	assert_non_null(strstr(finding.title, "700 symbol errors (rx_symbol_err_phy"));
	nd_status_set_unknown(&facts->link.st, "rtnetlink: no such device");
	nd_status_set_unknown(&facts->nicstats.st, "ETHTOOL_GSTATS: no such device");
	run("link.phy_errors", facts);
	assert_int_equal(finding.severity, ND_SEV_UNKNOWN);
	free(facts);
}

/* A veth or bridge has no wire: not applicable, unless its driver counts
 * physical errors of its own. */
static void test_phy_virtual(void **state)
{
	struct nd_facts *facts = phy_facts();

	(void)state;
	facts->pci.no_device = true;
	run("link.phy_errors", facts);
	assert_true(finding.not_applicable);
	assert_int_equal(finding.severity, ND_SEV_OK);
	add_nicstat(facts, "rx_crc_errors", 0);
	run("link.phy_errors", facts);
	assert_false(finding.not_applicable);
	free(facts);
}

/* ip -s -s link: the "RX errors" line's crc and frame, "TX errors"'
 * transns (iproute2's layout for the second -s). */
static void test_iplink_errors_line(void **state)
{
	static const char text[] =
		"2: eth0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc mq state UP mode "
		"DEFAULT group default qlen 1000\n"
		"    link/ether 02:00:00:00:00:01 brd ff:ff:ff:ff:ff:ff\n"
		"    RX:  bytes packets errors dropped  missed   mcast\n"
		"    981234567 1234567   1301       0       0       0\n"
		"    RX errors:  length    crc   frame    fifo overrun\n"
		"                     0   1288      13       0       0\n"
		"    TX:  bytes packets errors dropped carrier collsns\n"
		"    876543210 1123456      0       0       0       0\n"
		"    TX errors: aborted   fifo  window heartbt transns\n"
		"                     0      0       0       0       7\n";
	struct nd_link link;
	bool stats = false;

	(void)state;
	memset(&link, 0, sizeof(link));
	assert_int_equal(nd_parse_iplink(text, strlen(text), "eth0", &link, &stats), 0);
	assert_true(stats);
	assert_true(link.stats.rx_phy_known);
	assert_true(link.stats.rx_crc == 1288);
	assert_true(link.stats.rx_frame == 13);
	assert_true(link.stats.carrier_changes_known);
	assert_true(link.stats.carrier_changes == 7);
	assert_true(link.stats.rx_packets == 1234567);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_phy_since_boot, teardown),
		cmocka_unit_test_teardown(test_phy_window, teardown),
		cmocka_unit_test_teardown(test_phy_unknown, teardown),
		cmocka_unit_test_teardown(test_phy_virtual, teardown),
		cmocka_unit_test(test_iplink_errors_line),
	};

	return cmocka_run_group_tests_name("checks_phy_errors", tests, NULL, NULL);
}
