/*
 * fuzz_lspci_text.c - libFuzzer target for the lspci -vv text parser(s) of
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
		struct nd_lspci_block b;
		struct nd_pcie_link link;
		size_t pos = 0;
		unsigned n = 0;

		while (nd_lspci_next(text, size, &pos, &b) == 0 && n++ < 100000) {
			if (b.text < text || b.text + b.len > text + size)
				__builtin_trap();
			nd_parse_lspci_device(b.text, b.len, &link);
		}
		if (nd_lspci_find(text, size, "01:00.0", &b) == 0)
			nd_parse_lspci_device(b.text, b.len, &link);
		/* The whole text as one block: ASPM fields anywhere. */
		nd_parse_lspci_aspm(text, size, &link.aspm);
	}
	free(text);
	return 0;
}
