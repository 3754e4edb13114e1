/*
 * fuzz_text.h - what the text-parser fuzz targets share: the input copied
 * to a buffer of exactly its size, not NUL-terminated, so that any read past
 * the length the parser was given trips AddressSanitizer.
 */
#ifndef NICDOCTOR_FUZZ_TEXT_H
#define NICDOCTOR_FUZZ_TEXT_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static inline char *fuzz_exact_copy(const uint8_t *data, size_t size)
{
	char *text = malloc(size ? size : 1);

	if (text)
		memcpy(text, data, size);
	return text;
}

#endif
