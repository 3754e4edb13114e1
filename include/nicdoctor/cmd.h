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
int cmd_collect(int argc, char **argv);
int cmd_checks(int argc, char **argv);
int cmd_watch(int argc, char **argv);

/* Switch to --sysroot DIR (NULL: live); 0 or ND_EXIT_USAGE after the error. */
int nd_use_sysroot(const char *dir);

/* *ifname, or the default-route interface into buf when NULL; validated.
 * 0, or ND_EXIT_USAGE after the error. */
int nd_resolve_iface(const char **ifname, char *buf, size_t size);

/* The text of `collect --script` (src/collect-script.sh) and its length. */
const char *nd_collect_script(size_t *ret_len);

#endif
