/*
 * test_verdict_queues.c - per-queue traffic as evidence: the new check
 * rss.flows_on_one_queue on queue tables (suspect from since-boot counters,
 * RX first, else TX), its verdict on recorded runs (confirmed, refuted,
 * inconclusive without per-queue counters), and a CPU verdict citing the
 * queue that carried the run ("rx-0 carried 97% ...").
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "nicdoctor/common.h"
#include "nicdoctor/experiment.h"
#include "nicdoctor/queues.h"

static const char *reason(const struct nd_finding *f)
{
	const cJSON *r = cJSON_GetObjectItem(f->experiment, "reason");

	return cJSON_IsString(r) ? r->valuestring : "";
}

static void finding(struct nd_finding *f, const char *id, const char *queue_kind)
{
	memset(f, 0, sizeof(*f));
	f->id = id;
	f->severity = ND_SEV_WARNING;
	f->ceiling_mbps = -1;
	f->evidence = cJSON_CreateObject();
	if (queue_kind)
		cJSON_AddStringToObject(f->evidence, "queue_kind", queue_kind);
}

static struct nd_exp_set *set_with(enum nd_exp_run_kind k, unsigned kind, const uint64_t *pkts,
				   unsigned n)
{
	struct nd_exp_set *set = calloc(1, sizeof(*set));
	struct nd_exp_run *r = &set->runs[k];

	set->mode = ND_EXP_PEER;
	set->wire_mbps = 9414.8;
	for (int i = 0; i < ND_RUN_KINDS; i++) {
		set->runs[i].done = true;
		set->runs[i].streams = i == ND_RUN_FORWARD_ONE ? 1 : 4;
		set->runs[i].mbps = 3000;
		set->runs[i].retransmits = 0;
	}
	for (unsigned i = 0; i < n; i++)
		r->queues[r->queues_count++] = (struct nd_exp_queue_delta){ kind, i, pkts[i],
									    pkts[i] * 1500 };
	return set;
}

static void test_flows_verdicts(void **state)
{
	static const uint64_t one[] = { 9700, 100, 100, 100 };
	static const uint64_t spread[] = { 3000, 2500, 2500, 2000 };
	struct nd_exp_summary sum;
	struct nd_exp_set *set;
	struct nd_finding f;

	(void)state;
	set = set_with(ND_RUN_REVERSE_MANY, ND_QUEUE_RX, one, 4);
	finding(&f, "rss.flows_on_one_queue", "rx");
	nd_verdicts_decide(&f, 1, set, &sum);
	assert_int_equal(f.verdict, ND_VERDICT_CONFIRMED);
	assert_string_equal(reason(&f), "rx-0 carried 97% of the 4-stream run's packets; "
			    "4 of 4 queues were used");
	assert_non_null(cJSON_GetObjectItem(f.experiment, "queues"));
	nd_finding_free(&f);
	free(set);

	set = set_with(ND_RUN_FORWARD_MANY, ND_QUEUE_TX, spread, 4);
	finding(&f, "rss.flows_on_one_queue", "tx");
	nd_verdicts_decide(&f, 1, set, &sum);
	assert_int_equal(f.verdict, ND_VERDICT_REFUTED);
	assert_string_equal(reason(&f), "4 streams spread over 4 of 4 tx queues; the busiest, "
			    "tx-0, carried 30%");
	nd_finding_free(&f);
	/* The RX queues were not measured in this set. */
	finding(&f, "rss.flows_on_one_queue", "rx");
	nd_verdicts_decide(&f, 1, set, &sum);
	assert_int_equal(f.verdict, ND_VERDICT_INCONCLUSIVE);
	assert_string_equal(reason(&f), "no per-queue rx counters during the runs");
	nd_finding_free(&f);
	free(set);
}

