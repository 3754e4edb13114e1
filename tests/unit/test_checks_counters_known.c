/*
 * test_checks_counters_known.c - the counter and link-mode checks on facts
 * read the way an offline diagnosis reads them (nd_probe on a sysroot or
 * a sosreport): a link group from /sys/class/net/IF without statistics/,
 * or from `ip link` text without counters, is no "no receive drops"; a
 * speed from sysfs's speed file is no "the driver lists no speed modes";
 * each sysctl check names the file its sysctls came from.
 */
#include <sys/stat.h>
#include <unistd.h>

#include "checks_host_fixture.h"
#include "nicdoctor/bundle.h"
#include "nicdoctor/probe.h"
#include "nicdoctor/source.h"

static struct nd_facts *probe_tree(const char *dir, const char *ifname, bool sos)
{
	struct nd_facts *facts = NULL;
	struct nd_source *src = NULL;

	assert_int_equal(nd_source_open(dir, &src, NULL, 0), 0);
	/* The kind is found by content: the fixture is what the test says. */
	assert_int_equal(nd_source_bundle(src)->kind, sos ? ND_BUNDLE_SOS : ND_BUNDLE_TREE);
	assert_int_equal(nd_probe(src, ifname, &facts), 0);
	nd_source_close(src);
	return facts;
}

/* The 82599 tree has speed, mtu, operstate, carrier, duplex: no statistics/. */
static void test_sysfs_link_without_statistics(void **state)
{
	struct nd_facts *f = probe_tree("tests/fixtures/downgraded-82599-x2-sysfs", "eth0", false);

	(void)state;
	run("nic.rx_dropped", f);
	assert_int_equal(finding.severity, ND_SEV_UNKNOWN);
	assert_non_null(strstr(evidence_string("reason"),
			       "no counters in /sys/class/net/eth0/statistics"));
	free(f);
}

/* A small ring on the same tree: whether the NIC drops is not known. */
static void test_ring_small_without_counters(void **state)
{
	struct nd_facts *f = probe_tree("tests/fixtures/downgraded-82599-x2-sysfs", "eth0", false);

	(void)state;
	nd_status_set_known(&f->rings.st);
	f->rings.rx = 512;
	f->rings.rx_max = 4096;
	run("ring.small", f);
	assert_int_equal(finding.severity, ND_SEV_UNKNOWN);
	assert_string_equal(evidence_string("missing"), "drop counters");
	free(f);
}

static void test_sysfs_speed_has_no_modes(void **state)
{
	struct nd_facts *f = probe_tree("tests/fixtures/downgraded-82599-x2-sysfs", "eth0", false);

	(void)state;
	run("link.speed_below_max", f);
	assert_int_equal(finding.severity, ND_SEV_UNKNOWN);
	assert_string_equal(evidence_string("reason"),
			    "/sys/class/net/eth0/speed gives no link modes");
	free(f);
}

