/*
 * toeplitz.c - the Microsoft RSS hash ("Toeplitz") and the RX queue a NIC
 * gives a TCP flow: the hash of src addr, dst addr, src port, dst port
 * (network order) under the NIC's key, its low bits indexing the
 * indirection table (ethtool -x).  Checked against Microsoft's RSS
 * verification suite in tests/unit/test_spread.c.  Pure.
 */
#include <errno.h>
#include <string.h>

#include "nicdoctor/spread.h"

uint32_t nd_toeplitz(const uint8_t *key, size_t key_len, const uint8_t *data, size_t len)
{
	uint32_t result = 0, window;
	size_t next = 4;

	if (key_len < len + 4)
		return 0;
	/* The 32 key bits that line up with the current input bit. */
	window = (uint32_t)key[0] << 24 | (uint32_t)key[1] << 16 | (uint32_t)key[2] << 8 | key[3];
	for (size_t i = 0; i < len; i++) {
		uint8_t kb = key[next++];

		for (int bit = 7; bit >= 0; bit--) {
			if (data[i] & (1u << bit))
				result ^= window;
			window = window << 1 | ((kb >> bit) & 1u);
		}
	}
	return result;
}

int nd_rss_queue(const struct nd_rss_conf *rss, const uint8_t *src, const uint8_t *dst,
		 size_t addr_len, uint16_t sport, uint16_t dport)
{
	uint8_t in[36];
	size_t n = 0;
	uint32_t h;

	if (!rss->toeplitz || !rss->indir_size || (addr_len != 4 && addr_len != 16) ||
	    rss->key_len < 2 * addr_len + 4 + 4)
		return -EINVAL;
	memcpy(in, src, addr_len);
	memcpy(in + addr_len, dst, addr_len);
	n = 2 * addr_len;
	in[n++] = (uint8_t)(sport >> 8);
	in[n++] = (uint8_t)sport;
	in[n++] = (uint8_t)(dport >> 8);
	in[n++] = (uint8_t)dport;
	h = nd_toeplitz(rss->key, rss->key_len, in, n);
	/* Drivers index the table with the hash's low bits (a power-of-two
	 * table: the modulo is the mask). */
	return (int)rss->indir[h % rss->indir_size];
}

struct rss_pick {
	const struct nd_rss_conf *rss;
	const uint8_t *peer, *local;
	size_t addr_len;
	uint16_t peer_port;
};

static int reverse_queue(uint16_t port, void *arg)
{
	const struct rss_pick *c = arg;

	/* The reverse flow arrives from the peer's port to ours. */
	return nd_rss_queue(c->rss, c->peer, c->local, c->addr_len, c->peer_port, port);
}

int nd_rss_pick_ports(const struct nd_rss_conf *rss, const uint8_t *peer, const uint8_t *local,
		      size_t addr_len, uint16_t peer_port, uint16_t first, uint16_t last,
		      unsigned n, uint16_t *ret_ports, int *ret_queues)
{
	struct rss_pick c = { rss, peer, local, addr_len, peer_port };
	unsigned queues = rss->rx_queues < ND_SPREAD_MAX_BUCKETS ? rss->rx_queues :
			  ND_SPREAD_MAX_BUCKETS;

	if (!rss->toeplitz || !queues)
		return -EINVAL;
	return nd_spread_pick(first, last, n, queues, reverse_queue, &c, ret_ports, ret_queues);
}
