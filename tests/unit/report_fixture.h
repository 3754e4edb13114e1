/*
 * report_fixture.h - a hand-made report for the report-layer tests: a
 * healthy host's facts and six findings (critical with a fix, warning,
 * unknown, ok, skipped, info), rendered to a string.  Static inline so
 * that a test file may leave some unused.
 */
#ifndef NICDOCTOR_TEST_REPORT_FIXTURE_H
#define NICDOCTOR_TEST_REPORT_FIXTURE_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "nicdoctor/common.h"
#include "nicdoctor/report.h"

#define N_FINDINGS 6

struct fixture {
	struct nd_facts *facts;
	struct nd_report report;
};

static inline struct nd_facts *facts_healthy_host(void)
{
	struct nd_facts *facts = calloc(1, sizeof(*facts));

	assert_non_null(facts);
	strcpy(facts->ifname, "eth0");
	strcpy(facts->hostname, "db1.example.com");
	strcpy(facts->kernel, "6.1.0-13-amd64");
	facts->link.st.known = true;
	facts->link.mtu = 1500;
	facts->link.rx_queues = 8;
	facts->link.tx_queues = 8;
	facts->queues.st.known = true;
	facts->queues.n_rx = 8;	/* rx-0 .. rx-7 in use */
	strcpy(facts->link.operstate, "up");
	strcpy(facts->link.mac, "aa:bb:cc:dd:ee:01");
	facts->linkmodes.st.known = true;
	facts->linkmodes.speed_mbps = 10000;
	facts->linkmodes.duplex = 1;
	facts->drvinfo.st.known = true;
	strcpy(facts->drvinfo.driver, "ixgbe");
	facts->pci.st.known = true;
	strcpy(facts->pci.dev.address, "0000:09:00.0");
	facts->pci.numa_node = -1;
	facts->cpus.st.known = true;
	facts->cpus.n_online = 8;
	strcpy(facts->irqs.st.reason, "no permission to read /proc/irq");
	return facts;
}

static inline void finding(struct nd_finding *f, const char *id, enum nd_severity sev, const char *title)
{
	memset(f, 0, sizeof(*f));
	f->id = id;
	f->severity = sev;
	f->ceiling_mbps = -1;
	f->evidence = cJSON_CreateObject();
	nd_strlcpy(f->title, title, sizeof(f->title));
}

static inline int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	struct nd_finding *f;

	assert_non_null(fx);
	fx->facts = facts_healthy_host();
	fx->report.facts = fx->facts;
	fx->report.findings = calloc(N_FINDINGS, sizeof(*f));
	fx->report.n_findings = N_FINDINGS;
	f = fx->report.findings;

	finding(&f[0], "t.crit", ND_SEV_CRITICAL, "PCIe link runs at 5 GT/s x1, capable of 8 GT/s x4");
	cJSON_AddNumberToObject(f[0].evidence, "sta_width", 1);
	cJSON_AddStringToObject(f[0].evidence, "peer", "10.1.2.3");
	cJSON_AddStringToObject(f[0].evidence, "note",
				"seen from db1 at fe80::1 via AA:BB:CC:DD:EE:01 and 2001:db8::7");
	f[0].ceiling_mbps = 3662;
	strcpy(f[0].ceiling_source, "pcie");
	strcpy(f[0].fix.id, "pcie");
	strcpy(f[0].fix.commands[0], "setpci -s 0000:09:00.0 CAP_EXP+0x10.w=0x0020");
	strcpy(f[0].fix.commands[1], "echo 1 > /sys/bus/pci/devices/0000:09:00.0/remove && echo 1 > "
				     "/sys/bus/pci/rescan && ethtool -L eth0 combined 8");
	strcpy(f[0].fix.commands[2], "# irqbalance runs: ban these IRQs (IRQBALANCE_BANNED_CPULIST "
				     "or --banirq) or it rewrites them");
	f[0].fix.n_commands = 3;

	finding(&f[1], "t.warn", ND_SEV_WARNING,
		"a deliberately long title that goes on and on so that it cannot possibly fit "
		"on one eighty column line together with its tag and identifier");
	cJSON_AddStringToObject(f[1].evidence, "queues",
				"rx-0 rx-1 rx-2 rx-3 rx-4 rx-5 rx-6 rx-7 rx-8 rx-9 rx-10 rx-11 "
				"rx-12 rx-13 rx-14 rx-15 rx-16 rx-17 rx-18 rx-19 rx-20");
	cJSON_AddStringToObject(f[1].evidence, "blob",
				"0123456789012345678901234567890123456789012345678901234567890123"
				"456789012345678901234567890123456789");

	finding(&f[2], "t.unknown", ND_SEV_UNKNOWN, "cannot tell: irqs unknown");
	cJSON_AddStringToObject(f[2].evidence, "missing", "irqs");
	cJSON_AddStringToObject(f[2].evidence, "reason", "no permission");

	finding(&f[3], "t.ok", ND_SEV_OK, "8 RX queues in use");
	finding(&f[4], "t.skip", ND_SEV_CRITICAL, "a skipped check");
	f[4].skipped = true;
	finding(&f[5], "t.info", ND_SEV_INFO, "jumbo frames would raise the ceiling");

	nd_report_add_ceiling(&fx->report, "wire", 9414.8, "TCP/IPv4 goodput, 10000 Mbit/s");
	nd_report_add_ceiling(&fx->report, "pcie", 3662, "PCIe 5 GT/s x1");
	*state = fx;
	return 0;
}

static inline int teardown(void **state)
{
	struct fixture *fx = *state;

	nd_report_free(&fx->report);
	free(fx->facts);
	free(fx);
	return 0;
}

/* Render into a string (caller frees). */
/* not inlined: gcc then takes the memstream buffer for a dangling local */
__attribute__((noinline)) static char *render(const struct nd_report *report,
					     enum nd_format format)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	assert_non_null(out);
	assert_int_equal(nd_report_render(report, format, out), 0);
	fclose(out);
	return text;
}

static inline const cJSON *get(const cJSON *obj, const char *key)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);

	if (!item)
		fail_msg("missing key '%s'", key);
	return item;
}

static inline const cJSON *finding_by_id(const cJSON *doc, const char *id)
{
	const cJSON *f;

	cJSON_ArrayForEach(f, get(doc, "findings")) {
		if (strcmp(get(f, "id")->valuestring, id) == 0)
			return f;
	}
	fail_msg("no finding '%s'", id);
	return NULL;
}

#endif
