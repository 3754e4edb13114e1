/*
 * measure.c - one measured run, shared by `diagnose --peer`, the loopback
 * baseline, --trial-fixes and `fix --peer` (fixes/verify.c): the engine's
 * in-process client, plus the softnet counters before and after, read
 * through the probe (probe/ is the only code that reads the OS; the engine
 * samples /proc/stat, TCP_INFO and the interface counters itself).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nicdoctor/common.h"
#include "nicdoctor/experiment.h"
#include "nicdoctor/probe.h"
#include "nicdoctor/sysroot.h"

/* Our own previous test may still be finishing on the peer (iperf3 -s
 * takes a moment to reset): a busy answer is retried briefly. */
#define BUSY_RETRIES 4
#define BUSY_RETRY_MSEC 300

/* A stock iperf3 -s closes its listening socket after each test and opens
 * it again for the next one: a run that connects in that gap is refused,
 * and one that lands in the closing listener's backlog is closed before
 * the first answer (-ECONNABORTED).  Retried for up to a second, so a
 * closed port still fails quickly. */
#define REFUSED_RETRIES 5
#define REFUSED_RETRY_MSEC 200

int nd_peer_parse(const char *arg, char *ret_host, size_t host_size, uint16_t *ret_port)
{
	const char *port = NULL, *end = NULL;
	unsigned value = 0;
	char extra;

	if (!arg || !arg[0])
		return -EINVAL;
	if (arg[0] == '[') {
		end = strchr(arg, ']');
		if (!end || (end[1] && end[1] != ':'))
			return -EINVAL;
		port = end[1] ? end + 2 : NULL;
		arg++;
	} else if (strchr(arg, ':') && strchr(arg, ':') == strrchr(arg, ':')) {
		end = strchr(arg, ':');
		port = end + 1;
	}
	if (port && (sscanf(port, "%u%c", &value, &extra) != 1 || !value || value > 65535))
		return -EINVAL;
	if (snprintf(ret_host, host_size, "%.*s",
		     end ? (int)(end - arg) : (int)strlen(arg), arg) >= (int)host_size ||
	    !ret_host[0])
		return -EINVAL;
	*ret_port = (uint16_t)value;
	return 0;
}

char *nd_peer_format(char *buf, size_t size, const char *host, uint16_t port)
{
	bool v6 = strchr(host, ':') != NULL;

	snprintf(buf, size, "%s%s%s:%u", v6 ? "[" : "", host, v6 ? "]" : "",
		 port ? port : ND_ENGINE_PORT_DEFAULT);
	return buf;
}

/* Sum of the softnet drop and squeeze counters over every CPU. */
static int softnet_totals(uint64_t *ret_dropped, uint64_t *ret_squeezed)
{
	struct nd_facts *facts = calloc(1, sizeof(*facts));
	uint64_t dropped = 0, squeezed = 0;
	int r = 0;

	if (!facts)
		return -ENOMEM;
	nd_probe_softnet(&nd_root_live, NULL, facts);
	if (!facts->softnet.st.known)
		r = -ENODATA;
	for (unsigned i = 0; i < facts->softnet.count; i++) {
		dropped += facts->softnet.cpu[i].dropped;
		squeezed += facts->softnet.cpu[i].time_squeeze;
	}
	free(facts);
	if (r == 0) {
		*ret_dropped = dropped;
		*ret_squeezed = squeezed;
	}
	return r;
}

/* Per-queue packet deltas between two reads of the queue table; rows
 * without counters in either read, or that went backwards, are left out. */
static void queue_deltas(const struct nd_queue_table *a, const struct nd_queue_table *b,
			 struct nd_exp_run *run)
{
	run->queues_count = 0;
	for (unsigned i = 0; i < b->count && run->queues_count < ND_MAX_QUEUE_ROWS; i++) {
		const struct nd_queue_row *after = &b->q[i];

		for (unsigned j = 0; j < a->count; j++) {
			const struct nd_queue_row *before = &a->q[j];
			struct nd_exp_queue_delta *d;

			if (before->kind != after->kind || before->id != after->id)
				continue;
			if (!before->counters_known || !after->counters_known ||
			    after->packets < before->packets || after->bytes < before->bytes)
				break;
			d = &run->queues[run->queues_count++];
			d->kind = after->kind;
			d->id = after->id;
			d->packets = after->packets - before->packets;
			d->bytes = after->bytes - before->bytes;
			break;
		}
	}
}

