/*
 * sysctl.c - fix kind "sysctl": socket buffer maxima sized to twice the
 * bandwidth-delay product (net.core.rmem_max/wmem_max and the third field
 * of tcp_rmem/tcp_wmem), and net.core.netdev_max_backlog when the softnet
 * backlog dropped packets.  Only ever raises a value.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "fixes.h"

#define ASSUMED_SPEED_MBPS 10000
#define BUFFER_ROUND_BYTES (1ull << 20)

/* 2 x bandwidth x RTT in bytes, rounded up to a MiB. */
static unsigned long long buffer_target(const struct nd_fix_ctx *ctx, struct nd_fix_plan *plan)
{
	int64_t speed_mbps = ctx->facts->linkmodes.st.known ? ctx->facts->linkmodes.speed_mbps : -1;
	unsigned long long bytes;

	if (speed_mbps <= 0)
		speed_mbps = ASSUMED_SPEED_MBPS;
	/* Mbit/s x usec = bits; x2 / 8 bits per byte. */
	bytes = (unsigned long long)((double)speed_mbps * plan->rtt_usec / 4.0);
	bytes = (bytes + BUFFER_ROUND_BYTES - 1) / BUFFER_ROUND_BYTES * BUFFER_ROUND_BYTES;
	nd_fix_plan_note(plan, "socket buffers sized to 2 x %" PRId64 " Mbit/s%s x RTT %.1f ms%s "
			 "= %llu bytes", speed_mbps,
			 ctx->facts->linkmodes.st.known && ctx->facts->linkmodes.speed_mbps > 0 ?
			 "" : " (speed unknown, assumed)", plan->rtt_usec / 1000.0,
			 plan->rtt_measured ? " (measured)" : " (default; --peer measures it)",
			 bytes);
	return bytes;
}

static int add_step(const struct nd_fix_ctx *ctx, const struct nd_finding *finding,
		    const char *name, const char *current, const char *target,
		    struct nd_fix_plan *plan)
{
	struct nd_fix_step step = { .kind = &nd_fix_kind_sysctl };

	(void)ctx;
	snprintf(step.key, sizeof(step.key), "%s", name);
	snprintf(step.what, sizeof(step.what), "sysctl %s", name);
	snprintf(step.current, sizeof(step.current), "%s", current);
	snprintf(step.target, sizeof(step.target), "%s", target);
	snprintf(step.finding_id, sizeof(step.finding_id), "%s", finding->id);
	nd_fix_step_command(&step, strchr(target, ' ') ? "sysctl -w %s='%s'" : "sysctl -w %s=%s",
			    name, target);
	return nd_fix_plan_add(plan, &step);
}

/* A single-number sysctl raised to at least `want`. */
static int raise_number(const struct nd_fix_ctx *ctx, const struct nd_finding *finding,
			const char *name, const struct nd_sysctl *ctl, unsigned long long want,
			struct nd_fix_plan *plan)
{
	unsigned long long now;
	char target[32];

	if (!ctl->known || sscanf(ctl->text, "%llu", &now) != 1) {
		nd_fix_plan_note(plan, "sysctl: cannot plan %s, %s", name,
				 ctl->known ? "not a number" : ctl->reason);
		return 0;
	}
	if (now >= want)
		return 0;
	snprintf(target, sizeof(target), "%llu", want);
	return add_step(ctx, finding, name, ctl->text, target, plan);
}

/* "min default max": raise max only. */
static int raise_triple(const struct nd_fix_ctx *ctx, const struct nd_finding *finding,
			const char *name, const struct nd_sysctl *ctl, unsigned long long want,
			struct nd_fix_plan *plan)
{
	unsigned long long lo, def, max;
	char current[64], target[96];

