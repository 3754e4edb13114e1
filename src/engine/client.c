/*
 * client.c - one test as the iperf3 client: cookie, parameters, streams,
 * the timed run with interval reports, TEST_END, results both ways and a
 * prompt IPERF_DONE (protocol doc §1, §4).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "nicdoctor/auth.h"
#include "nicdoctor/common.h"
#include "engine_int.h"

/* Turn busy, SERVER_ERROR and surprises into errors with a message. */
static int check_state(struct nd_test *t, int8_t st, int8_t want)
{
	if (st == want)
		return 0;
	if (st == ND_ACCESS_DENIED) {
		snprintf(t->err, sizeof(t->err), "%s", nd_proto_error_text(ND_IE_ACCESSDENIED));
		return -EBUSY;
	}
	if (st == ND_SERVER_ERROR) {
		int32_t code = 0, err = 0;

		if (nd_net_read_full(t->ctrl_fd, &code, 4, t->timeout_ms) == 0)
			code = (int32_t)ntohl((uint32_t)code);
		/* 3.12's auth refusal sends no errno int: do not wait long for it. */
		if (nd_net_read_full(t->ctrl_fd, &err, 4, 500) == 0)
			err = (int32_t)ntohl((uint32_t)err);
		snprintf(t->err, sizeof(t->err), "server error %d: %s%s%s%s", code,
			 nd_proto_error_text(code), err ? ": " : "", err ? strerror(err) : "",
			 code != ND_IE_AUTHTEST ? "" : t->p.auth ?
			 " (wrong user, password or public key, or clocks too far apart)" :
			 " (the server wants --username and --rsa-public-key-path)");
		return code == ND_IE_AUTHTEST ? -EACCES : -EPROTO;
	}
	if (st == ND_SERVER_TERMINATE) {
		snprintf(t->err, sizeof(t->err), "the server has terminated");
		return -ECONNRESET;
	}
	snprintf(t->err, sizeof(t->err), "unexpected control state %d (wanted %d)", st, want);
	return -EPROTO;
}

static int send_state(struct nd_test *t, int8_t st)
{
	nd_debug_state(t->p.debug, "State set to", st);
	return nd_proto_send_state(t->ctrl_fd, st, t->timeout_ms);
}

static int expect_state(struct nd_test *t, int8_t want)
{
	int8_t st;
	int rc = nd_proto_recv_state(t->ctrl_fd, &st, t->timeout_ms);

	if (rc == 0)
		nd_debug_state(t->p.debug, "client received and changed State to", st);
	if (rc == -ETIMEDOUT) {
		snprintf(t->err, sizeof(t->err),
			 "control connection: no message from the server within %.1f s",
			 t->timeout_ms / 1000.0);
		return rc;
	}
	if (rc < 0) {
		snprintf(t->err, sizeof(t->err), "control connection: %s",
			 rc == -ECONNRESET ? "closed by the server" : strerror(-rc));
		return -ECONNRESET;
	}
	return check_state(t, st, want);
}

static int udp_handshake(struct nd_test *t, int fd)
{
	static const uint8_t hello[4] = { 0x39, 0x38, 0x37, 0x36 };
	static const uint8_t reply[4] = { 0x36, 0x37, 0x38, 0x39 };
	static const uint8_t legacy[4] = { 0xb1, 0x68, 0xde, 0x3a };
	uint8_t buf[2048];
	double deadline = nd_now_sec() + t->timeout_ms / 1000.0;

	if (send(fd, hello, sizeof(hello), 0) != (ssize_t)sizeof(hello))
		return -errno;
	/* With -R some early data may arrive before the reply: skip it. */
	while (nd_now_sec() < deadline) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		ssize_t n;

		if (poll(&pfd, 1, 100) <= 0)
			continue;
		n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
		if (n < 0 && errno == ECONNREFUSED)
			return -ECONNREFUSED;
		if (n == 4 && (memcmp(buf, reply, 4) == 0 || memcmp(buf, legacy, 4) == 0))
			return 0;
	}
	return -ETIMEDOUT;
}

