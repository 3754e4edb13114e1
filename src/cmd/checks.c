/*
 * checks.c - `nicdoctor checks`: every check ID with its one-line help.
 */
#include <stdio.h>

#include "nicdoctor/check.h"
#include "nicdoctor/cmd.h"
#include "nicdoctor/common.h"

int cmd_checks(int argc, char **argv)
{
	if (argc > 1) {
		nd_err("checks takes no arguments (got '%s')", argv[1]);
		return ND_EXIT_USAGE;
	}
	for (unsigned i = 0; i < nd_checks_count; i++)
		printf("%-28s %s\n", nd_checks[i].id, nd_checks[i].help);
	return ND_EXIT_OK;
}
