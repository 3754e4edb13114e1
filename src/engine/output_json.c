/*
 * output_json.c - `bench -J`: iperf3's -J layout and key names (start,
 * intervals, end with sum_sent / sum_received / cpu_utilization_percent)
 * so existing parsers work, plus our measurements under "nicdoctor".
 */
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>

#include "nicdoctor/common.h"
#include "engine_int.h"

static double bps(uint64_t bytes, double sec)
{
	return sec > 0 ? (double)bytes * 8.0 / sec : 0;
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0;
}

/* A socket's buffer sizes as the kernel set them (3.21's *_actual keys). */
static void add_bufsizes(cJSON *o, const struct nd_test *t)
{
	int fd = t->streams_count ? t->streams[0].fd : t->ctrl_fd, snd = 0, rcv = 0;
	socklen_t len = sizeof(int);

	if (fd >= 0) {
		getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &snd, &len);
		len = sizeof(int);
		getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcv, &len);
	}
	cJSON_AddNumberToObject(o, "sndbuf_actual", snd);
	cJSON_AddNumberToObject(o, "rcvbuf_actual", rcv);
}

static void add_mss(cJSON *o, const struct nd_test *t)
{
	int mss = 0;
	socklen_t len = sizeof(mss);

	if (t->p.udp)
		return;
	if (t->p.mss_bytes) {
		cJSON_AddNumberToObject(o, "tcp_mss", t->p.mss_bytes);
		return;
	}
	if (t->ctrl_fd >= 0)
		getsockopt(t->ctrl_fd, IPPROTO_TCP, TCP_MAXSEG, &mss, &len);
	cJSON_AddNumberToObject(o, "tcp_mss_default", mss);
}

cJSON *nd_out_json_start(const struct nd_test *t)
{
	cJSON *o = cJSON_CreateObject(), *arr, *ts, *to, *st;
	struct utsname u;
	char when[64];
	time_t now = time(NULL);
	struct tm tm;
	struct timespec rt;

	arr = cJSON_AddArrayToObject(o, "connected");
	for (int i = 0; i < t->streams_count; i++) {
		const struct nd_stream *s = &t->streams[i];
		cJSON *c = cJSON_CreateObject();

		cJSON_AddNumberToObject(c, "socket", s->id);
		cJSON_AddStringToObject(c, "local_host", s->local_host);
		cJSON_AddNumberToObject(c, "local_port", s->local_port);
		cJSON_AddStringToObject(c, "remote_host", s->remote_host);
		cJSON_AddNumberToObject(c, "remote_port", s->remote_port);
		cJSON_AddItemToArray(arr, c);
	}
	cJSON_AddStringToObject(o, "version", "nicdoctor " ND_VERSION);
	if (uname(&u) == 0) {
		char sys[400];

		snprintf(sys, sizeof(sys), "%s %s %s %s %s", u.sysname, u.nodename, u.release,
			 u.version, u.machine);
		cJSON_AddStringToObject(o, "system_info", sys);
	}
	ts = cJSON_AddObjectToObject(o, "timestamp");
	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%a, %d %b %Y %H:%M:%S GMT", &tm);
	cJSON_AddStringToObject(ts, "time", when);
	cJSON_AddNumberToObject(ts, "timesecs", (double)now);
	clock_gettime(CLOCK_REALTIME, &rt);
	cJSON_AddNumberToObject(ts, "timemillisecs", (double)rt.tv_sec * 1000 + rt.tv_nsec / 1000000);
	if (t->is_server) {
		to = cJSON_AddObjectToObject(o, "accepted_connection");
		cJSON_AddStringToObject(to, "host", t->streams_count ? t->streams[0].remote_host : "");
		cJSON_AddNumberToObject(to, "port", t->streams_count ? t->streams[0].remote_port : 0);
	} else {
		to = cJSON_AddObjectToObject(o, "connecting_to");
		cJSON_AddStringToObject(to, "host", t->p.host ? t->p.host : "");
		cJSON_AddNumberToObject(to, "port", t->p.port);
	}
	cJSON_AddStringToObject(o, "cookie", t->cookie);
	add_mss(o, t);
	cJSON_AddNumberToObject(o, "target_bitrate", (double)t->p.rate_bps);
	cJSON_AddNumberToObject(o, "fq_rate", (double)t->p.fq_rate_bps);
	cJSON_AddNumberToObject(o, "sock_bufsize", t->p.window_bytes);
	add_bufsizes(o, t);
	st = cJSON_AddObjectToObject(o, "test_start");
	cJSON_AddStringToObject(st, "protocol", t->p.udp ? "UDP" : "TCP");
	cJSON_AddNumberToObject(st, "num_streams", t->p.streams);
	cJSON_AddNumberToObject(st, "blksize", t->len_bytes);
	cJSON_AddNumberToObject(st, "omit", t->p.omit_sec);
	cJSON_AddNumberToObject(st, "duration", t->p.duration_sec);
	cJSON_AddNumberToObject(st, "bytes", (double)t->p.bytes_total);
	cJSON_AddNumberToObject(st, "blocks", (double)t->p.blocks_total);
	cJSON_AddNumberToObject(st, "reverse", t->p.reverse);
	cJSON_AddNumberToObject(st, "tos", t->p.tos);
	cJSON_AddNumberToObject(st, "target_bitrate", (double)t->p.rate_bps);
	cJSON_AddNumberToObject(st, "bidir", t->p.bidir);
	cJSON_AddNumberToObject(st, "fqrate", (double)t->p.fq_rate_bps);
	cJSON_AddNumberToObject(st, "interval", t->p.interval_sec);
	cJSON_AddNumberToObject(st, "gso", t->p.udp && !t->p.no_gso);
	cJSON_AddNumberToObject(st, "gro", t->p.udp && !t->p.no_gso);
	return o;
}

