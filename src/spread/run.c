/*
 * run.c - bench --spread: the engine hooks that make N flows cover the
 * sending interface's queues and check from the queues' counters that
 * they did.
 *
 * TX: Linux picks a TCP socket's TX queue (without XPS) from its random
 * sk_txhash, set at connect and kept, not from the ports; so each sending
 * stream's queue is learned at connect from the per-queue counters (its
 * SYN and ACK), and a stream on a queue already covered is closed before
 * its cookie and dialed again (a new socket, the next port of the range)
 * a bounded number of times.  RX (-R, --bidir's reverse half): where the
 * NIC gives its Toeplitz key and table, the source ports are chosen so the
 * reverse flows hash to distinct RX queues.  Both: the counters during the
 * test say how the flows spread (src/spread/summary.c, src/report/spread.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "nicdoctor/bond.h"
#include "nicdoctor/common.h"
#include "nicdoctor/cpuset.h"
#include "nicdoctor/engine.h"
#include "nicdoctor/net.h"
#include "nicdoctor/probe.h"
#include "nicdoctor/queues.h"
#include "nicdoctor/spread.h"
#include "nicdoctor/sysroot.h"

#define DIALS_PER_QUEUE 4		/* per stream: 4 x queues dials at most */
#define DIALS_PER_STREAM_MAX 48
#define FLOWS_MAX (2 * ND_ENGINE_MAX_STREAMS)

struct nd_spread_run {
	struct nd_engine_params *p;
	bool place;			/* false: --spread=count, counters only */
	int flows;			/* data streams: P, 2P with --bidir */
	bool tx_redial;			/* sending streams are re-dialed */
	unsigned tx_queues;
	unsigned count[ND_SPREAD_MAX_BUCKETS];
	struct nd_queue_table *before, *after, *t0, *t1;
	unsigned next_port;		/* range cursor, 0 ephemeral */
	bool rx_placed;
	uint16_t rx_ports[FLOWS_MAX];
	struct nd_facts *bond;		/* the sending bond, for its members' counters */
	uint16_t bond_ports[FLOWS_MAX];	/* sending flows' ports, chosen by its hash */
	int bond_member[FLOWS_MAX];
	double bond_t0;
	struct nd_spread_view view;
	const struct nd_spread_render *render;	/* the caller's, from src/report/ */
	struct nd_stream_hooks hooks;
};

static bool flow_sends(const struct nd_spread_run *r, int index)
{
	return r->p->bidir ? index < r->p->streams : !r->p->reverse;
}

static int flow_id(int index)
{
	return index == 0 ? 1 : index + 2;	/* iperf3's 1, 3, 4, ... */
}

/* Counters of queue (kind, id) in qt; false when it has none. */
static bool row_counters(const struct nd_queue_table *qt, unsigned kind, unsigned id,
			 uint64_t *packets, uint64_t *bytes)
{
	for (unsigned i = 0; i < qt->count; i++) {
		const struct nd_queue_row *q = &qt->q[i];

		if (q->kind == kind && q->id == id && q->counters_known) {
			*packets = q->packets;
			*bytes = q->bytes;
			return true;
		}
	}
	return false;
}

/* Queues of kind with counters, ids 0..n-1 all present; their source. */
static unsigned counted_queues(const struct nd_queue_table *qt, unsigned kind, char *source,
			       size_t size)
{
	unsigned n = 0;
	uint64_t pk, by;

	while (n < ND_SPREAD_MAX_BUCKETS && row_counters(qt, kind, n, &pk, &by))
		n++;
	for (unsigned i = 0; i < qt->count && n; i++)
		if (qt->q[i].kind == kind && qt->q[i].id == 0)
			nd_strlcpy(source, qt->q[i].counter_source, size);
	return n;
}

/* The TX queue a new connection's first packets went out on: the queue
 * whose packet count grew most, alone, by two at least (SYN, ACK; UDP's
 * hello is one). */
static int learned_queue(const struct nd_spread_run *r)
{
	uint64_t least = r->p->udp ? 1 : 2;	/* UDP: the hello alone */
	uint64_t best = 0, second = 0;
	int best_q = -1;

	for (unsigned q = 0; q < r->tx_queues; q++) {
		uint64_t a = 0, b = 0, by;

		if (!row_counters(r->before, ND_QUEUE_TX, q, &a, &by) ||
		    !row_counters(r->after, ND_QUEUE_TX, q, &b, &by) || b < a)
			continue;
		if (b - a > best) {
			second = best;
			best = b - a;
			best_q = (int)q;
		} else if (b - a > second) {
			second = b - a;
		}
	}
	return best >= least && best > second ? best_q : -1;
}

