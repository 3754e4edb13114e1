/*
 * stream_udp.c - the UDP worker.  Sends iperf3 datagrams paced to -b, in
 * batches with sendmmsg, each message a UDP GSO super-datagram of up to 64
 * segments where the kernel has UDP_SEGMENT; receives with recvmmsg into
 * UDP_GRO-coalesced buffers and accounts every segment as iperf3 does.
 */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <poll.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "engine_int.h"

#ifndef SOL_UDP
#define SOL_UDP 17
#endif

#define UDP_BATCH_MAX   64
#define UDP_GSO_SEGS    64
#define UDP_GSO_BYTES   65000
#define UDP_RX_GRO_BUF  65536

/*
 * Same-host flow control.  Loopback orphans a UDP skb at transmit, so an
 * unlimited sender never blocks: it just outruns its receiver into receive
 * queue drops (RcvbufErrors), and the test measures the scheduler.  When
 * the peer is on this host and the rate is unlimited, the receiver returns
 * its highest sequence number after each batch and the sender stays at most
 * UDP_CREDIT_WINDOW bytes ahead: the backpressure a NIC queue gives a real
 * sender.  A sender that never hears a credit (stock iperf3 receiver, or a
 * peer elsewhere) is never held back; one that stops hearing waits at most
 * UDP_CREDIT_WAIT_MS.
 */
#define UDP_CREDIT_MAGIC   0x4e444352u	/* "NDCR" */
#define UDP_CREDIT_LEN     12
#define UDP_CREDIT_WINDOW  (8u << 20)
#define UDP_CREDIT_WAIT_MS 100

struct udp_credit {
	bool on;
	bool heard;			/* sender: a credit has arrived */
	uint64_t granted;		/* sender: highest seq the receiver has */
	uint64_t window_dgrams;
	uint64_t sent_seq;		/* receiver: last seq it reported */
};

struct udp_tx {
	uint8_t *buf;
	size_t len, segs, msgs;		/* datagram size, per message, per batch */
	bool b64;
	struct mmsghdr mm[UDP_BATCH_MAX];
	struct iovec iov[UDP_BATCH_MAX];
};

static int tx_setup(struct udp_tx *tx, int fd, size_t len, bool gso)
{
	int seg = (int)len;

	tx->len = len;
	tx->segs = 1;
	if (gso && len * 2 <= UDP_GSO_BYTES &&
	    setsockopt(fd, SOL_UDP, UDP_SEGMENT, &seg, sizeof(seg)) == 0) {
		tx->segs = UDP_GSO_BYTES / len;
		if (tx->segs > UDP_GSO_SEGS)
			tx->segs = UDP_GSO_SEGS;
	}
	tx->msgs = (1u << 19) / (tx->segs * len);
	if (tx->msgs < 1)
		tx->msgs = 1;
	if (tx->msgs > (tx->segs > 1 ? 8 : UDP_BATCH_MAX))
		tx->msgs = tx->segs > 1 ? 8 : UDP_BATCH_MAX;
	free(tx->buf);
	/* Page-aligned as the TCP worker's (stream_tcp.c says why). */
	tx->buf = aligned_alloc(4096, (tx->msgs * tx->segs * len + 4095) & ~(size_t)4095);
	if (!tx->buf)
		return -ENOMEM;
	for (size_t i = 0; i < tx->msgs * tx->segs * len; i++)
		tx->buf[i] = (uint8_t)('0' + i % 10);
	return 0;
}

/* How many datagrams may go now; 0 means sleep a little first. */
static uint64_t tx_allowance(const struct nd_stream *s, double t0, uint64_t sent_dgrams,
			     uint64_t capacity)
{
	double rate = (double)s->test->p.rate_bps;
	double due_dgrams, now;
	struct timespec ts = { 0, 200000 };

	if (rate <= 0)
		return capacity;
	now = nd_now_sec();
	due_dgrams = (now - t0) * rate / 8.0 / (double)s->test->len_bytes + 1;
	if (due_dgrams <= (double)sent_dgrams) {
		nanosleep(&ts, NULL);
		return 0;
	}
	if (due_dgrams - (double)sent_dgrams < (double)capacity)
		return (uint64_t)(due_dgrams - (double)sent_dgrams);
	return capacity;
}

