/*
 * fuzz_virt_text.c - libFuzzer target for the hypervisor readers of
 * virt.h (dmidecode, lscpu, /proc/cpuinfo, the DMI names): the input is
 * not NUL-terminated, so a read past len trips ASan.
 */
#include "nicdoctor/virt.h"
#include "fuzz_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_exact_copy(data, size);
	char vendor[64], product[64], name[32];

	if (!text)
		return 0;
	if (nd_parse_dmidecode_system(text, size, vendor, sizeof(vendor), product,
				      sizeof(product)) == 0)
		(void)nd_virt_kind_of_dmi(vendor, product);
	if (nd_parse_lscpu_hypervisor(text, size, name, sizeof(name)) == 0)
		(void)nd_virt_kind_of_hypervisor(name);
	(void)nd_parse_cpuinfo_hypervisor(text, size);
	free(text);
	return 0;
}
