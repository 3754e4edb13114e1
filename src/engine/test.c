/*
 * test.c - the run phase both roles share: streams and their workers, the
 * interval clock (omit, TCP_INFO, /proc/stat, interface counters) and the
 * shutdown order: senders stop, then receivers drain to EOF before they
 * are stopped too.  Only the thread that drives the test calls these.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/tcp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "nicdoctor/common.h"
#include "nicdoctor/sysroot.h"
#include "engine_int.h"

int nd_test_init(struct nd_test *t, const struct nd_engine_params *p, bool is_server)
{
	int cap = 2 * (p->streams > 0 ? p->streams : 1);

	memset(t, 0, sizeof(*t));
	t->p = *p;
	t->is_server = is_server;
	t->ctrl_fd = -1;
	t->timeout_ms = 10000;
	t->len_bytes = nd_params_len(p);
	/* -u without -b is iperf3's 1 Mbit/s on both ends, not unlimited. */
	if (p->udp && !p->rate_set)
		t->p.rate_bps = ND_ENGINE_UDP_RATE_DEFAULT;
	t->remote_sender_has_retrans = -1;
	t->streams = calloc((size_t)cap, sizeof(*t->streams));
	if (!t->streams)
		return -ENOMEM;
	atomic_init(&t->stop, false);
	atomic_init(&t->stop_rx, false);
	atomic_init(&t->limit_reached, false);
	/* iperf3 counts -n/-k from the end of omit (its stats reset there). */
	atomic_init(&t->amount_counting, p->omit_sec <= 0);
	atomic_init(&t->amount_tx_bytes, 0);
	atomic_init(&t->amount_rx_bytes, 0);
	t->intervals_stride = 1;
	return 0;
}

void nd_test_free(struct nd_test *t)
{
	int i;

	for (i = 0; i < t->streams_count; i++)
		if (t->streams[i].fd >= 0)
			close(t->streams[i].fd);
	for (i = 0; i < t->intervals_count; i++) {
		free(t->intervals[i].streams);
		free(t->intervals[i].cpus);
	}
	free(t->intervals);
	free(t->streams);
	free(t->server_output_text);
	cJSON_Delete(t->server_output_json);
	if (t->ctrl_fd >= 0)
		close(t->ctrl_fd);
	t->streams = NULL;
	t->intervals = NULL;
	t->ctrl_fd = -1;
}

/* Stream index -> whether this side sends on it (protocol doc §3). */
bool nd_stream_sends(const struct nd_test *t, int index)
{
	bool client_sends = t->p.bidir ? index < t->p.streams : !t->p.reverse;

	return t->is_server ? !client_sends : client_sends;
}

/*
 * -n/-k are per direction, as in iperf3: the test ends when the client has
 * sent or received the count.  Blocks are the count's bytes over the block
 * length (a UDP receiver adds datagrams by sequence number, so one lost on
 * the way still counts as sent).  Only the client ends the test; a sender
 * in either role uses the answer to stop sending.
 */
bool nd_test_amount_add(struct nd_test *t, bool sent, uint64_t bytes)
{
	const struct nd_engine_params *p = &t->p;
	_Atomic uint64_t *counter = sent ? &t->amount_tx_bytes : &t->amount_rx_bytes;
	uint64_t len = t->len_bytes ? t->len_bytes : 1, total;
	bool reached;

	if ((!p->bytes_total && !p->blocks_total) ||
	    !atomic_load_explicit(&t->amount_counting, memory_order_relaxed))
		return false;
	total = atomic_fetch_add_explicit(counter, bytes, memory_order_relaxed) + bytes;
	reached = (p->bytes_total && total >= p->bytes_total) ||
		  (p->blocks_total && total / len >= p->blocks_total);
	if (reached && !t->is_server)
		atomic_store(&t->limit_reached, true);
	return reached;
}

/* Bytes this side may still send before the -n/-k count; UINT64_MAX if none. */
uint64_t nd_test_amount_left(struct nd_test *t)
{
	const struct nd_engine_params *p = &t->p;
	uint64_t len = t->len_bytes ? t->len_bytes : 1, want, done;

	if ((!p->bytes_total && !p->blocks_total) ||
	    !atomic_load_explicit(&t->amount_counting, memory_order_relaxed))
		return UINT64_MAX;
	want = p->bytes_total ? p->bytes_total : UINT64_MAX;
	if (p->blocks_total && p->blocks_total < UINT64_MAX / len && p->blocks_total * len < want)
		want = p->blocks_total * len;
	done = atomic_load_explicit(&t->amount_tx_bytes, memory_order_relaxed);
	return done < want ? want - done : 0;
}