/* Fill and send `want` datagrams; returns how many went, or -errno. */
static int tx_batch(struct nd_stream *s, struct udp_tx *tx, uint64_t *seq, uint64_t want)
{
	double now = nd_now_sec();
	size_t m = 0, left = (size_t)want;
	uint64_t first = *seq;
	int sent, i;

	while (left > 0 && m < tx->msgs) {
		size_t n = left < tx->segs ? left : tx->segs;
		uint8_t *base = tx->buf + m * tx->segs * tx->len;

		for (size_t j = 0; j < n; j++)
			nd_udp_hdr_write(base + j * tx->len, ++(*seq), tx->b64, now);
		tx->iov[m].iov_base = base;
		tx->iov[m].iov_len = n * tx->len;
		memset(&tx->mm[m], 0, sizeof(tx->mm[m]));
		tx->mm[m].msg_hdr.msg_iov = &tx->iov[m];
		tx->mm[m].msg_hdr.msg_iovlen = 1;
		left -= n;
		m++;
	}
	sent = sendmmsg(s->fd, tx->mm, (unsigned)m, 0);
	if (sent < 0) {
		*seq = first;
		return -errno;
	}
	/* Datagrams of messages that did not go are numbered again next time. */
	*seq = first;
	for (i = 0; i < sent; i++)
		*seq += tx->iov[i].iov_len / tx->len;
	return (int)(*seq - first);
}

static bool credit_wanted(const struct nd_stream *s)
{
	const char *peer = s->remote_host;

	if (s->test->p.rate_bps != 0 || !peer[0])
		return false;
	return strcmp(peer, s->local_host) == 0 || strncmp(peer, "127.", 4) == 0 ||
	       strcmp(peer, "::1") == 0;
}

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static uint32_t get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Sender: take every credit that arrived; other datagrams are ignored. */
static void credit_read(int fd, struct udp_credit *c)
{
	uint8_t msg[64];
	ssize_t n;

	while ((n = recv(fd, msg, sizeof(msg), MSG_DONTWAIT)) >= 0 || errno == EINTR ||
	       errno == ECONNREFUSED) {
		uint64_t seq;

		if (n != UDP_CREDIT_LEN || get_be32(msg) != UDP_CREDIT_MAGIC)
			continue;
		seq = (uint64_t)get_be32(msg + 4) << 32 | get_be32(msg + 8);
		c->heard = true;
		if (seq > c->granted)
			c->granted = seq;
	}
}

/* Sender: wait until the receiver is less than a window behind `seq`. */
static void credit_wait(struct nd_stream *s, struct udp_credit *c, uint64_t seq)
{
	double give_up = 0;

	credit_read(s->fd, c);
	while (c->heard && seq > c->granted + c->window_dgrams &&
	       !atomic_load_explicit(&s->test->stop, memory_order_relaxed)) {
		struct pollfd pfd = { .fd = s->fd, .events = POLLIN };

		if (give_up == 0)
			give_up = nd_now_sec() + UDP_CREDIT_WAIT_MS / 1000.0;
		else if (nd_now_sec() > give_up)
			break;
		poll(&pfd, 1, 5);
		credit_read(s->fd, c);
	}
}

/* Receiver: report progress once a few GSO messages' worth came in. */
static void credit_send(struct nd_stream *s, struct udp_credit *c)
{
	uint64_t seq = s->acct.highest_seq;
	uint8_t msg[UDP_CREDIT_LEN];

	if (!c->on || seq < c->sent_seq + c->window_dgrams / 8)
		return;
	put_be32(msg, UDP_CREDIT_MAGIC);
	put_be32(msg + 4, (uint32_t)(seq >> 32));
	put_be32(msg + 8, (uint32_t)seq);
	if (send(s->fd, msg, sizeof(msg), MSG_DONTWAIT | MSG_NOSIGNAL) == sizeof(msg))
		c->sent_seq = seq;
}