static bool xps_in_use(const char *ifname)
{
	struct nd_facts *scratch = calloc(1, sizeof(*scratch));
	bool on = false;

	if (!scratch)
		return false;
	nd_strlcpy(scratch->ifname, ifname, sizeof(scratch->ifname));
	nd_probe_queues(&nd_root_live, ifname, scratch);
	for (unsigned q = 0; scratch->queues.st.known && q < scratch->queues.n_tx &&
	     q < ND_MAX_QUEUES; q++)
		on |= scratch->queues.xps_known[q] && !nd_cpuset_empty(&scratch->queues.xps_cpus[q]);
	free(scratch);
	return on;
}

/* Why sending streams cannot be re-dialed here, "" they can. */
static void tx_plan(struct nd_spread_run *r)
{
	struct nd_spread_side *tx = &r->view.tx;
	const char *ifn = r->view.ifname;

	r->tx_queues = counted_queues(r->before, ND_QUEUE_TX, tx->source, sizeof(tx->source));
	tx->watched = r->tx_queues > 0;
	if (!tx->watched)
		snprintf(tx->why_uncounted, sizeof(tx->why_uncounted), "no per-queue TX "
			 "counters on '%s' (netdev qstats, ethtool -S, an mq root qdisc)", ifn);
	if (!r->place)
		snprintf(tx->why, sizeof(tx->why), "--spread=count: the kernel placed them");
	else if (!tx->watched)
		snprintf(tx->why, sizeof(tx->why), "its queues are not counted");
	else if (r->tx_queues < 2)
		snprintf(tx->why, sizeof(tx->why), "'%s' has one TX queue", ifn);
	else if (r->p->udp)
		snprintf(tx->why, sizeof(tx->why), "UDP: a stream is counted by the server "
			 "at its first datagram, so it cannot be dialed again");
	else if (r->p->tos)
		snprintf(tx->why, sizeof(tx->why), "-S/--dscp: an iperf3 3.21 server ends the "
			 "test when a connection closes before its cookie with a TOS set");
	else if (xps_in_use(ifn))
		snprintf(tx->why, sizeof(tx->why), "XPS maps CPUs to the TX queues of '%s': a "
			 "flow's queue follows its sending CPU (-A), not its socket", ifn);
	r->tx_redial = tx->watched && !tx->why[0];
	tx->placed = r->tx_redial;
	tx->sum.queues = r->tx_queues;
}

struct rss_ctx {
	uint8_t peer[16], local[16];
	size_t addr_len;
	uint16_t peer_port;
};

/* The data streams go to the control connection's address and port. */
static int ctrl_addrs(int ctrl_fd, struct rss_ctx *c)
{
	struct sockaddr_storage la, pa;
	socklen_t ll = sizeof(la), pl = sizeof(pa);

	if (getsockname(ctrl_fd, (struct sockaddr *)&la, &ll) < 0 ||
	    getpeername(ctrl_fd, (struct sockaddr *)&pa, &pl) < 0)
		return -errno;
	if (la.ss_family == AF_INET) {
		c->peer_port = ntohs(((struct sockaddr_in *)&pa)->sin_port);
		c->addr_len = 4;
		memcpy(c->local, &((struct sockaddr_in *)&la)->sin_addr, 4);
		memcpy(c->peer, &((struct sockaddr_in *)&pa)->sin_addr, 4);
	} else {
		const struct in6_addr *l6 = &((struct sockaddr_in6 *)&la)->sin6_addr;
		/* A v4-mapped socket sends IPv4: the NIC hashes those 4 bytes. */
		size_t off = IN6_IS_ADDR_V4MAPPED(l6) ? 12 : 0;

		c->peer_port = ntohs(((struct sockaddr_in6 *)&pa)->sin6_port);
		c->addr_len = 16 - off;
		memcpy(c->local, l6->s6_addr + off, c->addr_len);
		memcpy(c->peer, ((struct sockaddr_in6 *)&pa)->sin6_addr.s6_addr + off, c->addr_len);
	}
	return 0;
}

/* Receiving streams: ports from the range whose reverse flows' RSS queues
 * differ, where the local NIC gives its Toeplitz key and table. */
