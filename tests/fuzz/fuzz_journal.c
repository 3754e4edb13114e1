/*
 * fuzz_journal.c - libFuzzer target for the journal reader: the input is a
 * journal file (journal-...-eth0.json).  It is parsed and validated as
 * `fix --revert` does; when accepted, revert runs against a recording
 * nd_fix_io instead of the OS, and every write it attempts is checked
 * against this file's own copy of the allow-list (knobs of eth0 the fix
 * kinds write, the three persist files).  A hostile journal must be
 * refused or reverted within that list; anything else aborts.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicdoctor/common.h"
#include "nicdoctor/fix.h"

#define ETC "/fuzz-etc"

static bool all_of(const char *text, const char *allowed)
{
	return *text && strspn(text, allowed) == strlen(text);
}

/* "queues/rx-<digits>/<file>" or "irq/<digits>" with nothing after. */
static bool numbered(const char *key, const char *prefix, const char *suffix)
{
	size_t lp = strlen(prefix), digits;

	if (strncmp(key, prefix, lp))
		return false;
	digits = strspn(key + lp, "0123456789");
	return digits > 0 && digits <= 10 && !strcmp(key + lp + digits, suffix);
}

static bool one_of(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(s, *list))
			return true;
	return false;
}

static bool knob_allowed(const char *kind, const char *key)
{
	static const char *const offloads[] = { "rx-checksum", "tx-checksum-ip-generic",
		"tx-checksum-ipv4", "tx-checksum-ipv6", "tx-scatter-gather", "tx-tcp-segmentation",
		"tx-tcp6-segmentation", "tx-generic-segmentation", "rx-gro", NULL };
	static const char *const channels[] = { "combined", "rx", "tx", NULL };
	static const char *const rings[] = { "rx", "tx", NULL };
	static const char *const sysctls[] = { "net.core.rmem_max", "net.core.wmem_max",
		"net.ipv4.tcp_rmem", "net.ipv4.tcp_wmem", "net.core.netdev_max_backlog", NULL };

	if (!strcmp(kind, "offloads"))
		return one_of(key, offloads);
	if (!strcmp(kind, "channels"))
		return one_of(key, channels);
	if (!strcmp(kind, "rings"))
		return one_of(key, rings);
	if (!strcmp(kind, "rps"))
		return numbered(key, "queues/rx-", "/rps_cpus") ||
		       numbered(key, "queues/rx-", "/rps_flow_cnt") ||
		       !strcmp(key, "net.core.rps_sock_flow_entries");
	if (!strcmp(kind, "irq_affinity"))
		return numbered(key, "irq/", "");
	if (!strcmp(kind, "sysctl"))
		return one_of(key, sysctls);
	return false;
}

static int rec_get(const struct nd_fix_step *step, const char *ifname, char *ret_value,
		   size_t size, void *arg)
{
	(void)arg;
	(void)ifname;
	/* Differs from every original until written, so revert writes. */
	nd_strlcpy(ret_value, step->target[0] == '~' ? "#" : "~", size);
	return 0;
}

static int rec_set(const struct nd_fix_step *step, const char *ifname, const char *value,
		   void *arg)
{
	(void)arg;
	if (strcmp(ifname, "eth0") || !knob_allowed(step->kind->name, step->key) ||
	    !all_of(value, "0123456789abcdefABCDEF,- onf"))
		abort();
	return -EIO;	/* also exercises the failure path */
}

static bool file_allowed(const char *path)
{
	return !strcmp(path, ETC "/sysctl.d/90-nicdoctor.conf") ||
	       !strcmp(path, ETC "/systemd/network/90-nicdoctor-eth0.link") ||
	       !strcmp(path, ETC "/udev/rules.d/90-nicdoctor-eth0.rules");
}

static int rec_put_file(const char *path, const char *text, void *arg)
{
	(void)arg;
	(void)text;
	if (!file_allowed(path))
		abort();
	return 0;
}

static int rec_remove_file(const char *path, void *arg)
{
	(void)arg;
	if (!file_allowed(path))
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct nd_fix_io rec = { rec_get, rec_set, rec_put_file, rec_remove_file,
					      NULL };
	struct nd_fix_journal *j = calloc(1, sizeof(*j));
	struct nd_fix_outcome out = { .failed_index = -1 };
	char why[320];

	setenv("NICDOCTOR_ETC_DIR", ETC, 1);
	if (!j)
		return 0;
	if (nd_fix_journal_parse((const char *)data, size, j, why, sizeof(why)) == 0) {
		if (nd_fix_journal_validate(j, "eth0", why, sizeof(why)) == 0) {
			struct nd_fix_journal_set set = { .n = 1, .j = { j } };
			FILE *sink = fopen("/dev/null", "w");

			nd_fix_revert_io(j, &rec, NULL, NULL, &out);
			if (sink) {
				nd_render_fix_journals(&set, sink);
				nd_render_fix_reverted(j, &out, sink);
				fclose(sink);
			}
		}
		nd_fix_journal_free(j);
	}
	free(j);
	return 0;
}