static void add_span(cJSON *o, int id, double a, double b, uint64_t bytes)
{
	if (id >= 0)
		cJSON_AddNumberToObject(o, "socket", id);
	cJSON_AddNumberToObject(o, "start", a);
	cJSON_AddNumberToObject(o, "end", b);
	cJSON_AddNumberToObject(o, "seconds", b - a);
	cJSON_AddNumberToObject(o, "bytes", (double)bytes);
	cJSON_AddNumberToObject(o, "bits_per_second", bps(bytes, b - a));
}

cJSON *nd_out_json_interval(const struct nd_test *t, const struct nd_interval *iv)
{
	cJSON *o = cJSON_CreateObject(), *arr = cJSON_AddArrayToObject(o, "streams");
	cJSON *sum[2] = { NULL, NULL };	/* [0] forward group, [1] reverse (bidir) */
	uint64_t bytes[2] = { 0, 0 }, pk[2] = { 0, 0 }, lost[2] = { 0, 0 };
	int64_t retr[2] = { 0, 0 };
	double jitter[2] = { 0, 0 };
	int n[2] = { 0, 0 };

	for (int i = 0; i < t->streams_count; i++) {
		const struct nd_stream *s = &t->streams[i];
		const struct nd_iv_stream *v = &iv->streams[i];
		cJSON *c = cJSON_CreateObject();
		int g = t->p.bidir && s->sending == t->is_server;

		add_span(c, s->id, iv->start_sec, iv->end_sec, v->bytes);
		if (t->p.udp) {
			cJSON_AddNumberToObject(c, "packets", (double)v->packets);
			if (!s->sending) {
				cJSON_AddNumberToObject(c, "jitter_ms", v->jitter_sec * 1e3);
				cJSON_AddNumberToObject(c, "lost_packets", (double)v->lost);
				cJSON_AddNumberToObject(c, "lost_percent", pct(v->lost, v->packets + v->lost));
			}
		} else if (s->sending) {
			cJSON_AddNumberToObject(c, "retransmits", (double)v->retransmits);
			cJSON_AddNumberToObject(c, "snd_cwnd", v->snd_cwnd);
			cJSON_AddNumberToObject(c, "snd_wnd", v->snd_wnd);
			cJSON_AddNumberToObject(c, "rtt", v->rtt_usec);
			cJSON_AddNumberToObject(c, "rttvar", v->rttvar_usec);
			cJSON_AddNumberToObject(c, "pmtu", v->pmtu);
			cJSON_AddNumberToObject(c, "reorder", v->reorder);
		}
		cJSON_AddBoolToObject(c, "omitted", iv->omitted);
		cJSON_AddBoolToObject(c, "sender", s->sending);
		cJSON_AddItemToArray(arr, c);
		bytes[g] += v->bytes;
		pk[g] += v->packets;
		retr[g] += v->retransmits > 0 ? v->retransmits : 0;
		lost[g] += v->lost;
		jitter[g] += v->jitter_sec;
		n[g]++;
		if (!sum[g])
			sum[g] = cJSON_CreateObject();
		cJSON_DeleteItemFromObject(sum[g], "sender");
		cJSON_AddBoolToObject(sum[g], "sender", s->sending);
	}
	for (int g = 0; g < 2; g++) {
		cJSON *sender;

		if (!sum[g])
			continue;
		sender = cJSON_DetachItemFromObject(sum[g], "sender");
		add_span(sum[g], -1, iv->start_sec, iv->end_sec, bytes[g]);
		if (t->p.udp && !cJSON_IsTrue(sender)) {
			/* 3.21's receiving sum: mean jitter, the losses, their share. */
			cJSON_AddNumberToObject(sum[g], "jitter_ms", jitter[g] / n[g] * 1e3);
			cJSON_AddNumberToObject(sum[g], "lost_packets", (double)lost[g]);
			cJSON_AddNumberToObject(sum[g], "packets", (double)pk[g]);
			cJSON_AddNumberToObject(sum[g], "lost_percent", pct(lost[g], pk[g] + lost[g]));
		} else if (t->p.udp)
			cJSON_AddNumberToObject(sum[g], "packets", (double)pk[g]);
		else if (cJSON_IsTrue(sender))
			cJSON_AddNumberToObject(sum[g], "retransmits", (double)retr[g]);
		cJSON_AddBoolToObject(sum[g], "omitted", iv->omitted);
		cJSON_AddItemToObject(sum[g], "sender", sender);
		cJSON_AddItemToObject(o, g ? "sum_bidir_reverse" : "sum", sum[g]);
	}
	return o;
}

