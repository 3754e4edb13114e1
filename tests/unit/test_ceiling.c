/*
 * test_ceiling.c - the ceiling model against the numbers in DESIGN.md and
 * the field cases.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "nicdoctor/ceiling.h"
#include "nicdoctor/facts.h"

static void assert_near(double got, double want, double tolerance)
{
	if (got < want - tolerance || got > want + tolerance)
		fail_msg("got %.3f, want %.3f +- %.3f", got, want, tolerance);
}

static void test_wire_goodput(void **state)
{
	(void)state;
	/* 10000 x 1448/1538 = 9414.8 */
	assert_near(nd_ceiling_wire_mbps(10000, 1500, ND_L4_TCP), 9414.8, 0.1);
	/* 10000 x 8948/9038 = 9900.4 */
	assert_near(nd_ceiling_wire_mbps(10000, 9000, ND_L4_TCP), 9900.4, 0.1);
	/* UDP: 10000 x 1472/1538 */
	assert_near(nd_ceiling_wire_mbps(10000, 1500, ND_L4_UDP), 9570.9, 0.1);
	assert_true(nd_ceiling_wire_mbps(-1, 1500, ND_L4_TCP) < 0);
	assert_true(nd_ceiling_wire_mbps(10000, 40, ND_L4_TCP) < 0);
}

/* The vxlan case: 1450 inside a 1500 lower at 10G carries about
 * 9090 Mbit/s, not the 9395 the vxlan's own MTU gives. */
static void test_encap(void **state)
{
	(void)state;
	assert_int_equal(nd_stack_encap_bytes("vlan", false), 4);
	assert_int_equal(nd_stack_encap_bytes("vxlan", false), 50);
	assert_int_equal(nd_stack_encap_bytes("vxlan", true), 70);
	assert_int_equal(nd_stack_encap_bytes("geneve", false), 50);
	assert_int_equal(nd_stack_encap_bytes("geneve", true), 70);
	assert_int_equal(nd_stack_encap_bytes("gre", false), 24);
	assert_int_equal(nd_stack_encap_bytes("gretap", false), 38);
	assert_int_equal(nd_stack_encap_bytes("bridge", false), 0);
	assert_int_equal(nd_stack_encap_bytes("macvlan", false), 0);
	assert_int_equal(nd_stack_encap_bytes("", false), 0);
	/* 10000 x (1450-52)/(1450+50+38) = 9089.7 */
	assert_near(nd_ceiling_wire_encap_mbps(10000, 1450, 50, ND_L4_TCP), 9089.7, 0.1);
	/* VLAN at 1G, MTU 1500: 1000 x 1448/1542 = 939.0 */
	assert_near(nd_ceiling_wire_encap_mbps(1000, 1500, 4, ND_L4_TCP), 939.0, 0.1);
	assert_near(nd_ceiling_wire_encap_mbps(10000, 1500, 0, ND_L4_TCP),
		    nd_ceiling_wire_mbps(10000, 1500, ND_L4_TCP), 1e-9);
	assert_true(nd_ceiling_wire_encap_mbps(-1, 1450, 50, ND_L4_TCP) < 0);
	assert_true(nd_stack_kind_virtual("bridge") && nd_stack_kind_virtual("vlan") &&
		    nd_stack_kind_virtual("veth") && nd_stack_kind_virtual("tun") &&
		    nd_stack_kind_virtual("bond") && nd_stack_kind_virtual("vxlan"));
	assert_false(nd_stack_kind_virtual(""));
}

static void test_lane_rates(void **state)
{
	(void)state;
	assert_near(nd_pcie_lane_gbps(2.5), 2.0, 1e-9);
	assert_near(nd_pcie_lane_gbps(5), 4.0, 1e-9);
	assert_near(nd_pcie_lane_gbps(8), 7.877, 0.001);
	assert_near(nd_pcie_lane_gbps(16), 15.754, 0.001);
	assert_near(nd_pcie_lane_gbps(32), 31.508, 0.001);
	assert_near(nd_pcie_lane_gbps(64), 60.5, 0.01);
	assert_true(nd_pcie_lane_gbps(0) == 0);
}

static void test_pcie_field_cases(void **state)
{
	(void)state;
	/* x1 at 5 GT/s, MPS 256: 4000 x 256/280 = 3657 Mbit/s (measured 3.55 Gbit/s). */
	assert_near(nd_ceiling_pcie_mbps(5, 1, 256), 3657.1, 0.1);
	/* x2 at 2.5 GT/s, MPS 128: 4000 x 128/152 = 3368 Mbit/s. */
	assert_near(nd_ceiling_pcie_mbps(2.5, 2, 128), 3368.4, 0.1);
	/* x16 at 16 GT/s, MPS 256: 16 x 15753.8 x 256/280 = 230455. */
	assert_near(nd_ceiling_pcie_mbps(16, 16, 256), 230455.4, 1.0);
	/* Unknown MPS is taken as 128. */
	assert_near(nd_ceiling_pcie_mbps(2.5, 2, 0), nd_ceiling_pcie_mbps(2.5, 2, 128), 1e-9);
	assert_true(nd_ceiling_pcie_mbps(0, 8, 256) < 0);
	assert_true(nd_ceiling_pcie_mbps(8, 0, 256) < 0);
}

static void test_window(void **state)
{
	(void)state;
	/* 212992 bytes (Debian rmem_max) over 0.5 ms = 3407.9 Mbit/s. */
	assert_near(nd_ceiling_window_mbps(212992, 500), 3407.9, 0.1);
	assert_true(nd_ceiling_window_mbps(0, 500) < 0);
	assert_true(nd_ceiling_window_mbps(65536, 0) < 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wire_goodput),
		cmocka_unit_test(test_encap),
		cmocka_unit_test(test_lane_rates),
		cmocka_unit_test(test_pcie_field_cases),
		cmocka_unit_test(test_window),
	};

	return cmocka_run_group_tests_name("ceiling", tests, NULL, NULL);
}
