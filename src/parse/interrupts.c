/*
 * interrupts.c - parser for /proc/interrupts.
 *
 * The header line names one column per online CPU ("CPU0 CPU1 ...").  Each
 * numbered line is "IRQ: count... chip [hwirq-trigger] action[, action]".
 * Chip columns come in three shapes seen in the wild:
 *   old:   "PCI-MSI-edge      mlx5_comp0@pci:8b76:00:02.0"
 *   new:   "IR-PCI-MSIX-0000:01:00.0    1-edge      mlx5_comp0@pci:0000:01:00.0"
 *   other: "PCI-MSIX-0000:00:04.0   1-edge      virtio3-rx", "GICv3  30 Level  timer"
 * Captures pasted into mails are wrapped or cut, so a line may hold fewer
 * count columns than there are CPUs: the missing ones count as zero.
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "nicdoctor/common.h"
#include "nicdoctor/parse.h"

/* The kernel prints 11 characters per CPU column ("%10u "), so a line of
 * ND_MAX_CPUS columns is about 11 KiB; the rest is room for the IRQ number,
 * chip and action names.  A longer line is not a table this build can hold. */
#define IRQ_LINE_MAX (ND_MAX_CPUS * 11 + 4096)

static const char *skip_space(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

static const char *token_end(const char *p, const char *end)
{
	while (p < end && *p != ' ' && *p != '\t')
		p++;
	return p;
}

static bool token_is_digits(const char *p, const char *end)
{
	if (p == end)
		return false;
	for (; p < end; p++)
		if (!isdigit((unsigned char)*p))
			return false;
	return true;
}

/* "CPU0  CPU1 ..." -> number of CPU columns, each column's CPU number in
 * column_cpu (columns are the online CPUs, which need not be contiguous);
 * 0 when the line is not a header. */
static unsigned header_columns(const char *line, const char *end, unsigned *column_cpu)
{
	unsigned columns = 0;
	const char *p = skip_space(line, end);

	while (p < end) {
		const char *t = token_end(p, end);
		unsigned long cpu;

		if (t - p < 4 || t - p > 10 || strncmp(p, "CPU", 3) || !token_is_digits(p + 3, t))
			return 0;
		cpu = strtoul(p + 3, NULL, 10);
		if (columns < ND_IRQ_MAX_CPUS)
			column_cpu[columns] = cpu < ND_MAX_CPUS ? (unsigned)cpu : 0;
		columns++;
		p = skip_space(t, end);
	}
	return columns;
}

/* Whether a token after the chip name is the hwirq/trigger part, not a name:
 * "1-edge", "524288-edge", "30", "Level", "Edge", "-fasteoi". */
static bool token_is_trigger(const char *p, const char *end)
{
	static const char *const words[] = { "edge", "level", "fasteoi", "simple", "Edge", "Level" };
	const char *dash = memchr(p, '-', (size_t)(end - p));
	const char *word = p;

	if (token_is_digits(p, end))
		return true;
	if (dash) {
		if (!token_is_digits(p, dash) && dash != p)
			return false;
		word = dash + 1;
	}
	for (size_t i = 0; i < ND_ARRAY_SIZE(words); i++)
		if ((size_t)(end - word) == strlen(words[i]) && !strncmp(word, words[i], (size_t)(end - word)))
			return true;
	return false;
}

/* After the counts: skip the chip and trigger tokens, copy the action names. */
static void copy_action_name(const char *p, const char *end, char *name, size_t size)
{
	const char *t;
	size_t len;

	name[0] = '\0';
	p = skip_space(p, end);
	if (p == end)
		return;
	p = skip_space(token_end(p, end), end);		/* chip */
	for (int skipped = 0; p < end && skipped < 2; skipped++) {
		t = token_end(p, end);
		if (!token_is_trigger(p, t))
			break;
		p = skip_space(t, end);
	}
	while (end > p && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		end--;
	len = (size_t)(end - p);
	if (len >= size)
		len = size - 1;
	memcpy(name, p, len);
	name[len] = '\0';
}

/* A spliced or hostile capture may repeat a line: keep each IRQ once. */
static bool irq_seen(const struct nd_irqs *irqs, unsigned irq)
{
	for (unsigned i = 0; i < irqs->count; i++)
		if (irqs->irq[i].irq == irq)
			return true;
	return false;
}

static bool irq_wanted(unsigned irq, const unsigned *wanted, unsigned n_wanted)
{
	for (unsigned i = 0; i < n_wanted; i++)
		if (wanted[i] == irq)
			return true;
	return false;
}

/* Parse the counts of one numbered line into irq; returns where they end. */
static const char *parse_counts(const char *p, const char *end, unsigned max_columns,
				struct nd_irq *irq, unsigned *ret_columns)
{
	unsigned column = 0;

	for (;;) {
		const char *q = skip_space(p, end), *t = token_end(q, end);
		uint64_t value = 0;

		if (column >= max_columns || !token_is_digits(q, t) || t - q > 20)
			break;
		for (const char *d = q; d < t; d++)
			value = value * 10 + (uint64_t)(*d - '0');
		if (column < ND_IRQ_MAX_CPUS)
			irq->per_cpu[column] = value;
		irq->total += value;
		column++;
		p = t;
	}
	*ret_columns = column;
	return p;
}

struct irq_parse {
	const unsigned *wanted;
	unsigned n_wanted;
	const char *name_match;
	unsigned columns;		/* from the header, 0 until seen */
	unsigned widest;		/* most count columns on one line */
	bool name_pending;		/* last IRQ kept, its name wrapped to the next line */
	struct nd_irqs *irqs;
};

/* Apply name_match to the last IRQ kept, dropping it when it does not match. */
static void settle_pending(struct irq_parse *st)
{
	struct nd_irq *last = &st->irqs->irq[st->irqs->count - 1];

	st->name_pending = false;
	if (!st->wanted && st->name_match && !strstr(last->name, st->name_match))
		st->irqs->count--;
}

static void parse_line(struct irq_parse *st, const char *line, const char *end)
{
	const char *p = skip_space(line, end), *colon = memchr(p, ':', (size_t)(end - p));
	struct nd_irqs *irqs = st->irqs;
	struct nd_irq *irq;
	unsigned long number;
	unsigned used;

	if (!colon || !token_is_digits(p, colon) || colon - p > 9) {
		/* A wrapped capture puts "chip name" on its own indented line. */
		if (st->name_pending && p > line && p < end)
			copy_action_name(p, end, irqs->irq[irqs->count - 1].name,
					 sizeof(irqs->irq[0].name));
		if (st->name_pending)
			settle_pending(st);
		return;
	}
	if (st->name_pending)
		settle_pending(st);
	if (irqs->count >= ND_MAX_IRQS)
		return;
	number = strtoul(p, NULL, 10);
	if ((st->wanted && !irq_wanted((unsigned)number, st->wanted, st->n_wanted)) ||
	    irq_seen(irqs, (unsigned)number))
		return;
	irq = &irqs->irq[irqs->count];
	memset(irq, 0, sizeof(*irq));
	irq->irq = (unsigned)number;
	p = parse_counts(colon + 1, end, st->columns ? st->columns : ND_IRQ_MAX_CPUS, irq, &used);
	if (used > st->widest)
		st->widest = used;
	copy_action_name(p, end, irq->name, sizeof(irq->name));
	irqs->count++;
	if (!irq->name[0])
		st->name_pending = true;
	else if (!st->wanted && st->name_match && !strstr(irq->name, st->name_match))
		irqs->count--;
}

int nd_parse_interrupts(const char *text, const unsigned *wanted, unsigned n_wanted,
			const char *name_match, struct nd_irqs *irqs)
{
	struct irq_parse st = {
		.wanted = wanted, .n_wanted = n_wanted, .name_match = name_match, .irqs = irqs,
	};
	const char *line = text;

	if (!text || !irqs)
		return -EINVAL;
	irqs->count = 0;
	irqs->column_cpu_known = false;
	while (*line) {
		const char *end = strchr(line, '\n');
		const char *next = end ? end + 1 : line + strlen(line);

		if (!end)
			end = next;
		if (end - line < IRQ_LINE_MAX) {
			unsigned header = st.columns ? 0 :
					  header_columns(line, end, irqs->column_cpu);

			if (header) {
				st.columns = header;
				irqs->column_cpu_known = true;
			}
			else
				parse_line(&st, line, end);
		}
		line = next;
	}
	if (st.name_pending)
		settle_pending(&st);
	/* Without a header (a grep'd capture) the widest line gives the CPU count. */
	irqs->n_cpu_columns = st.columns ? st.columns : st.widest;
	return 0;
}
