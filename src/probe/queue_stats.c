/*
 * queue_stats.c - per-queue counters from a driver's `ethtool -S` names,
 * the fallback where the netdev family's qstats-get gives none (kernels
 * before 6.8, drivers without netdev_stat_ops).  One table, one row per
 * naming style, each with the drivers that use it and where the names were
 * read; the rest of the program never sees driver names.
 *
 * Sources: isc-projects/ethq@b91b2e4 drv_intel.cc, drv_mellanox.cc,
 * drv_bcm.cc, drv_amazon.cc, drv_emulex.cc, drv_sfc.cc, drv_virtio.cc,
 * drv_vmware.cc (its regexes, lower-cased names as ethq matches them);
 * hv_netvsc: netvsc_drv.c "tx_queue_%u_packets" (also DataDog
 * integrations-core network/const.py); gve: gve_ethtool.c
 * "rx_completed_desc[%u]", "rx_bytes[%u]" (descriptors, one per packet).
 */
#include <ctype.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicdoctor/common.h"
#include "nicdoctor/queues.h"

struct naming {
	const char *style;		/* evidence: which table row matched */
	const char *drivers;		/* space separated, as ETHTOOL_GDRVINFO names them */
	const char *regex;		/* POSIX ERE on the lower-cased name */
	int dir_group, queue_group, type_group;
};

/* type group "bytes"/"octets" counts bytes, anything else packets (ethq's
 * rule); several packet names of one queue (bnxt's ucast+mcast+bcast) add. */
static const struct naming namings[] = {
	{ "rx_queue_N_packets", "ixgbe igb igc ice virtio_net hv_netvsc ixgbevf",
	  "^(rx|tx)_queue_([0-9]+)_(bytes|packets)$", 1, 2, 3 },
	{ "rx-N.packets", "i40e iavf sfc",
	  "^(rx|tx)-([0-9]+)\\.((rx|tx)_)?(bytes|packets)$", 1, 2, 5 },
	{ "rxN_packets", "mlx5_core mlx4_en",
	  "^(rx|tx)([0-9]+)_(0_)?(bytes|packets)$", 1, 2, 4 },
	{ "[N]: rx_ucast_packets", "bnxt_en bnx2",
	  "^\\[([0-9]+)\\]: (rx|tx)_(bytes|ucast_packets|mcast_packets|bcast_packets)$", 2, 1, 3 },
	{ "queue_N_rx_cnt", "ena",
	  "^queue_([0-9]+)_(rx|tx)_(bytes|cnt)$", 2, 1, 3 },
	{ "rxqN: rx_pkts", "be2net",
	  "^(rx|tx)q([0-9]+): (rx|tx)_(bytes|pkts)$", 1, 2, 4 },
	{ "rx_completed_desc[N]", "gve",
	  "^(rx|tx)_(bytes|completed_desc)\\[([0-9]+)\\]$", 1, 3, 2 },
};

static bool driver_listed(const char *drivers, const char *driver)
{
	size_t len = strlen(driver);

	for (const char *p = drivers; (p = strstr(p, driver)) != NULL; p += len)
		if ((p == drivers || p[-1] == ' ') && (p[len] == ' ' || p[len] == '\0'))
			return true;
	return false;
}

static void lower_trim(const char *name, char *buf, size_t size)
{
	size_t n = 0;

	while (isspace((unsigned char)*name))
		name++;
	for (; *name && n + 1 < size; name++)
		buf[n++] = (char)tolower((unsigned char)*name);
	while (n && isspace((unsigned char)buf[n - 1]))
		n--;
	buf[n] = '\0';
}

static unsigned long group_number(const char *s, const regmatch_t *m)
{
	return strtoul(s + m->rm_so, NULL, 10);
}

static bool group_is(const char *s, const regmatch_t *m, const char *word)
{
	size_t len = (size_t)(m->rm_eo - m->rm_so);

	return strlen(word) == len && strncmp(s + m->rm_so, word, len) == 0;
}

