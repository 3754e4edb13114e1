/*
 * test_probe_sos.c - the sosreport source on the sos-shaped
 * fixtures (tests/fixtures/sos*, made by make-sos-fixtures.py): what it
 * fills from sos_commands/ text, what it leaves unknown and why, where
 * each group came from; PCI from proc/bus/pci bytes (whole and cut short)
 * and from lspci text; the default route from ip route text.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "nicdoctor/bundle.h"
#include "nicdoctor/parse_text.h"
#include "nicdoctor/probe.h"
#include "nicdoctor/source.h"

static struct nd_facts *probe_sos(const char *dir, const char *ifname)
{
	struct nd_facts *facts = NULL;
	struct nd_source *src = NULL;

	assert_int_equal(nd_source_open(dir, &src, NULL, 0), 0);
	assert_int_equal(nd_source_bundle(src)->kind, ND_BUNDLE_SOS);
	assert_int_equal(nd_probe(src, ifname, &facts), 0);
	nd_source_close(src);
	return facts;
}

static void test_kvm_virtio(void **state)
{
	struct nd_facts *f = probe_sos("tests/fixtures/sos42-kvm-virtio", "ens3");

	(void)state;
	assert_true(f->link.st.known);
	assert_int_equal(f->link.mtu, 8958);
	assert_int_equal(f->link.rx_queues, 1);
	assert_string_equal(f->link.qdisc, "fq_codel");
	assert_string_equal(f->link.st.source, "sos_commands/networking/ip_-s_-d_link");
	assert_true(f->channels.st.known);
	assert_int_equal(f->channels.combined, 1);
	assert_int_equal(f->channels.combined_max, 1);
	assert_string_equal(f->channels.st.source, "sos_commands/networking/ethtool_-l_ens3");
	assert_int_equal(f->rings.rx, 256);
	assert_string_equal(f->drvinfo.driver, "virtio_net");
	assert_string_equal(f->drvinfo.bus_info, "0000:00:03.0");
	/* stderr in the file: not supported, and the file is still the source */
	assert_false(f->pause.st.known);
	assert_non_null(strstr(f->pause.st.reason, "not supported"));
	assert_string_equal(f->pause.st.source, "sos_commands/networking/ethtool_-a_ens3");
	/* not in the bundle: unknown, saying so, no source */
	assert_false(f->coalesce.st.known);
	assert_non_null(strstr(f->coalesce.st.reason, "has no 'sos_commands/networking/ethtool_-c_ens3'"));
	assert_string_equal(f->coalesce.st.source, "");
	assert_false(f->queues.st.known);
	assert_non_null(strstr(f->queues.st.reason, "a sosreport does not record RPS masks"));
	assert_false(f->rss.st.known);
	/* gaps: lscpu, sysctl -a, ps */
	assert_true(f->cpus.st.known);
	assert_int_equal(f->cpus.n_online, 2);
	assert_int_equal(f->cpus.n_nodes, 1);
	assert_true(f->sysctl.netdev_max_backlog.known);
	assert_string_equal(f->sysctl.netdev_max_backlog.text, "1000");
	assert_string_equal(f->sysctl.tcp_rmem.text, "4096 131072 6291456");
	/* no msi_irqs in a sosreport: virtio0's receive queue by name */
	assert_true(f->irqs.st.known);
	assert_int_equal(f->irqs.count, 1);
	assert_int_equal(f->irqs.irq[0].irq, 25);
	assert_true(f->irqs.irqbalance_known);
	assert_true(f->irqs.irqbalance_running);
	assert_true(f->softnet.st.known);
	assert_int_equal(f->softnet.count, 2);
	/* virtio-net at 00:03.0 is conventional PCI in lspci's text */
	assert_true(f->pci.st.known);
	assert_false(f->pci.dev.is_pcie);
	assert_string_equal(f->pci.st.source, "sos_commands/pci/lspci_-nnvv");
	assert_string_equal(f->hostname, "kvm-guest-1");
	/* no queues/ in a sosreport: ethtool -S's rx_queue_0_packets list
	 * the queues and count them */
	assert_true(f->queue_table.st.known);
	assert_string_equal(f->queue_table.list_source, "ethtool -S");
	assert_int_equal(f->queue_table.count, 2);
	for (unsigned i = 0; i < f->queue_table.count; i++) {
		const struct nd_queue_row *q = &f->queue_table.q[i];

		assert_true(q->counters_known);
		assert_string_equal(q->counter_source, "ethtool -S");
		assert_int_equal(q->id, 0);
		assert_int_equal(q->packets, q->kind == ND_QUEUE_RX ? 25933187 : 25568623);
	}
	nd_facts_free(f);
}

static void test_virtual_iface(void **state)
{
	struct nd_facts *f = probe_sos("tests/fixtures/sos42-kvm-virtio", "lo");

	(void)state;
	assert_true(f->pci.no_device);
	assert_int_equal(f->link.mtu, 65536);
	assert_false(f->channels.st.known);
	assert_non_null(strstr(f->channels.st.reason, "not supported"));
	nd_facts_free(f);
}

