/*
 * test_parse_records.c - package lists and the kernel's PCIe verdict
 * (src/parse/records.c) on real captures (tests/fixtures/raw/, the blind
 * set's raw/ posts): dpkg -l, rpm -q, and the kernel's "available PCIe
 * bandwidth" and ixgbe's "(Speed:..., Width: ...)", "PCI Express bandwidth
 * of NGT/s available" and "at least NGT/s ... required" lines.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "raw_fixture.h"

#include "nicdoctor/parse_text.h"

#define TXT(s) s, sizeof(s) - 1

static char *blind_raw(const char *name)
{
	char path[160];

	/* raw() reads tests/fixtures/raw/: the blind posts are one level over. */
	snprintf(path, sizeof(path), "../blind/raw/%s", name);
	return raw(path);
}

static void test_dpkg(void **state)
{
	char *head = raw("dpkg_-l-hotsos-openstack-head.txt");
	char *iperf = raw("dpkg_-l-grep-iperf-ubuntu1804-iperf3-3.1.3.txt");
	char *all = malloc(strlen(head) + strlen(iperf) + 1);
	char v[32];
	unsigned line = 0;

	(void)state;
	assert_non_null(all);
	strcpy(all, head);
	strcat(all, iperf);
	/* "iperf" (2.0.10) and "libiperf0:amd64" are other packages. */
	assert_int_equal(nd_parse_package_version(all, strlen(all), "iperf3", v, sizeof(v), &line),
			 0);
	assert_string_equal(v, "3.1.3");
	assert_int_equal(line, 12 + 2);
	assert_int_equal(nd_parse_package_version(all, strlen(all), "iperf", v, sizeof(v), &line),
			 0);
	assert_string_equal(v, "2.0.10+dfsg1");
	/* An epoch goes: "1:5.4-1". */
	assert_int_equal(nd_parse_package_version(all, strlen(all), "ethtool", v, sizeof(v), NULL),
			 0);
	assert_string_equal(v, "5.4");
	/* The header's "Name" column is no package. */
	assert_int_equal(nd_parse_package_version(head, strlen(head), "iperf3", v, sizeof(v), NULL),
			 -ENOENT);
	assert_string_equal(v, "");
	/* Removed, config files only: not installed. */
	assert_int_equal(nd_parse_package_version(TXT("rc  iperf3  3.9-1  amd64  x\n"), "iperf3", v,
						  sizeof(v), NULL), -ENOENT);
	free(all);
	free(head);
	free(iperf);
}

static void test_rpm(void **state)
{
	char *t = raw("rpm-q-iperf3-el8-3.5.txt");
	char v[32];
	unsigned line = 0;

	(void)state;
	assert_int_equal(nd_parse_package_version(t, strlen(t), "iperf3", v, sizeof(v), &line), 0);
	assert_string_equal(v, "3.5");
	assert_int_equal(line, 1);
	/* "iperf3-devel-..." is another package; installed-rpms' date column. */
	assert_int_equal(nd_parse_package_version(TXT("iperf3-devel-3.5-3.el8.x86_64  Mon\n"),
						  "iperf3", v, sizeof(v), NULL), -ENOENT);
	/* supportconfig rpm.txt: name, distribution words, version-release. */
	assert_int_equal(nd_parse_package_version(TXT("iperf3    SUSE Linux Enterprise 15    "
						      "3.5-150000.3.3.1\n"), "iperf3", v,
						  sizeof(v), NULL), 0);
	assert_string_equal(v, "3.5");
	free(t);
}

