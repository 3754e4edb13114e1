/*
 * fuzz_snapshot.c - libFuzzer target for the snapshot reader: the input is
 * a snapshot's ethtool/IF.json (or a peer's facts JSON).  It is read into
 * facts the way `diagnose --sysroot` reads it, then every check runs on
 * those facts and the report is built and rendered, because hostile values
 * that the reader lets through (huge counts, odd strings) reach the checks.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicdoctor/common.h"
#include "nicdoctor/facts_json.h"
#include "nicdoctor/diagnose.h"
#include "nicdoctor/report.h"

static void report_on(const struct nd_facts *facts)
{
	struct nd_report report;
	const char *bad_id = NULL;
	FILE *sink = fopen("/dev/null", "w");

	if (nd_diagnose_judge(&report, facts, NULL, NULL, &bad_id) == 0) {
		cJSON *doc = nd_report_to_json(&report);

		cJSON_Delete(doc);
		if (sink) {
			nd_report_render(&report, ND_FORMAT_TEXT, sink);
			nd_report_render(&report, ND_FORMAT_MARKDOWN, sink);
			nd_report_render(&report, ND_FORMAT_PROMETHEUS, sink);
		}
		nd_report_free(&report);
	}
	if (sink)
		fclose(sink);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nd_facts *facts = calloc(1, sizeof(*facts));
	cJSON *json = cJSON_ParseWithLength((const char *)data, size);

	if (!facts)
		goto out;
	nd_strlcpy(facts->ifname, "eth0", sizeof(facts->ifname));
	facts->sysroot = true;
	/* As the snapshot source reads ethtool/IF.json ... */
	if (nd_facts_netlink_from_json(json, facts) == 0)
		report_on(facts);
	/* ... and as a peer's whole facts object is read. */
	memset(facts, 0, sizeof(*facts));
	if (nd_facts_from_json(json, facts) == 0)
		report_on(facts);
out:
	cJSON_Delete(json);
	free(facts);
	return 0;
}
