/*
 * cpuset.h - a fixed-size CPU set and the parsers for the kernel's two
 * textual forms: hex masks with comma-separated 32-bit words
 * ("00000000,0000000f") and CPU lists with ranges ("0-3,8,10-11").
 */
#ifndef NICDOCTOR_CPUSET_H
#define NICDOCTOR_CPUSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ND_CPUSET_BITS 1024

struct nd_cpuset {
	uint64_t bits[ND_CPUSET_BITS / 64];
};

void nd_cpuset_zero(struct nd_cpuset *set);
void nd_cpuset_add(struct nd_cpuset *set, unsigned cpu);
bool nd_cpuset_has(const struct nd_cpuset *set, unsigned cpu);
unsigned nd_cpuset_count(const struct nd_cpuset *set);
bool nd_cpuset_empty(const struct nd_cpuset *set);
/* Lowest CPU in the set, -1 if empty. */
int nd_cpuset_first(const struct nd_cpuset *set);

/* Parse "ff,ffffffff" (hex words, most significant first). 0 or -EINVAL. */
int nd_cpuset_parse_mask(const char *text, struct nd_cpuset *ret_set);
/* Parse "0-3,8" (empty string: empty set). 0 or -EINVAL. */
int nd_cpuset_parse_list(const char *text, struct nd_cpuset *ret_set);
/* Format as a CPU list "0-3,8" into buf; returns buf. */
char *nd_cpuset_format_list(const struct nd_cpuset *set, char *buf, size_t size);
/* Format as a hex mask in the kernel's comma-separated style. */
char *nd_cpuset_format_mask(const struct nd_cpuset *set, char *buf, size_t size);

#endif
