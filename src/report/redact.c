/*
 * redact.c - --redact: replace IPv4, IPv6 and MAC addresses and host names
 * in every string value of a report document with stable placeholders
 * ("ipv4-1", "ipv6-1", "mac-1", "host-1"), so a report can go into a public
 * ticket.  The same address gets the same placeholder everywhere in one
 * report, so the report still reads ("irq on mac-1" twice is one NIC).
 * Keys are never touched: they are the schema.
 *
 * The matchers are hand-written scanners with word boundaries; candidate
 * addresses are validated with inet_pton, so "0000:09:00.0" (PCI), times
 * and version numbers with fewer than four parts are left alone.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicdoctor/common.h"
#include "nicdoctor/report.h"

#define MAX_NAMES 8

enum kind { KIND_HOST, KIND_MAC, KIND_IPV4, KIND_IPV6, KIND_COUNT };

static const char *const kind_prefix[KIND_COUNT] = { "host", "mac", "ipv4", "ipv6" };

struct mapping {
	enum kind kind;
	char *canonical;			/* normalised original, malloc'd */
	char placeholder[24];
};

struct redactor {
	struct mapping *map;
	unsigned n_map, cap_map;
	unsigned next[KIND_COUNT];
	const char *names[MAX_NAMES];		/* host names, longest first */
	unsigned n_names;
};

/* A growing output string. */
struct outbuf {
	char *text;
	size_t len, cap;
	bool failed;
};

static void out_append(struct outbuf *o, const char *s, size_t n)
{
	if (o->failed)
		return;
	if (o->len + n + 1 > o->cap) {
		size_t cap = (o->len + n + 1) * 2;
		char *text = realloc(o->text, cap);

		if (!text) {
			o->failed = true;
			return;
		}
		o->text = text;
		o->cap = cap;
	}
	memcpy(o->text + o->len, s, n);
	o->len += n;
	o->text[o->len] = '\0';
}

static const char *placeholder(struct redactor *rd, enum kind kind, const char *canonical)
{
	struct mapping *m;

	for (unsigned i = 0; i < rd->n_map; i++) {
		if (rd->map[i].kind == kind && strcmp(rd->map[i].canonical, canonical) == 0)
			return rd->map[i].placeholder;
	}
	if (rd->n_map == rd->cap_map) {
		unsigned cap = rd->cap_map ? rd->cap_map * 2 : 16;
		struct mapping *map = realloc(rd->map, cap * sizeof(*map));

		if (!map)
			return "redacted";
		rd->map = map;
		rd->cap_map = cap;
	}
	m = &rd->map[rd->n_map];
	m->canonical = strdup(canonical);
	if (!m->canonical)
		return "redacted";
	m->kind = kind;
	snprintf(m->placeholder, sizeof(m->placeholder), "%s-%u", kind_prefix[kind],
		 ++rd->next[kind]);
	rd->n_map++;
	return m->placeholder;
}

/* Word boundaries: an address or name glued to letters or digits is part of
 * something else (an identifier, a longer number). */
static bool boundary_before(const char *s, size_t i, const char *also)
{
	return i == 0 || (!isalnum((unsigned char)s[i - 1]) && !strchr(also, s[i - 1]));
}

static bool boundary_after(char c)
{
	return c == '\0' || !isalnum((unsigned char)c);
}

/* aa:bb:cc:dd:ee:ff or aa-bb-..., six groups or more (InfiniBand has 20),
 * and Cisco's aabb.ccdd.eeff.  Returns the matched length or 0. */
