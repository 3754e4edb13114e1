/*
 * test_probe_sysroot.c - the sysfs/procfs probe sources (queues, irqs,
 * softnet, sysctls, cpus, tools) run against the sysroot fixtures in
 * tests/fixtures/, and their unknown reasons when a file is missing.
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

#include "nicdoctor/probe.h"
#include "nicdoctor/sysroot.h"
#include "nicdoctor/sysfs_util.h"

static struct nd_facts *probe_all(const char *fixture, const char *ifname)
{
	char dir[256];
	struct nd_facts *facts = calloc(1, sizeof(*facts));
	struct nd_root *root;

	assert_non_null(facts);
	snprintf(dir, sizeof(dir), "tests/fixtures/%s", fixture);
	assert_int_equal(nd_root_open(dir, &root), 0);
	nd_probe_queues(root, ifname, facts);
	nd_probe_irqs(root, ifname, facts);
	nd_probe_softnet(root, ifname, facts);
	nd_probe_sysctls(root, ifname, facts);
	nd_probe_cpus(root, ifname, facts);
	nd_probe_tools(root, ifname, facts);
	nd_root_close(root);
	return facts;
}

static void test_healthy_x16(void **state)
{
	struct nd_facts *f = probe_all("healthy-x16", "enp1s0f0np0");

	(void)state;
	assert_true(f->queues.st.known);
	assert_int_equal(f->queues.n_rx, 12);
	assert_int_equal(f->queues.n_tx, 12);
	assert_true(nd_cpuset_empty(&f->queues.rps_cpus[0]));
	assert_true(f->queues.xps_known[11]);
	assert_true(nd_cpuset_has(&f->queues.xps_cpus[11], 11));
	assert_true(f->irqs.st.known);
	assert_int_equal(f->irqs.n_cpu_columns, 12);
	assert_int_equal(f->irqs.count, 13);		/* async0 + comp0..11 from msi_irqs */
	assert_int_equal(f->irqs.irq[2].irq, 109);
	assert_int_equal(f->irqs.irq[2].per_cpu[8], 395218);
	assert_true(f->irqs.irq[2].affinity_known && nd_cpuset_has(&f->irqs.irq[2].affinity, 8));
	assert_true(f->irqs.irq[2].effective_known);
	assert_false(f->irqs.irq[2].hint_known);
	assert_true(f->irqs.irqbalance_known);
	assert_false(f->irqs.irqbalance_running);
	assert_true(f->softnet.st.known);
	assert_int_equal(f->softnet.count, 12);
	assert_int_equal(f->softnet.cpu[11].cpu, 11);
	assert_true(f->sysctl.rmem_max.known);
	assert_string_equal(f->sysctl.rmem_max.text, "67108864");
	assert_string_equal(f->sysctl.tcp_rmem.text, "4096 87380 67108864");
	assert_string_equal(f->sysctl.default_qdisc.text, "fq");
	assert_true(f->cpus.st.known);
	assert_int_equal(f->cpus.n_online, 12);
	assert_true(f->cpus.governor_known);
	assert_string_equal(f->cpus.governor[5], "performance");
	assert_int_equal(f->cpus.n_nodes, 1);
	assert_true(f->tools.iperf3.known);
	assert_string_equal(f->tools.iperf3_version, "3.17");
	free(f);
}

static void test_irq_one_cpu(void **state)
{
	struct nd_facts *f = probe_all("irq-one-cpu", "eth1");

	(void)state;
	assert_int_equal(f->queues.n_rx, 8);
	assert_true(f->irqs.st.known);
	assert_int_equal(f->irqs.n_cpu_columns, 8);
	assert_int_equal(f->irqs.count, 11);
	for (unsigned i = 0; i < f->irqs.count; i++) {
		assert_int_equal(f->irqs.irq[i].total, f->irqs.irq[i].per_cpu[0]);
		assert_non_null(strstr(f->irqs.irq[i].name, "@pci:8b76:00:02.0"));
		assert_false(f->irqs.irq[i].effective_known);	/* 3.10: no such file */
	}
	assert_string_equal(f->irqs.irq[3].name, "mlx5_comp0@pci:8b76:00:02.0");
	assert_true(f->irqs.irqbalance_known && f->irqs.irqbalance_running);
	assert_int_equal(f->softnet.count, 8);
	assert_int_equal(f->softnet.cpu[5].time_squeeze, 0x17d4);
	assert_false(f->cpus.governor_known);		/* a VM: no cpufreq */
	free(f);
}

static void test_downgraded_82599(void **state)
{
	struct nd_facts *f = probe_all("downgraded-82599-x2", "eth0");

	(void)state;
	assert_int_equal(f->queues.n_rx, 4);
	assert_int_equal(f->irqs.count, 5);
	assert_string_equal(f->irqs.irq[0].name, "eth0-TxRx-0");
	assert_string_equal(f->irqs.irq[4].name, "eth0");
	assert_int_equal(f->cpus.n_online, 4);
	free(f);
}

static void test_missing_files_are_unknown(void **state)
{
	struct nd_facts *f = probe_all("nonroot-64b", "enp130s0f0");

	(void)state;
	assert_true(f->queues.st.known);
	assert_false(f->queues.xps_known[0]);
	assert_false(f->irqs.st.known);
	assert_string_equal(f->irqs.st.reason, "cannot read '/proc/interrupts': No such file or directory");
	assert_false(f->softnet.st.known);
	assert_string_equal(f->softnet.st.reason,
			    "cannot read '/proc/net/softnet_stat': No such file or directory");
	free(f);
	f = probe_all("healthy-x16", "nosuch0");
	assert_false(f->queues.st.known);
	assert_non_null(strstr(f->queues.st.reason, "'/sys/class/net/nosuch0/queues'"));
	free(f);
}

static void test_path_components(void **state)
{
	char comp[8], buf[64], longpath[300];
	const char *rest = "//sys/class//net/";

	(void)state;
	assert_int_equal(nd_path_next_component(&rest, comp, sizeof(comp)), 1);
	assert_string_equal(comp, "sys");
	assert_int_equal(nd_path_next_component(&rest, comp, sizeof(comp)), 1);
	assert_string_equal(comp, "class");
	assert_int_equal(nd_path_next_component(&rest, comp, sizeof(comp)), 1);
	assert_string_equal(comp, "net");
	assert_int_equal(nd_path_next_component(&rest, comp, sizeof(comp)), 0);
	rest = "/toolongname";
	assert_int_equal(nd_path_next_component(&rest, comp, sizeof(comp)), -1);

	/* A name longer than any filesystem holds is an error, never the path
	 * resolved so far. */
	memset(longpath, 'a', sizeof(longpath) - 1);
	longpath[sizeof(longpath) - 1] = '\0';
	memcpy(longpath, "/proc/", 6);
	assert_int_equal(nd_probe_resolve(&nd_root_live, longpath, buf, sizeof(buf)),
			 -ENAMETOOLONG);
	assert_int_equal(nd_probe_resolve(&nd_root_live, "/proc/./self/..", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/proc");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_healthy_x16),
		cmocka_unit_test(test_irq_one_cpu),
		cmocka_unit_test(test_downgraded_82599),
		cmocka_unit_test(test_missing_files_are_unknown),
		cmocka_unit_test(test_path_components),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
