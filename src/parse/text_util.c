/*
 * text_util.c - bounded line and token helpers shared by the command-output
 * parsers (see text_util.h).  Nothing here allocates or reads past `end`.
 */
#include <errno.h>
#include <string.h>

#include "nicdoctor/text_util.h"

void nd_cursor_init(struct nd_cursor *c, const char *text, size_t len)
{
	c->p = text;
	c->end = text ? text + len : text;
}

bool nd_next_line(struct nd_cursor *c, struct nd_span *ret_line)
{
	const char *nl;

	if (!c->p || c->p >= c->end)
		return false;
	nl = memchr(c->p, '\n', (size_t)(c->end - c->p));
	ret_line->p = c->p;
	ret_line->len = (size_t)((nl ? nl : c->end) - c->p);
	if (ret_line->len && ret_line->p[ret_line->len - 1] == '\r')
		ret_line->len--;
	c->p = nl ? nl + 1 : c->end;
	return true;
}

static bool is_blank(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\v' || ch == '\f';
}

/* Mail and web pastes indent with UTF-8 no-break spaces (C2 A0). */
static bool nbsp_at(const char *p, size_t left)
{
	return left >= 2 && (unsigned char)p[0] == 0xc2 && (unsigned char)p[1] == 0xa0;
}

struct nd_span nd_span_trim(struct nd_span s)
{
	for (;;) {
		if (s.len && is_blank(s.p[0])) {
			s.p++;
			s.len--;
		} else if (nbsp_at(s.p, s.len)) {
			s.p += 2;
			s.len -= 2;
		} else {
			break;
		}
	}
	for (;;) {
		if (s.len && is_blank(s.p[s.len - 1]))
			s.len--;
		else if (s.len >= 2 && nbsp_at(s.p + s.len - 2, 2))
			s.len -= 2;
		else
			break;
	}
	return s;
}

bool nd_span_blank(struct nd_span s)
{
	return nd_span_trim(s).len == 0;
}

bool nd_span_eq(struct nd_span s, const char *str)
{
	size_t n = strlen(str);

	return s.len == n && !memcmp(s.p, str, n);
}

bool nd_span_starts(struct nd_span s, const char *prefix)
{
	size_t n = strlen(prefix);

	return s.len >= n && !memcmp(s.p, prefix, n);
}

const char *nd_span_find(struct nd_span s, const char *needle)
{
	size_t n = strlen(needle);

	if (!n || s.len < n)
		return NULL;
	return memmem(s.p, s.len, needle, n);
}

bool nd_span_contains(struct nd_span s, const char *needle)
{
	return nd_span_find(s, needle) != NULL;
}

struct nd_span nd_span_from(struct nd_span s, size_t n)
{
	if (n > s.len)
		n = s.len;
	s.p += n;
	s.len -= n;
	return s;
}

bool nd_span_kv(struct nd_span line, struct nd_span *ret_key, struct nd_span *ret_val)
{
	const char *colon = line.len ? memchr(line.p, ':', line.len) : NULL;

	if (!colon)
		return false;
	ret_key->p = line.p;
	ret_key->len = (size_t)(colon - line.p);
	*ret_key = nd_span_trim(*ret_key);
	*ret_val = nd_span_trim(nd_span_from(line, (size_t)(colon - line.p) + 1));
	return true;
}

bool nd_span_token(struct nd_span s, size_t *pos, struct nd_span *ret_tok)
{
	size_t i = *pos;

	while (i < s.len && (is_blank(s.p[i]) || nbsp_at(s.p + i, s.len - i)))
		i += is_blank(s.p[i]) ? 1 : 2;
	if (i >= s.len) {
		*pos = s.len;
		return false;
	}
	ret_tok->p = s.p + i;
	while (i < s.len && !is_blank(s.p[i]) && !nbsp_at(s.p + i, s.len - i))
		i++;
	ret_tok->len = (size_t)(s.p + i - ret_tok->p);
	*pos = i;
	return true;
}

void nd_span_copy(struct nd_span s, char *dst, size_t size)
{
	size_t n;

	if (!size)
		return;
	n = s.len < size - 1 ? s.len : size - 1;
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s.p[i];

		dst[i] = ch >= 0x20 && ch < 0x7f ? (char)ch : '?';
	}
	dst[n] = '\0';
}

int nd_span_u64_prefix(struct nd_span s, uint64_t *ret, size_t *ret_used)
{
	uint64_t value = 0;
	size_t i = 0;

	while (i < s.len && s.p[i] >= '0' && s.p[i] <= '9') {
		unsigned digit = (unsigned)(s.p[i] - '0');

		if (value > (UINT64_MAX - digit) / 10)
			return -ERANGE;
		value = value * 10 + digit;
		i++;
	}
	if (!i)
		return -EINVAL;
	*ret = value;
	*ret_used = i;
	return 0;
}

int nd_span_u64(struct nd_span s, uint64_t *ret)
{
	size_t used;
	int r = nd_span_u64_prefix(s, ret, &used);

	if (r < 0)
		return r;
	return used == s.len ? 0 : -EINVAL;
}

int nd_span_uint_or_na(struct nd_span s, unsigned *ret)
{
	uint64_t value;

	s = nd_span_trim(s);
	if (nd_span_eq(s, "n/a")) {
		*ret = 0;
		return 0;
	}
	if (nd_span_u64(s, &value) < 0 || value > UINT32_MAX)
		return -EINVAL;
	*ret = (unsigned)value;
	return 0;
}

int nd_span_double_prefix(struct nd_span s, double *ret, size_t *ret_used)
{
	uint64_t whole, frac = 0;
	size_t used, frac_used = 0;
	double scale = 1;

	if (nd_span_u64_prefix(s, &whole, &used) < 0 || whole > 1000000000)
		return -EINVAL;
	if (used < s.len && s.p[used] == '.' &&
	    nd_span_u64_prefix(nd_span_from(s, used + 1), &frac, &frac_used) == 0 &&
	    frac_used <= 9) {
		for (size_t i = 0; i < frac_used; i++)
			scale *= 10;
		used += 1 + frac_used;
	} else {
		frac = 0;
	}
	*ret = (double)whole + (double)frac / scale;
	*ret_used = used;
	return 0;
}
