/*
 * misc.c - small text parsers: `iperf3 --version` and the three-value
 * sysctls (net.ipv4.tcp_rmem / tcp_wmem).
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "nicdoctor/parse.h"

static int parse_small_number(const char **p, int *ret)
{
	long value = 0;

	if (!isdigit((unsigned char)**p))
		return -EINVAL;
	while (isdigit((unsigned char)**p)) {
		value = value * 10 + (**p - '0');
		if (value > 100000)
			return -EINVAL;
		(*p)++;
	}
	*ret = (int)value;
	return 0;
}

int nd_parse_iperf3_version(const char *text, int *ret_major, int *ret_minor)
{
	const char *p;
	int major, minor;

	if (!text)
		return -EINVAL;
	/* "iperf 3.12 (cJSON 1.7.15)"; some builds say "iperf3 3.9". */
	p = strstr(text, "iperf");
	if (!p)
		return -EINVAL;
	p += 5;
	if (*p == '3')
		p++;
	while (*p == ' ' || *p == '\t')
		p++;
	if (parse_small_number(&p, &major) < 0 || *p != '.')
		return -EINVAL;
	p++;
	if (parse_small_number(&p, &minor) < 0)
		return -EINVAL;
	*ret_major = major;
	*ret_minor = minor;
	return 0;
}

int nd_parse_numbers(const char *text, uint64_t *values, unsigned count)
{
	const char *p = text;

	if (!text)
		return -EINVAL;
	for (unsigned i = 0; i < count; i++) {
		char *end;

		while (*p == ' ' || *p == '\t')
			p++;
		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		errno = 0;
		values[i] = strtoull(p, &end, 10);
		if (errno)
			return -EINVAL;
		p = end;
	}
	while (*p == ' ' || *p == '\t' || *p == '\n')
		p++;
	return *p ? -EINVAL : 0;
}

int nd_parse_triple_max(const char *text, uint64_t *ret_max)
{
	uint64_t values[3];
	int r = nd_parse_numbers(text, values, 3);

	if (r < 0)
		return r;
	*ret_max = values[2];
	return 0;
}
