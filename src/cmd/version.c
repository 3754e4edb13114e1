/*
 * version.c - `nicdoctor --version`: our version and each library's, as
 * built and, where the library reports it at run time, as loaded, so a
 * bug report says which libnl or libpci a fact came through.
 */
#include <errno.h>
#include <stdio.h>

#include <archive.h>
#include <cjson/cJSON.h>
#include <netlink/version.h>
#include <openssl/opensslv.h>
#include <pci/pci.h>

#include "nicdoctor/auth.h"
#include "nicdoctor/common.h"
#include "nicdoctor/version.h"

int nd_version_print(FILE *out)
{
	/* PCI_LIB_VERSION is 0xMMmmpp; libpci has no run-time query. */
	unsigned pci = PCI_LIB_VERSION;

	fprintf(out, "nicdoctor %s\n", ND_VERSION);
	fprintf(out, "libnl %s (running %d.%d.%d)\n", LIBNL_VERSION,
		nl_ver_maj, nl_ver_min, nl_ver_mic);
	fprintf(out, "libpci %u.%u.%u (PCI_LIB_VERSION 0x%06x)\n",
		pci >> 16, (pci >> 8) & 0xff, pci & 0xff, pci);
	fprintf(out, "cJSON %d.%d.%d (running %s)\n", CJSON_VERSION_MAJOR,
		CJSON_VERSION_MINOR, CJSON_VERSION_PATCH, cJSON_Version());
	fprintf(out, "libarchive %s (running %d.%d.%d)\n", ARCHIVE_VERSION_ONLY_STRING,
		archive_version_number() / 1000000, archive_version_number() / 1000 % 1000,
		archive_version_number() % 1000);
	fprintf(out, "OpenSSL %s (running %s)\n", OPENSSL_FULL_VERSION_STR,
		nd_auth_library_version());
	return ferror(out) ? -EIO : 0;
}
