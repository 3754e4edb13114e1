/*
 * bond_common.h - readers over facts->bond shared by the bond checks:
 * whether a check applies, the members' speeds and the ceilings they
 * give (the bond's and a single flow's).  Pure, no I/O.
 */
#ifndef NICDOCTOR_CHECKS_BOND_COMMON_H
#define NICDOCTOR_CHECKS_BOND_COMMON_H

#include <stdbool.h>

#include "nicdoctor/check.h"
#include "nicdoctor/facts.h"

/* Whether a bond check goes on: false after finishing f as not
 * applicable ("not a bond") or unknown (the bond could not be read).  Adds evidence.mode
 * and evidence.source. */
bool nd_bond_check_begin(const struct nd_facts *facts, struct nd_finding *f);

/* A team whose runner teamd's state did not give: f finished unknown
 * with the reason, false.  The checks that judge by mode call it. */
bool nd_bond_runner_known(const struct nd_facts *facts, struct nd_finding *f);

/* What a title calls the mode: "runner lacp" for a team, else "mode
 * 802.3ad" ("mode (unknown)" when none). */
const char *nd_bond_mode_label(const struct nd_bond *b, char *buf, size_t size);

/* mii_status "up". */
bool nd_bond_member_up(const struct nd_bond_member *m);

/* TCP goodput of one member's speed at the bond's MTU; < 0 unknown. */
double nd_bond_member_goodput_mbps(const struct nd_facts *facts, const struct nd_bond_member *m);

/* Goodput of the members up (all of them, or only those of aggregator
 * agg_id when >= 0), and how many; < 0 when a speed is unknown. */
double nd_bond_up_goodput_mbps(const struct nd_facts *facts, int agg_id, unsigned *ret_up);

/* The lowest goodput of a member up: what one flow gets at most in
 * every mode but balance-rr; < 0 unknown. */
double nd_bond_flow_ceiling_mbps(const struct nd_facts *facts);

/* Modes that choose a member per packet by hashing the headers. */
bool nd_bond_mode_hashes(const char *mode);

/* evidence.members: [{name, mii_status, speed_mbps, aggregator_id, ...}]. */
void nd_bond_members_evidence(const struct nd_bond *bond, cJSON *evidence);

#endif
