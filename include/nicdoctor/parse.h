/*
 * parse.h - parsers for the kernel's text formats, pure (no I/O) so each is
 * unit tested on real captures and fuzzed.
 */
#ifndef NICDOCTOR_PARSE_H
#define NICDOCTOR_PARSE_H

#include <stddef.h>
#include <stdint.h>

#include "nicdoctor/facts.h"

/*
 * /proc/interrupts: fill irqs->irq[] for the IRQ numbers in `wanted`
 * (count n_wanted; NULL = every numbered line whose action name contains
 * name_match).  Handles the old single-token and the new multi-token chip
 * columns.  0 or negative errno.
 */
int nd_parse_interrupts(const char *text, const unsigned *wanted, unsigned n_wanted,
			const char *name_match, struct nd_irqs *irqs);

/* /proc/net/softnet_stat with 9 to 15 hex columns. 0 or -EINVAL. */
int nd_parse_softnet(const char *text, struct nd_softnet *softnet);

/* "iperf 3.12 (cJSON 1.7.15)" -> 3, 12.  0 or -EINVAL. */
int nd_parse_iperf3_version(const char *text, int *ret_major, int *ret_minor);

/* Exactly `count` unsigned decimal numbers separated by blanks, with
 * nothing else but a trailing newline.  0 or -EINVAL. */
int nd_parse_numbers(const char *text, uint64_t *values, unsigned count);

/* "4096 131072 6291456" -> the third value.  0 or -EINVAL. */
int nd_parse_triple_max(const char *text, uint64_t *ret_max);

#endif
