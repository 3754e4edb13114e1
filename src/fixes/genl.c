/*
 * genl.c - ethtool netlink SET requests (libnl-genl): the probe's socket
 * and family helper (src/probe/ethtool_nl.h) opens the socket; here one
 * SET request with NLM_F_ACK is sent for one device and the kernel's own
 * errno returned (libnl would map it to an NLE_* code).  Reads stay in the
 * probe; this is the write half.
 */
#include <errno.h>
#include <linux/ethtool_netlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>

#include "fixes.h"
#include "nicdoctor/ethtool_nl.h"

typedef int (*fill_fn)(struct nl_msg *msg, const void *arg);

static int on_error(struct sockaddr_nl *who, struct nlmsgerr *nlerr, void *arg)
{
	int *kernel_errno = arg;

	(void)who;
	*kernel_errno = nlerr->error < 0 ? nlerr->error : -EIO;
	return NL_STOP;
}

/* libnl's NLE_* to something errno-like, when the kernel said nothing. */
static int nle_to_errno(int nle)
{
	switch (-nle) {
	case NLE_NOMEM: return -ENOMEM;
	case NLE_OBJ_NOTFOUND: return -ENOENT;
	case NLE_PERM: return -EPERM;
	case NLE_NODEV: return -ENODEV;
	case NLE_OPNOTSUPP: return -EOPNOTSUPP;
	case NLE_INVAL: return -EINVAL;
	case NLE_RANGE: return -ERANGE;
	default: return -EIO;
	}
}

static int build_request(struct nl_msg *msg, int family, int cmd, int header_attr,
			 const char *ifname, fill_fn fill, const void *arg)
{
	struct nlattr *header;

	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0, NLM_F_REQUEST | NLM_F_ACK,
			 (uint8_t)cmd, ETHTOOL_GENL_VERSION))
		return -ENOMEM;
	header = nla_nest_start(msg, header_attr);
	if (!header || nla_put_string(msg, ETHTOOL_A_HEADER_DEV_NAME, ifname) < 0)
		return -EMSGSIZE;
	nla_nest_end(msg, header);
	return fill(msg, arg);
}

static int ethtool_request(const char *ifname, int cmd, int header_attr, fill_fn fill,
			   const void *arg)
{
	struct nd_ethnl nl;
	struct nl_msg *msg;
	int kernel_errno = 0, r;

	r = nd_ethnl_open(&nl, ifname);
	if (r < 0)
		return r;
	msg = nlmsg_alloc();
	r = msg ? build_request(msg, nl.family_id, cmd, header_attr, ifname, fill, arg) : -ENOMEM;
	if (r < 0)
		goto out;
	nl_socket_modify_err_cb(nl.sk, NL_CB_CUSTOM, on_error, &kernel_errno);
	/* NLM_F_ACK is in the request: a SET answers with an ack or an error. */
	r = nl_send_auto(nl.sk, msg);
	if (r >= 0)
		r = nl_wait_for_ack(nl.sk);
	if (r < 0)
		r = kernel_errno < 0 ? kernel_errno : nle_to_errno(r);
	else
		r = 0;
out:
	nlmsg_free(msg);
	nd_ethnl_close(&nl);
	return r;
}

struct u32_arg {
	int attr;
	unsigned value;
};

static int fill_u32(struct nl_msg *msg, const void *arg)
{
	const struct u32_arg *a = arg;

	return nla_put_u32(msg, a->attr, a->value) < 0 ? -EMSGSIZE : 0;
}

int nd_fix_ethtool_set_u32(const char *ifname, int msg_cmd, int header_attr, int attr,
			   unsigned value)
{
	struct u32_arg a = { .attr = attr, .value = value };

	return ethtool_request(ifname, msg_cmd, header_attr, fill_u32, &a);
}

struct feature_arg {
	const char *name;
	bool on;
};

/* WANTED as a list of changes (no NOMASK flag): only the named bit moves. */
static int fill_feature(struct nl_msg *msg, const void *arg)
{
	const struct feature_arg *a = arg;
	struct nlattr *wanted, *bits, *bit;

	wanted = nla_nest_start(msg, ETHTOOL_A_FEATURES_WANTED);
	if (!wanted)
		return -EMSGSIZE;
	bits = nla_nest_start(msg, ETHTOOL_A_BITSET_BITS);
	if (!bits)
		return -EMSGSIZE;
	bit = nla_nest_start(msg, ETHTOOL_A_BITSET_BITS_BIT);
	if (!bit || nla_put_string(msg, ETHTOOL_A_BITSET_BIT_NAME, a->name) < 0)
		return -EMSGSIZE;
	if (a->on && nla_put_flag(msg, ETHTOOL_A_BITSET_BIT_VALUE) < 0)
		return -EMSGSIZE;
	nla_nest_end(msg, bit);
	nla_nest_end(msg, bits);
	nla_nest_end(msg, wanted);
	return 0;
}

int nd_fix_ethtool_set_feature(const char *ifname, const char *feature, bool on)
{
	struct feature_arg a = { .name = feature, .on = on };

	return ethtool_request(ifname, ETHTOOL_MSG_FEATURES_SET, ETHTOOL_A_FEATURES_HEADER,
			       fill_feature, &a);
}

struct link_arg {
	bool autoneg;
	unsigned speed_mbps;
	int duplex;
};

/* Autonegotiation on alone keeps the advertised modes; forced, the speed
 * and duplex go in the same request as autoneg off. */
static int fill_link(struct nl_msg *msg, const void *arg)
{
	const struct link_arg *a = arg;

	if (nla_put_u8(msg, ETHTOOL_A_LINKMODES_AUTONEG, a->autoneg ? 1 : 0) < 0)
		return -EMSGSIZE;
	if (a->autoneg)
		return 0;
	if (nla_put_u32(msg, ETHTOOL_A_LINKMODES_SPEED, a->speed_mbps) < 0 ||
	    nla_put_u8(msg, ETHTOOL_A_LINKMODES_DUPLEX, (uint8_t)a->duplex) < 0)
		return -EMSGSIZE;
	return 0;
}

int nd_fix_ethtool_set_link(const char *ifname, bool autoneg, unsigned speed_mbps, int duplex)
{
	struct link_arg a = { .autoneg = autoneg, .speed_mbps = speed_mbps, .duplex = duplex };

	return ethtool_request(ifname, ETHTOOL_MSG_LINKMODES_SET, ETHTOOL_A_LINKMODES_HEADER,
			       fill_link, &a);
}
