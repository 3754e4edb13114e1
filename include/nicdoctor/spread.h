/*
 * spread.h - flows that cover queues and bond members (issue 15): the
 * source-port picker (src/spread/ports.c, pure), Toeplitz RSS
 * (src/spread/toeplitz.c, pure), the summary of how a run's flows spread
 * over the queues from their counters (src/spread/summary.c, pure), and
 * bench's --spread hooks into the engine (src/spread/run.c).
 */
#ifndef NICDOCTOR_SPREAD_H
#define NICDOCTOR_SPREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define ND_SPREAD_MAX_BUCKETS 256	/* queues or members one run tells apart */

/*
 * Which bucket (queue, bond member) a flow from source port `port` lands
 * on, 0..buckets-1; negative: this port cannot be used (busy, unknown).
 * For RSS and a bond's layer3+4 policy it is a formula of the 4-tuple.
 */
typedef int (*nd_spread_bucket_fn)(uint16_t port, void *arg);

/*
 * Whether one more flow on `bucket` keeps n flows as even as they can be:
 * the bucket holds the fewest flows so far (count[] per bucket).  The rule
 * both the picker and bench's re-dials follow.
 */
bool nd_spread_wanted(const unsigned *count, unsigned buckets, int bucket);

/*
 * Pick n source ports from FIRST..LAST so that their buckets cover as many
 * distinct buckets as the range allows, as evenly as it allows: every
 * bucket gets a flow before any gets a second.  Ports are taken in order
 * within each pass, so the choice is repeatable.  ret_ports[n] and, if not
 * NULL, ret_buckets[n] are filled.  Returns the number of distinct buckets
 * covered; -ERANGE when the range holds fewer than n usable ports,
 * -EINVAL on bad arguments.
 */
int nd_spread_pick(uint16_t first, uint16_t last, unsigned n, unsigned buckets,
		   nd_spread_bucket_fn bucket_of, void *arg, uint16_t *ret_ports,
		   int *ret_buckets);

/* Toeplitz hash (Microsoft RSS) of data under key; key_len >= len + 4. */
uint32_t nd_toeplitz(const uint8_t *key, size_t key_len, const uint8_t *data, size_t len);

/* A NIC's RSS: Toeplitz key and indirection table (ethtool -x). */
#define ND_RSS_KEY_MAX   128
#define ND_RSS_INDIR_MAX 2048
struct nd_rss_conf {
	bool toeplitz;			/* hfunc is Toeplitz and no input transform */
	size_t key_len;
	uint8_t key[ND_RSS_KEY_MAX];
	unsigned indir_size;
	uint32_t indir[ND_RSS_INDIR_MAX];
	unsigned rx_queues;		/* highest queue in the table + 1 */
};

/*
 * The RX queue of a TCP packet from src to dst (addresses in network
 * order, 4 or 16 bytes; ports in host order), as the NIC's RSS puts it:
 * Toeplitz over src addr, dst addr, src port, dst port, low bits into the
 * table.  -EINVAL when the RSS is not Toeplitz or the table is empty.
 */
int nd_rss_queue(const struct nd_rss_conf *rss, const uint8_t *src, const uint8_t *dst,
		 size_t addr_len, uint16_t sport, uint16_t dport);

/*
 * Source ports FIRST..LAST for n TCP flows to peer:peer_port whose reverse
 * flows (peer -> local, the direction the NIC hashes when the peer sends)
 * land on distinct RX queues, as nd_spread_pick.  ret_queues may be NULL.
 * Queues covered, or a negative errno (-EINVAL: not Toeplitz).
 */
int nd_rss_pick_ports(const struct nd_rss_conf *rss, const uint8_t *peer, const uint8_t *local,
		      size_t addr_len, uint16_t peer_port, uint16_t first, uint16_t last,
		      unsigned n, uint16_t *ret_ports, int *ret_queues);

/* How the flows of a run spread over the queues, from the counters. */
struct nd_spread_queue {
	unsigned id;			/* tx-ID / rx-ID */
	uint64_t packets, bytes;	/* during the test */
	unsigned flows;			/* flows the run placed here at connect */
};
struct nd_spread_summary {
	unsigned queues;		/* queues with counters */
	unsigned flows;
	unsigned carrying;		/* queues that carried a flow's share */
	unsigned idle_below;		/* queues under the share threshold */
	int lowest;			/* index into q[] of the least busy queue, -1 none */
	struct nd_spread_queue q[ND_SPREAD_MAX_BUCKETS];
};

