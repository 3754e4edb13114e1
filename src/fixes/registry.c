/*
 * registry.c - the one table of fix kinds.  Order is apply order: device
 * settings first (the link, offloads, rings), then the queue count, then what
 * depends on the queues (RPS masks, IRQ affinity), then global sysctls.
 * Revert walks the journal backwards, so rx-N directories that a channel
 * change created are still there when their RPS masks are restored.
 */
#include <string.h>

#include "nicdoctor/common.h"
#include "fixes.h"

const struct nd_fix_kind *const nd_fix_kinds[] = {
	&nd_fix_kind_link,
	&nd_fix_kind_offloads,
	&nd_fix_kind_rings,
	&nd_fix_kind_channels,
	&nd_fix_kind_rps,
	&nd_fix_kind_irq_affinity,
	&nd_fix_kind_pcie_aspm,
	&nd_fix_kind_sysctl,
};

const unsigned nd_fix_kinds_count = ND_ARRAY_SIZE(nd_fix_kinds);

const struct nd_fix_kind *nd_fix_kind_find(const char *name)
{
	for (unsigned i = 0; i < nd_fix_kinds_count; i++)
		if (!strcmp(nd_fix_kinds[i]->name, name))
			return nd_fix_kinds[i];
	return NULL;
}

const struct nd_fix_kind *nd_fix_kind_for_check(const char *check_id)
{
	for (unsigned i = 0; i < nd_fix_kinds_count; i++)
		for (const char *const *id = nd_fix_kinds[i]->check_ids; *id; id++)
			if (!strcmp(*id, check_id))
				return nd_fix_kinds[i];
	return NULL;
}

bool nd_fix_finding_wants(const struct nd_fix_kind *kind, const struct nd_finding *finding)
{
	if (finding->skipped)
		return false;
	if (finding->severity == ND_SEV_WARNING || finding->severity == ND_SEV_CRITICAL)
		return true;
	/* A sysctl finding may be info ("low for a long fat pipe") and still
	 * carry a fix worth offering. */
	return kind->info_too && finding->severity == ND_SEV_INFO &&
	       (finding->fix.id[0] || finding->fix.n_commands);
}
