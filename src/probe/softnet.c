/*
 * softnet.c - the "softnet" probe source: /proc/net/softnet_stat, the
 * per-CPU backlog counters (drops, time_squeeze), parsed by parse/softnet.c,
 * and /proc/uptime, the time those since-boot counters have been counting.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "nicdoctor/parse.h"
#include "nicdoctor/probe.h"
#include "nicdoctor/sysroot.h"
#include "nicdoctor/sysfs_util.h"

#define SOFTNET_PATH "/proc/net/softnet_stat"

void nd_probe_softnet(const struct nd_root *root, const char *ifname, struct nd_facts *facts)
{
	struct nd_softnet *sn = &facts->softnet;
	char *text = NULL;
	int r;

	(void)ifname;
	nd_probe_uptime(root, &facts->uptime);
	sn->count = 0;
	r = nd_sysroot_read_alloc(root, SOFTNET_PATH, &text, NULL);
	if (r < 0) {
		nd_probe_read_reason(sn->st.reason, sizeof(sn->st.reason), SOFTNET_PATH, r);
		sn->st.known = false;
		return;
	}
	r = nd_parse_softnet(text, sn);
	free(text);
	if (r < 0) {
		sn->count = 0;
		nd_status_set_unknown(&sn->st, "cannot parse '%s': unexpected format", SOFTNET_PATH);
		return;
	}
	nd_status_set_known(&sn->st);
}
