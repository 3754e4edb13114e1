/*
 * fuzz_teamd.c - libFuzzer target for teamd's JSON (`teamdctl state dump`
 * and `config dump`, src/parse/teamd.c): the input parsed as both, mapped
 * onto the bond names, then every bond check on the team it made.  The
 * input is not NUL-terminated, so a read past len trips ASan.
 */
#include "nicdoctor/bond.h"
#include "nicdoctor/check.h"
#include "nicdoctor/team.h"
#include "fuzz_text.h"

static struct nd_facts facts;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_exact_copy(data, size);
	struct nd_bond *b = &facts.bond;

	if (!text)
		return 0;
	memset(&facts, 0, sizeof(facts));
	nd_bond_reset(b);
	facts.link.mtu = 1500;
	if (nd_parse_teamd_state(text, size, b) == 0 || nd_parse_teamd_config(text, size, b) == 0) {
		nd_parse_teamd_config(text, size, b);
		b->is_bond = true;
		nd_team_map(b);
		nd_status_set_known(&b->st);
		for (unsigned i = 0; i < nd_checks_count; i++) {
			struct nd_finding f;

			if (strncmp(nd_checks[i].id, "bond.", 5))
				continue;
			nd_check_run(&nd_checks[i], &facts, &f);
			nd_finding_free(&f);
		}
	}
	free(text);
	return 0;
}
