/*
 * test_watch_view.c - watch's interval view (src/watch/view.c) on made-up
 * samples: device and per-queue rates and shares, per-CPU shares with the
 * interrupts and softnet drops each CPU took, and each rule of the live
 * diagnosis line (a pegged CPU taking the only RX queue with RPS off, one
 * queue carrying nearly everything, backlog drops, NIC drops, nothing).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "nicdoctor/common.h"
#include "nicdoctor/watch.h"

struct fixture {
	struct nd_facts facts;
	struct nd_watch_ctx ctx;
	struct nd_watch_sample a, b;
};

/* Two CPUs, 1 s apart; rx-0's IRQ 40 on CPU 1; rx-0 and tx-0 counted. */
static struct fixture *fixture(unsigned n_rx)
{
	struct fixture *x = calloc(1, sizeof(*x));

	nd_status_set_known(&x->facts.queue_table.st);
	for (unsigned q = 0; q < n_rx; q++)
		nd_queue_row_get(&x->facts.queue_table, ND_QUEUE_RX, q);
	nd_queue_row_get(&x->facts.queue_table, ND_QUEUE_TX, 0);
	nd_status_set_known(&x->facts.irqs.st);
	x->facts.irqs.count = 1;
	x->facts.irqs.irq[0] = (struct nd_irq){ .irq = 40, .name = "eth9-TxRx-0" };
	nd_cpuset_add(&x->facts.irqs.irq[0].effective, 1);
	x->facts.irqs.irq[0].effective_known = true;
	nd_status_set_known(&x->facts.queues.st);
	x->facts.queues.n_rx = n_rx;
	assert_int_equal(nd_watch_ctx_init(&x->ctx, "eth9", &x->facts), 0);
	x->a.t_sec = 10;
	x->b.t_sec = 11;
	x->a.cpus_known = x->b.cpus_known = true;
	x->a.link.valid = x->b.link.valid = true;
	x->a.cpus.count = x->b.cpus.count = 2;
	for (int c = 0; c < 2; c++) {
		x->a.cpus.c[c].cpu = x->b.cpus.c[c].cpu = c;
		x->b.cpus.c[c].total = 100;
		x->b.cpus.c[c].idle = 95;	/* 5% busy */
	}
	x->a.queues_known = x->b.queues_known = true;
	x->a.queues = x->b.queues = x->facts.queue_table;
	for (unsigned i = 0; i < x->b.queues.count; i++) {
		x->a.queues.q[i].counters_known = x->b.queues.q[i].counters_known = true;
		nd_strlcpy(x->b.queues.q[i].counter_source, "netdev",
			   sizeof(x->b.queues.q[i].counter_source));
	}
	nd_status_set_known(&x->a.softnet.st);
	nd_status_set_known(&x->b.softnet.st);
	x->a.softnet.count = x->b.softnet.count = 2;
	x->a.softnet.cpu[1].cpu = x->b.softnet.cpu[1].cpu = 1;
	x->a.irqs.known = x->b.irqs.known = true;
	x->a.irqs.n_columns = x->b.irqs.n_columns = 2;
	x->a.irqs.column_cpu[1] = x->b.irqs.column_cpu[1] = 1;
	return x;
}

static void release(struct fixture *x)
{
	nd_watch_ctx_release(&x->ctx);
	free(x);
}

static const char *diagnosis(const cJSON *v)
{
	const cJSON *d = cJSON_GetObjectItem(v, "diagnosis");

	return cJSON_IsString(d) ? d->valuestring : "(null)";
}

