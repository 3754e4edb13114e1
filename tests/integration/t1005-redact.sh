#!/bin/sh
test_description='--redact: no MAC address, IP address or host name survives in any format'
. ./test-lib.sh
test_require_root
test_require_cmd ip

NS=nd-t1005-$$

test_expect_success 'set up a veth pair with addresses' '
	nd_netns_add "$NS" &&
	ip -n "$NS" link add nda type veth peer ndb &&
	ip -n "$NS" link set nda address 02:11:22:33:44:55 &&
	ip -n "$NS" addr add 10.251.0.1/30 dev nda &&
	ip -n "$NS" addr add fd00:251::1/64 dev nda &&
	ip -n "$NS" link set nda up && ip -n "$NS" link set ndb up
'

test_expect_success 'without --redact the MAC and host name are in the report' '
	ip netns exec "$NS" "$ND" diagnose --no-traffic nda --json >plain.json; test $? -le 2 &&
	grep -q "02:11:22:33:44:55" plain.json &&
	grep -q "\"$(hostname)\"" plain.json
'

for format in text markdown json prometheus; do
	test_expect_success "--redact --format $format: nothing identifying left" '
		ip netns exec "$NS" "$ND" diagnose --no-traffic nda --redact --format $format >out; test $? -le 2 &&
		test -s out &&
		! grep -i "02:11:22:33:44:55" out &&
		! grep "10\.251\.0\.1" out &&
		! grep -i "fd00:251::1" out &&
		! grep -w "$(hostname)" out
	'
done

test_done
