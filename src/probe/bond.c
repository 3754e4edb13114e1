/*
 * bond.c - the bond probe source: facts->bond for a bonding master.
 *
 * Live, rtnetlink first (bond_nl.c); where that cannot say (no bonding
 * driver, a kernel without IFLA_BOND_*) and in a sysroot or sosreport,
 * /proc/net/bonding/BOND, then the master's sysfs bonding/ directory.  Netlink's
 * member data has no speed or duplex: those come from the /proc block or
 * the member's own /sys/class/net/M/speed.  Teams (team.c) fill the same
 * group from teamd's state.  Also the members' byte
 * counters at the start and end of the traffic runs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicdoctor/bond.h"
#include "nicdoctor/common.h"
#include "nicdoctor/probe.h"
#include "nicdoctor/sanitize.h"
#include "nicdoctor/sysroot.h"
#include "nicdoctor/team.h"

/* A sysfs enum ("802.3ad 4", "layer3+4 1"): its first word. */
static int read_word(const struct nd_root *root, const char *bond, const char *dir,
		     const char *attr, char *buf,
		     size_t size)
{
	char path[160], line[64];

	snprintf(path, sizeof(path), "/sys/class/net/%s/%s/%s", bond, dir, attr);
	if (nd_sysroot_read_line(root, path, line, sizeof(line)) < 0 || !line[0])
		return -ENOENT;
	line[strcspn(line, " \t")] = '\0';
	nd_strlcpy(buf, line, size);
	return 0;
}

static int read_int(const struct nd_root *root, const char *ifname, const char *dir,
		    const char *attr, int64_t *ret)
{
	char word[32], *end;
	long long v;

	if (read_word(root, ifname, dir, attr, word, sizeof(word)) < 0)
		return -ENOENT;
	v = strtoll(word, &end, 10);
	if (*end || end == word || v < -1 || v > INT32_MAX)
		return -EINVAL;	/* "N/A" outside 802.3ad */
	*ret = v;
	return 0;
}

static void sysfs_member(const struct nd_root *root, const char *name, struct nd_bond_member *m)
{
	int64_t v;

	nd_bond_member_reset(m);
	nd_strlcpy(m->name, name, sizeof(m->name));
	read_word(root, name, "bonding_slave", "state", m->state, sizeof(m->state));
	read_word(root, name, "bonding_slave", "mii_status", m->mii_status, sizeof(m->mii_status));
	read_word(root, name, "bonding_slave", "perm_hwaddr", m->perm_hwaddr,
		  sizeof(m->perm_hwaddr));
	if (!read_int(root, name, "bonding_slave", "link_failure_count", &v))
		m->link_failure_count = v;
	if (!read_int(root, name, "bonding_slave", "queue_id", &v))
		m->queue_id = (int)v;
	if (!read_int(root, name, "bonding_slave", "ad_aggregator_id", &v))
		m->aggregator_id = (int)v;
	if (!read_int(root, name, "bonding_slave", "ad_actor_oper_port_state", &v) && v <= 255)
		m->actor_port_state = (int)v;
	if (!read_int(root, name, "bonding_slave", "ad_partner_oper_port_state", &v) && v <= 255)
		m->partner_port_state = (int)v;
}

/* The master's sysfs bonding/ directory and its members' bonding_slave/. */
static int probe_sysfs(const struct nd_root *root, const char *ifname, struct nd_bond *b)
{
	char path[128], slaves[1024], *save = NULL, *tok;
	int64_t v;

	nd_bond_reset(b);
	if (read_word(root, ifname, "bonding", "mode", b->mode, sizeof(b->mode)) < 0)
		return -ENOENT;
	read_word(root, ifname, "bonding", "xmit_hash_policy", b->xmit_hash_policy,
		  sizeof(b->xmit_hash_policy));
	read_word(root, ifname, "bonding", "active_slave", b->active_slave,
		  sizeof(b->active_slave));
	read_word(root, ifname, "bonding", "lacp_rate", b->lacp_rate, sizeof(b->lacp_rate));
	if (!read_int(root, ifname, "bonding", "miimon", &v))
		b->miimon_ms = (int)v;
	if (!read_int(root, ifname, "bonding", "arp_interval", &v))
		b->arp_interval_ms = (int)v;
	/* the ad_* files are empty or absent without an active aggregator
	 * and unreadable without CAP_NET_ADMIN */
	if (!read_int(root, ifname, "bonding", "ad_aggregator", &v)) {
		b->ad_info_known = true;
		b->ad_aggregator_id = (int)v;
		if (!read_int(root, ifname, "bonding", "ad_num_ports", &v))
			b->ad_num_ports = (int)v;
		read_word(root, ifname, "bonding", "ad_partner_mac", b->ad_partner_mac,
			  sizeof(b->ad_partner_mac));
	}
	snprintf(path, sizeof(path), "/sys/class/net/%s/bonding/slaves", ifname);
	if (nd_sysroot_read_line(root, path, slaves, sizeof(slaves)) < 0)
		slaves[0] = '\0';
	for (tok = strtok_r(slaves, " \t", &save); tok && b->n_members < ND_MAX_BOND_MEMBERS;
	     tok = strtok_r(NULL, " \t", &save))
		if (nd_ifname_valid(tok) == 0)
			sysfs_member(root, tok, &b->members[b->n_members++]);
	b->is_bond = true;
	nd_strlcpy(b->source, "sysfs", sizeof(b->source));
	nd_status_set_known(&b->st);
	return 0;
}