static void add_counter(struct nd_queue_table *qt, unsigned kind, unsigned long id, bool bytes,
			uint64_t value, bool *touched)
{
	struct nd_queue_row *row;

	if (id >= ND_MAX_QUEUES || !(row = nd_queue_row_get(qt, kind, (unsigned)id)))
		return;
	if (row->counters_known && strcmp(row->counter_source, "ethtool -S") != 0)
		return;	/* the kernel's own counters win */
	if (!touched[row - qt->q]) {
		touched[row - qt->q] = true;
		row->packets = row->bytes = 0;
	}
	row->counters_known = true;
	nd_strlcpy(row->counter_source, "ethtool -S", sizeof(row->counter_source));
	if (bytes)
		row->bytes += value;
	else
		row->packets += value;
}

/* vmxnet3 names no queue in a counter: "Tx Queue#: 0" sets the queue of
 * the "ucast pkts tx" lines that follow (ethq drv_vmware.cc). */
static int vmxnet3_stats(const struct nd_nicstats *stats, struct nd_queue_table *qt, bool *touched)
{
	long queue = -1;
	int filled = 0;

	for (unsigned i = 0; i < stats->count && i < ND_MAX_STATS; i++) {
		char name[64], cast[8], what[8], dir[4];

		lower_trim(stats->s[i].name, name, sizeof(name));
		if (!strcmp(name, "rx queue#") || !strcmp(name, "tx queue#")) {
			queue = stats->s[i].value < ND_MAX_QUEUES ? (long)stats->s[i].value : -1;
			continue;
		}
		if (queue < 0 || sscanf(name, "%7s %7s %3s", cast, what, dir) != 3 ||
		    strlen(cast) != 5 || strcmp(cast + 1, "cast") || !strchr("bum", cast[0]) ||
		    (strcmp(what, "pkts") && strcmp(what, "bytes")) ||
		    (strcmp(dir, "rx") && strcmp(dir, "tx")))
			continue;
		add_counter(qt, dir[0] == 'r' ? ND_QUEUE_RX : ND_QUEUE_TX, (unsigned long)queue,
			    what[0] == 'b', stats->s[i].value, touched);
		filled++;
	}
	return filled;
}

static int named_stats(const struct naming *nm, const struct nd_nicstats *stats,
		       struct nd_queue_table *qt, bool *touched)
{
	regmatch_t m[6];
	regex_t re;
	int filled = 0;

	if (regcomp(&re, nm->regex, REG_EXTENDED) != 0)
		return 0;
	for (unsigned i = 0; i < stats->count && i < ND_MAX_STATS; i++) {
		char name[64];

		lower_trim(stats->s[i].name, name, sizeof(name));
		if (regexec(&re, name, ND_ARRAY_SIZE(m), m, 0) != 0)
			continue;
		add_counter(qt, group_is(name, &m[nm->dir_group], "rx") ? ND_QUEUE_RX : ND_QUEUE_TX,
			    group_number(name, &m[nm->queue_group]),
			    group_is(name, &m[nm->type_group], "bytes") ||
			    group_is(name, &m[nm->type_group], "octets"),
			    stats->s[i].value, touched);
		filled++;
	}
	regfree(&re);
	return filled;
}

int nd_queue_stats_from_ethtool(const char *driver, const struct nd_nicstats *stats,
				struct nd_queue_table *qt, const char **ret_style)
{
	bool touched[ND_MAX_QUEUE_ROWS] = { false };
	int filled = 0;

	*ret_style = "";
	if (!driver || !driver[0] || !stats->st.known)
		return 0;
	if (!strcmp(driver, "vmxnet3")) {
		filled = vmxnet3_stats(stats, qt, touched);
		*ret_style = filled ? "Rx Queue#: N" : "";
		return filled;
	}
	for (size_t i = 0; i < ND_ARRAY_SIZE(namings); i++) {
		if (!driver_listed(namings[i].drivers, driver))
			continue;
		filled = named_stats(&namings[i], stats, qt, touched);
		if (filled) {
			*ret_style = namings[i].style;
			break;
		}
	}
	return filled;
}
