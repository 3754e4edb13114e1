/*
 * main.c - subcommand dispatch.  One table drives both dispatch and the
 * usage text, as ethtool's command table does.
 */
#include <stdio.h>
#include <string.h>

#include "nicdoctor/cmd.h"
#include "nicdoctor/common.h"
#include "nicdoctor/version.h"

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *usage;
};

static const struct command commands[] = {
	{ "diagnose", cmd_diagnose,
	  "[IF] [--peer HOST[:PORT]] [--duration S] [--no-traffic]\n"
	  "                   [--sysroot DIR] [--format text|markdown|json|prometheus]\n"
	  "                   [--json] [--redact] [--skip ID,...] [--only ID,...]\n"
	  "                   [--trial-fixes] [--sample S] [-v] [--color[=WHEN]]" },
	{ "fix", cmd_fix, "[IF] [--apply] [--only ID,...] [--peer HOST[:PORT]] [--persist]\n"
	  "                   [--rfs] | --revert [--list] [IF]" },
	{ "bench", cmd_bench, "-c HOST [-p PORT] [-P N] [-t S] [-R] [--bidir] [-u] [-b RATE]\n"
	  "                   [-J] ... (iperf3's client flags)" },
	{ "serve", cmd_serve, "[-p PORT] [-1] [--max-tests N] [--max-streams N]\n"
	  "                   [--max-memory SIZE] [--idle-timeout S] [--rcv-timeout MS]\n"
	  "                   [-q] [--share [--share-from CIDR,...] | --no-share]\n"
	  "                   [--rsa-private-key-path FILE --authorized-users-path FILE]" },
	{ "collect", cmd_collect, "IF -o DIR | --script" },
	{ "checks", cmd_checks, "" },
	{ "watch", cmd_watch, "[IF] [-i S] [-n COUNT] [--json]" },
	{ "iperf3", cmd_iperf3, "-s | -c HOST [iperf3's flags]  (also as a link named iperf3)" },
};

static void usage(FILE *out)
{
	fprintf(out, "usage: nicdoctor COMMAND [ARGS]\n\ncommands:\n");
	for (size_t i = 0; i < ND_ARRAY_SIZE(commands); i++)
		if (*commands[i].usage)
			fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].usage);
		else
			fprintf(out, "  %s\n", commands[i].name);
	fprintf(out, "\nnicdoctor COMMAND --help for details; see nicdoctor(8)\n");
}

int main(int argc, char **argv)
{
	const char *self = argc > 0 ? strrchr(argv[0], '/') : NULL;

	/* Run as "iperf3" (a link `make install IPERF3_LINK=1` makes): iperf3's CLI. */
	if (argc > 0 && !strcmp(self ? self + 1 : argv[0], "iperf3"))
		return cmd_iperf3(argc, argv);
	if (argc < 2) {
		usage(stderr);
		return ND_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return ND_EXIT_OK;
	}
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version")) {
		return nd_version_print(stdout) < 0 ? ND_EXIT_ENV : ND_EXIT_OK;
	}
	if (!strcmp(argv[1], "__options"))	/* hidden: not in the usage */
		return cmd_options(argc - 1, argv + 1);
	for (size_t i = 0; i < ND_ARRAY_SIZE(commands); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].run(argc - 1, argv + 1);
	nd_err("unknown command '%s' (try 'nicdoctor --help')", argv[1]);
	return ND_EXIT_USAGE;
}