static size_t match_mac(const char *s, size_t i, char *canon, size_t size)
{
	const char *p = s + i;
	size_t groups = 0, len = 0, c = 0;
	char sep;

	if (!boundary_before(s, i, ":-."))
		return 0;
	if (isxdigit((unsigned char)p[0]) && isxdigit((unsigned char)p[1]) &&
	    (p[2] == ':' || p[2] == '-')) {
		sep = p[2];
		while (isxdigit((unsigned char)p[len]) && isxdigit((unsigned char)p[len + 1])) {
			groups++;
			len += 2;
			if (p[len] != sep || !isxdigit((unsigned char)p[len + 1]))
				break;
			len++;
		}
		if (groups < 6 || !boundary_after(p[len]))
			return 0;
	} else {
		for (groups = 0; groups < 3; groups++, len += 5) {
			for (int k = 0; k < 4; k++) {
				if (!isxdigit((unsigned char)p[len + k]))
					return 0;
			}
			if (groups < 2 && p[len + 4] != '.')
				return 0;
		}
		len--;
		if (!boundary_after(p[len]) || p[len] == '.')
			return 0;
	}
	/* hex digits only: the same MAC in any notation is one placeholder */
	for (size_t k = 0; k < len && c + 1 < size; k++) {
		if (isxdigit((unsigned char)p[k]))
			canon[c++] = (char)tolower((unsigned char)p[k]);
	}
	canon[c] = '\0';
	return len;
}

/* The longest run of allowed characters at i that inet_pton accepts,
 * trimming trailing separators ("fe80::1." ends a sentence). */
static size_t match_inet(const char *s, size_t i, int af, char *canon, size_t size)
{
	const char *allowed = af == AF_INET6 ? "0123456789abcdefABCDEF:." : "0123456789.";
	unsigned char addr[16];
	char cand[INET6_ADDRSTRLEN + 8];
	size_t len = strspn(s + i, allowed), colons = 0;

	if (len == 0 || !boundary_before(s, i, "."))
		return 0;
	for (size_t k = 0; k < len; k++)
		colons += s[i + k] == ':';
	if (af == AF_INET6 && colons < 2)
		return 0;
	while (len > 0) {
		if (len < sizeof(cand) && boundary_after(s[i + len])) {
			memcpy(cand, s + i, len);
			cand[len] = '\0';
			if (inet_pton(af, cand, addr) == 1)
				return inet_ntop(af, addr, canon, (socklen_t)size) ? len : 0;
		}
		if (s[i + len - 1] != '.' && s[i + len - 1] != ':')
			return 0;
		len--;
	}
	return 0;
}

static bool name_match(const char *s, size_t i, const char *name, size_t *ret_len)
{
	size_t len = strlen(name);

	if (len == 0 || strncasecmp(s + i, name, len) != 0)
		return false;
	if (!boundary_before(s, i, "-") || !boundary_after(s[i + len]) || s[i + len] == '-')
		return false;
	*ret_len = len;
	return true;
}

/* One redaction at s[i], appended to out; the length consumed or 0. */
static size_t redact_at(struct redactor *rd, const char *s, size_t i, struct outbuf *out)
{
	char canon[INET6_ADDRSTRLEN + 64];
	const char *ph = NULL;
	size_t len = 0;

	for (unsigned k = 0; k < rd->n_names && !ph; k++) {
		if (name_match(s, i, rd->names[k], &len)) {
			/* every name of this host is the same placeholder */
			ph = placeholder(rd, KIND_HOST, rd->names[0]);
		}
	}
	if (!ph && (len = match_mac(s, i, canon, sizeof(canon))) > 0)
		ph = placeholder(rd, KIND_MAC, canon);
	if (!ph && (len = match_inet(s, i, AF_INET6, canon, sizeof(canon))) > 0)
		ph = placeholder(rd, KIND_IPV6, canon);
	if (!ph && (len = match_inet(s, i, AF_INET, canon, sizeof(canon))) > 0)
		ph = placeholder(rd, KIND_IPV4, canon);
	if (!ph)
		return 0;
	out_append(out, ph, strlen(ph));
	return len;
}

