/*
 * supportconfig.c - turn a SUSE supportconfig directory into the
 * sosreport-shaped tree the sos probe source reads: each section of
 * network.txt, hardware.txt, proc.txt, env.txt and systemd.txt that
 * nicdoctor uses becomes the file sos would have written for it
 * (`# /usr/sbin/ethtool -l eth0` -> sos_commands/networking/ethtool_-l_eth0,
 * `# /proc/net/softnet_stat` -> proc/net/softnet_stat), so one probe reads
 * both kinds of bundle; rpm.txt (the package list) and boot.txt (the
 * kernel's boot messages) are copied whole.  Its source table (at the end) is the sosreport's
 * operations under its own name.
 *
 * The tree goes below a directory fd, written with the snapshot writers
 * (O_EXCL|O_NOFOLLOW, relative to each parent): the names come from the
 * bundle and are checked before use, and nothing planted is followed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nicdoctor/text_util.h"
#include "nicdoctor/bundle.h"
#include "nicdoctor/common.h"
#include "nicdoctor/parse_text.h"
#include "nicdoctor/snapshot.h"
#include "sos.h"
#include "source_ops.h"

/* An embedded hwinfo log names at most this many CPUs in our header. */
#define SC_MAX_CPUS 8192

/* supportconfig runs a command -> the file sos names for it. */
static const struct {
	const char *command;		/* as nd_sc_find matches it */
	const char *file;
} sc_commands[] = {
	{ "ip -stats link", "/sos_commands/networking/ip_-s_link" },
	{ "ip -s link", "/sos_commands/networking/ip_-s_link" },
	{ "ip -s -d link", "/sos_commands/networking/ip_-s_-d_link" },
	{ "ip route", "/sos_commands/networking/ip_route" },
	{ "ip route show table all", "/sos_commands/networking/ip_route_show_table_all" },
	{ "lspci -nnvv", "/sos_commands/pci/lspci_-nnvv" },
	/* supportconfig's lspci has no -nn; the text parser reads both. */
	{ "lspci -vvv", "/sos_commands/pci/lspci_-nnvv" },
	{ "lspci -vv", "/sos_commands/pci/lspci_-nnvv" },
	{ "lscpu", "/sos_commands/processor/lscpu" },
	{ "sysctl -a", "/sos_commands/kernel/sysctl_-a" },
	{ "uname -a", "/sos_commands/kernel/uname_-a" },
	{ "date", "/sos_commands/date/date" },
	{ "hostname", "/sos_commands/host/hostname" },
	{ "systemctl --no-pager --all list-units", "/sos_commands/systemd/systemctl_list-units_--all" },
};

/* ethtool options supportconfig runs -> the option in sos's file name. */
static const struct {
	const char *option, *as;
} sc_ethtool_options[] = {
	{ "-i", "-i" }, { "-k", "-k" }, { "-S", "-S" }, { "-g", "-g" }, { "-l", "-l" },
	{ "-m", "-m" }, { "-c", "-c" }, { "-a", "-a" }, { "--show-coalesce", "-c" },
	{ "--show-fec", "--show-fec" }, { "--show-eee", "--show-eee" },
	{ "--show-ntuple", "--show-ntuple" }, { "--show-priv-flags", "--show-priv-flags" },
};

/* Make every directory above path ("/a/b/file") below dst_fd. */
static int make_parents(int dst_fd, const char *path)
{
	char dir[PATH_MAX];
	size_t len = strlen(path);

	if (len >= sizeof(dir))
		return -ENAMETOOLONG;
	memcpy(dir, path, len + 1);
	for (char *slash = strchr(dir + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		int r;

		*slash = '\0';
		r = nd_snapshot_mkdir(dst_fd, dir);
		*slash = '/';
		if (r < 0)
			return r;
	}
	return 0;
}

static int put_file(int dst_fd, const char *path, const char *data, size_t len)
{
	char *copy = NULL;
	int r = make_parents(dst_fd, path);

	/* sos ends a command's output with its newline; the section cut it. */
	if (r == 0 && len && data[len - 1] != '\n') {
		copy = malloc(len + 1);
		if (!copy)
			return -ENOMEM;
		memcpy(copy, data, len);
		copy[len++] = '\n';
		data = copy;
	}
	if (r == 0)
		r = nd_snapshot_write(dst_fd, path, data, len);
	free(copy);
	return r;
}

/* A name from the bundle usable as one path component of ours. */
static bool safe_component(struct nd_span s)
{
	if (!s.len || s.len > 64 || nd_span_eq(s, ".") || nd_span_eq(s, ".."))
		return false;
	for (size_t i = 0; i < s.len; i++) {
		char ch = s.p[i];

		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		      (ch >= '0' && ch <= '9') || ch == '_' || ch == '-' || ch == '.' ||
		      ch == ':' || ch == '+' || ch == '@'))
			return false;
	}
	return true;
}

