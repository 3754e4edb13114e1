/*
 * persist.c - `fix --persist`: the files that make applied changes survive
 * a reboot.  sysctls go to sysctl.d; channels, rings and offloads to a
 * systemd .link file (applied by udev's net_setup_link); RPS masks, IRQ
 * affinity and offloads without a .link key to a udev rule.  Each file's
 * previous content (or absence) is in the journal, so --revert puts the
 * directory back as it was.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nicdoctor/common.h"
#include "fixes.h"

#define PERSIST_MAX_FILE (1 << 20)

static const char *const header =
	"# Written by 'nicdoctor fix --apply --persist' for %s.\n"
	"# 'nicdoctor fix --revert %s' removes it (or restores what was here).\n";

/* A .link file that matches a device replaces 99-default.link for it, so
 * the default naming and MAC policies are repeated. */
static const char *const link_defaults =
	"NamePolicy=keep kernel database onboard slot path\n"
	"AlternativeNamesPolicy=database onboard slot path\n"
	"MACAddressPolicy=persistent\n";

/* Lines of `text` not seen before, appended to *out (the .link gets one
 * TransmitChecksumOffload= for several checksum features). */
static int append_unique_lines(char **out, const char *text)
{
	const char *line = text;

	while (*line) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) + 1 : strlen(line);
		char *copy = strndup(line, len);
		int r = 0;

		if (!copy)
			return -ENOMEM;
		if (!*out || !strstr(*out, copy) || copy[0] == '#')
			r = nd_fix_appendf(out, "%s", copy);
		free(copy);
		if (r < 0)
			return r;
		line += len;
	}
	return 0;
}

/* Current content of a file: 1 with *ret_text, 0 when absent, -errno. */
static int read_existing(const char *path, char **ret_text)
{
	FILE *f = fopen(path, "re");
	char *text;
	size_t got;

	if (!f)
		return errno == ENOENT ? 0 : -errno;
	text = malloc(PERSIST_MAX_FILE + 1);
	if (!text) {
		fclose(f);
		return -ENOMEM;
	}
	got = fread(text, 1, PERSIST_MAX_FILE, f);
	fclose(f);
	text[got] = '\0';
	*ret_text = text;
	return 1;
}

static int compose(const struct nd_fix_journal *j, enum nd_fix_persist_target target,
		   const char *lines, const char *mac, char **ret_content)
{
	char *content = NULL;
	int r = nd_fix_appendf(&content, header, j->ifname, j->ifname);

	if (r == 0 && target == ND_PERSIST_LINK) {
		r = mac[0] ? nd_fix_appendf(&content, "\n[Match]\nMACAddress=%s\n", mac) :
			     nd_fix_appendf(&content, "\n[Match]\nOriginalName=%s\n", j->ifname);
		if (r == 0)
			r = nd_fix_appendf(&content, "\n[Link]\n%s", link_defaults);
	}
	if (r == 0)
		r = append_unique_lines(&content, lines);
	if (r < 0) {
		free(content);
		return r;
	}
	*ret_content = content;
	return 0;
}

int nd_fix_persist_path(const char *ifname, enum nd_fix_persist_target target, char *buf,
			size_t size)
{
	const char *etc = nd_fix_etc_dir();
	int n = 0;

	switch (target) {
	case ND_PERSIST_SYSCTL:
		n = snprintf(buf, size, "%s/sysctl.d/90-nicdoctor.conf", etc);
		break;
	case ND_PERSIST_LINK:
		n = snprintf(buf, size, "%s/systemd/network/90-nicdoctor-%s.link", etc, ifname);
		break;
	default:
		n = snprintf(buf, size, "%s/udev/rules.d/90-nicdoctor-%s.rules", etc, ifname);
		break;
	}
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

static int add_file(struct nd_fix_journal *j, enum nd_fix_persist_target target,
		    const char *lines, const char *mac)
{
	struct nd_fix_journal_file *f = &j->files[j->n_files];
	int r;

	if (j->n_files >= ND_FIX_MAX_FILES)
		return -ENOSPC;
	memset(f, 0, sizeof(*f));
	r = nd_fix_persist_path(j->ifname, target, f->path, sizeof(f->path));
	if (r == 0)
		r = read_existing(f->path, &f->original);
	if (r < 0)
		return r;
	f->existed = r == 1;
	j->n_files++;		/* from here nd_fix_journal_free releases it */
	return compose(j, target, lines, mac, &f->content);
}

int nd_fix_persist_prepare(struct nd_fix_journal *j)
{
	struct nd_fix_persist_text text = { { NULL } };
	char path[PATH_MAX], mac[32] = "", match[96];
	int r = 0;

	snprintf(path, sizeof(path), "/sys/class/net/%s/address", j->ifname);
	if (nd_fix_read_file(path, mac, sizeof(mac)) < 0)
		mac[0] = '\0';
	/* Matched by MAC: a renamed device keeps it, the kernel name is gone. */
	if (mac[0])
		snprintf(match, sizeof(match), "ATTR{address}==\"%s\"", mac);
	else
		snprintf(match, sizeof(match), "KERNEL==\"%s\"", j->ifname);
	for (unsigned i = 0; i < j->n_steps && r == 0; i++)
		if (j->steps[i].kind->persist)
			r = j->steps[i].kind->persist(match, &j->steps[i], &text);
	for (int t = 0; t < ND_PERSIST_COUNT && r == 0; t++)
		if (text.text[t] && *text.text[t])
			r = add_file(j, (enum nd_fix_persist_target)t, text.text[t], mac);
	for (int t = 0; t < ND_PERSIST_COUNT; t++)
		free(text.text[t]);
	return r;
}

int nd_fix_persist_write(const struct nd_fix_journal *j, unsigned *ret_failed)
{
	for (unsigned i = 0; i < j->n_files; i++) {
		const struct nd_fix_journal_file *f = &j->files[i];
		char dir[PATH_MAX];
		char *slash;
		int r;

		nd_strlcpy(dir, f->path, sizeof(dir));
		slash = strrchr(dir, '/');
		if (slash && slash != dir)
			*slash = '\0';
		r = nd_fix_mkdirs(dir, 0755);
		if (r == 0)
			r = nd_fix_write_durable(f->path, f->content ? f->content : "", 0644);
		if (r < 0) {
			*ret_failed = i;
			return r;
		}
	}
	return 0;
}

int nd_fix_persist_restore_io(const struct nd_fix_journal *j, const struct nd_fix_io *io,
			      unsigned *ret_failed)
{
	int worst = 0;

	for (unsigned i = 0; i < j->n_files; i++) {
		const struct nd_fix_journal_file *f = &j->files[i];
		int r;

		if (f->existed)
			r = io->put_file(f->path, f->original ? f->original : "", io->arg);
		else
			r = io->remove_file(f->path, io->arg);
		if (r < 0 && !worst) {
			worst = r;
			*ret_failed = i;
		}
	}
	return worst;
}

int nd_fix_persist_restore(const struct nd_fix_journal *j, unsigned *ret_failed)
{
	return nd_fix_persist_restore_io(j, &nd_fix_io_os, ret_failed);
}
