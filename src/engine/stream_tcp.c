/*
 * stream_tcp.c - the TCP worker: one thread per stream, a tight send or
 * receive loop on its own buffer.  It reads the test's stop flag and writes
 * only its own stream's atomic counters.  -Z sends with sendfile() from a
 * memfd, as iperf3 does; --skip-rx-copy receives with MSG_TRUNC so the
 * kernel discards without copying; -F sends or stores a file instead.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "engine_int.h"

/*
 * Sleep while this stream is ahead of its -b rate (iperf3: per stream).
 * Until due, in naps of at most 10 ms so a stop is seen: one nap per block
 * capped a 128 KiB block stream at 105 Mbit/s whatever -b asked below it.
 */
static void pace(struct nd_stream *s, double t0, uint64_t sent_bytes)
{
	double rate = (double)s->test->p.rate_bps;
	double due = t0 + (double)sent_bytes * 8.0 / rate;
	double now = nd_now_sec();

	while (due > now + 0.0005 &&
	       !atomic_load_explicit(&s->test->stop, memory_order_relaxed)) {
		struct timespec ts = { 0, (long)((due - now) * 1e9) };

		if (due - now > 0.01)
			ts.tv_nsec = 10000000;
		nanosleep(&ts, NULL);
		now = nd_now_sec();
	}
}

/*
 * -Z: iperf3 sends from a file with sendfile(); we do the same from a memfd
 * holding one block.  The socket takes references to its pages instead of
 * copying (on loopback MSG_ZEROCOPY would copy anyway, plus completions).
 * -1 when the kernel cannot, and the caller falls back to send().
 */
static int zc_file(const char *buf, size_t len)
{
	int fd = memfd_create("nicdoctor-zerocopy", MFD_CLOEXEC);
	size_t done = 0;
	sigset_t pipe_set;

	/*
	 * sendfile() has no MSG_NOSIGNAL: keep the EPIPE of a closed peer a
	 * return value by blocking SIGPIPE in this worker thread only.
	 */
	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_set, NULL);

	while (fd >= 0 && done < len) {
		ssize_t n = write(fd, buf + done, len - done);

		if (n <= 0) {
			close(fd);
			return -1;
		}
		done += (size_t)n;
	}
	return fd;
}

/* One send of up to len bytes, by sendfile when zc_fd >= 0. */
static ssize_t send_block(int fd, int zc_fd, const char *buf, size_t len)
{
	if (zc_fd >= 0) {
		off_t off = 0;

		return sendfile(fd, zc_fd, &off, len);
	}
	return send(fd, buf, len, MSG_NOSIGNAL);
}

static int tcp_send_loop(struct nd_stream *s, const char *buf, size_t len)
{
	struct nd_test *t = s->test;
	int zc_fd = t->p.zerocopy ? zc_file(buf, len) : -1;
	uint64_t sent = 0;
	double t0 = nd_now_sec();
	int rc = 0;

	while (!atomic_load_explicit(&t->stop, memory_order_relaxed)) {
		ssize_t n = send_block(s->fd, zc_fd, buf, len);

		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			if (zc_fd >= 0 && (errno == EINVAL || errno == ENOSYS) && sent == 0) {
				close(zc_fd);
				zc_fd = -1;
				continue;
			}
			rc = -errno;
			break;
		}
		atomic_fetch_add_explicit(&s->bytes, (uint64_t)n, memory_order_relaxed);
		sent += (uint64_t)n;
		/* -n/-k: a sender stops at the count, in either role (iperf3's
		 * sender does too); the client then ends the test. */
		if (nd_test_amount_add(t, true, (uint64_t)n))
			break;
		if (t->p.rate_bps)
			pace(s, t0, sent);
	}
	if (zc_fd >= 0)
		close(zc_fd);
	return rc;
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
		/* At the count the client ends the test, but this keeps reading:
		 * a receiver that stopped would leave the sender's socket full. */
		nd_test_amount_add(t, false, (uint64_t)n);
	}
	return 0;
}

