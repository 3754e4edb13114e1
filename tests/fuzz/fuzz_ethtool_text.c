/*
 * fuzz_ethtool_text.c - libFuzzer target for the ethtool (every option) text parser(s) of
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
		struct nd_facts *f = calloc(1, sizeof(*f));
		int carrier;

		if (f) {
			nd_parse_ethtool_settings(text, size, &f->linkmodes, &carrier);
			nd_parse_ethtool_drvinfo(text, size, &f->drvinfo);
			nd_parse_ethtool_channels(text, size, &f->channels);
			nd_parse_ethtool_rings(text, size, &f->rings);
			if (nd_parse_ethtool_features(text, size, &f->features) == 0 &&
			    (f->features.count == 0 || f->features.count > ND_MAX_FEATURES))
				__builtin_trap();
			nd_parse_ethtool_coalesce(text, size, &f->coalesce);
			nd_parse_ethtool_pause(text, size, &f->pause);
			if (nd_parse_ethtool_stats(text, size, &f->nicstats) == 0 &&
			    f->nicstats.count > ND_MAX_STATS)
				__builtin_trap();
		}
		free(f);
	}
	free(text);
	return 0;
}
