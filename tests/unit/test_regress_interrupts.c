/*
 * test_regress_interrupts.c - inputs found by fuzz_interrupts, kept as
 * regression tests.  A capture that repeats an IRQ line (spliced mails, a
 * hostile snapshot) listed the IRQ twice, so its interrupts were counted
 * twice and a wanted-list parse returned more IRQs than were asked for.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "nicdoctor/parse.h"

/* Reduced from build-fuzz/artifacts/fuzz_interrupts-crash-7cde0a3d... */
static const char repeated_lines[] =
	"           CPU0       CPU1\n"
	"  0:       9881          0   IO-APIC-edge      timer\n"
	"  1:          0          9   IO-APIC-edge      i8042\n"
	"  0:       9881          0   IO-APIC-edge      timer\n"
	"  1:          0          9   IO-APIC-edge      i8042\n"
	" 24:          5          5   PCI-MSI-edge      eth0-TxRx-0\n"
	" 24:          5          5   PCI-MSI-edge      eth0-TxRx-0\n";

static void test_repeated_irq_kept_once(void **state)
{
	struct nd_irqs *irqs = calloc(1, sizeof(*irqs));
	unsigned wanted[4] = { 0, 1, 24, 130 };

	(void)state;
	assert_non_null(irqs);
	assert_int_equal(nd_parse_interrupts(repeated_lines, wanted, 4, NULL, irqs), 0);
	assert_int_equal(irqs->count, 3);
	assert_int_equal(irqs->irq[0].total, 9881);
	assert_int_equal(nd_parse_interrupts(repeated_lines, NULL, 0, NULL, irqs), 0);
	assert_int_equal(irqs->count, 3);
	assert_int_equal(nd_parse_interrupts(repeated_lines, NULL, 0, "eth0", irqs), 0);
	assert_int_equal(irqs->count, 1);
	assert_int_equal(irqs->irq[0].total, 10);
	free(irqs);
}

/* The fuzzer's own input, byte for byte as far as it matters. */
static void test_fuzz_artifact(void **state)
{
	static const char text[] =
		"           CPU0       CPU1       CPU2       CPU3       CPU4       CPU5       CPU6       CPU7       \n"
		"  0:       9881          0          0          0          0          0          0          0   IO-APIC-edge      timer\n"
		"  1:          0          0          0          0          0          0          0          9   IO-APIC-edge      i8042\n"
		"  3:         21         25         13         19          2          2   *      3        856   IO-APIC-edge    \n"
		"  0:       9881          0          0          0          0          0          0          0   IO-APIC-edge      timer\n"
		"  1:          0          0          0          0          0          0          0          9   IO-APIC-edge      i8042\n";
	struct nd_irqs *irqs = calloc(1, sizeof(*irqs));
	unsigned wanted[4] = { 0, 1, 24, 130 };

	(void)state;
	assert_non_null(irqs);
	assert_int_equal(nd_parse_interrupts(text, wanted, 4, NULL, irqs), 0);
	assert_true(irqs->count <= 4);
	assert_int_equal(irqs->count, 2);
	free(irqs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_repeated_irq_kept_once),
		cmocka_unit_test(test_fuzz_artifact),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
