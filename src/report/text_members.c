/*
 * text_members.c - a bond's members in the text report: one line each,
 * its worst severity ("no problem found" below a warning) and the IDs
 * of its findings of warning or worse
 * (their titles are in --json's members array).
 */
#include <stdio.h>
#include <string.h>

#include "nicdoctor/report.h"
#include "render.h"

void nd_text_members(FILE *out, const cJSON *doc)
{
	const cJSON *members = cJSON_GetObjectItem(doc, "members"), *m, *f;

	if (!cJSON_IsArray(members))
		return;
	fprintf(out, "\nMembers (%d), each diagnosed on its own:\n", cJSON_GetArraySize(members));
	cJSON_ArrayForEach(m, members) {
		const char *sep = "; ";

		const char *worst = nd_json_str(m, "worst", "?");
		int sev = nd_severity_from_name(worst);

		/* as the result line says it: below warning is no problem found */
		fprintf(out, "  %s: %s", nd_json_str(m, "name", "?"),
			sev < 0 || sev >= ND_SEV_WARNING || nd_json_str(m, "error", NULL) ? worst :
			sev == ND_SEV_UNKNOWN ? "no problem found (some checks could not judge)" :
			"no problem found");
		if (nd_json_str(m, "error", NULL))
			fprintf(out, "  %s", nd_json_str(m, "error", ""));
		cJSON_ArrayForEach(f, cJSON_GetObjectItem(m, "findings")) {
			fprintf(out, "%s%s", sep, nd_json_str(f, "id", "?"));
			sep = ", ";
		}
		fputc('\n', out);
	}
}

/* A stacked device's chain (vmbr0 -> eno1 (ixgbe, 0000:03:00.0)), then
 * each lower as a member is shown. */
void nd_text_stack(FILE *out, const cJSON *doc)
{
	const cJSON *stack = cJSON_GetObjectItem(doc, "stack"), *m, *f;
	const char *ifname = nd_json_str(cJSON_GetObjectItem(doc, "interface"), "name", "?");
	char line[512];

	if (!cJSON_IsObject(stack))
		return;
	fprintf(out, "\nStack (%s), each lower diagnosed on its own:\n",
		nd_json_str(stack, "kind", "?"));
	cJSON_ArrayForEach(m, cJSON_GetObjectItem(stack, "lowers")) {
		const char *label = nd_json_str(m, "label", "");
		const char *worst = nd_json_str(m, "worst", "?");
		int sev = nd_severity_from_name(worst);
		int n = snprintf(line, sizeof(line), "%s -> %s", nd_json_str(m, "upper", ifname),
				 nd_json_str(m, "name", "?"));

		if (label[0] && n > 0 && (size_t)n < sizeof(line))
			n += snprintf(line + n, sizeof(line) - (size_t)n, " (%s)", label);
		if (n > 0 && (size_t)n < sizeof(line))
			n += snprintf(line + n, sizeof(line) - (size_t)n, ": %s",
				      nd_json_str(m, "error", NULL) ? nd_json_str(m, "error", "") :
				      sev >= ND_SEV_WARNING ? worst : "no problem found");
		cJSON_ArrayForEach(f, cJSON_GetObjectItem(m, "findings")) {
			const char *v = nd_json_str(f, "verdict", NULL);

			if (n <= 0 || (size_t)n >= sizeof(line))
				break;
			n += snprintf(line + n, sizeof(line) - (size_t)n, "%s%s%s%s",
				      f == cJSON_GetObjectItem(m, "findings")->child ? "; " : ", ",
				      nd_json_str(f, "id", "?"), v ? " " : "", v ? v : "");
		}
		fputs("  ", out);
		nd_text_wrap(out, 2, 6, line);
	}
	if (nd_json_str(stack, "path", NULL)) {
		snprintf(line, sizeof(line), "Wire via %s (%s), %d bytes added per frame",
			 nd_json_str(stack, "via", "?"), nd_json_str(stack, "path", "?"),
			 (int)cJSON_GetNumberValue(cJSON_GetObjectItem(stack, "encap_bytes")));
		fputs("  ", out);
		nd_text_wrap(out, 2, 6, line);
	}
}
