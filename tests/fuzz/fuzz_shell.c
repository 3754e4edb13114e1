/*
 * fuzz_shell.c - libFuzzer target for the fix-command printer
 * (report/shell.c): a far end's report puts its commands through it, so
 * any bytes must print without a crash, and no printed line may hold a
 * control character (they are shown as '?').
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/report/render.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *cmd = malloc(size + 1), *text = NULL;
	size_t len = 0;
	FILE *out;

	if (!cmd)
		return 0;
	memcpy(cmd, data, size);
	cmd[size] = '\0';
	out = open_memstream(&text, &len);
	if (!out)
		abort();
	/* the two places fix commands are printed: a finding's, the headline */
	nd_shell_print(out, 9, 9, cmd);
	nd_shell_print(out, 4, 4, cmd);
	fclose(out);
	for (size_t i = 0; i < len; i++)
		if (((unsigned char)text[i] < 0x20 && text[i] != '\n') || text[i] == 0x7f)
			abort();
	free(text);
	free(cmd);
	return 0;
}
