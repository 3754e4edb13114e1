#!/bin/sh
test_description='bench with several targets at once: two veth pairs shaped to 200 and 400 Mbit/s, serve -p RANGE behind one and a stock iperf3 -s behind the other; each target has its own figure (under its shaper, well above the other shaper), the sum is the sum'
. ./test-lib.sh
test_require_root
test_require_cmd ip tc iperf3 python3

NSA=nd-t8101a-$$ NSB=nd-t8101b-$$ NSC=nd-t8101c-$$
SPORT=5801 SLAST=5802 IPORT=5811
in_a() { ip netns exec "$NSA" "$@"; }

# check_targets FILE RATE1 RATE2 ...: a -J report of several targets, each
# target's receiver its own: no more than its shaper allows (10% for the
# bucket) and well above the next lower shaper's share (60% of its own: a
# loaded machine, and the sanitizer build, hold a 2 s run at 290-355 of
# 400), the sum exactly the sum of them.
check_targets() {
	python3 - "$@" <<-\PY
	import json, sys
	d = json.load(open(sys.argv[1]))
	rates = [float(r) for r in sys.argv[2:]]
	assert set(d) >= {"targets", "sum", "nicdoctor"}, list(d)
	got = [t["end"]["sum_received"]["bits_per_second"] / 1e6 for t in d["targets"]]
	print("per target", got, "want", rates, "sum", d["sum"])
	assert len(got) == len(rates)
	for g, r in zip(got, rates):
	    assert 0.60 * r <= g <= 1.10 * r, (g, r)
	s = d["sum"]["received"]["bits_per_second"] / 1e6
	assert abs(s - sum(got)) <= 0.01 * sum(got), (s, sum(got))
	b = sum(t["end"]["sum_received"]["bytes"] for t in d["targets"])
	assert d["sum"]["received"]["bytes"] == b, (d["sum"]["received"]["bytes"], b)
	assert all(t["ok"] for t in d["nicdoctor"]["targets"]), d["nicdoctor"]
	PY
}

test_expect_success 'two veth pairs, tbf 200 and 400 Mbit/s, serve -p range and a stock iperf3 -s' '
	nd_netns_add "$NSA" && nd_netns_add "$NSB" && nd_netns_add "$NSC" &&
	ip -n "$NSA" link add nda1 type veth peer ndb1 netns "$NSB" &&
	ip -n "$NSA" link add nda2 type veth peer ndc2 netns "$NSC" &&
	ip -n "$NSA" addr add 10.77.81.1/24 dev nda1 &&
	ip -n "$NSB" addr add 10.77.81.2/24 dev ndb1 &&
	ip -n "$NSA" addr add 10.77.82.1/24 dev nda2 &&
	ip -n "$NSC" addr add 10.77.82.2/24 dev ndc2 &&
	for l in "$NSA nda1" "$NSA nda2" "$NSB ndb1" "$NSC ndc2" "$NSA lo" "$NSB lo" "$NSC lo"; do
		set -- $l; ip -n "$1" link set "$2" up || return 1
	done &&
	in_a tc qdisc add dev nda1 root tbf rate 200mbit burst 64kb latency 20ms &&
	in_a tc qdisc add dev nda2 root tbf rate 400mbit burst 64kb latency 20ms &&
	{ ip netns exec "$NSB" "$ND" serve -p $SPORT-$SLAST >"$TRASH/serve.log" 2>&1 & } &&
	echo $! >"$TRASH/serve.pid" &&
	nd_atexit "kill \$(cat $TRASH/serve.pid) 2>/dev/null" &&
	{ ip netns exec "$NSC" iperf3 -s -p $IPORT >"$TRASH/iperf3.log" 2>&1 & } &&
	echo $! >"$TRASH/iperf3.pid" &&
	nd_atexit "kill \$(cat $TRASH/iperf3.pid) 2>/dev/null" &&
	sleep 0.5 &&
	grep -q "listening on $SPORT-$SLAST" "$TRASH/serve.log"
'

