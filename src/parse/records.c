/*
 * records.c - what a bundle records about the host in plain lists and
 * logs: a package's version in the package lists (dpkg -l, rpm -qa's
 * name-version-release.arch, supportconfig's rpm.txt columns) and the
 * kernel's own PCIe verdict in a kernel log (dmesg, journalctl, boot.txt):
 *
 *   BDF: 16.000 Gb/s available PCIe bandwidth, limited by 5.0 GT/s PCIe
 *        x4 link at UPBDF (capable of 32.000 Gb/s with 5.0 GT/s PCIe x8 link)
 *   BDF: 63.008 Gb/s available PCIe bandwidth (8.0 GT/s PCIe x8 link)
 *   BDF: (Speed:5.0GT/s, Width: x4, Encoding Loss:20%)      (ixgbe)
 *   BDF: PCI Express bandwidth of 4GT/s available           (older ixgbe)
 *   BDF: For optimal performance, at least 20GT/s of bandwidth is required.
 *
 * The device is the BDF before the message (the line's prefix); the BDF
 * after "at" is the link that limits it, which may be a port above it.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nicdoctor/common.h"
#include "nicdoctor/parse_text.h"
#include "nicdoctor/text_util.h"

/* ---- package lists ---- */

/* dpkg -l's status column of an installed package: "ii", "hi", "iU"... */
static bool dpkg_installed(struct nd_span tok)
{
	return tok.len >= 2 && tok.len <= 3 && strchr("ih", tok.p[0]) && tok.p[1] == 'i';
}

static bool name_is(struct nd_span tok, const char *name)
{
	size_t n = strlen(name);

	/* dpkg -l prints "libiperf0:amd64" for a multi-arch package. */
	return tok.len >= n && !memcmp(tok.p, name, n) && (tok.len == n || tok.p[n] == ':');
}

/* The upstream part of a package version: no epoch, no release. */
static bool upstream_version(struct nd_span v, char *buf, size_t size)
{
	const char *colon = memchr(v.p, ':', v.len), *dash;

	if (colon && colon - v.p < 4) {
		v.len -= (size_t)(colon + 1 - v.p);
		v.p = colon + 1;
	}
	dash = memchr(v.p, '-', v.len);
	if (dash)
		v.len = (size_t)(dash - v.p);
	if (!v.len || !isdigit((unsigned char)v.p[0]))
		return false;
	nd_span_copy(v, buf, size);
	return true;
}

/* One line's version of `name`, whichever list it is from. */
static bool line_version(struct nd_span line, const char *name, char *buf, size_t size)
{
	struct nd_span tok[3], last = { NULL, 0 }, t;
	size_t pos = 0, n = 0, name_len = strlen(name);

	while (nd_span_token(line, &pos, &t)) {
		if (n < 3)
			tok[n] = t;
		n++;
		last = t;
	}
	if (n == 0)
		return false;
	/* dpkg -l: "ii  iperf3  3.1.3-1  amd64  description" */
	if (n >= 3 && dpkg_installed(tok[0]) && name_is(tok[1], name))
		return upstream_version(tok[2], buf, size);
	/* rpm -qa, installed-rpms, package-data: "iperf3-3.5-3.el8.x86_64 ..." */
	if (tok[0].len > name_len + 1 && !memcmp(tok[0].p, name, name_len) &&
	    tok[0].p[name_len] == '-' && isdigit((unsigned char)tok[0].p[name_len + 1]))
		return upstream_version(nd_span_from(tok[0], name_len + 1), buf, size);
	/* supportconfig rpm.txt: "iperf3   DISTRIBUTION ...   3.5-150000.3.3.1" */
	if (n >= 2 && tok[0].len == name_len && !memcmp(tok[0].p, name, name_len))
		return upstream_version(last, buf, size);
	return false;
}

int nd_parse_package_version(const char *text, size_t len, const char *name, char *buf,
			     size_t size, unsigned *ret_line)
{
	struct nd_cursor c;
	struct nd_span line;
	unsigned no = 0;

	if (!text || !name || !name[0] || !buf || size < 2)
		return -EINVAL;
	buf[0] = '\0';
	nd_cursor_init(&c, text, len);
	while (nd_next_line(&c, &line)) {
		no++;
		if (line_version(line, name, buf, size)) {
			if (ret_line)
				*ret_line = no;
			return 0;
		}
	}
	buf[0] = '\0';
	return -ENOENT;
}

/* ---- the kernel's PCIe verdict ---- */

static bool hex_run(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isxdigit((unsigned char)p[i]))
			return false;
	return true;
}

/* "0000:82:00.0" at p (12 bytes within end): normalised into ret. */
static bool bdf_at(const char *p, const char *end, char ret[16])
{
	if (end - p < 12 || !hex_run(p, 4) || p[4] != ':' || !hex_run(p + 5, 2) || p[7] != ':' ||
	    !hex_run(p + 8, 2) || p[10] != '.' || p[11] < '0' || p[11] > '7')
		return false;
	for (int i = 0; i < 12; i++)
		ret[i] = (char)tolower((unsigned char)p[i]);
	ret[12] = '\0';
	return true;
}