void nd_stream_configure(struct nd_test *t, int fd)
{
	const struct nd_engine_params *p = &t->p;
	int one = 1, v;

	if (p->window_bytes) {
		v = (int)p->window_bytes;
		setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &v, sizeof(v));
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &v, sizeof(v));
	} else if (p->udp) {
		/*
		 * An unlimited UDP sender gets no backpressure from a receiver on
		 * the same host (loopback orphans the skb at transmit), so what
		 * keeps loss near zero is a receive queue deep enough to ride out
		 * the receiver being scheduled away: 64 MiB (the kernel doubles
		 * it) holds ~10 ms at 50 Gbit/s.  Shared by the streams, 8 MiB
		 * at least.  It is kernel memory, used only while the queue is
		 * full, and FORCE needs CAP_NET_ADMIN (else rmem_max applies).
		 */
		v = (64 << 20) / (p->streams > 0 ? p->streams : 1);
		if (v < (8 << 20))
			v = 8 << 20;
		if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &v, sizeof(v)) < 0)
			setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &v, sizeof(v));
		/* A few batches of GSO messages; more only queues at the NIC. */
		v = 4 << 20;
		if (setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &v, sizeof(v)) < 0)
			setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &v, sizeof(v));
	}
	if (p->tos) {
		v = p->tos;
		setsockopt(fd, IPPROTO_IP, IP_TOS, &v, sizeof(v));
		setsockopt(fd, IPPROTO_IPV6, IPV6_TCLASS, &v, sizeof(v));
	}
	if (p->fq_rate_bps) {
		/* In bytes/s, as iperf3 sets it; above 2^32-1 the 64-bit form. */
		uint64_t rate = p->fq_rate_bps / 8;

		setsockopt(fd, SOL_SOCKET, SO_MAX_PACING_RATE, &rate, sizeof(rate));
	}
	if (p->udp && p->dont_fragment) {
		v = IP_PMTUDISC_DO;
		setsockopt(fd, IPPROTO_IP, IP_MTU_DISCOVER, &v, sizeof(v));
	}
	if (p->udp)
		return;
	if (p->snd_timeout_ms > 0) {
		v = p->snd_timeout_ms;
		setsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &v, sizeof(v));
	}
	if (p->nodelay)
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (p->mss_bytes) {
		v = p->mss_bytes;
		setsockopt(fd, IPPROTO_TCP, TCP_MAXSEG, &v, sizeof(v));
	}
	if (p->congestion)
		setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, p->congestion, strlen(p->congestion));
}

