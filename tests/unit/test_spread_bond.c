/*
 * test_spread_bond.c - bench --spread on a bond: which members can send,
 * when the source port chooses the member (a hashing mode, layer3+4), the
 * ports that cover the members, and the sentence the members' counters
 * make.  No bonding driver on the development machine: the bond is built
 * here as the probe would fill it.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../src/spread/bond_hash.h"
#include "nicdoctor/common.h"
#include "nicdoctor/facts.h"
#include "nicdoctor/spread.h"

static const uint8_t local[4] = { 10, 0, 0, 1 }, peer[4] = { 10, 0, 0, 2 };

static struct nd_bond *bond(const char *mode, const char *policy)
{
	struct nd_bond *b = calloc(1, sizeof(*b));
	const char *names[] = { "eth0", "eth1", "eth2", "eth3" };
	const char *mii[] = { "up", "up", "up", "down" };
	int agg[] = { 1, 1, 2, 1 };

	assert_non_null(b);
	b->st.known = b->is_bond = true;
	nd_strlcpy(b->mode, mode, sizeof(b->mode));
	nd_strlcpy(b->xmit_hash_policy, policy, sizeof(b->xmit_hash_policy));
	b->ad_info_known = true;
	b->ad_aggregator_id = 1;
	b->n_members = 4;
	for (int i = 0; i < 4; i++) {
		nd_strlcpy(b->members[i].name, names[i], sizeof(b->members[i].name));
		nd_strlcpy(b->members[i].mii_status, mii[i], sizeof(b->members[i].mii_status));
		b->members[i].aggregator_id = agg[i];
	}
	return b;
}

/* 802.3ad: eth2 is in another aggregator and eth3 down, so 2 members. */
static void test_lacp_layer34_placed(void **state)
{
	struct nd_bond *b = bond("802.3ad", "layer3+4");
	struct nd_spread_members *m = calloc(1, sizeof(*m));
	struct nd_bond_flow f = { .dst_port = 5201 };
	uint16_t ports[4];
	int members[4], per[2] = { 0 };

	(void)state;
	assert_int_equal(nd_spread_bond_plan(b, local, peer, 4, 5201, 40000, 40100, 4, ports,
					     members, m), 0);
	assert_true(m->bond && m->placed);
	assert_int_equal(m->n, 2);
	assert_string_equal(m->name[0], "eth0");
	assert_string_equal(m->name[1], "eth1");
	memcpy(f.src_addr, local, 4);
	memcpy(f.dst_addr, peer, 4);
	for (int i = 0; i < 4; i++) {
		unsigned idx;

		assert_true(ports[i] >= 40000 && ports[i] <= 40100);
		f.src_port = ports[i];
		assert_int_equal(nd_bond_hash_member(ND_BOND_HASH_LAYER34, 2, &f, &idx), 0);
		assert_int_equal((int)idx, members[i]);
		per[idx]++;
	}
	assert_int_equal(per[0], 2);
	assert_int_equal(per[1], 2);
	free(b);
	free(m);
}

static void test_not_placeable(void **state)
{
	struct nd_spread_members *m = calloc(1, sizeof(*m));
	struct nd_bond *b = bond("802.3ad", "layer2");
	uint16_t ports[4];
	int members[4];

	(void)state;
	assert_int_equal(nd_spread_bond_plan(b, local, peer, 4, 5201, 40000, 40100, 4, ports,
					     members, m), -EOPNOTSUPP);
	assert_true(m->bond && !m->placed);
	assert_non_null(strstr(m->why, "xmit_hash_policy layer3+4"));
	free(b);
	b = bond("active-backup", "layer3+4");
	assert_int_equal(nd_spread_bond_plan(b, local, peer, 4, 5201, 40000, 40100, 4, ports,
					     members, m), -EOPNOTSUPP);
	assert_non_null(strstr(m->why, "does not hash"));
	free(b);
	b = bond("balance-xor", "layer3+4");
	assert_int_equal(nd_spread_bond_plan(b, local, peer, 4, 5201, 0, 0, 4, ports, members,
					     m), -EOPNOTSUPP);
	assert_non_null(strstr(m->why, "no --cport range"));
	assert_int_equal(m->n, 3);	/* xor: every member up */
	b->is_bond = false;
	assert_int_equal(nd_spread_bond_plan(b, local, peer, 4, 5201, 40000, 40100, 4, ports,
					     members, m), -ENOENT);
	assert_false(m->bond);
	free(b);
	free(m);
}

static void test_sentence(void **state)
{
	struct nd_spread_members *m = calloc(1, sizeof(*m));
	char line[200];

	(void)state;
	nd_strlcpy(m->name[0], "eth0", sizeof(m->name[0]));
	nd_strlcpy(m->name[1], "eth1", sizeof(m->name[1]));
	m->sum.queues = 2;
	m->sum.flows = 4;
	m->sum.q[0].packets = 90000;
	m->sum.q[1].packets = 3;
	nd_spread_summarize(&m->sum);
	nd_spread_members_sentence(m, line, sizeof(line));
	assert_string_equal(line, "4 flows on 1 of 2 bond members: eth1 carried 3 packets");
	m->sum.q[1].packets = 80000;
	nd_spread_summarize(&m->sum);
	nd_spread_members_sentence(m, line, sizeof(line));
	assert_string_equal(line, "4 flows on 2 of 2 bond members");
	free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lacp_layer34_placed),
		cmocka_unit_test(test_not_placeable),
		cmocka_unit_test(test_sentence),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
