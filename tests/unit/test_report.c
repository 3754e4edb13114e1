/*
 * test_report.c - the report layer: JSON schema and types (null where a
 * fact is unknown), summary and exit codes, ceilings, redaction in every
 * format, the 80-column text layout and the markdown tables.
 *
 * Findings are made by hand, not by running checks, so these tests do not
 * move when a check's wording does.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "nicdoctor/common.h"
#include "nicdoctor/diagnose.h"
#include "nicdoctor/report.h"

#include "report_fixture.h"

static void test_json_schema(void **state)
{
	struct fixture *fx = *state;
	cJSON *doc = nd_report_to_json(&fx->report);
	const cJSON *iface, *host, *tool, *f, *c;

	assert_non_null(doc);
	assert_string_equal(get(doc, "schema")->valuestring, "nicdoctor.report/1");
	tool = get(doc, "tool");
	assert_string_equal(get(tool, "name")->valuestring, "nicdoctor");
	assert_string_equal(get(tool, "version")->valuestring, ND_VERSION);
	iface = get(doc, "interface");
	assert_string_equal(get(iface, "name")->valuestring, "eth0");
	assert_string_equal(get(iface, "driver")->valuestring, "ixgbe");
	assert_string_equal(get(iface, "pci_address")->valuestring, "0000:09:00.0");
	assert_true(cJSON_IsNumber(get(iface, "speed_mbps")));
	assert_int_equal(get(iface, "speed_mbps")->valueint, 10000);
	assert_int_equal(get(iface, "mtu")->valueint, 1500);
	assert_string_equal(get(iface, "operstate")->valuestring, "up");
	assert_int_equal(get(iface, "rx_queues")->valueint, 8);
	assert_true(cJSON_IsNull(get(iface, "numa_node")));
	host = get(doc, "host");
	assert_string_equal(get(host, "name")->valuestring, "db1.example.com");
	assert_int_equal(get(host, "cpus_online")->valueint, 8);
	assert_true(cJSON_IsString(get(host, "kernel")));
	assert_string_equal(get(get(doc, "unreadable"), "irqs")->valuestring,
			    "no permission to read /proc/irq");

	assert_int_equal(cJSON_GetArraySize(get(doc, "ceilings")), 2);
	c = cJSON_GetArrayItem(get(doc, "ceilings"), 0);
	assert_string_equal(get(c, "source")->valuestring, "pcie");
	assert_true(cJSON_IsNumber(get(c, "mbps")));
	assert_true(cJSON_IsString(get(c, "detail")));
	c = cJSON_GetArrayItem(get(doc, "ceilings"), 1);
	assert_string_equal(get(c, "source")->valuestring, "wire");
	assert_float_equal(get(c, "mbps")->valuedouble, 9414.8, 0.01);

	assert_int_equal(cJSON_GetArraySize(get(doc, "findings")), N_FINDINGS);
	cJSON_ArrayForEach(f, get(doc, "findings")) {
		assert_true(cJSON_IsString(get(f, "id")));
		assert_true(cJSON_IsString(get(f, "title")));
		assert_true(cJSON_IsObject(get(f, "evidence")));
		assert_true(cJSON_IsString(get(f, "verdict")));
		assert_true(cJSON_IsBool(get(f, "skipped")));
		get(f, "ceiling_mbps");
		get(f, "experiment");
		get(f, "fix");
	}
	f = finding_by_id(doc, "t.crit");
	assert_string_equal(get(f, "severity")->valuestring, "critical");
	assert_int_equal(get(f, "ceiling_mbps")->valueint, 3662);
	assert_string_equal(get(f, "verdict")->valuestring, "untested");
	assert_string_equal(get(get(f, "fix"), "id")->valuestring, "pcie");
	assert_int_equal(cJSON_GetArraySize(get(get(f, "fix"), "commands")), 3);
	assert_true(cJSON_IsNull(get(f, "experiment")));
	f = finding_by_id(doc, "t.ok");
	assert_string_equal(get(f, "severity")->valuestring, "ok");
	assert_true(cJSON_IsNull(get(f, "ceiling_mbps")));
	assert_true(cJSON_IsNull(get(f, "fix")));
	assert_true(cJSON_IsFalse(get(f, "skipped")));
	f = finding_by_id(doc, "t.skip");
	assert_true(cJSON_IsTrue(get(f, "skipped")));
	assert_true(cJSON_IsNull(get(f, "severity")));
	assert_true(cJSON_IsNull(get(doc, "throughput")));
	cJSON_Delete(doc);
}

static void test_json_unknown_is_null(void **state)
{
	struct nd_facts *facts = calloc(1, sizeof(*facts));
	struct nd_report report = { .facts = facts };
	static const char *const null_keys[] = { "driver", "pci_address", "mac", "speed_mbps",
						 "duplex", "mtu", "operstate", "rx_queues",
						 "numa_node", "carrier" };
	const cJSON *iface, *unreadable;
	cJSON *doc;

	(void)state;
	assert_non_null(facts);
	strcpy(facts->ifname, "eth9");
	strcpy(facts->linkmodes.st.reason, "not supported");
	facts->link.mtu = 1500;		/* a value behind !known must not leak */
	doc = nd_report_to_json(&report);
	assert_non_null(doc);
	iface = get(doc, "interface");
	for (size_t i = 0; i < ND_ARRAY_SIZE(null_keys); i++) {
		if (!cJSON_IsNull(get(iface, null_keys[i])))
			fail_msg("interface.%s should be null", null_keys[i]);
	}
	assert_true(cJSON_IsNull(get(get(doc, "host"), "name")));
	assert_true(cJSON_IsNull(get(get(doc, "host"), "cpus_online")));
	unreadable = get(doc, "unreadable");
	assert_string_equal(get(unreadable, "linkmodes")->valuestring, "not supported");
	assert_string_equal(get(unreadable, "pci")->valuestring, "not read");
	assert_int_equal(cJSON_GetArraySize(get(doc, "ceilings")), 0);
	assert_int_equal(cJSON_GetArraySize(get(doc, "findings")), 0);
	assert_string_equal(get(get(doc, "summary"), "worst")->valuestring, "ok");
	cJSON_Delete(doc);
	free(facts);
}

