/*
 * test_route.c - does the route to a peer leave through the interface
 * diagnosed (src/facts/route.c): the route's device is the interface;
 * a bridge, a bond, a VLAN over a bond above it (an upper: accepted);
 * loopback and another port (refused), an address of this host (lo,
 * whichever interface holds it), the interface above the route's device
 * (a VLAN on the port the route takes is not that port's path); the
 * JSON and the sentence; and the kernel's own answer for 127.0.0.1.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "nicdoctor/common.h"
#include "nicdoctor/probe.h"
#include "nicdoctor/route.h"
#include "nicdoctor/sysroot.h"

static struct nd_route route_of(const char *dst, const char *dev, const char *via,
				const char *const *lowers)
{
	struct nd_route r;

	memset(&r, 0, sizeof(r));
	nd_strlcpy(r.dst, dst, sizeof(r.dst));
	nd_strlcpy(r.dev, dev, sizeof(r.dev));
	nd_strlcpy(r.via, via, sizeof(r.via));
	for (; lowers && *lowers; lowers++)
		nd_strlcpy(r.lowers[r.n_lowers++], *lowers, sizeof(r.lowers[0]));
	return r;
}

static void test_same_device(void **state)
{
	struct nd_route r = route_of("10.0.0.2", "eth0", "", NULL);

	(void)state;
	assert_int_equal(nd_route_fit(&r, "eth0"), ND_ROUTE_SAME);
	assert_true(nd_route_matches(&r, "eth0"));
	assert_int_equal(nd_route_fit(&r, "eth1"), ND_ROUTE_OTHER);
	assert_false(nd_route_matches(&r, "eth1"));
	/* a name that only starts the same is another device */
	assert_int_equal(nd_route_fit(&r, "eth"), ND_ROUTE_OTHER);
	assert_int_equal(nd_route_fit(&r, "eth00"), ND_ROUTE_OTHER);
}

static void test_uppers(void **state)
{
	static const char *const bridge[] = { "eth0", "veth3", NULL };
	static const char *const vlan_bond[] = { "bond0", "eth0", "eth1", NULL };
	struct nd_route br = route_of("10.0.0.2", "br0", "", bridge);
	struct nd_route vlan = route_of("10.1.0.9", "bond0.100", "10.1.0.1", vlan_bond);

	(void)state;
	assert_int_equal(nd_route_fit(&br, "eth0"), ND_ROUTE_UPPER);
	assert_int_equal(nd_route_fit(&br, "veth3"), ND_ROUTE_UPPER);
	assert_int_equal(nd_route_fit(&br, "br0"), ND_ROUTE_SAME);
	assert_int_equal(nd_route_fit(&br, "eth1"), ND_ROUTE_OTHER);
	/* every level down: the VLAN on the bond on the port */
	assert_int_equal(nd_route_fit(&vlan, "bond0"), ND_ROUTE_UPPER);
	assert_int_equal(nd_route_fit(&vlan, "eth1"), ND_ROUTE_UPPER);
	assert_int_equal(nd_route_fit(&vlan, "eth2"), ND_ROUTE_OTHER);
}

static void test_other_paths(void **state)
{
	struct nd_route lo = route_of("127.0.0.1", "lo", "", NULL);
	struct nd_route own = route_of("192.0.2.2", "lo", "", NULL);
	struct nd_route port = route_of("10.77.44.2", "eth1", "10.77.45.2", NULL);
	struct nd_route vlan_below = route_of("10.0.0.2", "eth0", "", NULL);

	(void)state;
	lo.local = own.local = true;
	assert_int_equal(nd_route_fit(&lo, "eth0"), ND_ROUTE_OTHER);
	assert_int_equal(nd_route_fit(&lo, "lo"), ND_ROUTE_SAME);
	/* this host's own address on eth0 goes over lo, not eth0 */
	assert_int_equal(nd_route_fit(&own, "eth0"), ND_ROUTE_OTHER);
	assert_int_equal(nd_route_fit(&port, "eth0"), ND_ROUTE_OTHER);
	/* eth0.100 sits above eth0: traffic on eth0 is untagged, not its */
	assert_int_equal(nd_route_fit(&vlan_below, "eth0.100"), ND_ROUTE_OTHER);
}

static void test_json(void **state)
{
	static const char *const bridge[] = { "eth0", NULL };
	struct nd_route br = route_of("10.0.0.2", "br0", "", bridge);
	struct nd_route port = route_of("10.77.44.2", "eth1", "10.77.45.2", NULL);
	cJSON *j;
	char *text;

	(void)state;
	nd_strlcpy(port.src, "10.77.45.1", sizeof(port.src));
	j = nd_route_json(&port, "eth0");
	text = cJSON_PrintUnformatted(j);
	assert_string_equal(text, "{\"dst\":\"10.77.44.2\",\"dev\":\"eth1\",\"via\":\"10.77.45.2\","
				  "\"src\":\"10.77.45.1\",\"matches\":false}");
	free(text);
	cJSON_Delete(j);
	j = nd_route_json(&br, "eth0");
	text = cJSON_PrintUnformatted(j);
	assert_string_equal(text, "{\"dst\":\"10.0.0.2\",\"dev\":\"br0\",\"via\":null,"
				  "\"src\":null,\"matches\":true}");
	free(text);
	cJSON_Delete(j);
}

static void test_describe(void **state)
{
	static const char *const bridge[] = { "eth0", NULL };
	struct nd_route br = route_of("10.0.0.2", "br0", "", bridge);
	struct nd_route port = route_of("10.77.44.2", "eth1", "10.77.45.2", NULL);
	struct nd_route lo = route_of("fe80::1%eth1", "eth1", "", NULL);
	char buf[200];

	(void)state;
	assert_string_equal(nd_route_describe(&port, "eth0", buf, sizeof(buf)),
			    "10.77.44.2 is reached through eth1 via 10.77.45.2, not eth0");
	assert_string_equal(nd_route_describe(&br, "eth0", buf, sizeof(buf)),
			    "10.0.0.2 is reached through br0 over eth0");
	assert_string_equal(nd_route_describe(&lo, "eth0", buf, sizeof(buf)),
			    "fe80::1%eth1 is reached through eth1, not eth0");
	assert_string_equal(nd_route_describe(&lo, "eth1", buf, sizeof(buf)),
			    "fe80::1%eth1 is reached through eth1");
}

/* The kernel's answer: 127.0.0.1 is local, over lo, from 127.0.0.1. */
static void test_probe_loopback(void **state)
{
	struct nd_route r;
	char why[200] = "";

	(void)state;
	assert_int_equal(nd_probe_route(&nd_root_live, "127.0.0.1", &r, why, sizeof(why)), 0);
	assert_string_equal(r.dst, "127.0.0.1");
	assert_string_equal(r.dev, "lo");
	assert_true(r.local);
	assert_string_equal(r.via, "");
	assert_int_equal(r.n_lowers, 0);
	assert_int_equal(nd_route_fit(&r, "lo"), ND_ROUTE_SAME);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_device),
		cmocka_unit_test(test_uppers),
		cmocka_unit_test(test_other_paths),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_describe),
		cmocka_unit_test(test_probe_loopback),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