/* The sender's or receiver's view of one stream at the end. */
static cJSON *end_view(const struct nd_test *t, const struct nd_stream *s, bool sender_view)
{
	cJSON *o = cJSON_CreateObject();
	bool local = s->sending == sender_view;
	double sec = t->t_end - t->t_omit_end;
	uint64_t bytes = local ? atomic_load(&s->bytes) - s->omit_bytes : s->remote_bytes;
	double end = local ? sec : (s->remote_end_sec > 0 ? s->remote_end_sec : sec);

	add_span(o, s->id, 0, end, bytes);
	if (sender_view && !t->p.udp) {
		const struct nd_engine_tcpinfo *ti = &s->tcp;
		int64_t retr = local ? (int64_t)(ti->total_retrans - s->omit_retrans) :
			       s->remote_retrans;

		/* The far end's TCP_INFO does not travel: 0, as 3.21 prints it. */
		static const struct nd_engine_tcpinfo none;

		if (!local || !ti->valid)
			ti = &none;
		cJSON_AddNumberToObject(o, "retransmits", (double)retr);
		cJSON_AddNumberToObject(o, "reorder", ti->reorder);
		cJSON_AddNumberToObject(o, "max_snd_cwnd", ti->max_snd_cwnd_bytes);
		cJSON_AddNumberToObject(o, "max_snd_wnd", ti->max_snd_wnd_bytes);
		cJSON_AddNumberToObject(o, "max_rtt", ti->max_rtt_usec);
		cJSON_AddNumberToObject(o, "min_rtt", ti->min_rtt_usec);
		cJSON_AddNumberToObject(o, "mean_rtt", ti->rtt_samples ?
					(double)(ti->rtt_sum_usec / ti->rtt_samples) : 0);
	}
	cJSON_AddBoolToObject(o, "sender", s->sending);
	return o;
}