static void test_cpu_verdict_cites_queue(void **state)
{
	static const uint64_t pkts[] = { 970, 30 };
	struct nd_exp_set *set = set_with(ND_RUN_REVERSE_MANY, ND_QUEUE_RX, pkts, 2);
	struct nd_exp_run *r = &set->runs[ND_RUN_REVERSE_MANY];
	struct nd_exp_summary sum;
	struct nd_finding f;

	(void)state;
	r->cpus_count = 4;
	for (int i = 0; i < 4; i++)
		r->cpus[i] = (struct nd_engine_cpu_share){ i, i == 2 ? 100 : 5, i == 2 ? 90 : 1 };
	finding(&f, "queues.single", NULL);
	cJSON_AddItemToObject(f.evidence, "queue_chain",
			      cJSON_Parse("[{\"queue\":\"rx-0\",\"irq\":40,\"cpus\":\"2\"},"
					  "{\"queue\":\"tx-0\",\"irq\":40}]"));
	nd_verdicts_decide(&f, 1, set, &sum);
	{
		char *t = cJSON_PrintUnformatted(cJSON_GetObjectItem(f.evidence, "queue_chain"));

		/* One table: the chain's rows with what each queue carried. */
		assert_string_equal(t, "[{\"queue\":\"rx-0\",\"irq\":40,\"cpus\":\"2\","
				    "\"run_packets\":970,\"run_share_pct\":97},"
				    "{\"queue\":\"tx-0\",\"irq\":40}]");
		cJSON_free(t);
	}
	assert_int_equal(f.verdict, ND_VERDICT_CONFIRMED);
	assert_non_null(strstr(reason(&f), "CPU 2 is 100% busy (90% softirq) while the others "
				   "idle at 5%; rx-0 carried 97% of the 4-stream run's packets"));
	nd_finding_free(&f);
	free(set);
}

static struct nd_facts *facts_with(unsigned kind, const uint64_t *pkts, unsigned n)
{
	struct nd_facts *facts = calloc(1, sizeof(*facts));

	nd_strlcpy(facts->ifname, "eth9", sizeof(facts->ifname));
	nd_status_set_known(&facts->queue_table.st);
	for (unsigned i = 0; i < n; i++) {
		struct nd_queue_row *row = nd_queue_row_get(&facts->queue_table, kind, i);

		row->counters_known = true;
		row->packets = pkts[i];
		nd_strlcpy(row->counter_source, "netdev", sizeof(row->counter_source));
		nd_queue_row_get(&facts->queue_table, !kind, i);	/* no counters */
	}
	return facts;
}

static enum nd_severity run_check(const struct nd_facts *facts, struct nd_finding *f)
{
	nd_check_run(nd_check_find("rss.flows_on_one_queue"), facts, f);
	return f->severity;
}

static void test_flows_check(void **state)
{
	/* under a million packets: the suspicion, not the one-busy pattern */
	static const uint64_t one[] = { 99000, 500, 500 };
	static const uint64_t spread[] = { 40000, 30000, 30000 };
	static const uint64_t few[] = { 900, 10 };
	struct nd_finding f;
	struct nd_facts *facts;

	(void)state;
	facts = facts_with(ND_QUEUE_RX, one, 3);
	assert_int_equal(run_check(facts, &f), ND_SEV_WARNING);
	assert_string_equal(f.title, "rx-0 carried 99% of 3 rx queues' packets since boot: "
			    "the flows may hash to one queue");
	assert_non_null(cJSON_GetObjectItem(f.evidence, "queue_chain"));
	nd_finding_free(&f);
	free(facts);
	/* veth: no RX counters, TX counted by an mq root. */
	facts = facts_with(ND_QUEUE_TX, spread, 3);
	assert_int_equal(run_check(facts, &f), ND_SEV_OK);
	assert_string_equal(cJSON_GetObjectItem(f.evidence, "queue_kind")->valuestring, "tx");
	nd_finding_free(&f);
	free(facts);
	facts = facts_with(ND_QUEUE_RX, few, 2);
	assert_int_equal(run_check(facts, &f), ND_SEV_OK);	/* too few packets to suspect */
	nd_finding_free(&f);
	facts->queue_table.st.known = false;
	assert_int_equal(run_check(facts, &f), ND_SEV_UNKNOWN);
	nd_finding_free(&f);
	free(facts);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flows_verdicts),
		cmocka_unit_test(test_cpu_verdict_cites_queue),
		cmocka_unit_test(test_flows_check),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
