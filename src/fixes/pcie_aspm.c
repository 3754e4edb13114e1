/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pcie_aspm.c - fix kind "pcie_aspm": turn off the ASPM state that
 * pcie.aspm_latency found over the NIC's latency budget, per link,
 * through /sys/bus/pci/devices/ADDR/link/l1_aspm or l0s_aspm (Linux 5.5
 * and later, CONFIG_PCIEASPM, the OS in control of ASPM).  The links and
 * states are the ones the finding's commands name, so fix and finding
 * agree; a kernel without link/ leaves the step failing with ENOENT and
 * the finding's comments say what else to do.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "fixes.h"

#define ASPM_ADDR_LEN 12			/* "0000:03:00.0" */

/* "0000:03:00.0", lower-case hex only: it becomes part of a path. */
static bool pci_address_ok(const char *a, size_t len)
{
	static const char shape[] = "hhhh:hh:hh.h";

	if (len != ASPM_ADDR_LEN)
		return false;
	for (size_t i = 0; i < len; i++) {
		bool hex = (a[i] >= '0' && a[i] <= '9') || (a[i] >= 'a' && a[i] <= 'f');

		if (shape[i] == 'h' ? !hex : a[i] != shape[i])
			return false;
	}
	return a[11] <= '7';
}

/* "pci/0000:03:00.0/l1_aspm" -> the sysfs path; -EINVAL for anything else. */
static int key_path(const char *key, char *path, size_t size)
{
	const char *addr = key + 4, *state = key + 4 + ASPM_ADDR_LEN + 1;

	if (strncmp(key, "pci/", 4) || strlen(key) < 4 + ASPM_ADDR_LEN + 1 ||
	    !pci_address_ok(addr, ASPM_ADDR_LEN) || key[4 + ASPM_ADDR_LEN] != '/' ||
	    (strcmp(state, "l1_aspm") && strcmp(state, "l0s_aspm")))
		return -EINVAL;
	snprintf(path, size, "/sys/bus/pci/devices/%.*s/link/%s", ASPM_ADDR_LEN, addr, state);
	return 0;
}

static int aspm_plan(const struct nd_fix_ctx *ctx, const struct nd_finding *finding,
		     struct nd_fix_plan *plan)
{
	int r = 0;

	(void)ctx;
	for (unsigned i = 0; i < finding->fix.n_commands && i < ND_FIX_MAX_COMMANDS && r == 0;
	     i++) {
		struct nd_fix_step step = { .kind = &nd_fix_kind_pcie_aspm };
		char addr[ASPM_ADDR_LEN + 1], state[9], path[PATH_MAX];
		int end = 0;

		if (sscanf(finding->fix.commands[i],
			   "echo 0 > /sys/bus/pci/devices/%12[0-9a-f:.]/link/%8[a-z0-9_]%n",
			   addr, state, &end) != 2 || finding->fix.commands[i][end])
			continue;
		snprintf(step.key, sizeof(step.key), "pci/%s/%s", addr, state);
		if (key_path(step.key, path, sizeof(path)) < 0)
			continue;
		snprintf(step.what, sizeof(step.what), "%s ASPM %s", addr,
			 strcmp(state, "l1_aspm") ? "L0s" : "L1");
		/* The check names a state only when LnkCtl has it on. */
		snprintf(step.current, sizeof(step.current), "1");
		snprintf(step.target, sizeof(step.target), "0");
		snprintf(step.finding_id, sizeof(step.finding_id), "%s", finding->id);
		nd_fix_step_command(&step, "echo 0 > %s", path);
		r = nd_fix_plan_add(plan, &step);
	}
	return r;
}

static int aspm_get(const char *ifname, const char *key, char *ret_value, size_t size)
{
	char path[PATH_MAX];
	int r = key_path(key, path, sizeof(path));

	(void)ifname;
	return r < 0 ? r : nd_fix_read_file(path, ret_value, size);
}

static int aspm_set(const char *ifname, const char *key, const char *value)
{
	char path[PATH_MAX];
	int r = key_path(key, path, sizeof(path));

	(void)ifname;
	if (r < 0)
		return r;
	if (strcmp(value, "0") && strcmp(value, "1"))
		return -EINVAL;
	return nd_fix_write_file(path, value);
}

static int aspm_persist(const char *udev_match, const struct nd_fix_step *step,
			struct nd_fix_persist_text *out)
{
	char path[PATH_MAX];

	if (key_path(step->key, path, sizeof(path)) < 0)
		return -EINVAL;
	return nd_fix_appendf(&out->text[ND_PERSIST_UDEV],
			      "ACTION==\"add\", SUBSYSTEM==\"net\", %s, "
			      "RUN+=\"/bin/sh -c 'echo %s > %s'\"\n", udev_match, step->target, path);
}

static int aspm_check(const char *key, const char *value)
{
	char path[PATH_MAX];

	if (key_path(key, path, sizeof(path)) < 0 || (strcmp(value, "0") && strcmp(value, "1")))
		return -EINVAL;
	return 0;
}

static const char *const aspm_checks[] = { "pcie.aspm_latency", NULL };

const struct nd_fix_kind nd_fix_kind_pcie_aspm = {
	.name = "pcie_aspm",
	.check_ids = aspm_checks,
	.plan = aspm_plan,
	.get = aspm_get,
	.set = aspm_set,
	.persist = aspm_persist,
	.check = aspm_check,
};
