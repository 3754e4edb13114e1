/*
 * rss_conf.c - the interface's RSS as `ethtool -x` shows it (hash
 * function, key, indirection table) from ethtool netlink RSS_GET, for
 * bench --spread to choose source ports whose reverse flows land on
 * distinct RX queues.  The facts' own rss group keeps only the table.
 */
#include <errno.h>
#include <string.h>

#include "nicdoctor/spread.h"
#include "nicdoctor/ethtool_nl.h"

#define ND_ETHTOOL_A_RSS_HFUNC		3	/* u32: one ETH_RSS_HASH_* bit */
#define ND_ETHTOOL_A_RSS_HKEY		5	/* binary */
#define ND_ETHTOOL_A_RSS_INPUT_XFRM	6	/* u32: RXH_XFRM_*, 0 none */
#define ND_ETH_RSS_HASH_TOP		1u	/* Toeplitz */

static int rss_conf_parse(struct nlattr **tb, void *arg)
{
	struct nd_rss_conf *rss = arg;
	struct nlattr *indir = tb[ND_ETHTOOL_A_RSS_INDIR], *key = tb[ND_ETHTOOL_A_RSS_HKEY];
	uint32_t hfunc = 0, xfrm = 0;

	if (tb[ND_ETHTOOL_A_RSS_HFUNC] && nla_len(tb[ND_ETHTOOL_A_RSS_HFUNC]) >= 4)
		hfunc = nla_get_u32(tb[ND_ETHTOOL_A_RSS_HFUNC]);
	if (tb[ND_ETHTOOL_A_RSS_INPUT_XFRM] && nla_len(tb[ND_ETHTOOL_A_RSS_INPUT_XFRM]) >= 4)
		xfrm = nla_get_u32(tb[ND_ETHTOOL_A_RSS_INPUT_XFRM]);
	if (indir) {
		rss->indir_size = (unsigned)nla_len(indir) / sizeof(uint32_t);
		if (rss->indir_size > ND_RSS_INDIR_MAX)
			rss->indir_size = ND_RSS_INDIR_MAX;
		memcpy(rss->indir, nla_data(indir), rss->indir_size * sizeof(uint32_t));
	}
	if (key) {
		rss->key_len = (size_t)nla_len(key);
		if (rss->key_len > ND_RSS_KEY_MAX)
			rss->key_len = ND_RSS_KEY_MAX;
		memcpy(rss->key, nla_data(key), rss->key_len);
	}
	for (unsigned i = 0; i < rss->indir_size; i++)
		if (rss->indir[i] + 1 > rss->rx_queues)
			rss->rx_queues = rss->indir[i] + 1;
	rss->toeplitz = hfunc == ND_ETH_RSS_HASH_TOP && xfrm == 0 && rss->key_len >= 16;
	return 0;
}

int nd_probe_rss_conf(const char *ifname, struct nd_rss_conf *ret)
{
	struct nd_ethnl nl;
	int r;

	memset(ret, 0, sizeof(*ret));
	r = nd_ethnl_open(&nl, ifname);
	if (r < 0)
		return r;
	r = nd_ethnl_get(&nl, ND_ETHTOOL_MSG_RSS_GET, 0, NULL, NULL, ND_ETHTOOL_A_RSS_MAX,
			 rss_conf_parse, ret);
	nd_ethnl_close(&nl);
	if (r == 0 && (!ret->indir_size || !ret->key_len))
		r = -EOPNOTSUPP;
	return r;
}