static void sleep_msec(long msec)
{
	struct timespec ts = { msec / 1000, (msec % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* The engine result's numbers into a run. */
static void fill_run(const struct nd_engine_result *res, bool reverse, struct nd_exp_run *run)
{
	uint64_t rtt_sum = 0;
	uint32_t rtt_n = 0, rtt_min = 0;

	run->mbps = (reverse ? res->rev_received_bps : res->fwd_received_bps) / 1e6;
	run->retransmits = res->retransmits;
	/* A reverse run's sender is the peer: its count, when its results
	 * carried one, is the far end's, kept apart from ours. */
	run->peer_retransmits = -1;
	for (int i = 0; reverse && i < res->streams_count; i++)
		if (!res->streams[i].local_sends && res->streams[i].retransmits >= 0)
			run->peer_retransmits = (run->peer_retransmits < 0 ? 0 :
						 run->peer_retransmits) +
						res->streams[i].retransmits;
	for (int i = 0; i < res->streams_count; i++) {
		const struct nd_engine_tcpinfo *ti = &res->streams[i].tcp;
		uint32_t low = ti->min_rtt_usec ? ti->min_rtt_usec : ti->rtt_usec;

		if (!res->streams[i].local_sends || !ti->valid || !ti->rtt_usec)
			continue;
		rtt_sum += ti->rtt_samples ? ti->rtt_sum_usec / ti->rtt_samples : ti->rtt_usec;
		rtt_n++;
		if (low && (!rtt_min || low < rtt_min))
			rtt_min = low;
	}
	run->rtt_usec = rtt_n ? (double)rtt_sum / rtt_n : 0;
	run->min_rtt_usec = rtt_min;
	run->cpus_count = res->cpus_count;
	memcpy(run->cpus, res->cpus, (size_t)res->cpus_count * sizeof(res->cpus[0]));
	run->nic_valid = res->iface.valid;
	run->nic_rx_dropped = res->iface.rx_dropped;
	run->nic_tx_dropped = res->iface.tx_dropped;
	run->nic_rx_errors = res->iface.rx_errors;
	run->nic_tx_errors = res->iface.tx_errors;
}

static int run_engine(const struct nd_exp_target *target, int streams, bool reverse,
		      double duration_sec, struct nd_engine_result *res, cJSON **ret_view)
{
	struct nd_engine_params p;
	int busy = 0, refused = 0;
	int r;

	nd_engine_params_init(&p);
	p.host = target->host;
	p.port = target->port ? target->port : ND_ENGINE_PORT_DEFAULT;
	p.streams = streams;
	p.duration_sec = duration_sec;
	p.interval_sec = 0;
	p.reverse = reverse;
	p.ifname = target->ifname;
	p.connect_timeout_ms = target->connect_timeout_ms > 0 ? target->connect_timeout_ms
							       : ND_EXP_CONNECT_TIMEOUT_MS;
	p.want_peer = target->want_peer && ret_view;
	p.auth = target->auth;
	p.ret_peer = p.want_peer ? ret_view : NULL;
	for (;;) {
		if (p.ret_peer) {
			cJSON_Delete(*p.ret_peer);
			*p.ret_peer = NULL;
		}
		r = nd_engine_run_client(&p, res);
		if (r == -EBUSY && busy++ < BUSY_RETRIES)
			sleep_msec(BUSY_RETRY_MSEC);
		else if ((r == -ECONNREFUSED || r == -ECONNABORTED) &&
			 refused++ < REFUSED_RETRIES)
			sleep_msec(REFUSED_RETRY_MSEC);
		else
			return r;
	}
}

/* The far end's per-CPU shares from its payload's "cpus" array. */
static void fill_far_cpus(const cJSON *view, struct nd_exp_run *run)
{
	const cJSON *c;

	run->far_cpus_count = 0;
	cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(view, "cpus")) {
		const cJSON *cpu = cJSON_GetObjectItemCaseSensitive(c, "cpu");
		const cJSON *busy = cJSON_GetObjectItemCaseSensitive(c, "busy_pct");
		const cJSON *soft = cJSON_GetObjectItemCaseSensitive(c, "softirq_pct");
		struct nd_engine_cpu_share *share;

		if (run->far_cpus_count >= ND_ENGINE_MAX_CPUS)
			break;
		if (!cJSON_IsNumber(cpu) || !cJSON_IsNumber(busy) || !cJSON_IsNumber(soft))
			continue;
		share = &run->far_cpus[run->far_cpus_count++];
		share->cpu = cpu->valueint;
		share->busy_pct = busy->valuedouble;
		share->softirq_pct = soft->valuedouble;
	}
}

int nd_exp_measure(const struct nd_exp_target *target, int streams, bool reverse,
		   double duration_sec, struct nd_exp_run *ret, char *why, size_t why_size)
{
	return nd_exp_measure_peer(target, streams, reverse, duration_sec, ret, NULL, why,
				   why_size);
}

int nd_exp_measure_peer(const struct nd_exp_target *target, int streams, bool reverse,
			double duration_sec, struct nd_exp_run *ret, cJSON **ret_view,
			char *why, size_t why_size)
{
	struct nd_engine_result *res = calloc(1, sizeof(*res));
	struct nd_queue_table *q0 = calloc(2, sizeof(*q0));
	bool queues = false;
	uint64_t drop0 = 0, squeeze0 = 0, drop1 = 0, squeeze1 = 0;
	bool softnet;
	int r;

	if (!res || !q0) {
		free(res);
		free(q0);
		return -ENOMEM;
	}
	memset(ret, 0, sizeof(*ret));
	ret->retransmits = -1;
	ret->peer_retransmits = -1;
	softnet = softnet_totals(&drop0, &squeeze0) == 0;
	queues = target->ifname &&
		 nd_probe_queue_sample(&nd_root_live, target->ifname, &q0[0]) == 0;
	if (ret_view)
		*ret_view = NULL;
	r = run_engine(target, streams, reverse, duration_sec, res, ret_view);
	if (r == 0 && (reverse ? res->rev_received_bps : res->fwd_received_bps) <= 0) {
		snprintf(res->error, sizeof(res->error), "no data arrived");
		r = -ENODATA;
	}
	if (r < 0) {
		snprintf(why, why_size, "%s", res->error[0] ? res->error : strerror(-r));
		free(res);
		free(q0);
		if (ret_view) {
			cJSON_Delete(*ret_view);
			*ret_view = NULL;
		}
		return r;
	}
	softnet = softnet && softnet_totals(&drop1, &squeeze1) == 0;
	if (queues && nd_probe_queue_sample(&nd_root_live, target->ifname, &q0[1]) == 0)
		queue_deltas(&q0[0], &q0[1], ret);
	free(q0);
	ret->done = true;
	ret->reverse = reverse;
	ret->streams = streams;
	ret->duration_sec = res->duration_sec > 0 ? res->duration_sec : duration_sec;
	fill_run(res, reverse, ret);
	if (ret_view && *ret_view)
		fill_far_cpus(*ret_view, ret);
	ret->softnet_valid = softnet;
	/* A CPU going offline mid-run makes a total shrink: no delta then. */
	if (softnet && (drop1 < drop0 || squeeze1 < squeeze0))
		ret->softnet_valid = false;
	if (ret->softnet_valid) {
		ret->softnet_dropped = drop1 - drop0;
		ret->softnet_squeezed = squeeze1 - squeeze0;
	}
	free(res);
	return 0;
}
