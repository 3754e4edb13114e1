/*
 * results.c - the EXCHANGE_RESULTS objects (protocol doc §4): ours built
 * from the streams, the peer's matched back by stream id, and the public
 * nd_engine_result filled from both.
 */
#include <errno.h>
#include <string.h>

#include "nicdoctor/common.h"
#include "engine_int.h"
#include "nicdoctor/sanitize.h"

static uint64_t local_bytes(const struct nd_stream *s)
{
	return atomic_load(&s->bytes) - s->omit_bytes;
}

static bool sends_tcp(const struct nd_test *t)
{
	for (int i = 0; i < t->streams_count; i++)
		if (t->streams[i].sending)
			return true;
	return false;
}

static double cpu_pct(const struct nd_test *t, double user, double sys)
{
	double wall = t->t_end - t->t_omit_end;

	return wall > 0 ? 100.0 * (user + sys) / wall : 0;
}

static cJSON *stream_json(const struct nd_test *t, const struct nd_stream *s)
{
	cJSON *o = cJSON_CreateObject();
	uint64_t packets = atomic_load(&s->packets) - s->omit_packets;
	uint64_t lost = 0;

	if (!o)
		return NULL;
	if (t->p.udp && !s->sending) {
		/* A receiver reports the highest sequence number it saw. */
		packets = s->acct.highest_seq;
		lost = s->acct.lost;
	}
	cJSON_AddNumberToObject(o, "id", s->id);
	cJSON_AddNumberToObject(o, "bytes", (double)local_bytes(s));
	cJSON_AddNumberToObject(o, "retransmits",
				!t->p.udp && s->sending ?
				(double)(s->tcp.total_retrans - s->omit_retrans) : -1);
	cJSON_AddNumberToObject(o, "jitter", s->sending ? 0 : s->acct.jitter_sec);
	cJSON_AddNumberToObject(o, "errors", (double)lost);
	cJSON_AddNumberToObject(o, "omitted_errors", 0);
	cJSON_AddNumberToObject(o, "packets", (double)packets);
	cJSON_AddNumberToObject(o, "omitted_packets", 0);
	cJSON_AddNumberToObject(o, "start_time", 0);
	cJSON_AddNumberToObject(o, "end_time", s->end_sec);
	return o;
}

int nd_test_results_json(const struct nd_test *t, cJSON **ret_obj)
{
	cJSON *o = cJSON_CreateObject(), *arr;
	double user = t->ru_user1 - t->ru_user0, sys = t->ru_sys1 - t->ru_sys0;
	int i;

	if (!o)
		return -ENOMEM;
	cJSON_AddNumberToObject(o, "cpu_util_total", cpu_pct(t, user, sys));
	cJSON_AddNumberToObject(o, "cpu_util_user", cpu_pct(t, user, 0));
	cJSON_AddNumberToObject(o, "cpu_util_system", cpu_pct(t, 0, sys));
	cJSON_AddNumberToObject(o, "sender_has_retransmits",
				!sends_tcp(t) ? -1 : t->p.udp ? 0 : 1);
	if (t->congestion[0])
		cJSON_AddStringToObject(o, "congestion_used", t->congestion);
	arr = cJSON_AddArrayToObject(o, "streams");
	for (i = 0; arr && i < t->streams_count; i++) {
		cJSON *s = stream_json(t, &t->streams[i]);

		if (s)
			cJSON_AddItemToArray(arr, s);
	}
	if (!arr || cJSON_GetArraySize(arr) != t->streams_count) {
		cJSON_Delete(o);
		return -ENOMEM;
	}
	*ret_obj = o;
	return 0;
}

cJSON *nd_test_cpu_shares_json(const struct nd_test *t)
{
	struct nd_engine_cpu_share shares[ND_ENGINE_MAX_CPUS];
	int n = nd_cpu_shares(&t->cpu_omit, &t->cpu1, shares, ND_ENGINE_MAX_CPUS);
	cJSON *arr = cJSON_CreateArray();

	for (int i = 0; arr && i < n; i++) {
		cJSON *c = cJSON_CreateObject();

		if (!c)
			break;
		cJSON_AddNumberToObject(c, "cpu", shares[i].cpu);
		cJSON_AddNumberToObject(c, "busy_pct", shares[i].busy_pct);
		cJSON_AddNumberToObject(c, "softirq_pct", shares[i].softirq_pct);
		cJSON_AddItemToArray(arr, c);
	}
	return arr;
}

static struct nd_stream *find_stream(struct nd_test *t, int64_t id)
{
	for (int i = 0; i < t->streams_count; i++)
		if (t->streams[i].id == id)
			return &t->streams[i];
	return NULL;
}

