#!/bin/sh
test_description='stacked devices followed down: a bridge over a shaped veth port confirms qdisc.rate_limit via the port, a vxlan over a shaped veth (its wire less 50 B per frame), a macvlan, the JSON chain, the default route'
. ./test-lib.sh
test_require_root
test_require_cmd ip ethtool tc python3

NSA=nd-t4007a-$$ NSB=nd-t4007b-$$ NSC=nd-t4007c-$$ NSD=nd-t4007d-$$
PORT=5271 VPORT=5272
in_a() { ip netns exec "$NSA" "$@"; }
in_c() { ip netns exec "$NSC" "$@"; }
# "id verdict via" of the headline's bottleneck: bneck < report.json
bneck() {
	python3 -c '
import json, sys
b = json.load(sys.stdin)["throughput"]["bottleneck"]
print(b and "%s %s %s" % (b["id"], b["verdict"], b.get("via")))'
}

test_expect_success 'a bridge br0 over the veth nda, its far end serving' '
	nd_netns_add "$NSA" && nd_netns_add "$NSB" &&
	ip -n "$NSA" link add nda type veth peer ndb netns "$NSB" &&
	ip -n "$NSA" link add br0 type bridge &&
	ip -n "$NSA" link set nda master br0 &&
	ip -n "$NSA" addr add 10.77.47.1/24 dev br0 &&
	ip -n "$NSB" addr add 10.77.47.2/24 dev ndb &&
	ip -n "$NSA" link set nda up && ip -n "$NSA" link set br0 up &&
	ip -n "$NSB" link set ndb up && ip -n "$NSA" link set lo up &&
	ip -n "$NSA" route add default via 10.77.47.2 dev br0 &&
	{ ip netns exec "$NSB" "$ND" serve -p $PORT >"$TRASH/serve.log" 2>&1 & } &&
	echo $! >"$TRASH/serve.pid" &&
	nd_atexit "kill \$(cat $TRASH/serve.pid) 2>/dev/null" &&
	sleep 0.5
'

test_expect_success 'without traffic: the JSON chain names the port, its kind and its findings' '
	{ in_a "$ND" diagnose br0 --sample 0 --json >report.json; test $? -le 2; } &&
	python3 - <<-\PY
	import json
	d = json.load(open("report.json"))
	s = d["stack"]
	assert s["kind"] == "bridge", s
	assert [l["name"] for l in s["lowers"]] == ["nda"], s
	l = s["lowers"][0]
	assert l["upper"] == "br0" and l["depth"] == 1 and l["kind"] == "veth", l
	assert l["driver"] == "veth" and l["pci"] is None, l
	assert s["via"] == "nda" and s["encap_bytes"] == 0, s
	assert "members" not in d, d.keys()
	# what a bridge has none of is its port'"'"'s to judge: no RPS fix for br0
	f = {x["id"]: x for x in d["findings"]}
	for i in ("rps.off_single_queue", "queues.single", "ring.small", "irq.concentrated"):
	    assert f[i]["not_applicable"] and f[i]["fix"] is None, f[i]
	assert not f["qdisc.rate_limit"]["not_applicable"]
	PY
'

test_expect_success 'no interface named: the default route device (br0) and its port' '
	{ in_a "$ND" diagnose --sample 0 --json >report.json; test $? -le 2; } &&
	python3 -c "import json; d=json.load(open(\"report.json\")); \
		assert d[\"interface\"][\"name\"] == \"br0\", d[\"interface\"]; \
		assert [l[\"name\"] for l in d[\"stack\"][\"lowers\"]] == [\"nda\"]"
'

test_expect_success 'collect br0 records the port: diagnose --sysroot follows it' '
	in_a "$ND" collect br0 -o "$TRASH/snap" >out &&
	test -e "$TRASH/snap/ethtool/nda.json" &&
	{ "$ND" diagnose --sysroot "$TRASH/snap" br0 --json >report.json; test $? -le 2; } &&
	python3 -c "import json; s=json.load(open(\"report.json\"))[\"stack\"]; \
		assert s[\"kind\"] == \"bridge\" and s[\"via\"] == \"nda\", s; \
		assert [l[\"name\"] for l in s[\"lowers\"]] == [\"nda\"], s"
