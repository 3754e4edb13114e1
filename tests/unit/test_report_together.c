/*
 * test_report_together.c - the report of `diagnose IF1,IF2 --peer H1,H2`
 * (src/report/together.c): JSON keeps the first port's report with every
 * key as for one port and adds other_ports and together; text prints each
 * report, then "Ports together" with the verdict, a line per port and the
 * slot.
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
#include "nicdoctor/diagnose.h"
#include "nicdoctor/report.h"

struct fixture {
	struct nd_facts *facts[2];
	struct nd_report reports[2];
	struct nd_group g;
	cJSON *together;
};

static struct nd_facts *port_facts(const char *ifname, const char *address)
{
	struct nd_facts *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	nd_strlcpy(f->ifname, ifname, sizeof(f->ifname));
	strcpy(f->hostname, "db1.example.com");
	f->pci.st.known = true;
	nd_strlcpy(f->pci.dev.address, address, sizeof(f->pci.dev.address));
	f->pci.dev.is_pcie = f->pci.dev.link_known = true;
	f->pci.dev.cap_gts = f->pci.dev.sta_gts = 5;
	f->pci.dev.cap_width = f->pci.dev.sta_width = 4;
	f->pci.dev.mps_bytes = 256;
	return f;
}

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	const struct nd_facts *list[2];
	struct nd_group g = { .n_ports = 2, .together_done = true, .together_sec = 2 };

	assert_non_null(fx);
	fx->facts[0] = port_facts("eth0", "0000:03:00.0");
	fx->facts[1] = port_facts("eth1", "0000:03:00.1");
	for (int i = 0; i < 2; i++) {
		assert_int_equal(nd_diagnose_judge(&fx->reports[i], fx->facts[i], NULL, NULL, NULL), 0);
		list[i] = fx->facts[i];
		snprintf(g.ports[i].ifname, sizeof(g.ports[i].ifname), "eth%d", i);
		snprintf(g.ports[i].host, sizeof(g.ports[i].host), "10.0.%d.2", i + 1);
		g.ports[i].port = (uint16_t)(5201 + i);
		g.ports[i].link_ceiling_mbps = 9414.8;
		nd_strlcpy(g.ports[i].link_ceiling_source, "wire",
			   sizeof(g.ports[i].link_ceiling_source));
		g.ports[i].streams = 4;
		g.ports[i].alone_mbps = 9400;
		g.ports[i].together_mbps = 7100;
	}
	nd_group_slot_of(list, 2, 1, &g.slot);
	nd_group_judge(&g);
	fx->together = nd_group_json(&g);
	fx->g = g;
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;

	for (int i = 0; i < 2; i++) {
		nd_report_free(&fx->reports[i]);
		free(fx->facts[i]);
	}
	cJSON_Delete(fx->together);
	free(fx);
	return 0;
}

static char *render(struct fixture *fx, enum nd_format format)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	assert_non_null(out);
	assert_int_equal(nd_render_ports(fx->reports, 2, fx->together, format, out), 0);
	fclose(out);
	return text;
}

static void test_json(void **state)
{
	struct fixture *fx = *state;
	char *text = render(fx, ND_FORMAT_JSON);
	cJSON *doc = cJSON_Parse(text), *single = nd_report_to_json(&fx->reports[0]);
	const cJSON *key, *others, *t;

	assert_non_null(doc);
	/* every key of the one-port report, with its value's kind */
	cJSON_ArrayForEach(key, single)
		assert_non_null(cJSON_GetObjectItemCaseSensitive(doc, key->string));
	assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "interface"),
						"name")->valuestring, "eth0");
	others = cJSON_GetObjectItem(doc, "other_ports");
	assert_int_equal(cJSON_GetArraySize(others), 1);
	assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetArrayItem(others, 0),
								     "interface"), "name")->valuestring,
			    "eth1");
	t = cJSON_GetObjectItem(doc, "together");
	assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(t, "verdict"),
						"verdict")->valuestring, "confirmed");
	assert_true(cJSON_GetObjectItem(t, "together_mbps")->valuedouble == 14200);
	assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(t, "ports"),
								   1), "peer")->valuestring,
			    "10.0.2.2:5202");
	cJSON_Delete(single);
	cJSON_Delete(doc);
	free(text);
}

static void test_text(void **state)
{
	struct fixture *fx = *state;
	char *text = render(fx, ND_FORMAT_TEXT);
	const char *section = strstr(text, "\nPorts together\n");

	assert_non_null(strstr(text, "eth0"));
	assert_non_null(strstr(text, "eth1"));
	assert_non_null(section);
	assert_string_equal(section,
			    "\nPorts together\n"
			    "    pcie.slot_too_slow: confirmed\n"
			    "    together 14.2 of 18.8 Gbit/s: the x4 5GT/s slot caps the pair at "
			    "14.6 (each alone 9.4)\n"
			    "    eth0 -> 10.0.1.2:5201: alone 9400, together 7100 Mbit/s (own ceiling "
			    "9415, wire)\n"
			    "    eth1 -> 10.0.2.2:5202: alone 9400, together 7100 Mbit/s (own ceiling "
			    "9415, wire)\n"
			    "    sum together 14200 Mbit/s over 2 s, one clock\n"
			    "    slot: device 0000:03:00, x4 5GT/s slot, ceiling 14629 Mbit/s\n");
	free(text);
}

/* Each port alone reached its wire; together the slot capped them: the
 * port's headline says both, and only once the together run confirmed it. */
static void test_headline(void **state)
{
	struct fixture *fx = *state;
	const char *alone = "Bottleneck: none below the wire: line rate reached\n";
	const char *pair = "Bottleneck together: pcie.slot_too_slow, confirmed (see Ports "
			   "together)\n";
	char *text;

	for (int i = 0; i < 2; i++) {
		struct nd_finding f = { .id = "pcie.slot_too_slow", .severity = ND_SEV_WARNING,
					.ceiling_mbps = 14629, .ceiling_source = "pcie" };

		nd_strlcpy(f.title, "the slot's 14629 Mbit/s is below both ports' 18830",
			   sizeof(f.title));
		assert_int_equal(nd_report_add_finding(&fx->reports[i], &f), 0);
		fx->reports[i].throughput = cJSON_Parse(
			"{\"mode\": \"peer\", \"peer\": \"10.0.1.2\", \"wire_ceiling_mbps\": "
			"9414.8, \"measured_mbps\": 9400, \"at_wire\": true, \"bottleneck\": null, "
			"\"runs\": [], \"trials\": []}");
		assert_non_null(fx->reports[i].throughput);
	}
	text = render(fx, ND_FORMAT_TEXT);
	assert_non_null(strstr(text, alone));
	assert_null(strstr(text, pair));
	free(text);
	for (int i = 0; i < 2; i++)
		nd_group_apply(&fx->g, fx->reports[i].findings, fx->reports[i].n_findings);
	text = render(fx, ND_FORMAT_TEXT);
	/* once per port, under its own headline */
	assert_non_null(strstr(text, alone));
	assert_non_null(strstr(strstr(text, alone), pair));
	assert_non_null(strstr(strstr(strstr(text, pair) + 1, alone), pair));
	free(text);
	text = render(fx, ND_FORMAT_MARKDOWN);
	assert_non_null(strstr(text, "**Ports together:** `pcie.slot_too_slow`, **confirmed**: "
				     "together 14.2 of 18.8 Gbit/s: the x4 5GT/s slot caps the pair"));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_json, setup, teardown),
		cmocka_unit_test_setup_teardown(test_text, setup, teardown),
		cmocka_unit_test_setup_teardown(test_headline, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