/*
 * A dial the --spread hooks turned down, before its cookie: half-close it,
 * so the server reads EOF where the cookie should be (a stock iperf3
 * answers 0xFF and counts no stream, serve drops it), and wait for the
 * server's end, so the socket's last packets are out before the next dial
 * is measured.
 */
static void redial_close(int fd)
{
	double deadline = nd_now_sec() + 0.5;
	char buf[64];

	shutdown(fd, SHUT_WR);
	while (nd_now_sec() < deadline) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		ssize_t n;

		if (poll(&pfd, 1, 50) <= 0)
			continue;
		n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
		if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
			break;
	}
	close(fd);
}

#define ND_DIALS_PER_STREAM_MAX 64	/* the hooks' own bound is lower */

/* Stream i: 0 connected and added, 1 dial again, or a negative errno. */
static int open_stream(struct nd_test *t, int i, int dials)
{
	const struct nd_engine_params *p = &t->p;
	const struct nd_stream_hooks *h = p->hooks;
	struct nd_sock_opts so = { .bind_dev = p->bind_dev, .mptcp = p->mptcp,
				   .flowlabel = p->flowlabel,
				   .cport = p->cport ? (uint16_t)(p->cport + i) : 0 };
	int rc, fd;

	if (h && h->dial)
		so.cport = h->dial(p->hooks_arg, i);
	rc = nd_net_connect_ex(p->host, p->port, p->family, p->bind_addr,
			       p->udp ? SOCK_DGRAM : SOCK_STREAM, t->timeout_ms, &so, &fd);
	if (rc < 0)
		return rc;
	if (p->udp) {
		nd_stream_configure(t, fd);
		rc = udp_handshake(t, fd);
		if (rc == 0 && h && h->connected)
			h->connected(p->hooks_arg, i, fd, false);
	} else {
		if (h && h->connected &&
		    h->connected(p->hooks_arg, i, fd, dials < ND_DIALS_PER_STREAM_MAX)) {
			redial_close(fd);
			return 1;
		}
		rc = nd_net_write_full(fd, t->cookie, ND_COOKIE_LEN, t->timeout_ms);
	}
	if (rc == 0)
		rc = nd_test_add_stream(t, fd);
	if (rc < 0)
		close(fd);
	return rc;
}

static int create_streams(struct nd_test *t)
{
	const struct nd_engine_params *p = &t->p;
	int n = p->bidir ? 2 * p->streams : p->streams;
	int i, rc, dials;

	if (p->hooks && p->hooks->before_streams)
		p->hooks->before_streams(p->hooks_arg, t->ctrl_fd);
	for (i = 0; i < n; i++) {
		dials = 0;
		while ((rc = open_stream(t, i, ++dials)) == 1)
			;
		if (rc < 0) {
			snprintf(t->err, sizeof(t->err), "cannot open data stream %d: %s", i + 1,
				 strerror(-rc));
			return rc;
		}
	}
	return 0;
}

/*
 * The answer to the cookie.  A server closing the connection before it
 * said anything never began the test: a stock iperf3 -s that connected us
 * into the backlog of the listener it was closing after its last test
 * (iperf3 -s -1 in a loop, or -s between tests).  -ECONNABORTED, so a
 * caller can try again as after a refusal.
 */
static int expect_first_state(struct nd_test *t)
{
	int rc = expect_state(t, ND_PARAM_EXCHANGE);

	if (rc != -ECONNRESET || strncmp(t->err, "control", 7) != 0)
		return rc;
	snprintf(t->err, sizeof(t->err), "the server closed the control connection before "
		 "the test began (an iperf3 -s between two tests?)");
	return -ECONNABORTED;
}

