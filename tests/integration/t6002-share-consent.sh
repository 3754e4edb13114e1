#!/bin/sh
test_description='serve shares its host report only with consent: off by default; --share to its own host; --share-from CIDR (IPv4, IPv6) across the network; with authentication only to an authenticated client; a declined client is told why and how to enable it'
. ./test-lib.sh
test_require_root
test_require_cmd ip python3 openssl sha256sum

NSA=nd-t6002a-$$ NSB=nd-t6002b-$$
# Ports inside the far namespace, one server each.
P_DEF=5351 P_SHARE=5352 P_OUT=5353 P_V6=5354 P_CONF=5355 P_AUTH=5356 P_AUTH_OFF=5357
in_a() { ip netns exec "$NSA" "$@"; }
in_b() { ip netns exec "$NSB" "$@"; }
# diag NS IF PEER: a short diagnose --json from namespace NS to PEER.
diag_rc() {
	ns=$1 ifname=$2 peer=$3; shift 3
	ip netns exec "$ns" "$ND" diagnose "$ifname" --peer "$peer" --duration 3 --json "$@"
}
diag() {
	diag_rc "$@"
	test $? -le 2
}

serve_bg() {
	port=$1; shift
	{ ip netns exec "$NSB" "$ND" serve -p "$port" -q --max-tests 2 "$@" \
		>"$TRASH/serve-$port.log" 2>&1 & } &&
	nd_atexit "kill $! 2>/dev/null"
}

# peer FIELD < report.json
peer() {
	python3 -c '
import json, sys
v = json.load(sys.stdin)["peer"]
for k in sys.argv[1].split("."):
    v = v.get(k) if isinstance(v, dict) else None
print(v)' "$1"
}

test_expect_success 'two namespaces over a veth pair, IPv4 and IPv6; keys; the servers' '
	nd_netns_add "$NSA" && nd_netns_add "$NSB" &&
	ip -n "$NSA" link add nda type veth peer ndb netns "$NSB" &&
	ip -n "$NSA" addr add 10.77.62.1/24 dev nda &&
	ip -n "$NSB" addr add 10.77.62.2/24 dev ndb &&
	ip -n "$NSA" addr add fd77:62::1/64 dev nda nodad &&
	ip -n "$NSB" addr add fd77:62::2/64 dev ndb nodad &&
	for ns in "$NSA" "$NSB"; do ip -n "$ns" link set lo up || return 1; done &&
	ip -n "$NSA" link set nda up && ip -n "$NSB" link set ndb up &&
	openssl genrsa -out priv.pem 2048 2>/dev/null &&
	openssl rsa -in priv.pem -pubout -out pub.pem 2>/dev/null &&
	printf "alice,%s\n" "$(printf "{%s}%s" alice secret | sha256sum | cut -d" " -f1)" >users.csv &&
	echo "share = yes" >serve.conf &&
	AUTH="--rsa-private-key-path $TRASH/priv.pem --authorized-users-path $TRASH/users.csv" &&
	serve_bg $P_DEF &&
	serve_bg $P_SHARE --share &&
	serve_bg $P_OUT --share --share-from 10.99.0.0/16,fd99::/16 &&
	serve_bg $P_V6 --share --share-from fd77:62::/64 &&
	serve_bg $P_CONF --config "$TRASH/serve.conf" &&
	serve_bg $P_AUTH --share $AUTH &&
	serve_bg $P_AUTH_OFF $AUTH &&
	sleep 0.5
'

test_expect_success 'by default nothing is shared, not even on its own host; the report says how to enable it' '
	diag "$NSA" nda 10.77.62.2:$P_DEF >r.json &&
	test "$(peer status <r.json)" = declined &&
	test "$(peer report <r.json)" = None &&
	peer reason <r.json | grep "runs without --share (start it with .nicdoctor serve --share." &&
	diag "$NSB" lo 127.0.0.1:$P_DEF >r.json &&
	test "$(peer status <r.json)" = declined &&
	{ ip netns exec "$NSA" "$ND" diagnose nda --peer 10.77.62.2:$P_DEF --duration 3 >r.txt
	  test $? -le 2; } && grep "^Far end (10.77.62.2:$P_DEF): the far end declined to share its report" r.txt
'

