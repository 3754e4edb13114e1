/*
 * test_parse_text_ethtool.c - the ethtool text parsers on real captures
 * (tests/fixtures/raw/: sos 4.2 files and mails quoting ethtool output),
 * stderr-first "not supported" files, and garbage.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "raw_fixture.h"

#include "nicdoctor/parse_text.h"

/* A literal and its length. */
#define TXT(s) s, sizeof(s) - 1

/* The capture's text from `marker` on (a mail quoting several commands). */
static const char *from(const char *text, const char *marker)
{
	const char *p = strstr(text, marker);

	assert_non_null(p);
	return p;
}

static void test_channels(void **state)
{
	struct nd_channels ch;
	char *t = raw("sos42-ethtool_-l_ens3-virtio-combined-1-of-1.txt");
	const char *p;

	(void)state;
	assert_int_equal(nd_parse_ethtool_channels(t, strlen(t), &ch), 0);
	assert_true(ch.st.known);
	assert_int_equal(ch.combined, 1);
	assert_int_equal(ch.combined_max, 1);
	assert_int_equal(ch.rx_max, 0);
	free(t);

	/* Pasted into a mail, tabs lost: "RX: 64"; stops before "-g". */
	t = raw("ethtool-e810-ice-25g-l-g-c-k-i.txt");
	p = from(t, "# ethtool -l em1");
	assert_int_equal(nd_parse_ethtool_channels(p, strlen(p), &ch), 0);
	assert_int_equal(ch.rx_max, 64);
	assert_int_equal(ch.other_max, 1);
	assert_int_equal(ch.combined_max, 64);
	assert_int_equal(ch.combined, 8);
	assert_int_equal(ch.other, 1);
	assert_int_equal(ch.rx, 0);
	free(t);

	/* "Other: n/a": the device has none. */
	t = raw("ethtool-e810c-100g-ice-l-combined64-pcie-x16.txt");
	p = from(t, "ethtool -l hge11");
	assert_int_equal(nd_parse_ethtool_channels(p, strlen(p), &ch), 0);
	assert_int_equal(ch.combined, 64);
	assert_int_equal(ch.combined_max, 64);
	assert_int_equal(ch.other_max, 0);
	assert_int_equal(ch.tx_max, 64);
	free(t);
}

static void test_not_supported(void **state)
{
	struct nd_channels ch;
	struct nd_pause pause;
	char *t = raw("sos42-ethtool_-l_lo-stderr-before-stdout.txt");

	(void)state;
	assert_int_equal(nd_parse_ethtool_channels(t, strlen(t), &ch), -EOPNOTSUPP);
	assert_false(ch.st.known);
	assert_string_equal(ch.st.reason, "not supported by the driver (ethtool -l said: "
			    "Cannot get device channel parameters: Operation not supported)");
	free(t);
	t = raw("sos42-ethtool_-a_ens3-not-supported.txt");
	assert_int_equal(nd_parse_ethtool_pause(t, strlen(t), &pause), -EOPNOTSUPP);
	assert_string_equal(pause.st.reason, "not supported by the driver (ethtool -a said: "
			    "Cannot get device pause settings: Operation not supported)");
	free(t);

	assert_int_equal(nd_parse_ethtool_channels(TXT("netlink error: Operation not supported\n"),
						   &ch), -EOPNOTSUPP);
	assert_int_equal(nd_parse_ethtool_channels(TXT("\x01\xff garbage\r\n"), &ch), -EINVAL);
	assert_string_equal(ch.st.reason, "no 'ethtool -l' output in the text");
	assert_int_equal(nd_parse_ethtool_channels(TXT("Cannot get device channel parameters: "
						   "No such device\n"), &ch), -EIO);
	/* Cut before the current settings. */
	assert_int_equal(nd_parse_ethtool_channels(TXT("Channel parameters for x:\nPre-set maximums:\n"
						   "RX: 4\n"), &ch), -EINVAL);
	/* Never past len: the "\t1" after "Combined:" is not seen. */
	assert_int_equal(nd_parse_ethtool_channels("Channel parameters for x:\nCurrent hardware "
						   "settings:\nCombined:\t1", 62, &ch), -EINVAL);
}

static void test_rings(void **state)
{
	struct nd_rings r;
	char *t = raw("sos42-ethtool_-g_ens3-virtio-256.txt");
	const char *p;

	(void)state;
	assert_int_equal(nd_parse_ethtool_rings(t, strlen(t), &r), 0);
	assert_int_equal(r.rx, 256);
	assert_int_equal(r.rx_max, 256);
	assert_int_equal(r.tx, 256);
	free(t);
	/* ethtool 6.x: RX Buf Len, CQE Size, TX Push, TCP data split... */
	t = raw("ethtool-e810-ice-25g-l-g-c-k-i.txt");
	p = from(t, "# ethtool -g em1");
	assert_int_equal(nd_parse_ethtool_rings(p, strlen(p), &r), 0);
	assert_int_equal(r.rx_max, 8160);
	assert_int_equal(r.tx, 8160);
	assert_int_equal(r.rx_mini, 0);
	free(t);
}

