/*
 * cmd.h - one entry point per subcommand (src/cmd_*.c).  Each parses its
 * own flags (getopt_long) and returns an exit code from common.h.
 */
#ifndef NICDOCTOR_CMD_H
#define NICDOCTOR_CMD_H

#include <stdbool.h>
#include <stddef.h>

int cmd_diagnose(int argc, char **argv);
int cmd_fix(int argc, char **argv);
int cmd_bench(int argc, char **argv);
/* bench's body; iperf3_mode: iperf3's -A N,M and its "iperf Done." */
int nd_bench_main(int argc, char **argv, bool iperf3_mode);
int cmd_iperf3(int argc, char **argv);
int cmd_serve(int argc, char **argv);
/* serve's body; iperf3_mode: run as iperf3 -s (the same flags). */
int nd_serve_main(int argc, char **argv, bool iperf3_mode);
/* `nicdoctor __options COMMAND` (hidden): the option table's flags of
 * bench, serve or iperf3, one per line, for the completion's test. */
int cmd_options(int argc, char **argv);
int cmd_collect(int argc, char **argv);
int cmd_checks(int argc, char **argv);
int cmd_watch(int argc, char **argv);

struct nd_source;

/* Open the source of the facts: --sysroot PATH, or the live host when
 * NULL (source.h; nd_source_close it).  0, or ND_EXIT_USAGE or
 * ND_EXIT_ENV after the error. */
int nd_cmd_open_source(const char *sysroot, struct nd_source **ret_src);

/* *ifname, or the default-route interface of src into buf when NULL;
 * validated.  0, or ND_EXIT_USAGE after the error. */
int nd_resolve_iface(struct nd_source *src, const char **ifname, char *buf, size_t size);

/* The text of `collect --script` (src/collect-script.sh) and its length. */
const char *nd_collect_script(size_t *ret_len);

/* A progress line on stderr ("nicdoctor: LINE"), for a terminal. */
void nd_progress_stderr(const char *line, void *arg);

/* nd_diagnose_open with its errors said in one line: 0, or the exit code
 * (ND_EXIT_USAGE: no such interface, an unknown check ID; ND_EXIT_ENV). */
struct nd_diag_request;
struct nd_diagnosis;
int nd_cmd_diagnose_open(const struct nd_diag_request *rq, struct nd_diagnosis *d);

#endif