static void test_rates_and_pegged_cpu(void **state)
{
	struct fixture *x = fixture(1);
	cJSON *v, *q;

	(void)state;
	x->b.link.v[2] = 50000;			/* rx_packets */
	x->b.link.v[0] = 75000000;		/* rx_bytes: 600 Mbit/s */
	x->b.queues.q[0].packets = 50000;
	x->b.queues.q[0].bytes = 75000000;
	x->b.cpus.c[1].idle = 0;		/* CPU 1: 100% busy ... */
	x->b.cpus.c[1].softirq = 96;		/* ... 96% softirq */
	x->b.irqs.per_column[1] = 1200;
	v = nd_watch_view(&x->ctx, &x->a, &x->b, 1, false);
	assert_int_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(v, "device"), "rx_pps")->valueint,
			 50000);
	assert_true(cJSON_GetObjectItem(cJSON_GetObjectItem(v, "device"), "rx_mbps")->valuedouble
		    == 600);
	q = cJSON_GetArrayItem(cJSON_GetObjectItem(v, "queues"), 0);
	assert_string_equal(cJSON_GetObjectItem(q, "queue")->valuestring, "rx-0");
	assert_int_equal(cJSON_GetObjectItem(q, "irq")->valueint, 40);
	assert_string_equal(cJSON_GetObjectItem(q, "cpus")->valuestring, "1");
	assert_int_equal(cJSON_GetObjectItem(q, "share_pct")->valueint, 100);
	q = cJSON_GetArrayItem(cJSON_GetObjectItem(v, "cpus"), 1);
	assert_int_equal(cJSON_GetObjectItem(q, "interrupts_ps")->valueint, 1200);
	assert_string_equal(diagnosis(v), "CPU 1 at 96% softirq takes rx-0, the only RX queue; "
			    "RPS off: see rps.off_single_queue");
	cJSON_Delete(v);
	/* RPS on: the same CPU, no RPS advice. */
	nd_cpuset_add(&x->facts.queues.rps_cpus[0], 0);
	v = nd_watch_view(&x->ctx, &x->a, &x->b, 1, false);
	assert_string_equal(diagnosis(v), "CPU 1 at 96% softirq takes rx-0, the only RX queue");
	cJSON_Delete(v);
	release(x);
}

static void test_one_queue_and_drops(void **state)
{
	struct fixture *x = fixture(4);
	cJSON *v;

	(void)state;
	x->b.queues.q[0].packets = 97000;
	for (int i = 1; i < 4; i++)
		x->b.queues.q[i].packets = 1000;
	v = nd_watch_view(&x->ctx, &x->a, &x->b, 2, false);
	assert_string_equal(diagnosis(v), "rx-0 carries 97% of the packets of 4 RX queues: "
			    "see rss.flows_on_one_queue");
	cJSON_Delete(v);
	for (int i = 1; i < 4; i++)
		x->b.queues.q[i].packets = 32000;
	x->b.softnet.cpu[1].dropped = 250;
	v = nd_watch_view(&x->ctx, &x->a, &x->b, 3, false);
	assert_string_equal(diagnosis(v), "CPU 1 drops 250 packets/s at a full backlog: see "
			    "softnet.dropped");
	cJSON_Delete(v);
	x->b.softnet.cpu[1].dropped = 0;
	x->b.link.v[4] = 30;			/* rx_dropped */
	v = nd_watch_view(&x->ctx, &x->a, &x->b, 4, false);
	assert_string_equal(diagnosis(v), "the interface drops 30 received packets/s: see "
			    "nic.rx_dropped");
	cJSON_Delete(v);
	x->b.link.v[4] = 0;
	v = nd_watch_view(&x->ctx, &x->a, &x->b, 5, false);
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(v, "diagnosis")));
	cJSON_Delete(v);
	/* A counter that went backwards (a driver reset) is left out, not negative. */
	x->a.queues.q[1].packets = 99999999;
	v = nd_watch_view(&x->ctx, &x->a, &x->b, 6, true);
	assert_string_equal(cJSON_GetObjectItem(v, "type")->valuestring, "summary");
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(v, "queues")), 4);
	cJSON_Delete(v);
	release(x);
}

static void test_unavailable(void **state)
{
	struct fixture *x = fixture(1);
	cJSON *v, *u;

	(void)state;
	x->b.queues_known = false;
	nd_strlcpy(x->b.queues_reason, "netdev netlink family: Operation not permitted",
		   sizeof(x->b.queues_reason));
	nd_status_set_unknown(&x->b.softnet.st, "cannot read '/proc/net/softnet_stat': "
			      "Permission denied");
	v = nd_watch_view(&x->ctx, &x->a, &x->b, 1, false);
	u = cJSON_GetObjectItem(v, "unavailable");
	assert_int_equal(cJSON_GetArraySize(u), 2);
	assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(u, 0), "reason")->valuestring,
			    "netdev netlink family: Operation not permitted");
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(v, "queues")), 0);
	cJSON_Delete(v);
	release(x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rates_and_pegged_cpu),
		cmocka_unit_test(test_one_queue_and_drops),
		cmocka_unit_test(test_unavailable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