/* -EPROTO for a missing array or an unknown id (iperf3's IESTREAMID). */
int nd_test_apply_remote(struct nd_test *t, const cJSON *obj)
{
	const cJSON *arr = cJSON_GetObjectItemCaseSensitive(obj, "streams"), *it;
	const cJSON *txt;

	if (!cJSON_IsArray(arr)) {
		snprintf(t->err, sizeof(t->err), "peer results have no 'streams' array");
		return -EPROTO;
	}
	t->remote_cpu_total = nd_json_double(obj, "cpu_util_total", 0);
	t->remote_cpu_user = nd_json_double(obj, "cpu_util_user", 0);
	t->remote_cpu_system = nd_json_double(obj, "cpu_util_system", 0);
	t->remote_sender_has_retrans = nd_json_int(obj, "sender_has_retransmits", -1);
	txt = cJSON_GetObjectItemCaseSensitive(obj, "congestion_used");
	/* The server's strings reach our terminal and -J output: no control,
	 * no invalid UTF-8 (sanitize.h). */
	if (cJSON_IsString(txt) && txt->valuestring) {
		nd_strlcpy(t->remote_congestion, txt->valuestring, sizeof(t->remote_congestion));
		nd_sanitize_buf(t->remote_congestion, sizeof(t->remote_congestion), 0);
	}
	txt = cJSON_GetObjectItemCaseSensitive(obj, "server_output_text");
	if (cJSON_IsString(txt) && txt->valuestring && !t->server_output_text)
		t->server_output_text = nd_sanitize_dup(txt->valuestring, ND_SANITIZE_MULTILINE);
	txt = cJSON_GetObjectItemCaseSensitive(obj, "server_output_json");
	if (cJSON_IsObject(txt) && !t->server_output_json) {
		t->server_output_json = cJSON_Duplicate(txt, 1);
		nd_sanitize_json(t->server_output_json);
	}
	cJSON_ArrayForEach(it, arr) {
		struct nd_stream *s = find_stream(t, nd_json_int(it, "id", -1));
		int64_t v;

		if (!s) {
			snprintf(t->err, sizeof(t->err), "peer results name an unknown stream id");
			return -EPROTO;
		}
		s->have_remote = true;
		v = nd_json_int(it, "bytes", 0);
		s->remote_bytes = v > 0 ? (uint64_t)v : 0;
		v = nd_json_int(it, "packets", 0);
		s->remote_packets = v > 0 ? (uint64_t)v : 0;
		v = nd_json_int(it, "errors", 0);
		s->remote_lost = v > 0 ? (uint64_t)v : 0;
		s->remote_jitter_sec = nd_json_double(it, "jitter", 0);
		s->remote_retrans = nd_json_int(it, "retransmits", -1);
		s->remote_end_sec = nd_json_double(it, "end_time", 0);
	}
	return 0;
}

static double bps(uint64_t bytes, double sec)
{
	return sec > 0 ? (double)bytes * 8.0 / sec : 0;
}

static void fill_stream(const struct nd_test *t, const struct nd_stream *s,
			struct nd_engine_stream_result *o)
{
	o->id = s->id;
	o->local_sends = s->sending;
	o->local_bytes = local_bytes(s);
	o->remote_bytes = s->remote_bytes;
	o->packets = s->sending ? atomic_load(&s->packets) - s->omit_packets : s->acct.highest_seq;
	o->remote_packets = s->remote_packets;
	o->lost_packets = s->sending ? s->remote_lost : s->acct.lost;
	o->out_of_order = s->acct.out_of_order;
	o->jitter_sec = s->sending ? s->remote_jitter_sec : s->acct.jitter_sec;
	o->retransmits = t->p.udp ? -1 :
			 s->sending ? (int64_t)(s->tcp.total_retrans - s->omit_retrans) :
			 s->remote_retrans;
	o->remote_end_sec = s->remote_end_sec;
	o->tcp = s->tcp;
	o->cpu = s->cpu;
}

void nd_test_fill_result(const struct nd_test *t, struct nd_engine_result *r)
{
	double sec = t->t_end - t->t_omit_end;
	bool client = !t->is_server;
	int i;

	memset(r, 0, sizeof(*r));
	r->duration_sec = sec;
	r->retransmits = -1;
	for (i = 0; i < t->streams_count; i++) {
		const struct nd_stream *s = &t->streams[i];
		struct nd_engine_stream_result *o = &r->streams[r->streams_count++];
		/* Forward means client to server. */
		bool fwd = s->sending == client;
		uint64_t sent = s->sending ? local_bytes(s) : s->remote_bytes;
		uint64_t rcvd = s->sending ? s->remote_bytes : local_bytes(s);

		fill_stream(t, s, o);
		if (fwd) {
			r->fwd_sent_bytes += sent;
			r->fwd_received_bytes += rcvd;
		} else {
			r->rev_sent_bytes += sent;
			r->rev_received_bytes += rcvd;
		}
		if (s->sending) {
			r->sent_bps += bps(local_bytes(s), sec);
			if (o->retransmits >= 0)
				r->retransmits = (r->retransmits < 0 ? 0 : r->retransmits) +
						 o->retransmits;
		} else {
			r->received_bps += bps(local_bytes(s), sec);
		}
	}
	r->fwd_sent_bps = bps(r->fwd_sent_bytes, sec);
	r->fwd_received_bps = bps(r->fwd_received_bytes, sec);
	r->rev_sent_bps = bps(r->rev_sent_bytes, sec);
	r->rev_received_bps = bps(r->rev_received_bytes, sec);
	r->cpu_local_user_pct = cpu_pct(t, t->ru_user1 - t->ru_user0, 0);
	r->cpu_local_system_pct = cpu_pct(t, 0, t->ru_sys1 - t->ru_sys0);
	r->cpu_local_total_pct = r->cpu_local_user_pct + r->cpu_local_system_pct;
	r->cpu_remote_total_pct = t->remote_cpu_total;
	r->cpu_remote_user_pct = t->remote_cpu_user;
	r->cpu_remote_system_pct = t->remote_cpu_system;
	r->cpus_count = nd_cpu_shares(&t->cpu_omit, &t->cpu1, r->cpus, ND_ENGINE_MAX_CPUS);
	nd_iface_delta(t->ifname, &t->if0, &t->if1, &r->iface);
	nd_strlcpy(r->congestion_used, t->congestion, sizeof(r->congestion_used));
	nd_strlcpy(r->remote_congestion, t->remote_congestion, sizeof(r->remote_congestion));
	nd_strlcpy(r->error, t->err, sizeof(r->error));
}
