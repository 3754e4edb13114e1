/*
 * fuzz_sanitize.c - libFuzzer target for the string cleaner: whatever the
 * input, the output holds no control character and is valid UTF-8 (checked
 * here with mbrtowc in a UTF-8 locale, not with the cleaner's own decoder),
 * and cleaning it again changes nothing.
 */
#include <locale.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "nicdoctor/sanitize.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_clean(const char *s, unsigned flags)
{
	mbstate_t st;
	size_t len = strlen(s);

	memset(&st, 0, sizeof(st));
	while (len) {
		wchar_t wc;
		size_t n = mbrtowc(&wc, s, len, &st);

		if (n == (size_t)-1 || n == (size_t)-2 || n == 0)
			__builtin_trap();
		if ((wc < 0x20 && !((flags & ND_SANITIZE_MULTILINE) && (wc == '\n' || wc == '\t'))) ||
		    (wc >= 0x7f && wc <= 0x9f) || (wc >= 0xd800 && wc <= 0xdfff))
			__builtin_trap();
		s += n;
		len -= n;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int locale_set;
	char *text = malloc(size + 1), *clean, buf[64];

	if (!locale_set++ && !setlocale(LC_CTYPE, "C.UTF-8"))
		abort();
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	for (unsigned flags = 0; flags <= ND_SANITIZE_MULTILINE; flags++) {
		clean = nd_sanitize_dup(text, flags);
		if (!clean)
			break;
		check_clean(clean, flags);
		if (nd_sanitize_buf(clean, strlen(clean) + 1, flags) != 0)
			__builtin_trap();
		free(clean);
	}
	/* In place, in a buffer the marker may overflow. */
	memset(buf, 0, sizeof(buf));
	memcpy(buf, text, size < sizeof(buf) - 1 ? size : sizeof(buf) - 1);
	nd_sanitize_buf(buf, sizeof(buf), 0);
	check_clean(buf, 0);
	free(text);
	return 0;
}
