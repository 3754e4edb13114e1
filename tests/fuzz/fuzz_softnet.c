/*
 * fuzz_softnet.c - libFuzzer target for the /proc/net/softnet_stat parser.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nicdoctor/parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nd_softnet *softnet = malloc(sizeof(*softnet));
	char *text = malloc(size + 1);

	if (softnet && text) {
		memcpy(text, data, size);
		text[size] = '\0';
		if (nd_parse_softnet(text, softnet) == 0 &&
		    (softnet->count == 0 || softnet->count > ND_MAX_CPUS))
			__builtin_trap();
	}
	free(text);
	free(softnet);
	return 0;
}