/* The device of the message at `msg`: the last BDF before it in the
 * line, as "ixgbe 0000:82:00.0: " (dev_printk's prefix) puts it. */
static bool prefix_device(struct nd_span line, const char *msg, char ret[16])
{
	for (const char *p = msg - 1; p >= line.p; p--)
		if (bdf_at(p, msg, ret) && (p == line.p || !isxdigit((unsigned char)p[-1])))
			return true;
	return false;
}

/* "5.0 GT/s", "5 GT/s", "5.0GT/s", optionally followed by " PCIe". */
static bool read_gts(struct nd_span *s, double *ret)
{
	size_t used;

	while (s->len && *s->p == ' ')
		*s = nd_span_from(*s, 1);
	if (nd_span_double_prefix(*s, ret, &used) < 0)
		return false;
	*s = nd_span_from(*s, used);
	while (s->len && *s->p == ' ')
		*s = nd_span_from(*s, 1);
	if (!nd_span_starts(*s, "GT/s"))
		return false;
	*s = nd_span_from(*s, 4);
	while (s->len && *s->p == ' ')
		*s = nd_span_from(*s, 1);
	if (nd_span_starts(*s, "PCIe "))
		*s = nd_span_from(*s, 5);
	return *ret > 0 && *ret < 1000;
}

/* "x4" (after optional blanks). */
static bool read_width(struct nd_span *s, unsigned *ret)
{
	uint64_t w;
	size_t used;

	while (s->len && *s->p == ' ')
		*s = nd_span_from(*s, 1);
	if (!s->len || *s->p != 'x')
		return false;
	*s = nd_span_from(*s, 1);
	if (nd_span_u64_prefix(*s, &w, &used) < 0 || w == 0 || w > 32)
		return false;
	*s = nd_span_from(*s, used);
	*ret = (unsigned)w;
	return true;
}

static bool read_gbps(struct nd_span *s, double *ret)
{
	size_t used;

	if (nd_span_double_prefix(*s, ret, &used) < 0)
		return false;
	*s = nd_span_from(*s, used);
	return nd_span_starts(*s, " Gb/s");
}

/* pcie_print_link_status(): "N Gb/s available PCIe bandwidth" and what
 * follows; the number starts at the line's last blank before `at`. */
static bool generic_line(struct nd_span line, const char *at, struct nd_kernel_pcie *k)
{
	const char *num = at;
	struct nd_span s;

	while (num > line.p && (isdigit((unsigned char)num[-1]) || num[-1] == '.'))
		num--;
	s = (struct nd_span){ num, (size_t)(line.p + line.len - num) };
	if (!read_gbps(&s, &k->avail_gbps) || !prefix_device(line, num, k->address))
		return false;
	s = nd_span_from(s, strlen(" Gb/s available PCIe bandwidth"));
	if (nd_span_starts(s, " (")) {
		/* Not limited: the device's own link at its capability. */
		s = nd_span_from(s, 2);
		if (!read_gts(&s, &k->gts) || !read_width(&s, &k->width))
			return false;
		k->cap_gts = k->gts;
		k->cap_width = k->width;
		k->cap_gbps = k->avail_gbps;
		return true;
	}
	if (!nd_span_starts(s, ", limited by "))
		return false;
	s = nd_span_from(s, 13);
	if (!read_gts(&s, &k->gts) || !read_width(&s, &k->width) ||
	    !nd_span_starts(s, " link at "))
		return false;
	s = nd_span_from(s, 9);
	k->limited = true;
	if (nd_span_starts(s, "<unknown>"))	/* the kernel found no limiting device */
		s = nd_span_from(s, 9);
	else if (bdf_at(s.p, s.p + s.len, k->limited_at))
		s = nd_span_from(s, 12);
	else
		return false;
	if (!nd_span_starts(s, " (capable of "))
		return true;	/* a line cut short still says the limit */
	s = nd_span_from(s, 13);
	if (!read_gbps(&s, &k->cap_gbps) || !nd_span_starts(s, " Gb/s with "))
		return true;
	s = nd_span_from(s, 11);
	if (!read_gts(&s, &k->cap_gts) || !read_width(&s, &k->cap_width)) {
		k->cap_gts = 0;
		k->cap_width = 0;
	}
	return true;
}

/* ixgbe's "(Speed:5.0GT/s, Width: x4, Encoding Loss:20%)": the device's
 * trained link only; its capability is not said. */
static bool ixgbe_line(struct nd_span line, const char *at, struct nd_kernel_pcie *k)
{
	struct nd_span s = { at + 7, (size_t)(line.p + line.len - at - 7) };

	if (!prefix_device(line, at, k->address) || !read_gts(&s, &k->gts) ||
	    !nd_span_starts(s, ", Width:"))
		return false;
	s = nd_span_from(s, 8);
	return read_width(&s, &k->width);
}

