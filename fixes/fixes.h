/*
 * fixes.h - the fix kinds, one per file in fixes/, for registry.c.
 */
#ifndef NICDOCTOR_FIXES_H
#define NICDOCTOR_FIXES_H

#include "nicdoctor/fix.h"

extern const struct nd_fix_kind nd_fix_kind_offloads;
extern const struct nd_fix_kind nd_fix_kind_rings;
extern const struct nd_fix_kind nd_fix_kind_channels;
extern const struct nd_fix_kind nd_fix_kind_rps;
extern const struct nd_fix_kind nd_fix_kind_irq_affinity;
extern const struct nd_fix_kind nd_fix_kind_sysctl;

/* Whether a finding at this severity calls for a kind's fix. */
bool nd_fix_finding_wants(const struct nd_fix_kind *kind, const struct nd_finding *finding);

/* Parse a canonical unsigned ("4"); -EINVAL when it is not one. */
int nd_fix_parse_unsigned(const char *text, unsigned *ret_value);

#endif