static void test_coalesce_drvinfo(void **state)
{
	struct nd_coalesce co;
	struct nd_drvinfo di;
	char *t = raw("ethtool-e810-ice-25g-l-g-c-k-i.txt");
	const char *p = from(t, "# ethtool -c em1");

	(void)state;
	assert_int_equal(nd_parse_ethtool_coalesce(p, strlen(p), &co), 0);
	assert_int_equal(co.rx_usecs, 12);
	assert_int_equal(co.tx_usecs, 28);
	assert_int_equal(co.rx_frames, 0);
	assert_false(co.adaptive_rx);
	assert_int_equal(nd_parse_ethtool_coalesce(TXT("Coalesce parameters for a:\nAdaptive RX: on  "
						   "TX: on\nrx-usecs: 3\n"), &co), 0);
	assert_true(co.adaptive_rx);
	assert_true(co.adaptive_tx);

	p = from(t, "# ethtool -i em1");
	assert_int_equal(nd_parse_ethtool_drvinfo(p, strlen(p), &di), 0);
	assert_string_equal(di.driver, "ice");
	assert_string_equal(di.version, "6.15.3-3.gdc.el9.x86_64");
	assert_string_equal(di.fw_version, "4.51 0x8001e501 23.0.8");
	assert_string_equal(di.bus_info, "0000:63:00.0");
	free(t);
	t = raw("sos42-ethtool_-i_ens3-virtio.txt");
	assert_int_equal(nd_parse_ethtool_drvinfo(t, strlen(t), &di), 0);
	assert_string_equal(di.driver, "virtio_net");
	assert_string_equal(di.fw_version, "");
	assert_string_equal(di.bus_info, "0000:00:03.0");
	free(t);
}

static const struct nd_feature *feat(const struct nd_features *f, const char *name)
{
	for (unsigned i = 0; i < f->count; i++)
		if (!strcmp(f->f[i].name, name))
			return &f->f[i];
	fail_msg("no feature '%s'", name);
	return NULL;
}

static void test_features(void **state)
{
	struct nd_features *f = calloc(1, sizeof(*f));
	char *t = raw("sos42-ethtool_-k_ens3-virtio.txt");
	const char *p;

	(void)state;
	assert_int_equal(nd_parse_ethtool_features(t, strlen(t), f), 0);
	assert_true(feat(f, "rx-gro")->active);			/* generic-receive-offload */
	assert_false(feat(f, "rx-lro")->active);
	assert_true(feat(f, "rx-lro")->fixed);
	assert_true(feat(f, "rx-checksum")->fixed);
	assert_true(feat(f, "tx-checksum-ip-generic")->active);	/* member, under the group */
	assert_false(feat(f, "tx-checksum-ipv4")->active);
	assert_true(feat(f, "tx-scatter-gather")->active);
	assert_true(feat(f, "tx-tcp-segmentation")->active);
	assert_true(feat(f, "tx-generic-segmentation")->active);
	assert_false(feat(f, "tx-tcp-mangleid-segmentation")->fixed);
	assert_true(feat(f, "rx-gro-hw")->active);
	assert_int_equal(f->count, 53);	/* 56 lines, 3 groups = members */
	free(t);
	t = raw("ethtool-e810-ice-25g-l-g-c-k-i.txt");
	p = from(t, "# ethtool -k em1");
	assert_int_equal(nd_parse_ethtool_features(p, strlen(p), f), 0);
	assert_false(feat(f, "tx-checksum-ip-generic")->active);	/* not the group's "on" */
	assert_true(feat(f, "tx-checksum-ipv4")->active);
	assert_true(feat(f, "rx-ntuple-filter")->active);
	assert_true(feat(f, "rx-hashing")->active);
	assert_true(feat(f, "hsr-dup-offload")->fixed);
	free(t);
	assert_int_equal(nd_parse_ethtool_features(TXT("Features for x:\ngeneric-receive-offload: off "
						   "[requested on]\n"), f), 0);
	assert_false(feat(f, "rx-gro")->active);
	assert_true(feat(f, "rx-gro")->wanted);
	assert_false(feat(f, "rx-gro")->fixed);
	free(f);
}

