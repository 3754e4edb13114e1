/*
 * collect_script.c - the text of `nicdoctor collect --script`: the POSIX sh
 * script in src/collect/collect-script.sh, built into the binary (so it prints
 * without the source tree) and kept a plain .sh so shellcheck and dash
 * read the file the customer runs.
 */
#include <stddef.h>

#include "nicdoctor/cmd.h"

/* The assembler pastes the file's bytes between two symbols; the Makefile
 * names the .sh as a prerequisite of this object. */
__asm__(".section .rodata\n"
	".balign 16\n"
	"nd_collect_script_start:\n"
	".incbin \"src/collect/collect-script.sh\"\n"
	"nd_collect_script_end:\n"
	".byte 0\n"
	".previous\n");

extern const char nd_collect_script_start[] __asm__("nd_collect_script_start");
extern const char nd_collect_script_end[] __asm__("nd_collect_script_end");

const char *nd_collect_script(size_t *ret_len)
{
	*ret_len = (size_t)(nd_collect_script_end - nd_collect_script_start);
	return nd_collect_script_start;
}
