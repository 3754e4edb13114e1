/*
 * test_bond_hash.c - the bonding transmit hash (src/bond_hash.c) on
 * vectors computed by hand from the kernel's formula (bond_main.c,
 * gregkh/linux@00ed3c3ade69) for a little-endian host, where the header's
 * bytes loaded into a u32 come out byte-swapped:
 *
 * layer3+4, 10.0.0.1:40000 -> 10.0.0.2:5201
 *   ports 9c 40 14 51 -> 0x5114409c; saddr ^ daddr = 0x0100000a ^ 0x0200000a
 *   = 0x03000000 -> 0x5214409c; ^= >> 16 -> 0x52141288; ^= >> 8 ->
 *   0x5246069a; >> 1 -> 0x2923034d: member 1 of 2, 0 of 3, 1 of 4.
 *   Port 40001 -> 0x292303cd (same members: the source port's lowest bit
 *   is the bit >> 1 drops); 40002 -> 0x2923024c: member 0 of 2, 0 of 4;
 *   40004 -> 0x2923014f: 3 of 4; 40006 -> 0x2923004e: 2 of 4.
 * layer2, MACs ending 01 and 02, IPv4: 0x01 ^ 0x02 ^ 0x0800 = 0x0803:
 *   member 1 of 2, 2 of 3; IPv6 (0x86dd): 0x86de, member 0 of 2.
 * layer2+3, same MACs and addresses: 0x0803 ^ 0x03000000 = 0x03000803;
 *   ^= >> 16 -> 0x03000b03; ^= >> 8 -> 0x03030b08 (no >> 1): member 0 of 2,
 *   1 of 3 (hex digit sum 25).
 * IPv6 2001:db8::1 -> 2001:db8::2: each address's four words XORed,
 *   0xb90d0120 ^ 0xba0d0120 = 0x03000000, as for the IPv4 pair: the same
 *   layer3+4 hash 0x2923034d.
 * vlan+srcmac, 52:54:00:12:34:56 VLAN 100: 0x525400 ^ 0x123456 = 0x406056, ^ 0x64 =
 *   0x406032: member 0 of 2, 0 of 3 (digit sum 15).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../../src/spread/bond_hash.h"

static struct nd_bond_flow flow4(uint16_t sport)
{
	struct nd_bond_flow f = {
		.src_mac = { 0x52, 0x54, 0x00, 0x00, 0x00, 0x01 },
		.dst_mac = { 0x52, 0x54, 0x00, 0x00, 0x00, 0x02 },
		.src_addr = { 10, 0, 0, 1 }, .dst_addr = { 10, 0, 0, 2 },
		.src_port = sport, .dst_port = 5201,
	};

	return f;
}

static unsigned member(enum nd_bond_hash_policy p, unsigned n, const struct nd_bond_flow *f)
{
	unsigned idx = 99;

	assert_int_equal(nd_bond_hash_member(p, n, f, &idx), 0);
	return idx;
}

static uint32_t hash(enum nd_bond_hash_policy p, const struct nd_bond_flow *f)
{
	uint32_t h = 0;

	assert_int_equal(nd_bond_hash(p, f, &h), 0);
	return h;
}

static void test_policy_names(void **state)
{
	enum nd_bond_hash_policy p;

	(void)state;
	assert_int_equal(nd_bond_hash_policy_parse("layer3+4", &p), 0);
	assert_int_equal(p, ND_BOND_HASH_LAYER34);
	assert_int_equal(nd_bond_hash_policy_parse("vlan+srcmac", &p), 0);
	assert_int_equal(p, 5);
	assert_int_equal(nd_bond_hash_policy_parse("layer2", &p), 0);
	assert_int_equal(p, 0);
	assert_int_equal(nd_bond_hash_policy_parse("layer3", &p), -EINVAL);
	assert_int_equal(nd_bond_hash_policy_parse(NULL, &p), -EINVAL);
}

static void test_layer34(void **state)
{
	struct nd_bond_flow f = flow4(40000);

	(void)state;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	assert_int_equal(hash(ND_BOND_HASH_LAYER34, &f), 0x2923034d);
	assert_int_equal(member(ND_BOND_HASH_LAYER34, 2, &f), 1);
	assert_int_equal(member(ND_BOND_HASH_LAYER34, 3, &f), 0);
	assert_int_equal(member(ND_BOND_HASH_LAYER34, 4, &f), 1);
	f.src_port = 40001;
	assert_int_equal(hash(ND_BOND_HASH_LAYER34, &f), 0x292303cd);
	assert_int_equal(member(ND_BOND_HASH_LAYER34, 2, &f), 1);
	f.src_port = 40002;
	assert_int_equal(hash(ND_BOND_HASH_LAYER34, &f), 0x2923024c);
	assert_int_equal(member(ND_BOND_HASH_LAYER34, 2, &f), 0);
	f.src_port = 40004;
	assert_int_equal(hash(ND_BOND_HASH_LAYER34, &f), 0x2923014f);
	assert_int_equal(member(ND_BOND_HASH_LAYER34, 4, &f), 3);
#else
	skip();
#endif
}

static void test_layer2_and_23(void **state)
{
	struct nd_bond_flow f = flow4(40000), g = flow4(40002);

	(void)state;
	assert_int_equal(hash(ND_BOND_HASH_LAYER2, &f), 0x0803);
	assert_int_equal(member(ND_BOND_HASH_LAYER2, 2, &f), 1);
	assert_int_equal(member(ND_BOND_HASH_LAYER2, 3, &f), 2);
	/* one peer: every flow on the same member, whatever its ports */
	assert_int_equal(member(ND_BOND_HASH_LAYER2, 2, &g), 1);
	assert_int_equal(member(ND_BOND_HASH_LAYER23, 2, &g), member(ND_BOND_HASH_LAYER23, 2, &f));
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	assert_int_equal(hash(ND_BOND_HASH_LAYER23, &f), 0x03030b08);
	assert_int_equal(member(ND_BOND_HASH_LAYER23, 2, &f), 0);
	assert_int_equal(member(ND_BOND_HASH_LAYER23, 3, &f), 1);
	assert_int_equal(hash(ND_BOND_HASH_ENCAP23, &f), 0x03030b08);