'

test_expect_success 'collect --script: its ip -d link text gives the chain offline' '
	(cd / && "$ND" collect --script) >collect.sh &&
	(cd "$TRASH" && in_a env TMPDIR="$TRASH" sh "$PWD/collect.sh") >out 2>err &&
	tar=$(sed -n "s/^nicdoctor-collect: wrote //p" out) &&
	test -s "$tar" &&
	{ "$ND" diagnose --sysroot "$tar" br0 --json >report.json; test $? -le 2; } &&
	python3 -c "import json; s=json.load(open(\"report.json\"))[\"stack\"]; \
		assert s[\"kind\"] == \"bridge\", s; \
		assert [l[\"name\"] for l in s[\"lowers\"]] == [\"nda\"], s"
'

# The rate (200 Mbit/s) stays far under what this host moves over veth and
# vxlan (thousands of Mbit/s even when loaded), so the shaper binds.  As in
# t4001: a short queue (latency 20 ms) and runs of 2 s (--duration 6), so
# what tbf still holds when a run ends adds little to its rate.
test_expect_success 'tbf on the port: qdisc.rate_limit confirmed through the bridge, via nda' '
	in_a tc qdisc add dev nda root tbf rate 200mbit burst 1000000 latency 20ms &&
	test_when_finished "in_a tc qdisc del dev nda root" &&
	{ in_a "$ND" diagnose br0 --peer 10.77.47.2:$PORT --duration 6 --json >report.json
	  test $? -le 2; } &&
	test "$(bneck <report.json)" = "qdisc.rate_limit confirmed nda" &&
	python3 - <<-\PY &&
	import json
	d = json.load(open("report.json"))
	f = {x["id"]: x for x in d["stack"]["lowers"][0]["findings"]}
	assert f["qdisc.rate_limit"]["verdict"] == "confirmed", f
	t = d["throughput"]
	# the shaper holds it (a loaded host may measure less, never much more)
	assert t["measured_mbps"] <= 240, t["measured_mbps"]
	PY
	{ in_a "$ND" diagnose br0 --peer 10.77.47.2:$PORT --duration 6 >report.txt
	  test $? -le 2; } &&
	grep -q "^Bottleneck: qdisc.rate_limit via nda, confirmed: " report.txt &&
	grep -A3 "^To fix it:" report.txt | grep -q "tc qdisc show dev nda" &&
	grep -q "^  br0 -> nda (veth): warning; " report.txt &&
	! awk "length > 80" report.txt | grep -q .
'

test_expect_success 'a vxlan over the veth ndc, shaped: confirmed via ndc; its wire less 50 B a frame' '
	nd_netns_add "$NSC" && nd_netns_add "$NSD" &&
	ip -n "$NSC" link add ndc type veth peer ndd netns "$NSD" &&
	ip -n "$NSC" addr add 10.77.48.1/24 dev ndc &&
	ip -n "$NSD" addr add 10.77.48.2/24 dev ndd &&
	ip -n "$NSC" link set ndc up && ip -n "$NSD" link set ndd up &&
	ip -n "$NSC" link set lo up &&
	ip -n "$NSC" link add vx0 type vxlan id 42 dev ndc remote 10.77.48.2 dstport 4789 &&
	ip -n "$NSD" link add vx0 type vxlan id 42 dev ndd remote 10.77.48.1 dstport 4789 &&
	ip -n "$NSC" addr add 10.88.48.1/24 dev vx0 &&
	ip -n "$NSD" addr add 10.88.48.2/24 dev vx0 &&
	ip -n "$NSC" link set vx0 up && ip -n "$NSD" link set vx0 up &&
	{ ip netns exec "$NSD" "$ND" serve -p $VPORT >"$TRASH/serve2.log" 2>&1 & } &&
	echo $! >"$TRASH/serve2.pid" &&
	nd_atexit "kill \$(cat $TRASH/serve2.pid) 2>/dev/null" &&
	sleep 0.5 &&
	in_c tc qdisc add dev ndc root tbf rate 200mbit burst 1000000 latency 20ms &&
	{ in_c "$ND" diagnose vx0 --peer 10.88.48.2:$VPORT --duration 6 --json >report.json
	  test $? -le 2; } &&
	test "$(bneck <report.json)" = "qdisc.rate_limit confirmed ndc" &&
	python3 - <<-\PY
	import json
	d = json.load(open("report.json"))
	s = d["stack"]
	assert s["kind"] == "vxlan" and s["via"] == "ndc" and s["encap_bytes"] == 50, s
	# 10000 x (1450 - 52) / (1450 + 50 + 38), not the 9395 of MTU 1450 alone
	w = d["throughput"]["wire_ceiling_mbps"]
	assert abs(w - 9089.7) < 0.2, w
	PY
