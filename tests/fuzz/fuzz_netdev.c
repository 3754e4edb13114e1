/*
 * fuzz_netdev.c - libFuzzer target for the netdev-family reply parser: any
 * bytes as a buffer of netlink messages fill at most the table's rows and
 * never read past the buffer (an exact-size copy, so ASan sees any
 * overread).  Seeds: the replies recorded from virtio_net eth0.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nicdoctor/queues.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct nd_queue_table qt;
	/* 4-byte aligned, as every netlink buffer the kernel hands over is. */
	uint32_t *copy = malloc(size ? (size + 3) & ~(size_t)3 : 4);

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	for (int ifindex = 0; ifindex <= 4; ifindex += 4) {
		memset(&qt, 0, sizeof(qt));
		nd_netdev_parse_replies(copy, size, ifindex, &qt);
		if (qt.count > ND_MAX_QUEUE_ROWS)
			abort();
		for (unsigned i = 0; i < qt.count; i++)
			if (qt.q[i].kind > ND_QUEUE_TX || qt.q[i].id >= ND_MAX_QUEUES)
				abort();
	}
	free(copy);
	return 0;
}
