/*
 * server.c - `serve`'s listener: every new connection is held (with a
 * deadline) until its 37-byte cookie arrives, then routed: to a test that
 * is waiting for data streams with that cookie, to a free test slot as a
 * new control connection, or answered 0xFF "busy" and closed, as iperf3
 * does.  `--max-tests N` allows N tests at once; each runs in its thread,
 * and all of them share one budget of streams and buffer memory.
 */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "engine_server.h"

void nd_server_config_init(struct nd_server_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->port = ND_ENGINE_PORT_DEFAULT;
	cfg->max_tests = 1;
	cfg->idle_timeout_ms = 10000;
	cfg->rcv_timeout_ms = ND_SERVER_RCV_TIMEOUT_DEFAULT;
	cfg->max_streams = ND_SERVER_STREAMS_DEFAULT;
	cfg->max_memory_bytes = ND_SERVER_MEMORY_DEFAULT;
	cfg->bitrate_limit_interval_sec = 5;
}

int nd_server_ctrl_timeout_ms(const struct nd_server *s)
{
	return s->cfg.rcv_timeout_ms < s->cfg.idle_timeout_ms ? s->cfg.rcv_timeout_ms
							       : s->cfg.idle_timeout_ms;
}

/*
 * Each worker's own buffer (stream_tcp.c, stream_udp.c): a TCP sender one
 * block, a TCP receiver at least 256 KiB; a UDP worker a batch of up to 64
 * datagrams or 8 GSO messages of 64 KiB.  Socket buffers are the kernel's,
 * clamped by net.core.[rw]mem_max whatever -w asks.
 */
uint64_t nd_server_test_bytes(const struct nd_engine_params *p)
{
	uint64_t len = nd_params_len(p), per_rx, per_tx;
	int rx = 0, tx = 0;

	if (p->udp) {
		per_tx = per_rx = 64 * len > (512u << 10) ? 64 * len : (512u << 10);
	} else {
		per_tx = len;
		per_rx = len > (256u << 10) ? len : (256u << 10);
	}
	if (p->bidir)
		rx = tx = p->streams;
	else if (p->reverse)
		tx = p->streams;
	else
		rx = p->streams;
	return (uint64_t)rx * per_rx + (uint64_t)tx * per_tx;
}

int nd_server_budget_take(struct nd_server *s, const struct nd_engine_params *p,
			  struct nd_budget_use *ret_use, char *why, size_t why_size)
{
	struct nd_budget_use use = {
		.streams = p->bidir ? 2 * p->streams : p->streams,
		.bytes = nd_server_test_bytes(p),
	};
	const struct nd_server_config *cfg = &s->cfg;
	int rc = 0;

	if (use.streams > cfg->max_streams) {
		snprintf(why, why_size, "refused: %d streams, the server allows %d (--max-streams)",
			 use.streams, cfg->max_streams);
		return -E2BIG;
	}
	if (use.bytes > cfg->max_memory_bytes) {
		snprintf(why, why_size, "refused: %llu MiB of stream buffers, the server allows "
			 "%llu MiB (--max-memory)", (unsigned long long)(use.bytes + 1048575) >> 20,
			 (unsigned long long)cfg->max_memory_bytes >> 20);
		return -EFBIG;
	}
	pthread_mutex_lock(&s->budget_lock);
	if (s->budget_streams + use.streams > cfg->max_streams ||
	    s->budget_bytes + use.bytes > cfg->max_memory_bytes) {
		snprintf(why, why_size, "refused for now: the tests running leave %d of %d streams "
			 "and %llu of %llu MiB, this one needs %d and %llu MiB",
			 cfg->max_streams - s->budget_streams, cfg->max_streams,
			 (unsigned long long)(cfg->max_memory_bytes - s->budget_bytes) >> 20,
			 (unsigned long long)cfg->max_memory_bytes >> 20, use.streams,
			 (unsigned long long)(use.bytes + 1048575) >> 20);
		rc = -EBUSY;
	} else {
		s->budget_streams += use.streams;
		s->budget_bytes += use.bytes;
		*ret_use = use;
	}
	pthread_mutex_unlock(&s->budget_lock);
	return rc;
}

