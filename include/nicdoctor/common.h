/*
 * common.h - exit codes (public interface, documented in nicdoctor(8)),
 * error printing and small helpers shared by every part.
 */
#ifndef NICDOCTOR_COMMON_H
#define NICDOCTOR_COMMON_H

#include <stddef.h>

#define ND_VERSION "0.1.0"

/* Exit codes: DESIGN.md contract. */
#define ND_EXIT_OK        0	/* no warning or worse */
#define ND_EXIT_WARNING   1	/* warnings */
#define ND_EXIT_CRITICAL  2	/* critical findings */
#define ND_EXIT_USAGE     3	/* bad flag, bad or unknown interface */
#define ND_EXIT_ENV       4	/* missing permission, peer unreachable */

#define ND_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* "nicdoctor: <message>" on stderr, one line, no trailing period. */
void nd_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* After getopt_long returned '?' or ':' (opterr = 0): "unknown or
 * incomplete option '-x'" and the word it sat in ("-d=1" is -d, then an
 * unknown '-='), or the long option's word, as one line. */
void nd_err_option(const char *cmd, int argc, char *const argv[]);
/* Its quoted part ("'-=' (in '-d=1')"), for tests. */
void nd_option_problem(char *buf, size_t size, int argc, char *const argv[]);

/* Copy with truncation, always NUL-terminated. Returns strlen(src). */
size_t nd_strlcpy(char *dst, const char *src, size_t size);

/* A whole string as a number in [lo, hi] (base 10, or 0 for C prefixes
 * such as iperf3's "-S 0x10").  0 or -EINVAL. */
int nd_parse_long(const char *text, int base, long lo, long hi, long *ret);

/* A plain decimal number at the start of text ("3", "-1.5", "2e3"): no hex,
 * no "nan" or "inf", finite.  *ret_end points past it, where a unit suffix
 * may follow.  0 or -EINVAL. */
int nd_parse_decimal(const char *text, double *ret, const char **ret_end);

/* A non-negative decimal rate with iperf3's 1000-based K, M, G or T
 * ("1G", "2.5m"): bits/s in *ret, *ret_end past the suffix (where "/N"
 * may follow).  0 or -EINVAL. */
int nd_parse_rate_si(const char *text, double *ret, const char **ret_end);

/* Validate an interface name as the kernel does: 1..15 bytes, no '/',
 * no whitespace, not "." or "..".  0 or -EINVAL. */
int nd_ifname_valid(const char *name);

#endif
