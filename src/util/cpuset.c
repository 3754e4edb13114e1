/*
 * cpuset.c - fixed-size CPU sets and the kernel's mask and list formats.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicdoctor/cpuset.h"

void nd_cpuset_zero(struct nd_cpuset *set)
{
	memset(set, 0, sizeof(*set));
}

void nd_cpuset_add(struct nd_cpuset *set, unsigned cpu)
{
	if (cpu < ND_CPUSET_BITS)
		set->bits[cpu / 64] |= UINT64_C(1) << (cpu % 64);
}

bool nd_cpuset_has(const struct nd_cpuset *set, unsigned cpu)
{
	return cpu < ND_CPUSET_BITS && (set->bits[cpu / 64] >> (cpu % 64)) & 1;
}

unsigned nd_cpuset_count(const struct nd_cpuset *set)
{
	unsigned count = 0;

	for (size_t i = 0; i < ND_CPUSET_BITS / 64; i++)
		count += (unsigned)__builtin_popcountll(set->bits[i]);
	return count;
}

bool nd_cpuset_empty(const struct nd_cpuset *set)
{
	return nd_cpuset_count(set) == 0;
}

int nd_cpuset_first(const struct nd_cpuset *set)
{
	for (unsigned cpu = 0; cpu < ND_CPUSET_BITS; cpu++)
		if (nd_cpuset_has(set, cpu))
			return (int)cpu;
	return -1;
}

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)tolower((unsigned char)c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

int nd_cpuset_parse_mask(const char *text, struct nd_cpuset *ret_set)
{
	struct nd_cpuset set;
	size_t len = strlen(text);
	unsigned bit = 0;
	bool any_digit = false;

	while (len && isspace((unsigned char)text[len - 1]))
		len--;
	nd_cpuset_zero(&set);
	/* Walk from the least significant (rightmost) nibble; commas separate
	 * 32-bit words and carry no weight. */
	for (size_t i = len; i-- > 0;) {
		int v;

		if (text[i] == ',')
			continue;
		v = hex_value(text[i]);
		if (v < 0)
			return -EINVAL;
		any_digit = true;
		for (int b = 0; b < 4; b++, bit++)
			if ((v >> b) & 1) {
				if (bit >= ND_CPUSET_BITS)
					return -ERANGE;
				nd_cpuset_add(&set, bit);
			}
	}
	if (!any_digit)
		return -EINVAL;
	*ret_set = set;
	return 0;
}

static int parse_cpu_number(const char **p, unsigned *ret)
{
	char *end;
	unsigned long v;

	if (!isdigit((unsigned char)**p))
		return -EINVAL;
	errno = 0;
	v = strtoul(*p, &end, 10);
	if (errno || v >= ND_CPUSET_BITS)
		return -ERANGE;
	*p = end;
	*ret = (unsigned)v;
	return 0;
}

int nd_cpuset_parse_list(const char *text, struct nd_cpuset *ret_set)
{
	struct nd_cpuset set;
	const char *p = text;

	nd_cpuset_zero(&set);
	while (isspace((unsigned char)*p))
		p++;
	while (*p && !isspace((unsigned char)*p)) {
		unsigned lo, hi;
		int r = parse_cpu_number(&p, &lo);

		if (r < 0)
			return r;
		hi = lo;
		if (*p == '-') {
			p++;
			r = parse_cpu_number(&p, &hi);
			if (r < 0)
				return r;
			if (hi < lo)
				return -EINVAL;
		}
		for (unsigned cpu = lo; cpu <= hi; cpu++)
			nd_cpuset_add(&set, cpu);
		if (*p == ',')
			p++;
		else if (*p && !isspace((unsigned char)*p))
			return -EINVAL;
	}
	*ret_set = set;
	return 0;
}

char *nd_cpuset_format_list(const struct nd_cpuset *set, char *buf, size_t size)
{
	size_t used = 0;

	if (!size)
		return buf;
	buf[0] = '\0';
	for (unsigned cpu = 0; cpu < ND_CPUSET_BITS; cpu++) {
		unsigned last = cpu;
		int n;

		if (!nd_cpuset_has(set, cpu))
			continue;
		while (last + 1 < ND_CPUSET_BITS && nd_cpuset_has(set, last + 1))
			last++;
		if (last == cpu)
			n = snprintf(buf + used, size - used, "%s%u", used ? "," : "", cpu);
		else
			n = snprintf(buf + used, size - used, "%s%u-%u", used ? "," : "", cpu, last);
		if (n < 0 || (size_t)n >= size - used)
			break;
		used += (size_t)n;
		cpu = last;
	}
	return buf;
}

char *nd_cpuset_format_mask(const struct nd_cpuset *set, char *buf, size_t size)
{
	int top = -1;
	size_t used = 0;

	if (!size)
		return buf;
	for (int cpu = ND_CPUSET_BITS - 1; cpu >= 0; cpu--)
		if (nd_cpuset_has(set, (unsigned)cpu)) {
			top = cpu;
			break;
		}
	/* Same shape as the kernel's bitmap_print: 32-bit words, comma-separated. */
	for (int word = top < 0 ? 0 : top / 32; word >= 0; word--) {
		uint32_t value = (uint32_t)(set->bits[word / 2] >> ((word % 2) * 32));
		int n = snprintf(buf + used, size - used, "%s%08x", used ? "," : "", value);

		if (n < 0 || (size_t)n >= size - used)
			break;
		used += (size_t)n;
	}
	return buf;
}
