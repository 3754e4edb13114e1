/*
 * spread.c - bench --spread's report: how the flows spread over the
 * sending interface's queues, from the queues' counters during the test
 * ("4 flows on 4 of 4 TX queues"), as text after bench's summary and as
 * the object under "nicdoctor"."flow_spread" in -J; on a bond, how the
 * flows spread over its members from the members' own counters.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "nicdoctor/spread.h"

void nd_spread_sentence(const struct nd_spread_summary *s, const char *kind, char *buf,
			size_t size)
{
	unsigned want = s->flows < s->queues ? s->flows : s->queues;
	int n = snprintf(buf, size, "%u flow%s on %u of %u %s queues", s->flows,
			 s->flows == 1 ? "" : "s", s->carrying, s->queues, kind);

	if (s->carrying >= want || s->lowest < 0 || n < 0 || (size_t)n >= size)
		return;
	/* The queue a flow should have had and did not carry. */
	snprintf(buf + n, size - (size_t)n, ": %c%c-%u carried %" PRIu64 " packet%s",
		 kind[0] == 'T' ? 't' : 'r', 'x', s->q[s->lowest].id, s->q[s->lowest].packets,
		 s->q[s->lowest].packets == 1 ? "" : "s");
}

static void side_text(FILE *f, const struct nd_spread_view *v, const struct nd_spread_side *sd,
		      const char *kind, bool any_flow)
{
	const struct nd_spread_summary *s = &sd->sum;
	char line[200];

	if (!any_flow)
		return;
	if (!sd->watched) {
		fprintf(f, "%s queues: not counted: %s\n", kind,
			sd->why_uncounted[0] ? sd->why_uncounted : "unknown");
		if (!sd->placed && sd->why[0])
			fprintf(f, "%s flows not placed: %s\n", kind, sd->why);
		else if (sd->placed)
			fprintf(f, "%s flows placed on distinct queues at connect\n", kind);
		return;
	}
	fprintf(f, "%s queues of %s (%s counters, during the test):\n", kind, v->ifname,
		sd->source);
	fprintf(f, "  queue       packets           bytes  flows\n");
	for (unsigned i = 0; i < s->queues; i++)
		fprintf(f, "  %cx-%-4u %12" PRIu64 " %15" PRIu64 " %6u\n", kind[0] == 'T' ? 't' : 'r',
			s->q[i].id, s->q[i].packets, s->q[i].bytes, s->q[i].flows);
	nd_spread_sentence(s, kind, line, sizeof(line));
	if (sd->placed)
		fprintf(f, "%s\n", line);
	else
		fprintf(f, "%s (not placed: %s)\n", line, sd->why[0] ? sd->why : "unknown");
}

static void members_text(FILE *f, const struct nd_spread_view *v)
{
	const struct nd_spread_members *m = &v->members;
	char line[200];

	if (!m->bond)
		return;
	fprintf(f, "Bond %s (%s, %s): %s\n", v->ifname, m->mode[0] ? m->mode : "mode unknown",
		m->policy[0] ? m->policy : "policy unknown",
		m->placed ? "source ports chosen by its hash to cover the members" : m->why);
	if (!m->counted) {
		fprintf(f, "Bond members: not counted: %s\n",
			m->why_uncounted[0] ? m->why_uncounted : "unknown");
		return;
	}
	fprintf(f, "  member           packets           bytes  flows\n");
	for (unsigned i = 0; i < m->sum.queues; i++)
		fprintf(f, "  %-10s %12" PRIu64 " %15" PRIu64 " %6u\n", m->name[i],
			m->sum.q[i].packets, m->sum.q[i].bytes, m->sum.q[i].flows);
	nd_spread_members_sentence(m, line, sizeof(line));
	fprintf(f, "%s\n", line);
}

static cJSON *members_json(const struct nd_spread_view *v)
{
	const struct nd_spread_members *m = &v->members;
	cJSON *o = cJSON_CreateObject(), *arr;
	char line[200];

	cJSON_AddStringToObject(o, "mode", m->mode);
	cJSON_AddStringToObject(o, "xmit_hash_policy", m->policy);
	cJSON_AddBoolToObject(o, "placed", m->placed);
	if (m->why[0])
		cJSON_AddStringToObject(o, "why_not_placed", m->why);
	cJSON_AddBoolToObject(o, "counted", m->counted);
	if (!m->counted) {
		cJSON_AddStringToObject(o, "why_not_counted", m->why_uncounted);
		return o;
	}
	cJSON_AddNumberToObject(o, "members", m->sum.queues);
	cJSON_AddNumberToObject(o, "members_carrying", m->sum.carrying);
	nd_spread_members_sentence(m, line, sizeof(line));
	cJSON_AddStringToObject(o, "summary", line);
	arr = cJSON_AddArrayToObject(o, "per_member");
	for (unsigned i = 0; i < m->sum.queues; i++) {
		cJSON *q = cJSON_CreateObject();

		cJSON_AddStringToObject(q, "member", m->name[i]);
		cJSON_AddNumberToObject(q, "tx_packets", (double)m->sum.q[i].packets);
		cJSON_AddNumberToObject(q, "tx_bytes", (double)m->sum.q[i].bytes);
		cJSON_AddNumberToObject(q, "flows", m->sum.q[i].flows);
		cJSON_AddItemToArray(arr, q);
	}
	return o;
}

