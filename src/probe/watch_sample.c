/*
 * watch_sample.c - one sample of the counters `nicdoctor watch` turns into
 * rates: the interface's statistics/ files, /proc/stat, softnet_stat, the
 * queue table (netdev family or its fallbacks) and the interface's IRQ
 * counts per CPU.  The probe ran once before; this reads only counters,
 * so that watching costs little (bench/watch_cost.sh).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "nicdoctor/common.h"
#include "nicdoctor/parse.h"
#include "nicdoctor/probe.h"
#include "nicdoctor/sysroot.h"
#include "nicdoctor/watch.h"
#include "nicdoctor/sysfs_util.h"

int nd_watch_ctx_init(struct nd_watch_ctx *ctx, const char *ifname, const struct nd_facts *facts)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->ifname = ifname;
	ctx->facts = facts;
	nd_queue_chain_build(facts, &ctx->chain);
	for (unsigned i = 0; facts->irqs.st.known && i < facts->irqs.count && i < ND_MAX_IRQS; i++)
		ctx->irq_numbers[ctx->n_irqs++] = facts->irqs.irq[i].irq;
	ctx->irqs_scratch = calloc(1, sizeof(*ctx->irqs_scratch));
	return ctx->irqs_scratch ? 0 : -ENOMEM;
}

void nd_watch_ctx_release(struct nd_watch_ctx *ctx)
{
	free(ctx->irqs_scratch);
	ctx->irqs_scratch = NULL;
}

static void read_softnet(const struct nd_root *root, struct nd_softnet *softnet)
{
	char *text = NULL;
	int r = nd_sysroot_read_alloc(root, "/proc/net/softnet_stat", &text, NULL);

	softnet->count = 0;
	if (r < 0) {
		nd_probe_read_reason(softnet->st.reason, sizeof(softnet->st.reason),
				     "/proc/net/softnet_stat", r);
		softnet->st.known = false;
		return;
	}
	if (nd_parse_softnet(text, softnet) == 0)
		nd_status_set_known(&softnet->st);
	else
		nd_status_set_unknown(&softnet->st, "cannot parse '/proc/net/softnet_stat'");
	free(text);
}

int nd_watch_sample_read(const struct nd_root *root, const struct nd_watch_ctx *ctx,
			 struct nd_watch_sample *ret)
{
	int r;

	ret->t_sec = nd_probe_clock_sec();
	r = nd_sample_iface(root, ctx->ifname, &ret->link);
	if (r == -ENOENT || r == -ENODEV)
		return -ENODEV;
	ret->cpus_known = nd_sample_cpus(root, &ret->cpus) == 0;
	read_softnet(root, &ret->softnet);
	r = nd_probe_queue_sample(root, ctx->ifname, &ret->queues);
	if (r == -ENODEV)
		return -ENODEV;
	ret->queues_known = r == 0;
	nd_strlcpy(ret->queues_reason, r == 0 ? "" : ret->queues.st.reason,
		   sizeof(ret->queues_reason));
	nd_probe_irq_sums(root, ctx->irq_numbers, ctx->n_irqs, ctx->irqs_scratch, &ret->irqs);
	return 0;
}
