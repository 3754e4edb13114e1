/*
 * check.h - findings and the check registry.
 *
 * A check is a pure function facts -> one finding.  It never does I/O; it
 * fills evidence (a cJSON object of the numbers that decided it), a ceiling
 * where one can be computed, and the fix a person would type.
 */
#ifndef NICDOCTOR_CHECK_H
#define NICDOCTOR_CHECK_H

#include <stdbool.h>
#include <stdint.h>
#include <cjson/cJSON.h>

#include "nicdoctor/facts.h"

enum nd_severity {
	ND_SEV_OK = 0,
	ND_SEV_INFO,
	ND_SEV_UNKNOWN,
	ND_SEV_WARNING,
	ND_SEV_CRITICAL,
};

enum nd_verdict {
	ND_VERDICT_UNTESTED = 0,
	ND_VERDICT_CONFIRMED,
	ND_VERDICT_REFUTED,
	ND_VERDICT_INCONCLUSIVE,
};

#define ND_FIX_MAX_COMMANDS 16
#define ND_TITLE_LEN 200

struct nd_fix_hint {
	char id[32];				/* "channels", "rps", ... ; "" none */
	unsigned n_commands;
	char commands[ND_FIX_MAX_COMMANDS][160];
};

struct nd_finding {
	const char *id;				/* check ID, static */
	enum nd_severity severity;
	bool skipped;				/* --skip / --only */
	bool not_applicable;			/* the check does not apply here
						 * (a bond check on a non-bond, a
						 * PCIe check on a platform device):
						 * severity OK, title says why */
	char title[ND_TITLE_LEN];
	cJSON *evidence;			/* object, owned */
	double ceiling_mbps;			/* < 0: none */
	char ceiling_source[24];		/* "pcie", "wire", "shaping", "window" */
	enum nd_verdict verdict;
	cJSON *experiment;			/* object or NULL, owned */
	/* The verdict changed the severity (a refuted suspect is info, a
	 * confirmed tool.* finding a warning): what the check had said. */
	bool severity_by_verdict;
	enum nd_severity severity_before_verdict;
	char explained_by[48];			/* the confirmed cause of this effect, "" none */
	struct nd_fix_hint fix;
};

typedef void (*nd_check_fn)(const struct nd_facts *facts, struct nd_finding *f);

struct nd_check {
	const char *id;				/* stable, public */
	const char *help;			/* one line for `nicdoctor checks` */
	nd_check_fn run;
};

/* The registry, in report order. */
extern const struct nd_check nd_checks[];
extern const unsigned nd_checks_count;

const struct nd_check *nd_check_find(const char *id);

/* Every registered check on facts, in the registry's order, into a new
 * array of nd_checks_count findings (skip/only: comma lists of IDs, NULL
 * for none; a skipped check's finding is marked skipped).  -EINVAL with
 * the unknown ID in bad_id, -ENOMEM. */
int nd_checks_run(const struct nd_facts *facts, const char *skip, const char *only,
		  struct nd_finding **ret_findings, char *bad_id, size_t bad_id_size);
/* The first n findings judged again on facts that changed (a counter
 * window was measured); skipped ones stay skipped. */
void nd_checks_rerun(const struct nd_facts *facts, struct nd_finding *findings, unsigned n);

/* Run one check into f (initialised here). */
void nd_check_run(const struct nd_check *check, const struct nd_facts *facts,
		  struct nd_finding *f);
void nd_finding_free(struct nd_finding *f);

/* Helpers for check bodies. */
void nd_finding_set(struct nd_finding *f, enum nd_severity sev, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The check does not apply to this interface: severity OK, marked
 * not_applicable, the title says why ("not a bond"). */
void nd_finding_not_applicable(struct nd_finding *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Severity unknown, naming the missing fact in evidence.missing and why. */
void nd_finding_unknown(struct nd_finding *f, const char *fact, const char *reason);
void nd_finding_fix(struct nd_finding *f, const char *fix_id, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void nd_finding_ceiling(struct nd_finding *f, const char *source, double mbps);

const char *nd_severity_name(enum nd_severity sev);
const char *nd_verdict_name(enum nd_verdict v);


/* The wire goodput ceiling of this interface (TCP), < 0 when unknown. */
double nd_facts_wire_ceiling_mbps(const struct nd_facts *facts);

#endif
