/*
 * together.c - the together run of `diagnose IF1,IF2 --peer H1,H2`: every
 * port's forward many-stream test at the same time, through the
 * multi-target engine (one gate, one clock: the sum is a sum of the same
 * seconds), each test bound to its port (SO_BINDTODEVICE) so a route that
 * prefers one port cannot pour both tests through it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicdoctor/common.h"
#include "nicdoctor/group.h"
#include "nicdoctor/multi.h"

int nd_group_run_together(struct nd_group *g, double duration_sec,
			  const struct nd_auth_client *auth)
{
	struct nd_engine_params *params = calloc(g->n_ports, sizeof(*params));
	struct nd_engine_result *res = calloc(g->n_ports, sizeof(*res));
	int rcs[ND_GROUP_MAX_PORTS] = { 0 };
	int r;

	if (!params || !res) {
		free(params);
		free(res);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < g->n_ports; i++) {
		struct nd_engine_params *p = &params[i];

		nd_engine_params_init(p);
		p->host = g->ports[i].host;
		p->port = g->ports[i].port ? g->ports[i].port : ND_ENGINE_PORT_DEFAULT;
		p->streams = g->ports[i].streams > 0 ? g->ports[i].streams : 1;
		p->duration_sec = duration_sec;
		p->interval_sec = 0;
		p->ifname = g->ports[i].ifname;
		p->bind_dev = g->ports[i].ifname;
		p->connect_timeout_ms = ND_EXP_CONNECT_TIMEOUT_MS;
		p->auth = auth;
	}
	r = nd_multi_run_params(params, (int)g->n_ports, res, rcs);
	g->together_done = r == 0;
	g->together_sec = duration_sec;
	for (unsigned i = 0; i < g->n_ports; i++) {
		struct nd_group_port *port = &g->ports[i];

		port->together_mbps = -1;
		if (rcs[i] == 0 && res[i].fwd_received_bps > 0) {
			port->together_mbps = res[i].fwd_received_bps / 1e6;
			if (res[i].duration_sec > 0)
				g->together_sec = res[i].duration_sec;
			continue;
		}
		g->together_done = false;
		snprintf(port->error, sizeof(port->error), "%s",
			 res[i].error[0] ? res[i].error : rcs[i] < 0 ? strerror(-rcs[i])
								  : "no data arrived");
		if (!g->error[0])
			snprintf(g->error, sizeof(g->error), "the together run on '%s' failed: %s",
				 port->ifname, port->error);
	}
	free(params);
	free(res);
	return r < 0 ? r : g->together_done ? 0 : -ENODATA;
}
