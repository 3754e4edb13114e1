/*
 * fuzz_interrupts.c - libFuzzer target for the /proc/interrupts parser,
 * in its three modes: every IRQ, IRQs whose name matches, and a list of
 * wanted IRQ numbers (taken from the input's first bytes).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nicdoctor/parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nd_irqs *irqs = malloc(sizeof(*irqs));
	unsigned wanted[4] = { 0, 1, 24, 130 };
	char *text = malloc(size + 1);

	if (!irqs || !text)
		goto out;
	memcpy(text, data, size);
	text[size] = '\0';
	if (size >= 4)
		wanted[3] = (unsigned)data[0] << 8 | data[1];
	nd_parse_interrupts(text, NULL, 0, NULL, irqs);
	if (irqs->count > ND_MAX_IRQS)
		__builtin_trap();
	nd_parse_interrupts(text, NULL, 0, "eth0", irqs);
	nd_parse_interrupts(text, wanted, 4, NULL, irqs);
	if (irqs->count > 4)
		__builtin_trap();
out:
	free(text);
	free(irqs);
	return 0;
}
