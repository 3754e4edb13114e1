/*
 * softnet.c - parser for /proc/net/softnet_stat (net/core/net-procfs.c).
 *
 * One line per possible CPU with an online softnet_data, 9 to 15 hex
 * columns depending on the kernel:
 *   [0] processed  [1] dropped  [2] time_squeeze  [3..7] 0 (was fastroute)
 *   [8] 0 (was cpu_collision)  [9] received_rps (2.6.35+)
 *   [10] flow_limit_count (3.11+)  [11] backlog length (5.10+)
 *   [12] CPU id (5.10+)  [13] input_pkt_queue len  [14] process_queue len (6.x)
 * Before [12] existed, rows skip offline CPUs, so the row index is only a
 * best guess at the CPU id.
 */
#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "nicdoctor/parse.h"

#define SOFTNET_MIN_COLUMNS  9
#define SOFTNET_MAX_COLUMNS 15

/* Parse the hex words of one line; returns the column count or -EINVAL. */
static int parse_row(const char *p, const char *end, uint64_t *values)
{
	int columns = 0;

	for (;;) {
		uint64_t value = 0;
		int digits = 0;

		while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
			p++;
		if (p == end)
			return columns;
		if (columns == SOFTNET_MAX_COLUMNS)
			return -EINVAL;
		for (; p < end && isxdigit((unsigned char)*p); p++, digits++) {
			int nibble = isdigit((unsigned char)*p) ? *p - '0' : (tolower((unsigned char)*p) - 'a' + 10);

			value = (value << 4) | (uint64_t)nibble;
		}
		if (digits == 0 || digits > 16 || (p < end && *p != ' ' && *p != '\t' && *p != '\r'))
			return -EINVAL;
		values[columns++] = value;
	}
}

static int is_blank(const char *p, const char *end)
{
	for (; p < end; p++)
		if (!isspace((unsigned char)*p))
			return 0;
	return 1;
}

int nd_parse_softnet(const char *text, struct nd_softnet *softnet)
{
	const char *line = text;
	unsigned row = 0;

	if (!text || !softnet)
		return -EINVAL;
	softnet->count = 0;
	while (*line) {
		const char *end = strchr(line, '\n'), *next;
		uint64_t v[SOFTNET_MAX_COLUMNS] = { 0 };
		struct nd_softnet_cpu *cpu;
		int columns;

		next = end ? end + 1 : line + strlen(line);
		if (!end)
			end = next;
		if (is_blank(line, end)) {
			line = next;
			continue;
		}
		columns = parse_row(line, end, v);
		if (columns < SOFTNET_MIN_COLUMNS)
			return -EINVAL;
		if (softnet->count >= ND_MAX_CPUS)
			return -EINVAL;
		cpu = &softnet->cpu[softnet->count++];
		memset(cpu, 0, sizeof(*cpu));
		cpu->columns = (unsigned)columns;
		cpu->cpu = columns > 12 ? (unsigned)v[12] : row;
		cpu->processed = v[0];
		cpu->dropped = v[1];
		cpu->time_squeeze = v[2];
		cpu->received_rps = v[9];
		cpu->flow_limit = v[10];
		cpu->backlog_len = v[11];
		row++;
		line = next;
	}
	return softnet->count ? 0 : -EINVAL;
}