static bool lane_count(unsigned w)
{
	return w == 1 || w == 2 || w == 4 || w == 8 || w == 12 || w == 16 || w == 32;
}

/* The number before "GT/s" ending at `end` (the line's text before it). */
static bool gts_before(struct nd_span line, const char *end, unsigned *ret)
{
	const char *num = end;
	uint64_t v;
	size_t used;

	while (num > line.p && isdigit((unsigned char)num[-1]))
		num--;
	if (num == end || num == line.p || num[-1] != ' ' ||
	    nd_span_u64_prefix((struct nd_span){ num, (size_t)(end - num) }, &v, &used) < 0 ||
	    used != (size_t)(end - num) || v == 0 || v > 1024)
		return false;
	*ret = (unsigned)v;
	return true;
}

/* Older ixgbe's "PCI Express bandwidth of NGT/s available": N is the
 * rate after encoding (4 a lane at 5.0 GT/s, 2 at 2.5, 8 at 8.0); the
 * "(Speed:" line after it says which, and when it is missing (a log cut
 * short) the lanes that give N stand for the link: N/4 at 5.0 GT/s, else
 * N/2 at 2.5, the same rate (an 8.0 GT/s link is within 2% of it). */
static bool available_line(struct nd_span line, const char *at, struct nd_kernel_pcie *k)
{
	const char *gts = nd_span_find(line, "GT/s available");
	unsigned n;

	if (!gts || gts < at || !prefix_device(line, at, k->address) ||
	    !gts_before(line, gts, &n))
		return false;
	k->driver_gts = n;
	k->link_inferred = true;
	if (n % 4 == 0 && lane_count(n / 4)) {
		k->gts = 5.0;
		k->width = n / 4;
	} else if (n % 2 == 0 && lane_count(n / 2)) {
		k->gts = 2.5;
		k->width = n / 2;
	} else {
		return false;
	}
	return true;
}

/* ixgbe's "at least NGT/s of bandwidth is required" for `address`. */
static bool need_line(struct nd_span line, const char *address, unsigned *ret)
{
	const char *at = nd_span_find(line, "at least "), *gts;
	char device[16];

	if (!at || !prefix_device(line, at, device) || strcasecmp(device, address) != 0)
		return false;
	gts = nd_span_find(nd_span_from(line, (size_t)(at - line.p)), "GT/s of bandwidth");
	return gts && gts_before(line, gts, ret);
}

/* A line past the journal's or syslog's "DATE host kernel: " and the
 * kernel's "[   12.345678]" timestamp (dmesg -T: "[Mon Jan  8 10:00:01 2024]"). */
static void keep_words(struct nd_span line, struct nd_kernel_pcie *k)
{
	const char *kernel = nd_span_find(line, "kernel: "), *close;

	if (kernel && kernel - line.p < 64)
		line = nd_span_from(line, (size_t)(kernel + 8 - line.p));
	close = memchr(line.p, ']', line.len < 32 ? line.len : 32);
	if (line.len && line.p[0] == '[' && close)
		line = nd_span_trim(nd_span_from(line, (size_t)(close + 1 - line.p)));
	nd_span_copy(line, k->words, sizeof(k->words));
}

int nd_parse_kernel_pcie(const char *text, size_t len, const char *address,
			 struct nd_kernel_pcie *out)
{
	struct nd_cursor c;
	struct nd_span line;
	unsigned no = 0;
	int r = -ENOENT;

	if (!out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	if (!text || !address)
		return -EINVAL;
	nd_cursor_init(&c, text, len);
	while (nd_next_line(&c, &line)) {
		struct nd_kernel_pcie k;
		const char *at;
		bool ok = false;

		no++;
		memset(&k, 0, sizeof(k));
		if ((at = nd_span_find(line, " Gb/s available PCIe bandwidth")) != NULL)
			ok = generic_line(line, at, &k);
		else if ((at = nd_span_find(line, "(Speed:")) != NULL)
			ok = ixgbe_line(line, at, &k);
		else if ((at = nd_span_find(line, "PCI Express bandwidth of ")) != NULL)
			ok = available_line(line, at, &k);
		else if (r == 0 && nd_span_find(line, "of bandwidth is required"))
			/* The need follows the verdict it belongs to. */
			need_line(line, address, &out->need_gts);
		if (!ok || strcasecmp(k.address, address) != 0)
			continue;
		/* The "(Speed:" line says the link of the figure before it. */
		if (r == 0 && !k.driver_gts && out->link_inferred && out->line + 1 == no &&
		    at == nd_span_find(line, "(Speed:"))
			k.driver_gts = out->driver_gts;
		/* "This is not sufficient" follows ixgbe's line: kept with it. */
		k.line = no;
		keep_words(line, &k);
		*out = k;
		r = 0;	/* the last one wins: a later probe (hotplug, rebind) */
	}
	return r;
}