'

# The kernel sets a new vxlan 50 below its dev, but does not follow the
# dev's MTU when it is lowered later: the mismatch a host ends up with.
test_expect_success 'the vxlan'"'"'s lower lowered to MTU 1400: mtu.stack_mismatch, the fix on vx0' '
	in_c ip link set ndc mtu 1400 &&
	test_when_finished "in_c ip link set ndc mtu 1500" &&
	{ in_c "$ND" diagnose vx0 --sample 0 --json >report.json; test $? -le 2; } &&
	test "$(nd_severity mtu.stack_mismatch <report.json)" = warning &&
	python3 - <<-\PY
	import json
	f = [x for x in json.load(open("report.json"))["findings"] if x["id"] == "mtu.stack_mismatch"][0]
	e = f["evidence"]
	assert (e["mtu"], e["lower"], e["lower_mtu"], e["needs_mtu"]) == (1450, "ndc", 1400, 1500), e
	assert f["fix"]["commands"][0] == "ip link set dev vx0 mtu 1350", f["fix"]
	PY
'

test_expect_success 'a vxlan without dev: its underlay is the route to its remote; over IPv6 70 B' '
	ip -n "$NSC" link add vx1 type vxlan id 43 remote 10.77.48.2 dstport 4790 &&
	ip -n "$NSC" link add vx6 type vxlan id 44 dev ndc remote 2001:db8::2 dstport 4791 &&
	{ in_c "$ND" diagnose vx1 --sample 0 --json >report.json; test $? -le 2; } &&
	python3 -c "import json; s=json.load(open(\"report.json\"))[\"stack\"]; \
		assert s[\"via\"] == \"ndc\" and s[\"encap_bytes\"] == 50, s" &&
	{ in_c "$ND" diagnose vx6 --sample 0 --json >report.json; test $? -le 2; } &&
	python3 -c "import json; s=json.load(open(\"report.json\"))[\"stack\"]; \
		assert s[\"via\"] == \"ndc\" and s[\"encap_bytes\"] == 70, s"
'

test_expect_success 'a macvlan over ndc: its lower in the chain, the wire the lower'"'"'s' '
	ip -n "$NSC" link add mv0 link ndc type macvlan mode bridge &&
	ip -n "$NSC" link set mv0 up &&
	{ in_c "$ND" diagnose mv0 --sample 0 --json >report.json; test $? -le 2; } &&
	python3 -c "import json; s=json.load(open(\"report.json\"))[\"stack\"]; \
		assert s[\"kind\"] == \"macvlan\" and s[\"via\"] == \"ndc\", s; \
		assert [l[\"name\"] for l in s[\"lowers\"]] == [\"ndc\"], s"
'

test_expect_success 'a veth (no lowers): no stack object' '
	{ in_c "$ND" diagnose ndc --sample 0 --json >report.json; test $? -le 2; } &&
	python3 -c "import json; assert \"stack\" not in json.load(open(\"report.json\"))"
'

test_done
