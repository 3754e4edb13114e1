/*
 * fuzz_peer.c - libFuzzer target for what a diagnose client takes from a
 * far end: the "nicdoctor_peer" object a server (any server) sends in its
 * results.  It is judged (experiment/far.c) and rendered in every format,
 * redacted, as `diagnose --peer --redact` would.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicdoctor/common.h"
#include "nicdoctor/experiment.h"
#include "nicdoctor/diagnose.h"
#include "nicdoctor/report.h"

static void render(struct nd_report *report)
{
	FILE *sink = fopen("/dev/null", "w");

	if (!sink)
		return;
	nd_report_render(report, ND_FORMAT_TEXT, sink);
	nd_report_render(report, ND_FORMAT_MARKDOWN, sink);
	nd_report_render(report, ND_FORMAT_JSON, sink);
	fclose(sink);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nd_facts *facts = calloc(1, sizeof(*facts));
	struct nd_exp_set *set = calloc(1, sizeof(*set));
	struct nd_report report;
	cJSON *bottleneck = NULL;

	if (!facts || !set)
		goto out;
	nd_strlcpy(facts->ifname, "eth0", sizeof(facts->ifname));
	set->mode = ND_EXP_PEER;
	set->wire_mbps = 9414.8;
	nd_strlcpy(set->peer, "peer.example.net:5201", sizeof(set->peer));
	for (int k = 0; k < ND_RUN_KINDS; k++) {
		struct nd_exp_run *run = &set->runs[k];

		run->done = true;
		run->reverse = k == ND_RUN_REVERSE_MANY;
		run->streams = 2;
		run->duration_sec = 3;
		run->mbps = 3000 + 100 * k;
		run->far_cpus_count = run->cpus_count = 2;
		run->far_cpus[0].busy_pct = 100;
		run->far_cpus[0].softirq_pct = 80;
		run->far_cpus[1].cpu = run->cpus[1].cpu = 1;
	}
	set->far_view = cJSON_ParseWithLength((const char *)data, size);
	if (nd_diagnose_judge(&report, facts, NULL, NULL, NULL) == 0) {
		report.peer = nd_far_peer_json(set, &bottleneck);
		report.redact = true;
		render(&report);
		nd_report_free(&report);
	}
	cJSON_Delete(bottleneck);
	nd_exp_set_release(set);
out:
	free(set);
	free(facts);
	return 0;
}
