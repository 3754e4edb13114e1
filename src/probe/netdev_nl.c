/*
 * netdev_nl.c - the kernel's "netdev" generic-netlink family (libnl-genl):
 * queue-get (queue -> NAPI id), napi-get (NAPI -> IRQ, poller thread) and
 * qstats-get with scope queue (per-queue packets, bytes, drops, tx-stop).
 * Driver-independent where the driver implements the ops (Linux 6.5+ for
 * queues and NAPIs, 6.8+ for qstats).  The reply parser is pure and takes
 * recorded bytes too (unit tests, the fuzz target).
 */
#include <errno.h>
#include <string.h>

#include <linux/genetlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "nicdoctor/common.h"
#include "nicdoctor/queues.h"
#include "netdev_uapi.h"

struct nd_queue_row *nd_queue_row_get(struct nd_queue_table *qt, unsigned kind, unsigned id)
{
	struct nd_queue_row *row;

	for (unsigned i = 0; i < qt->count; i++)
		if (qt->q[i].kind == kind && qt->q[i].id == id)
			return &qt->q[i];
	if (qt->count >= ND_MAX_QUEUE_ROWS || id >= ND_MAX_QUEUES || kind > ND_QUEUE_TX)
		return NULL;
	row = &qt->q[qt->count++];
	memset(row, 0, sizeof(*row));
	row->kind = kind;
	row->id = id;
	row->irq = -1;
	row->napi_pid = -1;
	return row;
}

/* A u32 attribute; false when absent or short. */
static bool get_u32(struct nlattr *a, uint32_t *ret)
{
	if (!a || nla_len(a) < 4)
		return false;
	*ret = nla_get_u32(a);
	return true;
}

/* The family's "uint": 4 or 8 bytes, whichever the value needs. */
static bool get_uint(struct nlattr *a, uint64_t *ret)
{
	if (!a)
		return false;
	if (nla_len(a) == 8) {
		*ret = nla_get_u64(a);
		return true;
	}
	if (nla_len(a) == 4) {
		*ret = nla_get_u32(a);
		return true;
	}
	return false;
}

static bool other_iface(struct nlattr *a, int ifindex)
{
	uint32_t v;

	return ifindex > 0 && get_u32(a, &v) && v != (uint32_t)ifindex;
}

static void parse_queue(struct nlattr **tb, int ifindex, struct nd_queue_table *qt)
{
	uint32_t id, type, napi;
	struct nd_queue_row *row;

	if (other_iface(tb[ND_NETDEV_A_QUEUE_IFINDEX], ifindex) ||
	    !get_u32(tb[ND_NETDEV_A_QUEUE_ID], &id) || !get_u32(tb[ND_NETDEV_A_QUEUE_TYPE], &type))
		return;
	row = nd_queue_row_get(qt, type, id);
	if (row && get_u32(tb[ND_NETDEV_A_QUEUE_NAPI_ID], &napi))
		row->napi_id = napi;
}

static void parse_napi(struct nlattr **tb, int ifindex, struct nd_queue_table *qt)
{
	uint32_t id, irq, pid;
	bool has_irq, has_pid;

	if (other_iface(tb[ND_NETDEV_A_NAPI_IFINDEX], ifindex) ||
	    !get_u32(tb[ND_NETDEV_A_NAPI_ID], &id) || id == 0)
		return;
	has_irq = get_u32(tb[ND_NETDEV_A_NAPI_IRQ], &irq) && irq <= INT32_MAX;
	has_pid = get_u32(tb[ND_NETDEV_A_NAPI_PID], &pid) && pid <= INT32_MAX;
	for (unsigned i = 0; i < qt->count; i++) {
		if (qt->q[i].napi_id != id)
			continue;
		if (has_irq)
			qt->q[i].irq = (int)irq;
		if (has_pid)
			qt->q[i].napi_pid = (int)pid;
	}
}

static void parse_qstats(struct nlattr **tb, int ifindex, struct nd_queue_table *qt)
{
	uint32_t id, type;
	struct nd_queue_row *row;
	bool rx;
	uint64_t v;

	if (other_iface(tb[ND_NETDEV_A_QSTATS_IFINDEX], ifindex) ||
	    !get_u32(tb[ND_NETDEV_A_QSTATS_QUEUE_ID], &id) ||
	    !get_u32(tb[ND_NETDEV_A_QSTATS_QUEUE_TYPE], &type))
		return;
	row = nd_queue_row_get(qt, type, id);
	if (!row)
		return;
	rx = type == ND_QUEUE_RX;
	if (get_uint(tb[rx ? ND_NETDEV_A_QSTATS_RX_PACKETS : ND_NETDEV_A_QSTATS_TX_PACKETS],
		     &row->packets)) {
		row->counters_known = true;
		nd_strlcpy(row->counter_source, "netdev", sizeof(row->counter_source));
	}
	get_uint(tb[rx ? ND_NETDEV_A_QSTATS_RX_BYTES : ND_NETDEV_A_QSTATS_TX_BYTES], &row->bytes);
	row->hw_drops_known = get_uint(tb[rx ? ND_NETDEV_A_QSTATS_RX_HW_DROPS :
					   ND_NETDEV_A_QSTATS_TX_HW_DROPS], &row->hw_drops);
	if (rx)
		row->alloc_fail_known = get_uint(tb[ND_NETDEV_A_QSTATS_RX_ALLOC_FAIL],
						 &row->alloc_fail);
	else if (get_uint(tb[ND_NETDEV_A_QSTATS_TX_STOP], &row->tx_stop) &&
		 get_uint(tb[ND_NETDEV_A_QSTATS_TX_WAKE], &v)) {
		row->stop_known = true;
		row->tx_wake = v;
	}
}