static void test_summary_counts(void **state)
{
	struct fixture *fx = *state;
	cJSON *doc = nd_report_to_json(&fx->report);
	const cJSON *sum = get(doc, "summary"), *counts = get(sum, "counts");
	static const char *const keys[] = { "ok", "info", "unknown", "warning", "critical",
					    "skipped" };

	for (size_t i = 0; i < ND_ARRAY_SIZE(keys); i++)
		assert_int_equal(get(counts, keys[i])->valueint, 1);
	assert_string_equal(get(sum, "worst")->valuestring, "critical");
	cJSON_Delete(doc);

	/* a skipped critical does not make the report critical */
	fx->report.findings[0].severity = ND_SEV_OK;
	fx->report.findings[1].severity = ND_SEV_OK;
	doc = nd_report_to_json(&fx->report);
	sum = get(doc, "summary");
	assert_string_equal(get(sum, "worst")->valuestring, "unknown");
	assert_int_equal(get(get(sum, "counts"), "ok")->valueint, 3);
	assert_int_equal(get(get(sum, "counts"), "critical")->valueint, 0);
	cJSON_Delete(doc);
}

static void test_exit_codes(void **state)
{
	struct fixture *fx = *state;
	struct nd_finding *f = fx->report.findings;

	assert_int_equal(nd_report_exit_code(&fx->report), ND_EXIT_CRITICAL);
	f[0].severity = ND_SEV_OK;
	assert_int_equal(nd_report_exit_code(&fx->report), ND_EXIT_WARNING);
	f[1].severity = ND_SEV_INFO;
	/* unknown and info are not failures; the skipped critical is ignored */
	assert_int_equal(nd_report_exit_code(&fx->report), ND_EXIT_OK);
	f[4].skipped = false;
	assert_int_equal(nd_report_exit_code(&fx->report), ND_EXIT_CRITICAL);
	f[4].severity = ND_SEV_WARNING;
	assert_int_equal(nd_report_exit_code(&fx->report), ND_EXIT_WARNING);
}

