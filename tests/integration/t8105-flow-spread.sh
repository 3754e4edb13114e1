#!/bin/sh
test_description='bench --spread on a 4-queue veth with an mq root: -P 4 re-dialed until its flows cover the 4 TX queues (against serve and a stock iperf3 -s), checked with tc -s class show; --spread=count says what the counters show; --cport FIRST-LAST'
. ./test-lib.sh
test_require_root
test_require_cmd ip tc iperf3 python3

NSA=nd-t8105a-$$ NSB=nd-t8105b-$$
NET=10.81.5
in_a() { ip netns exec "$NSA" "$@"; }

# tc_counts FILE: "queue packets bytes" per mq class of nda, read by tc.
tc_counts() {
	in_a tc -s class show dev nda | awk '
		$1 == "class" && $2 == "mq" { split($3, h, ":"); q = h[2] - 1 }
		$1 == "Sent" { print "tx-" q, $4, $2 }' >"$1"
}

# check_spread JSON BEFORE AFTER WANT: bench's per-queue numbers match tc's
# over the run (tc also counts the set-up and the results, bench only the
# test), and WANT is "all" (each queue carried a flow's share, and bench
# says "4 flows on 4 of 4") or "agree" (bench says what tc's numbers say).
check_spread() {
	python3 - "$@" <<-\PY
	import json, sys
	doc, before, after, want = sys.argv[1:5]
	def counts(path):
	    return {l.split()[0]: (int(l.split()[1]), int(l.split()[2])) for l in open(path)}
	a, b = counts(before), counts(after)
	tc = {q: (b[q][0] - a[q][0], b[q][1] - a[q][1]) for q in a}
	sp = json.load(open(doc))["nicdoctor"]["flow_spread"]
	tx = sp["tx"]
	print(tx["summary"], {q: tc[q][0] for q in sorted(tc)}, "redials", sp["redials"])
	assert tx["counted"] and tx["counter_source"] == "mq class", tx
	ours = {q["queue"]: (q["packets"], q["bytes"]) for q in tx["per_queue"]}
	assert sorted(ours) == sorted(tc), (ours, tc)
	for q in tc:
	    # Set-up and results add some packets outside the test, never fewer.
	    assert 0 <= tc[q][0] - ours[q][0] <= max(60, tc[q][0] // 50), (q, tc[q], ours[q])
	total = sum(p for p, _ in tc.values())
	share = max(10, total // 4 // 4)
	carrying = sum(1 for p, _ in tc.values() if p >= share)
	assert tx["queues_carrying"] == carrying, (tx, tc)
	assert tx["summary"].startswith("4 flows on %d of 4 TX queues" % carrying), tx
	if carrying < 4:
	    low = min(tc, key=lambda q: tc[q][0])
	    assert ": %s carried" % low in tx["summary"] or tc[low][0] == ours[low][0] == 0, tx
	if want.startswith("all"):
	    assert carrying == 4 and tx["placed"], (tx, tc)
	    assert sorted(s["queue_at_connect"] for s in sp["streams"]) == sorted(tc), sp
	    ports = [s["local_port"] for s in sp["streams"]]
	    inside = [5900 <= p <= 5919 for p in ports]
	    assert len(set(ports)) == 4 and all(inside) == (want == "all"), ports
	    assert sp["dials"] == 4 + sp["redials"], sp
	PY
}

test_expect_success 'a 4-queue veth with an mq root, serve and a stock iperf3 -s on the far side' '
	nd_veth_mq_pair "$NSA" "$NSB" "$NET" 5900 &&
	in_a sysctl -qw net.ipv6.conf.all.disable_ipv6=1 &&
	ip netns exec "$NSB" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 &&
	{ ip netns exec "$NSB" iperf3 -s -p 5901 >iperf3.log 2>&1 & } &&
	nd_atexit "kill $! 2>/dev/null" &&
	sleep 0.5 && tc_counts c0 && test $(wc -l <c0) = 4
'

for target in "serve 5900" "iperf3 5901"; do
	set -- $target
	test_expect_success "bench -P 4 --spread against $1: 4 flows on 4 TX queues, by tc and by the report" '
		for try in 1 2; do
			tc_counts before.$1 &&
			in_a "$ND" bench -c $NET.2 -p '"$2"' -P 4 -t 2 -b 20M --spread \
				--cport 5900-5919 -J >spread.$1.json &&
			tc_counts after.$1 &&
			check_spread spread.$1.json before.$1 after.$1 all && break
			test $try = 1 || return 1
		done &&
		! grep -i "error" iperf3.log
	'
done

test_expect_success 'bench -P 4 --spread without --cport: re-dials from ephemeral ports, 4 flows on 4 TX queues' '
	for try in 1 2; do
		tc_counts before.eph &&
		in_a "$ND" bench -c $NET.2 -p 5900 -P 4 -t 2 -b 20M --spread -J >eph.json &&
		tc_counts after.eph &&
		check_spread eph.json before.eph after.eph all-ephemeral && return 0
	done; return 1
'

test_expect_success 'the text report: the four queues and the sentence, from the same counters' '
	tc_counts before.text &&
	in_a "$ND" bench -c $NET.2 -p 5900 -P 4 -t 2 -b 20M --spread --cport 5900-5919 >spread.txt &&
	tc_counts after.text &&
	sed -n "/^Flow spread/,/ TX queues\$/p" spread.txt >got &&
	cat got &&
	grep -q "^TX queues of nda (mq class counters, during the test):\$" got &&
	grep -q "^  queue       packets           bytes  flows\$" got &&
	test $(grep -c "^  tx-[0-3]  *[0-9][0-9]*  *[0-9][0-9]*      1\$" got) = 4 &&
	grep -qx "4 flows on 4 of 4 TX queues" got
'

test_expect_success 'bench -P 4 --spread=count: the kernel places the flows, the report says what tc counted' '
	for run in 1 2 3; do
		tc_counts before.count &&
		in_a "$ND" bench -c $NET.2 -p 5901 -P 4 -t 2 -b 20M --spread=count -J >count.json &&
		tc_counts after.count &&
		check_spread count.json before.count after.count agree &&
		python3 -c "import json; s = json.load(open(\"count.json\"))[\"nicdoctor\"][\"flow_spread\"]; \
			assert s[\"redials\"] == 0 and not s[\"tx\"][\"placed\"], s; \
			assert s[\"tx\"][\"why_not_placed\"].startswith(\"--spread=count\"), s" || return 1
	done
'

test_expect_success '--cport FIRST-LAST without --spread: stream i leaves from FIRST+i, as iperf3 with one port' '
	in_a "$ND" bench -c $NET.2 -p 5900 -P 3 -t 1 -b 10M --cport 5910-5919 -J >range.json &&
	python3 -c "import json; c = json.load(open(\"range.json\"))[\"start\"][\"connected\"]; \
		p = [x[\"local_port\"] for x in c]; print(p); assert p == [5910, 5911, 5912], p" &&
	in_a "$ND" bench -c $NET.2 -p 5900 -P 2 -t 1 -b 10M --cport 5915 -J >one.json &&
	python3 -c "import json; c = json.load(open(\"one.json\"))[\"start\"][\"connected\"]; \
		p = [x[\"local_port\"] for x in c]; print(p); assert p == [5915, 5916], p"
'

test_expect_success 'ranges too small, a single --cport with --spread, bad modes: exit 3, one line' '
	while IFS="|" read -r args says; do
		test_expect_code 3 in_a "$ND" bench -c $NET.2 -p 5900 -t 1 $args 2>err || return 1
		cat err && test $(wc -l <err) = 1 && grep -q -- "$says" err || return 1
	done <<-\EOF
	--cport 5900-5902 -P 4|--cport 5900-5902 has 3 ports for 4 streams
	--cport 5900-5902 -P 2 --bidir|--cport 5900-5902 has 3 ports for 4 streams
	--spread --cport 5900 -P 2|give --cport a range (FIRST-LAST) or none
	--spread --cport 5900-5902 -P 4|--cport 5900-5902 has 3 ports for 4 streams
	--spread=all|invalid value .all. for --spread: place or count
	--cport 5902-5900|invalid value .5902-5900. for --cport
	--cport 5900-70000|invalid value .5900-70000. for --cport
	--spread -c 10.0.0.1,10.0.0.2|--spread takes one target
	EOF
'

test_done
