/*
 * server_test.c - one test in the server's role, in its own thread:
 * parameters (capped, validated, authenticated as iperf3 -s does when
 * configured, any token refused otherwise), streams (TCP routed
 * by cookie, UDP by the "9876"/"6789" handshake), the run until TEST_END,
 * results both ways and a prompt close after IPERF_DONE.  No state waits
 * on a silent client longer than --rcv-timeout, and a test is admitted
 * only into what is left of the server-wide budget.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "nicdoctor/auth.h"
#include "nicdoctor/common.h"
#include "engine_server.h"

static bool server_stopping(const struct nd_slot *sl)
{
	return atomic_load(&sl->server->stop);
}

/* Every state we send, for -d as 3.21 prints it. */
static int send_state(const struct nd_slot *sl, int fd, int8_t st, int to)
{
	nd_debug_state(sl->server->cfg.debug, "State set to", st);
	return nd_proto_send_state(fd, st, to);
}

/* Stop routing to this test and close what was routed but not taken:
 * otherwise each aborted test leaks those descriptors. */
static void drop_routed(struct nd_slot *sl, int taken)
{
	pthread_mutex_lock(&sl->lock);
	sl->routed_want = 0;
	for (int i = taken; i < sl->routed_count; i++)
		close(sl->routed_fds[i]);
	sl->routed_count = taken < sl->routed_count ? taken : sl->routed_count;
	pthread_mutex_unlock(&sl->lock);
}

static int wait_tcp_streams(struct nd_slot *sl, struct nd_test *t, int want)
{
	double deadline = nd_now_sec() + nd_server_ctrl_timeout_ms(sl->server) / 1000.0;
	int taken = 0, rc = 0;

	while (taken < want) {
		struct timespec ts;
		int fd = -1;

		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 100000000;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		pthread_mutex_lock(&sl->lock);
		if (sl->routed_count <= taken)
			pthread_cond_timedwait(&sl->cond, &sl->lock, &ts);
		if (sl->routed_count > taken)
			fd = sl->routed_fds[taken];
		pthread_mutex_unlock(&sl->lock);
		if (fd >= 0) {
			rc = nd_test_add_stream(t, fd);
			if (rc < 0) {
				close(fd);
				drop_routed(sl, taken + 1);
				return rc;
			}
			taken++;
			continue;
		}
		if (nd_now_sec() > deadline || server_stopping(sl)) {
			drop_routed(sl, taken);
			snprintf(t->err, sizeof(t->err), "%d of %d streams connected within the "
				 "timeout (%d ms)", taken, want, nd_server_ctrl_timeout_ms(sl->server));
			return -ETIMEDOUT;
		}
	}
	return 0;
}

/* Bind, wait for each stream's hello, connect back, reply (doc §3). */
static int udp_streams(struct nd_slot *sl, struct nd_test *t, int want)
{
	static const uint8_t reply[4] = { 0x36, 0x37, 0x38, 0x39 };
	const struct nd_server_config *cfg = &sl->server->cfg;
	int fd = -1, rc, i;

	rc = nd_net_listen_dev(cfg->bind_addr, cfg->bind_dev, sl->local_port, cfg->family,
			       SOCK_DGRAM, &fd);
	if (rc < 0)
		return rc;
	rc = send_state(sl, t->ctrl_fd, ND_CREATE_STREAMS, t->timeout_ms);
	for (i = 0; rc == 0 && i < want; i++) {
		struct sockaddr_storage from;
		socklen_t fl = sizeof(from);
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		uint8_t hello[64];
		int next;

		if (poll(&pfd, 1, nd_server_ctrl_timeout_ms(sl->server)) <= 0) {
			rc = -ETIMEDOUT;
			break;
		}
		if (recvfrom(fd, hello, sizeof(hello), 0, (struct sockaddr *)&from, &fl) < 0 ||
		    connect(fd, (struct sockaddr *)&from, fl) < 0) {
			rc = -errno;
			break;
		}
		/* The next stream's hello goes to a fresh listener on the same port. */
		rc = nd_net_listen_dev(cfg->bind_addr, cfg->bind_dev, sl->local_port,
				       cfg->family, SOCK_DGRAM, &next);
		if (rc == 0 && send(fd, reply, sizeof(reply), 0) < 0)
			rc = -errno;
		if (rc == 0)
			rc = nd_test_add_stream(t, fd);
		if (rc < 0) {
			close(fd);
			fd = -1;
			if (rc != -ENOSPC)
				break;
		}
		fd = next;
	}
	if (fd >= 0)
		close(fd);
	return rc;
}