static void rx_plan(struct nd_spread_run *r, int ctrl_fd)
{
	struct nd_spread_side *rx = &r->view.rx;
	struct nd_rss_conf *rss = calloc(1, sizeof(*rss));
	struct rss_ctx c = { 0 };
	int queues[FLOWS_MAX];
	int n_rx = r->p->bidir || r->p->reverse ? r->p->streams : 0;
	int rc;

	if (!r->place)
		snprintf(rx->why, sizeof(rx->why), "--spread=count: the kernel placed them");
	if (!rss || !n_rx || !r->place) {
		free(rss);
		return;
	}
	rc = nd_probe_rss_conf(r->view.ifname, rss);
	if (rc == 0)
		rc = ctrl_addrs(ctrl_fd, &c);
	if (rc < 0)
		snprintf(rx->why, sizeof(rx->why), "'%s' gives no RSS key and table: %s",
			 r->view.ifname, strerror(-rc));
	else if (!rss->toeplitz)
		snprintf(rx->why, sizeof(rx->why), "the RSS of '%s' is not Toeplitz over the "
			 "plain 4-tuple", r->view.ifname);
	else if (r->p->udp)
		snprintf(rx->why, sizeof(rx->why), "UDP: NICs often hash UDP by addresses only");
	else if (!r->p->cport_last)
		snprintf(rx->why, sizeof(rx->why), "no --cport range to choose from");
	else if (nd_rss_pick_ports(rss, c.peer, c.local, c.addr_len, c.peer_port, r->p->cport,
				   r->p->cport_last, (unsigned)n_rx, r->rx_ports, queues) < 0)
		snprintf(rx->why, sizeof(rx->why), "--cport %u-%u: too few ports",
			 r->p->cport, r->p->cport_last);
	else
		r->rx_placed = rx->placed = true;
	if (r->rx_placed) {
		for (int i = 0, k = 0; i < r->flows; i++)
			if (!flow_sends(r, i))
				r->view.flows[i].queue = queues[k++];
	}
	free(rss);
}

/*
 * A bond sends a flow on the member its hash names (bond_hash.c): with a
 * hashing mode and layer3+4 the sending flows' ports are chosen from the
 * range to cover the members, and the members' own counters say where the
 * flows went.  Only a run that only sends: one range serves both halves.
 */
static void bond_plan(struct nd_spread_run *r, int ctrl_fd)
{
	struct nd_spread_members *m = &r->view.members;
	struct rss_ctx c = { 0 };
	int rc;

	r->bond = calloc(1, sizeof(*r->bond));
	if (!r->bond)
		return;
	nd_strlcpy(r->bond->ifname, r->view.ifname, sizeof(r->bond->ifname));
	nd_probe_bond(&nd_root_live, r->view.ifname, r->bond);
	if (ctrl_addrs(ctrl_fd, &c) < 0)
		c.addr_len = 0;
	rc = nd_spread_bond_plan(&r->bond->bond, c.local, c.peer, c.addr_len, c.peer_port,
				 r->p->cport, r->p->cport_last, (unsigned)r->flows, r->bond_ports,
				 r->bond_member, m);
	if (rc == -ENOENT) {
		free(r->bond);
		r->bond = NULL;
		return;
	}
	if (rc == 0 && (!r->place || r->p->reverse || r->p->bidir)) {
		m->placed = false;
		nd_strlcpy(m->why, !r->place ? "--spread=count: the kernel placed them" :
			   "-R/--bidir: only a run that only sends has its ports chosen by the "
			   "bond's hash", sizeof(m->why));
	}
	if (!m->placed)
		return;
	/* The bond's hash places them: its own TX queues say nothing. */
	r->tx_redial = r->view.tx.placed = false;
	nd_strlcpy(r->view.tx.why, "the bond's hash places them on its members",
		   sizeof(r->view.tx.why));
	for (int i = 0; i < r->flows; i++)
		r->view.flows[i].queue = -1;
}

/* The members' TX during the test into the members' summary. */
static void bond_deltas(struct nd_spread_run *r, double seconds)
{
	struct nd_spread_members *m = &r->view.members;
	struct nd_spread_summary *s = &m->sum;
	const struct nd_bond *b = &r->bond->bond;

	nd_probe_bond_window_end(&nd_root_live, r->bond, seconds);
	m->counted = b->window_known;
	if (!m->counted) {
		nd_strlcpy(m->why_uncounted, "the members' counters could not be read",
			   sizeof(m->why_uncounted));
		return;
	}
	s->queues = m->n;
	s->flows = (unsigned)r->flows;
	for (unsigned i = 0; i < m->n; i++) {
		s->q[i] = (struct nd_spread_queue){ .id = i };
		for (unsigned j = 0; j < b->n_members; j++)
			if (!strcmp(b->members[j].name, m->name[i]) && b->members[j].window_known)
				s->q[i] = (struct nd_spread_queue){
					.id = i, .packets = b->members[j].window_tx_packets,
					.bytes = b->members[j].window_tx_bytes };
		for (int k = 0; m->placed && k < r->flows; k++)
			s->q[i].flows += r->bond_member[k] == (int)i;
	}
	nd_spread_summarize(s);
}

