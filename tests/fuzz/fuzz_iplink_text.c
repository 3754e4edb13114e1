/*
 * fuzz_iplink_text.c - libFuzzer target for the ip -s -d link text parser(s) of
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
		char names[64][ND_IFNAMSIZ];
		unsigned n = 0;
		struct nd_link link;
		bool stats;

		nd_parse_iplink_names(text, size, names, 64, &n);
		struct nd_stack stack;

		for (unsigned i = 0; i < n && i < 4; i++) {
			nd_parse_iplink(text, size, names[i], &link, &stats);
			nd_parse_iplink_stack(text, size, names[i], &stack);
		}
		nd_parse_iplink(text, size, "eth0", &link, NULL);
	}
	free(text);
	return 0;
}
