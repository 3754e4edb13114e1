#!/bin/sh
test_description='veth with 4 queues: one RX channel and RPS off are found, and clear when restored'
. ./test-lib.sh
test_require_root
test_require_cmd ip ethtool python3

NS=nd-t1001-$$
diag() { ip netns exec "$NS" "$ND" diagnose --no-traffic "$@"; }

test_expect_success 'set up a veth pair with 4 RX/TX queues in a namespace' '
	nd_netns_add "$NS" &&
	ip -n "$NS" link add nda numrxqueues 4 numtxqueues 4 type veth \
		peer ndb numrxqueues 4 numtxqueues 4 &&
	ip -n "$NS" link set nda up && ip -n "$NS" link set ndb up &&
	ip netns exec "$NS" ethtool -l nda | grep -q "^RX:[[:space:]]*4"
'

test_expect_success 'RX channels cut to 1 and RPS cleared: queues.single and rps.off_single_queue' '
	ip netns exec "$NS" ethtool -L nda rx 1 &&
	ip netns exec "$NS" sh -c "echo 0 > /sys/class/net/nda/queues/rx-0/rps_cpus" &&
	{ diag nda --json >report.json; test $? -le 2; } &&
	test "$(nd_severity queues.single <report.json)" = warning &&
	test "$(nd_severity rps.off_single_queue <report.json)" = warning &&
	grep -q "ethtool -L nda rx 2" report.json &&
	grep -q "rx-0/rps_cpus" report.json
'

test_expect_success 'exit code says warnings' '
	test_expect_code 1 diag nda --only queues.single,rps.off_single_queue >/dev/null
'

test_expect_success 'text and markdown reports name both findings' '
	diag nda >report.txt; diag nda --format markdown >report.md;
	grep -q "queues.single" report.txt && grep -q "rps.off_single_queue" report.txt &&
	grep -q "queues.single" report.md && grep -q "rps.off_single_queue" report.md
'

test_expect_success 'RPS mask set: rps.off_single_queue goes to ok, queues.single stays' '
	ip netns exec "$NS" sh -c "echo 3 > /sys/class/net/nda/queues/rx-0/rps_cpus" &&
	{ diag nda --json >report.json; test $? -le 2; } &&
	test "$(nd_severity rps.off_single_queue <report.json)" = ok &&
	test "$(nd_severity queues.single <report.json)" = warning
'

test_expect_success 'RX channels restored to 4: both findings ok' '
	ip netns exec "$NS" ethtool -L nda rx 4 &&
	{ diag nda --json >report.json; test $? -le 2; } &&
	test "$(nd_severity queues.single <report.json)" = ok &&
	test "$(nd_severity rps.off_single_queue <report.json)" = ok
'

test_expect_success 'every registered check appears in the report' '
	"$ND" checks | cut -d" " -f1 | sort >expect &&
	nd_findings <report.json | cut -d" " -f1 | sort >actual &&
	test_cmp expect actual
'

test_done
