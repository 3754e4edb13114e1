/*
 * proto.c - iperf3 control-connection framing: the cookie, one-byte states,
 * length-prefixed JSON (capped, never zero-length) and SERVER_ERROR.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "engine_int.h"

void nd_proto_make_cookie(char cookie[ND_COOKIE_LEN])
{
	static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz234567";
	unsigned char rnd[ND_COOKIE_LEN - 1];
	size_t i;

	if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd)) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		for (i = 0; i < sizeof(rnd); i++)
			rnd[i] = (unsigned char)((ts.tv_nsec >> (i % 24)) ^ (i * 31u));
	}
	for (i = 0; i < sizeof(rnd); i++)
		cookie[i] = alphabet[rnd[i] % 32];
	cookie[ND_COOKIE_LEN - 1] = '\0';
}

int nd_proto_send_state(int fd, int8_t state, int timeout_ms)
{
	return nd_net_write_full(fd, &state, 1, timeout_ms);
}

int nd_proto_recv_state(int fd, int8_t *ret_state, int timeout_ms)
{
	int8_t state;
	int rc = nd_net_read_full(fd, &state, 1, timeout_ms);

	if (rc < 0)
		return rc;
	*ret_state = state;
	return 0;
}

int nd_proto_send_json(int fd, const cJSON *obj, int timeout_ms)
{
	char *text = cJSON_PrintUnformatted(obj);
	uint32_t len_be;
	size_t len;
	int rc;

	if (!text)
		return -ENOMEM;
	len = strlen(text);
	len_be = htonl((uint32_t)len);
	rc = nd_net_write_full(fd, &len_be, sizeof(len_be), timeout_ms);
	if (rc == 0)
		rc = nd_net_write_full(fd, text, len, timeout_ms);
	cJSON_free(text);
	return rc;
}

/* -EMSGSIZE for a length of 0 or above max_len, -EBADMSG for bad JSON. */
int nd_proto_recv_json(int fd, uint32_t max_len, int timeout_ms, cJSON **ret_obj)
{
	uint32_t len_be, len;
	char *text;
	cJSON *obj;
	int rc;

	rc = nd_net_read_full(fd, &len_be, sizeof(len_be), timeout_ms);
	if (rc < 0)
		return rc;
	len = ntohl(len_be);
	if (len == 0 || len > max_len)
		return -EMSGSIZE;
	text = malloc((size_t)len + 1);
	if (!text)
		return -ENOMEM;
	rc = nd_net_read_full(fd, text, len, timeout_ms);
	if (rc < 0) {
		free(text);
		return rc;
	}
	text[len] = '\0';
	obj = cJSON_ParseWithLength(text, len);
	free(text);
	if (!obj || !cJSON_IsObject(obj)) {
		cJSON_Delete(obj);
		return -EBADMSG;
	}
	*ret_obj = obj;
	return 0;
}

int nd_proto_send_error(int fd, int32_t code, int32_t err, int timeout_ms)
{
	unsigned char buf[9];
	uint32_t code_be = htonl((uint32_t)code), err_be = htonl((uint32_t)err);

	buf[0] = 0xfe;
	memcpy(buf + 1, &code_be, 4);
	memcpy(buf + 5, &err_be, 4);
	return nd_net_write_full(fd, buf, sizeof(buf), timeout_ms);
}

const char *nd_proto_error_text(int code)
{
	switch (code) {
	case ND_IE_NUMSTREAMS: return "more parallel streams than the server allows";
	case ND_IE_BLOCKSIZE: return "block size or streams need more memory than the server allows";
	case 27: return "total required bandwidth is larger than server limit";
	case ND_IE_FILE: return "unable to open -F file";
	case ND_IE_UDPFILE: return "cannot transfer file using UDP";
	case 37: return "test duration is longer than the server allows";
	case ND_IE_MESSAGE: return "received an unknown control message";
	case ND_IE_RECVPARAMS: return "the server refused the test parameters";
	case ND_IE_ACCESSDENIED: return "the server is busy running a test, try again later";
	case 141: return "socket buffer size not set correctly";
	case ND_IE_AUTHTEST: return "test authorization failed";
	case ND_IE_NOMSG: return "no control message received within the timeout";
	case 160: return "the server's test duration timer expired";
	case 208: return "unknown stream id";
	default: return "server error";
	}
}

int64_t nd_json_int(const cJSON *obj, const char *key, int64_t fallback)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
	double v;

	if (!cJSON_IsNumber(it))
		return fallback;
	v = it->valuedouble;
	if (!isfinite(v))
		return fallback;
	/* 3.12 prints -1 as 18446744073709551615 (protocol doc §6.2). */
	if (v >= 9223372036854775808.0)
		return -1;
	if (v <= -9223372036854775808.0)
		return fallback;
	return (int64_t)v;
}

double nd_json_double(const cJSON *obj, const char *key, double fallback)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);

	if (!cJSON_IsNumber(it) || !isfinite(it->valuedouble))
		return fallback;
	return it->valuedouble;
}
