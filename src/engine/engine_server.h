/*
 * engine_server.h - the server's internals shared by server.c (listener,
 * routing of new connections by cookie, busy answers) and server_test.c
 * (one test's control flow, in its own thread).
 */
#ifndef NICDOCTOR_ENGINE_SERVER_H
#define NICDOCTOR_ENGINE_SERVER_H

#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>

#include "engine_int.h"

#define ND_SERVER_PENDING_MAX 64
#define ND_SERVER_TESTS_MAX   64

enum nd_slot_phase {
	ND_SLOT_FREE = 0,
	ND_SLOT_SETUP,		/* parameters, UDP streams */
	ND_SLOT_AWAIT_STREAMS,	/* TCP data connections routed here */
	ND_SLOT_RUNNING,
	ND_SLOT_FINISHING,	/* results exchange, IPERF_DONE */
	ND_SLOT_DONE,		/* thread finished, join it */
};

struct nd_server;

struct nd_slot {
	struct nd_server *server;
	pthread_t thread;
	int ctrl_fd;
	char cookie[ND_COOKIE_LEN];
	char peer[64];
	uint16_t peer_port;
	uint16_t local_port;	/* where the control connection came in (-p range) */
	bool authenticated;	/* passed --authorized-users-path */
	bool auth_refused;	/* not counted as a test (-1, --tests) */
	char auth_user[64];
	_Atomic int phase;
	pthread_mutex_t lock;	/* guards the routed fds below */
	pthread_cond_t cond;
	int routed_fds[2 * ND_ENGINE_MAX_STREAMS];
	int routed_count;
	int routed_want;
	/* What the client is told when its test is refused before it
	 * starts: sent after the server's log says why, so whoever watches
	 * a client exit on it finds the reason already written. */
	struct {
		bool set;
		int8_t state;		/* ND_ACCESS_DENIED, or 0 for an error */
		int32_t ierr, err;
		int timeout_ms;
	} refusal;
};

struct nd_pending {
	int fd;
	char cookie[ND_COOKIE_LEN];
	size_t got;
	double deadline;
};

struct nd_server {
	struct nd_server_config cfg;
	int listen_fd;			/* the first of listen_fds */
	int listen_fds[ND_SERVER_LISTEN_MAX];
	int listen_count;
	uint16_t port;			/* the first port */
	_Atomic bool stop;
	_Atomic unsigned tests_started, tests_done;
	struct nd_slot slots[ND_SERVER_TESTS_MAX];
	struct nd_pending pending[ND_SERVER_PENDING_MAX];
	int pending_count;
	pthread_mutex_t udp_setup_lock;	/* one UDP stream setup at a time */
	pthread_mutex_t out_lock;	/* whole reports, not interleaved lines */
	pthread_mutex_t budget_lock;	/* guards the two sums below */
	int budget_streams;		/* streams of the tests admitted */
	uint64_t budget_bytes;		/* their stream buffers */
	pthread_t embedded_thread;
	bool embedded;
};

/* What one admitted test holds of the server-wide budget. */
struct nd_budget_use {
	int streams;
	uint64_t bytes;
};

void *nd_server_test_main(void *arg);
/* server_out.c: what serve prints of a test (text, -J, --json-stream). */
char *nd_server_summary_text(const struct nd_test *t);
void nd_server_accepted(struct nd_slot *sl);
void nd_server_json_start(const struct nd_server *s, const struct nd_test *t);
/* t: NULL when it could not be allocated; rc < 0: the test failed. */
void nd_server_report(struct nd_slot *sl, struct nd_test *t, int rc);
/* listeners.c: every port of cfg.port..cfg.port_last. */
int nd_server_listen_ports(struct nd_server *s);
void nd_server_listen_close(struct nd_server *s);
int nd_server_listen_pollfds(const struct nd_server *s, struct pollfd *pfd);
void nd_server_ports_text(const struct nd_server *s, char *buf, size_t size);
uint16_t nd_server_local_port(const struct nd_server *s, int fd);
/* The bound on every control read and write: the smaller timeout. */
int nd_server_ctrl_timeout_ms(const struct nd_server *s);
/* The stream buffers a test of these parameters allocates on our side. */
uint64_t nd_server_test_bytes(const struct nd_engine_params *p);
/*
 * Admit a test into the budget: 0; -E2BIG or -EFBIG when it alone exceeds
 * --max-streams or --max-memory (never admitted); -EBUSY when the tests
 * running now leave too little (admitted later).  why says which limit.
 */
int nd_server_budget_take(struct nd_server *s, const struct nd_engine_params *p,
			  struct nd_budget_use *ret_use, char *why, size_t why_size);
void nd_server_budget_put(struct nd_server *s, const struct nd_budget_use *use);

/* server_peer.c: the far-end view's hooks around one test (engine.h's
 * peer_begin, peer_payload, peer_end), each a no-op when the client did not
 * ask for the view or serve has no hooks. */
void *nd_server_peer_begin(const struct nd_slot *sl, const struct nd_test *t);
void nd_server_peer_payload(const struct nd_slot *sl, struct nd_test *t, void *state,
			    cJSON *ours);
void nd_server_peer_end(const struct nd_slot *sl, void *state);

#endif
