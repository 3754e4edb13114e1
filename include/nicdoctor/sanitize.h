/*
 * sanitize.h - one cleaner for every string that comes from outside: the
 * probe's facts (a snapshot, a bundle, a kernel name), the far end's
 * payload, a server's output text.
 *
 * Applied once where a string enters, so every renderer (text, markdown,
 * JSON, Prometheus) prints only valid UTF-8 without terminal controls.
 * Replaced, each by U+FFFD (the replacement character, shown as a marker):
 *   - C0 controls U+0000..U+001F, tab and newline too in a one-line field,
 *     and DEL U+007F;
 *   - C1 controls U+0080..U+009F written as UTF-8 (U+009B is the one-byte
 *     CSI that some terminals honour);
 *   - every byte that does not begin a valid UTF-8 sequence: stray
 *     continuation bytes (0x80..0xBF, so raw C1 bytes), 0xC0, 0xC1 and
 *     0xF5..0xFF, overlong forms, UTF-16 surrogates, code points above
 *     U+10FFFF and sequences cut short; one U+FFFD per byte.
 * Everything else passes unchanged.  Where the marker makes the text
 * longer than its buffer, the text is cut at a character boundary; out of
 * memory, a string is cut before its first byte to replace.
 */
#ifndef NICDOCTOR_SANITIZE_H
#define NICDOCTOR_SANITIZE_H

#include <stddef.h>
#include <cjson/cJSON.h>

/* Keep newline and tab (multi-line text: a server's output); a carriage
 * return, which can overwrite a printed line, is still replaced. */
#define ND_SANITIZE_MULTILINE 1u

#define ND_SANITIZE_MARK "\xef\xbf\xbd"	/* U+FFFD */

struct nd_facts;

/* Clean the NUL-terminated string in buf (capacity size) in place.
 * Returns how many characters or bytes were replaced. */
unsigned nd_sanitize_buf(char *buf, size_t size, unsigned flags);

/* A clean malloc'd copy of s; NULL when out of memory. */
char *nd_sanitize_dup(const char *s, unsigned flags);

/* Every string value and object key in a JSON tree, as one-line fields
 * (references, which the tree does not own, are left alone). */
void nd_sanitize_json(cJSON *item);

/* Every string field of the facts (facts.c). */
void nd_facts_sanitize(struct nd_facts *facts);

#endif