static cJSON *end_udp_view(const struct nd_test *t, const struct nd_stream *s)
{
	cJSON *o = cJSON_CreateObject();
	double sec = t->t_end - t->t_omit_end;
	uint64_t sent_pk = s->sending ? atomic_load(&s->packets) - s->omit_packets :
			   s->remote_packets;
	uint64_t lost = s->sending ? s->remote_lost : s->acct.lost;
	double jitter = s->sending ? s->remote_jitter_sec : s->acct.jitter_sec;
	uint64_t bytes = atomic_load(&s->bytes) - s->omit_bytes;

	add_span(o, s->id, 0, sec, s->sending ? bytes : s->remote_bytes);
	cJSON_AddNumberToObject(o, "jitter_ms", jitter * 1e3);
	cJSON_AddNumberToObject(o, "lost_packets", (double)lost);
	cJSON_AddNumberToObject(o, "packets", (double)sent_pk);
	cJSON_AddNumberToObject(o, "lost_percent", sent_pk ? 100.0 * (double)lost /
				(double)sent_pk : 0);
	cJSON_AddNumberToObject(o, "out_of_order", (double)s->acct.out_of_order);
	cJSON_AddBoolToObject(o, "sender", s->sending);
	return o;
}

/* sum_sent / sum_received for one direction group. */
static void add_sums(cJSON *end, const struct nd_test *t, int group, const char *suffix)
{
	uint64_t tx = 0, rx = 0, pk = 0, lost = 0;
	int64_t retr = 0;
	double sec = t->t_end - t->t_omit_end, jit = 0;
	bool sending = false;
	int n = 0;
	char key[48];

	for (int i = 0; i < t->streams_count; i++) {
		const struct nd_stream *s = &t->streams[i];
		uint64_t local = atomic_load(&s->bytes) - s->omit_bytes;

		if ((t->p.bidir && s->sending == t->is_server) != group)
			continue;
		n++;
		sending = s->sending;
		tx += s->sending ? local : s->remote_bytes;
		rx += s->sending ? s->remote_bytes : local;
		pk += s->sending ? atomic_load(&s->packets) - s->omit_packets : s->remote_packets;
		lost += s->sending ? s->remote_lost : s->acct.lost;
		jit += s->sending ? s->remote_jitter_sec : s->acct.jitter_sec;
		retr += s->sending ? (int64_t)(s->tcp.total_retrans - s->omit_retrans) :
			(s->remote_retrans > 0 ? s->remote_retrans : 0);
	}
	if (n == 0)
		return;
	for (int k = 0; k < 2; k++) {
		cJSON *o = cJSON_CreateObject();

		add_span(o, -1, 0, sec, k == 0 ? tx : rx);
		if (t->p.udp) {
			cJSON_AddNumberToObject(o, "jitter_ms", k ? jit / n * 1e3 : 0);
			cJSON_AddNumberToObject(o, "lost_packets", (double)(k ? lost : 0));
			cJSON_AddNumberToObject(o, "packets", (double)pk);
			cJSON_AddNumberToObject(o, "lost_percent", k && pk ? 100.0 * (double)lost /
						(double)pk : 0);
		} else if (k == 0) {
			cJSON_AddNumberToObject(o, "retransmits", (double)retr);
		}
		cJSON_AddBoolToObject(o, "sender", sending);
		snprintf(key, sizeof(key), "%s%s", k == 0 ? "sum_sent" : "sum_received", suffix);
		/* 3.21's UDP "sum": the receiver's counts, flagged as this side. */
		if (t->p.udp && k == 1) {
			cJSON *sum = cJSON_Duplicate(o, 1);
			char sum_key[48];

			cJSON_ReplaceItemInObject(sum, "sender", cJSON_CreateBool(sending));
			snprintf(sum_key, sizeof(sum_key), "sum%s", suffix);
			cJSON_AddItemToObject(end, sum_key, sum);
		}
		cJSON_AddItemToObject(end, key, o);
	}
}

