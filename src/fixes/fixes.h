/*
 * fixes.h - the fix kinds, one per file in fixes/, for registry.c.
 */
#ifndef NICDOCTOR_FIXES_H
#define NICDOCTOR_FIXES_H

#include "nicdoctor/fix.h"

extern const struct nd_fix_kind nd_fix_kind_link;
extern const struct nd_fix_kind nd_fix_kind_offloads;
extern const struct nd_fix_kind nd_fix_kind_rings;
extern const struct nd_fix_kind nd_fix_kind_channels;
extern const struct nd_fix_kind nd_fix_kind_rps;
extern const struct nd_fix_kind nd_fix_kind_irq_affinity;
extern const struct nd_fix_kind nd_fix_kind_pcie_aspm;
extern const struct nd_fix_kind nd_fix_kind_sysctl;

/* Whether a finding at this severity calls for a kind's fix. */
bool nd_fix_finding_wants(const struct nd_fix_kind *kind, const struct nd_finding *finding);

/* Parse a canonical unsigned ("4"); -EINVAL when it is not one. */
int nd_fix_parse_unsigned(const char *text, unsigned *ret_value);

/* A non-empty text made of these characters only (journal_check.c). */
bool nd_fix_chars_only(const char *text, const char *allowed);

/* knob.c: u32 ethtool settings (channels, rings) as a table. */
struct nd_fix_knob {
	const char *key;		/* also the ethtool -L / -G word */
	const char *link_key;		/* systemd.link */
	int attr;			/* ETHTOOL_A_*_ */
	size_t value_off, max_off;	/* in the facts group */
};

struct nd_fix_knobs {
	size_t facts_off;		/* the group in struct nd_facts (starts with st) */
	int set_cmd, header_attr;	/* ETHTOOL_MSG_*_SET, ETHTOOL_A_*_HEADER */
	const struct nd_fix_knob *knobs;
	size_t count;
};

const struct nd_fix_knob *nd_fix_knob_find(const struct nd_fix_knobs *g, const char *key);
unsigned nd_fix_knob_value(const struct nd_fix_knobs *g, const struct nd_facts *facts,
			   size_t off);
int nd_fix_knob_get(const struct nd_fix_knobs *g, const char *ifname, const char *key,
		    char *ret_value, size_t size);
int nd_fix_knob_set(const struct nd_fix_knobs *g, const char *ifname, const char *key,
		    const char *value);
/* A knob of the table and an unsigned value: what a journal may name. */
int nd_fix_knob_check(const struct nd_fix_knobs *g, const char *key, const char *value);
int nd_fix_knob_persist(const struct nd_fix_knobs *g, const struct nd_fix_step *step,
			struct nd_fix_persist_text *out);

#endif
