/*
 * state_dir_fixture.h - a private state directory for the journal tests:
 * NICDOCTOR_STATE_DIR points at a fresh mkdtemp directory (root-owned,
 * 0700, so the journal's owner and mode rules accept it), removed after.
 */
#ifndef NICDOCTOR_STATE_DIR_FIXTURE_H
#define NICDOCTOR_STATE_DIR_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char state_dir[64];

static int state_dir_setup(const char *template, const char *etc_dir)
{
	snprintf(state_dir, sizeof(state_dir), "%s", template);
	if (!mkdtemp(state_dir))
		return -1;
	setenv("NICDOCTOR_STATE_DIR", state_dir, 1);
	setenv("NICDOCTOR_ETC_DIR", etc_dir, 1);
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", state_dir);
	return system(cmd) == 0 ? 0 : -1;
}

#endif