static void credit_init(const struct nd_stream *s, struct udp_credit *c)
{
	memset(c, 0, sizeof(*c));
	c->on = credit_wanted(s);
	c->window_dgrams = UDP_CREDIT_WINDOW / (s->test->len_bytes ? s->test->len_bytes : 1);
	if (c->window_dgrams < 64)
		c->window_dgrams = 64;
}

static int udp_send_loop(struct nd_stream *s)
{
	struct nd_test *t = s->test;
	struct udp_tx tx = { .b64 = t->extra.udp_64bit };
	uint64_t seq = 0, sent_dgrams = 0;
	double t0 = nd_now_sec();
	int rc = tx_setup(&tx, s->fd, t->len_bytes, !t->p.no_gso);
	struct udp_credit credit;

	credit_init(s, &credit);
	while (rc == 0 && !atomic_load_explicit(&t->stop, memory_order_relaxed)) {
		uint64_t want = tx_allowance(s, t0, sent_dgrams, tx.msgs * tx.segs);
		uint64_t left = nd_test_amount_left(t);
		int n;

		if (want == 0)
			continue;
		/* A batch ends at the -n/-k count rather than up to 512 KiB past it. */
		if (left > 0 && left != UINT64_MAX && want > (left + tx.len - 1) / tx.len)
			want = (left + tx.len - 1) / tx.len;
		if (credit.on)
			credit_wait(s, &credit, seq + want);
		n = tx_batch(s, &tx, &seq, want);
		if (n < 0) {
			if (n == -EINTR || n == -EAGAIN || n == -ENOBUFS || n == -ECONNREFUSED) {
				sched_yield();
				continue;
			}
			if ((n == -EINVAL || n == -EIO) && tx.segs > 1) {
				int off = 0;

				setsockopt(s->fd, SOL_UDP, UDP_SEGMENT, &off, sizeof(off));
				rc = tx_setup(&tx, s->fd, t->len_bytes, false);
				continue;
			}
			rc = n;
			break;
		}
		sent_dgrams += (uint64_t)n;
		atomic_fetch_add_explicit(&s->packets, (uint64_t)n, memory_order_relaxed);
		atomic_fetch_add_explicit(&s->bytes, (uint64_t)n * tx.len, memory_order_relaxed);
		/*
		 * -n/-k: the client's sender stops at the count and ends the test.
		 * A server paced by -b keeps its rate until TEST_END, as iperf3's
		 * does, so a client that lost datagrams still receives the count;
		 * an unpaced one stops (the client then ends on a quiet stream).
		 */
		if (nd_test_amount_add(t, true, (uint64_t)n * tx.len) &&
		    (!t->is_server || t->p.rate_bps == 0))
			break;
	}
	free(tx.buf);
	return rc;
}

struct udp_rx {
	uint8_t *buf;
	size_t buf_len, msgs;
	bool gro;
	struct mmsghdr mm[UDP_BATCH_MAX];
	struct iovec iov[UDP_BATCH_MAX];
	char ctl[UDP_BATCH_MAX][CMSG_SPACE(sizeof(int))];
};

static size_t gro_size(struct msghdr *mh)
{
	struct cmsghdr *c;

	for (c = CMSG_FIRSTHDR(mh); c; c = CMSG_NXTHDR(mh, c)) {
		if (c->cmsg_level == SOL_UDP && c->cmsg_type == UDP_GRO) {
			int size;

			memcpy(&size, CMSG_DATA(c), sizeof(size));
			return size > 0 ? (size_t)size : 0;
		}
	}
	return 0;
}

/* Account one received message, which GRO may have made of many datagrams. */
static void rx_account(struct nd_stream *s, struct udp_rx *rx, size_t i, double now)
{
	struct msghdr *mh = &rx->mm[i].msg_hdr;
	size_t n = rx->mm[i].msg_len;
	size_t seg = rx->gro ? gro_size(mh) : 0;
	size_t have = n < rx->iov[i].iov_len ? n : rx->iov[i].iov_len;
	const uint8_t *base = rx->iov[i].iov_base;
	uint64_t dgrams = 0;

	if (seg == 0 || seg > n)
		seg = n ? n : 1;
	for (size_t off = 0; off < n; off += seg) {
		uint64_t seq;
		double sent;

		dgrams++;
		/* Only bytes that were copied are parsed (MSG_TRUNC can say more). */
		if (off < have && nd_udp_hdr_read(base + off, have - off, s->test->extra.udp_64bit,
						  &seq, &sent) == 0)
			nd_udp_acct_datagram(&s->acct, seq, sent, now);
	}
	atomic_fetch_add_explicit(&s->packets, dgrams, memory_order_relaxed);
	atomic_fetch_add_explicit(&s->bytes, n, memory_order_relaxed);
}

