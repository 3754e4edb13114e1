/*
 * fuzz_sysctl_text.c - libFuzzer target for the sysctl -a and lscpu text parser(s) of
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
		struct nd_sysctls s;
		struct nd_cpus *cpus = calloc(1, sizeof(*cpus));
		char buf[64];

		nd_parse_sysctl_text(text, size, &s);
		nd_parse_sysctl_lookup(text, size, "net.core.rmem_max", buf, sizeof(buf));
		if (cpus)
			nd_parse_lscpu(text, size, cpus);
		free(cpus);
	}
	free(text);
	return 0;
}