test_expect_success '--share: a client on its own host is served, over loopback and its own address' '
	diag "$NSB" lo 127.0.0.1:$P_SHARE >r.json &&
	test "$(peer status <r.json)" = shared &&
	test "$(peer report.interface.name <r.json)" = lo &&
	diag "$NSB" lo 10.77.62.2:$P_SHARE >r.json &&
	test "$(peer status <r.json)" = shared &&
	test "$(peer report.interface.name <r.json)" = ndb &&
	diag "$NSB" lo "[::1]:$P_SHARE" >r.json &&
	test "$(peer status <r.json)" = shared &&
	# an IPv6 peer printed as --peer takes it
	test "$(peer host <r.json)" = "[::1]:$P_SHARE" &&
	python3 -c "import json; print(json.load(open(\"r.json\"))[\"throughput\"][\"peer\"])" >tp &&
	test "$(cat tp)" = "[::1]:$P_SHARE"
'

test_expect_success '--share: a client on another host is declined, told about --share-from' '
	diag "$NSA" nda 10.77.62.2:$P_SHARE >r.json &&
	test "$(peer status <r.json)" = declined &&
	peer reason <r.json | grep "on its own host or on its --share-from networks, and this client is on neither" &&
	test "$(peer cpus_forward <r.json)" = "[]"
'

test_expect_success '--share-from outside the client'"'"'s address: declined over IPv4 and IPv6' '
	diag "$NSA" nda 10.77.62.2:$P_OUT >r.json &&
	test "$(peer status <r.json)" = declined &&
	diag "$NSA" nda "[fd77:62::2]:$P_OUT" >r.json &&
	test "$(peer status <r.json)" = declined
'

test_expect_success '--share-from an IPv6 network: its clients are served, IPv4 from the same host is not' '
	diag "$NSA" nda "[fd77:62::2]:$P_V6" >r.json &&
	test "$(peer status <r.json)" = shared &&
	test "$(peer report.interface.name <r.json)" = ndb &&
	diag "$NSA" nda 10.77.62.2:$P_V6 >r.json &&
	test "$(peer status <r.json)" = declined
'

test_expect_success '"share = yes" in the config file is --share' '
	diag "$NSB" lo 127.0.0.1:$P_CONF >r.json &&
	test "$(peer status <r.json)" = shared &&
	diag "$NSA" nda 10.77.62.2:$P_CONF >r.json &&
	test "$(peer status <r.json)" = declined
'

test_expect_success 'with authentication: an authenticated client on another host is served' '
	IPERF3_PASSWORD=secret diag "$NSA" nda 10.77.62.2:$P_AUTH --username alice \
		--rsa-public-key-path pub.pem >r.json &&
	test "$(peer status <r.json)" = shared &&
	test "$(peer report.interface.name <r.json)" = ndb
'

test_expect_success 'with authentication: an unauthenticated client is refused, even on the same host' '
	test_expect_code 4 diag_rc "$NSA" nda 10.77.62.2:$P_AUTH >r.json 2>err &&
	test "$(peer status <r.json)" = failed &&
	test "$(peer report <r.json)" = None &&
	grep "test authorization failed" err &&
	test_expect_code 4 diag_rc "$NSB" lo 127.0.0.1:$P_AUTH >r.json 2>err &&
	test "$(peer report <r.json)" = None &&
	IPERF3_PASSWORD=wrong test_expect_code 4 diag_rc "$NSA" nda 10.77.62.2:$P_AUTH \
		--username alice --rsa-public-key-path pub.pem >r.json 2>err &&
	grep "test authorization failed (wrong user, password or public key" err &&
	test "$(peer report <r.json)" = None
'

test_expect_success 'authentication without --share: an authenticated client is declined' '
	IPERF3_PASSWORD=secret diag "$NSA" nda 10.77.62.2:$P_AUTH_OFF --username alice \
		--rsa-public-key-path pub.pem >r.json &&
	test "$(peer status <r.json)" = declined
'

test_expect_success 'usage: a bad --share-from is one line and exit 3' '
	for bad in 10.0.0.0/33 fd00::/129 nonsense 10.0.0.0/ ","; do
		test_expect_code 3 "$ND" serve -p 5359 --share --share-from "$bad" 2>err &&
		test "$(wc -l <err)" -eq 1 && grep -e "--share-from" err || return 1
	done
'

test_done
