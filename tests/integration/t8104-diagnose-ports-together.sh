#!/bin/sh
test_description='diagnose IF1,IF2 --peer HOST1,HOST2: two macvlan ports on one veth, each shaped alone, the veth shaped as the slot they share; each alone at its shaper, together at the shared cap, and pcie.slot_too_slow judged by the together run: the slot caps the pair, or carries both'
. ./test-lib.sh
test_require_root
test_require_cmd ip tc python3

# The ports' PCI facts come from the downgraded-82599-x2 fixture (two
# functions of one 82599, its link trained to 2.5 GT/s x2: 3368 Mbit/s)
# through ND_TEST_PCI_SYSROOT; ND_TEST_PCIE_SCALE brings that ceiling to
# the tens of Mbit/s the shapers run at (0.012: 40.4 Mbit/s, 0.03: 101; tbf here passes 10-20% over its rate).
NSA=nd-t8104a-$$ NSB=nd-t8104b-$$
PORT1=5880 PORT2=5881
in_a() { ip netns exec "$NSA" "$@"; }
PEERS=10.78.1.100:$PORT1,10.78.2.100:$PORT2

# A copy of the fixture's sys/ with mv0 and mv1 as the card's two ports.
make_pci_tree() {
	card=sys/devices/pci0000:00/0000:00:10.0 &&
	mkdir pci && cp -a "$FIXTURES/downgraded-82599-x2/sys" pci/ &&
	for p in "mv0 0000:01:00.0" "mv1 0000:01:00.1"; do
		set -- $p
		mkdir -p "pci/$card/$2/net/$1" &&
		ln -s "../../../$2" "pci/$card/$2/net/$1/device" &&
		ln -s "../../devices/pci0000:00/0000:00:10.0/$2/net/$1" "pci/sys/class/net/$1" ||
		return 1
	done
}

# check_together FILE VERDICT LOW HIGH PHRASE: the together section of a
# JSON report: each port alone near its 25 Mbit/s shaper, the sum of the
# together run within [LOW, HIGH], the verdict and its sentence.  Exit 2:
# the fixture's link trained down is pcie.link_downgraded, critical.
check_together() {
	python3 - "$@" <<-\PY
	import json, sys
	d = json.load(open(sys.argv[1]))
	verdict, low, high, phrase = sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
	t = d["together"]
	print(json.dumps(t, indent=1))
	assert d["interface"]["name"] == "mv0", d["interface"]
	assert [p["interface"]["name"] for p in d["other_ports"]] == ["mv1"]
	assert [p["interface"] for p in t["ports"]] == ["mv0", "mv1"]
	assert t["slot"]["shared"] and t["slot"]["device"] == "0000:01:00", t["slot"]
	for p in t["ports"]:
	    assert 19 <= p["alone_mbps"] <= 32, p
	    assert p["link_ceiling_source"] == "shaping", p
	    assert 22 <= p["link_ceiling_mbps"] <= 26, p
	s = t["together_mbps"]
	assert low <= s <= high, (s, low, high)
	assert abs(s - sum(p["together_mbps"] for p in t["ports"])) < 0.2
	v = t["verdict"]
	assert v["id"] == "pcie.slot_too_slow" and v["verdict"] == verdict, v
	assert phrase in v["reason"], (phrase, v["reason"])
	PY
}

test_expect_success 'set-up: mv0 and mv1 on one veth, tbf 25 Mbit/s each, serve -p on the far end' '
	nd_netns_add "$NSA" && nd_netns_add "$NSB" &&
	ip -n "$NSA" link add ndv type veth peer ndw netns "$NSB" &&
	ip -n "$NSA" link add mv0 link ndv type macvlan mode bridge &&
	ip -n "$NSA" link add mv1 link ndv type macvlan mode bridge &&
	in_a sysctl -qw net.ipv4.conf.all.arp_ignore=1 &&
	ip -n "$NSA" addr add 10.78.1.1/24 dev mv0 &&
	ip -n "$NSA" addr add 10.78.2.1/24 dev mv1 &&
	ip -n "$NSB" addr add 10.78.1.100/24 dev ndw &&
	ip -n "$NSB" addr add 10.78.2.100/24 dev ndw &&
	for l in "$NSA ndv" "$NSA mv0" "$NSA mv1" "$NSA lo" "$NSB ndw" "$NSB lo"; do
		set -- $l; ip -n "$1" link set "$2" up || return 1
	done &&
	in_a tc qdisc add dev mv0 root tbf rate 25mbit burst 16kb latency 50ms &&
	in_a tc qdisc add dev mv1 root tbf rate 25mbit burst 16kb latency 50ms &&
	ip netns exec "$NSB" tc qdisc add dev ndw root tbf rate 60mbit burst 32kb latency 50ms &&
	{ ip netns exec "$NSB" "$ND" serve -p $PORT1-$PORT2 >"$TRASH/serve.log" 2>&1 & } &&
	echo $! >"$TRASH/serve.pid" &&
	nd_atexit "kill \$(cat $TRASH/serve.pid) 2>/dev/null" &&
	make_pci_tree && sleep 0.5 &&
	grep -q "listening on $PORT1-$PORT2" "$TRASH/serve.log"
