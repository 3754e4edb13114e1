/*
 * server_out.c - what `serve` prints of each test: iperf3's text summary,
 * -J's object, and --json-stream's event lines ("start", "interval",
 * "end", "error" before "end" when a test fails), as iperf3 3.21's server
 * prints them.  JSON goes to cfg.json_out, unprefixed by --timestamps,
 * as 3.21 writes JSON past its line prefix.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_server.h"

static FILE *json_out(const struct nd_server *s)
{
	return s->cfg.json_out ? s->cfg.json_out : stdout;
}

char *nd_server_summary_text(const struct nd_test *t)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	nd_out_text_summary(f, t);
	fclose(f);
	return text;
}

void nd_server_accepted(struct nd_slot *sl)
{
	struct nd_server *s = sl->server;

	if (s->cfg.quiet || s->cfg.json_log)
		return;
	pthread_mutex_lock(&s->out_lock);
	printf("Accepted connection from %s, port %u\n", sl->peer, sl->peer_port);
	if (sl->authenticated)
		printf("Authenticated as '%s'\n", sl->auth_user);
	fflush(stdout);
	pthread_mutex_unlock(&s->out_lock);
}

/* --json-stream: "start" once the streams are up, as 3.21's on_test_start. */
void nd_server_json_start(const struct nd_server *s, const struct nd_test *t)
{
	cJSON *ev;

	if (!s->cfg.json_stream || s->cfg.quiet)
		return;
	ev = nd_out_json_start(t);
	nd_json_stream_event(json_out(s), "start", ev);
	cJSON_Delete(ev);
}

/*
 * --json-stream's last lines: "error" (when the test failed) and "end",
 * which holds nothing then, as 3.21's iperf_json_finish.
 */
static void json_stream_end(const struct nd_server *s, int rc, cJSON *all)
{
	FILE *f = json_out(s);
	cJSON *err, *empty = NULL;

	if (all) {
		nd_json_stream_event(f, "error", cJSON_GetObjectItemCaseSensitive(all, "error"));
		nd_json_stream_event(f, "end", cJSON_GetObjectItemCaseSensitive(all, "end"));
		return;
	}
	err = cJSON_CreateString(strerror(rc < 0 ? -rc : EIO));
	empty = cJSON_CreateObject();
	nd_json_stream_event(f, "error", err);
	nd_json_stream_event(f, "end", empty);
	cJSON_Delete(err);
	cJSON_Delete(empty);
}

/* serve -J: each test's results as iperf3 -s -J prints them; with
 * --json-stream the events, and the object too only with -full-output. */
static void report_json(const struct nd_server *s, const struct nd_test *t, int rc)
{
	cJSON *o = t ? nd_out_json(t, rc) : NULL;
	char *text;

	if (s->cfg.json_stream)
		json_stream_end(s, rc, o);
	if (o && (!s->cfg.json_stream || s->cfg.json_stream_full)) {
		text = cJSON_Print(o);
		if (text)
			fprintf(json_out(s), "%s\n", text);
		cJSON_free(text);
	}
	fflush(json_out(s));
	cJSON_Delete(o);
}

void nd_server_report(struct nd_slot *sl, struct nd_test *t, int rc)
{
	struct nd_server *s = sl->server;

	if (s->cfg.quiet)
		return;
	pthread_mutex_lock(&s->out_lock);
	if (s->cfg.json_log) {
		if (t || s->cfg.json_stream)
			report_json(s, t, rc);
		pthread_mutex_unlock(&s->out_lock);
		return;
	}
	if (rc == 0) {
		nd_out_text_summary(stdout, t);
		if (t->out.verbose)
			nd_out_verbose_end(stdout, t);
	} else
		printf("test from %s port %u ended: %s\n", sl->peer, sl->peer_port,
		       t && t->err[0] ? t->err : strerror(-rc));
	printf("-----------------------------------------------------------\n");
	fflush(stdout);
	pthread_mutex_unlock(&s->out_lock);
}
