/*
 * bond_nl.c - a bond read over rtnetlink, the interface the bonding
 * maintainers prefer to sysfs: IFLA_LINKINFO / IFLA_INFO_DATA with the
 * IFLA_BOND_* attributes on the master, IFLA_INFO_SLAVE_DATA with
 * IFLA_BOND_SLAVE_* on each member (include/uapi/linux/if_link.h).
 * libnl-route knows the bond link type but keeps none of these for
 * reading, so the dump's messages are parsed here with nla_parse_nested.
 * Written against the uapi and unit tested on messages built with libnl:
 * the test machine has no bonding driver.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <linux/if.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <netlink/route/link.h>
#include <netlink/route/rtnl.h>

#include "nicdoctor/bond.h"
#include "nicdoctor/common.h"

static struct nla_policy link_policy[IFLA_MAX + 1] = {
	[IFLA_IFNAME] = { .type = NLA_STRING, .maxlen = IFNAMSIZ },
	[IFLA_MASTER] = { .type = NLA_U32 },
	[IFLA_LINKINFO] = { .type = NLA_NESTED },
	[IFLA_OPERSTATE] = { .type = NLA_U8 },
};

static struct nla_policy info_policy[IFLA_INFO_MAX + 1] = {
	[IFLA_INFO_KIND] = { .type = NLA_STRING },
	[IFLA_INFO_DATA] = { .type = NLA_NESTED },
	[IFLA_INFO_SLAVE_KIND] = { .type = NLA_STRING },
	[IFLA_INFO_SLAVE_DATA] = { .type = NLA_NESTED },
};

static struct nla_policy bond_policy[IFLA_BOND_MAX + 1] = {
	[IFLA_BOND_MODE] = { .type = NLA_U8 },
	[IFLA_BOND_ACTIVE_SLAVE] = { .type = NLA_U32 },
	[IFLA_BOND_MIIMON] = { .type = NLA_U32 },
	[IFLA_BOND_ARP_INTERVAL] = { .type = NLA_U32 },
	[IFLA_BOND_XMIT_HASH_POLICY] = { .type = NLA_U8 },
	[IFLA_BOND_AD_LACP_RATE] = { .type = NLA_U8 },
	[IFLA_BOND_AD_INFO] = { .type = NLA_NESTED },
};

static struct nla_policy ad_policy[IFLA_BOND_AD_INFO_MAX + 1] = {
	[IFLA_BOND_AD_INFO_AGGREGATOR] = { .type = NLA_U16 },
	[IFLA_BOND_AD_INFO_NUM_PORTS] = { .type = NLA_U16 },
	[IFLA_BOND_AD_INFO_ACTOR_KEY] = { .type = NLA_U16 },
	[IFLA_BOND_AD_INFO_PARTNER_KEY] = { .type = NLA_U16 },
	[IFLA_BOND_AD_INFO_PARTNER_MAC] = { .minlen = 6 },
};

static struct nla_policy slave_policy[IFLA_BOND_SLAVE_MAX + 1] = {
	[IFLA_BOND_SLAVE_STATE] = { .type = NLA_U8 },
	[IFLA_BOND_SLAVE_MII_STATUS] = { .type = NLA_U8 },
	[IFLA_BOND_SLAVE_LINK_FAILURE_COUNT] = { .type = NLA_U32 },
	[IFLA_BOND_SLAVE_PERM_HWADDR] = { .minlen = 6 },
	[IFLA_BOND_SLAVE_QUEUE_ID] = { .type = NLA_U16 },
	[IFLA_BOND_SLAVE_AD_AGGREGATOR_ID] = { .type = NLA_U16 },
	[IFLA_BOND_SLAVE_AD_ACTOR_OPER_PORT_STATE] = { .type = NLA_U8 },
	[IFLA_BOND_SLAVE_AD_PARTNER_OPER_PORT_STATE] = { .type = NLA_U16 },
};

static void mac_text(const struct nlattr *a, char *buf, size_t size)
{
	const unsigned char *b = nla_data(a);

	snprintf(buf, size, "%02x:%02x:%02x:%02x:%02x:%02x", b[0], b[1], b[2], b[3], b[4], b[5]);
}

static void copy_name(const char *src, char *dst, size_t size)
{
	nd_strlcpy(dst, src, size);
}

static int parse_ad_info(struct nlattr *nest, struct nd_bond *b)
{
	struct nlattr *ad[IFLA_BOND_AD_INFO_MAX + 1];

	if (nla_parse_nested(ad, IFLA_BOND_AD_INFO_MAX, nest, ad_policy) < 0)
		return -EINVAL;
	b->ad_info_known = true;
	if (ad[IFLA_BOND_AD_INFO_AGGREGATOR])
		b->ad_aggregator_id = nla_get_u16(ad[IFLA_BOND_AD_INFO_AGGREGATOR]);
	if (ad[IFLA_BOND_AD_INFO_NUM_PORTS])
		b->ad_num_ports = nla_get_u16(ad[IFLA_BOND_AD_INFO_NUM_PORTS]);
	if (ad[IFLA_BOND_AD_INFO_ACTOR_KEY])
		b->ad_actor_key = nla_get_u16(ad[IFLA_BOND_AD_INFO_ACTOR_KEY]);
	if (ad[IFLA_BOND_AD_INFO_PARTNER_KEY])
		b->ad_partner_key = nla_get_u16(ad[IFLA_BOND_AD_INFO_PARTNER_KEY]);
	if (ad[IFLA_BOND_AD_INFO_PARTNER_MAC])
		mac_text(ad[IFLA_BOND_AD_INFO_PARTNER_MAC], b->ad_partner_mac,
			 sizeof(b->ad_partner_mac));
	return 0;
}

static int parse_master(struct nlattr *data, struct nd_bond_nl_ctx *ctx)
{
	struct nlattr *tb[IFLA_BOND_MAX + 1];
	struct nd_bond *b = ctx->bond;
	const char *name;

	if (nla_parse_nested(tb, IFLA_BOND_MAX, data, bond_policy) < 0)
		return -EINVAL;
	b->is_bond = true;
	if (tb[IFLA_BOND_MODE] && (name = nd_bond_mode_name(nla_get_u8(tb[IFLA_BOND_MODE]))))
		copy_name(name, b->mode, sizeof(b->mode));
	if (tb[IFLA_BOND_XMIT_HASH_POLICY] &&
	    (name = nd_bond_xmit_policy_name(nla_get_u8(tb[IFLA_BOND_XMIT_HASH_POLICY]))))
		copy_name(name, b->xmit_hash_policy, sizeof(b->xmit_hash_policy));
	if (tb[IFLA_BOND_MIIMON])
		b->miimon_ms = (int)(nla_get_u32(tb[IFLA_BOND_MIIMON]) & INT32_MAX);
	if (tb[IFLA_BOND_ARP_INTERVAL])
		b->arp_interval_ms = (int)(nla_get_u32(tb[IFLA_BOND_ARP_INTERVAL]) & INT32_MAX);
	if (tb[IFLA_BOND_ACTIVE_SLAVE])
		ctx->active_slave_ifindex = (int)nla_get_u32(tb[IFLA_BOND_ACTIVE_SLAVE]);
	if (tb[IFLA_BOND_AD_LACP_RATE])
		copy_name(nla_get_u8(tb[IFLA_BOND_AD_LACP_RATE]) ? "fast" : "slow", b->lacp_rate,
			  sizeof(b->lacp_rate));
	if (tb[IFLA_BOND_AD_INFO])
		return parse_ad_info(tb[IFLA_BOND_AD_INFO], b);
	/* bond_fill_info leaves AD_INFO out when there is no active
	 * aggregator, and for readers without CAP_NET_ADMIN. */
	if (!strcmp(b->mode, "802.3ad") && ctx->privileged) {
		b->ad_info_known = true;
		b->ad_no_active_aggregator = true;
	}
	return 0;
}