static void write_file(const char *dir, const char *rel, const char *text)
{
	char path[512];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

/* statistics/ there: counted drops are judged, no drops are "no drops". */
static void test_sysfs_link_with_statistics(void **state)
{
	char dir[] = "/tmp/nd-counters-XXXXXX", sub[600];
	struct nd_facts *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(sub, sizeof(sub), "%s/sys/class/net/eth0/statistics", dir);
	for (char *p = sub + strlen(dir) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(sub, 0755);
		*p = '/';
	}
	assert_int_equal(mkdir(sub, 0755), 0);
	write_file(dir, "sys/class/net/eth0/mtu", "1500\n");
	write_file(dir, "sys/class/net/eth0/statistics/rx_packets", "1000000\n");
	write_file(dir, "sys/class/net/eth0/statistics/rx_dropped", "0\n");
	f = probe_tree(dir, "eth0", false);
	run("nic.rx_dropped", f);
	assert_int_equal(finding.severity, ND_SEV_OK);
	assert_true(evidence_number("link_stats.rx_packets") == 1000000);
	/* statistics/ without rx_crc_errors: no "no CRC errors" (the tree has
	 * no device link, which reads as virtual: say it is a NIC's) */
	f->pci.no_device = false;
	run("link.phy_errors", f);
	assert_int_equal(finding.severity, ND_SEV_UNKNOWN);
	write_file(dir, "sys/class/net/eth0/statistics/rx_crc_errors", "3100\n");
	write_file(dir, "sys/class/net/eth0/statistics/rx_frame_errors", "12\n");
	write_file(dir, "sys/class/net/eth0/carrier_changes", "9\n");
	free(f);
	f = probe_tree(dir, "eth0", false);
	f->pci.no_device = false;
	run("link.phy_errors", f);
	assert_int_equal(finding.severity, ND_SEV_WARNING);	/* 0.31% in one read */
	assert_true(evidence_number("crc_errors") == 3100);
	assert_true(evidence_number("alignment_errors") == 12);
	assert_true(evidence_number("carrier_changes") == 9);
	write_file(dir, "sys/class/net/eth0/statistics/rx_dropped", "777\n");
	free(f);
	f = probe_tree(dir, "eth0", false);
	run("nic.rx_dropped", f);
	assert_int_equal(finding.severity, ND_SEV_INFO);
	assert_true(evidence_number("dropped_total") == 777);
	free(f);
	snprintf(sub, sizeof(sub), "rm -rf '%s'", dir);
	assert_int_equal(system(sub), 0);
}

/* The 82599 sosreport's ip_-s_-d_link has no RX:/TX: rows; the CX4's has. */
static void test_sos_ip_link_counters(void **state)
{
	struct nd_facts *f = probe_tree("tests/fixtures/sos-82599-proc", "eth0", true);

	(void)state;
	run("nic.rx_dropped", f);
	assert_int_equal(finding.severity, ND_SEV_UNKNOWN);
	assert_non_null(strstr(evidence_string("reason"), "'sos_commands/networking/ip_-s_-d_link'"
			       " has no RX/TX counters"));
	free(f);
	f = probe_tree("tests/fixtures/sos-cx4lx-x4", "ens1f0np0", true);
	run("nic.rx_dropped", f);
	assert_int_equal(finding.severity, ND_SEV_OK);
	assert_true(evidence_number("link_stats.rx_packets") == 1000);
	/* ip -s -d link (one -s) has no crc column: unknown, not "none" */
	run("link.phy_errors", f);
	assert_int_equal(finding.severity, ND_SEV_UNKNOWN);
	free(f);
}

/* sos's ethtool text lists the modes: a speed at the best is ok. */
static void test_sos_ethtool_text_has_modes(void **state)
{
	struct nd_facts *f = probe_tree("tests/fixtures/sos-cx4lx-x4", "ens1f0np0", true);

	(void)state;
	run("link.speed_below_max", f);
	assert_int_equal(finding.severity, ND_SEV_OK);
	free(f);
}

/* Each sysctl check names its file: sysctl -a in a sosreport, proc/sys in a tree. */
static void test_sysctl_sources(void **state)
{
	struct nd_facts *f = probe_tree("tests/fixtures/sos42-kvm-virtio", "ens3", true);

	(void)state;
	run("sysctl.backlog_low", f);
	assert_non_null(strstr(evidence_string("source"), "sos_commands/kernel/sysctl_-a"));
	run("sysctl.rmem_max_low", f);
	assert_non_null(strstr(evidence_string("source"), "sos_commands/kernel/sysctl_-a"));
	free(f);
	f = probe_tree("tests/fixtures/healthy-x16", "enp1s0f0np0", false);
	run("sysctl.rmem_max_low", f);
	assert_non_null(strstr(evidence_string("source"), "/proc/sys/net/core/rmem_max"));
	assert_non_null(strstr(evidence_string("source"), "/proc/sys/net/ipv4/tcp_rmem"));
	run("sysctl.wmem_max_low", f);
	assert_non_null(strstr(evidence_string("source"), "/proc/sys/net/core/wmem_max"));
	run("softnet.squeezed", f);
	assert_non_null(strstr(evidence_string("source"), "/proc/sys/net/core/netdev_budget"));
	free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_sysfs_link_without_statistics, teardown),
		cmocka_unit_test_teardown(test_ring_small_without_counters, teardown),
		cmocka_unit_test_teardown(test_sysfs_speed_has_no_modes, teardown),
		cmocka_unit_test_teardown(test_sysfs_link_with_statistics, teardown),
		cmocka_unit_test_teardown(test_sos_ip_link_counters, teardown),
		cmocka_unit_test_teardown(test_sos_ethtool_text_has_modes, teardown),
		cmocka_unit_test_teardown(test_sysctl_sources, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