/* Returns a malloc'd redacted copy, or NULL when nothing changed / ENOMEM. */
static char *redact_string(struct redactor *rd, const char *s)
{
	struct outbuf out = { 0 };
	bool changed = false;
	size_t i = 0;

	while (s[i]) {
		size_t used = redact_at(rd, s, i, &out);

		if (used) {
			changed = true;
			i += used;
			continue;
		}
		out_append(&out, s + i, 1);
		i++;
	}
	if (!changed || out.failed) {
		free(out.text);
		return NULL;
	}
	return out.text;
}

static void redact_tree(struct redactor *rd, cJSON *node)
{
	for (cJSON *item = node ? node->child : NULL; item; item = item->next) {
		if (cJSON_IsString(item) && item->valuestring) {
			char *text = redact_string(rd, item->valuestring);

			if (text) {
				cJSON_SetValuestring(item, text);
				free(text);
			}
		} else if (cJSON_IsObject(item) || cJSON_IsArray(item)) {
			redact_tree(rd, item);
		}
	}
}

static void add_name(struct redactor *rd, const char *name)
{
	if (!name || !name[0] || rd->n_names == MAX_NAMES)
		return;
	for (unsigned k = 0; k < rd->n_names; k++) {
		if (strcasecmp(rd->names[k], name) == 0)
			return;
	}
	rd->names[rd->n_names++] = name;
}

/* A host name and its first label: the FQDN first, so "db1.example.com"
 * is not left as "host-1.example.com".  short_name must outlive rd. */
static void add_host(struct redactor *rd, const char *name, char *short_name, size_t size)
{
	const char *dot;

	if (!name || !name[0])
		return;
	add_name(rd, name);
	dot = strchr(name, '.');
	if (dot && dot != name) {
		size_t n = (size_t)(dot - name);

		if (n >= size)
			n = size - 1;
		memcpy(short_name, name, n);
		short_name[n] = '\0';
		add_name(rd, short_name);
	}
}

/* An IP literal is redacted as an address, not as a name. */
static bool is_address(const char *text)
{
	unsigned char bytes[16];

	return inet_pton(AF_INET, text, bytes) == 1 || inet_pton(AF_INET6, text, bytes) == 1;
}

/* "host:port", "[v6]:port" -> host, as --peer takes it. */
static const char *peer_host(const char *peer, char *buf, size_t size)
{
	const char *colon;
	size_t n;

	if (!peer)
		return NULL;
	if (peer[0] == '[') {
		peer++;
		colon = strchr(peer, ']');
	} else {
		colon = strrchr(peer, ':');
		if (colon && strchr(peer, ':') != colon)
			colon = NULL;		/* a bare IPv6 address */
	}
	n = colon ? (size_t)(colon - peer) : strlen(peer);
	if (n >= size)
		n = size - 1;
	memcpy(buf, peer, n);
	buf[n] = '\0';
	return buf;
}

void nd_redact_json(cJSON *doc, const struct nd_facts *facts)
{
	struct redactor rd = { 0 };
	char short_name[64] = "", far_name[256] = "", far_short[64] = "", far_peer[256] = "";
	const cJSON *peer;
	const char *text;

	if (!doc)
		return;
	if (facts)
		add_host(&rd, facts->hostname, short_name, sizeof(short_name));
	/* The far end's name, as it reported it and as --peer named it; copied,
	 * because redacting the document frees its strings. */
	peer = cJSON_GetObjectItem(doc, "peer");
	text = cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetObjectItem(
		cJSON_GetObjectItem(peer, "report"), "host"), "name"));
	if (text) {
		nd_strlcpy(far_name, text, sizeof(far_name));
		add_host(&rd, far_name, far_short, sizeof(far_short));
	}
	text = peer_host(cJSON_GetStringValue(cJSON_GetObjectItem(peer, "host")), far_peer,
			 sizeof(far_peer));
	if (text && !is_address(text))
		add_name(&rd, text);
	redact_tree(&rd, doc);
	for (unsigned i = 0; i < rd.n_map; i++)
		free(rd.map[i].canonical);
	free(rd.map);
}
