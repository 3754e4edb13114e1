/*
 * share.h - the far end of a two-ended diagnosis.
 *
 * A diagnose client asks `nicdoctor serve` (parameter "nicdoctor_peer") for
 * the far host's view; the server answers inside the results exchange under
 * the key "nicdoctor_peer", which stock iperf3 ignores in both roles.
 */
#ifndef NICDOCTOR_SHARE_H
#define NICDOCTOR_SHARE_H

#include <stdbool.h>
#include <sys/socket.h>
#include <cjson/cJSON.h>

#define ND_SHARE_SCHEMA "nicdoctor.peer/1"
#define ND_SHARE_KEY "nicdoctor_peer"
#define ND_SHARE_MAX_BYTES (2 << 20)	/* the payload the client accepts */

/*
 * The payload for a client whose control connection arrived on `local`:
 * {"schema", "report": <nicdoctor.report/1 of that interface>} when
 * sharing is allowed, {"schema", "declined": true} when not, or
 * {"schema", "error": "..."} when the interface cannot be probed.
 * NULL only when out of memory.
 */
cJSON *nd_share_payload(const struct sockaddr *local, bool allowed);

/* Read a serve config file ("share = yes|no", '#' comments).  0, or a
 * negative errno with a one-line reason in err. */
int nd_share_read_config(const char *path, bool *ret_share, char *err, size_t err_size);

#endif