static void fill_slave(struct nlattr **tb, struct nd_bond_member *m)
{
	const char *s;

	if (tb[IFLA_BOND_SLAVE_STATE])
		copy_name(nla_get_u8(tb[IFLA_BOND_SLAVE_STATE]) ? "backup" : "active", m->state,
			  sizeof(m->state));
	if (tb[IFLA_BOND_SLAVE_MII_STATUS] &&
	    (s = nd_bond_mii_status_name(nla_get_u8(tb[IFLA_BOND_SLAVE_MII_STATUS]))))
		copy_name(s, m->mii_status, sizeof(m->mii_status));
	if (tb[IFLA_BOND_SLAVE_LINK_FAILURE_COUNT])
		m->link_failure_count = nla_get_u32(tb[IFLA_BOND_SLAVE_LINK_FAILURE_COUNT]);
	if (tb[IFLA_BOND_SLAVE_PERM_HWADDR])
		mac_text(tb[IFLA_BOND_SLAVE_PERM_HWADDR], m->perm_hwaddr, sizeof(m->perm_hwaddr));
	if (tb[IFLA_BOND_SLAVE_QUEUE_ID])
		m->queue_id = nla_get_u16(tb[IFLA_BOND_SLAVE_QUEUE_ID]);
	if (tb[IFLA_BOND_SLAVE_AD_AGGREGATOR_ID])
		m->aggregator_id = nla_get_u16(tb[IFLA_BOND_SLAVE_AD_AGGREGATOR_ID]);
	if (tb[IFLA_BOND_SLAVE_AD_ACTOR_OPER_PORT_STATE])
		m->actor_port_state = nla_get_u8(tb[IFLA_BOND_SLAVE_AD_ACTOR_OPER_PORT_STATE]);
	if (tb[IFLA_BOND_SLAVE_AD_PARTNER_OPER_PORT_STATE])
		m->partner_port_state =
			nla_get_u16(tb[IFLA_BOND_SLAVE_AD_PARTNER_OPER_PORT_STATE]) & 0xff;
}

