/*
 * fuzz_udp.c - libFuzzer target for the UDP datagram header and the
 * receiver's loss, out-of-order and jitter accounting.  The input is a
 * sequence of datagrams, each a 2-byte length followed by that many bytes,
 * read in both header layouts (32- and 64-bit counters); arrival times
 * come from the input too, so clock jumps and duplicates are covered.
 */
#include <stdint.h>
#include <string.h>

#include "../../src/engine/engine_int.h"

static void account(struct nd_udp_acct *a, const uint8_t *dgram, size_t len, bool wide,
		    double arrival_sec)
{
	uint64_t seq;
	double sent_sec;

	if (nd_udp_hdr_read(dgram, len, wide, &seq, &sent_sec) < 0)
		return;
	nd_udp_acct_datagram(a, seq, sent_sec, arrival_sec);
	/* What a receiver derives from the counters must stay consistent. */
	if (a->out_of_order > a->received)
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nd_udp_acct narrow, wide;
	double arrival_sec = 1700000000.0;
	uint8_t out[16];
	size_t pos = 0;

	nd_udp_acct_init(&narrow);
	nd_udp_acct_init(&wide);
	while (pos + 2 <= size) {
		size_t len = (size_t)data[pos] << 8 | data[pos + 1];
		const uint8_t *dgram = data + pos + 2;

		pos += 2;
		if (len > size - pos)
			len = size - pos;
		/* Arrival advances by the first byte, in milliseconds. */
		arrival_sec += len ? dgram[0] / 1000.0 : 0;
		account(&narrow, dgram, len, false, arrival_sec);
		account(&wide, dgram, len, true, arrival_sec);
		pos += len;
	}
	/* The writer's output reads back as written. */
	if (size >= 8) {
		uint64_t seq, back;
		double sent;

		memcpy(&seq, data, 8);
		nd_udp_hdr_write(out, seq, true, 1700000000.25);
		if (nd_udp_hdr_read(out, sizeof(out), true, &back, &sent) < 0 || back != seq)
			__builtin_trap();
	}
	return 0;
}