/* Recorded now, sent once the report is written (see struct nd_slot). */
static void refuse(struct nd_slot *sl, int32_t ierr, int32_t err, int timeout_ms)
{
	sl->refusal.set = true;
	sl->refusal.state = 0;
	sl->refusal.ierr = ierr;
	sl->refusal.err = err;
	sl->refusal.timeout_ms = timeout_ms;
}

static void refuse_busy(struct nd_slot *sl)
{
	refuse(sl, 0, 0, nd_server_ctrl_timeout_ms(sl->server));
	sl->refusal.state = ND_ACCESS_DENIED;
}

static void send_refusal(struct nd_slot *sl, int fd)
{
	if (!sl->refusal.set || fd < 0)
		return;
	if (sl->refusal.state)
		send_state(sl, fd, sl->refusal.state, sl->refusal.timeout_ms);
	else
		nd_proto_send_error(fd, sl->refusal.ierr, sl->refusal.err,
				    sl->refusal.timeout_ms);
	sl->refusal.set = false;
}

/*
 * iperf3's authentication: without --rsa-private-key-path any credentials
 * are refused (doc §6.10), with it every test must bring valid ones.  A
 * refusal is SERVER_ERROR "test authorization failed", as 3.12 sends it.
 */
static int authorize(struct nd_slot *sl, const cJSON *params, bool has_token, char *why,
		     size_t why_size)
{
	const cJSON *token = cJSON_GetObjectItemCaseSensitive(params, "authtoken");
	const struct nd_auth_server *auth = sl->server->cfg.auth;
	int rc = 0;

	sl->authenticated = false;
	if (!auth && has_token) {
		snprintf(why, why_size, "authentication requested, refused");
		rc = -EACCES;
	} else if (auth) {
		rc = nd_auth_check(auth, cJSON_IsString(token) ? token->valuestring : NULL,
				   (int64_t)time(NULL), sl->auth_user, sizeof(sl->auth_user),
				   why, why_size);
		sl->authenticated = rc == 0;
	}
	if (rc < 0)
		refuse(sl, ND_IE_AUTHTEST, 0, nd_server_ctrl_timeout_ms(sl->server));
	return rc;
}

/* The client's parameters; why says what was wrong with them. */
static int read_params(struct nd_slot *sl, struct nd_engine_params *p, struct nd_wire_extra *x,
		       char *why, size_t why_size)
{
	int fd = sl->ctrl_fd, to = nd_server_ctrl_timeout_ms(sl->server);
	cJSON *obj = NULL;
	int rc;

	rc = send_state(sl, fd, ND_PARAM_EXCHANGE, to);
	if (rc == 0)
		rc = nd_proto_recv_json(fd, ND_PARAMS_JSON_MAX, to, &obj);
	if (rc == -EMSGSIZE || rc == -EBADMSG) {
		snprintf(why, why_size, rc == -EMSGSIZE ?
			 "parameters of length 0 or above %d bytes refused" :
			 "parameters are not a JSON object", ND_PARAMS_JSON_MAX);
		refuse(sl, ND_IE_RECVPARAMS, 0, to);
		return rc;
	}
	if (rc == -ETIMEDOUT)
		snprintf(why, why_size, "no parameters within the timeout (%d ms)", to);
	if (rc < 0)
		return rc;
	nd_debug_json(sl->server->cfg.debug, "get_parameters", obj);
	rc = nd_params_from_json(obj, p, x, why, why_size);
	if (rc == 0)
		rc = authorize(sl, obj, x->authtoken, why, why_size);
	else
		refuse(sl, ND_IE_RECVPARAMS, 0, to);
	cJSON_Delete(obj);
	return rc;
}

/*
 * What a live client keeps moving: the bytes we receive on its streams or,
 * in a test where we only send, the bytes it takes (our sends block once
 * it stops reading).  False where silence proves nothing: a sender paced
 * to blocks further apart than half the timeout.
 */
static bool progress_bytes(struct nd_test *t, int timeout_ms, uint64_t *ret_bytes)
{
	uint64_t rx_bytes = 0, tx_bytes = 0;
	bool receives = false;

	for (int i = 0; i < t->streams_count; i++) {
		uint64_t b = atomic_load_explicit(&t->streams[i].bytes, memory_order_relaxed);

		if (t->streams[i].sending) {
			tx_bytes += b;
		} else {
			rx_bytes += b;
			receives = true;
		}
	}
	if (!receives && t->p.rate_bps &&
	    (double)t->len_bytes * 8 / (double)t->p.rate_bps > timeout_ms / 2000.0)
		return false;
	*ret_bytes = receives ? rx_bytes : tx_bytes;
	return true;
}

