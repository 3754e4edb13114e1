/*
 * serve_iperf.h - the iperf3 3.21 flags `serve` shares with iperf3's
 * server (src/serve_iperf.c) and the output they shape.
 */
#ifndef NICDOCTOR_SERVE_IPERF_H
#define NICDOCTOR_SERVE_IPERF_H

#include "nicdoctor/engine.h"
#include "iperf_flags.h"

/* -J -V -f -i -A --bind-dev -v -d --forceflush --json-stream[-full-output],
 * SCTP's refused: 0, 1 (done, exit 0) or a negative errno after the message. */
int nd_serve_iperf_flag(int c, const char *arg, struct nd_server_config *cfg);
void nd_serve_apply_shared(const struct nd_engine_params *ip, struct nd_server_config *cfg);
/* -B ADDR%DEV: ADDR to bind, DEV as --bind-dev (an IPv6 link-local keeps
 * its scope); the split text lives in *io. */
void nd_serve_split_bind(struct nd_engine_params *ip, struct nd_iperf_out *io,
			 struct nd_server_config *cfg);
/* --timestamps: stdout becomes the prefix stream until _stop. */
void nd_serve_output_start(struct nd_iperf_out *io, struct nd_server *server);
void nd_serve_output_stop(struct nd_iperf_out *io);

#endif
