/*
 * test_group.c - the ports-together verdict (src/experiment/group.c) on
 * recorded figures: the two sentences ("both ports together move
 * 19.6 Gbit/s, each alone 9.8: the slot carries both"; "together 14.2 of
 * 18.8: the x4 5GT/s slot caps the pair at 14.6"), the slot found from the
 * ports' PCI facts (one device, a trained-down link, a narrower bridge,
 * two cards), a together run above the ceiling, one below everything,
 * a failed run, and the verdict carried onto pcie.slot_too_slow.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "nicdoctor/common.h"
#include "nicdoctor/group.h"

#define WIRE_10G_MBPS 9414.8

static void card(struct nd_facts *f, const char *ifname, const char *address, double gts,
		 unsigned width, unsigned mps)
{
	memset(f, 0, sizeof(*f));
	nd_strlcpy(f->ifname, ifname, sizeof(f->ifname));
	f->pci.st.known = true;
	nd_strlcpy(f->pci.dev.address, address, sizeof(f->pci.dev.address));
	f->pci.dev.is_pcie = f->pci.dev.link_known = true;
	f->pci.dev.cap_gts = f->pci.dev.sta_gts = gts;
	f->pci.dev.cap_width = f->pci.dev.sta_width = width;
	f->pci.dev.mps_bytes = mps;
}

static struct nd_facts *facts_pair(const char *a1, const char *a2, double gts, unsigned width,
				   unsigned mps)
{
	struct nd_facts *f = calloc(2, sizeof(*f));

	assert_non_null(f);
	card(&f[0], "eth0", a1, gts, width, mps);
	card(&f[1], "eth1", a2, gts, width, mps);
	return f;
}

static void slot_of(struct nd_facts *f, struct nd_group *g)
{
	const struct nd_facts *list[2] = { &f[0], &f[1] };

	nd_group_slot_of(list, 2, 1, &g->slot);
}

static void ports(struct nd_group *g, double link, double alone0, double alone1,
		  double together0, double together1)
{
	g->n_ports = 2;
	for (unsigned i = 0; i < 2; i++) {
		snprintf(g->ports[i].ifname, sizeof(g->ports[i].ifname), "eth%u", i);
		g->ports[i].link_ceiling_mbps = link;
	}
	g->ports[0].alone_mbps = alone0;
	g->ports[1].alone_mbps = alone1;
	g->ports[0].together_mbps = together0;
	g->ports[1].together_mbps = together1;
	g->together_done = together0 >= 0 && together1 >= 0;
}

/* 5 GT/s x8, MPS 256: 29257 Mbit/s carries two 10G ports. */
static void test_slot_carries_both(void **state)
{
	struct nd_facts *f = facts_pair("0000:01:00.0", "0000:01:00.1", 5, 8, 256);
	struct nd_group g = { 0 };

	(void)state;
	slot_of(f, &g);
	assert_true(g.slot.shared);
	assert_string_equal(g.slot.device, "0000:01:00");
	assert_string_equal(g.slot.link, "x8 5GT/s slot");
	assert_true(g.slot.ceiling_mbps > 29256 && g.slot.ceiling_mbps < 29258);
	ports(&g, WIRE_10G_MBPS, 9790, 9800, 9790, 9790);
	nd_group_judge(&g);
	assert_int_equal(g.verdict, ND_VERDICT_REFUTED);
	assert_string_equal(g.reason, "both ports together move 19.6 Gbit/s, each alone 9.8: "
			    "the slot carries both, its ceiling 29.3 on the x8 5GT/s slot");
	free(f);
}

/* 5 GT/s x4, MPS 256: 4 x 4000 x 256/280 = 14629 for 2 x 9415. */
static void test_slot_caps_the_pair(void **state)
{
	struct nd_facts *f = facts_pair("0000:03:00.0", "0000:03:00.1", 5, 4, 256);
	struct nd_group g = { 0 };

	(void)state;
	slot_of(f, &g);
	ports(&g, WIRE_10G_MBPS, 9400, 9380, 7150, 7050);
	nd_group_judge(&g);
	assert_int_equal(g.verdict, ND_VERDICT_CONFIRMED);
	assert_string_equal(g.reason, "together 14.2 of 18.8 Gbit/s: the x4 5GT/s slot caps the "
			    "pair at 14.6 (each alone 9.4)");
	free(f);
}

