/*
 * registry.c - the one table of checks.  Order is report order; IDs are
 * public interface (nicdoctor(8)) and never renamed.
 */
#include "nicdoctor/check.h"
#include "nicdoctor/common.h"
#include "checks.h"

const struct nd_check nd_checks[] = {
	{ "pcie.link_downgraded", "PCIe link trained below the card's capability (LnkSta < LnkCap)",
	  nd_check_pcie_link_downgraded },
	{ "queues.single", "one RX queue on a multi-CPU host while the device allows more",
	  nd_check_queues_single },
	{ "rps.off_single_queue", "one RX queue and no RPS: one CPU does all receive work",
	  nd_check_rps_off_single_queue },
	{ "irq.concentrated", "every queue interrupt of the NIC served by one CPU",
	  nd_check_irq_concentrated },
};

const unsigned nd_checks_count = ND_ARRAY_SIZE(nd_checks);
