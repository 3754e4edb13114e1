/*
 * tool_iperf3_single_threaded.c - tool.iperf3_single_threaded: iperf3
 * before 3.16 runs every -P stream in one thread, so one core's speed caps
 * the whole test and the NIC gets blamed for the tool.
 * 3.16 (December 2023) gave each stream its own thread.  Info: only a run
 * against a peer can confirm a per-core limit (then a warning).
 */
#include <stdio.h>
#include <string.h>

#include "checks.h"

/* First iperf3 release with one thread per stream. */
#define IPERF3_THREADED_MAJOR 3
#define IPERF3_THREADED_MINOR 16

static bool threaded(const struct nd_tools *tools)
{
	return tools->iperf3_major > IPERF3_THREADED_MAJOR ||
	       (tools->iperf3_major == IPERF3_THREADED_MAJOR &&
		tools->iperf3_minor >= IPERF3_THREADED_MINOR);
}

void nd_check_tool_iperf3_single_threaded(const struct nd_facts *facts, struct nd_finding *f)
{
	const struct nd_tools *tools = &facts->tools;

	if (!tools->iperf3.known) {
		/* The probe says "iperf3 not found in PATH"; other reasons
		 * (a snapshot without the version, an unparsable one) are unknown. */
		if (strstr(tools->iperf3.reason, "not found")) {
			cJSON_AddStringToObject(f->evidence, "iperf3", tools->iperf3.reason);
			nd_finding_set(f, ND_SEV_OK, "no iperf3 in PATH");
			return;
		}
		return nd_finding_unknown(f, "iperf3 version", tools->iperf3.reason);
	}
	cJSON_AddStringToObject(f->evidence, "iperf3_version", tools->iperf3_version);
	cJSON_AddStringToObject(f->evidence, "threaded_since", "3.16");
	if (threaded(tools)) {
		nd_finding_set(f, ND_SEV_OK, "iperf3 %s runs one thread per stream",
			       tools->iperf3_version);
		return;
	}
	/* Info: the installed tool is not the NIC's problem until someone
	 * measures with it; a run that shows a per-core limit (one stream
	 * far below many, a CPU saturated) makes it a warning (verdict.c). */
	nd_finding_set(f, ND_SEV_INFO, "iperf3 %s is single-threaded: all -P streams share "
		       "one core, so it can measure the CPU instead of the NIC",
		       tools->iperf3_version);
	nd_finding_fix(f, "tool", "nicdoctor bench -c HOST -P 4");
	nd_finding_fix(f, "tool", "# or install iperf3 3.16 or later; or run one iperf3 "
		       "process per stream on separate ports, on the server:");
	nd_finding_fix(f, "tool", "for p in 5201 5202 5203 5204; do iperf3 -s -D -p $p; done");
	nd_finding_fix(f, "tool", "# and on the client (add the four results):");
	nd_finding_fix(f, "tool", "for p in 5201 5202 5203 5204; do iperf3 -c HOST -p $p -t 30 & "
		       "done; wait");
}
