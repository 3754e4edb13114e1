/*
 * text_members.c - a bond's members in the text report: one line each,
 * its worst severity ("no problem found" below a warning) and the IDs
 * of its findings of warning or worse
 * (their titles are in --json's members array).
 */
#include <stdio.h>

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
