/*
 * fuzz_supportconfig.c - libFuzzer target for the supportconfig section text parser(s) of
 * parse_text.h: the input is not NUL-terminated, so a read past len trips ASan.
 */
#include "nicdoctor/parse_text.h"
#include "fuzz_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_exact_copy(data, size);

	if (!text)
		return 0;
	{
		struct nd_sc_section sec;
		struct nd_channels ch;
		size_t pos = 0;

		while (nd_sc_next(text, size, &pos, &sec) == 0) {
			if (sec.body < text || sec.body + sec.body_len > text + size)
				__builtin_trap();
			nd_parse_ethtool_channels(sec.body, sec.body_len, &ch);
		}
		nd_sc_find(text, size, "ethtool -l eth0", &sec);
		nd_sc_find(text, size, "/proc/interrupts", &sec);
	}
	free(text);
	return 0;
}
