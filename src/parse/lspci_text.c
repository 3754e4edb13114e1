/*
 * lspci_text.c - `lspci -vv` text (also -vvv, -nnvv, -vvxxx, tabs expanded
 * to spaces in pastes) into nd_pcie_link: split into devices at the
 * "[DDDD:]BB:DD.F " header lines, then read the PCI Express capability's
 * DevCap/DevCtl/LnkCap/LnkSta/LnkCap2 lines.  Config-space hex in the same
 * text is left alone: those bytes are libpci's to decode (DESIGN.md).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nicdoctor/common.h"
#include "nicdoctor/parse_text.h"
#include "nicdoctor/text_util.h"

static bool hex_run(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isxdigit((unsigned char)p[i]))
			return false;
	return true;
}

/* "BB:DD.F" at p (7 bytes within n). */
static bool bdf_at(const char *p, size_t n)
{
	return n >= 7 && hex_run(p, 2) && p[2] == ':' && hex_run(p + 3, 2) && p[5] == '.' &&
	       p[6] >= '0' && p[6] <= '7';
}

/* "08:00.0 " or "0000:08:00.0 " at the start of t: the address, normalised.
 * lspci -PP prints the path from the root bus, "00:1c.0/03:00.0 " or
 * "0000:00:00.0/01:00.0 ": the function is the last, in the first's domain. */
static bool header_address(struct nd_span t, char ret[16])
{
	const char *p = t.p;
	size_t n = t.len, dom = 0, at;

	if (n >= 13 && hex_run(p, 4) && p[4] == ':')
		dom = 5;
	if (!bdf_at(p + dom, n - dom))
		return false;
	at = dom;
	while (at + 15 <= n && p[at + 7] == '/' && bdf_at(p + at + 8, n - at - 8))
		at += 8;
	if (at + 8 > n || p[at + 7] != ' ')
		return false;
	snprintf(ret, 16, "%.4s:%.7s", dom ? p : "0000", p + at);
	for (int i = 0; ret[i]; i++)
		ret[i] = (char)tolower((unsigned char)ret[i]);
	return true;
}

int nd_lspci_next(const char *text, size_t len, size_t *pos, struct nd_lspci_block *ret)
{
	struct nd_cursor c;
	struct nd_span line;
	const char *start = NULL;

	if (!text || *pos >= len)
		return -ENOENT;
	nd_cursor_init(&c, text + *pos, len - *pos);
	for (;;) {
		const char *line_start = c.p;
		char address[16];
		bool more = nd_next_line(&c, &line);

		if (!more || header_address(nd_span_trim(line), address)) {
			if (start) {
				ret->len = (size_t)((more ? line_start : c.end) - start);
				*pos = (size_t)(ret->text + ret->len - text);
				return 0;
			}
			if (!more)
				break;
			start = line_start;
			ret->text = line_start;
			nd_strlcpy(ret->address, address, sizeof(ret->address));
		}
	}
	*pos = len;
	return -ENOENT;
}

int nd_lspci_find(const char *text, size_t len, const char *address, struct nd_lspci_block *ret)
{
	char want[16];
	size_t pos = 0, n = address ? strlen(address) : 0;
	struct nd_span a = { address, n };
	char padded[24];

	if (!address || n > 12)
		return -ENOENT;
	snprintf(padded, sizeof(padded), "%s ", address);
	a.p = padded;
	a.len = n + 1;
	if (!header_address(a, want))
		return -ENOENT;
	struct nd_lspci_block block, best = { NULL, 0, "" };

	/* A paste may list the device twice (`lspci`, then `lspci -vv`):
	 * the longest block is the one with the capabilities. */
	while (nd_lspci_next(text, len, &pos, &block) == 0)
		if (!strcmp(block.address, want) && block.len > best.len)
			best = block;
	if (!best.text)
		return -ENOENT;
	*ret = best;
	return 0;
}

