/*
 * check.c - helpers for check bodies: a finding's severity, title, fix,
 * ceiling; severity and verdict names; the wire ceiling of the facts.
 * Running the checks is run.c.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "nicdoctor/ceiling.h"
#include "nicdoctor/check.h"
#include "nicdoctor/common.h"
#include "virt_common.h"

void nd_finding_free(struct nd_finding *f)
{
	cJSON_Delete(f->evidence);
	cJSON_Delete(f->experiment);
	f->evidence = NULL;
	f->experiment = NULL;
}

void nd_finding_set(struct nd_finding *f, enum nd_severity sev, const char *fmt, ...)
{
	va_list ap;

	f->severity = sev;
	va_start(ap, fmt);
	vsnprintf(f->title, sizeof(f->title), fmt, ap);
	va_end(ap);
}

void nd_finding_not_applicable(struct nd_finding *f, const char *fmt, ...)
{
	va_list ap;

	f->severity = ND_SEV_OK;
	f->not_applicable = true;
	va_start(ap, fmt);
	vsnprintf(f->title, sizeof(f->title), fmt, ap);
	va_end(ap);
}

void nd_finding_unknown(struct nd_finding *f, const char *fact, const char *reason)
{
	nd_finding_set(f, ND_SEV_UNKNOWN, "cannot tell: %s unknown", fact);
	cJSON_AddStringToObject(f->evidence, "missing", fact);
	cJSON_AddStringToObject(f->evidence, "reason", reason && *reason ? reason : "not read");
}

void nd_finding_fix(struct nd_finding *f, const char *fix_id, const char *fmt, ...)
{
	va_list ap;

	if (!f->fix.id[0])
		nd_strlcpy(f->fix.id, fix_id, sizeof(f->fix.id));
	if (f->fix.n_commands >= ND_FIX_MAX_COMMANDS)
		return;
	va_start(ap, fmt);
	vsnprintf(f->fix.commands[f->fix.n_commands], sizeof(f->fix.commands[0]), fmt, ap);
	va_end(ap);
	f->fix.n_commands++;
}

void nd_finding_ceiling(struct nd_finding *f, const char *source, double mbps)
{
	f->ceiling_mbps = round(mbps);
	nd_strlcpy(f->ceiling_source, source, sizeof(f->ceiling_source));
}

const char *nd_severity_name(enum nd_severity sev)
{
	static const char *const names[] = { "ok", "info", "unknown", "warning", "critical" };

	return (unsigned)sev < ND_ARRAY_SIZE(names) ? names[sev] : "unknown";
}

const char *nd_verdict_name(enum nd_verdict v)
{
	static const char *const names[] = { "untested", "confirmed", "refuted", "inconclusive" };

	return (unsigned)v < ND_ARRAY_SIZE(names) ? names[v] : "untested";
}

double nd_facts_wire_ceiling_mbps(const struct nd_facts *facts)
{
	const struct nd_stack *s = &facts->stack;

	/* An emulated model's speed is a label: no wire behind it. */
	if (nd_nic_speed_is_label(facts, NULL, 0))
		return -1;
	if (nd_stack_is_upper(s)) {
		/* The physical lower's wire, less what each frame carries more. */
		if (!s->wire_known || s->via_speed_mbps <= 0 || !facts->link.st.known)
			return -1;
		return nd_ceiling_wire_encap_mbps((double)s->via_speed_mbps, facts->link.mtu,
						  s->encap_bytes, ND_L4_TCP);
	}
	if (!facts->linkmodes.st.known || facts->linkmodes.speed_mbps <= 0 ||
	    !facts->link.st.known)
		return -1;
	return nd_ceiling_wire_mbps((double)facts->linkmodes.speed_mbps, facts->link.mtu,
				    ND_L4_TCP);
}
