/*
 * test_multi_targets.c - what `bench -c HOST1,HOST2:PORT -p FIRST-LAST` and
 * `serve -p FIRST-LAST` name (src/engine/targets.c): a host with its own
 * port is one target, every other host one per port of -p; IPv6 with and
 * without brackets; bad ports and ranges, and too many targets, refused
 * with a reason.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "nicdoctor/multi.h"

static void test_hosts_and_ports(void **state)
{
	struct nd_targets tg;
	char err[200];

	(void)state;
	assert_int_equal(nd_targets_parse("a", NULL, &tg, err, sizeof(err)), 0);
	assert_int_equal(tg.count, 1);
	assert_string_equal(tg.t[0].host, "a");
	assert_int_equal(tg.t[0].port, 0);	/* the engine's 5201 */

	/* A range applies to every host that has no port of its own. */
	assert_int_equal(nd_targets_parse("a,b:5202,c", "5301-5303", &tg, err, sizeof(err)), 0);
	assert_int_equal(tg.count, 7);
	assert_string_equal(tg.t[0].host, "a");
	assert_int_equal(tg.t[0].port, 5301);
	assert_int_equal(tg.t[2].port, 5303);
	assert_string_equal(tg.t[3].host, "b");
	assert_int_equal(tg.t[3].port, 5202);
	assert_string_equal(tg.t[6].host, "c");
	assert_int_equal(tg.t[6].port, 5303);

	assert_int_equal(nd_targets_parse("h", "5201,5205-5206", &tg, err, sizeof(err)), 0);
	assert_int_equal(tg.count, 3);
	assert_int_equal(tg.t[1].port, 5205);
}

static void test_ipv6(void **state)
{
	struct nd_targets tg;
	char err[200];

	(void)state;
	assert_int_equal(nd_targets_parse("::1,[fe80::1%veth0]:5301,[::2]", "5201", &tg, err,
					  sizeof(err)), 0);
	assert_int_equal(tg.count, 3);
	assert_string_equal(tg.t[0].host, "::1");
	assert_int_equal(tg.t[0].port, 5201);
	assert_string_equal(tg.t[1].host, "fe80::1%veth0");
	assert_int_equal(tg.t[1].port, 5301);
	assert_string_equal(tg.t[2].host, "::2");
	assert_int_equal(tg.t[2].port, 5201);
}

static void bad(const char *hosts, const char *ports, int want, const char *msg)
{
	struct nd_targets tg;
	char err[200] = "";

	assert_int_equal(nd_targets_parse(hosts, ports, &tg, err, sizeof(err)), want);
	assert_non_null(strstr(err, msg));
	assert_null(strchr(err, '\n'));
}

static void test_bad(void **state)
{
	(void)state;
	bad("a", "5204-5201", -EINVAL, "invalid port range '5204-5201': the first port is above");
	bad("a", "0", -EINVAL, "invalid port '0'");
	bad("a", "70000", -EINVAL, "invalid port '70000'");
	bad("a", "5201-", -EINVAL, "invalid port '5201-'");
	bad("a", "-5201", -EINVAL, "invalid port '-5201'");
	bad("a", "", -EINVAL, "invalid port ''");
	bad("a", "5201,,5202", -EINVAL, "invalid port ''");
	bad("a:0", NULL, -EINVAL, "invalid target 'a:0'");
	bad("a:x", NULL, -EINVAL, "invalid target 'a:x'");
	bad("a,,b", NULL, -EINVAL, "invalid target ''");
	bad("[::1", NULL, -EINVAL, "invalid target '[::1'");
	bad("[::1]x", NULL, -EINVAL, "invalid target '[::1]x'");
	bad(":5201", NULL, -EINVAL, "invalid target ':5201'");
	bad("a", "5201-5217", -E2BIG, "too many targets");
	bad("a,b", "5201-5209", -E2BIG, "too many targets: 18, at most 16");
	bad("a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q", NULL, -E2BIG, "too many targets: 17");
}

/* Leaves non-zero bytes where the next call's locals will be. */
static __attribute__((noinline)) void dirty_stack(void)
{
	volatile char junk[8192];

	for (size_t i = 0; i < sizeof(junk); i++)
		junk[i] = 'x';
}

/* No -B anywhere: every target's bind is "", whatever the stack held
 * (multi.c binds to a non-empty one). */
static void test_no_binds(void **state)
{
	struct nd_targets tg;
	char err[200];

	(void)state;
	dirty_stack();
	assert_int_equal(nd_targets_parse("a,b:5202,c", "5201-5202", &tg, err, sizeof(err)), 0);
	assert_int_equal(tg.count, 5);
	assert_int_equal(nd_targets_set_binds(&tg, NULL, err, sizeof(err)), 0);
	for (int i = 0; i < tg.count; i++)
		assert_string_equal(tg.t[i].bind, "");
}

static void test_binds(void **state)
{
	struct nd_targets tg;
	char err[200];

	(void)state;
	assert_int_equal(nd_targets_parse("a,b", "5201", &tg, err, sizeof(err)), 0);
	assert_int_equal(nd_targets_set_binds(&tg, "10.0.0.1", err, sizeof(err)), 0);
	assert_string_equal(tg.t[0].bind, "");	/* the run's -B for all */
	assert_int_equal(nd_targets_set_binds(&tg, "10.0.0.1,10.0.1.1", err, sizeof(err)), 0);
	assert_string_equal(tg.t[0].bind, "10.0.0.1");
	assert_string_equal(tg.t[1].bind, "10.0.1.1");
	assert_int_equal(nd_targets_set_binds(&tg, "x,y,z", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "one address per target (2)"));
	assert_int_equal(nd_targets_set_binds(&tg, "x,", err, sizeof(err)), -EINVAL);
	assert_int_equal(nd_targets_set_binds(&tg, ",y", err, sizeof(err)), -EINVAL);
}

static void test_ports(void **state)
{
	uint16_t p[64];
	char err[200];
	int n = 0;

	(void)state;
	assert_int_equal(nd_ports_parse("5801-5864", p, 64, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 64);
	assert_int_equal(p[63], 5864);
	assert_int_equal(nd_ports_parse("5801-5865", p, 64, &n, err, sizeof(err)), -E2BIG);
	assert_non_null(strstr(err, "at most 64"));
	assert_int_equal(nd_ports_parse("65535", p, 64, &n, err, sizeof(err)), 0);
	assert_int_equal(p[0], 65535);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hosts_and_ports),
		cmocka_unit_test(test_ipv6),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_no_binds),
		cmocka_unit_test(test_binds),
		cmocka_unit_test(test_ports),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