/*
 * -F as iperf3 does it: the sender sends the file (each stream all of it)
 * and then stops, the receiver writes what arrives into it, truncated first.
 */
static int tcp_file_send_loop(struct nd_stream *s, int file_fd, char *buf, size_t len)
{
	struct nd_test *t = s->test;

	while (!atomic_load_explicit(&t->stop, memory_order_relaxed)) {
		ssize_t got = read(file_fd, buf, len), off = 0;

		if (got <= 0)
			return got < 0 ? -errno : 0;
		while (off < got && !atomic_load_explicit(&t->stop, memory_order_relaxed)) {
			ssize_t n = send(s->fd, buf + off, (size_t)(got - off), MSG_NOSIGNAL);

			if (n < 0 && (errno == EINTR || errno == EAGAIN))
				continue;
			if (n < 0)
				return -errno;
			off += n;
			atomic_fetch_add_explicit(&s->bytes, (uint64_t)n, memory_order_relaxed);
			if (nd_test_amount_add(t, true, (uint64_t)n))
				return 0;
		}
	}
	return 0;
}

static int tcp_file_recv_loop(struct nd_stream *s, int file_fd, char *buf, size_t len)
{
	struct nd_test *t = s->test;

	while (!atomic_load_explicit(&t->stop_rx, memory_order_relaxed)) {
		ssize_t n = recv(s->fd, buf, len, 0);

		if (n == 0)
			return 0;
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n < 0)
			return -errno;
		/* As iperf3: a short disk write does not stop the test. */
		if (write(file_fd, buf, (size_t)n) < 0)
			s->file_err = -errno;
		atomic_fetch_add_explicit(&s->bytes, (uint64_t)n, memory_order_relaxed);
		nd_test_amount_add(t, false, (uint64_t)n);
	}
	return 0;
}

static int tcp_file_worker(struct nd_stream *s, char *buf, size_t len)
{
	const char *path = s->test->p.file;
	int fd = open(path, s->sending ? O_RDONLY | O_CLOEXEC :
		      O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	int rc;

	if (fd < 0)
		return -errno;
	rc = s->sending ? tcp_file_send_loop(s, fd, buf, s->test->len_bytes) :
	     tcp_file_recv_loop(s, fd, buf, len);
	close(fd);
	return rc;
}

void *nd_tcp_worker(void *arg)
{
	struct nd_stream *s = arg;
	struct nd_test *t = s->test;
	size_t len = t->len_bytes;
	char *buf;

	nd_stream_pin(s);
	/* Receivers read in big gulps: fewer syscalls, same copies. */
	if (!s->sending && len < 256 * 1024)
		len = 256 * 1024;
	/*
	 * Page-aligned, as iperf3's mmap'd buffer: malloc puts a block of
	 * this size 16 bytes into a fresh mapping, and the kernel's copy
	 * into it from the page-aligned skb data then costs over twice the
	 * CPU per byte on AMD EPYC (bench/bareloop.c -P 2, 256 KiB: 13-15
	 * Gbit/s per CPU-second at offset 16, 33-36 aligned).  That was the
	 * -R gap: the client's receiver got such a block, the long-running
	 * server's a reused heap chunk.
	 */
	buf = aligned_alloc(4096, (len + 4095) & ~(size_t)4095);
	if (!buf) {
		s->worker_err = -ENOMEM;
		return NULL;
	}
	if (t->p.file) {
		s->worker_err = tcp_file_worker(s, buf, len);
	} else if (s->sending) {
		for (size_t i = 0; i < len; i++)
			buf[i] = (char)('0' + i % 10);
		s->worker_err = tcp_send_loop(s, buf, t->len_bytes);
	} else {
		s->worker_err = tcp_recv_loop(s, buf, len);
	}
	free(buf);
	return NULL;
}
