/*
 * bareloop.c - the yardstick of bench/loopback.py: what any engine can
 * reach on this host's loopback.  N sender and N receiver threads do
 * nothing but send() and recv() of 128 KiB blocks on N loopback TCP
 * connections (default socket buffers, no pinning, no timers, no
 * accounting beyond one counter per receiver) for S seconds, then print
 * one JSON line: received Gbit/s and the CPU time of both ends.
 *
 *     bareloop [-P N] [-t SECONDS] [-l BYTES]
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define BARE_MAX 64

struct end {
	int fd;
	size_t len;
	_Atomic unsigned long long bytes;
	pthread_t thread;
};

static atomic_bool stop;

static void *sender(void *arg)
{
	struct end *e = arg;
	char *buf = calloc(1, e->len);

	while (buf && !atomic_load_explicit(&stop, memory_order_relaxed))
		if (send(e->fd, buf, e->len, MSG_NOSIGNAL) < 0 && errno != EINTR)
			break;
	free(buf);
	return NULL;
}

static void *receiver(void *arg)
{
	struct end *e = arg;
	char *buf = malloc(e->len);
	ssize_t n;

	while (buf && (n = recv(e->fd, buf, e->len, 0)) > 0)
		atomic_fetch_add_explicit(&e->bytes, (unsigned long long)n, memory_order_relaxed);
	free(buf);
	return NULL;
}

static double now_sec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static double cpu_sec(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

/* N connected pairs through one listener on 127.0.0.1, any port. */
static int connect_pairs(int n, struct end *tx, struct end *rx)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	socklen_t sl = sizeof(sa);
	int lfd = socket(AF_INET, SOCK_STREAM, 0);

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) < 0 || listen(lfd, n) < 0 ||
	    getsockname(lfd, (struct sockaddr *)&sa, &sl) < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		tx[i].fd = socket(AF_INET, SOCK_STREAM, 0);
		if (tx[i].fd < 0 || connect(tx[i].fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
			return -1;
		rx[i].fd = accept(lfd, NULL, NULL);
		if (rx[i].fd < 0)
			return -1;
	}
	close(lfd);
	return 0;
}

int main(int argc, char **argv)
{
	static struct end tx[BARE_MAX], rx[BARE_MAX];
	int n = 1, c;
	double secs = 2, t0, c0, t1, c1;
	size_t len = 128 << 10;
	unsigned long long total = 0;

	while ((c = getopt(argc, argv, "P:t:l:")) != -1) {
		switch (c) {
		case 'P': n = atoi(optarg); break;
		case 't': secs = atof(optarg); break;
		case 'l': len = (size_t)atol(optarg); break;
		default:
			fprintf(stderr, "usage: bareloop [-P N] [-t SECONDS] [-l BYTES]\n");
			return 3;
		}
	}
	if (n < 1 || n > BARE_MAX || secs <= 0 || len < 1) {
		fprintf(stderr, "bareloop: bad arguments\n");
		return 3;
	}
	if (connect_pairs(n, tx, rx) < 0) {
		perror("bareloop: loopback connection");
		return 4;
	}
	t0 = now_sec();
	c0 = cpu_sec();
	for (int i = 0; i < n; i++) {
		tx[i].len = rx[i].len = len;
		pthread_create(&rx[i].thread, NULL, receiver, &rx[i]);
		pthread_create(&tx[i].thread, NULL, sender, &tx[i]);
	}
	usleep((useconds_t)(secs * 1e6));
	for (int i = 0; i < n; i++)
		total += atomic_load(&rx[i].bytes);
	t1 = now_sec();
	c1 = cpu_sec();
	atomic_store(&stop, true);
	for (int i = 0; i < n; i++) {
		shutdown(tx[i].fd, SHUT_RDWR);
		pthread_join(tx[i].thread, NULL);
		pthread_join(rx[i].thread, NULL);
	}
	printf("{\"streams\": %d, \"seconds\": %.3f, \"bytes\": %llu, \"gbps\": %.3f, "
	       "\"cpu_sec\": %.3f}\n", n, t1 - t0, total, total * 8 / (t1 - t0) / 1e9, c1 - c0);
	return 0;
}