/*
 * -F, --server-max-duration and --server-bitrate-limit at the parameter
 * exchange, as 3.21's get_parameters(): a file goes over TCP only, and
 * must be readable where this end sends it; a test
 * by bytes or blocks has no duration, so a server with a maximum refuses
 * it too.
 */
static int check_limits(struct nd_slot *sl, const struct nd_engine_params *p,
			char *why, size_t why_size)
{
	const struct nd_server_config *cfg = &sl->server->cfg;
	uint64_t want_bps = (uint64_t)p->streams * p->rate_bps * (p->bidir ? 2 : 1);
	int to = nd_server_ctrl_timeout_ms(sl->server);

	if (cfg->file && p->udp) {
		snprintf(why, why_size, "refused: cannot transfer file using UDP (-F)");
		refuse(sl, ND_IE_UDPFILE, 0, to);
		return -EINVAL;
	}
	/* A file to send that is not there: told now, as 3.21 fails its
	 * streams, not after the client waited out --rcv-timeout. */
	if (cfg->file && (p->reverse || p->bidir) && access(cfg->file, R_OK) < 0) {
		int err = errno;

		snprintf(why, why_size, "cannot read -F file '%s': %s", cfg->file, strerror(err));
		refuse(sl, ND_IE_FILE, err, to);
		return -err;
	}
	if (cfg->max_duration_sec > 0 &&
	    (p->duration_sec == 0 || p->duration_sec + p->omit_sec > cfg->max_duration_sec)) {
		if (p->duration_sec == 0)
			snprintf(why, why_size, "refused: a test by bytes or blocks has no "
				 "duration, the server allows %d s (--server-max-duration)",
				 cfg->max_duration_sec);
		else
			snprintf(why, why_size, "refused: a test of %g s, the server allows %d s "
				 "(--server-max-duration)", p->duration_sec + p->omit_sec,
				 cfg->max_duration_sec);
		refuse(sl, ND_IE_MAXDURATION, 0, to);
		return -E2BIG;
	}
	if (cfg->bitrate_limit_bps > 0 && want_bps > cfg->bitrate_limit_bps) {
		snprintf(why, why_size, "refused: %llu bit/s asked, the server allows %llu bit/s "
			 "(--server-bitrate-limit)", (unsigned long long)want_bps,
			 (unsigned long long)cfg->bitrate_limit_bps);
		refuse(sl, ND_IE_TOTALRATE, 0, to);
		return -EDQUOT;
	}
	return 0;
}

/*
 * The running check of --server-bitrate-limit, 3.21's
 * iperf_check_total_rate(): the bytes of every stream, both directions,
 * over the last `window` intervals (the limit's interval in whole report
 * intervals, at least one), once that many have passed.
 */
struct rate_window {
	uint64_t ring[600];		/* 60 s of 0.1 s intervals, 3.21's bounds */
	int window, filled, next;
	uint64_t last_total;
	double iv_sec;
};

static void rate_window_init(struct rate_window *w, const struct nd_server_config *cfg,
			     double iv_sec)
{
	double n = cfg->bitrate_limit_interval_sec / iv_sec;

	memset(w, 0, sizeof(*w));
	w->iv_sec = iv_sec;
	w->window = n <= 1 ? 1 : n >= 600 ? 600 : (int)(n + 0.5);
	if (!cfg->bitrate_limit_bps || cfg->bitrate_limit_interval_sec == 0)
		w->window = 0;
}

/*
 * A test ended mid-run: SERVER_ERROR now, so the client stops sending.  Its
 * streams stay open until it has read that (see await_peer_close).
 */
static void tell_peer(struct nd_test *t, int32_t code)
{
	nd_proto_send_error(t->ctrl_fd, code, 0, 100);
	t->told_peer = true;
}

/*
 * After SERVER_ERROR, as 3.21's iperf_sync_close_socket: no more writes on
 * the control connection, then wait (bounded) for the client to close it.
 * The receivers read on meanwhile: a stream shut down while the client
 * still sends is reset by the kernel (data after shutdown), and a 3.21
 * client whose sending thread sees that reset before it handles the message
 * reports "unable to write to stream socket" instead of our reason.
 */
