/*
 * fuzz_proto.c - libFuzzer target for the control-protocol reader: the
 * input is what a hostile peer writes on the control connection (state
 * bytes, 4-byte big-endian lengths, JSON), replayed through a socketpair
 * into the same functions the server and the client use: state bytes,
 * length-prefixed JSON (parameters capped at 8 KiB, results at 4 MiB),
 * parameter validation, and the peer's results applied to a test.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../../src/engine/engine_int.h"

#define FUZZ_INPUT_MAX (256 * 1024)

/* The peer's results against a 2-stream bidirectional test. */
static void apply_results(const cJSON *obj, bool udp)
{
	struct nd_engine_params p;
	struct nd_engine_result *r = malloc(sizeof(*r));
	struct nd_test t;
	cJSON *out;

	nd_engine_params_init(&p);
	p.streams = 1;
	p.bidir = true;
	p.udp = udp;
	if (!r || nd_test_init(&t, &p, false) < 0) {
		free(r);
		return;
	}
	nd_test_add_stream(&t, -1);
	nd_test_add_stream(&t, -1);
	t.keep_intervals = true;
	(void)nd_test_apply_remote(&t, obj);
	nd_test_fill_result(&t, r);
	out = nd_out_json(&t, 0);
	cJSON_Delete(out);
	nd_test_free(&t);
	free(r);
}

static void read_messages(int fd)
{
	for (int round = 0; round < 64; round++) {
		struct nd_engine_params p;
		struct nd_wire_extra extra;
		char err[128];
		cJSON *obj = NULL;
		int8_t st;
		int32_t code;

		if (nd_proto_recv_state(fd, &st, 100) < 0)
			return;
		switch (st) {
		case ND_PARAM_EXCHANGE:
			if (nd_proto_recv_json(fd, ND_PARAMS_JSON_MAX, 100, &obj) < 0)
				return;
			if (nd_params_from_json(obj, &p, &extra, err, sizeof(err)) == 0)
				(void)nd_params_len(&p);
			(void)nd_json_int(obj, "time", 0);
			(void)nd_json_double(obj, "bandwidth", 0);
			cJSON_Delete(obj);
			break;
		case ND_EXCHANGE_RESULTS:
		case ND_DISPLAY_RESULTS:
			if (nd_proto_recv_json(fd, ND_RESULTS_JSON_MAX, 100, &obj) < 0)
				return;
			apply_results(obj, st == ND_DISPLAY_RESULTS);
			cJSON_Delete(obj);
			break;
		case ND_SERVER_ERROR:
			if (nd_net_read_full(fd, &code, sizeof(code), 100) < 0)
				return;
			(void)nd_proto_error_text((int)code);
			break;
		default:
			break;
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int sv[2], bufsize = 2 * FUZZ_INPUT_MAX;
	size_t done = 0;

	if (size > FUZZ_INPUT_MAX)
		size = FUZZ_INPUT_MAX;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return 0;
	setsockopt(sv[1], SOL_SOCKET, SO_SNDBUF, &bufsize, sizeof(bufsize));
	setsockopt(sv[0], SOL_SOCKET, SO_RCVBUF, &bufsize, sizeof(bufsize));
	while (done < size) {
		ssize_t n = send(sv[1], data + done, size - done, MSG_DONTWAIT | MSG_NOSIGNAL);

		if (n <= 0)
			break;	/* what did not fit is cut off, like a peer that stopped */
		done += (size_t)n;
	}
	close(sv[1]);	/* EOF after the input: no read ever waits */
	read_messages(sv[0]);
	close(sv[0]);
	return 0;
}
