/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lspci_aspm.c - the ASPM fields of one device's `lspci -vv` block, as
 * the spec's codes (facts.h, struct nd_pcie_aspm): LnkCap's "ASPM L0s L1,
 * Exit Latency L0s <2us, L1 <16us", LnkCtl's "ASPM L1 Enabled;" and
 * DevCap's "Latency L0s <512ns, L1 <64us".  lspci prints each code as one
 * word of a fixed list (ls-caps.c: latency_l0s, latency_l1), so the word's
 * place in the list is the code.  Only the first (PCI) Express capability
 * counts: "Secondary PCI Express" is another one.
 */
#include <errno.h>
#include <string.h>

#include "nicdoctor/common.h"
#include "nicdoctor/parse_text.h"
#include "nicdoctor/text_util.h"

static const char *const l0s_words[] = {
	"<64ns", "<128ns", "<256ns", "<512ns", "<1us", "<2us", "<4us", "unlimited",
};
static const char *const l1_words[] = {
	"<1us", "<2us", "<4us", "<8us", "<16us", "<32us", "<64us", "unlimited",
};

/* The code of the latency word after `label` ("L0s " or "L1 "); -1 none. */
static int latency_code(struct nd_span s, const char *label, const char *const *words)
{
	const char *at = nd_span_find(s, label);
	struct nd_span tok;
	size_t pos = 0;

	if (!at)
		return -1;
	s = nd_span_from(s, (size_t)(at - s.p) + strlen(label));
	if (!nd_span_token(s, &pos, &tok))
		return -1;
	/* "<16us," and "<16us" alike */
	if (tok.len && (tok.p[tok.len - 1] == ',' || tok.p[tok.len - 1] == ';'))
		tok.len--;
	for (int code = 0; code < 8; code++)
		if (nd_span_eq(tok, words[code]))
			return code;
	return -1;
}

/* "Port #1, Speed 8GT/s, Width x1, ASPM L0s L1, Exit Latency L0s <2us, L1 <16us";
 * pciutils before 3.1 wrote "ASPM L0s, Latency L0 unlimited, L1 unlimited". */
static void parse_lnkcap(struct nd_span t, struct nd_pcie_aspm *out)
{
	const char *aspm = nd_span_find(t, "ASPM ");
	const char *lat;
	struct nd_span support;
	int code;

	if (!aspm)
		return;
	support = nd_span_from(t, (size_t)(aspm - t.p) + 5);
	lat = nd_span_find(support, "Latency ");
	if (lat) {
		struct nd_span l = nd_span_from(support, (size_t)(lat - support.p) + 8);

		support.len = (size_t)(lat - support.p);
		if ((code = latency_code(l, "L0s ", l0s_words)) >= 0 ||
		    (code = latency_code(l, "L0 ", l0s_words)) >= 0)
			out->l0s_exit_code = (unsigned)code;
		if ((code = latency_code(l, "L1 ", l1_words)) >= 0)
			out->l1_exit_code = (unsigned)code;
	}
	out->l0s_supported = nd_span_contains(support, "L0s");
	out->l1_supported = nd_span_contains(support, "L1");
	out->known = true;
}

/* "ASPM L0s L1 Enabled; RCB 64 bytes ..." or "ASPM Disabled; ..." */
static bool parse_lnkctl(struct nd_span t, struct nd_pcie_aspm *out)
{
	const char *semi;

	if (!nd_span_starts(t, "ASPM "))
		return false;
	semi = nd_span_find(t, ";");
	if (semi)
		t.len = (size_t)(semi - t.p);
	if (!nd_span_contains(t, "Enabled"))
		return nd_span_contains(t, "Disabled");
	out->l0s_enabled = nd_span_contains(t, "L0s");
	out->l1_enabled = nd_span_contains(t, " L1");
	return true;
}

/* "MaxPayload 512 bytes, PhantFunc 0, Latency L0s <512ns, L1 <64us" */
static void parse_devcap(struct nd_span t, struct nd_pcie_aspm *out)
{
	const char *at = nd_span_find(t, "Latency ");
	int l0s, l1;

	if (!at)
		return;
	t = nd_span_from(t, (size_t)(at - t.p) + 8);
	l0s = latency_code(t, "L0s ", l0s_words);
	l1 = latency_code(t, "L1 ", l1_words);
	if (l0s < 0 || l1 < 0)
		return;
	out->l0s_acceptable_code = (unsigned)l0s;
	out->l1_acceptable_code = (unsigned)l1;
	out->acceptable_known = true;
}

int nd_parse_lspci_aspm(const char *text, size_t len, struct nd_pcie_aspm *out)
{
	struct nd_cursor c;
	struct nd_span line, t, key, val;
	bool in_express = false, seen_express = false, lnkcap = false, lnkctl = false;
	bool devcap = false, ctl_read = false;

	memset(out, 0, sizeof(*out));
	nd_cursor_init(&c, text, len);
	while (nd_next_line(&c, &line)) {
		t = nd_span_trim(line);
		if (nd_span_starts(t, "Capabilities:")) {
			in_express = !seen_express && nd_span_contains(t, "] Express");
			seen_express |= in_express;
			continue;
		}
		if (!in_express || !nd_span_kv(t, &key, &val))
			continue;
		if (!devcap && nd_span_eq(key, "DevCap")) {
			devcap = true;
			parse_devcap(val, out);
		} else if (!lnkcap && nd_span_eq(key, "LnkCap")) {
			lnkcap = true;
			parse_lnkcap(val, out);
		} else if (!lnkctl && nd_span_eq(key, "LnkCtl")) {
			lnkctl = true;
			ctl_read = parse_lnkctl(val, out);
		}
	}
	/* Both registers, or nothing: a state without its latencies (or the
	 * reverse) cannot be judged. */
	out->known = out->known && ctl_read;
	if (!out->known) {
		bool acceptable = out->acceptable_known;
		unsigned l0s = out->l0s_acceptable_code, l1 = out->l1_acceptable_code;

		memset(out, 0, sizeof(*out));
		out->acceptable_known = acceptable;
		out->l0s_acceptable_code = l0s;
		out->l1_acceptable_code = l1;
		return -EINVAL;
	}
	return 0;
}
