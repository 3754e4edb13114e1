#!/bin/sh
test_description='diagnose IF --peer: traffic that would not leave through IF (lo, another port, no route) is refused before any traffic with one line naming the path; --allow-route measures it labelled as that path'"'"'s; a bridge over IF is its path'
. ./test-lib.sh
test_require_root
test_require_cmd ip tc python3

NSA=nd-t4004a-$$ NSB=nd-t4004b-$$
PORT=5281 LPORT=5282 PORT2=5283
in_a() { ip netns exec "$NSA" "$@"; }
in_b() { ip netns exec "$NSB" "$@"; }

# route KEY < report.json: a field of throughput.route
route() { python3 -c 'import json,sys; r=json.load(sys.stdin)["throughput"]["route"]; print(r[sys.argv[1]])' "$1"; }
# Print "id verdict" of every finding that is not untested.
verdicts() {
	python3 -c '
import json, sys
for f in json.load(sys.stdin)["findings"]:
    if f["verdict"] != "untested":
        print(f["id"], f["verdict"])
'
}
# refused RC ERRFILE OUTFILE: exit RC within 5 s (the plan alone takes
# 20 s), nothing on stdout, one line on stderr.
refused() {
	want=$1 err=$2 out=$3; shift 3
	start=$(date +%s)
	test_expect_code "$want" "$@" >"$out" 2>"$err" &&
	test $(( $(date +%s) - start )) -le 5 &&
	test ! -s "$out" && test "$(wc -l <"$err")" = 1 && cat "$err"
}

test_expect_success 'two namespaces over veth, nda shaped, two serves on the far end, one on lo' '
	nd_netns_add "$NSA" && nd_netns_add "$NSB" &&
	ip -n "$NSA" link add nda type veth peer ndb netns "$NSB" &&
	ip -n "$NSA" addr add 10.77.44.1/24 dev nda &&
	ip -n "$NSB" addr add 10.77.44.2/24 dev ndb &&
	ip -n "$NSA" link set nda up && ip -n "$NSB" link set ndb up &&
	ip -n "$NSA" link set lo up && ip -n "$NSB" link set lo up &&
	in_a tc qdisc add dev nda root tbf rate 200mbit burst 250000 latency 20ms &&
	{ in_b "$ND" serve -p $PORT >"$TRASH/serve.log" 2>&1 & } &&
	nd_atexit "kill $! 2>/dev/null" &&
	{ in_b "$ND" serve -p $PORT2 >"$TRASH/serve2.log" 2>&1 & } &&
	nd_atexit "kill $! 2>/dev/null" &&
	{ in_a "$ND" serve -p $LPORT >"$TRASH/serve-lo.log" 2>&1 & } &&
	nd_atexit "kill $! 2>/dev/null" &&
	sleep 0.5
'

test_expect_success 'a peer over lo: refused, exit 3, one line naming lo and --allow-route' '
	refused 3 err out in_a "$ND" diagnose nda --peer 127.0.0.1:$LPORT &&
	echo "nicdoctor: diagnose: 127.0.0.1 is reached through lo, not nda: diagnose lo, or --allow-route to measure over lo anyway" >want &&
	test_cmp want err &&
	# the host'"'"'s own address on nda goes over lo too
	refused 3 err out in_a "$ND" diagnose nda --peer 10.77.44.1:$LPORT --json &&
	grep -q "^nicdoctor: diagnose: 10.77.44.1 is reached through lo, not nda: " err &&
	# lo itself is its own path
	{ in_a "$ND" diagnose lo --peer 127.0.0.1:$LPORT --duration 1 --json >lo.json
	  test $? -le 2; } &&
	test "$(route dev <lo.json)" = lo && test "$(route matches <lo.json)" = True
'

test_expect_success '--allow-route over lo: measured, labelled as lo'"'"'s, none of nda'"'"'s suspects judged' '
	{ in_a "$ND" diagnose nda --peer 127.0.0.1:$LPORT --allow-route --duration 2 --json \
		>report.json; test $? -le 2; } &&
	test "$(nd_severity qdisc.rate_limit <report.json)" = warning &&
	test -z "$(verdicts <report.json)" &&
	python3 -c "import json; t=json.load(open(\"report.json\"))[\"throughput\"]; \
		assert t[\"route\"] == {\"dst\": \"127.0.0.1\", \"dev\": \"lo\", \"via\": None, \
			\"src\": \"127.0.0.1\", \"matches\": False}, t[\"route\"]; \
		assert t[\"measured_mbps\"] > 0 and t[\"wire_ceiling_mbps\"] is None, t; \
		assert t[\"bottleneck\"] is None and not t[\"at_wire\"], t" &&
	{ in_a "$ND" diagnose nda --peer 127.0.0.1:$LPORT --allow-route --duration 2 \
		>report.txt; test $? -le 2; } &&
	grep -q "^Measured [0-9.]* Mbit/s over lo, not nda (--allow-route): nda.s findings" \
		report.txt &&
	! grep -q "^Bottleneck" report.txt &&
	{ in_a "$ND" diagnose nda --peer 127.0.0.1:$LPORT --allow-route --duration 2 \
		--format markdown >report.md; test $? -le 2; } &&
	grep -q "^\*\*Measured [0-9.]* Mbit/s over lo, not nda\*\* (--allow-route)" report.md &&
	# --trial-fixes would measure nda'"'"'s fixes over lo
	refused 3 err out in_a "$ND" diagnose nda --peer 127.0.0.1:$LPORT --allow-route \
		--trial-fixes &&
	grep -q "^nicdoctor: diagnose: 127.0.0.1 is reached through lo, not nda: --trial-fixes " err
