/*
 * fuzz_supportconfig_convert.c - libFuzzer target for the supportconfig
 * conversion (src/sources/supportconfig.c): the input's first byte picks the
 * file it is taken for (network.txt, hardware.txt, proc.txt, env.txt,
 * basic-environment.txt), the rest is that file's text.  It is converted
 * into a fresh temporary directory, which is checked to hold no link and
 * nothing outside the sos layout, and removed after each run.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nicdoctor/bundle.h"

static const char *const files[] = { "network.txt", "hardware.txt", "proc.txt", "env.txt",
				     "basic-environment.txt" };

/* Every entry a directory or a regular file, top level only what the
 * converter writes: anything else is a bug worth a crash. */
static void check_tree(int dir_fd, int depth)
{
	DIR *d = fdopendir(dup(dir_fd));
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (fstatat(dir_fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			abort();
		if (depth == 0 && strcmp(de->d_name, "sos_commands") && strcmp(de->d_name, "proc") &&
		    strcmp(de->d_name, "version.txt"))
			abort();
		if (S_ISDIR(st.st_mode)) {
			int sub = openat(dir_fd, de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);

			if (sub < 0)
				abort();
			check_tree(sub, depth + 1);
			close(sub);
		} else if (!S_ISREG(st.st_mode)) {
			abort();
		}
	}
	closedir(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* tmpfs when there is one: a run writes and removes dozens of files. */
	char dir[] = "/dev/shm/nd-fuzz-sc.XXXXXX", slow[] = "/tmp/nd-fuzz-sc.XXXXXX";
	char *at = dir;
	struct nd_bundle bundle;
	int fd;

	if (size < 1)
		return 0;
	if (!mkdtemp(dir) && !(at = mkdtemp(slow)))
		return 0;
	fd = open(at, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		memset(&bundle, 0, sizeof(bundle));
		nd_supportconfig_convert_text(files[data[0] % 5], (const char *)data + 1, size - 1,
					      fd, &bundle);
		if (memchr(bundle.host, '\0', sizeof(bundle.host)) == NULL ||
		    memchr(bundle.date, '\0', sizeof(bundle.date)) == NULL)
			abort();
		check_tree(fd, 0);
		close(fd);
	}
	nd_bundle_remove_tree(at);
	return 0;
}