void nd_server_budget_put(struct nd_server *s, const struct nd_budget_use *use)
{
	pthread_mutex_lock(&s->budget_lock);
	s->budget_streams -= use->streams;
	s->budget_bytes -= use->bytes;
	pthread_mutex_unlock(&s->budget_lock);
}

int nd_server_create(const struct nd_server_config *cfg, struct nd_server **ret_server)
{
	struct nd_server *s = calloc(1, sizeof(*s));
	int rc;

	if (!s)
		return -ENOMEM;
	s->cfg = *cfg;
	if (s->cfg.max_tests < 1 || s->cfg.max_tests > ND_SERVER_TESTS_MAX ||
	    s->cfg.idle_timeout_ms < 1 || s->cfg.rcv_timeout_ms < 1 ||
	    s->cfg.max_streams < 1 || s->cfg.max_memory_bytes < 1) {
		free(s);
		return -EINVAL;
	}
	rc = nd_server_listen_ports(s);
	if (rc < 0) {
		free(s);
		return rc;
	}
	for (int i = 0; i < ND_SERVER_TESTS_MAX; i++) {
		s->slots[i].server = s;
		s->slots[i].ctrl_fd = -1;
		pthread_mutex_init(&s->slots[i].lock, NULL);
		pthread_cond_init(&s->slots[i].cond, NULL);
	}
	pthread_mutex_init(&s->udp_setup_lock, NULL);
	pthread_mutex_init(&s->out_lock, NULL);
	pthread_mutex_init(&s->budget_lock, NULL);
	*ret_server = s;
	return 0;
}

void nd_server_set_json_out(struct nd_server *server, FILE *f)
{
	server->cfg.json_out = f;
}

uint16_t nd_server_port(const struct nd_server *server)
{
	return server->port;
}

unsigned nd_server_tests_done(const struct nd_server *server)
{
	return atomic_load(&((struct nd_server *)server)->tests_done);
}

void nd_server_request_stop(struct nd_server *server)
{
	atomic_store(&server->stop, true);
}

static void busy(int fd)
{
	int8_t st = ND_ACCESS_DENIED;

	(void)!send(fd, &st, 1, MSG_DONTWAIT | MSG_NOSIGNAL);
	close(fd);
}

/* Join finished tests; returns how many are still active. */
static int reap(struct nd_server *s)
{
	int active = 0;

	for (int i = 0; i < s->cfg.max_tests; i++) {
		struct nd_slot *sl = &s->slots[i];
		int phase = atomic_load(&sl->phase);

		if (phase == ND_SLOT_DONE) {
			pthread_join(sl->thread, NULL);
			atomic_store(&sl->phase, ND_SLOT_FREE);
			if (sl->auth_refused)
				atomic_fetch_sub(&s->tests_started, 1);
			else
				atomic_fetch_add(&s->tests_done, 1);
		} else if (phase != ND_SLOT_FREE) {
			active++;
		}
	}
	return active;
}

static bool anyone_awaits_streams(struct nd_server *s)
{
	for (int i = 0; i < s->cfg.max_tests; i++)
		if (atomic_load(&s->slots[i].phase) == ND_SLOT_AWAIT_STREAMS)
			return true;
	return false;
}

static struct nd_slot *free_slot(struct nd_server *s)
{
	unsigned started = atomic_load(&s->tests_started);

	if (s->cfg.one_off > 0 && started >= (unsigned)s->cfg.one_off)
		return NULL;
	for (int i = 0; i < s->cfg.max_tests; i++)
		if (atomic_load(&s->slots[i].phase) == ND_SLOT_FREE)
			return &s->slots[i];
	return NULL;
}

/*
 * A new control connection, as 3.21's iperf_accept(): --snd-timeout and
 * --cntl-ka (each keepalive value 0 keeps the system's).
 */
static void control_sockopts(const struct nd_server_config *cfg, int fd)
{
	int one = 1;

	/* Small control messages must not wait behind Nagle for a delayed ACK. */
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (cfg->snd_timeout_ms > 0)
		setsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &cfg->snd_timeout_ms, sizeof(int));
	if (!cfg->cntl_ka)
		return;
	setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof(one));
	if (cfg->cntl_ka_idle > 0)
		setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &cfg->cntl_ka_idle, sizeof(int));
	if (cfg->cntl_ka_intv > 0)
		setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &cfg->cntl_ka_intv, sizeof(int));
	if (cfg->cntl_ka_cnt > 0)
		setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &cfg->cntl_ka_cnt, sizeof(int));
}

