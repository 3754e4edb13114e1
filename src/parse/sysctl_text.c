/*
 * sysctl_text.c - `sysctl -a` text into nd_sysctls (and a lookup of any
 * key), and `lscpu` text into the CPU and NUMA fields of nd_cpus.
 */
#include <errno.h>
#include <string.h>

#include "nicdoctor/common.h"
#include "nicdoctor/cpuset.h"
#include "nicdoctor/parse_text.h"
#include "nicdoctor/text_util.h"

/* Keys compare with '/' and '.' as the same separator. */
static bool key_eq(struct nd_span k, const char *key)
{
	size_t n = strlen(key);

	if (k.len != n)
		return false;
	for (size_t i = 0; i < n; i++) {
		char a = k.p[i] == '/' ? '.' : k.p[i], b = key[i] == '/' ? '.' : key[i];

		if (a != b)
			return false;
	}
	return true;
}

int nd_parse_sysctl_lookup(const char *text, size_t len, const char *key, char *buf,
			   size_t size)
{
	struct nd_cursor c;
	struct nd_span line;

	if (size)
		buf[0] = '\0';
	nd_cursor_init(&c, text, len);
	while (nd_next_line(&c, &line)) {
		const char *eq = nd_span_find(line, " = ");
		struct nd_span k, v;

		/* "sysctl: permission denied on key 'net.core.x'" (non-root). */
		if (nd_span_starts(line, "sysctl: permission denied on key")) {
			const char *q = nd_span_find(line, "'");
			struct nd_span rest = q ? nd_span_from(line, (size_t)(q - line.p) + 1) : line;
			const char *q2 = nd_span_find(rest, "'");

			if (q && q2 && key_eq((struct nd_span){ rest.p, (size_t)(q2 - rest.p) }, key))
				return -EACCES;
			continue;
		}
		if (!eq)
			continue;
		k = nd_span_trim((struct nd_span){ line.p, (size_t)(eq - line.p) });
		if (!key_eq(k, key))
			continue;
		v = nd_span_trim(nd_span_from(line, (size_t)(eq - line.p) + 3));
		nd_span_copy(v, buf, size);
		/* tcp_rmem is tab-separated: single spaces, as probe/sysctl.c. */
		for (char *p = buf; *p; p++)
			if (*p == '?' && (size_t)(p - buf) < v.len && v.p[p - buf] == '\t')
				*p = ' ';
		return 0;
	}
	return -ENOENT;
}

int nd_parse_sysctl_text(const char *text, size_t len, struct nd_sysctls *out)
{
	static const struct { const char *key; size_t off; } keys[] = {
		{ "net.core.rmem_max", offsetof(struct nd_sysctls, rmem_max) },
		{ "net.core.wmem_max", offsetof(struct nd_sysctls, wmem_max) },
		{ "net.core.netdev_max_backlog", offsetof(struct nd_sysctls, netdev_max_backlog) },
		{ "net.core.netdev_budget", offsetof(struct nd_sysctls, netdev_budget) },
		{ "net.core.rps_sock_flow_entries", offsetof(struct nd_sysctls, rps_sock_flow_entries) },
		{ "net.core.default_qdisc", offsetof(struct nd_sysctls, default_qdisc) },
		{ "net.ipv4.tcp_rmem", offsetof(struct nd_sysctls, tcp_rmem) },
		{ "net.ipv4.tcp_wmem", offsetof(struct nd_sysctls, tcp_wmem) },
		{ "net.ipv4.tcp_congestion_control", offsetof(struct nd_sysctls, tcp_congestion_control) },
	};
	bool any = false;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < ND_ARRAY_SIZE(keys); i++) {
		struct nd_sysctl *ctl = (struct nd_sysctl *)((char *)out + keys[i].off);
		int r = nd_parse_sysctl_lookup(text, len, keys[i].key, ctl->text, sizeof(ctl->text));

		ctl->known = r == 0;
		any |= r == 0;
		if (r == -EACCES)
			nd_strlcpy(ctl->reason, "sysctl -a: permission denied", sizeof(ctl->reason));
		else if (r < 0)
			nd_strlcpy(ctl->reason, "not in the sysctl -a text", sizeof(ctl->reason));
	}
	return any ? 0 : -EINVAL;
}

static int cpu_list(struct nd_span v, struct nd_cpuset *ret)
{
	char buf[512];

	if (v.len >= sizeof(buf))
		return -EINVAL;
	nd_span_copy(v, buf, sizeof(buf));
	return nd_cpuset_parse_list(buf, ret);
}

int nd_parse_lscpu(const char *text, size_t len, struct nd_cpus *out)
{
	struct nd_cursor c;
	struct nd_span line, key, val;
	bool online = false;

	memset(out, 0, sizeof(*out));
	nd_cursor_init(&c, text, len);
	while (nd_next_line(&c, &line)) {
		uint64_t node;
		size_t used;

		if (!nd_span_kv(line, &key, &val))
			continue;
		if (nd_span_eq(key, "On-line CPU(s) list") && cpu_list(val, &out->online) == 0) {
			online = true;
			out->n_online = nd_cpuset_count(&out->online);
		} else if (nd_span_starts(key, "NUMA node") &&
			   nd_span_u64_prefix(nd_span_from(key, 9), &node, &used) == 0 &&
			   nd_span_eq(nd_span_from(key, 9 + used), " CPU(s)") &&
			   node < ND_ARRAY_SIZE(out->node_cpus) &&
			   cpu_list(val, &out->node_cpus[node]) == 0) {
			if (node + 1 > out->n_nodes)
				out->n_nodes = (unsigned)node + 1;
		}
	}
	if (!online) {
		nd_status_set_unknown(&out->st, "no 'On-line CPU(s) list' in the lscpu text");
		return -EINVAL;
	}
	nd_status_set_known(&out->st);
	return 0;
}