static cJSON *nicdoctor_json(const struct nd_test *t)
{
	struct nd_engine_result *r = calloc(1, sizeof(*r));
	cJSON *o = cJSON_CreateObject(), *arr, *ifo;

	if (!r)
		return o;
	nd_test_fill_result(t, r);
	cJSON_AddNumberToObject(o, "fwd_sent_bps", r->fwd_sent_bps);
	cJSON_AddNumberToObject(o, "fwd_received_bps", r->fwd_received_bps);
	cJSON_AddNumberToObject(o, "rev_sent_bps", r->rev_sent_bps);
	cJSON_AddNumberToObject(o, "rev_received_bps", r->rev_received_bps);
	cJSON_AddNumberToObject(o, "retransmits", (double)r->retransmits);
	/* Interval ticks per "intervals" entry: above 1 once a long run's
	 * store filled up and neighbours were merged (test.c keep_interval). */
	cJSON_AddNumberToObject(o, "interval_ticks", t->intervals_stride);
	arr = cJSON_AddArrayToObject(o, "cpus");
	for (int i = 0; i < r->cpus_count; i++) {
		cJSON *c = cJSON_CreateObject();

		cJSON_AddNumberToObject(c, "cpu", r->cpus[i].cpu);
		cJSON_AddNumberToObject(c, "busy_pct", r->cpus[i].busy_pct);
		cJSON_AddNumberToObject(c, "softirq_pct", r->cpus[i].softirq_pct);
		cJSON_AddItemToArray(arr, c);
	}
	arr = cJSON_AddArrayToObject(o, "tcp_info");
	for (int i = 0; i < r->streams_count && !t->p.udp; i++) {
		const struct nd_engine_tcpinfo *ti = &r->streams[i].tcp;
		cJSON *c = cJSON_CreateObject();

		cJSON_AddNumberToObject(c, "id", r->streams[i].id);
		cJSON_AddNumberToObject(c, "rtt_usec", ti->rtt_usec);
		cJSON_AddNumberToObject(c, "snd_cwnd_bytes", ti->snd_cwnd_bytes);
		cJSON_AddNumberToObject(c, "total_retrans", ti->total_retrans);
		cJSON_AddNumberToObject(c, "cpu", r->streams[i].cpu);
		cJSON_AddItemToArray(arr, c);
	}
	if (r->iface.valid) {
		ifo = cJSON_AddObjectToObject(o, "interface");
		cJSON_AddStringToObject(ifo, "name", r->iface.ifname);
		cJSON_AddNumberToObject(ifo, "rx_bytes", (double)r->iface.rx_bytes);
		cJSON_AddNumberToObject(ifo, "tx_bytes", (double)r->iface.tx_bytes);
		cJSON_AddNumberToObject(ifo, "rx_packets", (double)r->iface.rx_packets);
		cJSON_AddNumberToObject(ifo, "tx_packets", (double)r->iface.tx_packets);
		cJSON_AddNumberToObject(ifo, "rx_dropped", (double)r->iface.rx_dropped);
		cJSON_AddNumberToObject(ifo, "tx_dropped", (double)r->iface.tx_dropped);
		cJSON_AddNumberToObject(ifo, "rx_errors", (double)r->iface.rx_errors);
		cJSON_AddNumberToObject(ifo, "tx_errors", (double)r->iface.tx_errors);
	}
	if (t->p.hooks && t->p.hooks->json) {
		cJSON *spread = t->p.hooks->json(t->p.hooks_arg);

		if (spread)
			cJSON_AddItemToObject(o, "flow_spread", spread);
	}
	free(r);
	return o;
}

/*
 * -F: 3.21's "diskfile" object between a stream's sender and receiver
 * views: the bytes each end moved against the file's size now.
 */
