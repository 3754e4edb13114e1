/*
 * net.c - socket helpers with deadlines for the engine: every control read
 * and write has a timeout, so a silent or slow peer can never hang us
 * (CVE-2023-7250 is the bug this avoids).
 */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <linux/in6.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "engine_int.h"

double nd_now_sec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int wait_fd(int fd, short events, double deadline)
{
	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = events };
		double left = deadline - nd_now_sec();
		int rc;

		if (left <= 0)
			return -ETIMEDOUT;
		rc = poll(&pfd, 1, (int)(left * 1000) + 1);
		if (rc > 0)
			return 0;
		if (rc < 0 && errno != EINTR)
			return -errno;
	}
}

/* 0, -ETIMEDOUT, -ECONNRESET on EOF, or another negative errno. */
int nd_net_read_full(int fd, void *buf, size_t len, int timeout_ms)
{
	double deadline = nd_now_sec() + timeout_ms / 1000.0;
	size_t got = 0;

	while (got < len) {
		ssize_t n = recv(fd, (char *)buf + got, len - got, MSG_DONTWAIT);
		int rc;

		if (n > 0) {
			got += (size_t)n;
			continue;
		}
		if (n == 0)
			return -ECONNRESET;
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			return -errno;
		rc = wait_fd(fd, POLLIN, deadline);
		if (rc < 0)
			return rc;
	}
	return 0;
}

int nd_net_write_full(int fd, const void *buf, size_t len, int timeout_ms)
{
	double deadline = nd_now_sec() + timeout_ms / 1000.0;
	size_t done = 0;

	while (done < len) {
		ssize_t n = send(fd, (const char *)buf + done, len - done,
				 MSG_DONTWAIT | MSG_NOSIGNAL);
		int rc;

		if (n >= 0) {
			done += (size_t)n;
			continue;
		}
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			return -errno;
		rc = wait_fd(fd, POLLOUT, deadline);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* -L: lease the flow label from the kernel's manager, then send it. */
static int set_flowlabel(int fd, struct sockaddr_in6 *sa6, uint32_t label)
{
	struct in6_flowlabel_req req = { .flr_action = IPV6_FL_A_GET,
					 .flr_label = htonl(label & 0xfffff),
					 .flr_share = IPV6_FL_S_ANY, .flr_flags = IPV6_FL_F_CREATE };
	int one = 1;

	req.flr_dst = sa6->sin6_addr;
	if (setsockopt(fd, IPPROTO_IPV6, IPV6_FLOWLABEL_MGR, &req, sizeof(req)) < 0 ||
	    setsockopt(fd, IPPROTO_IPV6, IPV6_FLOWINFO_SEND, &one, sizeof(one)) < 0)
		return -errno;
	sa6->sin6_flowinfo = req.flr_label;
	return 0;
}

/* -B ADDR, --bind-dev, --cport: where the socket leaves from. */
static int bind_local(int fd, const struct addrinfo *ai, const char *bind_addr,
		      const struct nd_sock_opts *so)
{
	struct addrinfo hints = { .ai_family = ai->ai_family, .ai_socktype = ai->ai_socktype,
				  .ai_flags = AI_PASSIVE | AI_NUMERICSERV }, *res = NULL;
	char port_text[8];
	int rc, one = 1;

	if (so && so->bind_dev &&
	    setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, so->bind_dev, strlen(so->bind_dev)) < 0)
		return -errno;
	if (!bind_addr && !(so && so->cport))
		return 0;
	snprintf(port_text, sizeof(port_text), "%u", so ? so->cport : 0);
	if (getaddrinfo(bind_addr, port_text, &hints, &res) != 0 || !res)
		return -EADDRNOTAVAIL;
	if (so && so->cport)
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	rc = bind(fd, res->ai_addr, res->ai_addrlen) < 0 ? -errno : 0;
	freeaddrinfo(res);
	return rc;
}

static int connect_one(const struct addrinfo *ai, const char *bind_addr, int timeout_ms,
		       const struct nd_sock_opts *so)
{
	int proto = so && so->mptcp && ai->ai_socktype == SOCK_STREAM ? ND_IPPROTO_MPTCP :
		    ai->ai_protocol;
	int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, proto);
	int flags, rc, soerr = 0;
	socklen_t sl = sizeof(soerr);
	struct sockaddr_storage dst;

	if (fd < 0)
		return -errno;
	memcpy(&dst, ai->ai_addr, ai->ai_addrlen);
	rc = bind_local(fd, ai, bind_addr, so);
	if (rc == 0 && so && so->flowlabel && ai->ai_family == AF_INET6)
		rc = set_flowlabel(fd, (struct sockaddr_in6 *)&dst, so->flowlabel);
	if (rc < 0) {
		close(fd);
		return rc;
	}
	flags = fcntl(fd, F_GETFL);
	fcntl(fd, F_SETFL, flags | O_NONBLOCK);
	rc = connect(fd, (struct sockaddr *)&dst, ai->ai_addrlen);
	if (rc < 0 && errno != EINPROGRESS) {
		rc = -errno;
		close(fd);
		return rc;
	}
	if (rc < 0) {
		rc = wait_fd(fd, POLLOUT, nd_now_sec() + timeout_ms / 1000.0);
		if (rc == 0 && getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl) == 0 && soerr)
			rc = -soerr;
		if (rc < 0) {
			close(fd);
			return rc;
		}
	}
	fcntl(fd, F_SETFL, flags);
	return fd;
}

