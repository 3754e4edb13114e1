/*
 * rps.c - fix kind "rps": spread receive processing of a queue over the
 * CPUs local to the NIC with queues/rx-N/rps_cpus; with --rfs also steer
 * flows to the consuming CPU (rx-N/rps_flow_cnt and
 * net.core.rps_sock_flow_entries, as the kernel's scaling.rst suggests).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "fixes.h"

/* scaling.rst: 32768 socket flow entries suit a moderately loaded server. */
#define RFS_SOCK_FLOW_ENTRIES 32768u
#define RFS_SYSCTL "net.core.rps_sock_flow_entries"

/* Kernel-style mask, leading zeros of the top word dropped ("3",
 * "1,00000000"): what a person types, and what the kernel accepts. */
static void mask_text(const struct nd_cpuset *set, char *buf, size_t size)
{
	char full[ND_FIX_VALUE_LEN];
	const char *p = full;

	nd_cpuset_format_mask(set, full, sizeof(full));
	while (p[0] == '0' && p[1] && p[1] != ',')
		p++;
	snprintf(buf, size, "%s", p);
}

static bool is_queue_key(const char *key)
{
	return !strncmp(key, "queues/rx-", strlen("queues/rx-")) && !strstr(key, "..");
}

static int add_queue_step(const struct nd_fix_ctx *ctx, const struct nd_finding *finding,
			  unsigned queue, const char *file, const char *current,
			  const char *target, struct nd_fix_plan *plan)
{
	struct nd_fix_step step = { .kind = &nd_fix_kind_rps };

	snprintf(step.key, sizeof(step.key), "queues/rx-%u/%s", queue, file);
	snprintf(step.what, sizeof(step.what), "rx-%u %s", queue, file);
	snprintf(step.current, sizeof(step.current), "%s", current);
	snprintf(step.target, sizeof(step.target), "%s", target);
	snprintf(step.finding_id, sizeof(step.finding_id), "%s", finding->id);
	nd_fix_step_command(&step, "echo %s > /sys/class/net/%s/%s", target, ctx->facts->ifname,
			    step.key);
	return nd_fix_plan_add(plan, &step);
}

static int plan_rfs(const struct nd_fix_ctx *ctx, const struct nd_finding *finding,
		    struct nd_fix_plan *plan)
{
	const struct nd_queue_sysfs *q = &ctx->facts->queues;
	const struct nd_sysctl *ctl = &ctx->facts->sysctl.rps_sock_flow_entries;
	unsigned per_queue = RFS_SOCK_FLOW_ENTRIES / (q->n_rx ? q->n_rx : 1), now = 0;
	struct nd_fix_step step = { .kind = &nd_fix_kind_rps };
	char current[32], target[32];
	int r = 0;

	for (unsigned i = 0; i < q->n_rx && i < ND_MAX_QUEUES && r == 0; i++) {
		if (q->rps_flow_cnt[i] >= per_queue)
			continue;
		snprintf(current, sizeof(current), "%u", q->rps_flow_cnt[i]);
		snprintf(target, sizeof(target), "%u", per_queue);
		r = add_queue_step(ctx, finding, i, "rps_flow_cnt", current, target, plan);
	}
	if (r < 0 || !ctl->known || nd_fix_parse_unsigned(ctl->text, &now) < 0 ||
	    now >= RFS_SOCK_FLOW_ENTRIES)
		return r;
	snprintf(step.key, sizeof(step.key), RFS_SYSCTL);
	snprintf(step.what, sizeof(step.what), "sysctl " RFS_SYSCTL);
	snprintf(step.current, sizeof(step.current), "%u", now);
	snprintf(step.target, sizeof(step.target), "%u", RFS_SOCK_FLOW_ENTRIES);
	snprintf(step.finding_id, sizeof(step.finding_id), "%s", finding->id);
	nd_fix_step_command(&step, "sysctl -w %s=%u", RFS_SYSCTL, RFS_SOCK_FLOW_ENTRIES);
	return nd_fix_plan_add(plan, &step);
}

static int rps_plan(const struct nd_fix_ctx *ctx, const struct nd_finding *finding,
		    struct nd_fix_plan *plan)
{
	const struct nd_queue_sysfs *q = &ctx->facts->queues;
	char current[ND_FIX_VALUE_LEN], target[ND_FIX_VALUE_LEN];
	int r = 0;

