/*
 * team.h - team devices (the kernel's team driver, driven by teamd): the
 * parsers of `teamdctl TEAM state dump` and `config dump` (JSON, what
 * sosreport's teamd plugin records), the runner and tx_hash mapped onto
 * the bond names the bond checks judge, and the probe that fills
 * facts->bond for a team.  The parsers are pure and fuzzed.
 */
#ifndef NICDOCTOR_TEAM_H
#define NICDOCTOR_TEAM_H

#include <stddef.h>

#include "nicdoctor/facts.h"

struct nd_root;	/* sysroot.h: where /sys and /proc are read */

/* `teamdctl TEAM state dump`: setup.runner_name, the runner's state
 * (active_port; LACP selected aggregator, fast_rate) and each port's link,
 * link watches and LACP info become out's members (replacing any).  Never
 * reads past len.  0 with out->is_team set; -EINVAL when the text is not
 * a JSON object with "setup" or "ports" (out untouched). */
int nd_parse_teamd_state(const char *text, size_t len, struct nd_bond *out);

/* `teamdctl TEAM config dump`: runner.name (where the state gave none) and
 * runner.tx_hash; a config without tx_hash has teamd's default
 * ("eth,ipv4,ipv6", team_tx_hash_default); its "ports" become the members
 * when out has none.  0, or -EINVAL (out untouched). */
int nd_parse_teamd_config(const char *text, size_t len, struct nd_bond *out);

/* The bond mode a runner behaves as: "balance-rr" (roundrobin, random),
 * "active-backup", "balance-xor" (loadbalance), "802.3ad" (lacp),
 * "broadcast"; NULL for a runner this version does not know. */
const char *nd_team_runner_mode(const char *runner);

/* The bond xmit_hash_policy a tx_hash list ("eth,ipv4,ipv6") behaves as:
 * "layer3+4" with any L4 field (tcp, udp, sctp, l4), else "layer2+3" with
 * an IP field, else "layer2" (per MAC/VLAN: one peer, one port). */
const char *nd_team_tx_hash_policy(const char *tx_hash);

/* mode and xmit_hash_policy from team_runner and team_tx_hash. */
void nd_team_map(struct nd_bond *b);

/* Live: `teamdctl IFNAME WHAT dump` (WHAT "state" or "config") into a
 * malloc'd, NUL-terminated buffer; argv, no shell, killed after 5 s or
 * 1 MiB.  0; -ENOENT when teamdctl is not installed; -EIO when it failed
 * or printed nothing. */
int nd_team_dump(const char *ifname, const char *what, char **ret_text, size_t *ret_len);

/* Fill facts->bond when ifname is a team: in a sysroot or sosreport from
 * sos_commands/teamd/teamdctl_IF_state_dump and _config_dump (the ports
 * from /sys/class/net/IF/lower_* where teamd's state is absent); live from
 * netlink (IFLA_INFO_KIND "team", ports by IFLA_MASTER) and teamdctl when
 * installed.  0 when facts->bond now holds a team, -ENOENT otherwise. */
int nd_probe_team(const struct nd_root *root, const char *ifname, struct nd_bond *b);

#endif