'

test_expect_success 'a shared cap of 34 Mbit/s under a 40.4 slot: the slot caps the pair (JSON)' '
	in_a tc qdisc add dev ndv root tbf rate 34mbit burst 32kb latency 200ms &&
	test_when_finished "in_a tc qdisc del dev ndv root" &&
	ND_TEST_PCI_SYSROOT=$TRASH/pci ND_TEST_PCIE_SCALE=0.012 \
		in_a "$ND" diagnose mv0,mv1 --peer $PEERS --duration 6 --json >caps.json 2>caps.err;
	test $? = 2 && ! grep -q "Sanitizer\|runtime error" caps.err &&
	check_together caps.json confirmed 32 46 \
		"the x2 2.5GT/s link (trained down from x8 5GT/s) caps the pair at 40.4"
'

test_expect_success 'a slot of 101 Mbit/s above both shapers: the slot carries both (text, --redact)' '
	ND_TEST_PCI_SYSROOT=$TRASH/pci ND_TEST_PCIE_SCALE=0.03 \
		in_a "$ND" diagnose mv0,mv1 --peer $PEERS --duration 6 --json >carries.json 2>carries.err;
	test $? = 2 && ! grep -q "Sanitizer\|runtime error" carries.err &&
	check_together carries.json refuted 40 64 ": the slot carries both" &&
	ND_TEST_PCI_SYSROOT=$TRASH/pci ND_TEST_PCIE_SCALE=0.03 \
		in_a "$ND" diagnose mv0,mv1 --peer $PEERS --duration 6 --redact >carries.txt 2>carries.err;
	test $? = 2 && ! grep -q "Sanitizer\|runtime error" carries.err &&
	grep -q "^Ports together$" carries.txt &&
	grep -q "^    pcie.slot_too_slow: refuted$" carries.txt &&
	grep -q "^    both ports together move .* Mbit/s, .*alone .*: the slot carries both, its ceiling 101.1 on the x2 2.5GT/s link" carries.txt &&
	grep -q "^    mv1 -> [a-z0-9-]*:$PORT2: alone " carries.txt &&
	! grep -q "10\.78\." carries.txt &&
	grep -q "^    slot: device 0000:01:00, x2 2.5GT/s link" carries.txt
'

test_expect_success 'a peer per interface: mismatched counts are one line, exit 3' '
	test_expect_code 3 "$ND" diagnose mv0,mv1 --peer 10.78.1.100 2>err &&
	test "$(wc -l <err)" -eq 1 &&
	grep -q "^nicdoctor: diagnose: 2 interfaces and 1 peer: give one peer per interface" err &&
	test_expect_code 3 "$ND" diagnose mv0 --peer 10.78.1.100,10.78.2.100 2>err &&
	grep -q "^nicdoctor: diagnose: 1 interface and 2 peers: " err &&
	test_expect_code 3 "$ND" diagnose mv0,mv0 --peer a,b 2>err &&
	grep -q "interface .mv0. named twice" err &&
	test_expect_code 3 "$ND" diagnose --peer a,b 2>err &&
	grep -q "^nicdoctor: diagnose: 0 interfaces and 2 peers: " err &&
	test_expect_code 3 "$ND" diagnose mv0,,mv1 --peer a,b,c 2>err &&
	grep -q "^nicdoctor: diagnose: invalid interface list .mv0,,mv1." err
'

test_done
