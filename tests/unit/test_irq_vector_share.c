/*
 * test_irq_vector_share.c - the queue interrupts' patterns (one-busy,
 * one-hot, one-cpu, spread) from counts, since boot and in a window, the
 * probe's per-IRQ sums of a window read, and what irq.concentrated and
 * rss.flows_on_one_queue say of each.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "nicdoctor/check.h"
#include "nicdoctor/common.h"
#include "nicdoctor/probe.h"
#include "nicdoctor/sysroot.h"
#include "../../src/checks/irq_vector_share.h"

static struct nd_finding finding;

static struct nd_facts *facts_new(unsigned cpus)
{
	struct nd_facts *facts = calloc(1, sizeof(*facts));

	assert_non_null(facts);
	nd_strlcpy(facts->ifname, "eth0", sizeof(facts->ifname));
	nd_status_set_known(&facts->cpus.st);
	for (unsigned cpu = 0; cpu < cpus; cpu++)
		nd_cpuset_add(&facts->cpus.online, cpu);
	facts->cpus.n_online = cpus;
	nd_status_set_known(&facts->irqs.st);
	facts->irqs.n_cpu_columns = cpus;
	nd_status_set_unknown(&facts->queue_table.st, "no netdev family");
	return facts;
}

static void add_irq(struct nd_facts *facts, unsigned irq, const char *name,
		    const uint64_t *counts)
{
	struct nd_irq *entry = &facts->irqs.irq[facts->irqs.count++];

	entry->irq = irq;
	nd_strlcpy(entry->name, name, sizeof(entry->name));
	for (unsigned cpu = 0; cpu < facts->irqs.n_cpu_columns; cpu++)
		entry->per_cpu[cpu] = counts[cpu];
}

static void run(const char *id, const struct nd_facts *facts)
{
	const struct nd_check *check = nd_check_find(id);

	assert_non_null(check);
	nd_finding_free(&finding);
	nd_check_run(check, facts, &finding);
}

static const char *evidence_string(const char *key)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(finding.evidence, key);

	return cJSON_IsString(item) ? item->valuestring : "";
}

static double vectors_number(const char *key)
{
	const cJSON *obj = cJSON_GetObjectItemCaseSensitive(finding.evidence, "irq_vectors");
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);

	assert_true(cJSON_IsNumber(item));
	return item->valuedouble;
}

static bool fix_has(const char *text)
{
	for (unsigned i = 0; i < finding.fix.n_commands; i++)
		if (strstr(finding.fix.commands[i], text))
			return true;
	return false;
}

static void test_classify(void **state)
{
	/* the csrutil/OpenWrt-NIC-Drivers#4 capture: 3.55 G on vector 0 */
	static const uint64_t busy_v[7] = { 3551364830, 0, 0, 0, 0, 0, 0 };
	static const uint64_t busy_c[3] = { 3551364829, 0, 1 };
	static const uint64_t hot_v[4] = { 6400, 1200, 1200, 1200 };
	static const uint64_t hot_c[4] = { 6400, 1200, 1200, 1200 };
	static const uint64_t even_v[4] = { 2600, 2500, 2400, 2500 };
	static const uint64_t cpu0_c[4] = { 10000, 0, 0, 0 };
	static const uint64_t two_70[2] = { 7000, 3000 }, two_80[2] = { 8000, 2000 };
	static const uint64_t few_v[4] = { 900, 99, 0, 0 };
	struct nd_irq_share s;

	(void)state;
	nd_irq_share_classify(busy_v, 7, busy_c, NULL, 3, &s);
	assert_int_equal(s.pattern, ND_IRQ_ONE_BUSY);
	assert_true(s.top_vector_share > 0.999);
	assert_string_equal(nd_irq_pattern_name(s.pattern), "one-busy");
	/* 64% on one of four, each on its own CPU */
	nd_irq_share_classify(hot_v, 4, hot_c, NULL, 4, &s);
	assert_int_equal(s.pattern, ND_IRQ_ONE_HOT);
	assert_true(s.top_vector_share > 0.63 && s.top_vector_share < 0.65);
	assert_string_equal(nd_irq_pattern_name(s.pattern), "one-hot");
	/* four vectors that all fire, all on CPU0 */
	nd_irq_share_classify(even_v, 4, cpu0_c, NULL, 4, &s);
	assert_int_equal(s.pattern, ND_IRQ_ONE_CPU);
	assert_string_equal(nd_irq_pattern_name(s.pattern), "one-cpu");
	/* the same vectors spread over the CPUs */
	nd_irq_share_classify(even_v, 4, even_v, NULL, 4, &s);
	assert_int_equal(s.pattern, ND_IRQ_SPREAD);
	assert_string_equal(nd_irq_pattern_name(s.pattern), "spread");
	/* of two, 70/30 is no word; 80/20 is one hot */
	nd_irq_share_classify(two_70, 2, two_70, NULL, 2, &s);
	assert_int_equal(s.pattern, ND_IRQ_SPREAD);
	nd_irq_share_classify(two_80, 2, two_80, NULL, 2, &s);
	assert_int_equal(s.pattern, ND_IRQ_ONE_HOT);
	/* 999 interrupts say nothing */
	nd_irq_share_classify(few_v, 4, few_v, NULL, 4, &s);
	assert_int_equal(s.pattern, ND_IRQ_FEW);
	/* without per-vector counts only the CPU share can be judged */
	nd_irq_share_classify(NULL, 7, busy_c, NULL, 3, &s);
	assert_int_equal(s.pattern, ND_IRQ_ONE_CPU);
	nd_irq_share_classify(NULL, 4, hot_c, NULL, 4, &s);
	assert_int_equal(s.pattern, ND_IRQ_SPREAD);
}