/* "/proc/net/softnet_stat" -> "/proc/net/softnet_stat" when every
 * component is safe and the file is one the probe may read. */
static bool proc_path(struct nd_span name, char *buf, size_t size)
{
	static const char *const wanted[] = { "/proc/net/", "/proc/sys/", "/proc/irq/",
					      "/proc/interrupts", "/proc/softirqs",
					      "/proc/cpuinfo", "/proc/uptime" };
	struct nd_span rest;
	bool ok = false;

	for (size_t i = 0; i < ND_ARRAY_SIZE(wanted) && !ok; i++)
		ok = nd_span_starts(name, wanted[i]) &&
		     (wanted[i][strlen(wanted[i]) - 1] == '/' || name.len == strlen(wanted[i]));
	if (!ok || name.len >= size)
		return false;
	rest = nd_span_from(name, 1);
	while (rest.len) {
		const char *slash = memchr(rest.p, '/', rest.len);
		struct nd_span part = { rest.p, slash ? (size_t)(slash - rest.p) : rest.len };

		if (!safe_component(part))
			return false;
		rest = slash ? nd_span_from(rest, part.len + 1) : nd_span_from(rest, rest.len);
		if (slash && !rest.len)
			return false;
	}
	memcpy(buf, name.p, name.len);
	buf[name.len] = '\0';
	return true;
}

/* "ethtool -l eth0" (first word already "ethtool") -> its sos file. */
static bool ethtool_path(struct nd_span name, char *buf, size_t size)
{
	struct nd_span tok[4];
	size_t pos = 0, n = 0;
	const char *as = NULL;

	while (n < ND_ARRAY_SIZE(tok) && nd_span_token(name, &pos, &tok[n]))
		n++;
	if (n < 2 || n > 3 || nd_span_token(name, &pos, &tok[0]))
		return false;
	if (n == 3) {
		for (size_t i = 0; i < ND_ARRAY_SIZE(sc_ethtool_options) && !as; i++)
			if (tok[1].len == strlen(sc_ethtool_options[i].option) &&
			    !memcmp(tok[1].p, sc_ethtool_options[i].option, tok[1].len))
				as = sc_ethtool_options[i].as;
		if (!as)
			return false;
	}
	/* An interface name sos would write unchanged (it mangles others). */
	if (!safe_component(tok[n - 1]) || tok[n - 1].len >= 16 ||
	    memchr(tok[n - 1].p, ':', tok[n - 1].len) || memchr(tok[n - 1].p, '+', tok[n - 1].len) ||
	    memchr(tok[n - 1].p, '@', tok[n - 1].len))
		return false;
	return snprintf(buf, size, "/sos_commands/networking/ethtool_%s%s%.*s", as ? as : "",
			as ? "_" : "", (int)tok[n - 1].len, tok[n - 1].p) < (int)size;
}

/* The basename of a command section's first word. */
static struct nd_span command_word(struct nd_span name)
{
	struct nd_span word;
	size_t pos = 0;

	if (!nd_span_token(name, &pos, &word))
		return word;
	for (size_t i = word.len; i > 0; i--)
		if (word.p[i - 1] == '/')
			return nd_span_from(word, i);
	return word;
}

struct sc_state {
	int dst_fd;
	struct nd_bundle *bundle;	/* host and date found on the way, may be NULL */
	char *tc;			/* per-device qdisc sections, joined */
	size_t tc_len;
};

static int append_tc(struct sc_state *st, const struct nd_sc_section *sec)
{
	char *grown;

	if (st->tc_len + sec->body_len + 1 > ND_BUNDLE_MAX_MEMBER_BYTES)
		return 0;
	grown = realloc(st->tc, st->tc_len + sec->body_len + 1);
	if (!grown)
		return -ENOMEM;
	st->tc = grown;
	memcpy(st->tc + st->tc_len, sec->body, sec->body_len);
	st->tc_len += sec->body_len;
	if (sec->body_len && sec->body[sec->body_len - 1] != '\n')
		st->tc[st->tc_len++] = '\n';
	return 0;
}

/* What basic-environment.txt says of the host: uname -a's second word and
 * date's output line. */