/* A message from the server mid-test is an error or a termination. */
static int ctrl_event(struct nd_test *t)
{
	int rc = expect_state(t, 127);

	if (rc == -ECONNRESET && strncmp(t->err, "control", 7) == 0)
		snprintf(t->err, sizeof(t->err), "the server closed the control connection");
	return rc < 0 ? rc : -EPROTO;
}

/*
 * -n/-k with UDP datagrams coming in: a server that stopped at the count
 * and lost the last datagrams on the way leaves the count out of reach.
 * Once datagrams flowed and then none came for a while (a second, or eight
 * datagram times at the asked rate when that is longer), the test is over.
 */
static bool udp_rx_quiet(struct nd_test *t, double now, uint64_t *last_rx, double *since)
{
	uint64_t rx = atomic_load_explicit(&t->amount_rx_bytes, memory_order_relaxed);
	double quiet = 1.0;

	if (!t->p.udp || (!t->p.reverse && !t->p.bidir))
		return false;
	if (t->p.rate_bps > 0 && 8.0 * t->len_bytes * 8 / (double)t->p.rate_bps > quiet)
		quiet = 8.0 * t->len_bytes * 8 / (double)t->p.rate_bps;
	if (rx != *last_rx || rx == 0) {
		*last_rx = rx;
		*since = now;
		return false;
	}
	return now - *since > quiet;
}

static int run_loop(struct nd_test *t)
{
	bool by_amount = t->p.bytes_total || t->p.blocks_total;
	double iv = t->p.interval_sec > 0 ? t->p.interval_sec : 1e9;
	double next_iv = t->t_start + iv, rx_since = t->t_start, file_end = 0;
	uint64_t rx_last = 0;

	for (;;) {
		double now = nd_now_sec(), wake;
		struct pollfd pfd = { .fd = t->ctrl_fd, .events = POLLIN };

		bool sent = atomic_load(&t->limit_reached);

		/* -F: the file went out; as iperf3's -n, end with this interval
		 * (200 ms at least), so a receiver that stops reading at
		 * TEST_END has all of it. */
		if (sent && t->p.file && !file_end)
			file_end = next_iv < now + 0.2 ? now + 0.2 : next_iv + 0.001;
		if ((sent || (!by_amount && now >= t->t_end) ||
		     (by_amount && udp_rx_quiet(t, now, &rx_last, &rx_since))) && now >= file_end)
			return 0;
		wake = by_amount ? now + 0.005 : t->t_end;
		if (next_iv < wake)
			wake = next_iv;
		if (!t->omit_done && t->t_omit_end < wake)
			wake = t->t_omit_end;
		if (poll(&pfd, 1, wake > now ? (int)((wake - now) * 1000) + 1 : 0) > 0)
			return ctrl_event(t);
		now = nd_now_sec();
		if (!t->omit_done && now >= t->t_omit_end) {
			nd_test_tick(t, now);
			next_iv = t->t_omit_end + iv;
			t->t_end = t->t_omit_end + t->p.duration_sec;
		} else if (now >= next_iv && (by_amount || now < t->t_end - 0.01)) {
			nd_test_tick(t, now);
			next_iv += iv;
		}
	}
}