static int probe_proc(const struct nd_root *root, const char *ifname, struct nd_bond *b)
{
	char path[96], *text = NULL;
	size_t len = 0;
	int r;

	snprintf(path, sizeof(path), "/proc/net/bonding/%s", ifname);
	r = nd_sysroot_read_alloc(root, path, &text, &len);
	if (r < 0)
		return r;
	r = nd_parse_bonding(text, len, b);
	free(text);
	return r;
}

/* Speed and duplex where the first source did not give them. */
static void member_link(const struct nd_root *root, struct nd_bond_member *m)
{
	char path[96], line[32];

	snprintf(path, sizeof(path), "/sys/class/net/%s/speed", m->name);
	if (m->speed_mbps < 0 && nd_sysroot_read_line(root, path, line, sizeof(line)) == 0) {
		long long v = strtoll(line, NULL, 10);

		m->speed_mbps = v > 0 ? v : -1;	/* -1 and 0: link down or unknown */
	}
	snprintf(path, sizeof(path), "/sys/class/net/%s/duplex", m->name);
	if (m->duplex < 0 && nd_sysroot_read_line(root, path, line, sizeof(line)) == 0)
		m->duplex = !strcmp(line, "full") ? 1 : !strcmp(line, "half") ? 0 : -1;
}

/* The /proc text's LACPDU details (partner MAC, churn) netlink lacks. */
static void add_proc_details(const struct nd_root *root, const char *ifname, struct nd_bond *b)
{
	struct nd_bond *proc = malloc(sizeof(*proc));

	if (!proc)
		return;
	if (probe_proc(root, ifname, proc) == 0)
		for (unsigned i = 0; i < b->n_members; i++)
			for (unsigned j = 0; j < proc->n_members; j++) {
				struct nd_bond_member *m = &b->members[i];
				const struct nd_bond_member *p = &proc->members[j];

				if (strcmp(m->name, p->name))
					continue;
				m->churned = p->churned;
				nd_strlcpy(m->partner_system_mac, p->partner_system_mac,
					   sizeof(m->partner_system_mac));
				if (m->speed_mbps < 0)
					m->speed_mbps = p->speed_mbps;
				if (m->duplex < 0)
					m->duplex = p->duplex;
			}
	free(proc);
}

#define CLEAN(field) nd_sanitize_buf((field), sizeof(field), 0)

/* sysfs words and netlink names arrive raw: cleaned here, where they
 * enter, like every other fact (nd_facts_sanitize). */
static void bond_sanitize(struct nd_bond *b)
{
	CLEAN(b->st.reason);
	CLEAN(b->mode);
	CLEAN(b->xmit_hash_policy);
	CLEAN(b->active_slave);
	CLEAN(b->lacp_rate);
	CLEAN(b->ad_partner_mac);
	CLEAN(b->team_runner);
	CLEAN(b->team_tx_hash);
	CLEAN(b->team_reason);
	for (unsigned i = 0; i < b->n_members; i++) {
		struct nd_bond_member *m = &b->members[i];

		CLEAN(m->name);
		CLEAN(m->mii_status);
		CLEAN(m->state);
		CLEAN(m->perm_hwaddr);
		CLEAN(m->partner_system_mac);
	}
}

