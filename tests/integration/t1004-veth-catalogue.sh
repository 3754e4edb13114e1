#!/bin/sh
test_description='veth with 4 queues: a tbf shaper and GRO off are found, with the shaping ceiling, and clear when removed'
. ./test-lib.sh
test_require_root
test_require_cmd ip ethtool tc python3

NS=nd-t1004-$$
diag() { ip netns exec "$NS" "$ND" diagnose --no-traffic "$@"; }
has_check() { "$ND" checks | cut -d" " -f1 | grep -qx "$1"; }

# "id severity ceiling_mbps" of the findings named in $@ (report on stdin).
findings_of() {
	python3 -c '
import json, sys
ids = sys.argv[1:]
for f in json.load(sys.stdin)["findings"]:
    if f["id"] in ids:
        c = f["ceiling_mbps"]
        print(f["id"], f["severity"], "none" if c is None else "%g" % c)
' "$@"
}

# The report's ceiling for one source: nd_report_ceiling shaping < report.json
nd_report_ceiling() {
	python3 -c '
import json, sys
for c in json.load(sys.stdin)["ceilings"]:
    if c["source"] == sys.argv[1]:
        print("%g" % c["mbps"])
' "$1"
}

# offload.disabled belongs to the other half of the catalogue: judged only
# when this build has it.
OFFLOAD=
has_check offload.disabled && OFFLOAD=offload.disabled

test_expect_success 'set up a veth pair with 4 queues, GRO on, no shaper' '
	nd_netns_add "$NS" &&
	ip -n "$NS" link add nda numrxqueues 4 numtxqueues 4 type veth \
		peer ndb numrxqueues 4 numtxqueues 4 &&
	ip -n "$NS" link set nda up && ip -n "$NS" link set ndb up &&
	ip netns exec "$NS" ethtool -K nda gro on &&
	ip netns exec "$NS" ethtool nda | grep -q "Speed: 10000Mb/s"
'

test_expect_success 'baseline: qdisc.rate_limit ok (and offload.disabled ok)' '
	{ diag nda --json >report.json; test $? -le 2; } &&
	{ echo "qdisc.rate_limit ok none";
	  test -z "$OFFLOAD" || echo "offload.disabled ok none"; } | sort >expect &&
	findings_of qdisc.rate_limit $OFFLOAD <report.json | sort >actual &&
	test_cmp expect actual &&
	test -z "$(nd_report_ceiling shaping <report.json)"
'

test_expect_success 'tbf 500mbit: qdisc.rate_limit warning with a 500 Mbit/s shaping ceiling' '
	ip netns exec "$NS" tc qdisc add dev nda root tbf rate 500mbit burst 64kb latency 50ms &&
	{ diag nda --json >report.json; test $? -le 2; } &&
	echo "qdisc.rate_limit warning 500" >expect &&
	findings_of qdisc.rate_limit <report.json >actual &&
	test_cmp expect actual &&
	test "$(nd_report_ceiling shaping <report.json)" = 500 &&
	grep -q "tc qdisc del dev nda root" report.json
'

test_expect_success 'the shaper alone makes exit code 1, and the text report names it' '
	test_expect_code 1 diag nda --only qdisc.rate_limit >report.txt &&
	grep -q "qdisc.rate_limit" report.txt && grep -q "500 Mbit/s" report.txt
'

test_expect_success 'GRO off: offload.disabled warning (when registered)' '
	ip netns exec "$NS" ethtool -K nda gro off &&
	{ diag nda --json >report.json; test $? -le 2; } &&
	{ echo "qdisc.rate_limit warning 500";
	  test -z "$OFFLOAD" || echo "offload.disabled warning none"; } | sort >expect &&
	findings_of qdisc.rate_limit $OFFLOAD <report.json | sort >actual &&
	test_cmp expect actual
'

test_expect_success 'shaper removed, GRO back on: both findings ok again' '
	ip netns exec "$NS" tc qdisc del dev nda root &&
	ip netns exec "$NS" ethtool -K nda gro on &&
	{ diag nda --json >report.json; test $? -le 2; } &&
	{ echo "qdisc.rate_limit ok none";
	  test -z "$OFFLOAD" || echo "offload.disabled ok none"; } | sort >expect &&
	findings_of qdisc.rate_limit $OFFLOAD <report.json | sort >actual &&
	test_cmp expect actual &&
	test -z "$(nd_report_ceiling shaping <report.json)"
'

test_expect_success 'the host checks run on a live veth: none says unknown for softnet or qdisc' '
	findings_of softnet.dropped softnet.squeezed qdisc.rate_limit <report.json >actual &&
	test "$(wc -l <actual)" = 3 &&
	! grep -q " unknown " actual
'

test_done
