/*
 * ethtool_nl.h - the ethtool generic-netlink plumbing shared by the
 * per-message parsers (ethtool.c, ethtool_modes.c): one GET request and its
 * reply, bitsets, string sets.  Internal to src/probe/.
 */
#ifndef NICDOCTOR_PROBE_ETHTOOL_NL_H
#define NICDOCTOR_PROBE_ETHTOOL_NL_H

#include <stdbool.h>
#include <stdint.h>

#include <linux/ethtool_netlink.h>
#include <netlink/attr.h>
#include <netlink/netlink.h>

/* ETHTOOL_MSG_RSS_GET arrived in Linux 6.4, after the uapi headers this
 * may be built against; the values are kernel ABI and never change. */
#define ND_ETHTOOL_MSG_RSS_GET	38	/* ETHTOOL_MSG_PSE_SET + 1 */
#define ND_ETHTOOL_A_RSS_INDIR	4	/* binary: u32 queue index per entry */
#define ND_ETHTOOL_A_RSS_MAX	16

/* Enough for every GET reply we parse; later attributes are ignored. */
#define ND_ETHNL_MAX_ATTR 32

struct nd_ethnl {
	struct nl_sock *sk;
	int family_id;
	const char *ifname;
};

/* Called with the reply's top-level attributes, tb[0..maxattr]. */
typedef int (*nd_ethnl_parse_fn)(struct nlattr **tb, void *arg);
/* Adds request attributes after the header; may be NULL. */
typedef int (*nd_ethnl_attrs_fn)(struct nl_msg *msg, void *arg);

/* Connect and resolve the "ethtool" family.  0 or a negative errno. */
int nd_ethnl_open(struct nd_ethnl *nl, const char *ifname);
void nd_ethnl_close(struct nd_ethnl *nl);

/* One GET for nl->ifname; 0, or the kernel's negative errno. */
int nd_ethnl_get(struct nd_ethnl *nl, uint8_t cmd, uint32_t header_flags,
		 nd_ethnl_attrs_fn add_attrs, void *attrs_arg, int maxattr,
		 nd_ethnl_parse_fn parse, void *parse_arg);

/* Whether the kernel's ethtool family implements command cmd (answers
 * "driver says no" versus "kernel too old" for the same -EOPNOTSUPP). */
bool nd_ethnl_has_op(struct nd_ethnl *nl, uint8_t cmd);

/* Walk a verbose (non-compact) bitset: fn for every listed bit.  `set`
 * is the value bit; for a bitset with a mask, listed means in the mask. */
typedef void (*nd_ethnl_bit_fn)(unsigned index, const char *name, bool set, void *arg);
int nd_ethnl_bitset_walk(struct nlattr *bitset, nd_ethnl_bit_fn fn, void *arg);

/* Names of string set `set_id` (ETH_SS_*): fn(index, name) for each. */
typedef void (*nd_ethnl_string_fn)(unsigned index, const char *name, void *arg);
int nd_ethnl_strings(struct nd_ethnl *nl, uint32_t set_id, nd_ethnl_string_fn fn, void *arg);

/* The per-message probes (ethtool_modes.c); 0 or negative errno. */
int nd_ethnl_linkmodes(struct nd_ethnl *nl, void *group);
int nd_ethnl_features(struct nd_ethnl *nl, void *group);

#endif
