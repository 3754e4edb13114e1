/*
 * jsonstream.c - iperf3 3.21's --json-stream: one JSON object a line,
 * {"event": NAME, "data": ...}, with the events "start", "interval", "end"
 * (and "error", "server_output_json", "server_output_text") carrying what
 * -J holds under those names; and -d, iperf3's debug output, on stderr.
 */
#include <stdio.h>

#include "nicdoctor/common.h"
#include "nicdoctor/engine_int.h"

void nd_json_stream_event(FILE *f, const char *event, const cJSON *data)
{
	cJSON *o;
	char *text;

	if (!f || !data)
		return;
	o = cJSON_CreateObject();
	if (!o)
		return;
	cJSON_AddStringToObject(o, "event", event);
	cJSON_AddItemReferenceToObject(o, "data", (cJSON *)data);
	text = cJSON_PrintUnformatted(o);
	if (text)
		fprintf(f, "%s\n", text);
	fflush(f);
	cJSON_free(text);
	cJSON_Delete(o);
}

void nd_debug_json(const struct nd_engine_params *p, const char *what, const cJSON *obj)
{
	char *text;

	if (!p->debug)
		return;
	text = cJSON_PrintUnformatted(obj);
	fprintf(stderr, "%s %s\n", what, text ? text : "(out of memory)");
	cJSON_free(text);
}
