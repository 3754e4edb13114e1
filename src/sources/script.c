/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * script.c - the source for the tarball `nicdoctor collect --script`
 * writes on a host without nicdoctor.  The script lays its files out as
 * sos does (version.txt says "nicdoctor-collect: VERSION"), so this table
 * is the sosreport's operations under its own name and description.
 */
#include "nicdoctor/bundle.h"
#include "sos.h"
#include "source_ops.h"

static bool script_detect(const struct nd_bundle *bundle)
{
	return bundle->from_script;
}

/* Messages name it as they always have ("the sosreport"). */
const struct nd_source_ops nd_source_script = {
	.name = "collect-script",
	.noun = "the sosreport",
	.detect = script_detect,
	ND_SOS_SHAPED_OPS,
};