static void start_test(struct nd_server *s, struct nd_slot *sl, struct nd_pending *pd)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);

	control_sockopts(&s->cfg, pd->fd);
	sl->ctrl_fd = pd->fd;
	memcpy(sl->cookie, pd->cookie, ND_COOKIE_LEN);
	sl->cookie[ND_COOKIE_LEN - 1] = '\0';
	sl->routed_count = 0;
	sl->routed_want = 0;
	sl->refusal.set = false;
	sl->authenticated = sl->auth_refused = false;
	sl->auth_user[0] = '\0';
	sl->peer[0] = '\0';
	if (getpeername(pd->fd, (struct sockaddr *)&ss, &len) == 0)
		nd_net_addr_str(&ss, sl->peer, sizeof(sl->peer), &sl->peer_port);
	sl->local_port = nd_server_local_port(s, pd->fd);
	atomic_store(&sl->phase, ND_SLOT_SETUP);
	atomic_fetch_add(&s->tests_started, 1);
	if (pthread_create(&sl->thread, NULL, nd_server_test_main, sl) != 0) {
		close(pd->fd);
		sl->ctrl_fd = -1;
		atomic_store(&sl->phase, ND_SLOT_FREE);
		atomic_fetch_sub(&s->tests_started, 1);
	}
}

/*
 * A slot about to free: its test is finishing, or still exchanging
 * parameters, which a refused test ends at once (the refusal reaches the
 * client before the slot is marked finishing).  A new client waits for
 * such a slot rather than being told busy.
 */
static bool anyone_finishing(struct nd_server *s)
{
	for (int i = 0; i < s->cfg.max_tests; i++) {
		int phase = atomic_load(&s->slots[i].phase);

		if (phase == ND_SLOT_FINISHING || phase == ND_SLOT_SETUP)
			return true;
	}
	return false;
}

/*
 * A complete cookie: a data stream of a waiting test, or a new test.  When
 * every slot is taken but one is just finishing, the connection waits in
 * the pending list instead of being told "busy" (a client that runs tests
 * back to back would otherwise race the previous test's IPERF_DONE).
 */
static void route(struct nd_server *s, struct nd_pending *pd)
{
	struct nd_slot *sl;

	for (int i = 0; i < s->cfg.max_tests; i++) {
		sl = &s->slots[i];
		if (atomic_load(&sl->phase) != ND_SLOT_AWAIT_STREAMS ||
		    memcmp(sl->cookie, pd->cookie, ND_COOKIE_LEN - 1) != 0)
			continue;
		pthread_mutex_lock(&sl->lock);
		if (sl->routed_count < sl->routed_want) {
			sl->routed_fds[sl->routed_count++] = pd->fd;
			pd->fd = -1;
			pthread_cond_signal(&sl->cond);
		}
		pthread_mutex_unlock(&sl->lock);
		if (pd->fd < 0)
			return;
	}
	reap(s);
	sl = free_slot(s);
	if (sl)
		start_test(s, sl, pd);
	else if (anyone_finishing(s) && nd_now_sec() < pd->deadline)
		return;
	else
		busy(pd->fd);
	pd->fd = -1;
}

static void accept_new(struct nd_server *s, int listen_fd)
{
	int fd = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC);

	if (fd < 0)
		return;
	reap(s);
	/* iperf3 answers busy without reading the cookie when nothing can use it. */
	if (!free_slot(s) && !anyone_awaits_streams(s) && !anyone_finishing(s)) {
		busy(fd);
		return;
	}
	if (s->pending_count == ND_SERVER_PENDING_MAX) {
		close(fd);
		return;
	}
	s->pending[s->pending_count++] = (struct nd_pending){
		.fd = fd, .got = 0,
		.deadline = nd_now_sec() + nd_server_ctrl_timeout_ms(s) / 1000.0,
	};
}

static void read_pending(struct nd_server *s, struct nd_pending *pd)
{
	ssize_t n = recv(pd->fd, pd->cookie + pd->got, ND_COOKIE_LEN - pd->got, MSG_DONTWAIT);

	if (n > 0) {
		pd->got += (size_t)n;
		if (pd->got == ND_COOKIE_LEN)
			route(s, pd);
	} else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
		close(pd->fd);
		pd->fd = -1;
	}
}