static void test_ceilings_dedup_sorted(void **state)
{
	struct fixture *fx = *state;
	struct nd_report *r = &fx->report;

	nd_report_add_ceiling(r, "pcie", 5000, "higher: ignored");
	nd_report_add_ceiling(r, "wire", 900, "lower: replaces");
	nd_report_add_ceiling(r, "shaping", 100, "tbf");
	nd_report_add_ceiling(r, "window", -1, "unknown: ignored");
	nd_report_add_ceiling(r, "", 1, "no source: ignored");
	assert_int_equal(r->n_ceilings, 3);
	assert_string_equal(r->ceilings[0].source, "shaping");
	assert_string_equal(r->ceilings[1].source, "wire");
	assert_float_equal(r->ceilings[1].mbps, 900, 0.001);
	assert_string_equal(r->ceilings[1].detail, "lower: replaces");
	assert_string_equal(r->ceilings[2].source, "pcie");
	assert_float_equal(r->ceilings[2].mbps, 3662, 0.001);
	for (int i = 0; i < 10; i++) {
		char source[16];

		snprintf(source, sizeof(source), "s%d", i);
		nd_report_add_ceiling(r, source, 10000 - i, "");
	}
	assert_int_equal(r->n_ceilings, ND_MAX_CEILINGS);
	for (unsigned i = 1; i < r->n_ceilings; i++)
		assert_true(r->ceilings[i - 1].mbps <= r->ceilings[i].mbps);
	assert_string_equal(r->ceilings[0].source, "shaping");
}

static void test_build_skip_only(void **state)
{
	struct fixture *fx = *state;
	struct nd_report r;
	const char *bad = NULL;
	char list[256];

	assert_true(nd_checks_count >= 2);
	assert_int_equal(nd_diagnose_judge(&r, fx->facts, "no.such_check", NULL, &bad), -EINVAL);
	assert_non_null(bad);
	assert_string_equal(bad, "no.such_check");
	nd_report_free(&r);
	snprintf(list, sizeof(list), "%s, bogus ,%s", nd_checks[0].id, nd_checks[1].id);
	bad = NULL;
	assert_int_equal(nd_diagnose_judge(&r, fx->facts, NULL, list, &bad), -EINVAL);
	assert_string_equal(bad, "bogus");
	nd_report_free(&r);

	assert_int_equal(nd_diagnose_judge(&r, fx->facts, NULL, nd_checks[1].id, &bad), 0);
	assert_int_equal(r.n_findings, nd_checks_count);
	for (unsigned i = 0; i < r.n_findings; i++) {
		assert_string_equal(r.findings[i].id, nd_checks[i].id);
		assert_int_equal(r.findings[i].skipped, i != 1);
	}
	/* the wire ceiling comes from the facts: 10 GbE at MTU 1500 */
	assert_true(r.n_ceilings >= 1);
	assert_int_equal(nd_report_exit_code(&r) <= ND_EXIT_CRITICAL, 1);
	bool wire = false;
	for (unsigned i = 0; i < r.n_ceilings; i++) {
		if (strcmp(r.ceilings[i].source, "wire") == 0) {
			wire = true;
			assert_true(r.ceilings[i].mbps > 9400 && r.ceilings[i].mbps < 9420);
		}
		if (i > 0)
			assert_true(r.ceilings[i - 1].mbps <= r.ceilings[i].mbps);
	}
	assert_true(wire);
	nd_report_free(&r);

	snprintf(list, sizeof(list), "%s,%s,", nd_checks[0].id, nd_checks[0].id);
	assert_int_equal(nd_diagnose_judge(&r, fx->facts, list, NULL, &bad), 0);
	assert_true(r.findings[0].skipped);
	assert_false(r.findings[1].skipped);
	nd_report_free(&r);
}

static void assert_absent(const char *text, const char *needle, const char *format)
{
	if (strcasestr(text, needle))
		fail_msg("'%s' survives redaction in %s output:\n%s", needle, format, text);
}