void nd_stream_pin(const struct nd_stream *s)
{
	cpu_set_t set;

	if (s->cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(s->cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

int nd_test_add_stream(struct nd_test *t, int fd)
{
	struct nd_stream *s;
	struct sockaddr_storage ss;
	socklen_t sl;
	int idx = t->streams_count;

	if (idx >= 2 * t->p.streams)
		return -ENOSPC;
	s = &t->streams[idx];
	memset(s, 0, sizeof(*s));
	s->id = idx == 0 ? 1 : idx + 2;
	s->fd = fd;
	s->test = t;
	s->sending = nd_stream_sends(t, idx);
	s->cpu = idx < t->p.cpus_count ? t->p.cpus[idx] : -1;
	s->remote_retrans = -1;
	nd_udp_acct_init(&s->acct);
	sl = sizeof(ss);
	if (getsockname(fd, (struct sockaddr *)&ss, &sl) == 0)
		nd_net_addr_str(&ss, s->local_host, sizeof(s->local_host), &s->local_port);
	sl = sizeof(ss);
	if (getpeername(fd, (struct sockaddr *)&ss, &sl) == 0)
		nd_net_addr_str(&ss, s->remote_host, sizeof(s->remote_host), &s->remote_port);
	nd_stream_configure(t, fd);
	t->streams_count++;
	return 0;
}

int nd_test_start_workers(struct nd_test *t)
{
	int i, rc;

	for (i = 0; i < t->streams_count; i++) {
		struct nd_stream *s = &t->streams[i];

		rc = pthread_create(&s->thread, NULL, t->p.udp ? nd_udp_worker : nd_tcp_worker, s);
		if (rc != 0)
			return -rc;
		s->thread_started = true;
	}
	return 0;
}

void nd_test_stop_senders(struct nd_test *t)
{
	int i;

	if (t->t_stop == 0)
		t->t_stop = nd_now_sec();
	atomic_store(&t->stop, true);
	for (i = 0; i < t->streams_count; i++) {
		struct nd_stream *s = &t->streams[i];

		if (!s->sending || !s->thread_started)
			continue;
		shutdown(s->fd, SHUT_RDWR);
		pthread_join(s->thread, NULL);
		s->thread_started = false;
	}
}

static uint64_t rx_bytes_now(struct nd_test *t)
{
	uint64_t sum = 0;

	for (int i = 0; i < t->streams_count; i++)
		if (!t->streams[i].sending && t->streams[i].thread_started)
			sum += atomic_load(&t->streams[i].bytes);
	return sum;
}

/*
 * Let receivers read what is still in flight: up to drain_ms, but stop as
 * soon as nothing arrived for 30 ms (a stock peer keeps its sockets open).
 */
void nd_test_stop_receivers(struct nd_test *t, int drain_ms)
{
	double deadline = nd_now_sec() + drain_ms / 1000.0, quiet_since = nd_now_sec();
	uint64_t last = rx_bytes_now(t);
	int i;

	if (t->t_stop == 0)
		t->t_stop = nd_now_sec();
	while (drain_ms > 0 && nd_now_sec() < deadline) {
		struct timespec ts = { 0, 5000000 };
		uint64_t now_bytes;

		nanosleep(&ts, NULL);
		now_bytes = rx_bytes_now(t);
		if (now_bytes != last) {
			last = now_bytes;
			quiet_since = nd_now_sec();
		} else if (nd_now_sec() - quiet_since > 0.03) {
			break;
		}
	}
	atomic_store(&t->stop_rx, true);
	for (i = 0; i < t->streams_count; i++) {
		struct nd_stream *s = &t->streams[i];

		if (!s->thread_started)
			continue;
		shutdown(s->fd, SHUT_RDWR);
		pthread_join(s->thread, NULL);
		s->thread_started = false;
	}
}

static void rusage_now(double *user_sec, double *sys_sec)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	*user_sec = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6;
	*sys_sec = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

void nd_test_begin(struct nd_test *t)
{
	const char *ifname = t->p.ifname;

	if (!ifname && t->streams_count > 0 &&
	    nd_iface_for_fd(t->streams[0].fd, t->ifname, sizeof(t->ifname)) == 0)
		ifname = t->ifname;
	if (ifname && ifname != t->ifname)
		nd_strlcpy(t->ifname, ifname, sizeof(t->ifname));
	nd_sample_cpus(&nd_root_live, &t->cpu0);
	t->cpu_iv = t->cpu0;
	t->cpu_omit = t->cpu0;
	nd_sample_iface(&nd_root_live, t->ifname, &t->if0);
	rusage_now(&t->ru_user0, &t->ru_sys0);
	t->t_start = nd_now_sec();
	t->t_last_iv = t->t_start;
	t->t_omit_end = t->t_start + t->p.omit_sec;
	t->omit_done = t->p.omit_sec == 0;
	t->t_end = t->t_omit_end + t->p.duration_sec;
}

static void sample_stream(struct nd_stream *s, struct nd_iv_stream *out)
{
	uint64_t b = atomic_load_explicit(&s->bytes, memory_order_relaxed);
	uint64_t pk = atomic_load_explicit(&s->packets, memory_order_relaxed);
	uint64_t lo = atomic_load_explicit(&s->lost, memory_order_relaxed);
	uint64_t oo = atomic_load_explicit(&s->out_of_order, memory_order_relaxed);

	out->bytes = b - s->iv_bytes;
	out->packets = pk - s->iv_packets;
	out->lost = lo >= s->iv_lost ? lo - s->iv_lost : 0;
	out->out_of_order = oo - s->iv_ooo;
	out->jitter_sec = (double)atomic_load_explicit(&s->jitter_nsec, memory_order_relaxed) / 1e9;
	s->iv_bytes = b;
	s->iv_packets = pk;
	s->iv_lost = lo;
	s->iv_ooo = oo;
	out->retransmits = -1;
	if (!s->test->p.udp && nd_sample_tcpinfo(s->fd, &s->tcp) == 0) {
		if (s->sending) {
			out->retransmits = s->tcp.total_retrans - s->iv_retrans;
			s->iv_retrans = s->tcp.total_retrans;
		}
		out->snd_cwnd = s->tcp.snd_cwnd_bytes;
		out->rtt_usec = s->tcp.rtt_usec;
		out->rttvar_usec = s->tcp.rttvar_usec;
		out->pmtu = s->tcp.pmtu_bytes;
		out->snd_wnd = s->tcp.snd_wnd_bytes;
		out->reorder = s->tcp.reorder;
	}
}

static void free_interval(struct nd_interval *iv)
{
	free(iv->streams);
	free(iv->cpus);
	iv->streams = NULL;
	iv->cpus = NULL;
}

/* Fold b, which follows a, into a: counts add up, gauges take b's reading. */
static void merge_interval(const struct nd_test *t, struct nd_interval *a,
			   const struct nd_interval *b)
{
	double wa = a->end_sec - a->start_sec, wb = b->end_sec - b->start_sec;

	for (int i = 0; i < t->streams_count; i++) {
		struct nd_iv_stream *x = &a->streams[i];
		const struct nd_iv_stream *y = &b->streams[i];

		x->bytes += y->bytes;
		x->packets += y->packets;
		x->lost += y->lost;
		x->out_of_order += y->out_of_order;
		if (y->retransmits >= 0)
			x->retransmits = (x->retransmits > 0 ? x->retransmits : 0) + y->retransmits;
		x->jitter_sec = y->jitter_sec;
		x->snd_cwnd = y->snd_cwnd;
		x->rtt_usec = y->rtt_usec;
		x->rttvar_usec = y->rttvar_usec;
		x->pmtu = y->pmtu;
		x->snd_wnd = y->snd_wnd;
		x->reorder = y->reorder;
	}
	for (int i = 0; i < a->cpus_count && i < b->cpus_count && wa + wb > 0; i++) {
		struct nd_engine_cpu_share *x = &a->cpus[i];
		const struct nd_engine_cpu_share *y = &b->cpus[i];

		x->busy_pct = (x->busy_pct * wa + y->busy_pct * wb) / (wa + wb);
		x->softirq_pct = (x->softirq_pct * wa + y->softirq_pct * wb) / (wa + wb);
	}
	a->end_sec = b->end_sec;
	a->ticks += b->ticks;
}

/* Halve the store: each pair of neighbours (same omitted state) becomes one. */
static void compact_intervals(struct nd_test *t)
{
	int in = 0, out = 0;

	while (in < t->intervals_count) {
		struct nd_interval *a = &t->intervals[in], *b = a + 1;

		if (in + 1 < t->intervals_count && a->omitted == b->omitted) {
			merge_interval(t, a, b);
			free_interval(b);
			t->intervals[out++] = *a;
			in += 2;
		} else {
			t->intervals[out++] = t->intervals[in++];
		}
	}
	t->intervals_count = out;
	t->intervals_stride *= 2;
}

/*
 * The -J store is bounded: at most ND_IV_STORE_RECORDS per-stream records
 * (each interval costs one per stream plus its sum).  When it is full,
 * neighbours are merged in pairs and later ticks are folded in at the new
 * stride, so a long run keeps covering the whole test at 2, 4, ... times -i
 * instead of growing without end (-t 86400 -i 0.1 would be 864000 ticks).
 */
#define ND_IV_STORE_RECORDS 32768

static void keep_interval(struct nd_test *t, struct nd_interval *iv)
{
	int max = ND_IV_STORE_RECORDS / (t->streams_count + 1);
	struct nd_interval *last = t->intervals_count ?
				   &t->intervals[t->intervals_count - 1] : NULL;

	iv->ticks = 1;
	if (last && last->ticks < t->intervals_stride && last->omitted == iv->omitted) {
		merge_interval(t, last, iv);
		free_interval(iv);
		return;
	}
	if (max < 16)
		max = 16;
	if (t->intervals_count >= max)
		compact_intervals(t);
	if (t->intervals_count == t->intervals_cap) {
		int cap = t->intervals_cap ? 2 * t->intervals_cap : 16;
		struct nd_interval *n = realloc(t->intervals, (size_t)cap * sizeof(*n));

		if (!n) {
			free_interval(iv);
			return;
		}
		t->intervals = n;
		t->intervals_cap = cap;
	}
	/* Only the CPUs this host has, not the ND_ENGINE_MAX_CPUS allocated. */
	if (iv->cpus_count > 0) {
		struct nd_engine_cpu_share *c = realloc(iv->cpus, (size_t)iv->cpus_count *
							sizeof(*c));
		if (c)
			iv->cpus = c;
	}
	t->intervals[t->intervals_count++] = *iv;
}

/* Close the interval ending now; at the omit boundary, restart the counts. */
int nd_test_tick(struct nd_test *t, double now)
{
	struct nd_interval iv = { 0 };
	struct nd_engine_interval pub = { 0 };
	struct nd_cpu_snap cpu_now;
	double base = t->omit_done ? t->t_omit_end : t->t_start;
	int i;

	iv.start_sec = t->t_last_iv - base;
	iv.end_sec = now - base;
	iv.omitted = !t->omit_done;
	iv.streams = calloc((size_t)t->streams_count, sizeof(*iv.streams));
	iv.cpus = calloc(ND_ENGINE_MAX_CPUS, sizeof(*iv.cpus));
	if (!iv.streams || !iv.cpus) {
		free(iv.streams);
		free(iv.cpus);
		return -ENOMEM;
	}
	if (nd_sample_cpus(&nd_root_live, &cpu_now) == 0) {
		iv.cpus_count = nd_cpu_shares(&t->cpu_iv, &cpu_now, iv.cpus, ND_ENGINE_MAX_CPUS);
		t->cpu_iv = cpu_now;
	}
	pub.start_sec = iv.start_sec;
	pub.end_sec = iv.end_sec;
	pub.omitted = iv.omitted;
	pub.retransmits = -1;
	for (i = 0; i < t->streams_count; i++) {
		struct nd_stream *s = &t->streams[i];

		sample_stream(s, &iv.streams[i]);
		if (s->sending) {
			pub.sent_bytes += iv.streams[i].bytes;
			if (iv.streams[i].retransmits >= 0)
				pub.retransmits = (pub.retransmits < 0 ? 0 : pub.retransmits) +
						  iv.streams[i].retransmits;
		} else {
			pub.received_bytes += iv.streams[i].bytes;
		}
	}
	if (t->p.on_interval)
		t->p.on_interval(&pub, t->p.on_interval_arg);
	if (t->text_out)
		nd_out_text_interval(t->text_out, t, &iv);
	if (t->out.json_stream) {
		cJSON *ev = nd_out_json_interval(t, &iv);

		nd_json_stream_event(t->out.json_stream, "interval", ev);
		cJSON_Delete(ev);
	}
	t->t_last_iv = now;
	if (!t->omit_done && now >= t->t_omit_end - 0.001) {
		/* iperf3 restarts the clock and the counts when omit ends. */
		for (i = 0; i < t->streams_count; i++) {
			struct nd_stream *s = &t->streams[i];

			s->omit_bytes = s->iv_bytes;
			s->omit_packets = s->iv_packets;
			s->omit_lost = s->iv_lost;
			s->omit_retrans = s->iv_retrans;
		}
		t->omit_done = true;
		atomic_store(&t->amount_counting, true);
		t->t_omit_end = now;
		t->cpu_omit = t->cpu_iv;
		nd_sample_iface(&nd_root_live, t->ifname, &t->if0);
		rusage_now(&t->ru_user0, &t->ru_sys0);
	}
	if (t->keep_intervals) {
		keep_interval(t, &iv);
	} else {
		free(iv.streams);
		free(iv.cpus);
	}
	return 0;
}

/* Close the last partial interval and take the end samples. */
void nd_test_finish(struct nd_test *t)
{
	double now = t->t_stop > 0 ? t->t_stop : nd_now_sec();
	int i;

	if (now - t->t_last_iv > 0.01 || t->t_last_iv == t->t_start)
		nd_test_tick(t, now);
	nd_sample_cpus(&nd_root_live, &t->cpu1);
	nd_sample_iface(&nd_root_live, t->ifname, &t->if1);
	rusage_now(&t->ru_user1, &t->ru_sys1);
	t->t_end = now;
	for (i = 0; i < t->streams_count; i++) {
		t->streams[i].end_sec = now - t->t_omit_end;
		if (!t->p.udp)
			nd_sample_tcpinfo(t->streams[i].fd, &t->streams[i].tcp);
	}
	if (t->streams_count > 0 && !t->p.udp)
		nd_tcp_congestion(t->streams[0].fd, t->congestion, sizeof(t->congestion));
}
