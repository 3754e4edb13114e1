/*
 * fuzz_bonding.c - libFuzzer target for the /proc/net/bonding parser and
 * the IFLA_BOND_* netlink message parser (the same bytes as an
 * RTM_NEWLINK message whose nlmsg_len is the input's size), then every
 * bond check on what the text parser made of it: the input is not
 * NUL-terminated, so a read past len trips ASan.
 */
#include <linux/netlink.h>

#include "nicdoctor/bond.h"
#include "nicdoctor/check.h"
#include "fuzz_text.h"

static struct nd_facts facts;

static void netlink(const uint8_t *data, size_t size)
{
	struct nd_bond_nl_ctx ctx = { .bond = &facts.bond, .bond_ifindex = 2 };
	struct nlmsghdr *nlh;

	if (size < sizeof(*nlh) || size > UINT32_MAX)
		return;
	nlh = malloc(size);	/* malloc's alignment suits the header */
	if (!nlh)
		return;
	memcpy(nlh, data, size);
	nlh->nlmsg_len = (uint32_t)size;
	nd_bond_reset(&facts.bond);
	nd_bond_parse_rtnl_msg(nlh, &ctx);
	nd_bond_nl_finish(&ctx);
	free(nlh);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_exact_copy(data, size);

	if (!text)
		return 0;
	netlink(data, size);
	memset(&facts, 0, sizeof(facts));
	nd_parse_bonding(text, size, &facts.bond);
	for (unsigned i = 0; i < nd_checks_count; i++) {
		struct nd_finding f;

		if (strncmp(nd_checks[i].id, "bond.", 5))
			continue;
		nd_check_run(&nd_checks[i], &facts, &f);
		nd_finding_free(&f);
	}
	free(text);
	return 0;
}