static int rx_setup(struct nd_stream *s, struct udp_rx *rx)
{
	struct nd_test *t = s->test;
	struct timeval tv = { 0, 250000 };
	int one = 1;

	setsockopt(s->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	rx->gro = !t->p.no_gso && !t->p.skip_rx_copy &&
		  setsockopt(s->fd, SOL_UDP, UDP_GRO, &one, sizeof(one)) == 0;
	if (t->p.skip_rx_copy)
		rx->buf_len = nd_udp_hdr_len(true);
	else
		rx->buf_len = rx->gro ? UDP_RX_GRO_BUF : t->len_bytes;
	rx->msgs = rx->gro ? 8 : UDP_BATCH_MAX;
	/* Page-aligned as the TCP worker's (stream_tcp.c says why). */
	rx->buf = aligned_alloc(4096, (rx->msgs * rx->buf_len + 4095) & ~(size_t)4095);
	if (!rx->buf)
		return -ENOMEM;
	for (size_t i = 0; i < rx->msgs; i++) {
		rx->iov[i].iov_base = rx->buf + i * rx->buf_len;
		rx->iov[i].iov_len = rx->buf_len;
	}
	return 0;
}

static int udp_recv_loop(struct nd_stream *s)
{
	struct nd_test *t = s->test;
	struct udp_rx rx = { 0 };
	int flags = MSG_WAITFORONE | (t->p.skip_rx_copy ? MSG_TRUNC : 0);
	int rc = rx_setup(s, &rx);
	struct udp_credit credit;
	uint64_t counted_seq = 0;

	credit_init(s, &credit);
	while (rc == 0 && !atomic_load_explicit(&t->stop_rx, memory_order_relaxed)) {
		int n, i;

		for (size_t k = 0; k < rx.msgs; k++) {
			memset(&rx.mm[k].msg_hdr, 0, sizeof(rx.mm[k].msg_hdr));
			rx.mm[k].msg_hdr.msg_iov = &rx.iov[k];
			rx.mm[k].msg_hdr.msg_iovlen = 1;
			rx.mm[k].msg_hdr.msg_control = rx.gro ? rx.ctl[k] : NULL;
			rx.mm[k].msg_hdr.msg_controllen = rx.gro ? sizeof(rx.ctl[k]) : 0;
		}
		n = recvmmsg(s->fd, rx.mm, (unsigned)rx.msgs, flags, NULL);
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN || errno == ECONNREFUSED)
				continue;
			rc = -errno;
			break;
		}
		if (n == 0)
			continue;
		double now = nd_now_sec();

		for (i = 0; i < n; i++)
			rx_account(s, &rx, (size_t)i, now);
		credit_send(s, &credit);
		/* -n/-k progress by sequence number: what the sender sent so far. */
		if (s->acct.highest_seq > counted_seq) {
			nd_test_amount_add(t, false, (s->acct.highest_seq - counted_seq) *
					   t->len_bytes);
			counted_seq = s->acct.highest_seq;
		}
		atomic_store_explicit(&s->lost, s->acct.lost, memory_order_relaxed);
		atomic_store_explicit(&s->out_of_order, s->acct.out_of_order, memory_order_relaxed);
		atomic_store_explicit(&s->jitter_nsec, (uint64_t)(s->acct.jitter_sec * 1e9),
				      memory_order_relaxed);
	}
	free(rx.buf);
	return rc;
}

void *nd_udp_worker(void *arg)
{
	struct nd_stream *s = arg;

	nd_stream_pin(s);
	s->worker_err = s->sending ? udp_send_loop(s) : udp_recv_loop(s);
	return NULL;
}