static int parse_slave(struct nlattr *data, const char *name, int ifindex,
		       struct nd_bond_nl_ctx *ctx)
{
	struct nlattr *tb[IFLA_BOND_SLAVE_MAX + 1];
	struct nd_bond *b = ctx->bond;
	struct nd_bond_member *m;

	if (nla_parse_nested(tb, IFLA_BOND_SLAVE_MAX, data, slave_policy) < 0)
		return -EINVAL;
	if (b->n_members >= ND_MAX_BOND_MEMBERS)
		return 0;
	ctx->member_ifindex[b->n_members] = ifindex;
	m = &b->members[b->n_members++];
	nd_bond_member_reset(m);
	copy_name(name, m->name, sizeof(m->name));
	fill_slave(tb, m);
	return 0;
}

/* A team port: the team driver gives no slave data, so its MII status is
 * the port's operstate until teamd's link watches say more. */
static int team_port(struct nlattr **tb, int ifindex, struct nd_bond_nl_ctx *ctx)
{
	struct nd_bond *b = ctx->bond;
	struct nd_bond_member *m;

	if (b->n_members >= ND_MAX_BOND_MEMBERS)
		return 0;
	ctx->member_ifindex[b->n_members] = ifindex;
	ctx->member_team_port[b->n_members] = true;
	m = &b->members[b->n_members++];
	nd_bond_member_reset(m);
	copy_name(nla_get_string(tb[IFLA_IFNAME]), m->name, sizeof(m->name));
	if (tb[IFLA_OPERSTATE])
		copy_name(nla_get_u8(tb[IFLA_OPERSTATE]) == IF_OPER_UP ? "up" : "down",
			  m->mii_status, sizeof(m->mii_status));
	return 0;
}

