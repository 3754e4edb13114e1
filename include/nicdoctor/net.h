/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * net.h - the engine's socket helpers (src/engine/net.c, sample.c) that
 * other folders use too: bench --spread dials and names its flows with
 * them.  Sockets with deadlines, the clock, the interface under a socket.
 */
#ifndef NICDOCTOR_NET_H
#define NICDOCTOR_NET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

/* Block lengths the wire allows (-l): iperf3's limits. */
#define ND_UDP_LEN_MIN       16
#define ND_UDP_LEN_MAX       65507
#define ND_TCP_LEN_MAX       (1u << 20)

int nd_net_read_full(int fd, void *buf, size_t len, int timeout_ms);
int nd_net_write_full(int fd, const void *buf, size_t len, int timeout_ms);
int nd_net_connect(const char *host, uint16_t port, int family, const char *bind_addr,
		   int socktype, int timeout_ms, int *ret_fd);
/* Client sockets beyond -B: --bind-dev, --cport, -m, -L. */
#define ND_IPPROTO_MPTCP 262	/* IPPROTO_MPTCP, older libc headers lack it */
struct nd_sock_opts {
	const char *bind_dev;
	uint16_t cport;		/* 0: ephemeral */
	bool mptcp;
	uint32_t flowlabel;
};
int nd_net_connect_ex(const char *host, uint16_t port, int family, const char *bind_addr,
		      int socktype, int timeout_ms, const struct nd_sock_opts *so, int *ret_fd);
int nd_net_listen(const char *bind_addr, uint16_t port, int family, int socktype,
		  int *ret_fd);
int nd_net_listen_dev(const char *bind_addr, const char *bind_dev, uint16_t port, int family,
		      int socktype, int *ret_fd);
int nd_net_listen_ex(const char *bind_addr, const char *bind_dev, uint16_t port, int family,
		     int socktype, bool mptcp, int *ret_fd);
void nd_net_addr_str(const struct sockaddr_storage *ss, char *host, size_t host_size,
		     uint16_t *ret_port);
double nd_now_sec(void);	/* CLOCK_MONOTONIC */

/* The interface a connected socket's route leaves by (sample.c). */
int nd_iface_for_fd(int fd, char *ifname, size_t size);

#endif