/* The capture as facts: irq.concentrated is no affinity warning, and
 * rss.flows_on_one_queue carries the RSS/RPS advice. */
static void test_one_busy_checks(void **state)
{
	static const uint64_t busy[3] = { 3551364829, 0, 1 }, idle[3] = { 0, 0, 0 };
	struct nd_facts *facts = facts_new(3);
	char name[16];

	(void)state;
	add_irq(facts, 30, "eth0-0", busy);
	for (unsigned q = 1; q < 7; q++) {
		snprintf(name, sizeof(name), "eth0-%u", q);
		add_irq(facts, 30 + q, name, idle);
	}
	run("irq.concentrated", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	assert_int_equal(finding.fix.n_commands, 0);
	assert_string_equal(evidence_string("pattern"), "one-busy");
	assert_non_null(strstr(finding.title, "IRQ 30 took 100% of 7 queue vectors"));
	run("rss.flows_on_one_queue", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_string_equal(evidence_string("pattern"), "one-busy");
	assert_true(vectors_number("busiest_vector_queue") == 0);
	assert_true(vectors_number("busiest_vector_share_pct") == 100);
	assert_true(fix_has("echo 7 > /sys/class/net/eth0/queues/rx-0/rps_cpus"));
	assert_false(fix_has("smp_affinity"));
	/* the RX queue count known: with three, ethtool -X spreads them */
	nd_status_set_known(&facts->queues.st);
	facts->queues.n_rx = 3;
	run("rss.flows_on_one_queue", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_true(fix_has("ethtool -X eth0 equal 3"));
	/* one RX queue: its vector taking all is no news for this check */
	facts->queues.n_rx = 1;
	run("rss.flows_on_one_queue", facts);
	assert_int_not_equal(finding.severity, ND_SEV_WARNING);
	free(facts);
}

/* Per-queue counters without interrupts (a sosreport's ethtool -S, the
 * pcengines/apu2-documentation#190 igb port): one RX queue with every
 * packet of many is the one-busy pattern, with the RSS/RPS advice; with
 * few packets, or 90% on one, only the suspicion. */
static void set_rx_packets(struct nd_facts *facts, uint64_t q0, uint64_t q1)
{
	struct nd_queue_table *qt = &facts->queue_table;

	memset(qt, 0, sizeof(*qt));
	nd_status_set_known(&qt->st);
	nd_strlcpy(qt->list_source, "ethtool -S", sizeof(qt->list_source));
	for (unsigned i = 0; i < 2; i++) {
		struct nd_queue_row *row = nd_queue_row_get(qt, ND_QUEUE_RX, i);

		row->counters_known = true;
		row->packets = i ? q1 : q0;
		nd_strlcpy(row->counter_source, "ethtool -S", sizeof(row->counter_source));
	}
}

static void test_one_busy_queue_counters(void **state)
{
	struct nd_facts *facts = facts_new(4);

	(void)state;
	nd_status_set_unknown(&facts->irqs.st, "a sosreport without proc/interrupts");
	set_rx_packets(facts, 16630368449ULL, 0);
	run("rss.flows_on_one_queue", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_string_equal(evidence_string("pattern"), "one-busy");
	assert_non_null(strstr(finding.title, "traffic reaches one queue"));
	assert_true(fix_has("echo f > /sys/class/net/eth0/queues/rx-0/rps_cpus"));
	assert_false(fix_has("nicdoctor watch"));
	/* the other queue busy: the fix names it */
	set_rx_packets(facts, 1000, 2000000);
	run("rss.flows_on_one_queue", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_true(fix_has("queues/rx-1/rps_cpus"));
	/* 92%: suspect, the watch advice, no pattern */
	set_rx_packets(facts, 9200000, 800000);
	run("rss.flows_on_one_queue", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_string_equal(evidence_string("pattern"), "");
	assert_true(fix_has("nicdoctor watch eth0"));
	/* all on one but under a million packets: the suspicion only */
	set_rx_packets(facts, 999999, 0);
	run("rss.flows_on_one_queue", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_false(fix_has("rps_cpus"));
	free(facts);
}

/* A VM's single queue pair: input.0 busy, output.0 quiet, no count known. */
static void test_one_queue_pair(void **state)
{
	static const uint64_t input[2] = { 90000, 0 }, output[2] = { 0, 800 };
	struct nd_facts *facts = facts_new(2);

	(void)state;
	add_irq(facts, 25, "virtio0-input.0", input);
	add_irq(facts, 26, "virtio0-output.0", output);
	run("irq.concentrated", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	run("rss.flows_on_one_queue", facts);
	assert_int_equal(finding.severity, ND_SEV_UNKNOWN);	/* the queue table's */
	free(facts);
}

/* 64% of four queues' interrupts on one, vectors on their own CPUs. */
static void test_one_hot_checks(void **state)
{
	static const uint64_t counts[4][4] = { { 6400, 0, 0, 0 }, { 0, 1200, 0, 0 },
					       { 0, 0, 1200, 0 }, { 0, 0, 0, 1200 } };
	struct nd_facts *facts = facts_new(4);
	char name[24];

	(void)state;
	for (unsigned q = 0; q < 4; q++) {
		snprintf(name, sizeof(name), "eth0-TxRx-%u", q);
		add_irq(facts, 60 + q, name, counts[(q + 2) % 4]);
	}
	run("irq.concentrated", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	assert_string_equal(evidence_string("pattern"), "one-hot");
	assert_int_equal(finding.fix.n_commands, 0);
	run("rss.flows_on_one_queue", facts);
	assert_int_equal(finding.severity, ND_SEV_INFO);
	assert_string_equal(evidence_string("pattern"), "one-hot");
	assert_non_null(strstr(finding.title, "IRQ 62 (queue 2) took 64% of 4 queue vectors'"));
	assert_true(vectors_number("busiest_vector_share_pct") == 64);
	assert_true(fix_has("rx-flow-hash"));
	free(facts);
}

/* Vectors that all fire on CPU0: the affinity warning and its fix stay. */
static void test_one_cpu_checks(void **state)
{
	static const uint64_t on_cpu0[4] = { 25000, 0, 0, 0 };
	struct nd_facts *facts = facts_new(4);
	char name[24];

	(void)state;
	for (unsigned q = 0; q < 4; q++) {
		snprintf(name, sizeof(name), "eth0-TxRx-%u", q);
		add_irq(facts, 60 + q, name, on_cpu0);
	}
	run("irq.concentrated", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_string_equal(evidence_string("pattern"), "one-cpu");
	assert_true(fix_has("/proc/irq/61/smp_affinity_list"));
	run("rss.flows_on_one_queue", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	assert_string_equal(evidence_string("pattern"), "one-cpu");
	/* 40 interrupts in all: the pattern says so, the affinity decides */
	for (unsigned q = 0; q < 4; q++)
		facts->irqs.irq[q].per_cpu[0] = 10;
	run("irq.concentrated", facts);
	assert_string_equal(evidence_string("pattern"), "few-counts");
	assert_non_null(strstr(finding.title, "few counts"));
	free(facts);
}

/* A window read: each vector's growth decides, not the since-boot pile. */
static void set_window(struct nd_facts *facts, const uint64_t *grew)
{
	struct nd_counter_window *w = &facts->window;

	memset(w, 0, sizeof(*w));
	w->known = true;
	w->seconds = 1;
	nd_strlcpy(w->what, "sample", sizeof(w->what));
	nd_strlcpy(w->label, "the last 1 s", sizeof(w->label));
	w->before.queue_irqs.known = w->after.queue_irqs.known = true;
	w->before.queue_irqs.n_columns = w->after.queue_irqs.n_columns = 4;
	w->before.queue_irqs.irqs = w->after.queue_irqs.irqs = 4;
	for (unsigned i = 0; i < 4; i++) {
		w->before.queue_irqs.column_cpu[i] = w->after.queue_irqs.column_cpu[i] = i;
		/* vector i on CPU i */
		w->before.queue_irqs.per_column[i] = 500000;
		w->after.queue_irqs.per_column[i] = 500000 + grew[i];
		w->before.queue_irqs.irq_number[i] = w->after.queue_irqs.irq_number[3 - i] = 60 + i;
		w->before.queue_irqs.per_irq[i] = 500000;
	}
	for (unsigned i = 0; i < 4; i++)
		w->after.queue_irqs.per_irq[3 - i] = 500000 + grew[i];
}

static void test_window_decides(void **state)
{
	static const uint64_t spread[4][4] = { { 9000, 0, 0, 0 }, { 0, 9000, 0, 0 },
					       { 0, 0, 9000, 0 }, { 0, 0, 0, 9000 } };
	static const uint64_t grew_one[4] = { 0, 0, 4000, 10 };
	static const uint64_t grew_few[4] = { 0, 0, 400, 10 };
	struct nd_facts *facts = facts_new(4);
	struct nd_irq_share s, boot;
	char name[24];

	(void)state;
	for (unsigned q = 0; q < 4; q++) {
		snprintf(name, sizeof(name), "eth0-TxRx-%u", q);
		add_irq(facts, 60 + q, name, spread[q]);
	}
	set_window(facts, grew_one);
	nd_irq_share_judged(facts, NULL, &s, &boot);
	assert_int_equal(boot.pattern, ND_IRQ_SPREAD);
	assert_true(s.from_window);
	assert_int_equal(s.pattern, ND_IRQ_ONE_BUSY);
	assert_int_equal(s.total, 4010);
	assert_int_equal(s.top_irq, 62);		/* read back in another order */
	assert_int_equal(s.top_queue, 2);
	run("rss.flows_on_one_queue", facts);
	assert_int_equal(finding.severity, ND_SEV_WARNING);
	assert_non_null(strstr(finding.title, "in the last 1 s"));
	assert_true(fix_has("queues/rx-2/rps_cpus"));
	run("irq.concentrated", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	/* too few in the window: since boot decides */
	set_window(facts, grew_few);
	nd_irq_share_judged(facts, NULL, &s, NULL);
	assert_false(s.from_window);
	assert_int_equal(s.pattern, ND_IRQ_SPREAD);
	run("rss.flows_on_one_queue", facts);
	assert_int_equal(finding.severity, ND_SEV_OK);
	free(facts);
}

/* The probe's window read keeps each IRQ's own count. */
static void test_probe_per_irq_sums(void **state)
{
	static const char text[] =
		"           CPU0       CPU1       CPU2\n"
		" 30: 3551364829          0          1   PCI-MSI 262144-edge      eth0-0\n"
		" 31:          0          7          0   PCI-MSI 262145-edge      eth0-1\n"
		" 32:          5          0          0   PCI-MSI 262146-edge      eth0-2\n";
	static const unsigned wanted[2] = { 31, 30 };
	char dir[] = "/tmp/nd-irqshare-XXXXXX", path[96];
	struct nd_irqs *scratch = calloc(1, sizeof(*scratch));
	struct nd_irq_sums *sums = calloc(1, sizeof(*sums));
	struct nd_root *root = NULL;
	FILE *f;

	(void)state;
	assert_non_null(scratch);
	assert_non_null(sums);
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/proc", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/proc/interrupts", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	assert_int_equal(nd_root_open(dir, &root), 0);
	nd_probe_irq_sums(root, wanted, 2, scratch, sums);
	assert_true(sums->known);
	assert_int_equal(sums->irqs, 2);
	for (unsigned i = 0; i < 2; i++)
		if (sums->irq_number[i] == 30)
			assert_true(sums->per_irq[i] == 3551364830ULL);
		else
			assert_true(sums->irq_number[i] == 31 && sums->per_irq[i] == 7);
	assert_true(sums->per_column[0] == 3551364829ULL && sums->per_column[1] == 7);
	nd_root_close(root);
	unlink(path);
	snprintf(path, sizeof(path), "%s/proc", dir);
	rmdir(path);
	rmdir(dir);
	free(scratch);
	free(sums);
}

static int teardown(void **state)
{
	(void)state;
	nd_finding_free(&finding);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_classify),
		cmocka_unit_test_teardown(test_one_busy_checks, teardown),
		cmocka_unit_test_teardown(test_one_busy_queue_counters, teardown),
		cmocka_unit_test_teardown(test_one_queue_pair, teardown),
		cmocka_unit_test_teardown(test_one_hot_checks, teardown),
		cmocka_unit_test_teardown(test_one_cpu_checks, teardown),
		cmocka_unit_test_teardown(test_window_decides, teardown),
		cmocka_unit_test(test_probe_per_irq_sums),
	};

	return cmocka_run_group_tests_name("irq_vector_share", tests, NULL, NULL);
}