static void hook_before(void *arg, int ctrl_fd)
{
	struct nd_spread_run *r = arg;
	char *ifn = r->view.ifname;

	if (r->p->ifname)
		nd_strlcpy(ifn, r->p->ifname, sizeof(r->view.ifname));
	else if (r->p->bind_dev)
		nd_strlcpy(ifn, r->p->bind_dev, sizeof(r->view.ifname));
	else if (nd_iface_for_fd(ctrl_fd, ifn, sizeof(r->view.ifname)) < 0)
		ifn[0] = '\0';
	if (!ifn[0] || nd_probe_queue_sample(&nd_root_live, ifn, r->before) < 0) {
		snprintf(r->view.tx.why_uncounted, sizeof(r->view.tx.why_uncounted), "the "
			 "queues of the sending interface%s%s%s are unknown (--sample-if IF)",
			 ifn[0] ? " '" : "", ifn, ifn[0] ? "'" : "");
		nd_strlcpy(r->view.rx.why_uncounted, r->view.tx.why_uncounted,
			   sizeof(r->view.rx.why_uncounted));
		nd_strlcpy(r->view.tx.why, "its queues are not counted", sizeof(r->view.tx.why));
		nd_strlcpy(r->view.rx.why, r->view.tx.why, sizeof(r->view.rx.why));
		if (ifn[0])
			bond_plan(r, ctrl_fd);	/* a bond's members count for themselves */
		return;
	}
	tx_plan(r);
	rx_plan(r, ctrl_fd);
	bond_plan(r, ctrl_fd);
}

/* The next port of the range no receiving stream was given. */
static uint16_t next_range_port(struct nd_spread_run *r)
{
	while (r->next_port && r->next_port <= r->p->cport_last) {
		uint16_t port = (uint16_t)r->next_port++;
		bool taken = false;

		for (int i = 0; r->rx_placed && i < r->flows; i++)
			taken |= r->rx_ports[i] == port;
		if (!taken)
			return port;
	}
	r->next_port = 0;
	return 0;
}

static uint16_t hook_dial(void *arg, int index)
{
	struct nd_spread_run *r = arg;
	struct nd_spread_flow *fl = &r->view.flows[index];
	int rx_k = 0;

	fl->dials++;
	r->view.dials++;
	if (!flow_sends(r, index)) {
		for (int i = 0; i < index; i++)
			rx_k += !flow_sends(r, i);
		if (r->rx_placed)
			return fl->port = r->rx_ports[rx_k];
	} else if (r->view.members.placed) {
		return fl->port = r->bond_ports[index];
	} else if (r->view.tx.watched) {
		nd_probe_queue_sample(&nd_root_live, r->view.ifname, r->before);
	}
	if (!r->place)	/* iperf3's --cport: stream i binds PORT+i */
		return fl->port = r->p->cport ? (uint16_t)(r->p->cport + index) : 0;
	return fl->port = r->p->cport_last ? next_range_port(r) : 0;
}

static bool hook_connected(void *arg, int index, int fd, bool can_redial)
{
	struct nd_spread_run *r = arg;
	struct nd_spread_flow *fl = &r->view.flows[index];
	unsigned bound = DIALS_PER_QUEUE * r->tx_queues;
	struct sockaddr_storage la;
	socklen_t ll = sizeof(la);
	char host[64];
	int q;

	if (getsockname(fd, (struct sockaddr *)&la, &ll) == 0)
		nd_net_addr_str(&la, host, sizeof(host), &fl->port);
	if (!flow_sends(r, index) || !r->view.tx.watched)
		return false;
	nd_probe_queue_sample(&nd_root_live, r->view.ifname, r->after);
	q = fl->queue = learned_queue(r);
	if (bound > DIALS_PER_STREAM_MAX)
		bound = DIALS_PER_STREAM_MAX;
	/* Out of dials or of ports: keep what this dial got. */
	if (r->tx_redial && can_redial && fl->dials < bound &&
	    (!r->p->cport_last || r->next_port) && !nd_spread_wanted(r->count, r->tx_queues, q)) {
		r->view.redials++;
		return true;
	}
	if (q >= 0)
		r->count[q]++;
	return false;
}