void nd_probe_bond(const struct nd_root *root, const char *ifname, struct nd_facts *facts)
{
	struct nd_bond *b = &facts->bond;
	int r = -ENOENT;

	if (nd_sysroot_is_live(root)) {
		r = nd_bond_probe_netlink(ifname, b);
		if (r == 0 && b->is_team)
			r = nd_probe_team(root, ifname, b);
		else if (r == 0 && !b->is_bond &&
			 !nd_sysroot_exists(root, "/sys/class/net/bonding_masters"))
			return;	/* netlink says not a bond; fallbacks cannot say more */
		else if (r == 0 && b->is_bond)
			add_proc_details(root, ifname, b);
		else
			r = -ENOENT;
	}
	if (r < 0)
		r = nd_probe_team(root, ifname, b);	/* sos_commands/teamd in a sysroot */
	if (r < 0)
		r = probe_proc(root, ifname, b);
	if (r < 0)
		r = probe_sysfs(root, ifname, b);
	if (r < 0) {
		nd_bond_reset(b);
		nd_status_set_unknown(&b->st, "not a bond");
		return;
	}
	for (unsigned i = 0; i < b->n_members; i++)
		if (nd_ifname_valid(b->members[i].name) == 0)	/* a snapshot's text names them */
			member_link(root, &b->members[i]);
	bond_sanitize(b);
}

static int read_counter(const struct nd_root *root, const char *name, const char *counter,
			uint64_t *ret)
{
	char path[112], line[32], *end;
	unsigned long long v;

	snprintf(path, sizeof(path), "/sys/class/net/%s/statistics/%s", name, counter);
	if (nd_sysroot_read_line(root, path, line, sizeof(line)) < 0)
		return -ENOENT;
	v = strtoull(line, &end, 10);
	if (end == line || *end)
		return -EINVAL;
	*ret = v;
	return 0;
}

static int member_bytes(const struct nd_root *root, const char *name, uint64_t *ret_tx,
			uint64_t *ret_rx)
{
	if (nd_ifname_valid(name) < 0)
		return -EINVAL;
	if (read_counter(root, name, "tx_bytes", ret_tx) < 0 ||
	    read_counter(root, name, "rx_bytes", ret_rx) < 0)
		return -ENOENT;
	return 0;
}

static int member_packets(const struct nd_root *root, const char *name, uint64_t *ret_tx,
			  uint64_t *ret_rx)
{
	if (read_counter(root, name, "tx_packets", ret_tx) < 0 ||
	    read_counter(root, name, "rx_packets", ret_rx) < 0)
		return -ENOENT;
	return 0;
}

void nd_probe_bond_window_start(const struct nd_root *root, struct nd_facts *facts)
{
	struct nd_bond *b = &facts->bond;

	b->window_known = false;
	for (unsigned i = 0; i < b->n_members; i++) {
		struct nd_bond_member *m = &b->members[i];

		m->window_known = member_bytes(root, m->name, &m->tx_bytes_start,
					       &m->rx_bytes_start) == 0;
		m->window_packets_known = m->window_known &&
			member_packets(root, m->name, &m->tx_packets_start,
				       &m->rx_packets_start) == 0;
	}
}

/* Packets beside bytes: a member that sent few bytes in many packets
 * carried the ACKs of flows received on it. */
static void window_packets_end(const struct nd_root *root, struct nd_bond_member *m)
{
	uint64_t tx, rx;

	if (!m->window_packets_known || member_packets(root, m->name, &tx, &rx) < 0 ||
	    tx < m->tx_packets_start || rx < m->rx_packets_start) {
		m->window_packets_known = false;
		return;
	}
	m->window_tx_packets = tx - m->tx_packets_start;
	m->window_rx_packets = rx - m->rx_packets_start;
}

void nd_probe_bond_window_end(const struct nd_root *root, struct nd_facts *facts, double seconds)
{
	struct nd_bond *b = &facts->bond;
	unsigned known = 0;

	for (unsigned i = 0; i < b->n_members; i++) {
		struct nd_bond_member *m = &b->members[i];
		uint64_t tx, rx;

		if (!m->window_known || member_bytes(root, m->name, &tx, &rx) < 0) {
			m->window_known = false;
			continue;
		}
		/* a counter that went back (member re-added) gives no delta */
		m->window_known = tx >= m->tx_bytes_start && rx >= m->rx_bytes_start;
		m->window_tx_bytes = tx - m->tx_bytes_start;
		m->window_rx_bytes = rx - m->rx_bytes_start;
		window_packets_end(root, m);
		known += m->window_known;
	}
	b->window_known = b->n_members && known == b->n_members;
	b->window_seconds = seconds;
}
