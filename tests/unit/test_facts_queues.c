/*
 * test_facts_queues.c - the RX queue count without ethtool -l
 * (nd_facts_rx_queues, src/facts/facts.c): rtnetlink's allocated count
 * only when it is 1, else the receive vectors the interface's IRQs are
 * named for in real /proc/interrupts captures (tests/fixtures/raw/), no
 * more than were allocated; and where the count came from.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "raw_fixture.h"

#include "nicdoctor/common.h"
#include "nicdoctor/facts.h"
#include "nicdoctor/parse.h"

/* Facts of a bundle without ethtool -l nor sys/class/net/IF/queues. */
static struct nd_facts *bundle_facts(const char *ifname, unsigned allocated)
{
	struct nd_facts *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	nd_strlcpy(f->ifname, ifname, sizeof(f->ifname));
	nd_status_set_unknown(&f->channels.st, "the sosreport has no 'ethtool_-l_%s'", ifname);
	nd_status_set_unknown(&f->queues.st, "a sosreport does not record RPS masks");
	nd_status_set_known(&f->link.st);
	nd_strlcpy(f->link.st.source, "sos_commands/networking/ip_-s_-d_link",
		   sizeof(f->link.st.source));
	f->link.rx_queues = allocated;
	nd_status_set_unknown(&f->irqs.st, "no IRQ read");
	return f;
}

static void irqs_named(struct nd_facts *f, const char *capture, const char *match)
{
	char *text = raw(capture);

	assert_int_equal(nd_parse_interrupts(text, NULL, 0, match, &f->irqs), 0);
	assert_true(f->irqs.count > 0);
	nd_status_set_known(&f->irqs.st);
	nd_strlcpy(f->irqs.list_source, "irq names", sizeof(f->irqs.list_source));
	free(text);
}

static void test_txrx_vectors(void **state)
{
	struct nd_facts *f = bundle_facts("net1", 16);
	char from[ND_REASON_LEN];

	(void)state;
	/* iavf-net1-TxRx-0..7 (and the mailbox IRQ, named for the function). */
	irqs_named(f, "interrupts-iavf-cpu4-unwrapped.txt", "net1");
	assert_int_equal(nd_facts_rx_queues_source(f, from, sizeof(from)), 8);
	assert_int_equal(nd_facts_rx_queues(f), 8);
	assert_non_null(strstr(from, "8 receive IRQs named for net1 in /proc/interrupts"));
	/* More vectors than queues allocated: the allocation bounds them. */
	f->link.rx_queues = 4;
	assert_int_equal(nd_facts_rx_queues(f), 4);
	free(f);
}

static void test_comp_vectors(void **state)
{
	struct nd_facts *f = bundle_facts("ens1f0np0", 0);

	(void)state;
	/* mlx5_comp0..11@pci:0000:01:00.0 count, mlx5_async0 does not. */
	irqs_named(f, "interrupts-connectx5-spread-12cpu.txt", "@pci:0000:01:00.0");
	assert_int_equal(nd_facts_rx_queues(f), 12);
	free(f);
}

static void test_virtio_input(void **state)
{
	struct nd_facts *f = bundle_facts("ens3", 2);

	(void)state;
	irqs_named(f, "sos42-proc_interrupts-virtio-input0-on-cpu0.txt", "virtio0-");
	/* virtio0-input.0 is the receive vector; virtio0-output.0 and
	 * virtio0-config are not. */
	assert_int_equal(nd_facts_rx_queues(f), 1);
	free(f);
}

static void test_allocated_one(void **state)
{
	struct nd_facts *f = bundle_facts("ens3", 1);
	char from[ND_REASON_LEN];

	(void)state;
	assert_int_equal(nd_facts_rx_queues_source(f, from, sizeof(from)), 1);
	assert_string_equal(from, "numrxqueues 1 (sos_commands/networking/ip_-s_-d_link): one "
			    "queue allocated");
	/* More allocated says nothing of the count in use. */
	f->link.rx_queues = 64;
	assert_int_equal(nd_facts_rx_queues_source(f, from, sizeof(from)), 0);
	assert_non_null(strstr(from, "the sosreport has no 'ethtool_-l_ens3'"));
	assert_non_null(strstr(from, "numrxqueues (allocated, an upper bound) is not the count"));
	/* ethtool -l wins over all of them. */
	nd_status_set_known(&f->channels.st);
	f->channels.combined = 6;
	assert_int_equal(nd_facts_rx_queues_source(f, from, sizeof(from)), 6);
	assert_string_equal(from, "ethtool -l");
	free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_txrx_vectors),
		cmocka_unit_test(test_comp_vectors),
		cmocka_unit_test(test_virtio_input),
		cmocka_unit_test(test_allocated_one),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
