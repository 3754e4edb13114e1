/*
 * ethtool_nl.c - generic-netlink plumbing for the ethtool probe (libnl-genl):
 * resolving the "ethtool" family, one GET request with its reply or error,
 * verbose bitsets and string sets.  What each message means lives in
 * ethtool.c and ethtool_modes.c.
 */
#include <errno.h>
#include <string.h>

#include <linux/genetlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "nicdoctor/common.h"
#include "nicdoctor/ethtool_nl.h"

struct reply_ctx {
	int maxattr;
	nd_ethnl_parse_fn parse;
	void *arg;
	int kernel_errno;	/* positive, from NLMSG_ERROR */
	int parse_err;
};

/* A string attribute copied with a bound: the kernel NUL-terminates, but
 * a truncated attribute must not make us read past it. */
static const char *attr_str(struct nlattr *attr, char *buf, size_t size)
{
	size_t len;

	if (!attr)
		return NULL;
	len = (size_t)nla_len(attr);
	if (len >= size)
		len = size - 1;
	memcpy(buf, nla_data(attr), len);
	buf[len] = '\0';
	return buf;
}

int nd_ethnl_open(struct nd_ethnl *nl, const char *ifname)
{
	int r;

	memset(nl, 0, sizeof(*nl));
	nl->ifname = ifname;
	nl->sk = nl_socket_alloc();
	if (!nl->sk)
		return -ENOMEM;
	r = genl_connect(nl->sk);
	if (r == 0)
		r = genl_ctrl_resolve(nl->sk, "ethtool");
	if (r < 0) {
		nd_ethnl_close(nl);
		/* No family: a kernel before 5.6 or without CONFIG_ETHTOOL_NETLINK. */
		return r == -NLE_OBJ_NOTFOUND ? -EPROTONOSUPPORT : -EIO;
	}
	nl->family_id = r;
	/* Each GET gets exactly one reply or one error; no ACK to drain. */
	nl_socket_disable_auto_ack(nl->sk);
	return 0;
}

void nd_ethnl_close(struct nd_ethnl *nl)
{
	if (nl->sk)
		nl_socket_free(nl->sk);
	nl->sk = NULL;
}

static int reply_valid_cb(struct nl_msg *msg, void *arg)
{
	struct reply_ctx *ctx = arg;
	struct nlattr *tb[ND_ETHNL_MAX_ATTR + 1];
	struct genlmsghdr *gnlh = nlmsg_data(nlmsg_hdr(msg));

	if (nla_parse(tb, ctx->maxattr, genlmsg_attrdata(gnlh, 0), genlmsg_attrlen(gnlh, 0),
		      NULL) < 0) {
		ctx->parse_err = -EBADMSG;
		return NL_STOP;
	}
	ctx->parse_err = ctx->parse ? ctx->parse(tb, ctx->arg) : 0;
	return NL_OK;
}

static int reply_err_cb(struct sockaddr_nl *nla, struct nlmsgerr *err, void *arg)
{
	struct reply_ctx *ctx = arg;

	(void)nla;
	ctx->kernel_errno = -err->error;
	return NL_STOP;
}

static int send_and_receive(struct nl_sock *sk, struct nl_msg *msg, struct reply_ctx *ctx)
{
	struct nl_cb *cb;
	int r = nl_send_auto(sk, msg);

	if (r < 0)
		return -EIO;
	cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!cb)
		return -ENOMEM;
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, reply_valid_cb, ctx);
	nl_cb_err(cb, NL_CB_CUSTOM, reply_err_cb, ctx);
	r = nl_recvmsgs(sk, cb);
	nl_cb_put(cb);
	if (ctx->kernel_errno)
		return -ctx->kernel_errno;
	if (ctx->parse_err)
		return ctx->parse_err;
	return r < 0 ? -EIO : 0;
}

int nd_ethnl_get(struct nd_ethnl *nl, uint8_t cmd, uint32_t header_flags,
		 nd_ethnl_attrs_fn add_attrs, void *attrs_arg, int maxattr,
		 nd_ethnl_parse_fn parse, void *parse_arg)
{
	struct reply_ctx ctx = { .maxattr = maxattr, .parse = parse, .arg = parse_arg };
	struct nl_msg *msg = nlmsg_alloc();
	struct nlattr *hdr;
	int r = -ENOMEM;

	if (!msg)
		return -ENOMEM;
	if (ctx.maxattr > ND_ETHNL_MAX_ATTR)
		ctx.maxattr = ND_ETHNL_MAX_ATTR;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, nl->family_id, 0, 0, cmd,
			 ETHTOOL_GENL_VERSION))
		goto out;
	/* Attribute 1 is the request header in every ethtool message. */
	hdr = nla_nest_start(msg, 1);
	if (!hdr || nla_put_string(msg, ETHTOOL_A_HEADER_DEV_NAME, nl->ifname) < 0 ||
	    nla_put_u32(msg, ETHTOOL_A_HEADER_FLAGS, header_flags) < 0)
		goto out;
	nla_nest_end(msg, hdr);
	if (add_attrs && add_attrs(msg, attrs_arg) < 0)
		goto out;
	r = send_and_receive(nl->sk, msg, &ctx);
out:
	nlmsg_free(msg);
	return r;
}

static int family_ops_parse(struct nlattr **tb, void *arg)
{
	uint8_t *cmd = arg;
	struct nlattr *op;
	int rem;

	if (!tb[CTRL_ATTR_OPS])
		return -ENOENT;
	nla_for_each_nested(op, tb[CTRL_ATTR_OPS], rem) {
		struct nlattr *ot[CTRL_ATTR_OP_MAX + 1];

		if (nla_parse_nested(ot, CTRL_ATTR_OP_MAX, op, NULL) == 0 &&
		    ot[CTRL_ATTR_OP_ID] && nla_len(ot[CTRL_ATTR_OP_ID]) >= 4 &&
		    nla_get_u32(ot[CTRL_ATTR_OP_ID]) == *cmd)
			return 0;
	}
	return -ENOENT;
}