/* Measuring more than the slot can carry refutes the math's suspect. */
static void test_above_the_slot(void **state)
{
	struct nd_facts *f = facts_pair("0000:03:00.0", "0000:03:00.1", 5, 4, 256);
	struct nd_group g = { 0 };

	(void)state;
	slot_of(f, &g);
	ports(&g, WIRE_10G_MBPS, 9400, 9400, 9000, 9000);
	nd_group_judge(&g);
	assert_int_equal(g.verdict, ND_VERDICT_REFUTED);
	assert_non_null(strstr(g.reason, "above the ceiling 14.6 of the x4 5GT/s slot"));
	free(f);
}

/* Below both the slot and the ports alone: something else shared. */
static void test_below_everything(void **state)
{
	struct nd_facts *f = facts_pair("0000:03:00.0", "0000:03:00.1", 5, 4, 256);
	struct nd_group g = { 0 };

	(void)state;
	slot_of(f, &g);
	ports(&g, WIRE_10G_MBPS, 9400, 9400, 4000, 4000);
	nd_group_judge(&g);
	assert_int_equal(g.verdict, ND_VERDICT_INCONCLUSIVE);
	assert_non_null(strstr(g.reason, "something else the ports share"));
	free(f);
}

/* A link trained down carries what it runs at; a narrower bridge wins. */
static void test_trained_down_and_bridge(void **state)
{
	struct nd_facts *f = facts_pair("0000:01:00.0", "0000:01:00.1", 5, 8, 128);
	struct nd_group g = { 0 };

	(void)state;
	for (int i = 0; i < 2; i++) {
		f[i].pci.dev.sta_gts = 2.5;
		f[i].pci.dev.sta_width = 2;
	}
	slot_of(f, &g);
	assert_string_equal(g.slot.link, "x2 2.5GT/s link (trained down from x8 5GT/s)");
	assert_true(g.slot.ceiling_mbps > 3368 && g.slot.ceiling_mbps < 3369);
	f[0].pci.dev.sta_gts = 5;
	f[0].pci.dev.sta_width = 8;
	f[0].pci.n_upstream = 2;
	f[0].pci.upstream[0].is_pcie = f[0].pci.upstream[0].link_known = true;
	f[0].pci.upstream[0].cap_gts = 5;
	f[0].pci.upstream[0].cap_width = 8;
	f[0].pci.upstream[1].is_pcie = f[0].pci.upstream[1].link_known = true;
	nd_strlcpy(f[0].pci.upstream[1].address, "0000:00:1c.0",
		   sizeof(f[0].pci.upstream[1].address));
	f[0].pci.upstream[1].cap_gts = f[0].pci.upstream[1].sta_gts = 5;
	f[0].pci.upstream[1].cap_width = f[0].pci.upstream[1].sta_width = 4;
	slot_of(f, &g);
	assert_string_equal(g.slot.link, "x4 5GT/s bridge 0000:00:1c.0");
	free(f);
}

/* Two cards share no slot: no verdict, and the finding keeps its own. */
static void test_two_cards(void **state)
{
	struct nd_facts *f = facts_pair("0000:01:00.0", "0000:02:00.0", 5, 4, 256);
	struct nd_group g = { 0 };
	struct nd_finding slot = { .id = "pcie.slot_too_slow", .severity = ND_SEV_WARNING,
				   .verdict = ND_VERDICT_REFUTED };

	(void)state;
	slot_of(f, &g);
	assert_false(g.slot.shared);
	assert_string_equal(g.slot.why_not,
			    "eth0 is on 0000:01:00.0, eth1 on 0000:02:00.0: not one card");
	ports(&g, WIRE_10G_MBPS, 9400, 9400, 7000, 7000);
	nd_group_judge(&g);
	assert_int_equal(g.verdict, ND_VERDICT_UNTESTED);
	nd_group_apply(&g, &slot, 1);
	assert_int_equal(slot.verdict, ND_VERDICT_REFUTED);
	assert_null(slot.experiment);
	free(f);
}