/*
 * Fill the summary's verdict from q[0..queues-1]: a queue "carries a
 * flow's share" when it moved at least a quarter of an even share
 * (packets / flows / 4) and more than 100 packets; with n flows and m
 * queues, min(n, m) queues should.  Pure.
 */
void nd_spread_summarize(struct nd_spread_summary *s);

/* "4 flows on 4 of 4 TX queues" or "4 flows on 3 of 4 TX queues: tx-2
 * carried 1 packet" into buf.  kind: "TX", "RX". */
void nd_spread_sentence(const struct nd_spread_summary *s, const char *kind, char *buf,
			size_t size);

/* What bench --spread saw, for the report (src/report/spread.c). */
struct nd_spread_flow {
	int id;				/* iperf3 stream id: 1, 3, 4, ... */
	bool sending;
	uint16_t port;			/* local port it left from */
	int queue;			/* placed at connect; -1 unknown */
	unsigned dials;			/* connects it took (re-dials + 1) */
};
struct nd_spread_side {
	bool watched;			/* per-queue counters were read */
	char why_uncounted[160];	/* why not watched */
	char why[160];			/* why the flows were not placed */
	char source[24];		/* "netdev", "mq class", "ethtool -S" */
	bool placed;			/* flows were placed (re-dials, RSS) */
	struct nd_spread_summary sum;
};
/*
 * A bond's members as a sending run's buckets: with a hashing mode
 * (balance-xor, 802.3ad) and xmit_hash_policy layer3+4, the source ports
 * choose the member (bond_hash.c), so --spread picks them from the --cport
 * range to cover the members; the members' own counters during the test
 * say where the flows went.
 */
#define ND_SPREAD_MAX_MEMBERS 32
struct nd_spread_members {
	bool bond;			/* the sending interface is a bond or team */
	bool placed;			/* sending flows' ports chosen by the hash */
	char why[160];			/* why not placed */
	char mode[16], policy[16];
	unsigned n;			/* members the bond can send on, its order */
	char name[ND_SPREAD_MAX_MEMBERS][16];
	bool counted;
	char why_uncounted[160];
	struct nd_spread_summary sum;	/* q[i]: member i's TX during the test */
};

struct nd_bond;
/*
 * Sending flows' source ports from first..last (0, 0: no range) for n
 * flows local -> peer:peer_port (addresses in network order, 4 or 16
 * bytes) so they cover the bond's members, as its layer3+4 hash puts them;
 * ret_members[i] is flow i's member index.  Fills m (members, mode, why).
 * 0 placed; -ENOENT not a bond; -EOPNOTSUPP (why says) not placeable.  Pure.
 */
int nd_spread_bond_plan(const struct nd_bond *b, const uint8_t *local, const uint8_t *peer,
			size_t addr_len, uint16_t peer_port, uint16_t first, uint16_t last,
			unsigned n, uint16_t *ret_ports, int *ret_members,
			struct nd_spread_members *m);

/* "4 flows on 2 of 2 bond members" or "...: eth1 carried 3 packets". */
void nd_spread_members_sentence(const struct nd_spread_members *m, char *buf, size_t size);

struct nd_spread_view {
	char ifname[16];
	struct nd_spread_side tx, rx;
	struct nd_spread_members members;
	unsigned dials, redials;
	unsigned flows_count;
	struct nd_spread_flow flows[ND_SPREAD_MAX_BUCKETS];
};

struct cJSON;
void nd_spread_view_text(FILE *f, const struct nd_spread_view *v);
struct cJSON *nd_spread_view_json(const struct nd_spread_view *v);

/* bench --spread: hooks into the engine (src/spread/run.c); place false
 * (--spread=count) only counts.  Sets p->hooks; 0, -ENOMEM, or -EINVAL
 * with err saying why (one line). */
struct nd_engine_params;
struct nd_spread_run;
/* How the run's spread is printed (src/report/spread.c's renderers, handed
 * down by the command so that the spread does not call the report). */
struct nd_spread_render {
	void (*text)(FILE *f, const struct nd_spread_view *v);
	struct cJSON *(*json)(const struct nd_spread_view *v);
};
int nd_spread_run_new(struct nd_engine_params *p, bool place, const struct nd_spread_render *render,
		      struct nd_spread_run **ret, char *err, size_t err_size);
void nd_spread_run_free(struct nd_spread_run *run);

/* Live: the interface's RSS key, function and table (ethtool netlink
 * RSS_GET).  0, or a negative errno (-EOPNOTSUPP: the device has none). */
int nd_probe_rss_conf(const char *ifname, struct nd_rss_conf *ret);

#endif
