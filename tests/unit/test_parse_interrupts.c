/*
 * test_parse_interrupts.c - the /proc/interrupts parser on real captures
 * (tests/fixtures/raw/): old, new and virtio chip columns, a wrapped mail
 * capture, a grep'd capture without a header, and garbage; a table of
 * ND_MAX_CPUS columns printed the way the kernel prints it.
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

#include "nicdoctor/parse.h"

/* A raw capture without its first-line provenance comment, malloc'd. */
static struct nd_irqs *new_irqs(void)
{
	struct nd_irqs *irqs = calloc(1, sizeof(*irqs));

	assert_non_null(irqs);
	return irqs;
}

static void test_azure_old_chip_column(void **state)
{
	struct nd_irqs *irqs = new_irqs();
	char *text = raw("interrupts-azure-mlx5-cpu0.txt");

	(void)state;
	assert_int_equal(nd_parse_interrupts(text, NULL, 0, "mlx5_comp", irqs), 0);
	assert_int_equal(irqs->n_cpu_columns, 8);
	assert_int_equal(irqs->count, 16);
	assert_int_equal(irqs->irq[0].irq, 28);
	assert_string_equal(irqs->irq[0].name, "mlx5_comp0@pci:8b76:00:02.0");
	assert_int_equal(irqs->irq[0].per_cpu[0], 123648);
	assert_int_equal(irqs->irq[0].total, 123648);
	for (unsigned i = 0; i < irqs->count; i++)
		for (unsigned c = 1; c < 8; c++)
			assert_int_equal(irqs->irq[i].per_cpu[c], 0);
	/* "3: ... IO-APIC-edge" has no action name; "12:" has no indent. */
	assert_int_equal(nd_parse_interrupts(text, (unsigned[]){ 3, 12, 47 }, 3, NULL, irqs), 0);
	assert_int_equal(irqs->count, 3);
	assert_string_equal(irqs->irq[0].name, "");
	assert_int_equal(irqs->irq[0].per_cpu[7], 856);
	assert_string_equal(irqs->irq[1].name, "i8042");
	assert_string_equal(irqs->irq[2].name, "mlx5_comp7@pci:83a4:00:02.0");
	free(text);
	free(irqs);
}

static void test_new_chip_column_no_header(void **state)
{
	struct nd_irqs *irqs = new_irqs();
	char *text = raw("interrupts-connectx5-spread-12cpu.txt");

	(void)state;
	assert_int_equal(nd_parse_interrupts(text, NULL, 0, "@pci:0000:01:00.0", irqs), 0);
	assert_int_equal(irqs->n_cpu_columns, 12);	/* inferred: the grep dropped the header */
	assert_int_equal(irqs->count, 13);
	assert_int_equal(irqs->irq[1].irq, 99);
	assert_string_equal(irqs->irq[1].name, "mlx5_comp0@pci:0000:01:00.0");
	assert_int_equal(irqs->irq[1].per_cpu[7], 4360);
	assert_int_equal(irqs->irq[12].irq, 119);
	assert_int_equal(irqs->irq[12].per_cpu[8], 146064);
	assert_string_equal(irqs->irq[12].name, "mlx5_comp11@pci:0000:01:00.0");
	free(text);
	free(irqs);
}

static void test_virtio_machine(void **state)
{
	struct nd_irqs *irqs = new_irqs();
	char *text = raw("interrupts-virtio-vm-dev.txt");

	(void)state;
	assert_int_equal(nd_parse_interrupts(text, (unsigned[]){ 37, 38, 39 }, 3, NULL, irqs), 0);
	assert_int_equal(irqs->n_cpu_columns, 2);
	assert_int_equal(irqs->count, 3);
	assert_string_equal(irqs->irq[0].name, "virtio2-config");
	assert_string_equal(irqs->irq[1].name, "virtio2-input.0");
	assert_string_equal(irqs->irq[2].name, "virtio2-output.0");
	assert_int_equal(nd_parse_interrupts(text, NULL, 0, "ACPI:Ged", irqs), 0);
	assert_int_equal(irqs->count, 2);
	free(text);
	free(irqs);
}