static void test_redact_every_format(void **state)
{
	struct fixture *fx = *state;
	static const char *const secrets[] = { "10.1.2.3", "fe80::1", "2001:db8::7",
					       "aa:bb:cc:dd:ee:01", "db1" };
	static const struct {
		enum nd_format format;
		const char *name;
	} formats[] = {
		{ ND_FORMAT_JSON, "json" },
		{ ND_FORMAT_TEXT, "text" },
		{ ND_FORMAT_MARKDOWN, "markdown" },
		{ ND_FORMAT_PROMETHEUS, "prometheus" },
	};
	char *text;

	/* without --redact the secrets are there, so the check below can fail */
	text = render(&fx->report, ND_FORMAT_JSON);
	for (size_t i = 0; i < ND_ARRAY_SIZE(secrets); i++)
		assert_non_null(strcasestr(text, secrets[i]));
	free(text);

	fx->report.redact = true;
	for (size_t k = 0; k < ND_ARRAY_SIZE(formats); k++) {
		text = render(&fx->report, formats[k].format);
		for (size_t i = 0; i < ND_ARRAY_SIZE(secrets); i++)
			assert_absent(text, secrets[i], formats[k].name);
		free(text);
	}
	text = render(&fx->report, ND_FORMAT_JSON);
	assert_non_null(strstr(text, "\"host-1\""));
	assert_non_null(strstr(text, "\"mac-1\""));
	assert_non_null(strstr(text, "ipv4-1"));
	assert_non_null(strstr(text, "ipv6-2"));
	/* the same MAC in two notations is one placeholder */
	assert_null(strstr(text, "mac-2"));
	assert_non_null(strstr(text, "seen from host-1 at ipv6-1 via mac-1 and ipv6-2"));
	/* PCI addresses are not addresses to hide */
	assert_non_null(strstr(text, "0000:09:00.0"));
	free(text);
}

static const char *redact_one(cJSON *doc, const char *in)
{
	cJSON *item = cJSON_CreateString(in);

	cJSON_AddItemToArray(doc, item);
	return item->valuestring;
}

static void test_redact_matchers(void **state)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "12:30:45", "12:30:45" },
		{ "0000:09:00.0", "0000:09:00.0" },
		{ "v3.16.1 and 6.1.0-13", "v3.16.1 and 6.1.0-13" },
		{ "std::vector", "std::vector" },
		{ "256.1.1.1", "256.1.1.1" },
		{ "1.2.3.4:5201", "ipv4-1:5201" },
		{ "peer 1.2.3.4.", "peer ipv4-1." },
		{ "[2001:db8::1]:80", "[ipv6-1]:80" },
		{ "2001:DB8:0::1/64", "ipv6-1/64" },
		{ "::ffff:10.0.0.1", "ipv6-2" },
		{ "aa:bb:cc:dd:ee:01", "mac-1" },
		{ "AA-BB-CC-DD-EE-01", "mac-1" },
		{ "aabb.ccdd.ee01", "mac-1" },
		{ "aa:bb:cc:dd:ee:02x", "aa:bb:cc:dd:ee:02x" },
		{ "DB1.example.com says db1", "host-1 says host-1" },
		{ "db10 and db1-a and mydb1", "db10 and db1-a and mydb1" },
		{ "", "" },
	};
	struct nd_facts *facts = calloc(1, sizeof(*facts));
	cJSON *doc = cJSON_CreateObject(), *arr = cJSON_AddArrayToObject(doc, "values");
	const char *values[ND_ARRAY_SIZE(cases)];

	(void)state;
	assert_non_null(facts);
	strcpy(facts->hostname, "db1.example.com");
	cJSON_AddStringToObject(doc, "10.9.9.9", "key stays");
	for (size_t i = 0; i < ND_ARRAY_SIZE(cases); i++)
		values[i] = redact_one(arr, cases[i].in);
	(void)values;
	nd_redact_json(doc, facts);
	for (size_t i = 0; i < ND_ARRAY_SIZE(cases); i++) {
		const char *got = cJSON_GetArrayItem(arr, (int)i)->valuestring;

		if (strcmp(got, cases[i].out) != 0)
			fail_msg("redact '%s': got '%s', want '%s'", cases[i].in, got, cases[i].out);
	}
	assert_non_null(cJSON_GetObjectItem(doc, "10.9.9.9"));
	cJSON_Delete(doc);
	free(facts);
}