	if (!q->st.known) {
		nd_fix_plan_note(plan, "rps: cannot plan, %s", q->st.reason);
		return 0;
	}
	if (ctx->n_local_cpus < 2)
		return 0;
	mask_text(&ctx->local_cpus, target, sizeof(target));
	/* Only queues nobody configured: a mask someone chose is left alone. */
	for (unsigned i = 0; i < q->n_rx && i < ND_MAX_QUEUES && r == 0; i++) {
		if (!nd_cpuset_empty(&q->rps_cpus[i]))
			continue;
		mask_text(&q->rps_cpus[i], current, sizeof(current));
		r = add_queue_step(ctx, finding, i, "rps_cpus", current, target, plan);
	}
	if (r == 0 && ctx->opts->rfs)
		r = plan_rfs(ctx, finding, plan);
	return r;
}

static int rps_get(const char *ifname, const char *key, char *ret_value, size_t size)
{
	char path[PATH_MAX], text[ND_FIX_VALUE_LEN];
	struct nd_cpuset set;
	int r;

	if (!strcmp(key, RFS_SYSCTL))
		return nd_fix_sysctl_get(key, ret_value, size);
	if (!is_queue_key(key))
		return -EINVAL;
	snprintf(path, sizeof(path), "/sys/class/net/%s/%s", ifname, key);
	r = nd_fix_read_file(path, text, sizeof(text));
	if (r < 0)
		return r;
	if (!strstr(key, "/rps_cpus")) {
		snprintf(ret_value, size, "%s", text);
		return 0;
	}
	r = nd_cpuset_parse_mask(text, &set);
	if (r < 0)
		return r;
	mask_text(&set, ret_value, size);
	return 0;
}

static int rps_set(const char *ifname, const char *key, const char *value)
{
	char path[PATH_MAX];

	if (!strcmp(key, RFS_SYSCTL))
		return nd_fix_sysctl_set(key, value);
	if (!is_queue_key(key))
		return -EINVAL;
	snprintf(path, sizeof(path), "/sys/class/net/%s/%s", ifname, key);
	return nd_fix_write_file(path, value);
}

static int rps_persist(const char *udev_match, const struct nd_fix_step *step,
		       struct nd_fix_persist_text *out)
{
	if (!strcmp(step->key, RFS_SYSCTL))
		return nd_fix_appendf(&out->text[ND_PERSIST_SYSCTL], "%s = %s\n", step->key,
				      step->target);
	return nd_fix_appendf(&out->text[ND_PERSIST_UDEV],
			      "ACTION==\"add\", SUBSYSTEM==\"net\", %s, "
			      "ATTR{%s}=\"%s\"\n", udev_match, step->key, step->target);
}

/* queues/rx-N/rps_cpus (a hex mask), queues/rx-N/rps_flow_cnt and the RFS
 * sysctl (numbers): the files rps_plan writes, nothing else under the
 * interface's directory. */
static int rps_check(const char *key, const char *value)
{
	const char *p = key + strlen("queues/rx-"), *slash;
	unsigned queue, number;
	char digits[16];

	if (!strcmp(key, RFS_SYSCTL))
		return nd_fix_parse_unsigned(value, &number) < 0 ? -EINVAL : 0;
	if (strncmp(key, "queues/rx-", strlen("queues/rx-")) || !(slash = strchr(p, '/')) ||
	    (size_t)(slash - p) >= sizeof(digits))
		return -EINVAL;
	memcpy(digits, p, (size_t)(slash - p));
	digits[slash - p] = '\0';
	if (nd_fix_parse_unsigned(digits, &queue) < 0)
		return -EINVAL;
	if (!strcmp(slash, "/rps_cpus"))
		return nd_fix_chars_only(value, "0123456789abcdefABCDEF,") ? 0 : -EINVAL;
	if (!strcmp(slash, "/rps_flow_cnt"))
		return nd_fix_parse_unsigned(value, &number) < 0 ? -EINVAL : 0;
	return -EINVAL;
}

static const char *const rps_checks[] = { "rps.off_single_queue", NULL };

const struct nd_fix_kind nd_fix_kind_rps = {
	.name = "rps",
	.check_ids = rps_checks,
	.plan = rps_plan,
	.get = rps_get,
	.set = rps_set,
	.persist = rps_persist,
	.check = rps_check,
};
