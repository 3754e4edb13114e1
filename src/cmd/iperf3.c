/*
 * cmd_iperf3.c - `nicdoctor iperf3 ARGS...`, and this binary run under the
 * name iperf3: iperf3's whole command line, -s or -c included, so scripts
 * and tools that drive iperf3 (pScheduler's iperf3 tool) run unchanged.
 * -c goes to bench (with iperf3's -A N,M and its "iperf Done."), -s to
 * serve; everything else is the same flag in both.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicdoctor/cmd.h"
#include "nicdoctor/common.h"

static void usage(FILE *f)
{
	fprintf(f, "Usage: iperf3 [-s|-c host] [options]\n"
		   "       iperf3 [-h|--help] [-v|--version]\n\n"
		   "nicdoctor's iperf3 drop-in: -c takes the flags of 'nicdoctor bench',\n"
		   "-s those of 'nicdoctor serve' (iperf3 3.21's names and meanings);\n"
		   "see nicdoctor(8), IPERF3 DROP-IN\n");
}

static bool is_flag(const char *arg, const char *s, const char *l)
{
	return !strcmp(arg, s) || !strcmp(arg, l);
}

/* Where -s sits (0 when absent); -c or --client anywhere says "client". */
static int find_role(int argc, char **argv, bool *ret_client)
{
	int server_at = 0;

	*ret_client = false;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (is_flag(argv[i], "-s", "--server"))
			server_at = i;
		else if (is_flag(argv[i], "-c", "--client") || !strncmp(argv[i], "--client=", 9) ||
			 (argv[i][0] == '-' && argv[i][1] == 'c' && argv[i][2]))
			*ret_client = true;
	}
	return server_at;
}

int cmd_iperf3(int argc, char **argv)
{
	bool client;
	int server_at = find_role(argc, argv, &client), rc;
	char **args;

	if (server_at && client) {
		nd_err("iperf3: parameter error - cannot be both server (-s) and client (-c)");
		return ND_EXIT_USAGE;
	}
	if (client)
		return nd_bench_main(argc, argv, true);
	if (!server_at) {
		for (int i = 1; i < argc; i++) {
			if (is_flag(argv[i], "-h", "--help")) {
				usage(stdout);
				return ND_EXIT_OK;
			}
			if (is_flag(argv[i], "-v", "--version")) {
				printf("nicdoctor %s (iperf 3.21 compatible)\n", ND_VERSION);
				return ND_EXIT_OK;
			}
		}
		nd_err("iperf3: parameter error - must either be a client (-c) or server (-s)");
		usage(stderr);
		return ND_EXIT_USAGE;
	}
	/* serve's flags are iperf3's server flags; it has no -s of its own. */
	args = calloc((size_t)argc, sizeof(*args));
	if (!args)
		return ND_EXIT_ENV;
	for (int i = 0, j = 0; i < argc; i++)
		if (i != server_at)
			args[j++] = argv[i];
	rc = nd_serve_main(argc - 1, args, true);
	free(args);
	return rc;
}