static void test_text_layout(void **state)
{
	struct fixture *fx = *state;
	char *text, *line, *save = NULL;
	int n_lines = 0;

	/* -v: every check in registry order, with the evidence of problems */
	fx->report.verbose = true;
	text = render(&fx->report, ND_FORMAT_TEXT);
	assert_null(strchr(text, '\033'));
	assert_non_null(strstr(text, "eth0: ixgbe, PCI 0000:09:00.0, 10000 Mbit/s, MTU 1500, up\n"));
	assert_non_null(strstr(text, "\n[CRIT] t.crit  PCIe link runs at 5 GT/s x1"));
	assert_non_null(strstr(text, "\n[WARN] t.warn  "));
	assert_non_null(strstr(text, "\n[ ?? ] t.unknown  "));
	assert_non_null(strstr(text, "\n       missing: irqs\n"));
	assert_non_null(strstr(text, "\n[ OK ] t.ok  8 RX queues in use\n"));
	assert_non_null(strstr(text, "\n[skip] t.skip  "));
	assert_non_null(strstr(text, "\n[INFO] t.info  "));
	assert_non_null(strstr(text, "\n       ceiling: 3662 Mbit/s (pcie)\n"));
	assert_non_null(strstr(text, "\n         setpci -s 0000:09:00.0 CAP_EXP+0x10.w=0x0020\n"));
	/* a wrapped shell command stays one command; a wrapped comment a comment */
	assert_non_null(strstr(text, " && echo 1 > \\\n           /sys/bus/pci/rescan"));
	assert_non_null(strstr(text, "\n         # irqbalance runs: ban these IRQs"));
	assert_non_null(strstr(text, "\n         # --banirq) or it rewrites them\n"));
	/* the ceiling block is lowest first */
	assert_true(strstr(text, "3662 Mbit/s  pcie") < strstr(text, "9415 Mbit/s  wire"));
	assert_non_null(strstr(text, "\nResult: critical (1 critical, 1 warning, 1 unknown, "
				     "1 info, 1 ok, 1 skipped)\n"));
	assert_non_null(strstr(text, "\nNot readable: qdisc, channels, "));
	assert_non_null(strstr(text, "; irqs (no permission to read /proc/irq)\n"));
	/* only problems get details: no evidence under ok or info */
	assert_null(strstr(text, "t.ok  8 RX queues in use\n       "));
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (strlen(line) > 80)
			fail_msg("line over 80 columns (%zu): '%s'", strlen(line), line);
		n_lines++;
	}
	assert_true(n_lines > 15);
	free(text);

	fx->report.color = true;
	text = render(&fx->report, ND_FORMAT_TEXT);
	assert_non_null(strstr(text, "\033[1;31m[CRIT]\033[0m t.crit"));
	free(text);
}

/* The default text reads top-down: problems worst first with their fixes,
 * then info, then one paragraph each for what passed, was skipped and
 * could not be judged. */
static void test_text_top_down(void **state)
{
	struct fixture *fx = *state;
	char *text = render(&fx->report, ND_FORMAT_TEXT);
	const char *crit = strstr(text, "\n[CRIT] t.crit  ");
	const char *warn = strstr(text, "\n[WARN] t.warn  ");
	const char *info = strstr(text, "\n[INFO] t.info  ");
	const char *passed = strstr(text, "\nPassed: t.ok\n");
	const char *skipped = strstr(text, "\nSkipped: t.skip\n");
	const char *unknown = strstr(text, "\nCould not judge: t.unknown (irqs: ");

	assert_null(strchr(text, '\033'));
	assert_non_null(crit);
	assert_non_null(warn);
	assert_non_null(info);
	assert_non_null(passed);
	assert_non_null(skipped);
	assert_non_null(unknown);
	assert_true(crit < warn && warn < info && info < passed && passed < skipped &&
		    skipped < unknown);
	/* problems keep their fix; nobody gets evidence lines by default */
	assert_non_null(strstr(text, "\n         setpci -s 0000:09:00.0 CAP_EXP+0x10.w=0x0020\n"));
	assert_non_null(strstr(text, "\n       ceiling: 3662 Mbit/s (pcie)\n"));
	assert_null(strstr(text, "\n       missing: irqs\n"));
	assert_null(strstr(text, "[ OK ]"));
	assert_null(strstr(text, "[ ?? ]"));
	free(text);
}

static void test_text_escapes_control_chars(void **state)
{
	struct fixture *fx = *state;
	char *text;

	cJSON_AddStringToObject(fx->report.findings[0].evidence, "evil", "\033[2Jgone");
	fx->report.verbose = true;
	text = render(&fx->report, ND_FORMAT_TEXT);
	assert_null(strchr(text, '\033'));
	assert_non_null(strstr(text, "evil: ?[2Jgone"));
	free(text);
}

