/*
 * facts_json.h - facts to and from JSON.
 *
 * Used by `collect` (DIR/ethtool/IF.json holds the netlink groups, which
 * have no file in /sys), by the sysroot probe to read them back, and by the
 * JSON report.  Reading is defensive: the file may come from any machine.
 */
#ifndef NICDOCTOR_FACTS_JSON_H
#define NICDOCTOR_FACTS_JSON_H

#include <cjson/cJSON.h>

#include "nicdoctor/facts.h"

/* The netlink groups: link, qdisc, linkmodes, channels, features, rings,
 * coalesce, pause, rss, nicstats, drvinfo.  Unknown groups carry
 * {"known":false,"reason":"..."}. */
cJSON *nd_facts_netlink_to_json(const struct nd_facts *facts);
/* Fill those groups; a group missing or malformed becomes unknown with a
 * reason.  0, or -EINVAL when json is not an object. */
int nd_facts_netlink_from_json(const cJSON *json, struct nd_facts *facts);

/* Every group, for the report's "facts" and the far end (peer) exchange. */
cJSON *nd_facts_to_json(const struct nd_facts *facts);
int nd_facts_from_json(const cJSON *json, struct nd_facts *facts);

#endif