int nd_net_connect_ex(const char *host, uint16_t port, int family, const char *bind_addr,
		      int socktype, int timeout_ms, const struct nd_sock_opts *so, int *ret_fd)
{
	struct addrinfo hints = { .ai_family = family, .ai_socktype = socktype };
	struct addrinfo *res = NULL, *ai;
	char port_text[8];
	int fd = -EHOSTUNREACH;

	snprintf(port_text, sizeof(port_text), "%u", port);
	if (getaddrinfo(host, port_text, &hints, &res) != 0 || !res)
		return -EHOSTUNREACH;
	for (ai = res; ai; ai = ai->ai_next) {
		fd = connect_one(ai, bind_addr, timeout_ms, so);
		if (fd >= 0)
			break;
	}
	freeaddrinfo(res);
	if (fd < 0)
		return fd;
	*ret_fd = fd;
	return 0;
}

int nd_net_connect(const char *host, uint16_t port, int family, const char *bind_addr,
		   int socktype, int timeout_ms, int *ret_fd)
{
	return nd_net_connect_ex(host, port, family, bind_addr, socktype, timeout_ms, NULL,
				 ret_fd);
}

int nd_net_listen(const char *bind_addr, uint16_t port, int family, int socktype,
		  int *ret_fd)
{
	return nd_net_listen_dev(bind_addr, NULL, port, family, socktype, ret_fd);
}

/* serve --bind-dev: only what arrives on that device (SO_BINDTODEVICE). */
int nd_net_listen_dev(const char *bind_addr, const char *bind_dev, uint16_t port, int family,
		      int socktype, int *ret_fd)
{
	return nd_net_listen_ex(bind_addr, bind_dev, port, family, socktype, false, ret_fd);
}

/* serve -m: an MPTCP listener, which takes plain TCP clients too (fallback). */
int nd_net_listen_ex(const char *bind_addr, const char *bind_dev, uint16_t port, int family,
		     int socktype, bool mptcp, int *ret_fd)
{
	struct addrinfo hints = { .ai_family = family, .ai_socktype = socktype,
				  .ai_flags = AI_PASSIVE };
	struct addrinfo *res = NULL, *ai;
	char port_text[8];
	int fd = -EADDRNOTAVAIL, one = 1, zero = 0, rc;

	/* With no address, prefer a dual-stack IPv6 socket as iperf3 does. */
	if (!bind_addr && family == AF_UNSPEC)
		hints.ai_family = AF_INET6;
	snprintf(port_text, sizeof(port_text), "%u", port);
	rc = getaddrinfo(bind_addr, port_text, &hints, &res);
	if ((rc != 0 || !res) && hints.ai_family == AF_INET6 && family == AF_UNSPEC) {
		hints.ai_family = AF_INET;
		rc = getaddrinfo(bind_addr, port_text, &hints, &res);
	}
	if (rc != 0 || !res)
		return -EADDRNOTAVAIL;
	for (ai = res; ai; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC,
			    mptcp && socktype == SOCK_STREAM ? ND_IPPROTO_MPTCP : ai->ai_protocol);
		if (fd < 0) {
			fd = -errno;
			continue;
		}
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (bind_dev && setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, bind_dev,
					   strlen(bind_dev)) < 0) {
			rc = -errno;
			close(fd);
			fd = rc;
			continue;
		}
		if (ai->ai_family == AF_INET6 && family != AF_INET6)
			setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
		if (bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 &&
		    (socktype != SOCK_STREAM || listen(fd, 64) == 0))
			break;
		rc = -errno;
		close(fd);
		fd = rc;
	}
	freeaddrinfo(res);
	if (fd < 0)
		return fd;
	*ret_fd = fd;
	return 0;
}

void nd_net_addr_str(const struct sockaddr_storage *ss, char *host, size_t host_size,
		     uint16_t *ret_port)
{
	const struct sockaddr_in6 *s6 = (const struct sockaddr_in6 *)ss;
	const struct sockaddr_in *s4 = (const struct sockaddr_in *)ss;

	host[0] = '\0';
	*ret_port = 0;
	if (ss->ss_family == AF_INET) {
		inet_ntop(AF_INET, &s4->sin_addr, host, (socklen_t)host_size);
		*ret_port = ntohs(s4->sin_port);
	} else if (ss->ss_family == AF_INET6) {
		if (IN6_IS_ADDR_V4MAPPED(&s6->sin6_addr))
			inet_ntop(AF_INET, &s6->sin6_addr.s6_addr[12], host, (socklen_t)host_size);
		else
			inet_ntop(AF_INET6, &s6->sin6_addr, host, (socklen_t)host_size);
		*ret_port = ntohs(s6->sin6_port);
	}
}
