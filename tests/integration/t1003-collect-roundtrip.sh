#!/bin/sh
test_description='collect then diagnose --sysroot gives the same findings as the live run'
. ./test-lib.sh
test_require_root
test_require_cmd ip ethtool python3

NS=nd-t1003-$$

# findings_of ARGS...: "id severity title" lines of a diagnose --json run.
findings_of() {
	"$@" --json >report.json; rc=$?
	[ $rc -le 2 ] || return 1
	python3 -c '
import json, sys
for f in json.load(open("report.json"))["findings"]:
    print(f["id"], f["severity"], f["title"])
'
}

test_expect_success 'veth with one RX channel and RPS off: snapshot matches live' '
	nd_netns_add "$NS" &&
	ip -n "$NS" link add nda numrxqueues 4 numtxqueues 4 type veth \
		peer ndb numrxqueues 4 numtxqueues 4 &&
	ip -n "$NS" link set nda up && ip -n "$NS" link set ndb up &&
	ip netns exec "$NS" ethtool -L nda rx 1 &&
	ip netns exec "$NS" "$ND" collect nda -o "$TRASH/snap" >/dev/null &&
	test -f "$TRASH/snap/ethtool/nda.json" &&
	findings_of ip netns exec "$NS" "$ND" diagnose --no-traffic nda >live &&
	findings_of "$ND" diagnose nda --sysroot "$TRASH/snap" >offline &&
	grep -q "^queues.single warning" live &&
	# Counters (softnet, interrupts) keep moving between the two runs and
	# titles quote them: severities for all, whole lines for the settings.
	cut -d" " -f1-2 live >live.sev && cut -d" " -f1-2 offline >offline.sev &&
	test_cmp live.sev offline.sev &&
	grep -E "^(queues|rps|offload|mtu)\." live >live.cfg &&
	grep -E "^(queues|rps|offload|mtu)\." offline >offline.cfg &&
	test_cmp live.cfg offline.cfg
'

test_expect_success 'the host default-route interface (a real PCI device): snapshot matches live' '
	ifname=$(ip route show default | sed -n "s/.* dev \([^ ]*\).*/\1/p" | head -n 1) &&
	test -n "$ifname" &&
	"$ND" collect "$ifname" -o "$TRASH/host" >/dev/null &&
	findings_of "$ND" diagnose "$ifname" --sysroot "$TRASH/host" >offline &&
	findings_of "$ND" diagnose --no-traffic "$ifname" >live &&
	# Interrupt counts keep moving on a live host: titles may quote them.
	cut -d" " -f1-2 live >live.sev && cut -d" " -f1-2 offline >offline.sev &&
	test_cmp live.sev offline.sev
'

test_expect_success 'a snapshot without ethtool/IF.json: netlink facts unknown, named' '
	rm -r "$TRASH/snap/ethtool" &&
	"$ND" diagnose nda --sysroot "$TRASH/snap" --json --only queues.single >report.json;
	test $? -le 2 &&
	grep -q "not in snapshot" report.json
'

test_done