static void await_peer_close(struct nd_test *t, int ms)
{
	double deadline = nd_now_sec() + ms / 1000.0;
	char buf[256];

	shutdown(t->ctrl_fd, SHUT_WR);
	for (;;) {
		struct pollfd pfd = { .fd = t->ctrl_fd, .events = POLLIN };
		int left = (int)((deadline - nd_now_sec()) * 1000);

		if (left <= 0 || poll(&pfd, 1, left) <= 0 ||
		    read(t->ctrl_fd, buf, sizeof(buf)) <= 0)
			return;
	}
}

static int rate_check(struct rate_window *w, struct nd_test *t, uint64_t limit_bps)
{
	uint64_t total = 0, sum = 0, bps;

	if (w->window == 0)
		return 0;
	for (int i = 0; i < t->streams_count; i++)
		total += atomic_load_explicit(&t->streams[i].bytes, memory_order_relaxed);
	w->ring[w->next] = total - w->last_total;
	w->last_total = total;
	w->next = (w->next + 1) % w->window;
	if (++w->filled < w->window)
		return 0;
	for (int i = 0; i < w->window; i++)
		sum += w->ring[i];
	bps = (uint64_t)((double)sum * 8 / (w->iv_sec * w->window));
	if (bps <= limit_bps)
		return 0;
	snprintf(t->err, sizeof(t->err), "ended: %llu bit/s over %g s, the server allows %llu "
		 "bit/s (--server-bitrate-limit)", (unsigned long long)bps, w->iv_sec * w->window,
		 (unsigned long long)limit_bps);
	tell_peer(t, ND_IE_TOTALRATE);
	return -EDQUOT;
}

/* A client silent for the receive timeout: tell it why and end the test. */
static int data_timeout(struct nd_test *t, int rcv_ms, bool receives)
{
	snprintf(t->err, sizeof(t->err), "the client %s no data for %d ms (--rcv-timeout)",
		 receives ? "sent" : "took", rcv_ms);
	tell_peer(t, ND_IE_NOMSG);
	return -ETIMEDOUT;
}

/* A test past its duration and 3.21's grace of 40 s: told as 3.21 does. */
static int duration_expired(struct nd_test *t)
{
	snprintf(t->err, sizeof(t->err), "server test duration expired: the test is ended");
	tell_peer(t, ND_IE_DURATIONEXPIRED);
	return -ETIMEDOUT;
}

/* Wait for TEST_END, reporting intervals; negative errno on abort. */
static int watch_test(struct nd_slot *sl, struct nd_test *t, struct rate_window *rw,
		      double limit)
{
	double iv = rw->iv_sec, next_iv = t->t_start + iv, heard = t->t_start;
	int rcv_ms = sl->server->cfg.rcv_timeout_ms, rc = 0;
	uint64_t seen = 0;

	while (rc == 0) {
		struct pollfd pfd = { .fd = t->ctrl_fd, .events = POLLIN };
		double now = nd_now_sec();
		uint64_t moved = seen;
		int wait_ms;
		int8_t st;

		if (server_stopping(sl))
			return -ECANCELED;
		if (now > limit)
			return duration_expired(t);
		if (!progress_bytes(t, rcv_ms, &moved) || moved != seen) {
			seen = moved;
			heard = now;
		} else if ((now - heard) * 1000 > rcv_ms) {
			return data_timeout(t, rcv_ms, !t->p.reverse || t->p.bidir);
		}
		/* Wake at least every 200 ms to watch the streams. */
		wait_ms = next_iv > now ? (int)((next_iv - now) * 1000) + 1 : 0;
		if (poll(&pfd, 1, wait_ms < 200 ? wait_ms : 200) > 0) {
			if (nd_proto_recv_state(t->ctrl_fd, &st, t->timeout_ms) < 0)
				return -ECONNRESET;
			nd_debug_state(sl->server->cfg.debug,
				       "server received and changed State to", st);
			return st == ND_TEST_END ? 0 : -ECONNABORTED;
		}
		now = nd_now_sec();
		if (!t->omit_done && now >= t->t_omit_end) {
			nd_test_tick(t, now);
			next_iv = t->t_omit_end + iv;
			rc = rate_check(rw, t, sl->server->cfg.bitrate_limit_bps);
		} else if (now >= next_iv) {
			nd_test_tick(t, now);
			next_iv += iv;
			rc = rate_check(rw, t, sl->server->cfg.bitrate_limit_bps);
		}
	}
	return rc;
}