static void poll_once(struct nd_server *s)
{
	struct pollfd pfd[ND_SERVER_LISTEN_MAX + ND_SERVER_PENDING_MAX];
	bool deferred = false;
	double now;
	int n, i, k, ready, nl;

	n = nl = nd_server_listen_pollfds(s, pfd);
	for (i = 0; i < s->pending_count; i++) {
		pfd[n++] = (struct pollfd){ .fd = s->pending[i].fd, .events = POLLIN };
		deferred |= s->pending[i].got == ND_COOKIE_LEN;
	}
	ready = poll(pfd, (nfds_t)n, deferred ? 5 : 100);
	for (i = 0; i < s->pending_count; i++) {
		struct nd_pending *pd = &s->pending[i];

		if (pd->got == ND_COOKIE_LEN)
			route(s, pd);	/* deferred earlier: try again */
		else if (ready > 0 && pfd[nl + i].revents)
			read_pending(s, pd);
	}
	now = nd_now_sec();
	for (i = 0, k = 0; i < s->pending_count; i++) {
		struct nd_pending *pd = &s->pending[i];

		if (pd->fd >= 0 && now > pd->deadline) {
			close(pd->fd);	/* a cookie that never came */
			pd->fd = -1;
		}
		if (pd->fd >= 0)
			s->pending[k++] = *pd;
	}
	s->pending_count = k;
	for (i = 0; ready > 0 && i < nl; i++)
		if (pfd[i].revents & POLLIN)
			accept_new(s, pfd[i].fd);
}

int nd_server_run(struct nd_server *s)
{
	if (!s->cfg.quiet && !s->embedded && !s->cfg.json_log) {
		char ports[16];

		nd_server_ports_text(s, ports, sizeof(ports));
		printf("-----------------------------------------------------------\n"
		       "Server listening on %s (nicdoctor, up to %d test%s at once)\n"
		       "-----------------------------------------------------------\n",
		       ports, s->cfg.max_tests, s->cfg.max_tests > 1 ? "s" : "");
		fflush(stdout);
	}
	for (;;) {
		int active = reap(s);

		if (atomic_load(&s->stop) ||
		    (s->cfg.one_off > 0 && active == 0 &&
		     atomic_load(&s->tests_done) >= (unsigned)s->cfg.one_off))
			break;
		poll_once(s);
	}
	/* Tests see the stop flag within their poll interval and finish. */
	atomic_store(&s->stop, true);
	while (reap(s) > 0) {
		struct timespec ts = { 0, 20000000 };

		nanosleep(&ts, NULL);
	}
	return 0;
}

void nd_server_destroy(struct nd_server *s)
{
	if (!s)
		return;
	for (int i = 0; i < s->pending_count; i++)
		close(s->pending[i].fd);
	for (int i = 0; i < ND_SERVER_TESTS_MAX; i++) {
		pthread_mutex_destroy(&s->slots[i].lock);
		pthread_cond_destroy(&s->slots[i].cond);
	}
	pthread_mutex_destroy(&s->udp_setup_lock);
	pthread_mutex_destroy(&s->out_lock);
	pthread_mutex_destroy(&s->budget_lock);
	nd_server_listen_close(s);
	free(s);
}

static void *embedded_main(void *arg)
{
	nd_server_run(arg);
	return NULL;
}

int nd_server_start_embedded(uint16_t port, struct nd_server **ret_server)
{
	struct nd_server_config cfg;
	struct nd_server *s;
	int rc;

	nd_server_config_init(&cfg);
	cfg.port = port;
	cfg.bind_addr = "127.0.0.1";
	cfg.max_tests = 4;
	cfg.quiet = true;
	rc = nd_server_create(&cfg, &s);
	if (rc < 0)
		return rc;
	s->embedded = true;
	rc = pthread_create(&s->embedded_thread, NULL, embedded_main, s);
	if (rc != 0) {
		nd_server_destroy(s);
		return -rc;
	}
	*ret_server = s;
	return 0;
}

void nd_server_stop_embedded(struct nd_server *s)
{
	if (!s)
		return;
	nd_server_request_stop(s);
	pthread_join(s->embedded_thread, NULL);
	nd_server_destroy(s);
}
