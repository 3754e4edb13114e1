/*
 * targets.c - what `bench -c HOST1,HOST2:5202 -p 5201-5204` and
 * `serve -p 5201-5204` name: ports and port ranges, and the targets made of
 * hosts and ports (a host with its own :PORT is one target, every other
 * host one target per port of -p).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicdoctor/common.h"
#include "nicdoctor/multi.h"

static int parse_port(const char *s, size_t len, long *ret)
{
	char buf[16];

	if (len == 0 || len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	return nd_parse_long(buf, 10, 1, 65535, ret);
}

/* One "PORT" or "FIRST-LAST" item of len bytes, appended to ports. */
static int parse_port_item(const char *s, size_t len, uint16_t *ports, int max, int *n,
			   char *err, size_t err_size)
{
	const char *dash = memchr(s, '-', len);
	long a, b;

	if (parse_port(s, dash ? (size_t)(dash - s) : len, &a) < 0 ||
	    (dash && parse_port(dash + 1, len - (size_t)(dash - s) - 1, &b) < 0)) {
		snprintf(err, err_size, "invalid port '%.*s': a port is 1 to 65535, a range "
			 "FIRST-LAST", (int)len, s);
		return -EINVAL;
	}
	if (!dash)
		b = a;
	if (b < a) {
		snprintf(err, err_size, "invalid port range '%.*s': the first port is above "
			 "the last", (int)len, s);
		return -EINVAL;
	}
	if (*n + (b - a + 1) > max) {
		snprintf(err, err_size, "too many ports in '%.*s': at most %d", (int)len, s, max);
		return -E2BIG;
	}
	for (long p = a; p <= b; p++)
		ports[(*n)++] = (uint16_t)p;
	return 0;
}

int nd_ports_parse(const char *text, uint16_t *ports, int max, int *ret_count,
		   char *err, size_t err_size)
{
	const char *s = text;
	int n = 0, rc;

	if (!*s) {
		snprintf(err, err_size, "invalid port '': a port is 1 to 65535");
		return -EINVAL;
	}
	for (;;) {
		const char *comma = strchr(s, ',');
		size_t len = comma ? (size_t)(comma - s) : strlen(s);

		rc = parse_port_item(s, len, ports, max, &n, err, err_size);
		if (rc < 0)
			return rc;
		if (!comma)
			break;
		s = comma + 1;
	}
	*ret_count = n;
	return 0;
}

/* "host", "host:port", "[v6]", "[v6]:port" or a bare v6 address. */
static int split_host(const char *s, size_t len, struct nd_target *t, bool *has_port,
		      char *err, size_t err_size)
{
	const char *host = s, *colon = NULL;
	size_t hlen = len;
	long port;

	if (len && s[0] == '[') {
		const char *close = memchr(s, ']', len);

		if (!close || (close + 1 < s + len && close[1] != ':'))
			goto bad;
		host = s + 1;
		hlen = (size_t)(close - s) - 1;
		colon = close + 1 < s + len ? close + 1 : NULL;
	} else {
		colon = memchr(s, ':', len);
		/* Two colons or more: an IPv6 address without a port. */
		if (colon && memchr(colon + 1, ':', len - (size_t)(colon - s) - 1))
			colon = NULL;
		if (colon)
			hlen = (size_t)(colon - s);
	}
	if (hlen == 0 || hlen >= sizeof(t->host))
		goto bad;
	memcpy(t->host, host, hlen);
	t->host[hlen] = '\0';
	*has_port = colon != NULL;
	t->port = 0;
	if (colon) {
		if (parse_port(colon + 1, len - (size_t)(colon + 1 - s), &port) < 0)
			goto bad;
		t->port = (uint16_t)port;
	}
	return 0;
bad:
	snprintf(err, err_size, "invalid target '%.*s': HOST, HOST:PORT or [IPV6]:PORT, "
		 "a port 1 to 65535", (int)len, s);
	return -EINVAL;
}

static int add_target(struct nd_targets *out, const struct nd_target *t, int *asked)
{
	(*asked)++;
	if (out->count == ND_MULTI_MAX_TARGETS)
		return -E2BIG;
	out->t[out->count++] = *t;
	return 0;
}

int nd_targets_parse(const char *hosts, const char *ports, struct nd_targets *out,
		     char *err, size_t err_size)
{
	uint16_t list[ND_MULTI_MAX_TARGETS];
	int nports = 0, asked = 0, rc = 0;
	const char *s = hosts;

	memset(out, 0, sizeof(*out));
	if (ports) {
		rc = nd_ports_parse(ports, list, ND_MULTI_MAX_TARGETS, &nports, err, err_size);
		if (rc == -E2BIG)
			snprintf(err, err_size, "too many targets: -p '%s' names more than %d "
				 "ports", ports, ND_MULTI_MAX_TARGETS);
		if (rc < 0)
			return rc;
	}
	for (;;) {
		const char *comma = strchr(s, ',');
		size_t len = comma ? (size_t)(comma - s) : strlen(s);
		/* Whole, bind "" included: multi.c takes a non-empty bind as the
		 * target's -B (uninitialised, it made bench bind to stack garbage:
		 * EADDRNOTAVAIL under ASan, whose stack holds other bytes). */
		struct nd_target t = { .port = 0 };
		bool has_port;

		rc = split_host(s, len, &t, &has_port, err, err_size);
		if (rc < 0)
			return rc;
		if (has_port || nports == 0)
			rc = add_target(out, &t, &asked);
		for (int i = 0; !has_port && i < nports; i++) {
			t.port = list[i];
			if (add_target(out, &t, &asked) < 0)
				rc = -E2BIG;
		}
		if (!comma)
			break;
		s = comma + 1;
	}
	if (rc == -E2BIG || asked > ND_MULTI_MAX_TARGETS) {
		snprintf(err, err_size, "too many targets: %d, at most %d in one run", asked,
			 ND_MULTI_MAX_TARGETS);
		return -E2BIG;
	}
	return 0;
}

int nd_targets_set_binds(struct nd_targets *tg, const char *binds, char *err,
			 size_t err_size)
{
	const char *s = binds;
	int n = 0;

	if (!binds || !strchr(binds, ','))
		return 0;
	for (;;) {
		const char *comma = strchr(s, ',');
		size_t len = comma ? (size_t)(comma - s) : strlen(s);

		if (len == 0 || len >= sizeof(tg->t[0].bind) || n == tg->count)
			break;
		memcpy(tg->t[n].bind, s, len);
		tg->t[n++].bind[len] = '\0';
		if (!comma) {
			if (n == tg->count)
				return 0;
			break;
		}
		s = comma + 1;
	}
	snprintf(err, err_size, "invalid value '%s' for --bind: one address per target "
		 "(%d), comma-separated", binds, tg->count);
	return -EINVAL;
}
