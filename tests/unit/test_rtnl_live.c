/*
 * test_rtnl_live.c - the netlink probes against the live loopback device.
 * Creates nothing; skips when rtnetlink is unavailable (a sandbox without
 * netlink) or lo has been reconfigured, since that is the host, not us.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "nicdoctor/probe.h"
#include "nicdoctor/sysroot.h"

static void test_lo_link(void **state)
{
	struct nd_facts *f = calloc(1, sizeof(*f));

	(void)state;
	assert_non_null(f);
	nd_probe_rtnl(&nd_root_live, "lo", f);
	if (!f->link.st.known || f->link.mtu != 65536) {
		free(f);
		skip();
	}
	assert_int_equal(f->link.ifindex, 1);
	assert_true(f->link.carrier);
	assert_string_equal(f->link.mac, "00:00:00:00:00:00");
	assert_true(f->link.rx_queues >= 1);
	assert_true(f->qdisc.st.known);
	assert_true(nd_probe_iface_exists(&nd_root_live, "lo"));
	assert_false(nd_probe_iface_exists(&nd_root_live, "ndnosuch0"));
	assert_false(nd_probe_iface_exists(&nd_root_live, "../lo"));
	free(f);
}

static void test_lo_ethtool(void **state)
{
	struct nd_facts *f = calloc(1, sizeof(*f));

	(void)state;
	assert_non_null(f);
	nd_probe_ethtool(&nd_root_live, "lo", f);
	if (!f->features.st.known) {
		free(f);
		skip();
	}
	/* Loopback has no rings; the reason must say so rather than be empty. */
	assert_false(f->rings.st.known);
	assert_true(strlen(f->rings.st.reason) > 0);
	assert_non_null(nd_facts_feature(f, "tx-checksum-ip-generic"));
	free(f);
}

static void test_missing_iface(void **state)
{
	struct nd_facts *f = calloc(1, sizeof(*f));

	(void)state;
	assert_non_null(f);
	nd_probe_rtnl(&nd_root_live, "ndnosuch0", f);
	assert_false(f->link.st.known);
	assert_non_null(strstr(f->link.st.reason, "rtnetlink: "));
	free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lo_link),
		cmocka_unit_test(test_lo_ethtool),
		cmocka_unit_test(test_missing_iface),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
