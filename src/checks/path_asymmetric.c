/*
 * path_asymmetric.c - path.asymmetric: forward and reverse differ by more
 * than a fifth.  Only traffic can tell: the facts say nothing of the
 * path, so without diagnose --peer the check does not apply; the runs
 * judge it (src/experiment/verdict_severity.c), and a confirmed cause
 * that limits one direction only explains it.  Registered so that every
 * ID a report holds is in `nicdoctor checks` and taken by --skip.
 */
#include "checks.h"

void nd_check_path_asymmetric(const struct nd_facts *facts, struct nd_finding *f)
{
	(void)facts;
	nd_finding_not_applicable(f, "judged only by traffic: diagnose --peer compares the "
				  "forward and reverse runs");
}
