/*
 * stream_tcp.c - the TCP worker: one thread per stream, a tight send or
 * receive loop on its own buffer.  It reads the test's stop flag and writes
 * only its own stream's atomic counters.  -Z sends with MSG_ZEROCOPY and
 * drains the completions from the error queue; --skip-rx-copy receives with
 * MSG_TRUNC so the kernel discards without copying.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "nicdoctor/engine_int.h"

#ifndef SO_ZEROCOPY
#define SO_ZEROCOPY 60
#endif
#ifndef MSG_ZEROCOPY
#define MSG_ZEROCOPY 0x4000000
#endif

static void pin_self(int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

/* Completions only tell us the kernel is done with the (constant) buffer. */
static void drain_zerocopy(int fd)
{
	char control[128];

	for (int i = 0; i < 64; i++) {
		struct msghdr msg = { .msg_control = control,
				      .msg_controllen = sizeof(control) };

		if (recvmsg(fd, &msg, MSG_ERRQUEUE | MSG_DONTWAIT) < 0)
			break;
	}
}

/* True once the client's -n/-k amount is reached (client side only). */
static bool amount_done(struct nd_stream *s, uint64_t bytes)
{
	struct nd_test *t = s->test;
	uint64_t len = t->len_bytes ? t->len_bytes : 1;
	uint64_t total, blocks;

	if (t->is_server || (!t->p.bytes_total && !t->p.blocks_total))
		return false;
	total = atomic_fetch_add_explicit(&t->amount_bytes, bytes, memory_order_relaxed) + bytes;
	blocks = total / len;
	if ((t->p.bytes_total && total >= t->p.bytes_total) ||
	    (t->p.blocks_total && blocks >= t->p.blocks_total)) {
		atomic_store(&t->limit_reached, true);
		return true;
	}
	return false;
}

/* Sleep while this stream is ahead of its -b rate (iperf3: per stream). */
static void pace(struct nd_stream *s, double t0, uint64_t sent_bytes)
{
	double rate = (double)s->test->p.rate_bps;
	double due = t0 + (double)sent_bytes * 8.0 / rate;
	double now = nd_now_sec();

	if (due > now + 0.0005) {
		struct timespec ts = { 0, (long)((due - now) * 1e9) };

		if (ts.tv_nsec > 10000000)
			ts.tv_nsec = 10000000;
		nanosleep(&ts, NULL);
	}
}

static int tcp_send_loop(struct nd_stream *s, const char *buf, size_t len)
{
	struct nd_test *t = s->test;
	int flags = MSG_NOSIGNAL, one = 1;
	uint64_t sent = 0, sends = 0;
	double t0 = nd_now_sec();

	if (t->p.zerocopy && setsockopt(s->fd, SOL_SOCKET, SO_ZEROCOPY, &one, sizeof(one)) == 0)
		flags |= MSG_ZEROCOPY;
	while (!atomic_load_explicit(&t->stop, memory_order_relaxed)) {
		ssize_t n = send(s->fd, buf, len, flags);

		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			if (errno == ENOBUFS && (flags & MSG_ZEROCOPY)) {
				drain_zerocopy(s->fd);
				continue;
			}
			return -errno;
		}
		atomic_fetch_add_explicit(&s->bytes, (uint64_t)n, memory_order_relaxed);
		sent += (uint64_t)n;
		if ((flags & MSG_ZEROCOPY) && (++sends & 15) == 0)
			drain_zerocopy(s->fd);
		if (amount_done(s, (uint64_t)n))
			break;
		if (t->p.rate_bps)
			pace(s, t0, sent);
	}
	return 0;
}

static int tcp_recv_loop(struct nd_stream *s, char *buf, size_t len)
{
	struct nd_test *t = s->test;
	int flags = t->p.skip_rx_copy ? MSG_TRUNC : 0;

	while (!atomic_load_explicit(&t->stop_rx, memory_order_relaxed)) {
		ssize_t n = recv(s->fd, buf, len, flags);

		if (n == 0)
			return 0;
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			return -errno;
		}
		/* MSG_TRUNC must never report more than we asked for (CVE-2025-54351). */
		if ((size_t)n > len)
			n = (ssize_t)len;
		atomic_fetch_add_explicit(&s->bytes, (uint64_t)n, memory_order_relaxed);
		if (amount_done(s, (uint64_t)n))
			break;
	}
	return 0;
}

void *nd_tcp_worker(void *arg)
{
	struct nd_stream *s = arg;
	struct nd_test *t = s->test;
	size_t len = t->len_bytes;
	char *buf;

	pin_self(s->cpu);
	/* Receivers read in big gulps: fewer syscalls, same copies. */
	if (!s->sending && len < 256 * 1024)
		len = 256 * 1024;
	buf = malloc(len);
	if (!buf) {
		s->worker_err = -ENOMEM;
		return NULL;
	}
	if (s->sending) {
		for (size_t i = 0; i < len; i++)
			buf[i] = (char)('0' + i % 10);
		s->worker_err = tcp_send_loop(s, buf, t->len_bytes);
	} else {
		s->worker_err = tcp_recv_loop(s, buf, len);
	}
	free(buf);
	return NULL;
}
