/*
 * text_members.c - a bond's members in the text report: one line each,
 * its worst severity and the IDs of its findings of warning or worse
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

		fprintf(out, "  %s: %s", nd_json_str(m, "name", "?"), nd_json_str(m, "worst", "?"));
		if (nd_json_str(m, "error", NULL))
			fprintf(out, "  %s", nd_json_str(m, "error", ""));
		cJSON_ArrayForEach(f, cJSON_GetObjectItem(m, "findings")) {
			fprintf(out, "%s%s", sep, nd_json_str(f, "id", "?"));
			sep = ", ";
		}
		fputc('\n', out);
	}
}