static void note_metadata(struct sc_state *st, const char *file, struct nd_span body)
{
	struct nd_span tok;
	size_t pos = 0;

	if (!st->bundle)
		return;
	if (!strcmp(file, "uname") && !st->bundle->host[0] && nd_span_token(body, &pos, &tok) &&
	    nd_span_token(body, &pos, &tok))
		nd_span_copy(tok, st->bundle->host, sizeof(st->bundle->host));
	if (!strcmp(file, "date") && !st->bundle->date[0]) {
		struct nd_cursor c;
		struct nd_span line;

		nd_cursor_init(&c, body.p, body.len);
		if (nd_next_line(&c, &line))
			nd_span_copy(nd_span_trim(line), st->bundle->date, sizeof(st->bundle->date));
	}
}

static int convert_command(struct sc_state *st, const struct nd_sc_section *sec)
{
	struct nd_span name = { sec->name, sec->name_len }, word = command_word(name);
	struct nd_span body = { sec->body, sec->body_len };
	char path[PATH_MAX];

	if (nd_span_eq(word, "ethtool"))
		return ethtool_path(name, path, sizeof(path)) ?
		       put_file(st->dst_fd, path, sec->body, sec->body_len) : 0;
	if (nd_span_eq(word, "tc") && nd_span_contains(name, " qdisc show"))
		return append_tc(st, sec);
	for (size_t i = 0; i < ND_ARRAY_SIZE(sc_commands); i++) {
		if (!nd_sc_command_is(sec, sc_commands[i].command))
			continue;
		if (!strcmp(sc_commands[i].command, "uname -a"))
			note_metadata(st, "uname", body);
		if (!strcmp(sc_commands[i].command, "date"))
			note_metadata(st, "date", body);
		return put_file(st->dst_fd, sc_commands[i].file, sec->body, sec->body_len);
	}
	return 0;
}

/* Numbers after the "NN:" label of one /proc/interrupts line. */
static size_t count_cpu_columns(struct nd_span line)
{
	struct nd_span tok;
	size_t pos = 0, count = 0;
	uint64_t value;

	if (!nd_span_token(line, &pos, &tok) || tok.p[tok.len - 1] != ':')
		return 0;
	while (nd_span_token(line, &pos, &tok) && nd_span_u64(tok, &value) == 0)
		count++;
	return count;
}

/*
 * hwinfo's copy of /proc/interrupts inside hardware.txt: between
 * "----- /proc/interrupts -----" and "----- /proc/interrupts end -----",
 * each line indented two spaces and the CPU header row dropped (hwinfo
 * skips line 0).  The header is rebuilt from the widest row, as the
 * kernel prints it.
 */
static int convert_hwinfo_interrupts(struct sc_state *st, const char *text, size_t len)
{
	static const char start[] = "----- /proc/interrupts -----";
	struct nd_span all = { text, len }, line;
	const char *from = nd_span_find(all, start);
	size_t cpus = 0, out_len = 0, cap;
	struct nd_cursor c;
	char *out;
	int r;

	if (!from)
		return 0;
	nd_cursor_init(&c, from, len - (size_t)(from - text));
	nd_next_line(&c, &line);
	cap = (size_t)(c.end - c.p) + 16 * SC_MAX_CPUS + 32;
	out = malloc(cap);
	if (!out)
		return -ENOMEM;
	out_len = (size_t)snprintf(out, cap, "%11s", "");
	while (nd_next_line(&c, &line) && !nd_span_starts(nd_span_trim(line), "----- "))
		if (count_cpu_columns(line) > cpus)
			cpus = count_cpu_columns(line);
	if (cpus == 0 || cpus > SC_MAX_CPUS) {
		free(out);
		return 0;
	}
	for (size_t i = 0; i < cpus; i++)
		out_len += (size_t)snprintf(out + out_len, cap - out_len, "CPU%-8zu", i);
	out[out_len++] = '\n';
	nd_cursor_init(&c, from, len - (size_t)(from - text));
	nd_next_line(&c, &line);
	while (nd_next_line(&c, &line) && !nd_span_starts(nd_span_trim(line), "----- ")) {
		if (nd_span_starts(line, "  "))
			line = nd_span_from(line, 2);
		memcpy(out + out_len, line.p, line.len);
		out_len += line.len;
		out[out_len++] = '\n';
	}
	r = put_file(st->dst_fd, "/proc/interrupts", out, out_len);
	free(out);
	return r;
}

int nd_supportconfig_convert_text(const char *file, const char *text, size_t len, int dst_fd,
				  struct nd_bundle *bundle)
{
	struct sc_state st = { .dst_fd = dst_fd, .bundle = bundle };
	struct nd_sc_section sec;
	size_t pos = 0;
	int r = 0;