int nd_bond_parse_rtnl_msg(const struct nlmsghdr *nlh, struct nd_bond_nl_ctx *ctx)
{
	struct nlattr *tb[IFLA_MAX + 1], *info[IFLA_INFO_MAX + 1];
	struct nlmsghdr *msg = (struct nlmsghdr *)nlh;	/* libnl takes no const */
	const struct ifinfomsg *ifi;
	const char *kind;

	if (nlh->nlmsg_type != RTM_NEWLINK || !nlmsg_valid_hdr(nlh, sizeof(*ifi)) ||
	    nlmsg_parse(msg, sizeof(*ifi), tb, IFLA_MAX, link_policy) < 0)
		return -EINVAL;
	ifi = nlmsg_data(nlh);
	if (!tb[IFLA_LINKINFO])
		return 0;
	if (nla_parse_nested(info, IFLA_INFO_MAX, tb[IFLA_LINKINFO], info_policy) < 0)
		return -EINVAL;
	if (ifi->ifi_index == ctx->bond_ifindex) {
		kind = info[IFLA_INFO_KIND] ? nla_get_string(info[IFLA_INFO_KIND]) : "";
		if (!strcmp(kind, "team")) {
			/* the team driver keeps no runner: teamd's state is read later */
			ctx->bond->is_bond = ctx->bond->is_team = true;
			return 0;
		}
		if (strcmp(kind, "bond") || !info[IFLA_INFO_DATA])
			return 0;
		return parse_master(info[IFLA_INFO_DATA], ctx);
	}
	if (!tb[IFLA_MASTER] || (int)nla_get_u32(tb[IFLA_MASTER]) != ctx->bond_ifindex ||
	    !tb[IFLA_IFNAME])
		return 0;
	kind = info[IFLA_INFO_SLAVE_KIND] ? nla_get_string(info[IFLA_INFO_SLAVE_KIND]) : "";
	if (!strcmp(kind, "team"))
		return team_port(tb, ifi->ifi_index, ctx);
	if (strcmp(kind, "bond") || !info[IFLA_INFO_SLAVE_DATA])
		return 0;
	return parse_slave(info[IFLA_INFO_SLAVE_DATA], nla_get_string(tb[IFLA_IFNAME]),
			   ifi->ifi_index, ctx);
}

void nd_bond_nl_finish(struct nd_bond_nl_ctx *ctx)
{
	struct nd_bond *b = ctx->bond;
	unsigned kept = 0;

	for (unsigned i = 0; i < b->n_members; i++)
		if (ctx->member_team_port[i] == b->is_team) {
			ctx->member_ifindex[kept] = ctx->member_ifindex[i];
			ctx->member_team_port[kept] = ctx->member_team_port[i];
			b->members[kept++] = b->members[i];
		}
	b->n_members = kept;

	for (unsigned i = 0; i < b->n_members && ctx->active_slave_ifindex; i++)
		if (ctx->member_ifindex[i] == ctx->active_slave_ifindex)
			copy_name(b->members[i].name, b->active_slave, sizeof(b->active_slave));
	if (!b->is_bond) {
		nd_status_set_unknown(&b->st, "not a bond");
		return;
	}
	nd_strlcpy(b->source, "netlink", sizeof(b->source));
	nd_status_set_known(&b->st);
}

static int on_link(struct nl_msg *msg, void *arg)
{
	nd_bond_parse_rtnl_msg(nlmsg_hdr(msg), arg);
	return NL_OK;
}

/* The bond's ifindex through libnl-route; -ENODEV when absent. */
static int bond_ifindex(struct nl_sock *sk, const char *ifname)
{
	struct rtnl_link *link = NULL;
	int ifindex;

	if (rtnl_link_get_kernel(sk, 0, ifname, &link) < 0 || !link)
		return -ENODEV;
	ifindex = rtnl_link_get_ifindex(link);
	rtnl_link_put(link);
	return ifindex;
}

int nd_bond_probe_netlink(const char *ifname, struct nd_bond *out)
{
	struct nd_bond_nl_ctx ctx = { .bond = out, .privileged = geteuid() == 0 };
	struct nl_sock *sk = nl_socket_alloc();
	int r;

	nd_bond_reset(out);
	if (!sk)
		return -ENOMEM;
	r = nl_connect(sk, NETLINK_ROUTE);
	if (r >= 0)
		r = ctx.bond_ifindex = bond_ifindex(sk, ifname);
	if (r >= 0)
		r = nl_socket_modify_cb(sk, NL_CB_VALID, NL_CB_CUSTOM, on_link, &ctx);
	if (r >= 0)
		r = nl_rtgen_request(sk, RTM_GETLINK, AF_UNSPEC, NLM_F_DUMP);
	if (r >= 0)
		r = nl_recvmsgs_default(sk);
	nl_socket_free(sk);
	if (r == -ENODEV)
		return r;
	if (r < 0)
		return -EIO;
	nd_bond_nl_finish(&ctx);
	return 0;
}
