/*
 * test_supportconfig_convert.c - a supportconfig directory opened as a
 * bundle becomes the sos-shaped tree the sos probe reads (supportconfig.c):
 * the file names sos uses, hwinfo's interrupts with a rebuilt header, the
 * host and date of basic-environment.txt, and no path taken from a
 * section name that leaves the tree.  Fixture: tests/fixtures/
 * supportconfig-kvm-virtio (make-supportconfig.py, real sos 4.2 outputs).
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "nicdoctor/bundle.h"

#define FIXTURE "tests/fixtures/supportconfig-kvm-virtio"

static struct nd_bundle bundle;

static int setup(void **state)
{
	char error[256];

	(void)state;
	return nd_bundle_open(FIXTURE, &bundle, error, sizeof(error));
}

static int teardown(void **state)
{
	(void)state;
	nd_bundle_close(&bundle);
	return 0;
}

/* The converted file's text ("" when missing). */
static const char *converted(const char *name)
{
	static char text[65536];
	char path[PATH_MAX + 64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", bundle.root, name);
	fd = open(path, O_RDONLY | O_NOFOLLOW);
	text[0] = '\0';
	if (fd < 0)
		return text;
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	text[n > 0 ? n : 0] = '\0';
	return text;
}

static void test_kind_and_origin(void **state)
{
	char origin[256];

	(void)state;
	assert_int_equal(bundle.kind, ND_BUNDLE_SOS);
	assert_true(bundle.from_supportconfig);
	assert_non_null(strstr(bundle.root, "/nicdoctor-sos."));
	assert_ptr_equal(strstr(bundle.root, bundle.tmpdir), bundle.root);
	nd_bundle_describe(&bundle, origin, sizeof(origin));
	assert_string_equal(origin, "a supportconfig (supportconfig 3.2.14) of sles15vm "
				    "taken Sun Mar  1 10:00:00 UTC 2026");
	assert_string_equal(converted("version.txt"), "supportconfig: 3.2.14\n");
}

static void test_sos_names(void **state)
{
	(void)state;
	assert_non_null(strstr(converted("sos_commands/networking/ethtool_-l_ens3"),
			       "Combined:\t1"));
	assert_non_null(strstr(converted("sos_commands/networking/ethtool_-i_ens3"),
			       "bus-info: 0000:00:03.0"));
	assert_non_null(strstr(converted("sos_commands/networking/ethtool_ens3"),
			       "Link detected: yes"));
	/* stderr first, as sos keeps it */
	assert_non_null(strstr(converted("sos_commands/networking/ethtool_-l_lo"),
			       "Cannot get device channel parameters"));
	assert_non_null(strstr(converted("sos_commands/networking/ip_-s_link"), "2: ens3:"));
	assert_non_null(strstr(converted("sos_commands/networking/ip_route"), "default via"));
	assert_non_null(strstr(converted("sos_commands/pci/lspci_-nnvv"),
			       "00:03.0 Ethernet controller"));
	assert_non_null(strstr(converted("sos_commands/processor/lscpu"), "CPU(s):"));
	assert_non_null(strstr(converted("sos_commands/kernel/sysctl_-a"),
			       "net.core.rmem_max = 212992"));
	assert_string_equal(converted("proc/sys/net/core/rmem_max"), "212992\n");
	assert_string_equal(converted("proc/irq/25/smp_affinity_list"), "0-1\n");
	assert_string_equal(converted("proc/irq/25/affinity_hint"), "");	/* "File not found" */
	assert_non_null(strstr(converted("proc/net/softnet_stat"), "00020e42"));
}

static void test_tc_joined(void **state)
{
	const char *tc = converted("sos_commands/networking/tc_-s_qdisc_show");

	(void)state;
	assert_non_null(strstr(tc, "qdisc noqueue 0: dev lo root"));
	assert_non_null(strstr(tc, "qdisc fq_codel 0: dev ens3 root"));
	assert_non_null(strstr(tc, "dev flannel.1 root"));
}

static void test_hwinfo_interrupts(void **state)
{
	const char *irq = converted("proc/interrupts");

	(void)state;
	assert_memory_equal(irq, "           CPU0       CPU1       \n", 34);
	assert_non_null(strstr(irq, "\n 25:   24376036      13487   PCI-MSI 49153-edge"));
	assert_non_null(strstr(irq, "\nNMI:"));
	assert_null(strstr(irq, "-----"));
}

static void test_no_escape(void **state)
{
	struct stat st;
	char path[PATH_MAX + 64];

	(void)state;
	snprintf(path, sizeof(path), "%s/etc", bundle.tmpdir);
	assert_int_not_equal(lstat(path, &st), 0);
	snprintf(path, sizeof(path), "%s/sos_commands/networking/ethtool_-k_..", bundle.root);
	assert_int_not_equal(lstat(path, &st), 0);
	assert_string_equal(converted("proc/../../etc/shadow"), "");
}

static void test_close_removes(void **state)
{
	char dir[PATH_MAX];
	struct stat st;

	(void)state;
	snprintf(dir, sizeof(dir), "%s", bundle.tmpdir);
	nd_bundle_close(&bundle);
	assert_int_not_equal(lstat(dir, &st), 0);
	assert_int_equal(errno, ENOENT);
	/* the supportconfig itself is untouched */
	assert_int_equal(lstat(FIXTURE "/network.txt", &st), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kind_and_origin),
		cmocka_unit_test(test_sos_names),
		cmocka_unit_test(test_tc_joined),
		cmocka_unit_test(test_hwinfo_interrupts),
		cmocka_unit_test(test_no_escape),
		cmocka_unit_test(test_close_removes),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