/* "Express (v2) Endpoint, MSI 00" -> "endpoint"; names as probe/pci.c. */
static const char *port_type(struct nd_span cap)
{
	static const struct { const char *text, *type; } types[] = {
		{ "Legacy Endpoint", "legacy_endpoint" },
		{ "Root Complex Integrated Endpoint", "rc_endpoint" },
		{ "Root Complex Event Collector", "rc_event_collector" },
		{ "Endpoint", "endpoint" },
		{ "Root Port", "root_port" },
		{ "Upstream Port", "upstream" },
		{ "Downstream Port", "downstream" },
		{ "PCI-Express to PCI/PCI-X Bridge", "pci_bridge" },
		{ "PCI/PCI-X to PCI-Express Bridge", "pcie_bridge" },
	};

	for (size_t i = 0; i < ND_ARRAY_SIZE(types); i++)
		if (nd_span_contains(cap, types[i].text))
			return types[i].type;
	return "";
}

/* "Speed 8GT/s" (or old "2.5Gb/s") -> 8; "Speed unknown" -> 0. */
static double speed_after(struct nd_span s, const char *label)
{
	const char *at = nd_span_find(s, label);
	struct nd_span rest;
	double gts;
	size_t used;

	if (!at)
		return 0;
	rest = nd_span_from(s, (size_t)(at - s.p) + strlen(label));
	if (nd_span_double_prefix(rest, &gts, &used) < 0 || gts > 1000)
		return 0;
	rest = nd_span_from(rest, used);
	return nd_span_starts(rest, "GT/s") || nd_span_starts(rest, "Gb/s") ? gts : 0;
}

static unsigned width_after(struct nd_span s)
{
	const char *at = nd_span_find(s, "Width x");
	uint64_t lanes;
	size_t used;

	if (!at || nd_span_u64_prefix(nd_span_from(s, (size_t)(at - s.p) + 7), &lanes, &used) < 0 ||
	    lanes > 64)
		return 0;
	return (unsigned)lanes;
}

static unsigned payload_after(struct nd_span s)
{
	const char *at = nd_span_find(s, "MaxPayload ");
	uint64_t bytes;
	size_t used;

	if (!at || nd_span_u64_prefix(nd_span_from(s, (size_t)(at - s.p) + 11), &bytes, &used) < 0 ||
	    bytes > 4096)
		return 0;
	return (unsigned)bytes;
}

/* "02:00.0 Ethernet controller [0200]: Intel ... [8086:1592] (rev 02)". */
static void parse_header(struct nd_span t, struct nd_pcie_link *out)
{
	const char *sep = nd_span_find(t, ": ");
	struct nd_span name;
	const char *cut;
	unsigned vendor, device;

	if (!sep)
		return;
	name = nd_span_trim(nd_span_from(t, (size_t)(sep - t.p) + 2));
	for (size_t i = name.len; i >= 11; i--) {
		const char *b = name.p + i - 11;
		char ids[10];

		if (b[0] != '[' || b[5] != ':' || b[10] != ']' || !hex_run(b + 1, 4) ||
		    !hex_run(b + 6, 4))
			continue;
		memcpy(ids, b + 1, 9);
		ids[9] = '\0';
		if (sscanf(ids, "%4x:%4x", &vendor, &device) == 2) {
			out->vendor_id = (uint16_t)vendor;
			out->device_id = (uint16_t)device;
		}
		name.len = (size_t)(b - name.p);
		break;
	}
	cut = nd_span_find(name, " (rev ");
	if (cut)
		name.len = (size_t)(cut - name.p);
	cut = nd_span_find(name, " (prog-if ");
	if (cut)
		name.len = (size_t)(cut - name.p);
	nd_span_copy(nd_span_trim(name), out->name, sizeof(out->name));
}

/* Which register a capability line belongs to: "DevCtl:" starts it, the
 * un-labelled lines under it continue it (MaxPayload is on such a line). */
enum reg { REG_NONE, REG_DEVCAP, REG_DEVCTL, REG_LNKCAP, REG_LNKSTA, REG_LNKCAP2, REG_OTHER };

static enum reg line_reg(struct nd_span t, enum reg current)
{
	static const struct { const char *label; enum reg reg; } regs[] = {
		{ "DevCap:", REG_DEVCAP }, { "DevCtl:", REG_DEVCTL }, { "LnkCap:", REG_LNKCAP },
		{ "LnkSta:", REG_LNKSTA }, { "LnkCap2:", REG_LNKCAP2 },
	};
	struct nd_span key, val;