static void test_iavf_wrapped_and_unwrapped(void **state)
{
	struct nd_irqs *wrapped = new_irqs(), *flat = new_irqs();
	char *text_w = raw("interrupts-iavf-cpu4-wrapped.txt");
	char *text_f = raw("interrupts-iavf-cpu4-unwrapped.txt");

	(void)state;
	assert_int_equal(nd_parse_interrupts(text_w, NULL, 0, "iavf-net1-TxRx", wrapped), 0);
	assert_int_equal(nd_parse_interrupts(text_f, NULL, 0, "iavf-net1-TxRx", flat), 0);
	assert_int_equal(wrapped->n_cpu_columns, 6);
	assert_int_equal(wrapped->count, 8);
	assert_int_equal(flat->count, 8);
	for (unsigned i = 0; i < 8; i++) {
		assert_int_equal(wrapped->irq[i].irq, flat->irq[i].irq);
		assert_string_equal(wrapped->irq[i].name, flat->irq[i].name);
		assert_int_equal(wrapped->irq[i].per_cpu[4], flat->irq[i].per_cpu[4]);
		assert_int_equal(wrapped->irq[i].total, wrapped->irq[i].per_cpu[4]);
	}
	assert_int_equal(flat->irq[0].irq, 942);
	assert_int_equal(flat->irq[0].per_cpu[4], 333832);
	assert_string_equal(flat->irq[7].name, "iavf-net1-TxRx-3");
	assert_int_equal(nd_parse_interrupts(text_w, (unsigned[]){ 941 }, 1, NULL, wrapped), 0);
	assert_string_equal(wrapped->irq[0].name, "iavf-0000:b5:03.6:mbx");
	free(text_w);
	free(text_f);
	free(wrapped);
	free(flat);
}

static void test_short_and_garbage_lines(void **state)
{
	struct nd_irqs *irqs = new_irqs();
	const char *text =
		"           CPU0       CPU1       CPU2       CPU3\n"
		" 50:         10         20\n"			/* cut after two columns */
		" 51:          1          2          3          4   GICv3  30 Level     arch_timer\n"
		"xx: garbage : : \n"
		"99999999999999999999: 1 2\n"
		" 52:   18446744073709551615 99999999999999999999999 PCI-MSI 1-edge eth0\n"
		":\n\n";

	(void)state;
	assert_int_equal(nd_parse_interrupts(text, NULL, 0, NULL, irqs), 0);
	assert_int_equal(irqs->n_cpu_columns, 4);
	assert_int_equal(irqs->count, 3);
	assert_int_equal(irqs->irq[0].per_cpu[1], 20);
	assert_int_equal(irqs->irq[0].per_cpu[2], 0);
	assert_string_equal(irqs->irq[1].name, "arch_timer");
	assert_int_equal(irqs->irq[1].total, 10);
	assert_int_equal(nd_parse_interrupts("", NULL, 0, NULL, irqs), 0);
	assert_int_equal(irqs->count, 0);
	assert_int_equal(nd_parse_interrupts(NULL, NULL, 0, NULL, irqs), -EINVAL);
	free(irqs);
}

/* Columns are the online CPUs: with CPU1 offline the third column is CPU3. */
static void test_offline_cpu_columns(void **state)
{
	struct nd_irqs *irqs = new_irqs();
	const char *text =
		"           CPU0       CPU2       CPU3\n"
		" 41:          0          0     500000  IR-PCI-MSI 1-edge      eth0-rx-0\n";

	(void)state;
	assert_int_equal(nd_parse_interrupts(text, NULL, 0, NULL, irqs), 0);
	assert_true(irqs->column_cpu_known);
	assert_int_equal(irqs->n_cpu_columns, 3);
	assert_int_equal(irqs->column_cpu[1], 2);
	assert_int_equal(irqs->column_cpu[2], 3);
	assert_int_equal(irqs->irq[0].per_cpu[2], 500000);
	/* A grep'd capture without the header says nothing of CPU numbers. */
	assert_int_equal(nd_parse_interrupts(strchr(text, '\n') + 1, NULL, 0, NULL, irqs), 0);
	assert_false(irqs->column_cpu_known);
	assert_int_equal(irqs->count, 1);
	assert_int_equal(irqs->n_cpu_columns, 3);
	free(irqs);
}

