/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * server_peer.c - the far-end view a diagnose client asks for
 * ("nicdoctor_peer"): the server's hooks called just before a test's
 * traffic (the view's counter window opens), at the results exchange (the
 * payload, with this host's per-CPU load during the test) and after.
 */
#include <sys/socket.h>

#include <cjson/cJSON.h>

#include "engine_int.h"
#include "engine_server.h"

/* The control connection's two ends, for the far-end view; false when
 * the client did not ask for it. */
static bool peer_request(const struct nd_slot *sl, const struct nd_test *t,
			 struct sockaddr_storage *local, struct sockaddr_storage *peer,
			 struct nd_peer_request *req)
{
	const struct nd_server_config *cfg = &sl->server->cfg;
	socklen_t len = sizeof(*local), peer_len = sizeof(*peer);

	*req = (struct nd_peer_request){
		.local = (const struct sockaddr *)local,
		.peer = (const struct sockaddr *)peer,
		.authenticated = sl->authenticated,
	};
	return t->p.want_peer && cfg->peer_payload &&
	       getsockname(t->ctrl_fd, (struct sockaddr *)local, &len) == 0 &&
	       getpeername(t->ctrl_fd, (struct sockaddr *)peer, &peer_len) == 0;
}

/* Just before the traffic: the far-end view's counter window opens. */
void *nd_server_peer_begin(const struct nd_slot *sl, const struct nd_test *t)
{
	const struct nd_server_config *cfg = &sl->server->cfg;
	struct sockaddr_storage local, peer;
	struct nd_peer_request req;

	if (!cfg->peer_begin || !peer_request(sl, t, &local, &peer, &req))
		return NULL;
	return cfg->peer_begin(&req, cfg->peer_payload_arg);
}

void nd_server_peer_end(const struct nd_slot *sl, void *state)
{
	const struct nd_server_config *cfg = &sl->server->cfg;

	if (state && cfg->peer_end)
		cfg->peer_end(state, cfg->peer_payload_arg);
}

/* The far-end view a diagnose client asked for, with this host's per-CPU
 * load during the test, under "nicdoctor_peer" (stock iperf3 ignores it). */
void nd_server_peer_payload(const struct nd_slot *sl, struct nd_test *t, void *state,
			     cJSON *ours)
{
	const struct nd_server_config *cfg = &sl->server->cfg;
	struct sockaddr_storage local, peer;
	struct nd_peer_request req;
	cJSON *payload;

	if (!peer_request(sl, t, &local, &peer, &req))
		return;
	payload = cfg->peer_payload(&req, state, cfg->peer_payload_arg);
	if (!payload)
		return;
	if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(payload, "declined")))
		cJSON_AddItemToObject(payload, "cpus", nd_test_cpu_shares_json(t));
	cJSON_AddItemToObject(ours, "nicdoctor_peer", payload);
}