static void test_kernel_limited(void **state)
{
	char *t = raw("dmesg-82599-config-space.txt");
	struct nd_kernel_pcie k;

	(void)state;
	assert_int_equal(nd_parse_kernel_pcie(t, strlen(t), "0000:01:00.1", &k), 0);
	assert_string_equal(k.address, "0000:01:00.1");
	assert_true(k.limited);
	/* The limit is the port above, the device is the prefix's. */
	assert_string_equal(k.limited_at, "0000:00:10.0");
	assert_true(k.gts > 2.49 && k.gts < 2.51);
	assert_int_equal(k.width, 2);
	assert_true(k.avail_gbps > 3.99 && k.avail_gbps < 4.01);
	assert_true(k.cap_gts > 4.99 && k.cap_gts < 5.01);
	assert_int_equal(k.cap_width, 8);
	assert_true(k.cap_gbps > 31.9 && k.cap_gbps < 32.1);
	assert_int_equal(k.line, 86 - 1);	/* the raw file's first line is its source */
	assert_string_equal(k.words, "ixgbe 0000:01:00.1: 4.000 Gb/s available PCIe bandwidth, "
			    "limited by 2.5 GT/s PCIe x2 link at 0000:00:10.0 (capable of "
			    "32.000 Gb/s with 5.0 GT/s PCIe x8 link)");
	/* The last line on .0 is ixgbe's, after the pci core's at enumeration. */
	assert_int_equal(nd_parse_kernel_pcie(t, strlen(t), "0000:01:00.0", &k), 0);
	assert_int_equal(k.line, 78 - 1);
	assert_true(!strncmp(k.words, "ixgbe 0000:01:00.0:", 19));
	/* The limiting port is no device the log speaks of. */
	assert_int_equal(nd_parse_kernel_pcie(t, strlen(t), "0000:00:10.0", &k), -ENOENT);
	free(t);
}

static void test_kernel_unlimited(void **state)
{
	char *cx5 = blind_raw("arm-nas-16-mlx5-cx5-dmesg-63gbps-8gt-x8.txt");
	char *igc = blind_raw("pcie-devices-674-igc-i226-pi5-dmesg-4gbps-5gt-x1.txt");
	struct nd_kernel_pcie k;

	(void)state;
	assert_int_equal(nd_parse_kernel_pcie(cx5, strlen(cx5), "0004:01:00.1", &k), 0);
	assert_false(k.limited);
	assert_true(k.gts > 7.99 && k.gts < 8.01);
	assert_int_equal(k.width, 8);
	assert_true(k.cap_gts > 7.99 && k.cap_gts < 8.01);
	assert_int_equal(k.cap_width, 8);
	assert_true(k.avail_gbps > 63.0 && k.avail_gbps < 63.01);
	assert_int_equal(nd_parse_kernel_pcie(igc, strlen(igc), "0000:01:00.0", &k), 0);
	assert_int_equal(k.width, 1);
	assert_true(k.gts > 4.99 && k.gts < 5.01);
	assert_string_equal(k.words, "igc 0000:01:00.0: 4.000 Gb/s available PCIe bandwidth "
			    "(5.0 GT/s PCIe x1 link)");
	free(cx5);
	free(igc);
}

static void test_kernel_ixgbe(void **state)
{
	char *t = blind_raw("ahelpme-x520-2-ixgbe-dmesg-5gt-x4-two-ports-under-14gbps.txt");
	struct nd_kernel_pcie k;

	(void)state;
	assert_int_equal(nd_parse_kernel_pcie(t, strlen(t), "0000:82:00.0", &k), 0);
	assert_false(k.limited);
	assert_true(k.gts > 4.99 && k.gts < 5.01);
	assert_int_equal(k.width, 4);
	assert_true(k.cap_gts == 0 && k.cap_width == 0);	/* ixgbe does not say */
	assert_string_equal(k.words, "ixgbe 0000:82:00.0: (Speed:5.0GT/s, Width: x4, "
			    "Encoding Loss:20%)");
	assert_int_equal(nd_parse_kernel_pcie(t, strlen(t), "0000:82:00.1", &k), 0);
	assert_int_equal(k.width, 4);
	assert_int_equal(nd_parse_kernel_pcie(t, strlen(t), "0000:82:00.2", &k), -ENOENT);
	free(t);
}

/* ixgbe's older lines: "PCI Express bandwidth of NGT/s available" (the
 * link's rate after 8b/10b), the "(Speed:..." line that follows, and the
 * card's need, "at least NGT/s of bandwidth is required". */
