/*
 * share.h - the far end of a two-ended diagnosis.
 *
 * A diagnose client asks `nicdoctor serve` (parameter "nicdoctor_peer") for
 * the far host's view; the server answers inside the results exchange under
 * the key "nicdoctor_peer", which stock iperf3 ignores in both roles.
 */
#ifndef NICDOCTOR_SHARE_H
#define NICDOCTOR_SHARE_H

#include <stdbool.h>
#include <sys/socket.h>
#include <cjson/cJSON.h>

#define ND_SHARE_SCHEMA "nicdoctor.peer/1"
#define ND_SHARE_KEY "nicdoctor_peer"
#define ND_SHARE_MAX_BYTES (2 << 20)	/* the payload the client accepts */

/*
 * The far end's view of one test.  nd_share_begin, just before the test's
 * traffic: the interface whose address `local` is, probed and checked, its
 * counter window opened (NULL only when out of memory; a failure is kept
 * for the payload to say).  nd_share_payload at the results exchange: the
 * window closed, the checks judged on it, and {"schema", "report":
 * <nicdoctor.report/1 of that interface>} when sharing is allowed,
 * {"schema", "declined": true, "reason": why} when not (why may be NULL),
 * or {"schema", "error": "..."} when the interface cannot be found or
 * probed.  NULL only when out of memory.  nd_share_end frees w (NULL too).
 */
struct nd_share_window;
struct nd_share_window *nd_share_begin(const struct sockaddr *local);
cJSON *nd_share_payload(struct nd_share_window *w, bool allowed, const char *why);
void nd_share_end(struct nd_share_window *w);

/* Read a serve config file ("share = yes|no", '#' comments).  0, or a
 * negative errno with a one-line reason in err. */
int nd_share_read_config(const char *path, bool *ret_share, char *err, size_t err_size);

/* consent.c: who may have the report. */
#define ND_SHARE_NETS_MAX 32

struct nd_share_net {
	int family;			/* AF_INET or AF_INET6 */
	unsigned char addr[16];		/* network, host bits cleared */
	unsigned prefix_len;
};

/*
 * serve shares only when told to (--share, "share = yes"); with
 * authentication configured only with an authenticated client, without it
 * only with a client on this host or on one of the --share-from networks.
 */
struct nd_share_policy {
	bool share;
	bool auth_required;
	struct nd_share_net nets[ND_SHARE_NETS_MAX];
	int nets_count;
};

/* Add "CIDR,CIDR,..." (IPv4 and IPv6; a bare address is one host) to the
 * policy's networks.  0, or -EINVAL with a one-line reason in err. */
int nd_share_parse_nets(const char *text, struct nd_share_policy *pol, char *err,
			size_t err_size);
/* Is addr (an IPv4-mapped IPv6 address counts as IPv4) in one of them? */
bool nd_share_nets_match(const struct nd_share_policy *pol, const struct sockaddr *addr);
/* Is addr loopback or one of this host's own addresses? */
bool nd_share_addr_is_local(const struct sockaddr *addr);
/* May this client have the report?  When not, why says why and how the
 * far end's operator enables it. */
bool nd_share_allowed(const struct nd_share_policy *pol, const struct sockaddr *peer,
		      bool authenticated, char *why, size_t why_size);

#endif