	if (!ctl->known || sscanf(ctl->text, "%llu %llu %llu", &lo, &def, &max) != 3)
		return 0;
	if (max >= want)
		return 0;
	snprintf(current, sizeof(current), "%llu %llu %llu", lo, def, max);
	snprintf(target, sizeof(target), "%llu %llu %llu", lo, def, want);
	return add_step(ctx, finding, name, current, target, plan);
}

static int sysctl_plan(const struct nd_fix_ctx *ctx, const struct nd_finding *finding,
		       struct nd_fix_plan *plan)
{
	const struct nd_sysctls *s = &ctx->facts->sysctl;
	unsigned long long backlog = 0;
	int r;

	if (!strcmp(finding->id, "sysctl.rmem_max_low")) {
		unsigned long long want = buffer_target(ctx, plan);

		r = raise_number(ctx, finding, "net.core.rmem_max", &s->rmem_max, want, plan);
		return r < 0 ? r : raise_triple(ctx, finding, "net.ipv4.tcp_rmem", &s->tcp_rmem,
						want, plan);
	}
	if (!strcmp(finding->id, "sysctl.wmem_max_low")) {
		unsigned long long want = buffer_target(ctx, plan);

		r = raise_number(ctx, finding, "net.core.wmem_max", &s->wmem_max, want, plan);
		return r < 0 ? r : raise_triple(ctx, finding, "net.ipv4.tcp_wmem", &s->tcp_wmem,
						want, plan);
	}
	/* sysctl.backlog_low, softnet.dropped: the value the checks name. */
	if (s->netdev_max_backlog.known)
		sscanf(s->netdev_max_backlog.text, "%llu", &backlog);
	backlog = nd_softnet_backlog_suggest(ctx->facts, backlog);
	return raise_number(ctx, finding, "net.core.netdev_max_backlog", &s->netdev_max_backlog,
			    backlog, plan);
}

static int sysctl_get(const char *ifname, const char *key, char *ret_value, size_t size)
{
	(void)ifname;
	return nd_fix_sysctl_get(key, ret_value, size);
}

static int sysctl_set(const char *ifname, const char *key, const char *value)
{
	(void)ifname;
	return nd_fix_sysctl_set(key, value);
}

static int sysctl_persist(const char *udev_match, const struct nd_fix_step *step,
			  struct nd_fix_persist_text *out)
{
	(void)udev_match;
	return nd_fix_appendf(&out->text[ND_PERSIST_SYSCTL], "%s = %s\n", step->key,
			      step->target);
}

/* The sysctls sysctl_plan names, with one number or "min default max". */
static int sysctl_check(const char *key, const char *value)
{
	static const char *const numbers[] = { "net.core.rmem_max", "net.core.wmem_max",
					       "net.core.netdev_max_backlog" };
	static const char *const triples[] = { "net.ipv4.tcp_rmem", "net.ipv4.tcp_wmem" };
	unsigned long long a, b, c;
	unsigned number;
	int used = 0;

	for (size_t i = 0; i < sizeof(numbers) / sizeof(numbers[0]); i++)
		if (!strcmp(key, numbers[i]))
			return nd_fix_parse_unsigned(value, &number) < 0 ? -EINVAL : 0;
	for (size_t i = 0; i < sizeof(triples) / sizeof(triples[0]); i++)
		if (!strcmp(key, triples[i]))
			return nd_fix_chars_only(value, "0123456789 ") &&
			       sscanf(value, "%llu %llu %llu%n", &a, &b, &c, &used) == 3 &&
			       !value[used] ? 0 : -EINVAL;
	return -EINVAL;
}

static const char *const sysctl_checks[] = { "sysctl.rmem_max_low", "sysctl.wmem_max_low",
					     "sysctl.backlog_low", "softnet.dropped", NULL };

const struct nd_fix_kind nd_fix_kind_sysctl = {
	.name = "sysctl",
	.check_ids = sysctl_checks,
	.info_too = true,
	.plan = sysctl_plan,
	.get = sysctl_get,
	.set = sysctl_set,
	.persist = sysctl_persist,
	.check = sysctl_check,
};
