/*
 * common.c - error printing and small string helpers used everywhere.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicdoctor/common.h"

void nd_err(const char *fmt, ...)
{
	va_list ap;

	fputs("nicdoctor: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* A word of short options ("-d=1"), not "--long" and not "-". */
static bool short_cluster(const char *w)
{
	return w[0] == '-' && w[1] && w[1] != '-';
}

void nd_option_problem(char *buf, size_t size, int argc, char *const argv[])
{
	const char *prev = optind > 0 ? argv[optind - 1] : argv[0];
	const char *word = prev;

	/* getopt moves past a word only at its last letter: the option sat in
	 * the previous word when that one ends with it, else in the current
	 * one, whose letters are not all read yet. */
	if (optopt > 0 && !(short_cluster(prev) && prev[strlen(prev) - 1] == optopt) &&
	    optind < argc && short_cluster(argv[optind]) && strchr(argv[optind] + 1, optopt))
		word = argv[optind];

	if (optopt > 0 && optopt < 128 && isgraph(optopt) && strncmp(word, "--", 2) != 0) {
		if (word[1] == optopt && !word[2])
			snprintf(buf, size, "'-%c'", optopt);
		else
			snprintf(buf, size, "'-%c' (in '%s')", optopt, word);
	} else {
		snprintf(buf, size, "'%s'", word);
	}
}

void nd_err_option(const char *cmd, int argc, char *const argv[])
{
	char what[300];

	nd_option_problem(what, sizeof(what), argc, argv);
	nd_err("%s: unknown or incomplete option %s", cmd, what);
}

size_t nd_strlcpy(char *dst, const char *src, size_t size)
{
	size_t len = strlen(src);

	if (size) {
		size_t n = len < size - 1 ? len : size - 1;

		memcpy(dst, src, n);
		dst[n] = '\0';
	}
	return len;
}

int nd_ifname_valid(const char *name)
{
	size_t len = strlen(name);

	/* The kernel's dev_valid_name(): IFNAMSIZ-1 bytes, no '/', ':' or space. */
	if (len == 0 || len > 15 || !strcmp(name, ".") || !strcmp(name, ".."))
		return -EINVAL;
	for (const char *p = name; *p; p++)
		if (*p == '/' || *p == ':' || isspace((unsigned char)*p) || !isprint((unsigned char)*p))
			return -EINVAL;
	return 0;
}

int nd_parse_long(const char *text, int base, long lo, long hi, long *ret)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(text, &end, base);
	if (errno || end == text || *end || v < lo || v > hi)
		return -EINVAL;
	*ret = v;
	return 0;
}

int nd_parse_decimal(const char *text, double *ret, const char **ret_end)
{
	const char *s = text;
	size_t digits = 0;
	char *end;
	double v;

	/* strtod() alone would take "nan", "inf" and hex floats: scan first. */
	if (*s == '-' || *s == '+')
		s++;
	for (; isdigit((unsigned char)*s); s++)
		digits++;
	if (*s == '.')
		for (s++; isdigit((unsigned char)*s); s++)
			digits++;
	if (digits == 0)
		return -EINVAL;
	if ((*s == 'e' || *s == 'E') &&
	    (isdigit((unsigned char)s[1]) ||
	     ((s[1] == '-' || s[1] == '+') && isdigit((unsigned char)s[2])))) {
		for (s += 2; isdigit((unsigned char)*s); s++)
			;
	}
	errno = 0;
	v = strtod(text, &end);
	/* ERANGE: beyond a double, or so small it rounds to 0 (1e-400). */
	if (end != s || errno == ERANGE || !isfinite(v))
		return -EINVAL;
	*ret = v;
	*ret_end = s;
	return 0;
}

int nd_parse_rate_si(const char *text, double *ret, const char **ret_end)
{
	const char *end;
	double v;

	if (nd_parse_decimal(text, &v, &end) < 0 || v < 0)
		return -EINVAL;
	switch (*end) {
	case 'k': case 'K': v *= 1e3; end++; break;
	case 'm': case 'M': v *= 1e6; end++; break;
	case 'g': case 'G': v *= 1e9; end++; break;
	case 't': case 'T': v *= 1e12; end++; break;
	default: break;
	}
	*ret = v;
	*ret_end = end;
	return 0;
}
