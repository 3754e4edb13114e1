/*
 * sanitize.c - replace terminal controls and invalid UTF-8 in strings that
 * come from outside (see sanitize.h for what is replaced and why).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nicdoctor/sanitize.h"

#define MARK_LEN (sizeof(ND_SANITIZE_MARK) - 1)

/* Length of the valid UTF-8 sequence at p (1..4) with its code point, or 0
 * when the byte at p begins none (RFC 3629: no overlong form, no
 * surrogate, nothing above U+10FFFF). */
static size_t utf8_sequence(const unsigned char *p, size_t avail, uint32_t *ret_cp)
{
	unsigned char lo = 0x80, hi = 0xBF;
	size_t len;
	uint32_t cp;

	if (p[0] < 0x80) {
		*ret_cp = p[0];
		return 1;
	}
	if (p[0] >= 0xC2 && p[0] <= 0xDF) {
		len = 2, cp = p[0] & 0x1F;
	} else if (p[0] >= 0xE0 && p[0] <= 0xEF) {
		len = 3, cp = p[0] & 0x0F;
		if (p[0] == 0xE0)
			lo = 0xA0;		/* below: overlong */
		else if (p[0] == 0xED)
			hi = 0x9F;		/* above: surrogates */
	} else if (p[0] >= 0xF0 && p[0] <= 0xF4) {
		len = 4, cp = p[0] & 0x07;
		if (p[0] == 0xF0)
			lo = 0x90;		/* below: overlong */
		else if (p[0] == 0xF4)
			hi = 0x8F;		/* above: beyond U+10FFFF */
	} else {
		return 0;
	}
	if (avail < len || p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if (i > 1 && (p[i] < 0x80 || p[i] > 0xBF))
			return 0;
		cp = cp << 6 | (p[i] & 0x3F);
	}
	*ret_cp = cp;
	return len;
}

static bool cp_is_control(uint32_t cp, unsigned flags)
{
	if ((flags & ND_SANITIZE_MULTILINE) && (cp == '\n' || cp == '\t'))
		return false;
	return cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F);
}

/* Bytes of the character at p, and whether it is to be replaced. */
static size_t next_char(const unsigned char *p, size_t avail, unsigned flags, bool *ret_bad)
{
	uint32_t cp = 0;
	size_t len = utf8_sequence(p, avail, &cp);

	*ret_bad = len == 0 || cp_is_control(cp, flags);
	return len ? len : 1;
}

/* Where the first character to replace starts; len when there is none. */
static size_t first_bad(const unsigned char *in, size_t len, unsigned flags)
{
	size_t at = 0;

	while (at < len) {
		bool bad;
		size_t n = next_char(in + at, len - at, flags, &bad);

		if (bad)
			return at;
		at += n;
	}
	return len;
}

/* The clean form of in[0..len) into out (NUL-terminated, cut at a character
 * that does not fit), or with out NULL only counted.  Returns the bytes it
 * needs without the NUL; *ret_replaced counts the replacements. */
static size_t clean_into(const unsigned char *in, size_t len, unsigned flags, char *out,
			 size_t out_size, unsigned *ret_replaced)
{
	size_t at = 0, used = 0;
	unsigned replaced = 0;
	bool full = false;

	while (at < len) {
		bool bad;
		size_t n = next_char(in + at, len - at, flags, &bad);
		size_t w = bad ? MARK_LEN : n;

		if (out && !full && used + w < out_size)
			memcpy(out + used, bad ? (const unsigned char *)ND_SANITIZE_MARK : in + at, w);
		else if (out)
			full = true;
		if (!full)
			used += w;
		replaced += bad;
		at += n;
	}
	if (out)
		out[used] = '\0';
	*ret_replaced = replaced;
	return used;
}

unsigned nd_sanitize_buf(char *buf, size_t size, unsigned flags)
{
	size_t len = strnlen(buf, size), at;
	unsigned char small[256], *copy;
	unsigned replaced;

	if (len == size) {			/* not terminated: the last byte goes */
		if (!size)
			return 0;
		buf[--len] = '\0';
	}
	at = first_bad((const unsigned char *)buf, len, flags);
	if (at == len)
		return 0;
	copy = len < sizeof(small) ? small : malloc(len);
	if (!copy) {
		buf[at] = '\0';
		return 1;
	}
	memcpy(copy, buf, len);
	clean_into(copy, len, flags, buf, size, &replaced);
	if (copy != small)
		free(copy);
	return replaced;
}

/* With an allocator, so that a cJSON string can be swapped for the copy. */
static char *dup_with(const char *s, unsigned flags, void *(*alloc)(size_t))
{
	size_t len = strlen(s);
	unsigned replaced;
	size_t need = clean_into((const unsigned char *)s, len, flags, NULL, 0, &replaced);
	char *out = alloc(need + 1);

	if (out)
		clean_into((const unsigned char *)s, len, flags, out, need + 1, &replaced);
	return out;
}

char *nd_sanitize_dup(const char *s, unsigned flags)
{
	return dup_with(s, flags, malloc);
}

/* A cJSON-owned string, swapped for its clean copy when it needs one. */
static void clean_owned(char **s)
{
	size_t len = strlen(*s), at = first_bad((const unsigned char *)*s, len, 0);
	char *clean;

	if (at == len)
		return;
	clean = dup_with(*s, 0, cJSON_malloc);
	if (!clean) {
		(*s)[at] = '\0';
		return;
	}
	cJSON_free(*s);
	*s = clean;
}

void nd_sanitize_json(cJSON *item)
{
	cJSON *child;

	if (!item)
		return;
	if (item->string && !(item->type & cJSON_StringIsConst))
		clean_owned(&item->string);
	if (item->type & cJSON_IsReference)
		return;
	if (cJSON_IsString(item) && item->valuestring)
		clean_owned(&item->valuestring);
	/* Parsing stops at CJSON_NESTING_LIMIT, which bounds this recursion. */
	for (child = item->child; child; child = child->next)
		nd_sanitize_json(child);
}
