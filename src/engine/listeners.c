/*
 * listeners.c - the ports `serve` listens on: one port as iperf3 -s, or a
 * range (`serve -p 5201-5204`, issue 15), each port a listening socket of
 * the same server, so stock iperf3 clients that each need their own server
 * port (the multi-process recipe) can all run against one serve.  Every
 * connection is routed by its cookie whatever port it came in on; a UDP
 * test binds the port its control connection used.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

#include "engine_server.h"

int nd_server_listen_ports(struct nd_server *s)
{
	const struct nd_server_config *cfg = &s->cfg;
	unsigned last = cfg->port_last > cfg->port ? cfg->port_last : cfg->port;
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	char host[64];
	int rc = 0;

	if (last - cfg->port + 1 > ND_SERVER_LISTEN_MAX)
		return -E2BIG;
	s->listen_count = 0;
	for (unsigned port = cfg->port; port <= last; port++) {
		int fd;

		rc = nd_net_listen_ex(cfg->bind_addr, cfg->bind_dev, (uint16_t)port, cfg->family,
				      SOCK_STREAM, cfg->mptcp, &fd);
		if (rc < 0) {
			nd_server_listen_close(s);
			return rc;
		}
		s->listen_fds[s->listen_count++] = fd;
	}
	s->listen_fd = s->listen_fds[0];
	if (getsockname(s->listen_fd, (struct sockaddr *)&ss, &sl) == 0)
		nd_net_addr_str(&ss, host, sizeof(host), &s->port);
	/* A range: one test per port at once, as one iperf3 -s per port, unless told. */
	if (s->listen_count > 1 && !cfg->max_tests_given)
		s->cfg.max_tests = s->listen_count;
	return 0;
}

void nd_server_listen_close(struct nd_server *s)
{
	for (int i = 0; i < s->listen_count; i++)
		close(s->listen_fds[i]);
	s->listen_count = 0;
	s->listen_fd = -1;
}

int nd_server_listen_pollfds(const struct nd_server *s, struct pollfd *pfd)
{
	for (int i = 0; i < s->listen_count; i++)
		pfd[i] = (struct pollfd){ .fd = s->listen_fds[i], .events = POLLIN };
	return s->listen_count;
}

void nd_server_ports_text(const struct nd_server *s, char *buf, size_t size)
{
	if (s->listen_count > 1)
		snprintf(buf, size, "%u-%u", s->port, s->port + s->listen_count - 1);
	else
		snprintf(buf, size, "%u", s->port);
}

/* The port a connection came in on: a UDP test listens there. */
uint16_t nd_server_local_port(const struct nd_server *s, int fd)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	char host[64];
	uint16_t port = s->port;

	if (getsockname(fd, (struct sockaddr *)&ss, &sl) == 0)
		nd_net_addr_str(&ss, host, sizeof(host), &port);
	return port;
}
