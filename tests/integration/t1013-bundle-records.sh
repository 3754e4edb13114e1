#!/bin/sh
test_description='diagnose --sysroot reads what a bundle records: package lists, the kernel PCIe verdict, sibling functions, queue counts, platform devices, the one interface'
. ./test-lib.sh
test_require_cmd python3

# Trees are made here from the real captures of tests/fixtures (each raw
# file names its source on its first line; tail -n +2 drops it).
RAW="$FIXTURES/raw"
BLIND="$FIXTURES/blind"

jget() {
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"
}
# the fix commands of finding ID in the report FILE, one a line
fix_commands() {
	python3 -c "import json,sys; d=json.load(open(sys.argv[1]))
print(chr(10).join([f for f in d[\"findings\"] if f[\"id\"] == sys.argv[2]][0][\"fix\"][\"commands\"]))" "$1" "$2"
}
# evidence KEY of finding ID in the report FILE
evidence() {
	jget "$1" "[f[\"evidence\"].get(\"$3\") for f in d[\"findings\"] if f[\"id\"] == \"$2\"][0]"
}

test_expect_success 'the iperf3 version from the dpkg -l list, naming the file and line' '
	cp -a "$FIXTURES/sos42-kvm-virtio" deb && mkdir -p deb/sos_commands/dpkg &&
	{ tail -n +2 "$RAW/dpkg_-l-hotsos-openstack-head.txt" &&
	  tail -n +2 "$RAW/dpkg_-l-grep-iperf-ubuntu1804-iperf3-3.1.3.txt"; } >deb/sos_commands/dpkg/dpkg_-l &&
	"$ND" diagnose ens3 --sysroot deb --json >deb.json; test $? -le 2 &&
	test "$(evidence deb.json tool.iperf3_single_threaded iperf3_version)" = 3.1 &&
	test "$(evidence deb.json tool.iperf3_single_threaded source)" = "sos_commands/dpkg/dpkg_-l line 14"
'

test_expect_success 'the iperf3 version from installed-rpms; a list without it: not installed' '
	cp -a "$FIXTURES/sos42-kvm-virtio" rpm &&
	tail -n +2 "$RAW/rpm-q-iperf3-el8-3.5.txt" >rpm/installed-rpms &&
	"$ND" diagnose ens3 --sysroot rpm --json >rpm.json; test $? -le 2 &&
	test "$(evidence rpm.json tool.iperf3_single_threaded iperf3_version)" = 3.5 &&
	test "$(evidence rpm.json tool.iperf3_single_threaded source)" = "installed-rpms line 1" &&
	cp -a "$FIXTURES/sos42-kvm-virtio" none && mkdir -p none/sos_commands/dpkg &&
	tail -n +2 "$RAW/dpkg_-l-hotsos-openstack-head.txt" >none/sos_commands/dpkg/dpkg_-l &&
	"$ND" diagnose ens3 --sysroot none --json >none.json; test $? -le 2 &&
	test "$(nd_severity tool.iperf3_single_threaded <none.json)" = ok &&
	test "$(evidence none.json tool.iperf3_single_threaded iperf3)" = "iperf3 not found in the package list '"'"'sos_commands/dpkg/dpkg_-l'"'"'"
'

test_expect_success 'a supportconfig: the iperf3 version from its rpm.txt' '
	cp -a "$FIXTURES/supportconfig-kvm-virtio" sc &&
	tail -n +2 "$RAW/rpm-q-iperf3-el8-3.5.txt" >sc/rpm.txt &&
	"$ND" diagnose ens3 --sysroot sc --json >sc.json; test $? -le 2 &&
	test "$(evidence sc.json tool.iperf3_single_threaded iperf3_version)" = 3.5 &&
	test "$(evidence sc.json tool.iperf3_single_threaded source)" = "rpm.txt line 1"
'

test_expect_success 'no lspci, no config space: PCIe from the kernel log, its words in the evidence' '
	{ "$ND" diagnose eth0 --sysroot "$BLIND/x520-dual-x4" --json >x520.json; test $? -eq 1; } &&
	test "$(jget x520.json "d[\"sources\"][\"pci\"]")" = sos_commands/kernel/dmesg &&
	test "$(nd_severity pcie.slot_too_slow <x520.json)" = warning &&
	test "$(evidence x520.json pcie.slot_too_slow ports_counted)" = "['"'"'0000:82:00.0'"'"', '"'"'0000:82:00.1'"'"']" &&
	test "$(evidence x520.json pcie.slot_too_slow kernel_said)" = "ixgbe 0000:82:00.0: (Speed:5.0GT/s, Width: x4, Encoding Loss:20%)" &&
	test "$(evidence x520.json pcie.slot_too_slow kernel_said_in)" = "sos_commands/kernel/dmesg line 1" &&
	fix_commands x520.json pcie.slot_too_slow >fix &&
	grep -q "^# move the card to a slot with more lanes or a higher speed" fix &&
	test "$(nd_severity pcie.link_downgraded <x520.json)" = unknown &&
	test "$(evidence x520.json pcie.link_downgraded reason)" = "the kernel'"'"'s log gives the trained link only, not what the card can do"
'

test_expect_success 'the generic line: the device is the prefix, the limit the port it names' '
	mkdir -p k82599/sos_commands/kernel k82599/sos_commands/networking &&
	echo "sosreport: 4.2" >k82599/version.txt &&
	tail -n +2 "$RAW/dmesg-82599-config-space.txt" >k82599/sos_commands/kernel/dmesg &&
	sed -n "/^  driver: ixgbe/,/^  supports-priv-flags/s/^  //p" "$RAW/ethtool-82599es-ixgbe-l-i.txt" \
		>k82599/sos_commands/networking/ethtool_-i_eth0 &&
	grep -q "^bus-info: 0000:01:00.0$" k82599/sos_commands/networking/ethtool_-i_eth0 &&
	"$ND" diagnose eth0 --sysroot k82599 --json >k.json; test $? -le 2 &&
	test "$(jget k.json "d[\"sources\"][\"pci\"]")" = sos_commands/kernel/dmesg &&
	jget k.json "[f[\"title\"] for f in d[\"findings\"] if f[\"id\"] == \"pcie.link_downgraded\"][0]" >title &&
	grep -q "^PCIe link 0000:01:00.0 runs at 2.5GT/s x2 of 5GT/s x8" title &&
	evidence k.json pcie.link_downgraded kernel_said | grep -q "^ixgbe 0000:01:00.0: 4.000 Gb/s available PCIe bandwidth, limited by 2.5 GT/s PCIe x2 link at 0000:00:10.0" &&
	test "$(evidence k.json pcie.link_downgraded kernel_said_in)" = "sos_commands/kernel/dmesg line 77"
'

test_expect_success 'lspci and the kernel log disagree: the evidence says so' '
	cp -a "$FIXTURES/healthy-sos-e810xxv" both && mkdir -p both/sos_commands/kernel &&
	tail -n +2 "$RAW/dmesg-82599-config-space.txt" >both/sos_commands/kernel/dmesg &&
	ifc=$(ls both/sos_commands/networking | sed -n "s/^ethtool_-i_//p" | head -n 1) &&
	"$ND" diagnose "$ifc" --sysroot both --json >both.json; test $? -le 2 &&
	test "$(jget both.json "d[\"sources\"][\"pci\"]")" = sos_commands/pci/lspci_-nnvv &&
	evidence both.json pcie.link_downgraded kernel_disagrees >why &&
	echo "the kernel'"'"'s log has the device capable of 5GT/s x8 where '"'"'sos_commands/pci/lspci_-nnvv'"'"' has LnkCap 16GT/s x8" >expect &&
	test_cmp expect why &&
	# The same tree with its LnkSta edited narrower than the kernel'"'"'s limit
	# (an edit on purpose: no capture here has both records of one device).
	cp -a both narrow && sed -i "s/LnkSta: Speed 16GT\/s (ok), Width x8 (ok)/LnkSta: Speed 2.5GT\/s (downgraded), Width x1 (downgraded)/" narrow/sos_commands/pci/lspci_-nnvv &&
	grep -q "Speed 2.5GT/s (downgraded), Width x1" narrow/sos_commands/pci/lspci_-nnvv &&
	"$ND" diagnose "$ifc" --sysroot narrow --json >narrow.json; test $? -le 2 &&
	evidence narrow.json pcie.slot_too_slow kernel_disagrees >why &&
	echo "the kernel'"'"'s log has 2.5GT/s x2 at 0000:00:10.0 where '"'"'sos_commands/pci/lspci_-nnvv'"'"' has LnkSta 2.5GT/s x1 (0000:01:00.0): the link changed since boot" >expect &&
	test_cmp expect why
'

test_expect_success 'sibling functions from lspci text, a block printed twice counted once' '
	test "$(grep -c "^b1:00.2 " "$FIXTURES/sos-cx7-16gt-x8/sos_commands/pci/lspci_-nnvv")" = 2 &&
	"$ND" diagnose enp177s0f1np1 --sysroot "$FIXTURES/sos-cx7-16gt-x8" --json >cx7.json; test $? -le 2 &&
	test "$(evidence cx7.json pcie.slot_too_slow functions_not_counted)" = "['"'"'0000:b1:00.2'"'"']"
'

test_expect_success 'the RX queue count from numrxqueues 1 without ethtool -l, and where from' '
	cp -a "$FIXTURES/sos42-kvm-virtio" nol && rm nol/sos_commands/networking/ethtool_-l_ens3 &&
	"$ND" diagnose ens3 --sysroot nol --json >nol.json; test $? -le 2 &&
	test "$(jget nol.json "d[\"interface\"][\"rx_queues\"]")" = 1 &&
	test "$(evidence nol.json queues.single rx_queues_from)" = "numrxqueues 1 (sos_commands/networking/ip_-s_-d_link): one queue allocated"
'

test_expect_success 'a platform (SoC) device: no PCIe link, the checks do not apply; its only interface is taken' '
	mkdir -p soc/sos_commands/networking && echo "sosreport: 4.5" >soc/version.txt &&
	tail -n +2 "$RAW/ethtool-i-eth2-mtk_soc_eth-platform-15100000.txt" >soc/sos_commands/networking/ethtool_-i_eth2 &&
	"$ND" diagnose --sysroot soc --json >soc.json; test $? -le 2 &&
	test "$(jget soc.json "d[\"interface\"][\"name\"]")" = eth2 &&
	test "$(nd_severity pcie.link_downgraded <soc.json)" = ok &&
	test "$(nd_severity pcie.slot_too_slow <soc.json)" = ok &&
	# Every pcie.* check (downgrade, slot, ASPM) says the same.
	jget soc.json "sorted(set(f[\"title\"] for f in d[\"findings\"] if f[\"id\"].startswith(\"pcie.\")))" >pcie &&
	echo "['"'"'platform device 15100000.ethernet, no PCIe link'"'"']" >expect &&
	test_cmp expect pcie &&
	"$ND" diagnose --sysroot soc >soc.txt; test $? -le 2 &&
	tr -s "\n " "  " <soc.txt | grep -q "eth2: its only interface, no default route recorded"
'

test_expect_success 'a platform device by its sys/class/net link (below sys/devices/platform)' '
	cp -a "$BLIND/rpi-bcmgenet-clean" genet &&
	mkdir -p genet/sys/class/net genet/sys/devices/platform/scb/fd580000.ethernet/net/end0 &&
	ln -s ../../devices/platform/scb/fd580000.ethernet/net/end0 genet/sys/class/net/end0 &&
	"$ND" diagnose end0 --sysroot genet --json >genet.json; test $? -le 2 &&
	test "$(nd_severity pcie.link_downgraded <genet.json)" = ok &&
	jget genet.json "[f[\"title\"] for f in d[\"findings\"] if f[\"id\"] == \"pcie.slot_too_slow\"][0]" >title &&
	echo "platform device, no PCIe link" >expect &&
	test_cmp expect title
'

test_expect_success 'two interfaces and no default route: still exit 3' '
	cp -a soc two && cp two/sos_commands/networking/ethtool_-i_eth2 two/sos_commands/networking/ethtool_-i_eth3 &&
	test_expect_code 3 "$ND" diagnose --sysroot two >out 2>err
'

test_done