static int run_until_end(struct nd_slot *sl, struct nd_test *t)
{
	/* A test by bytes or blocks has no duration, but no test may outlast
	 * the longest one allowed: a client that goes quiet is dropped. */
	double limit = t->t_start + (t->p.duration_sec > 0 ? t->p.duration_sec : 86400) +
		       t->p.omit_sec + 40;
	struct rate_window *rw = malloc(sizeof(*rw));
	int rc;

	if (!rw)
		return -ENOMEM;
	rate_window_init(rw, &sl->server->cfg, t->p.interval_sec > 0 ? t->p.interval_sec : 1);
	rc = watch_test(sl, t, rw, limit);
	free(rw);
	return rc;
}

static int exchange_results(const struct nd_slot *sl, struct nd_test *t, void *peer_state)
{
	cJSON *theirs = NULL, *ours = NULL;
	char *text = NULL;
	int8_t st = 0;
	int rc;

	rc = send_state(sl, t->ctrl_fd, ND_EXCHANGE_RESULTS, t->timeout_ms);
	if (rc == 0)
		rc = nd_proto_recv_json(t->ctrl_fd, ND_RESULTS_JSON_MAX, t->timeout_ms, &theirs);
	if (rc == 0)
		nd_debug_json(sl->server->cfg.debug, "get_results", theirs);
	if (rc == 0)
		rc = nd_test_apply_remote(t, theirs);
	if (rc == 0)
		rc = nd_test_results_json(t, &ours);
	if (rc == 0)
		nd_server_peer_payload(sl, t, peer_state, ours);
	if (rc == 0 && t->p.get_server_output) {
		text = nd_server_summary_text(t);
		if (text)
			cJSON_AddStringToObject(ours, "server_output_text", text);
		free(text);
	}
	if (rc == 0) {
		nd_debug_json(sl->server->cfg.debug, "send_results", ours);
		rc = nd_proto_send_json(t->ctrl_fd, ours, t->timeout_ms);
	}
	if (rc == 0)
		rc = send_state(sl, t->ctrl_fd, ND_DISPLAY_RESULTS, t->timeout_ms);
	if (rc == 0)
		rc = nd_proto_recv_state(t->ctrl_fd, &st, t->timeout_ms);
	if (rc == 0)
		nd_debug_state(sl->server->cfg.debug, "server received and changed State to", st);
	if (rc == 0 && st != ND_IPERF_DONE)
		rc = -EPROTO;
	cJSON_Delete(theirs);
	cJSON_Delete(ours);
	return rc;
}

static int run_streams(struct nd_slot *sl, struct nd_test *t)
{
	int want = t->p.bidir ? 2 * t->p.streams : t->p.streams;
	void *peer_state = NULL;
	int rc;

	if (t->p.udp) {
		pthread_mutex_lock(&sl->server->udp_setup_lock);
		rc = udp_streams(sl, t, want);
		pthread_mutex_unlock(&sl->server->udp_setup_lock);
	} else {
		pthread_mutex_lock(&sl->lock);
		sl->routed_want = want;
		sl->routed_count = 0;
		pthread_mutex_unlock(&sl->lock);
		atomic_store(&sl->phase, ND_SLOT_AWAIT_STREAMS);
		rc = send_state(sl, t->ctrl_fd, ND_CREATE_STREAMS, t->timeout_ms);
		if (rc == 0)
			rc = wait_tcp_streams(sl, t, want);
		else
			drop_routed(sl, 0);
		atomic_store(&sl->phase, ND_SLOT_RUNNING);
	}
	if (rc == 0 && t->text_out)
		nd_out_text_header(t->text_out, t);
	if (rc == 0)
		peer_state = nd_server_peer_begin(sl, t);
	if (rc == 0)
		rc = send_state(sl, t->ctrl_fd, ND_TEST_START, t->timeout_ms);
	if (rc == 0)
		rc = send_state(sl, t->ctrl_fd, ND_TEST_RUNNING, t->timeout_ms);
	if (rc < 0) {
		nd_server_peer_end(sl, peer_state);
		return rc;
	}
	if (t->text_out && t->out.verbose)
		nd_out_verbose_start(t->text_out, t);
	nd_server_json_start(sl->server, t);
	nd_test_begin(t);
	rc = nd_test_start_workers(t);
	if (rc == 0)
		rc = run_until_end(sl, t);
	nd_test_stop_senders(t);
	if (t->told_peer)
		await_peer_close(t, 2000);
	nd_test_stop_receivers(t, rc == 0 ? (t->p.udp ? 100 : 500) : 0);
	nd_test_finish(t);
	atomic_store(&sl->phase, ND_SLOT_FINISHING);
	if (rc == 0)
		rc = exchange_results(sl, t, peer_state);
	nd_server_peer_end(sl, peer_state);
	return rc;
}

