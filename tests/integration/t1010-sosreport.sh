#!/bin/sh
test_description='diagnose --sysroot on a sosreport: tree and tarball agree, interfaces from the bundle, reasons and sources say what was read'
. ./test-lib.sh
test_require_cmd python3
test_require_cmd strace

SOS="$FIXTURES/sos42-kvm-virtio"
# Its one warning (exit 1): virt.virtio_queues, the host offers 1 queue
# pair to the guest's 2 vCPUs.
export TMPDIR="$TRASH/tmp"
mkdir -p "$TMPDIR"

# (LeakSanitizer cannot run under strace: case 9 turns it off.)
# A jq-less look into the JSON report: python3 -c EXPR with d = the report.
jget() {
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"
}

test_expect_success 'a sosreport tree and its .tar.xz give the same report' '
	mkdir pack && cp -a "$SOS" pack/sosreport-kvm-guest-1-2024-01-08-abcdefg &&
	tar -C pack -cJf sos.tar.xz sosreport-kvm-guest-1-2024-01-08-abcdefg &&
	test_expect_code 1 "$ND" diagnose ens3 --sysroot "$SOS" --json >tree.json &&
	test_expect_code 1 "$ND" diagnose ens3 --sysroot sos.tar.xz --json >tar.json &&
	jget tree.json "json.dumps({k: d[k] for k in (\"interface\", \"findings\", \"sources\", \"unreadable\")}, sort_keys=True)" >expect &&
	jget tar.json "json.dumps({k: d[k] for k in (\"interface\", \"findings\", \"sources\", \"unreadable\")}, sort_keys=True)" >actual &&
	test_cmp expect actual && test -z "$(ls -A "$TMPDIR")"
'

test_expect_success 'the header says it is a sosreport, which sos, of which host, when' '
	test_expect_code 1 "$ND" diagnose ens3 --sysroot "$SOS" >report.txt &&
	tr -s "\n " "  " <report.txt >oneline &&
	grep -q "(from a sosreport (sos 4.2) of kvm-guest-1 taken Mon Jan 8 10:20:30 UTC 2024)" oneline &&
	test_expect_code 1 "$ND" diagnose ens3 --sysroot "$SOS" --format markdown >report.md &&
	grep -q ", from a sosreport (sos 4.2) of kvm-guest-1 taken Mon Jan  8 10:20:30 UTC 2024$" report.md &&
	test "$(jget tree.json "d[\"host\"][\"origin\"]")" = "a sosreport (sos 4.2) of kvm-guest-1 taken Mon Jan  8 10:20:30 UTC 2024"
'

test_expect_success 'an interface the sosreport lacks: exit 3 with the ones it has' '
	test_expect_code 3 "$ND" diagnose eth9 --sysroot "$SOS" >out 2>err &&
	test ! -s out &&
	echo "nicdoctor: no interface '"'"'eth9'"'"' in the sosreport; it has: ens3, flannel.1, lo" >expect &&
	test_cmp expect err
'

test_expect_success 'without an interface, the one of the default route in ip_route' '
	test ! -e "$SOS/proc/net/route" &&
	test_expect_code 1 "$ND" diagnose --sysroot "$SOS" --json >default.json &&
	test "$(jget default.json "d[\"interface\"][\"name\"]")" = ens3
'

test_expect_success 'RPS is unknown because a sosreport does not record it' '
	test "$(nd_severity rps.off_single_queue <tree.json)" = unknown &&
	jget tree.json "d[\"unreadable\"][\"queues\"]" >reason &&
	grep -q "^a sosreport does not record RPS masks" reason
'

test_expect_success 'the evidence names the file each group came from' '
	jget tree.json "\"\\n\".join(\"%s %s\" % kv for kv in sorted(d[\"sources\"].items()))" >actual &&
	cat >expect <<-\EOT &&
	channels sos_commands/networking/ethtool_-l_ens3
	cpus sos_commands/processor/lscpu
	drvinfo sos_commands/networking/ethtool_-i_ens3
	features sos_commands/networking/ethtool_-k_ens3
	irqs proc/interrupts
	link sos_commands/networking/ip_-s_-d_link
	linkmodes sos_commands/networking/ethtool_ens3
	nicstats sos_commands/networking/ethtool_-S_ens3
	pause sos_commands/networking/ethtool_-a_ens3
	pci sos_commands/pci/lspci_-nnvv
	qdisc sos_commands/networking/tc_-s_qdisc_show
	rings sos_commands/networking/ethtool_-g_ens3
	softnet proc/net/softnet_stat
	sysctl sos_commands/kernel/sysctl_-a
	EOT
	test_cmp expect actual &&
	jget tree.json "[f[\"evidence\"].get(\"source\") for f in d[\"findings\"] if f[\"id\"] == \"queues.single\"][0]" >qsrc &&
	grep -q "sos_commands/networking/ethtool_-l_ens3" qsrc