static int exchange_results(struct nd_test *t)
{
	cJSON *ours = NULL, *theirs = NULL;
	int rc = expect_state(t, ND_EXCHANGE_RESULTS);

	if (rc == 0)
		rc = nd_test_results_json(t, &ours);
	if (rc == 0)
		nd_debug_json(t->p.debug, "send_results", ours);
	if (rc == 0)
		rc = nd_proto_send_json(t->ctrl_fd, ours, t->timeout_ms);
	if (rc == 0) {
		rc = nd_proto_recv_json(t->ctrl_fd, ND_RESULTS_JSON_MAX, t->timeout_ms, &theirs);
		nd_debug_json(t->p.debug, "get_results", theirs);
		if (rc == -EMSGSIZE)
			snprintf(t->err, sizeof(t->err), "cannot read the server's results: "
				 "length is 0 or above the %u MiB limit", ND_RESULTS_JSON_MAX >> 20);
		else if (rc == -EBADMSG)
			snprintf(t->err, sizeof(t->err), "cannot read the server's results: "
				 "not a JSON object");
		else if (rc == -ETIMEDOUT)
			snprintf(t->err, sizeof(t->err), "cannot read the server's results: "
				 "nothing within %.1f s", t->timeout_ms / 1000.0);
		else if (rc < 0)
			snprintf(t->err, sizeof(t->err), "cannot read the server's results: %s",
				 strerror(-rc));
	}
	if (rc == 0)
		rc = nd_test_apply_remote(t, theirs);
	if (rc == 0 && t->p.ret_peer) {
		cJSON *peer = cJSON_DetachItemFromObjectCaseSensitive(theirs, "nicdoctor_peer");

		/* Only an object is a far-end view; anything else is dropped. */
		if (cJSON_IsObject(peer))
			*t->p.ret_peer = peer;
		else
			cJSON_Delete(peer);
	}
	if (rc == 0)
		rc = expect_state(t, ND_DISPLAY_RESULTS);
	if (rc == 0)
		rc = send_state(t, ND_IPERF_DONE);
	cJSON_Delete(ours);
	cJSON_Delete(theirs);
	return rc;
}

/* iperf3's "authtoken", made now: it carries the time of sending. */
static int add_authtoken(struct nd_test *t, cJSON *params)
{
	char *token = NULL;
	int rc;

	if (!t->p.auth)
		return 0;
	rc = nd_auth_token_make(t->p.auth, (int64_t)time(NULL), &token, t->err, sizeof(t->err));
	if (rc == 0 && !cJSON_AddStringToObject(params, "authtoken", token))
		rc = -ENOMEM;
	free(token);
	return rc;
}

/* A 3.21 server that refuses the credentials just closes the connection. */
static int expect_authorized(struct nd_test *t)
{
	int rc = expect_state(t, ND_CREATE_STREAMS);

	if (rc == -ECONNRESET && t->p.auth)
		snprintf(t->err, sizeof(t->err), "the server closed the connection after the "
			 "credentials of '%s': authentication refused (wrong user, password or "
			 "public key, or clocks too far apart)", t->p.auth->username);
	else if (rc == -ECONNRESET)
		snprintf(t->err, sizeof(t->err), "the server closed the connection after the "
			 "parameters (as an iperf3 server that requires --username and "
			 "--rsa-public-key-path does)");
	return rc == -ECONNRESET && t->p.auth ? -EACCES : rc;
}

/* --cntl-ka[=IDLE/INTV/CNT]: each value 0 keeps the system's. */
static void control_keepalive(const struct nd_engine_params *p, int fd)
{
	int one = 1;

	if (!p->cntl_ka)
		return;
	setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof(one));
	if (p->cntl_ka_idle > 0)
		setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &p->cntl_ka_idle, sizeof(int));
	if (p->cntl_ka_intv > 0)
		setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &p->cntl_ka_intv, sizeof(int));
	if (p->cntl_ka_cnt > 0)
		setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &p->cntl_ka_cnt, sizeof(int));
}

