/*
 * bond.h - bonding masters: the /proc/net/bonding/BOND text parser, the
 * rtnetlink IFLA_BOND_* / IFLA_BOND_SLAVE_* attribute parser, the probe
 * that fills facts->bond, and the members' own diagnosis.
 *
 * The parsers are pure (no I/O) so they are unit tested on real captures
 * and on netlink messages built in the test, and fuzzed.
 */
#ifndef NICDOCTOR_BOND_H
#define NICDOCTOR_BOND_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "nicdoctor/facts.h"

struct nd_root;	/* sysroot.h: where /sys and /proc are read */

struct nlmsghdr;

/* Reset a bond group to "nothing known" (numbers -1, strings ""). */
void nd_bond_reset(struct nd_bond *bond);
void nd_bond_member_reset(struct nd_bond_member *m);

/* /proc/net/bonding/BOND text (src/parse/bonding.c).  Never reads past
 * len, needs no NUL.  0: st known, source "/proc/net/bonding"; -EINVAL:
 * neither a "Bonding Mode:" nor a "Slave Interface:" line (st unknown). */
int nd_parse_bonding(const char *text, size_t len, struct nd_bond *out);

/* The kernel's short names for the numbers netlink and sysfs give;
 * NULL when out of range. */
const char *nd_bond_mode_name(unsigned mode);
const char *nd_bond_xmit_policy_name(unsigned policy);
const char *nd_bond_mii_status_name(unsigned status);

/* Parsing a link dump (src/probe/bond_nl.c): the bond's ifindex in, the
 * ifindexes netlink names things by kept until nd_bond_nl_finish. */
struct nd_bond_nl_ctx {
	struct nd_bond *bond;
	int bond_ifindex;
	bool privileged;		/* the kernel shows AD_INFO to CAP_NET_ADMIN only */
	int active_slave_ifindex;	/* 0 none */
	int member_ifindex[ND_MAX_BOND_MEMBERS];
	/* a port of a team master (slave kind "team"): kept only when the
	 * master turns out a team, as the dump may list ports first */
	bool member_team_port[ND_MAX_BOND_MEMBERS];
};

/* One RTM_NEWLINK message of a link dump: when its ifindex is the bond's
 * and its IFLA_INFO_KIND "bond", fill the master attributes (is_bond);
 * when its IFLA_MASTER is the bond and its IFLA_INFO_SLAVE_KIND "bond",
 * append a member.  0 (also for an unrelated link), or -EINVAL for a
 * message that is not a well-formed RTM_NEWLINK (bond untouched). */
int nd_bond_parse_rtnl_msg(const struct nlmsghdr *nlh, struct nd_bond_nl_ctx *ctx);
/* After the dump: the active slave's name, st and source; the members
 * of the other kind (team ports of a bond, bond slaves of a team) dropped. */
void nd_bond_nl_finish(struct nd_bond_nl_ctx *ctx);

/* Live: dump the links over rtnetlink (libnl) and parse them.  0 with
 * out filled (is_bond false when ifname is not a bond), or a negative errno. */
int nd_bond_probe_netlink(const char *ifname, struct nd_bond *out);

/* Members' counters at the start and the end of the traffic runs
 * (their own /sys/class/net/M/statistics). */
void nd_probe_bond_window_start(const struct nd_root *root, struct nd_facts *facts);
void nd_probe_bond_window_end(const struct nd_root *root, struct nd_facts *facts, double seconds);


#endif
