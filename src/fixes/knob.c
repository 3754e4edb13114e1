/*
 * knob.c - the u32 ethtool settings that channels and rings share: a table
 * of {key, systemd.link key, netlink attribute, offsets into the facts
 * group}, read back through the probe and written with one *_SET message.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nicdoctor/probe.h"
#include "fixes.h"

const struct nd_fix_knob *nd_fix_knob_find(const struct nd_fix_knobs *g, const char *key)
{
	for (size_t i = 0; i < g->count; i++)
		if (!strcmp(g->knobs[i].key, key))
			return &g->knobs[i];
	return NULL;
}

/* The group inside facts: it starts with its nd_status. */
static const char *group_of(const struct nd_fix_knobs *g, const struct nd_facts *facts)
{
	return (const char *)facts + g->facts_off;
}

unsigned nd_fix_knob_value(const struct nd_fix_knobs *g, const struct nd_facts *facts,
			   size_t off)
{
	return *(const unsigned *)(group_of(g, facts) + off);
}

int nd_fix_knob_get(const struct nd_fix_knobs *g, const char *ifname, const char *key,
		    char *ret_value, size_t size)
{
	const struct nd_fix_knob *knob = nd_fix_knob_find(g, key);
	struct nd_facts *facts;
	int r;

	if (!knob)
		return -EINVAL;
	r = nd_fix_read_ethtool(ifname, &facts);
	if (r < 0)
		return r;
	if (((const struct nd_status *)group_of(g, facts))->known)
		snprintf(ret_value, size, "%u", nd_fix_knob_value(g, facts, knob->value_off));
	else
		r = -ENODATA;
	nd_facts_free(facts);
	return r;
}

int nd_fix_knob_set(const struct nd_fix_knobs *g, const char *ifname, const char *key,
		    const char *value)
{
	const struct nd_fix_knob *knob = nd_fix_knob_find(g, key);
	unsigned number;

	if (!knob || nd_fix_parse_unsigned(value, &number) < 0)
		return -EINVAL;
	return nd_fix_ethtool_set_u32(ifname, g->set_cmd, g->header_attr, knob->attr, number);
}

int nd_fix_knob_check(const struct nd_fix_knobs *g, const char *key, const char *value)
{
	unsigned number;

	if (!nd_fix_knob_find(g, key) || nd_fix_parse_unsigned(value, &number) < 0)
		return -EINVAL;
	return 0;
}

int nd_fix_knob_persist(const struct nd_fix_knobs *g, const struct nd_fix_step *step,
			struct nd_fix_persist_text *out)
{
	const struct nd_fix_knob *knob = nd_fix_knob_find(g, step->key);

	if (!knob)
		return -EINVAL;
	return nd_fix_appendf(&out->text[ND_PERSIST_LINK], "%s=%s\n", knob->link_key,
			      step->target);
}
