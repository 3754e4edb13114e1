/*
 * fuzz_records.c - libFuzzer target for the package-list and kernel-log
 * parsers of parse_text.h (src/parse/records.c): the input is not
 * NUL-terminated, so a read past len trips ASan.
 */
#include <string.h>

#include "nicdoctor/parse_text.h"
#include "fuzz_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_exact_copy(data, size);
	struct nd_kernel_pcie k;
	char version[32];
	unsigned line;

	if (!text)
		return 0;
	nd_parse_package_version(text, size, "iperf3", version, sizeof(version), &line);
	if (memchr(version, '\0', sizeof(version)) == NULL)
		__builtin_trap();
	nd_parse_kernel_pcie(text, size, "0000:01:00.0", &k);
	nd_parse_kernel_pcie(text, size, "0000:82:00.1", &k);
	if (memchr(k.words, '\0', sizeof(k.words)) == NULL)
		__builtin_trap();
	free(text);
	return 0;
}