	for (size_t i = 0; i < ND_ARRAY_SIZE(regs); i++)
		if (nd_span_starts(t, regs[i].label))
			return regs[i].reg;
	/* Any other "Label:" with no blank in the label starts another register. */
	if (nd_span_kv(t, &key, &val) && key.len && !memchr(key.p, ' ', key.len))
		return REG_OTHER;
	return current;
}

static void finish(struct nd_pcie_link *out, bool caps_denied, bool caps_listed)
{
	out->link_known = out->sta_gts > 0 && out->sta_width > 0;
	if (out->link_known)
		return;
	/* Plain `lspci` (sos's oldest file) or a trimmed paste: no capability
	 * list says nothing of PCI Express, which is not its absence. */
	if (!caps_listed && !caps_denied)
		nd_strlcpy(out->link_reason, "the lspci text lists no capabilities (not lspci -vv)",
			   sizeof(out->link_reason));
	else if (caps_denied)
		nd_strlcpy(out->link_reason, "lspci was run without root: capabilities not shown",
			   sizeof(out->link_reason));
	else if (!out->is_pcie)
		nd_strlcpy(out->link_reason, "no PCI Express capability (conventional PCI or virtual device)",
			   sizeof(out->link_reason));
	else if (!strcmp(out->port_type, "rc_endpoint"))
		nd_strlcpy(out->link_reason, "root complex integrated: no PCIe link",
			   sizeof(out->link_reason));
	else
		nd_strlcpy(out->link_reason, "LnkSta gives no speed or width (a VF, or the link is down)",
			   sizeof(out->link_reason));
}

int nd_parse_lspci_device(const char *text, size_t len, struct nd_pcie_link *out)
{
	struct nd_cursor c;
	struct nd_span line, t;
	enum reg reg = REG_NONE;
	bool in_express = false, caps_denied = false, caps_listed = false;

	memset(out, 0, sizeof(*out));
	nd_cursor_init(&c, text, len);
	if (!nd_next_line(&c, &line) || !header_address(nd_span_trim(line), out->address))
		return -EINVAL;
	parse_header(nd_span_trim(line), out);
	while (nd_next_line(&c, &line)) {
		t = nd_span_trim(line);
		if (nd_span_starts(t, "Capabilities:")) {
			caps_listed = true;
			caps_denied |= nd_span_contains(t, "<access denied>");
			/* "Secondary PCI Express" is another capability. */
			in_express = !out->is_pcie && nd_span_contains(t, "] Express");
			if (in_express) {
				out->is_pcie = true;
				nd_strlcpy(out->port_type, port_type(t), sizeof(out->port_type));
			}
			reg = REG_NONE;
			continue;
		}
		if (!in_express)
			continue;
		reg = line_reg(t, reg);
		switch (reg) {
		case REG_DEVCAP:
			if (!out->mps_cap_bytes)
				out->mps_cap_bytes = payload_after(t);
			break;
		case REG_DEVCTL:
			if (!out->mps_bytes)
				out->mps_bytes = payload_after(t);
			break;
		case REG_LNKCAP:
			out->cap_gts = speed_after(t, "Speed ");
			out->cap_width = width_after(t);
			reg = REG_OTHER;	/* its flag lines hold no speed */
			break;
		case REG_LNKSTA:
			out->sta_gts = speed_after(t, "Speed ");
			out->sta_width = width_after(t);
			reg = REG_OTHER;
			break;
		case REG_LNKCAP2: {
			/* "Supported Link Speeds: 2.5-16GT/s": the top of the range. */
			const char *dash = nd_span_find(t, "Supported Link Speeds: ");
			struct nd_span sp = dash ? nd_span_from(t, (size_t)(dash - t.p) + 23) : t;
			const char *d = nd_span_find(sp, "-");
			const char *gt = nd_span_find(sp, "GT/s");

			if (dash && d && gt && d < gt)
				sp = nd_span_from(sp, (size_t)(d - sp.p) + 1);
			if (dash) {
				double gts;
				size_t used;

				if (nd_span_double_prefix(sp, &gts, &used) == 0 &&
				    nd_span_starts(nd_span_from(sp, used), "GT/s") && gts <= 1000)
					out->cap2_max_gts = gts;
			}
			reg = REG_OTHER;
			break;
		}
		default:
			break;
		}
	}
	finish(out, caps_denied, caps_listed);
	nd_parse_lspci_aspm(text, len, &out->aspm);
	return 0;
}
