/*
 * checks.h - the check functions, one per file in checks/, for registry.c.
 */
#ifndef NICDOCTOR_CHECKS_H
#define NICDOCTOR_CHECKS_H

#include "nicdoctor/check.h"

void nd_check_pcie_link_downgraded(const struct nd_facts *facts, struct nd_finding *f);
void nd_check_queues_single(const struct nd_facts *facts, struct nd_finding *f);
void nd_check_rps_off_single_queue(const struct nd_facts *facts, struct nd_finding *f);
void nd_check_irq_concentrated(const struct nd_facts *facts, struct nd_finding *f);

#endif
