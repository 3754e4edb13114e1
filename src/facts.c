/*
 * facts.c - small accessors over struct nd_facts shared by checks and reports.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "nicdoctor/facts.h"

void nd_status_set_known(struct nd_status *st)
{
	st->known = true;
	st->reason[0] = '\0';
}

void nd_status_set_unknown(struct nd_status *st, const char *fmt, ...)
{
	va_list ap;

	st->known = false;
	va_start(ap, fmt);
	vsnprintf(st->reason, sizeof(st->reason), fmt, ap);
	va_end(ap);
}

const struct nd_feature *nd_facts_feature(const struct nd_facts *facts, const char *name)
{
	if (!facts->features.st.known)
		return NULL;
	for (unsigned i = 0; i < facts->features.count && i < ND_MAX_FEATURES; i++)
		if (!strcmp(facts->features.f[i].name, name))
			return &facts->features.f[i];
	return NULL;
}

unsigned nd_facts_rx_queues(const struct nd_facts *facts)
{
	const struct nd_channels *ch = &facts->channels;

	/* Channels are what the driver uses; a device with separate rx and
	 * combined channels receives on both. */
	if (ch->st.known && (ch->combined || ch->rx))
		return ch->combined + ch->rx;
	/* sysfs has an rx-N directory per queue in use (real_num_rx_queues);
	 * rtnetlink's count is only what the device allocated. */
	if (facts->queues.st.known && facts->queues.n_rx)
		return facts->queues.n_rx;
	return 0;
}