/* /proc/interrupts as kernel/irq/proc.c prints it: "CPU%-8d" headers,
 * "%*d: " and "%10u " counts, for n_cpus online CPUs; IRQ 100+q fires on
 * CPU n_cpus-1-q only.  malloc'd. */
static char *kernel_table(unsigned n_cpus, unsigned n_irqs)
{
	size_t size = (size_t)(n_irqs + 1) * (n_cpus * 11 + 128), used = 0;
	char *text = malloc(size);

	assert_non_null(text);
	used += (size_t)snprintf(text + used, size - used, "%*s", 3 + 8, "");
	for (unsigned cpu = 0; cpu < n_cpus; cpu++)
		used += (size_t)snprintf(text + used, size - used, "CPU%-8u", cpu);
	used += (size_t)snprintf(text + used, size - used, "\n");
	for (unsigned q = 0; q < n_irqs; q++) {
		used += (size_t)snprintf(text + used, size - used, "%*u: ", 3, 100 + q);
		for (unsigned cpu = 0; cpu < n_cpus; cpu++)
			used += (size_t)snprintf(text + used, size - used, "%10u ",
						 cpu == n_cpus - 1 - q ? 1000 + q : 0);
		used += (size_t)snprintf(text + used, size - used, " IR-PCI-MSIX-0000:01:00.0 "
					 "%u-edge      eth0-TxRx-%u\n", q + 1, q);
	}
	return text;
}

/* A host with ND_MAX_CPUS CPUs: every line is over 11 KiB, the header too. */
static void test_max_cpus_table(void **state)
{
	struct nd_irqs *irqs = new_irqs();
	char *text = kernel_table(ND_MAX_CPUS, 4);

	(void)state;
	assert_true(strchr(text, '\n') - text > 11 * ND_MAX_CPUS);
	assert_int_equal(nd_parse_interrupts(text, NULL, 0, "eth0", irqs), 0);
	assert_true(irqs->column_cpu_known);
	assert_int_equal(irqs->n_cpu_columns, ND_MAX_CPUS);
	assert_int_equal(irqs->column_cpu[ND_MAX_CPUS - 1], ND_MAX_CPUS - 1);
	assert_int_equal(irqs->count, 4);
	for (unsigned q = 0; q < 4; q++) {
		assert_int_equal(irqs->irq[q].irq, 100 + q);
		assert_int_equal(irqs->irq[q].per_cpu[ND_MAX_CPUS - 1 - q], 1000 + q);
		assert_int_equal(irqs->irq[q].total, 1000 + q);
	}
	assert_string_equal(irqs->irq[3].name, "eth0-TxRx-3");
	assert_int_equal(nd_parse_interrupts(text, (unsigned[]){ 102 }, 1, NULL, irqs), 0);
	assert_int_equal(irqs->count, 1);
	assert_int_equal(irqs->irq[0].per_cpu[ND_MAX_CPUS - 3], 1002);
	free(text);
	free(irqs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_azure_old_chip_column),
		cmocka_unit_test(test_new_chip_column_no_header),
		cmocka_unit_test(test_virtio_machine),
		cmocka_unit_test(test_iavf_wrapped_and_unwrapped),
		cmocka_unit_test(test_short_and_garbage_lines),
		cmocka_unit_test(test_offline_cpu_columns),
		cmocka_unit_test(test_max_cpus_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