static void add_diskfile(cJSON *o, const struct nd_test *t, const struct nd_stream *s)
{
	uint64_t local = atomic_load(&s->bytes) - s->omit_bytes;
	uint64_t sent = s->sending ? local : s->remote_bytes;
	uint64_t received = s->sending ? s->remote_bytes : local;
	struct stat st;
	cJSON *d;

	if (!t->p.file || stat(t->p.file, &st) < 0)
		return;
	d = cJSON_AddObjectToObject(o, "diskfile");
	cJSON_AddNumberToObject(d, "sent", (double)sent);
	cJSON_AddNumberToObject(d, "received", (double)received);
	cJSON_AddNumberToObject(d, "size", (double)st.st_size);
	/* As 3.21: a file of size 0 counts as all sent. */
	cJSON_AddNumberToObject(d, "percent_sent", st.st_size > 0 ?
				(int)((double)sent / (double)st.st_size * 100.0) : 100);
	cJSON_AddNumberToObject(d, "percent_received", st.st_size > 0 ?
				(int)((double)received / (double)st.st_size * 100.0) : 100);
	cJSON_AddStringToObject(d, "filename", t->p.file);
}

cJSON *nd_out_json(const struct nd_test *t, int rc)
{
	cJSON *o = cJSON_CreateObject(), *arr, *end, *cpu;

	cJSON_AddItemToObject(o, "start", nd_out_json_start(t));
	arr = cJSON_AddArrayToObject(o, "intervals");
	for (int i = 0; i < t->intervals_count; i++)
		cJSON_AddItemToArray(arr, nd_out_json_interval(t, &t->intervals[i]));
	end = cJSON_AddObjectToObject(o, "end");
	if (rc < 0) {
		cJSON_AddStringToObject(o, "error", t->err[0] ? t->err : "test failed");
		return o;
	}
	arr = cJSON_AddArrayToObject(end, "streams");
	for (int i = 0; i < t->streams_count; i++) {
		cJSON *s = cJSON_CreateObject();

		if (t->p.udp) {
			cJSON_AddItemToObject(s, "udp", end_udp_view(t, &t->streams[i]));
		} else {
			cJSON_AddItemToObject(s, "sender", end_view(t, &t->streams[i], true));
			add_diskfile(s, t, &t->streams[i]);
			cJSON_AddItemToObject(s, "receiver", end_view(t, &t->streams[i], false));
		}
		cJSON_AddItemToArray(arr, s);
	}
	add_sums(end, t, 0, "");
	if (t->p.bidir)
		add_sums(end, t, 1, "_bidir_reverse");
	cpu = cJSON_AddObjectToObject(end, "cpu_utilization_percent");
	{
		struct nd_engine_result *r = calloc(1, sizeof(*r));

		if (r) {
			nd_test_fill_result(t, r);
			cJSON_AddNumberToObject(cpu, "host_total", r->cpu_local_total_pct);
			cJSON_AddNumberToObject(cpu, "host_user", r->cpu_local_user_pct);
			cJSON_AddNumberToObject(cpu, "host_system", r->cpu_local_system_pct);
			free(r);
		}
		cJSON_AddNumberToObject(cpu, "remote_total", t->remote_cpu_total);
		cJSON_AddNumberToObject(cpu, "remote_user", t->remote_cpu_user);
		cJSON_AddNumberToObject(cpu, "remote_system", t->remote_cpu_system);
	}
	if (!t->p.udp) {
		bool fwd_local = !t->p.reverse || t->p.bidir;

		cJSON_AddStringToObject(end, "sender_tcp_congestion",
					fwd_local ? t->congestion : t->remote_congestion);
		cJSON_AddStringToObject(end, "receiver_tcp_congestion",
					fwd_local ? t->remote_congestion : t->congestion);
	}
	if (t->p.title)
		cJSON_AddStringToObject(o, "title", t->p.title);
	if (t->p.extra_data)
		cJSON_AddStringToObject(o, "extra_data", t->p.extra_data);
	if (t->server_output_text)
		cJSON_AddStringToObject(o, "server_output_text", t->server_output_text);
	if (t->server_output_json)
		cJSON_AddItemToObject(o, "server_output_json",
				      cJSON_Duplicate(t->server_output_json, 1));
	cJSON_AddItemToObject(o, "nicdoctor", nicdoctor_json(t));
	return o;
}