static void test_kernel_ixgbe_available(void **state)
{
	/* ntop/PF_RING#283: the post cuts the "(Speed:5." line */
	char *t = blind_raw("pfring-283-ixgbe-82599-p3p1-4gts-available-x1.txt");
	char *x520 = blind_raw("ahelpme-x520-2-ixgbe-dmesg-5gt-x4-two-ports-under-14gbps.txt");
	struct nd_kernel_pcie k;

	(void)state;
	assert_int_equal(nd_parse_kernel_pcie(t, strlen(t), "0000:07:00.0", &k), 0);
	assert_int_equal(k.driver_gts, 4);
	assert_true(k.link_inferred);
	/* 4 Gbit/s after 8b/10b: one 5.0 GT/s lane (or two at 2.5, alike) */
	assert_true(k.gts > 4.99 && k.gts < 5.01);
	assert_int_equal(k.width, 1);
	assert_int_equal(k.need_gts, 0);
	assert_string_equal(k.words, "ixgbe 0000:07:00.0: PCI Express bandwidth of 4GT/s "
			    "available");
	/* the igb lines of the same post are no verdict on an ixgbe port */
	assert_int_equal(nd_parse_kernel_pcie(t, strlen(t), "0000:02:00.0", &k), -ENOENT);
	/* both lines: the "(Speed:" line's link, the figure and the need kept */
	assert_int_equal(nd_parse_kernel_pcie(x520, strlen(x520), "0000:82:00.1", &k), 0);
	assert_false(k.link_inferred);
	assert_int_equal(k.driver_gts, 16);
	assert_int_equal(k.width, 4);
	assert_int_equal(k.need_gts, 20);
	assert_int_equal(nd_parse_kernel_pcie(x520, strlen(x520), "0000:82:00.0", &k), 0);
	assert_int_equal(k.need_gts, 20);
	/* 2.5 GT/s x2 is 4 as well; 6 is only 2.5 x3, no width: refused */
	assert_int_equal(nd_parse_kernel_pcie(TXT("ixgbe 0000:01:00.0: PCI Express bandwidth of "
						  "2GT/s available\n"), "0000:01:00.0", &k), 0);
	assert_true(k.gts > 2.49 && k.gts < 2.51 && k.width == 1);
	assert_int_equal(nd_parse_kernel_pcie(TXT("ixgbe 0000:01:00.0: PCI Express bandwidth of "
						  "6GT/s available\n"), "0000:01:00.0", &k), -ENOENT);
	assert_int_equal(nd_parse_kernel_pcie(TXT("ixgbe 0000:01:00.0: PCI Express bandwidth of "
						  "GT/s available\n"), "0000:01:00.0", &k), -ENOENT);
	/* a need without a verdict before it is none; another device's is not ours */
	assert_int_equal(nd_parse_kernel_pcie(TXT("ixgbe 0000:01:00.0: For optimal performance, "
						  "at least 20GT/s of bandwidth is required.\n"),
					      "0000:01:00.0", &k), -ENOENT);
	assert_int_equal(nd_parse_kernel_pcie(TXT("ixgbe 0000:01:00.0: PCI Express bandwidth of "
						  "8GT/s available\nixgbe 0000:01:00.1: For optimal "
						  "performance, at least 20GT/s of bandwidth is "
						  "required.\n"), "0000:01:00.0", &k), 0);
	assert_int_equal(k.need_gts, 0);
	free(t);
	free(x520);
}

