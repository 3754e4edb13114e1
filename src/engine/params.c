/*
 * params.c - the client's test parameters as iperf3 JSON, both ways.
 * Flags are emitted only when on, because a present key means "on" to every
 * iperf3 version (protocol doc §2); the server validates every range.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nicdoctor/common.h"
#include "engine_int.h"

void nd_engine_params_init(struct nd_engine_params *p)
{
	int i;

	memset(p, 0, sizeof(*p));
	p->port = ND_ENGINE_PORT_DEFAULT;
	p->streams = 1;
	p->duration_sec = 10;
	p->interval_sec = 1;
	p->tos = 0;
	for (i = 0; i < ND_ENGINE_MAX_STREAMS; i++)
		p->cpus[i] = -1;
	p->server_affinity = -1;
}

uint32_t nd_params_len(const struct nd_engine_params *p)
{
	if (p->len_bytes)
		return p->len_bytes;
	return p->udp ? 1460 : ND_ENGINE_TCP_LEN_DEFAULT;
}

static cJSON *add_true(cJSON *o, const char *key)
{
	return cJSON_AddTrueToObject(o, key);
}

/* The keys of iperf3 3.21's later flags, as its send_parameters writes them. */
static void params_to_json_iperf321(const struct nd_engine_params *p, cJSON *o)
{
	if (p->server_affinity >= 0)
		cJSON_AddNumberToObject(o, "server_affinity", p->server_affinity);
	if (p->mptcp)
		add_true(o, "mptcp");
	if (p->fq_rate_bps)
		cJSON_AddNumberToObject(o, "fqrate", (double)p->fq_rate_bps);
	if (p->udp) {
		/* 3.21 always sends these for UDP; 1 asks its server for them. */
		cJSON_AddNumberToObject(o, "gso", p->gsro);
		cJSON_AddNumberToObject(o, "gso_dg_size", p->gsro ? nd_params_len(p) : 0);
		cJSON_AddNumberToObject(o, "gso_bf_size", p->gsro ? 65507 : 0);
		cJSON_AddNumberToObject(o, "gro", p->gsro);
		cJSON_AddNumberToObject(o, "gro_bf_size", p->gsro ? 65507 : 0);
	}
	if (p->flowlabel)
		cJSON_AddNumberToObject(o, "flowlabel", p->flowlabel);
	if (p->extra_data)
		cJSON_AddStringToObject(o, "extra_data", p->extra_data);
	if (p->repeating_payload)
		cJSON_AddNumberToObject(o, "repeating_payload", 1);
	if (p->dont_fragment)
		cJSON_AddNumberToObject(o, "dont_fragment", 1);
}

int nd_params_to_json(const struct nd_engine_params *p, cJSON **ret_obj)
{
	cJSON *o = cJSON_CreateObject();
	bool by_amount = p->bytes_total || p->blocks_total;

	if (!o)
		return -ENOMEM;
	add_true(o, p->udp ? "udp" : "tcp");
	cJSON_AddNumberToObject(o, "omit", p->omit_sec);
	cJSON_AddNumberToObject(o, "time", by_amount ? 0 : (int)lround(p->duration_sec));
	cJSON_AddNumberToObject(o, "num", (double)p->bytes_total);
	cJSON_AddNumberToObject(o, "blockcount", (double)p->blocks_total);
	if (p->mss_bytes)
		cJSON_AddNumberToObject(o, "MSS", p->mss_bytes);
	if (p->nodelay)
		add_true(o, "nodelay");
	cJSON_AddNumberToObject(o, "parallel", p->streams);
	if (p->reverse)
		add_true(o, "reverse");
	if (p->bidir)
		add_true(o, "bidirectional");
	if (p->window_bytes)
		cJSON_AddNumberToObject(o, "window", p->window_bytes);
	cJSON_AddNumberToObject(o, "len", nd_params_len(p));
	if (p->udp || p->rate_bps)
		cJSON_AddNumberToObject(o, "bandwidth",
					(double)(p->rate_set ? p->rate_bps :
						 p->udp ? ND_ENGINE_UDP_RATE_DEFAULT : 0));
	cJSON_AddNumberToObject(o, "pacing_timer",
				p->pacing_timer_usec > 0 ? p->pacing_timer_usec : 1000);
	if (p->tos)
		cJSON_AddNumberToObject(o, "TOS", p->tos);
	if (p->title)
		cJSON_AddStringToObject(o, "title", p->title);
	if (p->congestion)
		cJSON_AddStringToObject(o, "congestion", p->congestion);
	if (p->get_server_output)
		cJSON_AddNumberToObject(o, "get_server_output", 1);
	if (p->want_peer)
		cJSON_AddNumberToObject(o, "nicdoctor_peer", 1);
	if (p->udp)
		cJSON_AddNumberToObject(o, "udp_counters_64bit", 1);
	if (p->zerocopy)
		cJSON_AddNumberToObject(o, "zerocopy", 1);
	if (p->skip_rx_copy)
		cJSON_AddNumberToObject(o, "skip_rx_copy", 1);
	params_to_json_iperf321(p, o);
	cJSON_AddStringToObject(o, "client_version", "nicdoctor " ND_VERSION);
	if (cJSON_GetArraySize(o) < 8) {
		cJSON_Delete(o);
		return -ENOMEM;
	}
	*ret_obj = o;
	return 0;
}

static bool has(const cJSON *o, const char *key)
{
	return cJSON_GetObjectItemCaseSensitive(o, key) != NULL;
}