'

test_expect_success 'the route through nda: accepted, route.matches, the shaper judged' '
	{ in_a "$ND" diagnose nda --peer 10.77.44.2:$PORT --duration 3 --json >report.json
	  test $? -le 2; } &&
	python3 -c "import json; t=json.load(open(\"report.json\"))[\"throughput\"]; \
		assert t[\"route\"] == {\"dst\": \"10.77.44.2\", \"dev\": \"nda\", \"via\": None, \
			\"src\": \"10.77.44.1\", \"matches\": True}, t[\"route\"]" &&
	verdicts <report.json | grep "^qdisc.rate_limit "
'

test_expect_success 'a more specific route through another port: refused naming it; that port works' '
	ip -n "$NSA" link add nda2 type veth peer ndb2 netns "$NSB" &&
	ip -n "$NSA" addr add 10.77.45.1/24 dev nda2 &&
	ip -n "$NSB" addr add 10.77.45.2/24 dev ndb2 &&
	ip -n "$NSA" link set nda2 up && ip -n "$NSB" link set ndb2 up &&
	ip -n "$NSA" route add 10.77.44.2/32 via 10.77.45.2 dev nda2 &&
	refused 3 err out in_a "$ND" diagnose nda --peer 10.77.44.2:$PORT &&
	echo "nicdoctor: diagnose: 10.77.44.2 is reached through nda2 via 10.77.45.2, not nda: diagnose nda2, or --allow-route to measure over nda2 anyway" >want &&
	test_cmp want err &&
	# several ports: each peer against its own port, before any traffic
	refused 3 err out in_a "$ND" diagnose nda,nda2 --peer 10.77.44.2:$PORT,10.77.45.2:$PORT &&
	grep -q "^nicdoctor: diagnose: 10.77.44.2 is reached through nda2 via 10.77.45.2, not nda: " err &&
	# --allow-route: nda'"'"'s plan ran over nda2, so it has no alone figure of
	# its own (the together run is bound to each port); nda2'"'"'s is its own
	{ in_a "$ND" diagnose nda,nda2 --peer 10.77.44.2:$PORT,10.77.45.2:$PORT2 --allow-route \
		--duration 2 --json >ports.json; test $? -le 2; } &&
	python3 -c "import json; d=json.load(open(\"ports.json\")); \
		assert d[\"throughput\"][\"route\"][\"dev\"] == \"nda2\", d[\"throughput\"]; \
		assert d[\"throughput\"][\"route\"][\"matches\"] is False; \
		o=d[\"other_ports\"][0][\"throughput\"][\"route\"]; \
		assert o[\"dev\"] == \"nda2\" and o[\"matches\"] is True, o; \
		p=d[\"together\"][\"ports\"]; \
		assert p[0][\"interface\"] == \"nda\" and p[0][\"alone_mbps\"] is None, p; \
		assert p[1][\"alone_mbps\"] > 0, p" &&
	{ in_a "$ND" diagnose nda2 --peer 10.77.44.2:$PORT --duration 2 --json >report.json
	  test $? -le 2; } &&
	python3 -c "import json; t=json.load(open(\"report.json\"))[\"throughput\"]; \
		assert t[\"route\"] == {\"dst\": \"10.77.44.2\", \"dev\": \"nda2\", \
			\"via\": \"10.77.45.2\", \"src\": \"10.77.45.1\", \"matches\": True}, t; \
		assert t[\"measured_mbps\"] > 0, t"
'

test_expect_success 'an IPv6 link-local peer: its %scope is the path' '
	refused 3 err out in_a "$ND" diagnose nda --peer "[fe80::2%nda2]:$PORT" &&
	grep -q "^nicdoctor: diagnose: fe80::2%nda2 is reached through nda2, not nda: " err &&
	refused 3 err out in_a "$ND" diagnose nda2 --peer "[fe80::2%nda]:$PORT" &&
	grep -q "^nicdoctor: diagnose: fe80::2%nda is reached through nda, not nda2: " err
'

test_expect_success 'no route to the peer: exit 4, one line with the kernel'"'"'s reason' '
	refused 4 err out in_a "$ND" diagnose nda --peer 10.99.0.1 &&
	echo "nicdoctor: diagnose: no route to 10.99.0.1: Network is unreachable" >want &&
	test_cmp want err
'

test_expect_success 'a bridge over nde with the address on the bridge: nde'"'"'s path, "via ndbr over nde"' '
	ip -n "$NSA" link add ndbr type bridge &&
	ip -n "$NSA" link add nde type veth peer ndf netns "$NSB" &&
	ip -n "$NSA" link set nde master ndbr &&
	ip -n "$NSA" addr add 10.77.46.1/24 dev ndbr &&
	ip -n "$NSB" addr add 10.77.46.2/24 dev ndf &&
	ip -n "$NSA" link set ndbr up && ip -n "$NSA" link set nde up &&
	ip -n "$NSB" link set ndf up &&
	{ in_a "$ND" diagnose nde --peer 10.77.46.2:$PORT --duration 2 --json >report.json
	  test $? -le 2; } &&
	test "$(route dev <report.json)" = ndbr && test "$(route matches <report.json)" = True &&
	{ in_a "$ND" diagnose nde --peer 10.77.46.2:$PORT --duration 2 >report.txt
	  test $? -le 2; } &&
	grep "^Measured [0-9.]* .* via ndbr over nde" report.txt
'

test_expect_success '--allow-route without --peer is a usage error' '
	test_expect_code 3 "$ND" diagnose lo --allow-route 2>err &&
	grep -qx "nicdoctor: diagnose: --allow-route needs --peer" err
'

test_done