static void test_pci_from_proc_bytes(void **state)
{
	struct nd_facts *f = probe_sos("tests/fixtures/sos-82599-proc", "eth0");

	(void)state;
	assert_true(f->pci.st.known);
	assert_string_equal(f->pci.st.source, "proc/bus/pci/01/00.0");
	assert_int_equal(f->pci.dev.vendor_id, 0x8086);
	assert_int_equal(f->pci.dev.device_id, 0x10fb);
	assert_true(f->pci.dev.link_known);
	assert_int_equal(f->pci.dev.cap_width, 8);
	assert_int_equal(f->pci.dev.sta_width, 2);
	assert_true(f->pci.dev.cap_gts == 5.0 && f->pci.dev.sta_gts == 2.5);
	/* the root port of the symlink's path: in neither record */
	assert_int_equal(f->pci.n_upstream, 1);
	assert_string_equal(f->pci.upstream[0].address, "0000:00:10.0");
	assert_false(f->pci.upstream[0].link_known);
	assert_int_equal(f->linkmodes.speed_mbps, 10000);
	nd_facts_free(f);
}

static void test_pci_from_lspci_text(void **state)
{
	struct nd_facts *f = probe_sos("tests/fixtures/sos-cx4lx-x4", "ens1f0np0");

	(void)state;
	assert_true(f->pci.st.known);
	assert_string_equal(f->pci.st.source, "sos_commands/pci/lspci_-nnvv");
	assert_int_equal(f->pci.dev.cap_width, 8);
	assert_int_equal(f->pci.dev.sta_width, 4);
	assert_int_equal(f->pci.dev.mps_bytes, 256);
	nd_facts_free(f);
}

/* Config bytes that end inside the PCI Express capability are not taken
 * for registers (libpci would read 0xff): the function is not known from
 * them, and with no lspci text it stays unknown, saying why. */
static void test_pci_short_proc_bytes(void **state)
{
	char dir[] = "/tmp/nd-sos-short-XXXXXX", path[128], cmd[256];
	unsigned char bytes[256];
	struct nd_facts *f;
	FILE *in, *out;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd), "cp -a tests/fixtures/sos-82599-proc/. %s/", dir);
	assert_int_equal(system(cmd), 0);
	in = fopen("tests/fixtures/sos-82599-proc/proc/bus/pci/01/00.0", "rb");
	assert_non_null(in);
	assert_int_equal(fread(bytes, 1, sizeof(bytes), in), 256);
	fclose(in);
	snprintf(path, sizeof(path), "%s/proc/bus/pci/01/00.0", dir);
	out = fopen(path, "wb");
	assert_non_null(out);
	/* the 82599's PCI Express capability is at 0xa0: cut at 0xa8 */
	assert_int_equal(fwrite(bytes, 1, 0xa8, out), 0xa8);
	fclose(out);
	f = probe_sos(dir, "eth0");
	assert_false(f->pci.st.known);
	assert_non_null(strstr(f->pci.st.reason, "ends inside the PCI Express capability"));
	nd_facts_free(f);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

static void test_ip_route_default(void **state)
{
	static const char table_all[] =
		"unreachable default metric 10 \n"
		"default via 10.0.0.1 dev eth1 table 100 \n"
		"default via 192.168.1.1 dev wlan0 proto dhcp metric 600 \n"
		"default via 10.6.0.1 dev ens3 proto dhcp src 10.6.3.201 metric 100 \n"
		"10.6.0.0/16 dev ens3 proto kernel scope link src 10.6.3.201 \n"
		"local 10.6.3.201 dev ens3 table local proto kernel scope host\r\n";
	char buf[16] = "untouched";

	(void)state;
	assert_int_equal(nd_parse_ip_route_default(table_all, strlen(table_all), buf, sizeof(buf)), 0);
	assert_string_equal(buf, "ens3");
	assert_int_equal(nd_parse_ip_route_default("default dev tun0 table main", 27, buf,
						   sizeof(buf)), 0);
	assert_string_equal(buf, "tun0");
	strcpy(buf, "untouched");
	assert_int_equal(nd_parse_ip_route_default(table_all + 31, 40, buf, sizeof(buf)), -ENOENT);
	assert_string_equal(buf, "untouched");
	assert_int_equal(nd_parse_ip_route_default("default via 1.2.3.4 dev", 23, buf, sizeof(buf)),
			 -ENOENT);
	assert_int_equal(nd_parse_ip_route_default("default via 1.2.3.4 dev ../etc", 30, buf,
						   sizeof(buf)), -ENOENT);
	/* len bounds the read: the default line past it is not seen */
	assert_int_equal(nd_parse_ip_route_default("x\ndefault dev eth0", 1, buf, sizeof(buf)), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kvm_virtio),
		cmocka_unit_test(test_virtual_iface),
		cmocka_unit_test(test_pci_from_proc_bytes),
		cmocka_unit_test(test_pci_from_lspci_text),
		cmocka_unit_test(test_pci_short_proc_bytes),
		cmocka_unit_test(test_ip_route_default),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