/* Read an integer key into [lo, hi]; absent keeps *val.  -EINVAL if out. */
static int range(const cJSON *o, const char *key, int64_t lo, int64_t hi, int64_t *val,
		 char *err, size_t err_size)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);
	double v;

	if (!it)
		return 0;
	if (!cJSON_IsNumber(it) || !isfinite(it->valuedouble)) {
		snprintf(err, err_size, "parameter '%s' is not a number", key);
		return -EINVAL;
	}
	v = it->valuedouble;
	if (v < (double)lo || v > (double)hi) {
		snprintf(err, err_size, "parameter '%s' out of range: %.0f", key, v);
		return -EINVAL;
	}
	*val = (int64_t)v;
	return 0;
}

static void copy_str(const cJSON *o, const char *key, char *buf, size_t size)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);

	buf[0] = '\0';
	if (cJSON_IsString(it) && it->valuestring)
		nd_strlcpy(buf, it->valuestring, size);
}

/* What the server applies of 3.21's later keys: pacing, DF, the far end's
 * view of GSO/GRO, extra_data for its -J. */
static int params_from_json_iperf321(const cJSON *o, struct nd_engine_params *p,
				     struct nd_wire_extra *extra, char *err, size_t err_size)
{
	int64_t fq = 0, pacing = 0, flowlabel = 0;
	int rc = 0;

	rc |= range(o, "fqrate", 0, INT64_MAX / 2, &fq, err, err_size);
	rc |= range(o, "pacing_timer", 0, 1000000000, &pacing, err, err_size);
	rc |= range(o, "flowlabel", 0, 0xfffff, &flowlabel, err, err_size);
	if (rc)
		return -EINVAL;
	p->fq_rate_bps = (uint64_t)fq;
	p->pacing_timer_usec = (int)pacing;
	p->flowlabel = (uint32_t)flowlabel;
	p->dont_fragment = has(o, "dont_fragment") && nd_json_int(o, "dont_fragment", 0);
	p->repeating_payload = has(o, "repeating_payload");
	p->gsro = nd_json_int(o, "gro", 0) || nd_json_int(o, "gso", 0);
	p->mptcp = has(o, "mptcp");
	copy_str(o, "extra_data", extra->extra_data, sizeof(extra->extra_data));
	if (extra->extra_data[0])
		p->extra_data = extra->extra_data;
	return 0;
}

int nd_params_from_json(const cJSON *o, struct nd_engine_params *p,
			struct nd_wire_extra *extra, char *err, size_t err_size)
{
	int64_t omit = 0, time_s = 10, num = 0, blocks = 0, parallel = 1, len = 0;
	int64_t mss = 0, window = 0, rate = 0, tos = 0;
	int rc = 0;

	nd_engine_params_init(p);
	memset(extra, 0, sizeof(*extra));
	if (has(o, "sctp")) {
		snprintf(err, err_size, "sctp is not supported");
		return -EINVAL;
	}
	p->udp = has(o, "udp");
	rc |= range(o, "omit", 0, 600, &omit, err, err_size);
	rc |= range(o, "time", 0, 86400, &time_s, err, err_size);
	rc |= range(o, "num", 0, INT64_MAX / 2, &num, err, err_size);
	rc |= range(o, "blockcount", 0, INT64_MAX / 2, &blocks, err, err_size);
	rc |= range(o, "parallel", 1, ND_ENGINE_MAX_STREAMS, &parallel, err, err_size);
	if (p->udp)
		rc |= range(o, "len", ND_UDP_LEN_MIN, ND_UDP_LEN_MAX, &len, err, err_size);
	else
		rc |= range(o, "len", 1, ND_TCP_LEN_MAX, &len, err, err_size);
	rc |= range(o, "MSS", 0, 32767, &mss, err, err_size);
	rc |= range(o, "window", 0, 1 << 30, &window, err, err_size);
	rc |= range(o, "bandwidth", 0, INT64_MAX / 2, &rate, err, err_size);
	rc |= range(o, "TOS", 0, 255, &tos, err, err_size);
	if (rc)
		return -EINVAL;
	if (time_s == 0 && num == 0 && blocks == 0) {
		snprintf(err, err_size, "parameter 'time' is 0 with no byte or block count");
		return -EINVAL;
	}
	p->omit_sec = (int)omit;
	p->duration_sec = (double)time_s;
	p->bytes_total = (uint64_t)num;
	p->blocks_total = (uint64_t)blocks;
	p->streams = (int)parallel;
	p->len_bytes = (uint32_t)len;
	p->mss_bytes = (int)mss;
	p->window_bytes = (uint32_t)window;
	p->rate_bps = (uint64_t)rate;
	p->rate_set = has(o, "bandwidth");
	p->tos = (int)tos;
	p->reverse = has(o, "reverse");
	p->bidir = has(o, "bidirectional");
	p->nodelay = has(o, "nodelay");
	p->zerocopy = has(o, "zerocopy");
	p->skip_rx_copy = has(o, "skip_rx_copy");
	p->get_server_output = has(o, "get_server_output");
	p->want_peer = has(o, "nicdoctor_peer");
	extra->udp_64bit = has(o, "udp_counters_64bit");
	extra->authtoken = has(o, "authtoken");
	copy_str(o, "congestion", extra->congestion, sizeof(extra->congestion));
	copy_str(o, "title", extra->title, sizeof(extra->title));
	if (extra->congestion[0])
		p->congestion = extra->congestion;
	return params_from_json_iperf321(o, p, extra, err, err_size);
}