	while (r >= 0 && nd_sc_next(text, len, &pos, &sec) == 0) {
		struct nd_span kind = { sec.kind, sec.kind_len }, name = { sec.name, sec.name_len };
		char path[PATH_MAX];

		if (!sec.name || sec.file_missing)
			continue;
		if (nd_span_eq(kind, "Command"))
			r = convert_command(&st, &sec);
		else if (proc_path(name, path, sizeof(path)))
			r = put_file(dst_fd, path, sec.body, sec.body_len);
	}
	/* Existing files were kept: a failure to write one is not fatal, but
	 * running out of memory or disk is. */
	if (r == -EEXIST || r == -EINVAL || r == -ENOTDIR || r == -ELOOP)
		r = 0;
	if (r >= 0 && !strcmp(file, "hardware.txt"))
		r = convert_hwinfo_interrupts(&st, text, len);
	if (r >= 0 && st.tc_len)
		r = put_file(dst_fd, "/sos_commands/networking/tc_-s_qdisc_show", st.tc, st.tc_len);
	free(st.tc);
	return r;
}

/* Read dir/name whole (a regular file, no link followed, capped). */
static int read_text(const char *dir, const char *name, char **ret, size_t *ret_len)
{
	char path[PATH_MAX];
	struct stat sb;
	size_t done = 0;
	char *buf;
	int fd;

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode) ||
	    (uint64_t)sb.st_size > ND_BUNDLE_MAX_MEMBER_BYTES) {
		close(fd);
		return -EINVAL;
	}
	buf = malloc((size_t)sb.st_size + 1);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	while (done < (size_t)sb.st_size) {
		ssize_t n = read(fd, buf + done, (size_t)sb.st_size - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		done += (size_t)n;
	}
	close(fd);
	buf[done] = '\0';
	*ret = buf;
	*ret_len = done;
	return 0;
}

/* "Script Version: 3.2.14" in the run log or the environment file. */
static void find_version(const char *text, size_t len, struct nd_bundle *bundle)
{
	struct nd_span all = { text, len }, line;
	const char *at = nd_span_find(all, "Script Version:");
	struct nd_cursor c;

	if (!at || bundle->tool_version[0])
		return;
	nd_cursor_init(&c, at + 15, len - (size_t)(at + 15 - text));
	if (nd_next_line(&c, &line))
		nd_span_copy(nd_span_trim(line), bundle->tool_version, sizeof(bundle->tool_version));
}

int nd_supportconfig_convert(const char *src, int dst_fd, struct nd_bundle *bundle)
{
	static const char *const files[] = { "basic-environment.txt", "supportconfig.txt",
					     "network.txt", "hardware.txt", "proc.txt", "env.txt",
					     "systemd.txt", "rpm.txt", "boot.txt" };
	/* The package list and the boot log are read line by line wherever
	 * they are (records.c): they go into the tree as they are. */
	static const char *const whole[] = { "/rpm.txt", "/boot.txt" };
	char version[64];
	int r = 0;

	for (size_t i = 0; i < ND_ARRAY_SIZE(files) && r >= 0; i++) {
		char *text;
		size_t len;

		if (read_text(src, files[i], &text, &len) < 0)
			continue;	/* a supportconfig run with -x leaves files out */
		find_version(text, len, bundle);
		if (i >= ND_ARRAY_SIZE(files) - 2)	/* rpm.txt, boot.txt: read whole */
			r = put_file(dst_fd, whole[i - (ND_ARRAY_SIZE(files) - 2)], text, len);
		else if (i >= 2 || i == 0)
			r = nd_supportconfig_convert_text(files[i], text, len, dst_fd, bundle);
		free(text);
	}
	if (r < 0)
		return r;
	/* So the tree is a sosreport to any reader, naming where it came from. */
	snprintf(version, sizeof(version), "supportconfig: %s\n",
		 bundle->tool_version[0] ? bundle->tool_version : "unknown");
	return nd_snapshot_write(dst_fd, "/version.txt", version, strlen(version));
}

static bool supportconfig_detect(const struct nd_bundle *bundle)
{
	return bundle->from_supportconfig;
}

/* Read as the sosreport it was converted into; messages name it as they
 * always have ("the sosreport"). */
const struct nd_source_ops nd_source_supportconfig = {
	.name = "supportconfig",
	.noun = "the sosreport",
	.detect = supportconfig_detect,
	ND_SOS_SHAPED_OPS,
};