/* A failed together run leaves the slot untested, saying why. */
static void test_together_failed(void **state)
{
	struct nd_facts *f = facts_pair("0000:03:00.0", "0000:03:00.1", 5, 4, 256);
	struct nd_group g = { 0 };

	(void)state;
	slot_of(f, &g);
	ports(&g, WIRE_10G_MBPS, 9400, 9400, 7000, -1);
	nd_strlcpy(g.error, "the together run on 'eth1' failed: connection refused",
		   sizeof(g.error));
	nd_group_judge(&g);
	assert_int_equal(g.verdict, ND_VERDICT_UNTESTED);
	assert_string_equal(g.reason, "no slot verdict: the together run on 'eth1' failed: "
			    "connection refused");
	free(f);
}

/* The verdict lands on a suspect pcie.slot_too_slow with its numbers;
 * the port's own ceiling is its lowest wire or shaping one. */
static void test_apply_and_port_ceiling(void **state)
{
	struct nd_facts *f = facts_pair("0000:03:00.0", "0000:03:00.1", 5, 4, 256);
	/* each port alone refuted the slot (info by that verdict) */
	struct nd_finding fs[3] = {
		{ .id = "pcie.slot_too_slow", .severity = ND_SEV_INFO, .ceiling_mbps = 7314,
		  .ceiling_source = "pcie", .verdict = ND_VERDICT_REFUTED,
		  .severity_by_verdict = true, .severity_before_verdict = ND_SEV_WARNING },
		{ .id = "qdisc.rate_limit", .severity = ND_SEV_WARNING, .ceiling_mbps = 8000,
		  .ceiling_source = "shaping" },
		{ .id = "link.speed_below_max", .severity = ND_SEV_OK,
		  .ceiling_mbps = WIRE_10G_MBPS, .ceiling_source = "wire" },
	};
	struct nd_group g = { 0 };
	const cJSON *e;
	cJSON *doc;

	(void)state;
	nd_group_port_ceiling(fs, 3, &g.ports[0]);
	assert_true(g.ports[0].link_ceiling_mbps == 8000);
	assert_string_equal(g.ports[0].link_ceiling_source, "shaping");
	slot_of(f, &g);
	ports(&g, WIRE_10G_MBPS, 9400, 9380, 7150, 7050);
	nd_group_judge(&g);
	nd_group_apply(&g, fs, 3);
	assert_int_equal(fs[0].verdict, ND_VERDICT_CONFIRMED);
	/* together they confirm it: the check's warning again */
	assert_int_equal(fs[0].severity, ND_SEV_WARNING);
	assert_false(fs[0].severity_by_verdict);
	e = cJSON_GetObjectItem(fs[0].experiment, "measured_mbps");
	assert_true(cJSON_IsNumber(e) && e->valuedouble == 14200);
	assert_int_equal(fs[1].verdict, ND_VERDICT_UNTESTED);
	doc = nd_group_json(&g);
	assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "verdict"),
						"verdict")->valuestring, "confirmed");
	assert_true(cJSON_GetObjectItem(doc, "links_ceiling_mbps")->valuedouble == 18829.6);
	cJSON_Delete(doc);
	/* a peer by IPv6 address is printed as --peer takes it back */
	strcpy(g.ports[0].host, "fd00:10::2");
	g.ports[0].port = 5202;
	strcpy(g.ports[1].host, "10.0.2.2");
	g.ports[1].port = 0;
	doc = nd_group_json(&g);
	assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "ports"),
								   0), "peer")->valuestring,
			    "[fd00:10::2]:5202");
	assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "ports"),
								   1), "peer")->valuestring,
			    "10.0.2.2:5201");
	cJSON_Delete(doc);
	cJSON_Delete(fs[0].experiment);
	free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_slot_carries_both),
		cmocka_unit_test(test_slot_caps_the_pair),
		cmocka_unit_test(test_above_the_slot),
		cmocka_unit_test(test_below_everything),
		cmocka_unit_test(test_trained_down_and_bridge),
		cmocka_unit_test(test_two_cards),
		cmocka_unit_test(test_together_failed),
		cmocka_unit_test(test_apply_and_port_ceiling),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