/* One message; messages that are not netdev replies are ignored. */
static int parse_msg(struct nlmsghdr *nlh, int ifindex, struct nd_queue_table *qt)
{
	struct nlattr *tb[ND_NETDEV_A_QSTATS_MAX + 1];
	struct genlmsghdr *gnlh;

	if (nlh->nlmsg_type < NLMSG_MIN_TYPE)
		return 0;	/* NLMSG_DONE, NLMSG_ERROR */
	if (!genlmsg_valid_hdr(nlh, 0))
		return -EBADMSG;
	gnlh = nlmsg_data(nlh);
	if (nla_parse(tb, ND_NETDEV_A_QSTATS_MAX, genlmsg_attrdata(gnlh, 0),
		      genlmsg_attrlen(gnlh, 0), NULL) < 0)
		return -EBADMSG;
	switch (gnlh->cmd) {
	case ND_NETDEV_CMD_QUEUE_GET:
		parse_queue(tb, ifindex, qt);
		break;
	case ND_NETDEV_CMD_NAPI_GET:
		parse_napi(tb, ifindex, qt);
		break;
	case ND_NETDEV_CMD_QSTATS_GET:
		parse_qstats(tb, ifindex, qt);
		break;
	default:
		break;
	}
	return 0;
}

int nd_netdev_parse_replies(const void *buf, size_t len, int ifindex, struct nd_queue_table *qt)
{
	/* nlmsg_ok/nlmsg_next only read; libnl's prototypes are not const. */
	struct nlmsghdr *nlh = (struct nlmsghdr *)(uintptr_t)buf;
	int remaining = len > INT32_MAX ? INT32_MAX : (int)len;
	unsigned good = 0;

	if (!buf)
		return -EBADMSG;
	for (; nlmsg_ok(nlh, remaining); nlh = nlmsg_next(nlh, &remaining))
		if (parse_msg(nlh, ifindex, qt) == 0)
			good++;
	return good ? 0 : -EBADMSG;
}

struct dump_ctx {
	int ifindex;
	struct nd_queue_table *qt;
	int kernel_errno;
};

static int dump_valid_cb(struct nl_msg *msg, void *arg)
{
	struct dump_ctx *ctx = arg;

	parse_msg(nlmsg_hdr(msg), ctx->ifindex, ctx->qt);
	return NL_OK;
}

static int dump_err_cb(struct sockaddr_nl *nla, struct nlmsgerr *err, void *arg)
{
	struct dump_ctx *ctx = arg;

	(void)nla;
	ctx->kernel_errno = -err->error;
	return NL_STOP;
}

static int dump_one(struct nl_sock *sk, int family, uint8_t cmd, struct dump_ctx *ctx)
{
	/* Each command names the interface in its own attribute. */
	int ifattr = cmd == ND_NETDEV_CMD_QUEUE_GET ? ND_NETDEV_A_QUEUE_IFINDEX : 1;
	struct nl_msg *msg = nlmsg_alloc();
	struct nl_cb *cb = nl_cb_alloc(NL_CB_DEFAULT);
	int r = -ENOMEM;

	if (!msg || !cb)
		goto out;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0, NLM_F_DUMP, cmd,
			 NETDEV_FAMILY_VERSION) ||
	    nla_put_u32(msg, ifattr, (uint32_t)ctx->ifindex) < 0 ||
	    (cmd == ND_NETDEV_CMD_QSTATS_GET &&
	     nla_put_u32(msg, ND_NETDEV_A_QSTATS_SCOPE, ND_NETDEV_QSTATS_SCOPE_QUEUE) < 0))
		goto out;
	ctx->kernel_errno = 0;
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, dump_valid_cb, ctx);
	nl_cb_err(cb, NL_CB_CUSTOM, dump_err_cb, ctx);
	r = nl_send_auto(sk, msg) < 0 ? -EIO : 0;
	if (r == 0)
		r = nl_recvmsgs(sk, cb) < 0 ? -EIO : 0;
	if (ctx->kernel_errno)
		r = -ctx->kernel_errno;
out:
	nl_cb_put(cb);
	nlmsg_free(msg);
	return r;
}

int nd_netdev_dump(int ifindex, struct nd_queue_table *qt)
{
	static const uint8_t cmds[] = { ND_NETDEV_CMD_QUEUE_GET, ND_NETDEV_CMD_NAPI_GET,
					ND_NETDEV_CMD_QSTATS_GET };
	struct dump_ctx ctx = { .ifindex = ifindex, .qt = qt };
	struct nl_sock *sk = nl_socket_alloc();
	int family, r = 0;

	qt->count = 0;
	if (!sk)
		return -ENOMEM;
	family = genl_connect(sk);
	if (family == 0)
		family = genl_ctrl_resolve(sk, NETDEV_FAMILY_NAME);
	if (family < 0) {
		nl_socket_free(sk);
		return family == -NLE_OBJ_NOTFOUND ? -EPROTONOSUPPORT : -EIO;
	}
	/* queue-get lists the queues; napi-get and qstats-get only add to
	 * them (a kernel with queues but no qstats: 6.5 to 6.7). */
	for (size_t i = 0; i < ND_ARRAY_SIZE(cmds); i++) {
		int rc = dump_one(sk, family, cmds[i], &ctx);

		if (i == 0)
			r = rc;
		if (rc < 0 && i == 0)
			break;
	}
	nl_socket_free(sk);
	return r;
}