/*
 * Into the server-wide budget, or refused as iperf3 would: a test that can
 * never fit gets SERVER_ERROR with "too many streams" or "block size too
 * large", one that fits once others end is answered busy.
 */
static int admit(struct nd_slot *sl, const struct nd_engine_params *p,
		 struct nd_budget_use *ret_use, char *why, size_t why_size)
{
	int to = nd_server_ctrl_timeout_ms(sl->server);
	int rc = nd_server_budget_take(sl->server, p, ret_use, why, why_size);

	if (rc == -EBUSY)
		refuse_busy(sl);
	else if (rc < 0)
		refuse(sl, rc == -E2BIG ? ND_IE_NUMSTREAMS : ND_IE_BLOCKSIZE, 0, to);
	return rc;
}

/* The server's own settings over the client's parameters. */
static void apply_settings(const struct nd_server *s, struct nd_test *t)
{
	const struct nd_server_config *cfg = &s->cfg;

	/* --json-stream drops each interval once printed, as 3.21 does. */
	t->keep_intervals = cfg->json_log && (!cfg->json_stream || cfg->json_stream_full);
	t->out.json_stream = cfg->json_stream && !cfg->quiet ?
			     (cfg->json_out ? cfg->json_out : stdout) : NULL;
	t->out.verbose = cfg->verbose_text;
	t->out.format = cfg->format;
	if (cfg->interval_set)
		t->p.interval_sec = cfg->interval_sec;
	t->p.extra_data = t->extra.extra_data[0] ? t->extra.extra_data : NULL;
	t->p.file = cfg->file;
	t->p.snd_timeout_ms = cfg->snd_timeout_ms;
}

void *nd_server_test_main(void *arg)
{
	struct nd_slot *sl = arg;
	struct nd_server *s = sl->server;
	struct nd_engine_params p;
	struct nd_wire_extra extra;
	struct nd_budget_use use = { 0 };
	struct nd_test *t = calloc(1, sizeof(*t));
	int rc = t ? read_params(sl, &p, &extra, t->err, sizeof(t->err)) : -ENOMEM;

	nd_server_accepted(sl);
	/* A refused credential does not use up -1 or --tests, as in iperf3. */
	sl->auth_refused = rc == -EACCES;
	if (rc == 0)
		rc = check_limits(sl, &p, t->err, sizeof(t->err));
	if (rc == 0)
		rc = admit(sl, &p, &use, t->err, sizeof(t->err));
	if (rc == 0)
		rc = nd_test_init(t, &p, true);
	if (rc == 0) {
		t->extra = extra;
		t->p.congestion = t->extra.congestion[0] ? t->extra.congestion : NULL;
		t->p.title = NULL;
		t->ctrl_fd = sl->ctrl_fd;
		sl->ctrl_fd = -1;
		t->timeout_ms = nd_server_ctrl_timeout_ms(s);
		memcpy(t->cookie, sl->cookie, ND_COOKIE_LEN);
		if (s->cfg.max_tests == 1 && !s->cfg.quiet && !s->cfg.json_log)
			t->text_out = stdout;
		apply_settings(s, t);
		rc = run_streams(sl, t);
		atomic_store(&sl->phase, ND_SLOT_FINISHING);	/* see below */
		nd_server_report(sl, t, rc);
		nd_test_free(t);
	} else if (!s->cfg.quiet) {
		nd_server_report(sl, t, rc);
	}
	send_refusal(sl, sl->ctrl_fd);
	/* Before the client can see the close: a client that connects again at
	 * once (after a refused test, say) then waits for this slot instead of
	 * being answered busy, as a stock iperf3 server would let it. */
	atomic_store(&sl->phase, ND_SLOT_FINISHING);
	if (sl->ctrl_fd >= 0)
		close(sl->ctrl_fd);
	sl->ctrl_fd = -1;
	/* Streams routed to us but never taken. */
	pthread_mutex_lock(&sl->lock);
	sl->routed_want = 0;
	pthread_mutex_unlock(&sl->lock);
	nd_server_budget_put(s, &use);
	free(t);
	atomic_store(&sl->phase, ND_SLOT_DONE);
	return NULL;
}
