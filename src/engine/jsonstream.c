/*
 * jsonstream.c - iperf3 3.21's --json-stream: one JSON object a line,
 * {"event": NAME, "data": ...}, with the events "start", "interval", "end"
 * (and "error", "server_output_json", "server_output_text") carrying what
 * -J holds under those names; and -d, iperf3's debug output, on stderr.
 */
#include <stdio.h>

#include "nicdoctor/common.h"
#include "engine_int.h"

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

/* As 3.21 prints them: "send_parameters:" and the object, indented. */
void nd_debug_json(int debug, const char *what, const cJSON *obj)
{
	char *text;

	if (!debug || !obj)
		return;
	text = cJSON_Print(obj);
	fprintf(stderr, "%s:\n%s\n", what, text ? text : "(out of memory)");
	cJSON_free(text);
}

/* 3.21's names of the control states (iperf_util.c state_to_text). */
static const char *state_text(int8_t st)
{
	switch (st) {
	case 0:				return "Test reset";
	case ND_TEST_START:		return "TEST_START - starting a new test";
	case ND_TEST_RUNNING:		return "TEST_RUNNING";
	case ND_TEST_END:		return "TEST_END";
	case ND_PARAM_EXCHANGE:		return "PARAM_EXCHANGE - Client to Server Parameters Exchange";
	case ND_CREATE_STREAMS:		return "CREATE_STREAMS";
	case ND_SERVER_TERMINATE:	return "SERVER_TERMINATE";
	case ND_CLIENT_TERMINATE:	return "CLIENT_TERMINATE";
	case ND_EXCHANGE_RESULTS:	return "EXCHANGE_RESULTS";
	case ND_DISPLAY_RESULTS:	return "DISPLAY_RESULTS";
	case ND_IPERF_DONE:		return "IPERF_DONE";
	case ND_ACCESS_DENIED:		return "ACCESS_DENIED - Server is busy";
	case ND_SERVER_ERROR:		return "SERVER_ERROR";
	}
	return "Unknown State";
}

/* "State change: State set to 10-CREATE_STREAMS", 3.21's -d line. */
void nd_debug_state(int debug, const char *how, int8_t st)
{
	if (debug)
		fprintf(stderr, "State change: %s %d-%s\n", how, st, state_text(st));
}