'

test_expect_success 'the sysctl checks name the file their sysctls came from' '
	jget tree.json "[f[\"evidence\"].get(\"source\") for f in d[\"findings\"] if f[\"id\"] == \"sysctl.backlog_low\"][0]" >bsrc &&
	echo "sos_commands/kernel/sysctl_-a, proc/net/softnet_stat" >expect &&
	test_cmp expect bsrc &&
	cp -a "$SOS" procsys && mkdir -p procsys/proc/sys/net/core &&
	echo 4194304 >procsys/proc/sys/net/core/rmem_max &&
	"$ND" diagnose ens3 --sysroot procsys --json >procsys.json; test $? -le 2 &&
	jget procsys.json "[f[\"evidence\"].get(\"source\") for f in d[\"findings\"] if f[\"id\"] == \"sysctl.rmem_max_low\"][0]" >rsrc &&
	echo "proc/sys/net/core/rmem_max, sos_commands/kernel/sysctl_-a" >expect &&
	test_cmp expect rsrc &&
	test "$(jget procsys.json "d[\"sources\"][\"sysctl\"]")" = "proc/sys/net/core/rmem_max, sos_commands/kernel/sysctl_-a"
'

test_expect_success 'PCIe downgrade from lspci text alone (no proc/bus/pci)' '
	{ "$ND" diagnose ens1f0np0 --sysroot "$FIXTURES/sos-cx4lx-x4" --json >cx4.json; test $? -eq 1; } &&
	test "$(nd_severity pcie.link_downgraded <cx4.json)" = warning &&
	test "$(jget cx4.json "d[\"sources\"][\"pci\"]")" = sos_commands/pci/lspci_-nnvv
'

test_expect_success 'plain lspci text (no capability list) leaves the PCIe link unknown, not "not PCIe"' '
	cp -a "$FIXTURES/sos-cx4lx-x4" plain &&
	head -n 1 plain/sos_commands/pci/lspci_-nnvv >plain/lspci.one &&
	mv plain/lspci.one plain/sos_commands/pci/lspci_-nnvv &&
	"$ND" diagnose ens1f0np0 --sysroot plain --json >plain.json; test $? -le 2 &&
	test "$(nd_severity pcie.link_downgraded <plain.json)" = unknown &&
	jget plain.json "d[\"unreadable\"][\"pci\"]" >reason &&
	echo "0000:08:00.0 in '"'"'sos_commands/pci/lspci_-nnvv'"'"': the lspci text lists no capabilities (not lspci -vv)" >expect &&
	test_cmp expect reason
'

test_expect_success 'PCIe downgrade from the config bytes in proc/bus/pci, through libpci' '
	{ "$ND" diagnose eth0 --sysroot "$FIXTURES/sos-82599-proc" --json >proc.json; test $? -eq 2; } &&
	test "$(nd_severity pcie.link_downgraded <proc.json)" = critical &&
	test "$(jget proc.json "d[\"sources\"][\"pci\"]")" = proc/bus/pci/01/00.0
'

test_expect_success 'config bytes behind a link out of the bundle are not read' '
	cp -a "$FIXTURES/sos-82599-proc" out-link &&
	mkdir -p outside/01 && cp out-link/proc/bus/pci/01/00.0 outside/01/00.0 &&
	rm -r out-link/proc/bus/pci/01 && ln -s "$TRASH/outside/01" out-link/proc/bus/pci/01 &&
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -f -qq -e trace=open,openat -o trace.txt "$ND" diagnose eth0 --sysroot out-link --json >out.json &&
	! grep -q "outside/01/00.0" trace.txt &&
	test "$(nd_severity pcie.link_downgraded <out.json)" = unknown &&
	jget out.json "d[\"unreadable\"][\"pci\"]" | grep -q "0000:01:00.0 not in the sosreport"
'

test_expect_success 'a sysfs-only snapshot: the wire from sys/class/net, downgrade critical' '
	{ "$ND" diagnose eth0 --sysroot "$FIXTURES/downgraded-82599-x2-sysfs" --json >sysfs.json; test $? -eq 2; } &&
	test "$(nd_severity pcie.link_downgraded <sysfs.json)" = critical &&
	test "$(jget sysfs.json "d[\"interface\"][\"speed_mbps\"]")" = 10000 &&
	test "$(jget sysfs.json "[f[\"evidence\"][\"wire_ceiling_mbps\"] for f in d[\"findings\"] if f[\"id\"] == \"pcie.link_downgraded\"][0]")" = 9414 &&
	test "$(jget sysfs.json "d[\"sources\"][\"linkmodes\"]")" = /sys/class/net/eth0/speed &&
	test "$(jget sysfs.json "d[\"sources\"][\"link\"]")" = /sys/class/net/eth0/mtu
'

test_done