bool nd_ethnl_has_op(struct nd_ethnl *nl, uint8_t cmd)
{
	struct reply_ctx ctx = { .maxattr = CTRL_ATTR_MAX, .parse = family_ops_parse, .arg = &cmd };
	struct nl_msg *msg = nlmsg_alloc();
	bool has = false;

	if (!msg)
		return false;
	if (genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, GENL_ID_CTRL, 0, 0,
			CTRL_CMD_GETFAMILY, 1) &&
	    nla_put_string(msg, CTRL_ATTR_FAMILY_NAME, "ethtool") == 0)
		has = send_and_receive(nl->sk, msg, &ctx) == 0;
	nlmsg_free(msg);
	return has;
}

int nd_ethnl_bitset_walk(struct nlattr *bitset, nd_ethnl_bit_fn fn, void *arg)
{
	struct nlattr *tb[ETHTOOL_A_BITSET_MAX + 1], *bit;
	bool nomask;
	int rem;

	if (!bitset || nla_parse_nested(tb, ETHTOOL_A_BITSET_MAX, bitset, NULL) < 0)
		return -EBADMSG;
	nomask = tb[ETHTOOL_A_BITSET_NOMASK] != NULL;
	if (!tb[ETHTOOL_A_BITSET_BITS])
		return 0;	/* an empty set */
	nla_for_each_nested(bit, tb[ETHTOOL_A_BITSET_BITS], rem) {
		struct nlattr *bt[ETHTOOL_A_BITSET_BIT_MAX + 1];
		char name[64];

		if (nla_type(bit) != ETHTOOL_A_BITSET_BITS_BIT ||
		    nla_parse_nested(bt, ETHTOOL_A_BITSET_BIT_MAX, bit, NULL) < 0 ||
		    !bt[ETHTOOL_A_BITSET_BIT_INDEX] || nla_len(bt[ETHTOOL_A_BITSET_BIT_INDEX]) < 4)
			continue;
		/* Without a mask only the set bits are listed. */
		fn(nla_get_u32(bt[ETHTOOL_A_BITSET_BIT_INDEX]),
		   attr_str(bt[ETHTOOL_A_BITSET_BIT_NAME], name, sizeof(name)),
		   nomask || bt[ETHTOOL_A_BITSET_BIT_VALUE] != NULL, arg);
	}
	return 0;
}

struct strings_req {
	uint32_t set_id;
	nd_ethnl_string_fn fn;
	void *arg;
};

static int strings_attrs(struct nl_msg *msg, void *arg)
{
	struct strings_req *req = arg;
	struct nlattr *sets = nla_nest_start(msg, ETHTOOL_A_STRSET_STRINGSETS);
	struct nlattr *set = sets ? nla_nest_start(msg, ETHTOOL_A_STRINGSETS_STRINGSET) : NULL;

	if (!set || nla_put_u32(msg, ETHTOOL_A_STRINGSET_ID, req->set_id) < 0)
		return -ENOMEM;
	nla_nest_end(msg, set);
	nla_nest_end(msg, sets);
	return 0;
}

static void strings_of_set(struct nlattr *strings, struct strings_req *req)
{
	struct nlattr *s;
	int rem;

	nla_for_each_nested(s, strings, rem) {
		struct nlattr *st[ETHTOOL_A_STRING_MAX + 1];
		char name[64];

		if (nla_parse_nested(st, ETHTOOL_A_STRING_MAX, s, NULL) < 0 ||
		    !st[ETHTOOL_A_STRING_INDEX] || nla_len(st[ETHTOOL_A_STRING_INDEX]) < 4 ||
		    !st[ETHTOOL_A_STRING_VALUE])
			continue;
		req->fn(nla_get_u32(st[ETHTOOL_A_STRING_INDEX]),
			attr_str(st[ETHTOOL_A_STRING_VALUE], name, sizeof(name)), req->arg);
	}
}

static int strings_parse(struct nlattr **tb, void *arg)
{
	struct strings_req *req = arg;
	struct nlattr *set;
	int rem;

	if (!tb[ETHTOOL_A_STRSET_STRINGSETS])
		return -EBADMSG;
	nla_for_each_nested(set, tb[ETHTOOL_A_STRSET_STRINGSETS], rem) {
		struct nlattr *sb[ETHTOOL_A_STRINGSET_MAX + 1];

		if (nla_parse_nested(sb, ETHTOOL_A_STRINGSET_MAX, set, NULL) < 0 ||
		    !sb[ETHTOOL_A_STRINGSET_ID] || nla_len(sb[ETHTOOL_A_STRINGSET_ID]) < 4 ||
		    nla_get_u32(sb[ETHTOOL_A_STRINGSET_ID]) != req->set_id ||
		    !sb[ETHTOOL_A_STRINGSET_STRINGS])
			continue;
		strings_of_set(sb[ETHTOOL_A_STRINGSET_STRINGS], req);
	}
	return 0;
}

int nd_ethnl_strings(struct nd_ethnl *nl, uint32_t set_id, nd_ethnl_string_fn fn, void *arg)
{
	struct strings_req req = { .set_id = set_id, .fn = fn, .arg = arg };

	return nd_ethnl_get(nl, ETHTOOL_MSG_STRSET_GET, 0, strings_attrs, &req,
			    ETHTOOL_A_STRSET_MAX, strings_parse, &req);
}