static void test_markdown(void **state)
{
	struct fixture *fx = *state;
	char *text = render(&fx->report, ND_FORMAT_MARKDOWN);

	assert_non_null(strstr(text, "# nicdoctor: eth0 on db1.example.com\n"));
	assert_non_null(strstr(text, "**Result: critical** (1 critical, 1 warning, 1 unknown, "
				     "1 info, 1 ok, 1 skipped)\n"));
	assert_non_null(strstr(text, "| check | result | evidence |\n|---|---|---|\n"));
	assert_non_null(strstr(text, "| `t.crit` | **critical** | sta_width=1, peer=10.1.2.3"));
	assert_non_null(strstr(text, "| `t.skip` | skipped |  |\n"));
	assert_non_null(strstr(text, "| source | Mbit/s | detail |"));
	assert_non_null(strstr(text, "## `t.crit`: critical\n"));
	assert_non_null(strstr(text, "## `t.warn`: warning\n"));
	assert_null(strstr(text, "## `t.ok`"));
	assert_null(strstr(text, "## `t.unknown`"));
	assert_non_null(strstr(text, "```sh\nsetpci -s 0000:09:00.0 CAP_EXP+0x10.w=0x0020\n"));
	assert_non_null(strstr(text, "Ceiling: **3662 Mbit/s** (pcie)"));
	/* top-down: the problems' table, worst first, before the full table */
	assert_non_null(strstr(text, "## Needs attention\n"));
	assert_non_null(strstr(text, "## All checks\n"));
	assert_true(strstr(text, "## Needs attention") < strstr(text, "## `t.crit`"));
	assert_true(strstr(text, "## `t.crit`") < strstr(text, "## All checks"));
	assert_true(strstr(text, "| `t.crit` |") < strstr(text, "| `t.warn` |"));
	assert_true(strstr(text, "| `t.warn` |") < strstr(text, "| `t.unknown` |"));
	/* an ok check is only in the full table */
	assert_true(strstr(text, "| `t.ok` |") > strstr(text, "## All checks"));
	free(text);

	/* healthy: no sections, no code blocks, a handful of lines */
	for (unsigned i = 0; i < fx->report.n_findings; i++) {
		fx->report.findings[i].severity = ND_SEV_OK;
		fx->report.findings[i].skipped = false;
	}
	text = render(&fx->report, ND_FORMAT_MARKDOWN);
	assert_null(strstr(text, "## "));
	assert_null(strstr(text, "```"));
	assert_non_null(strstr(text, "**Result: no problem found** (6 ok)\n"));
	free(text);
}

static void test_prometheus(void **state)
{
	struct fixture *fx = *state;
	char *text = render(&fx->report, ND_FORMAT_PROMETHEUS);

	assert_non_null(strstr(text, "# TYPE nicdoctor_finding gauge\n"));
	assert_non_null(strstr(text,
		"nicdoctor_finding{interface=\"eth0\",id=\"t.crit\"} 4\n"));
	assert_non_null(strstr(text,
		"nicdoctor_finding{interface=\"eth0\",id=\"t.ok\"} 0\n"));
	/* the state is the value: no label may change with it */
	assert_null(strstr(text, "severity="));
	assert_null(strstr(text, "t.skip"));
	assert_non_null(strstr(text, "nicdoctor_ceiling_mbps{interface=\"eth0\",source=\"pcie\"} 3662.0\n"));
	assert_non_null(strstr(text, "nicdoctor_worst_severity{interface=\"eth0\"} 4\n"));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_json_schema, setup, teardown),
		cmocka_unit_test(test_json_unknown_is_null),
		cmocka_unit_test_setup_teardown(test_summary_counts, setup, teardown),
		cmocka_unit_test_setup_teardown(test_exit_codes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ceilings_dedup_sorted, setup, teardown),
		cmocka_unit_test_setup_teardown(test_build_skip_only, setup, teardown),
		cmocka_unit_test_setup_teardown(test_redact_every_format, setup, teardown),
		cmocka_unit_test(test_redact_matchers),
		cmocka_unit_test_setup_teardown(test_text_layout, setup, teardown),
		cmocka_unit_test_setup_teardown(test_text_top_down, setup, teardown),
		cmocka_unit_test_setup_teardown(test_text_escapes_control_chars, setup, teardown),
		cmocka_unit_test_setup_teardown(test_markdown, setup, teardown),
		cmocka_unit_test_setup_teardown(test_prometheus, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