#endif
	f.ipv6 = true;
	assert_int_equal(hash(ND_BOND_HASH_LAYER2, &f), 0x86de);
	assert_int_equal(member(ND_BOND_HASH_LAYER2, 2, &f), 0);
}

static void test_ipv6(void **state)
{
	static const uint8_t a[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 };
	static const uint8_t b[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 2 };
	struct nd_bond_flow f = flow4(40000);

	(void)state;
	f.ipv6 = true;
	memcpy(f.src_addr, a, 16);
	memcpy(f.dst_addr, b, 16);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	assert_int_equal(hash(ND_BOND_HASH_LAYER34, &f), 0x2923034d);
#endif
	f.src_addr[5] = 0x99;	/* one address word differs: another hash */
	assert_int_not_equal(hash(ND_BOND_HASH_LAYER34, &f), 0x2923034d);
}

static void test_vlan_srcmac_and_encap34(void **state)
{
	struct nd_bond_flow f = flow4(40000);
	static const uint8_t mac[6] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 };
	unsigned idx = 7;
	uint32_t h = 7;

	(void)state;
	memcpy(f.src_mac, mac, 6);
	f.vlan_id = 100;
	assert_int_equal(hash(ND_BOND_HASH_VLAN_SRCMAC, &f), 0x406032);
	assert_int_equal(member(ND_BOND_HASH_VLAN_SRCMAC, 2, &f), 0);
	assert_int_equal(member(ND_BOND_HASH_VLAN_SRCMAC, 3, &f), 0);
	f.vlan_id = 101;	/* 0x406033: the VLAN moves it */
	assert_int_equal(member(ND_BOND_HASH_VLAN_SRCMAC, 2, &f), 1);
	assert_int_equal(nd_bond_hash(ND_BOND_HASH_ENCAP34, &f, &h), -EOPNOTSUPP);
	assert_int_equal(h, 7);
	assert_int_equal(nd_bond_hash_member(ND_BOND_HASH_ENCAP34, 2, &f, &idx), -EOPNOTSUPP);
	assert_int_equal(nd_bond_hash_member(ND_BOND_HASH_LAYER2, 0, &f, &idx), -EINVAL);
	assert_int_equal(idx, 7);
}

static void test_pick_ports(void **state)
{
	struct nd_bond_flow f = flow4(0);
	uint16_t ports[8] = { 0 };
	unsigned covered = 0, seen = 0;

	(void)state;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* 2 members from 40000: 40000 is on member 1, 40002 the first on 0 */
	assert_int_equal(nd_bond_hash_pick_ports(2, &f, 40000, 40100, 2, ports, &covered), 0);
	assert_int_equal(ports[0], 40000);
	assert_int_equal(ports[1], 40002);
	assert_int_equal(covered, 2);
	assert_int_equal(nd_bond_hash_pick_ports(4, &f, 40000, 40100, 4, ports, &covered), 0);
	assert_int_equal(ports[0], 40000);
	assert_int_equal(ports[1], 40002);
	assert_int_equal(ports[2], 40004);
	assert_int_equal(ports[3], 40006);
	assert_int_equal(covered, 4);
#endif
	/* 8 flows over 3 members: 3, 3 and 2 flows, ports distinct */
	assert_int_equal(nd_bond_hash_pick_ports(3, &f, 5300, 5400, 8, ports, &covered), 0);
	assert_int_equal(covered, 3);
	{
		unsigned per[3] = { 0 };

		for (unsigned i = 0; i < 8; i++) {
			f.src_port = ports[i];
			per[member(ND_BOND_HASH_LAYER34, 3, &f)]++;
			seen |= 1u << member(ND_BOND_HASH_LAYER34, 3, &f);
			for (unsigned j = 0; j < i; j++)
				assert_int_not_equal(ports[i], ports[j]);
		}
		for (unsigned m = 0; m < 3; m++)
			assert_true(per[m] == 2 || per[m] == 3);
	}
	assert_int_equal(seen, 7);
	/* one port cannot reach two members; ret_* untouched */
	ports[0] = 1;
	covered = 9;
	assert_int_equal(nd_bond_hash_pick_ports(2, &f, 40000, 40000, 2, ports, &covered), -ERANGE);
	assert_int_equal(ports[0], 1);
	assert_int_equal(covered, 9);
	assert_int_equal(nd_bond_hash_pick_ports(2, &f, 40010, 40000, 1, ports, &covered), -EINVAL);
	assert_int_equal(nd_bond_hash_pick_ports(0, &f, 40000, 40010, 1, ports, &covered), -EINVAL);
	assert_int_equal(nd_bond_hash_pick_ports(2, &f, 40000, 40010, 0, ports, &covered), -EINVAL);
	/* the range's end at 65535 terminates */
	assert_int_equal(nd_bond_hash_pick_ports(2, &f, 65530, 65535, 2, ports, &covered), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_policy_names),
		cmocka_unit_test(test_layer34),
		cmocka_unit_test(test_layer2_and_23),
		cmocka_unit_test(test_ipv6),
		cmocka_unit_test(test_vlan_srcmac_and_encap34),
		cmocka_unit_test(test_pick_ports),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
