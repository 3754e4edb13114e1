/*
 * udp_acct.c - iperf3's UDP datagram header and its receiver accounting:
 * a sequence gap counts as loss, a late (or duplicate) datagram counts as
 * out of order and takes one loss back, and jitter follows RFC 1889
 * (J += (|D| - J) / 16).  Pure functions, unit tested on crafted sequences.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "engine_int.h"

void nd_udp_acct_init(struct nd_udp_acct *a)
{
	memset(a, 0, sizeof(*a));
}

void nd_udp_acct_datagram(struct nd_udp_acct *a, uint64_t seq, double sent_sec,
			  double arrival_sec)
{
	double transit_sec = arrival_sec - sent_sec, d;

	a->received++;
	if (seq > a->highest_seq) {
		/* Forward; everything between the old high and seq is missing. */
		a->lost += seq - a->highest_seq - 1;
		a->highest_seq = seq;
	} else {
		/* Late or duplicate: it fills a gap counted as lost earlier. */
		a->out_of_order++;
		if (a->lost > 0)
			a->lost--;
	}
	/*
	 * iperf3 seeds prev_transit with 0, which makes the first sample the
	 * whole clock offset between two hosts; start from the first datagram.
	 */
	if (a->have_transit) {
		d = fabs(transit_sec - a->prev_transit_sec);
		a->jitter_sec += (d - a->jitter_sec) / 16.0;
	}
	a->prev_transit_sec = transit_sec;
	a->have_transit = true;
}

size_t nd_udp_hdr_len(bool counters_64bit)
{
	return counters_64bit ? 16 : 12;
}

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static uint32_t get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

void nd_udp_hdr_write(uint8_t *buf, uint64_t seq, bool counters_64bit, double sent_sec)
{
	uint32_t sec = (uint32_t)sent_sec;
	uint32_t usec = (uint32_t)((sent_sec - (double)sec) * 1e6);

	put_be32(buf, sec);
	put_be32(buf + 4, usec > 999999 ? 999999 : usec);
	if (counters_64bit) {
		put_be32(buf + 8, (uint32_t)(seq >> 32));
		put_be32(buf + 12, (uint32_t)seq);
	} else {
		put_be32(buf + 8, (uint32_t)seq);
	}
}

/* -EINVAL when the datagram is too short to hold the header. */
int nd_udp_hdr_read(const uint8_t *buf, size_t len, bool counters_64bit,
		    uint64_t *ret_seq, double *ret_sent_sec)
{
	if (len < nd_udp_hdr_len(counters_64bit))
		return -EINVAL;
	*ret_sent_sec = (double)get_be32(buf) + (double)get_be32(buf + 4) / 1e6;
	if (counters_64bit)
		*ret_seq = (uint64_t)get_be32(buf + 8) << 32 | get_be32(buf + 12);
	else
		*ret_seq = get_be32(buf + 8);
	return 0;
}