void nd_spread_view_text(FILE *f, const struct nd_spread_view *v)
{
	bool tx = false, rx = false;

	for (unsigned i = 0; i < v->flows_count; i++)
		*(v->flows[i].sending ? &tx : &rx) = true;
	fprintf(f, "\nFlow spread (--spread): %u dial%s, %u re-dialed\n", v->dials,
		v->dials == 1 ? "" : "s", v->redials);
	side_text(f, v, &v->tx, "TX", tx);
	side_text(f, v, &v->rx, "RX", rx);
	members_text(f, v);
}

static cJSON *side_json(const struct nd_spread_side *sd, const char *kind)
{
	const struct nd_spread_summary *s = &sd->sum;
	cJSON *o = cJSON_CreateObject(), *arr;
	char line[200];

	cJSON_AddBoolToObject(o, "counted", sd->watched);
	cJSON_AddBoolToObject(o, "placed", sd->placed);
	if (sd->why[0])
		cJSON_AddStringToObject(o, "why_not_placed", sd->why);
	if (!sd->watched) {
		cJSON_AddStringToObject(o, "why_not_counted", sd->why_uncounted);
		return o;
	}
	cJSON_AddStringToObject(o, "counter_source", sd->source);
	cJSON_AddNumberToObject(o, "flows", s->flows);
	cJSON_AddNumberToObject(o, "queues", s->queues);
	cJSON_AddNumberToObject(o, "queues_carrying", s->carrying);
	nd_spread_sentence(s, kind, line, sizeof(line));
	cJSON_AddStringToObject(o, "summary", line);
	arr = cJSON_AddArrayToObject(o, "per_queue");
	for (unsigned i = 0; i < s->queues; i++) {
		cJSON *q = cJSON_CreateObject();
		char name[16];

		snprintf(name, sizeof(name), "%cx-%u", kind[0] == 'T' ? 't' : 'r', s->q[i].id);
		cJSON_AddStringToObject(q, "queue", name);
		cJSON_AddNumberToObject(q, "packets", (double)s->q[i].packets);
		cJSON_AddNumberToObject(q, "bytes", (double)s->q[i].bytes);
		cJSON_AddNumberToObject(q, "flows", s->q[i].flows);
		cJSON_AddItemToArray(arr, q);
	}
	return o;
}

cJSON *nd_spread_view_json(const struct nd_spread_view *v)
{
	cJSON *o = cJSON_CreateObject(), *arr;

	cJSON_AddStringToObject(o, "interface", v->ifname);
	cJSON_AddNumberToObject(o, "dials", v->dials);
	cJSON_AddNumberToObject(o, "redials", v->redials);
	arr = cJSON_AddArrayToObject(o, "streams");
	for (unsigned i = 0; i < v->flows_count; i++) {
		const struct nd_spread_flow *fl = &v->flows[i];
		cJSON *s = cJSON_CreateObject();
		char name[16];

		cJSON_AddNumberToObject(s, "id", fl->id);
		cJSON_AddStringToObject(s, "direction", fl->sending ? "tx" : "rx");
		cJSON_AddNumberToObject(s, "local_port", fl->port);
		snprintf(name, sizeof(name), "%s-%d", fl->sending ? "tx" : "rx", fl->queue);
		if (fl->queue >= 0)
			cJSON_AddStringToObject(s, "queue_at_connect", name);
		else
			cJSON_AddNullToObject(s, "queue_at_connect");
		cJSON_AddNumberToObject(s, "dials", fl->dials);
		cJSON_AddItemToArray(arr, s);
	}
	cJSON_AddItemToObject(o, "tx", side_json(&v->tx, "TX"));
	cJSON_AddItemToObject(o, "rx", side_json(&v->rx, "RX"));
	if (v->members.bond)
		cJSON_AddItemToObject(o, "bond", members_json(v));
	return o;
}
