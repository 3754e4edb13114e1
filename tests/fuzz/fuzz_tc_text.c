/*
 * fuzz_tc_text.c - libFuzzer target for the tc -s qdisc show text parser(s) of
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
		struct nd_qdisc q;
		char root[16];
		uint64_t bps;

		nd_parse_tc_qdisc(text, size, "eth0", &q, root);
		nd_parse_tc_qdisc(text, size, "ens3", &q, NULL);
		nd_parse_tc_rate(text, size < 32 ? size : 32, &bps);
	}
	free(text);
	return 0;
}
