#!/bin/sh
test_description='stacked devices from records (the kinds this kernel lacks): a VLAN, a bond known from ip -d link only, a flannel vxlan: each followed to its lowers, with the encapsulation'
. ./test-lib.sh
test_require_cmd python3

FIX="$SRC_DIR/tests/fixtures"
# stack KEY... < report.json: the stack object's fields, one a line
stack() {
	python3 -c '
import json, sys
s = json.load(sys.stdin)["stack"]
for k in sys.argv[1:]:
    v = s[k]
    print(" ".join(l["name"] for l in v) if k == "lowers" else v)' "$@"
}

test_expect_success 'a VLAN on eth0 (ip -details link of a VirtualBox guest): vlan 700 over eth0, 4 B a frame' '
	{ "$ND" diagnose --sysroot "$FIX/sos-vlan-eth0-700" eth0.700 --json >report.json
	  test $? -le 2; } &&
	test "$(stack kind vlan_id lowers via encap_bytes <report.json | tr "\n" " ")" = \
		"vlan 700 eth0 eth0 4 " &&
	"$ND" diagnose --sysroot "$FIX/sos-vlan-eth0-700" eth0.700 >report.txt;
	grep -q "^  eth0.700 -> eth0: " report.txt &&
	! awk "length > 80" report.txt | grep -q .
'

test_expect_success 'a bond from ip -s -d link only: its members from their master headers' '
	{ "$ND" diagnose --sysroot "$FIX/sos-bond-ip-d-link-insights" bond0 --json >report.json
	  test $? -le 2; } &&
	test "$(stack kind lowers <report.json | tr "\n" " ")" = "bond enp1s0 enp2s0 " &&
	python3 -c "import json; d=json.load(open(\"report.json\")); \
		assert all(l[\"upper\"] == \"bond0\" for l in d[\"stack\"][\"lowers\"])"
'

# flannel sets its vxlan 50 below the underlay (8958 - 50 = 8908): the
# encapsulation the wire ceiling takes off, and an MTU that fits.
test_expect_success 'flannel.1 over ens3 (a Kubernetes node sosreport): 50 B a frame, the MTU fits' '
	{ "$ND" diagnose --sysroot "$FIX/sos42-kvm-virtio" flannel.1 --json >report.json
	  test $? -le 2; } &&
	test "$(stack kind lowers via encap_bytes <report.json | tr "\n" " ")" = \
		"vxlan ens3 ens3 50 " &&
	test "$(nd_severity mtu.stack_mismatch <report.json)" = ok &&
	python3 -c "import json; d=json.load(open(\"report.json\")); \
		f=[x for x in d[\"findings\"] if x[\"id\"] == \"mtu.stack_mismatch\"][0]; \
		assert f[\"evidence\"][\"needs_mtu\"] == 8958 and f[\"evidence\"][\"lower_mtu\"] == 8958, f"
'

# Constructed (no host can make it): two bridges each the other's port,
# and a VLAN over the pair.  The walk takes each name once and ends.
test_expect_success 'a loop of lowers in a record: each device once, the walk ends' '
	mkdir -p loop/sos_commands/networking &&
	cp "$FIX/sos42-kvm-virtio/version.txt" loop/ &&
	cat >loop/sos_commands/networking/ip_-s_-d_link <<-\EOF &&
	1: br0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc noqueue master br1 state UP mode DEFAULT group default qlen 1000
	    link/ether 02:00:00:00:00:01 brd ff:ff:ff:ff:ff:ff
	    bridge forward_delay 1500
	2: br1: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc noqueue master br0 state UP mode DEFAULT group default qlen 1000
	    link/ether 02:00:00:00:00:02 brd ff:ff:ff:ff:ff:ff
	    bridge forward_delay 1500
	3: br0.5@br0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc noqueue state UP mode DEFAULT group default qlen 1000
	    link/ether 02:00:00:00:00:01 brd ff:ff:ff:ff:ff:ff
	    vlan protocol 802.1Q id 5 <REORDER_HDR>
	EOF
	{ timeout 20 "$ND" diagnose --sysroot loop br0.5 --json >report.json; test $? -le 2; } &&
	python3 -c "import json; s=json.load(open(\"report.json\"))[\"stack\"]; \
		n=[(l[\"name\"], l[\"upper\"], l[\"depth\"]) for l in s[\"lowers\"]]; \
		assert n == [(\"br0\", \"br0.5\", 1), (\"br1\", \"br0\", 2)], n"
'

test_expect_success 'a NIC (ens3): no stack object, mtu.stack_mismatch not applicable' '
	{ "$ND" diagnose --sysroot "$FIX/sos42-kvm-virtio" ens3 --json >report.json
	  test $? -le 2; } &&
	python3 -c "import json; d=json.load(open(\"report.json\")); assert \"stack\" not in d" &&
	test "$(nd_severity mtu.stack_mismatch <report.json)" = ok
'

test_done
