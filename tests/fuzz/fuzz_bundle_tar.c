/*
 * fuzz_bundle_tar.c - libFuzzer target for the bundle tarball reader: any
 * bytes as an archive are refused or unpacked inside a fresh private
 * directory, never anywhere else, within the caps.  The directory is
 * removed after each input; a file appearing beside it fails the run.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nicdoctor/bundle.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char top[] = "/tmp/nd-fuzz-tar.XXXXXX", archive[64], dir[64], error[512];
	struct nd_bundle bundle;
	struct stat st;
	FILE *f;

	if (!mkdtemp(top))
		return 0;
	snprintf(archive, sizeof(archive), "%s/in.tar", top);
	snprintf(dir, sizeof(dir), "%s/out", top);
	f = fopen(archive, "w");
	if (f && fwrite(data, 1, size, f) == size && fclose(f) == 0 && mkdir(dir, 0700) == 0) {
		memset(&bundle, 0, sizeof(bundle));
		nd_bundle_extract(archive, dir, &bundle, error, sizeof(error));
		nd_bundle_remove_tree(dir);
		unlink(archive);
		/* Only in.tar and out/ were ever ours: anything left is an escape. */
		if (rmdir(top) != 0 && stat(top, &st) == 0)
			abort();
	} else {
		if (f)
			fclose(f);
		unlink(archive);
		rmdir(dir);
		rmdir(top);
	}
	return 0;
}