# A loaded machine can hold a 2 s run far below its shaper: measured again.
test_expect_success 'bench -c A:PORT,B:PORT -J: each target at its shaper, the sum at the sum' '
	for try in 1 2 3; do
		in_a "$ND" bench -c 10.77.81.2:$SPORT,10.77.82.2:$IPORT -t 2 -J >multi.json &&
		check_targets multi.json 200 400 && break
		test $try -lt 3 || return 1
		sleep 1
	done
'

test_expect_success 'text: [tN] lines per target, a line per target and a [SUM] at the end' '
	in_a "$ND" bench -c 10.77.81.2:$SPORT,10.77.82.2:$IPORT -t 2 >multi.txt &&
	grep -q "^\[t1\] Connecting to host 10.77.81.2, port $SPORT" multi.txt &&
	grep -q "^\[t2\] Connecting to host 10.77.82.2, port $IPORT" multi.txt &&
	grep -q "^\[t2\] .*receiver$" multi.txt &&
	grep -q "^2 targets at the same time:" multi.txt &&
	grep -q "^\[SUM\] 2 targets: " multi.txt &&
	! grep -v "^\[t[12]\] \|^\[SUM\] \|^- - \|^2 targets" multi.txt
'

# The two share one shaper: together no more than it allows, each a part.
check_shared() {
	python3 - <<-\PY
	import json
	d = json.load(open("range.json"))
	ports = [t["port"] for t in d["nicdoctor"]["targets"]]
	assert ports == [5801, 5802], ports
	s = d["sum"]["received"]["bits_per_second"] / 1e6
	print("sum", s)
	assert 0.60 * 200 <= s <= 1.10 * 200, s
	assert all(t["end"]["sum_received"]["bits_per_second"] > 40e6 for t in d["targets"])
	PY
}

test_expect_success 'a port range with one host: both ports of serve at once share the 200 Mbit/s' '
	for try in 1 2 3; do
		in_a "$ND" bench -c 10.77.81.2 -p $SPORT-$SLAST -t 2 -J >range.json &&
		check_shared && break
		test $try -lt 3 || return 1
		sleep 1
	done
'

test_expect_success 'one target as HOST:PORT: the output stays iperf3 layout, no targets list' '
	in_a "$ND" bench -c 10.77.82.2:$IPORT -t 1 -J >one.json &&
	python3 -c "import json; d = json.load(open(\"one.json\")); \
		assert \"targets\" not in d and \"end\" in d and \"start\" in d, list(d)"
'

test_expect_success '-B ADDR1,ADDR2: each target its own source address, in order' '
	# A second address on the first link: only -B makes t1 use it.
	ip -n "$NSA" addr add 10.77.81.3/24 dev nda1 &&
	in_a "$ND" bench -c 10.77.81.2:$SPORT,10.77.82.2:$IPORT -t 1 \
		-B 10.77.81.3,10.77.82.1 -J >bind.json &&
	python3 -c "import json; d = json.load(open(\"bind.json\")); \
		l = [t[\"start\"][\"connected\"][0][\"local_host\"] for t in d[\"targets\"]]; \
		assert l == [\"10.77.81.3\", \"10.77.82.1\"], l" &&
	test_expect_code 3 in_a "$ND" bench -c 10.77.81.2:$SPORT,10.77.82.2:$IPORT -t 1 \
		-B 10.77.81.1,10.77.82.1,10.77.82.1 2>err &&
	grep -qx "nicdoctor: bench: invalid value .*: one address per target (2), comma-separated" err
'

test_expect_success 'a target that is not there: the others still report, exit 4, one line naming it' '
	test_expect_code 4 in_a "$ND" bench -c 10.77.82.2:$IPORT,10.77.81.2:5899 -t 1 -J \
		>fail.json 2>err &&
	grep -qx "nicdoctor: bench: target t2: cannot connect to .10.77.81.2. port 5899: .*" err &&
	test $(wc -l <err) = 1 &&
	python3 -c "import json; d = json.load(open(\"fail.json\")); \
		t = d[\"nicdoctor\"][\"targets\"]; assert t[0][\"ok\"] and not t[1][\"ok\"], t; \
		assert d[\"sum\"][\"received\"][\"bytes\"] > 0"
'

test_done