/* Per-queue packets and bytes between t0 and t1 into side's summary. */
static void side_deltas(struct nd_spread_run *r, unsigned kind, struct nd_spread_side *side)
{
	struct nd_spread_summary *s = &side->sum;
	char source[24] = "";

	s->queues = counted_queues(r->t0, kind, source, sizeof(source));
	side->watched = s->queues > 0;
	if (source[0])
		nd_strlcpy(side->source, source, sizeof(side->source));
	s->flows = 0;
	for (unsigned q = 0; q < s->queues; q++) {
		uint64_t p0 = 0, b0 = 0, p1 = 0, b1 = 0;

		row_counters(r->t0, kind, q, &p0, &b0);
		row_counters(r->t1, kind, q, &p1, &b1);
		s->q[q] = (struct nd_spread_queue){ .id = q, .packets = p1 >= p0 ? p1 - p0 : 0,
						    .bytes = b1 >= b0 ? b1 - b0 : 0 };
	}
	for (int i = 0; i < r->flows; i++) {
		const struct nd_spread_flow *fl = &r->view.flows[i];

		if (fl->sending != (kind == ND_QUEUE_TX))
			continue;
		s->flows++;
		if (fl->queue >= 0 && (unsigned)fl->queue < s->queues)
			s->q[fl->queue].flows++;
	}
	nd_spread_summarize(s);
}

static void hook_sample(void *arg, bool end)
{
	struct nd_spread_run *r = arg;

	if (!r->view.ifname[0])
		return;
	if (r->bond && !end) {
		nd_probe_bond_window_start(&nd_root_live, r->bond);
		r->bond_t0 = nd_now_sec();
	} else if (r->bond) {
		bond_deltas(r, nd_now_sec() - r->bond_t0);
	}
	if (nd_probe_queue_sample(&nd_root_live, r->view.ifname, end ? r->t1 : r->t0) < 0 || !end)
		return;
	side_deltas(r, ND_QUEUE_TX, &r->view.tx);
	side_deltas(r, ND_QUEUE_RX, &r->view.rx);
	if (!r->view.rx.watched)
		snprintf(r->view.rx.why_uncounted, sizeof(r->view.rx.why_uncounted), "no "
			 "per-queue RX counters on '%s' (netdev qstats, ethtool -S)",
			 r->view.ifname);
	if (!r->view.tx.watched && !r->view.tx.why_uncounted[0])
		snprintf(r->view.tx.why_uncounted, sizeof(r->view.tx.why_uncounted), "no "
			 "per-queue TX counters on '%s'", r->view.ifname);
}

static void hook_text(void *arg, FILE *f)
{
	const struct nd_spread_run *r = arg;

	r->render->text(f, &r->view);
}

static struct cJSON *hook_json(void *arg)
{
	const struct nd_spread_run *r = arg;

	return r->render->json(&r->view);
}

static const struct nd_stream_hooks spread_hooks = {
	.before_streams = hook_before,
	.dial = hook_dial,
	.connected = hook_connected,
	.sample = hook_sample,
	.text = hook_text,
	.json = hook_json,
};

int nd_spread_run_new(struct nd_engine_params *p, bool place, const struct nd_spread_render *render,
		      struct nd_spread_run **ret, char *err, size_t err_size)
{
	struct nd_spread_run *r;
	int flows = (p->bidir ? 2 : 1) * p->streams;

	if (place && p->cport && !p->cport_last) {
		snprintf(err, err_size, "--spread dials again from new ports: give --cport a "
			 "range (FIRST-LAST) or none");
		return -EINVAL;
	}
	if (p->cport_last && p->cport_last - p->cport + 1 < flows) {
		snprintf(err, err_size, "--cport %u-%u has %u ports for %d streams", p->cport,
			 p->cport_last, p->cport_last - p->cport + 1, flows);
		return -EINVAL;
	}
	r = calloc(1, sizeof(*r));
	if (!r || !(r->before = calloc(4, sizeof(*r->before)))) {
		free(r);
		return -ENOMEM;
	}
	r->after = r->before + 1;
	r->t0 = r->before + 2;
	r->t1 = r->before + 3;
	r->p = p;
	r->place = place;
	r->flows = flows;
	r->next_port = p->cport_last ? p->cport : 0;
	r->view.flows_count = (unsigned)flows;
	for (int i = 0; i < flows; i++)
		r->view.flows[i] = (struct nd_spread_flow){ .id = flow_id(i),
							    .sending = flow_sends(r, i), .queue = -1 };
	r->render = render;
	r->hooks = spread_hooks;
	p->hooks = &r->hooks;
	p->hooks_arg = r;
	*ret = r;
	return 0;
}

void nd_spread_run_free(struct nd_spread_run *r)
{
	if (!r)
		return;
	free(r->before);
	free(r->bond);
	free(r);
}
