/*
 * fuzz_cpuset.c - libFuzzer target for the CPU list ("0-3,8") and hex mask
 * ("ff,ffffffff") parsers, with a round trip through the formatters: what
 * parses must format and parse back to the same set.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nicdoctor/cpuset.h"

static void round_trip(const struct nd_cpuset *set)
{
	static char buf[ND_CPUSET_BITS * 5];
	struct nd_cpuset back;

	nd_cpuset_format_list(set, buf, sizeof(buf));
	if (nd_cpuset_parse_list(buf, &back) < 0 || memcmp(&back, set, sizeof(back)))
		__builtin_trap();
	nd_cpuset_format_mask(set, buf, sizeof(buf));
	if (nd_cpuset_parse_mask(buf, &back) < 0 || memcmp(&back, set, sizeof(back)))
		__builtin_trap();
	(void)nd_cpuset_first(set);
	(void)nd_cpuset_count(set);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct nd_cpuset set;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (nd_cpuset_parse_list(text, &set) == 0)
		round_trip(&set);
	if (nd_cpuset_parse_mask(text, &set) == 0)
		round_trip(&set);
	/* Small buffers must truncate, not overflow. */
	{
		char small[7];

		nd_cpuset_parse_list(text, &set);
		nd_cpuset_format_list(&set, small, sizeof(small));
		nd_cpuset_format_mask(&set, small, sizeof(small));
	}
	free(text);
	return 0;
}