static void test_kernel_root_port_and_syslog(void **state)
{
	char *pi = raw("dmesg-82599-rpi-cm4-5gt-x1-limited-at-root-port.txt");
	char *sys = raw("syslog-ixgbe-pfring-293-speed-5gt-x8.txt");
	struct nd_kernel_pcie k;

	(void)state;
	/* A Pi's one lane: the limit is the root port 0000:00:00.0. */
	assert_int_equal(nd_parse_kernel_pcie(pi, strlen(pi), "0000:01:00.0", &k), 0);
	assert_true(k.limited);
	assert_string_equal(k.limited_at, "0000:00:00.0");
	assert_int_equal(k.width, 1);
	assert_int_equal(k.cap_width, 8);
	/* The second function's line is cut inside "bandwidth": no verdict. */
	assert_int_equal(nd_parse_kernel_pcie(pi, strlen(pi), "0000:01:00.1", &k), -ENOENT);
	/* A syslog line: "DATE host kernel: [ts] " goes before the words. */
	assert_int_equal(nd_parse_kernel_pcie(sys, strlen(sys), "0000:06:00.1", &k), 0);
	assert_int_equal(k.width, 8);
	assert_int_equal(k.line, 3);
	assert_string_equal(k.words, "ixgbe 0000:06:00.1: (Speed:5.0GT/s, Width: x8, "
			    "Encoding Loss:20%)");
	free(pi);
	free(sys);
}

static void test_kernel_hostile(void **state)
{
	struct nd_kernel_pcie k;

	(void)state;
	/* Journal prefix; cut short after the limit; no BDF before it. */
	assert_int_equal(nd_parse_kernel_pcie(TXT("Jan 08 10:00:01 web1 kernel: ixgbe "
				"0000:03:00.0: 16.000 Gb/s available PCIe bandwidth, limited by "
				"5.0 GT/s PCIe x4 link at 0000:00:1c.0 (capa"), "0000:03:00.0", &k),
			 0);
	assert_true(k.limited);
	assert_string_equal(k.limited_at, "0000:00:1c.0");
	assert_int_equal(k.cap_width, 0);
	assert_true(!strncmp(k.words, "ixgbe 0000:03:00.0: 16.000", 26));
	/* dmesg -T's wall-clock timestamp (supportconfig's boot.txt runs it). */
	assert_int_equal(nd_parse_kernel_pcie(TXT("[Mon Jan  8 10:00:01 2024] igc 0000:01:00.0: "
				"4.000 Gb/s available PCIe bandwidth (5.0 GT/s PCIe x1 link)\n"),
				"0000:01:00.0", &k), 0);
	assert_string_equal(k.words, "igc 0000:01:00.0: 4.000 Gb/s available PCIe bandwidth "
			    "(5.0 GT/s PCIe x1 link)");
	/* pcie_print_link_status() prints "<unknown>" without a limiting device. */
	assert_int_equal(nd_parse_kernel_pcie(TXT("[ 1.0] mlx4_core 0000:05:00.0: 8.000 Gb/s "
				"available PCIe bandwidth, limited by 2.5 GT/s PCIe x4 link at <unknown> "
				"(capable of 63.008 Gb/s with 8.0 GT/s PCIe x8 link)"), "0000:05:00.0", &k),
			 0);
	assert_true(k.limited);
	assert_string_equal(k.limited_at, "");
	assert_int_equal(k.width, 4);
	assert_int_equal(k.cap_width, 8);
	assert_int_equal(nd_parse_kernel_pcie(TXT("16.000 Gb/s available PCIe bandwidth (5.0 GT/s "
						  "PCIe x4 link)"), "0000:03:00.0", &k), -ENOENT);
	assert_int_equal(nd_parse_kernel_pcie(TXT("x 0000:03:00.0: 1 Gb/s available PCIe bandwidth"
						  " (Unknown speed x4 link)"), "0000:03:00.0", &k),
			 -ENOENT);
	assert_int_equal(nd_parse_kernel_pcie(NULL, 0, "0000:03:00.0", &k), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dpkg),
		cmocka_unit_test(test_rpm),
		cmocka_unit_test(test_kernel_limited),
		cmocka_unit_test(test_kernel_unlimited),
		cmocka_unit_test(test_kernel_ixgbe),
		cmocka_unit_test(test_kernel_ixgbe_available),
		cmocka_unit_test(test_kernel_root_port_and_syslog),
		cmocka_unit_test(test_kernel_hostile),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