static int setup(struct nd_test *t)
{
	const struct nd_engine_params *p = &t->p;
	const struct nd_sock_opts so = { .bind_dev = p->bind_dev };
	cJSON *params = NULL;
	int rc, one = 1;

	rc = nd_net_connect_ex(p->host, p->port, p->family, p->bind_addr, SOCK_STREAM,
			       p->connect_timeout_ms > 0 ? p->connect_timeout_ms : 10000, &so,
			       &t->ctrl_fd);
	if (rc < 0) {
		t->ctrl_fd = -1;
		snprintf(t->err, sizeof(t->err), "cannot connect to '%s' port %u: %s", p->host,
			 p->port, strerror(-rc));
		return rc;
	}
	setsockopt(t->ctrl_fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	control_keepalive(p, t->ctrl_fd);
	/* iperf3 says "Connecting" once the control connection is up. */
	if (t->text_out && t->out.verbose)
		nd_out_verbose_control(t->text_out, t);
	if (t->text_out)
		fprintf(t->text_out, "Connecting to host %s, port %u\n", p->host, p->port);
	if (t->text_out && p->reverse)
		fprintf(t->text_out, "Reverse mode, remote host %s is sending\n", p->host);
	nd_proto_make_cookie(t->cookie);
	rc = nd_net_write_full(t->ctrl_fd, t->cookie, ND_COOKIE_LEN, t->timeout_ms);
	if (rc == 0)
		rc = expect_first_state(t);
	if (rc == 0)
		rc = nd_params_to_json(p, &params);
	if (rc == 0 && p->debug)
		nd_debug_json(p->debug, "send_parameters", params);
	if (rc == 0)
		rc = add_authtoken(t, params);
	if (rc == 0)
		rc = nd_proto_send_json(t->ctrl_fd, params, t->timeout_ms);
	cJSON_Delete(params);
	if (rc == 0)
		rc = expect_authorized(t);
	if (rc == 0)
		rc = create_streams(t);
	if (rc == 0)
		rc = expect_state(t, ND_TEST_START);
	if (rc == 0)
		rc = expect_state(t, ND_TEST_RUNNING);
	if (rc < 0 && !t->err[0])
		snprintf(t->err, sizeof(t->err), "test setup failed: %s", strerror(-rc));
	return rc;
}

static int validate(const struct nd_engine_params *p, char *err, size_t size)
{
	if (!p->host || !p->host[0])
		snprintf(err, size, "no server host given");
	else if (p->streams < 1 || p->streams > ND_ENGINE_MAX_STREAMS)
		snprintf(err, size, "number of streams must be 1-128, not %d", p->streams);
	else if (p->udp && p->len_bytes && (p->len_bytes < ND_UDP_LEN_MIN ||
					    p->len_bytes > ND_UDP_LEN_MAX))
		snprintf(err, size, "UDP block size must be 16-65507, not %u", p->len_bytes);
	else if (!p->udp && p->len_bytes > ND_TCP_LEN_MAX)
		snprintf(err, size, "TCP block size must be at most 1 MiB");
	else if (!isfinite(p->duration_sec) || p->duration_sec < 0 || p->duration_sec > 86400 ||
		 p->omit_sec < 0 || p->omit_sec > 600)
		snprintf(err, size, "duration must be 0-86400 s and omit 0-600 s");
	else if (p->cport_last && !p->hooks &&
		 p->cport + (p->bidir ? 2 : 1) * p->streams - 1 > p->cport_last)
		snprintf(err, size, "--cport %u-%u has %u ports for %d streams", p->cport,
			 p->cport_last, p->cport_last - p->cport + 1,
			 (p->bidir ? 2 : 1) * p->streams);
	else if (!isfinite(p->interval_sec) || p->interval_sec < 0 || p->interval_sec > 60 ||
		 (p->interval_sec > 0 && p->interval_sec < 0.1))
		snprintf(err, size, "interval must be 0 or 0.1-60 s");
	else
		return 0;
	return -EINVAL;
}

/* --json-stream: "start" once the streams are up, "end" (or "error") last. */
static void json_stream_start(const struct nd_test *t)
{
	cJSON *ev;

	if (!t->out.json_stream)
		return;
	ev = nd_out_json_start(t);
	nd_json_stream_event(t->out.json_stream, "start", ev);
	cJSON_Delete(ev);
}

static void json_stream_end(const struct nd_test *t, int rc)
{
	cJSON *all;

	if (!t->out.json_stream)
		return;
	all = nd_out_json(t, rc);
	nd_json_stream_event(t->out.json_stream, "error",
			     cJSON_GetObjectItemCaseSensitive(all, "error"));
	nd_json_stream_event(t->out.json_stream, "server_output_json",
			     cJSON_GetObjectItemCaseSensitive(all, "server_output_json"));
	nd_json_stream_event(t->out.json_stream, "server_output_text",
			     cJSON_GetObjectItemCaseSensitive(all, "server_output_text"));
	nd_json_stream_event(t->out.json_stream, "end", cJSON_GetObjectItemCaseSensitive(all, "end"));
	cJSON_Delete(all);
}

int nd_client_run(const struct nd_engine_params *p, const struct nd_client_opts *o,
		  struct nd_engine_result *r, cJSON **ret_json)
{
	struct nd_test t;
	int rc, rc2;
	char err[160];

	memset(r, 0, sizeof(*r));
	if (validate(p, r->error, sizeof(r->error)) < 0)
		return -EINVAL;
	if (nd_test_init(&t, p, false) < 0)
		return -ENOMEM;
	if (!t.p.port)
		t.p.port = ND_ENGINE_PORT_DEFAULT;
	t.extra.udp_64bit = p->udp;	/* we always ask for 64-bit counters */
	if (p->connect_timeout_ms > 0)
		t.timeout_ms = p->connect_timeout_ms;
	t.keep_intervals = o && o->json;
	if (o)
		t.out = o->out;
	t.text_out = o && !o->json && !o->out.json_stream ? o->text_out : NULL;
	if (t.text_out && t.out.verbose)
		nd_out_verbose_intro(t.text_out, &t);
	rc = setup(&t);
	if (o && o->ready)
		o->ready(o->ready_arg, rc);
	if (rc == 0) {
		if (t.text_out && t.out.verbose)
			nd_out_verbose_connected(t.text_out, &t);
		if (t.text_out)
			nd_out_text_header(t.text_out, &t);
		if (t.text_out && t.out.verbose)
			nd_out_verbose_start(t.text_out, &t);
		json_stream_start(&t);
		nd_test_begin(&t);
		if (p->hooks && p->hooks->sample)
			p->hooks->sample(p->hooks_arg, false);
		rc = nd_test_start_workers(&t);
		if (rc == 0)
			rc = run_loop(&t);
		/* Tell the server first, so its clock stops with ours. */
		t.t_stop = nd_now_sec();
		atomic_store(&t.stop, true);
		if (rc == 0)
			rc = send_state(&t, ND_TEST_END);
		nd_test_stop_senders(&t);
		nd_test_stop_receivers(&t, rc == 0 ? (t.p.udp ? 100 : 500) : 0);
		nd_test_finish(&t);
		if (p->hooks && p->hooks->sample)
			p->hooks->sample(p->hooks_arg, true);
		if (rc == 0)
			rc = exchange_results(&t);
	}
	nd_test_fill_result(&t, r);
	if (rc == 0 && t.text_out) {
		nd_out_text_summary(t.text_out, &t);
		if (p->hooks && p->hooks->text)
			p->hooks->text(p->hooks_arg, t.text_out);
		if (t.out.verbose)
			nd_out_verbose_end(t.text_out, &t);
		if (t.server_output_text)
			fprintf(t.text_out, "\nServer output:\n%s", t.server_output_text);
		fprintf(t.text_out, t.out.iperf_done ? "\niperf Done.\n" : "\nnicdoctor bench done.\n");
	}
	json_stream_end(&t, rc);
	if (ret_json && t.keep_intervals)
		*ret_json = nd_out_json(&t, rc);
	nd_strlcpy(err, t.err, sizeof(err));
	rc2 = rc;
	nd_test_free(&t);
	if (rc2 < 0 && !r->error[0])
		snprintf(r->error, sizeof(r->error), "%s", err[0] ? err : strerror(-rc2));
	return rc2;
}

int nd_engine_run_client(const struct nd_engine_params *p, struct nd_engine_result *r)
{
	return nd_client_run(p, NULL, r, NULL);
}