static void test_settings(void **state)
{
	struct nd_linkmodes *lm = calloc(1, sizeof(*lm));
	char *t = raw("ethtool-e810-ice-25g-l-g-c-k-i.txt");
	const char *p = from(t, "# ethtool em1");
	int carrier;

	(void)state;
	assert_int_equal(nd_parse_ethtool_settings(p, strlen(p), lm, &carrier), 0);
	assert_int_equal(lm->speed_mbps, 25000);
	assert_int_equal(lm->duplex, 1);
	assert_false(lm->autoneg);
	assert_int_equal(lm->n_supported, 7);
	assert_string_equal(lm->supported[1], "25000baseCR/Full");
	assert_int_equal(lm->n_advertised, 2);
	assert_string_equal(lm->advertised[1], "10000baseCR/Full");
	assert_int_equal(carrier, 1);
	free(t);
	t = raw("sos42-ethtool_ens3-speed-unknown.txt");
	assert_int_equal(nd_parse_ethtool_settings(t, strlen(t), lm, &carrier), 0);
	assert_int_equal(lm->speed_mbps, -1);
	assert_int_equal(lm->duplex, -1);
	assert_int_equal(lm->n_supported, 0);
	assert_int_equal(carrier, 1);
	free(t);
	t = raw("ethtool-x553-ixgbe-S-and-settings-link-down.txt");
	p = from(t, "ethtool eno1\nSettings");
	assert_int_equal(nd_parse_ethtool_settings(p, strlen(p), lm, &carrier), 0);
	assert_int_equal(lm->speed_mbps, -1);
	assert_int_equal(carrier, 0);
	assert_int_equal(lm->n_supported, 1);
	assert_string_equal(lm->supported[0], "10000baseT/Full");
	free(t);
	/* The link partner's modes, pause and autoneg lines (openwrt#15348 and
	 * #21530, tests/fixtures/blind/raw/): the pause and autoneg words are
	 * the bits netlink's peer set carries (Pause, Asym_Pause, Autoneg). */
	t = raw("../blind/raw/openwrt-15348-mt7530-edgerouterx-partner-10-100.txt");
	assert_int_equal(nd_parse_ethtool_settings(t, strlen(t), lm, &carrier), 0);
	assert_int_equal(lm->speed_mbps, 100);
	assert_int_equal(lm->n_advertised, 5);
	assert_int_equal(lm->n_lp_advertised, 5);
	assert_string_equal(lm->lp_advertised[3], "100baseT/Full");
	assert_string_equal(lm->lp_advertised[4], "Autoneg");
	free(t);
	t = raw("../blind/raw/openwrt-pr21530-airoha-lan2-10g-partner-1g.txt");
	assert_int_equal(nd_parse_ethtool_settings(t, strlen(t), lm, &carrier), 0);
	assert_int_equal(lm->n_lp_advertised, 8);
	assert_string_equal(lm->lp_advertised[4], "1000baseT/Full");
	assert_string_equal(lm->lp_advertised[5], "Pause");
	assert_string_equal(lm->lp_advertised[6], "Asym_Pause");
	assert_string_equal(lm->lp_advertised[7], "Autoneg");
	free(t);
	/* "Transmit-only" is the asymmetric bit alone; "No" adds nothing. */
	assert_int_equal(nd_parse_ethtool_settings(TXT("Settings for x:\n\tSpeed: 1000Mb/s\n"
		"\tLink partner advertised pause frame use: Transmit-only\n"
		"\tLink partner advertised auto-negotiation: No\n"), lm, &carrier), 0);
	assert_int_equal(lm->n_lp_advertised, 1);
	assert_string_equal(lm->lp_advertised[0], "Asym_Pause");
	/* lo: only "Link detected". */
	assert_int_equal(nd_parse_ethtool_settings(TXT("Settings for lo:\n\tLink detected: yes\n"),
						   lm, &carrier), -EOPNOTSUPP);
	assert_int_equal(carrier, 1);
	assert_false(lm->st.known);
	free(lm);
}

static void test_stats(void **state)
{
	struct nd_nicstats *s = calloc(1, sizeof(*s));
	char *t = raw("sos42-ethtool_-S_ens3-virtio-single-queue.txt");
	const char *p;

	(void)state;
	assert_int_equal(nd_parse_ethtool_stats(t, strlen(t), s), 0);
	assert_int_equal(s->count, 13);
	assert_string_equal(s->s[1].name, "rx_queue_0_bytes");
	assert_int_equal(s->s[1].value, 23782563032ULL);
	assert_string_equal(s->s[12].name, "tx_queue_0_kicks");
	free(t);
	t = raw("ethtool-x553-ixgbe-S-and-settings-link-down.txt");
	p = from(t, "ethtool -S eno1");
	assert_int_equal(nd_parse_ethtool_stats(p, strlen(p), s), 0);
	assert_string_equal(s->s[0].name, "rx_packets");
	assert_true(s->count > 100);
	free(t);
	assert_int_equal(nd_parse_ethtool_stats(TXT("no stats available\n"), s), -EOPNOTSUPP);
	assert_int_equal(nd_parse_ethtool_stats(TXT("NIC statistics:\n     rxq0: rx_pkts: 42\n"), s),
			 0);
	assert_string_equal(s->s[0].name, "rxq0: rx_pkts");
	assert_int_equal(s->s[0].value, 42);
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_channels),
		cmocka_unit_test(test_not_supported),
		cmocka_unit_test(test_rings),
		cmocka_unit_test(test_coalesce_drvinfo),
		cmocka_unit_test(test_features),
		cmocka_unit_test(test_settings),
		cmocka_unit_test(test_stats),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
