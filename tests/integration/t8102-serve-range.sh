#!/bin/sh
test_description='serve -p FIRST-LAST: one serve listens on every port of the range; four stock iperf3 clients at once each get their own result; UDP on a port after the first; bad ranges exit 3'
. ./test-lib.sh
test_require_cmd iperf3 python3

FIRST=5821 LAST=5824

# result FILE: the receiver's bits/s of a stock iperf3 -J run, or its error.
result() {
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); \
		print(d.get("error") or int(d["end"]["sum_received"]["bits_per_second"]))' "$1"
}

test_expect_success 'serve -p 5821-5824 listens on all four ports, one test per port at once' '
	{ "$ND" serve -p $FIRST-$LAST >serve.log 2>&1 & } &&
	echo $! >serve.pid &&
	nd_atexit "kill \$(cat $TRASH/serve.pid) 2>/dev/null" &&
	sleep 0.5 &&
	grep -q "Server listening on $FIRST-$LAST (nicdoctor, up to 4 tests at once)" serve.log &&
	for p in 5821 5822 5823 5824; do
		ss -Hltn "sport = :$p" | grep -q LISTEN || return 1
	done
'

# Each client asks for its own rate (-b i*100M) on its own port.  What serve
# controls is that every test completes with its own client's stream: no
# result above its client's pacing (a result above it would be another
# client's bytes), and each one well above the next lower client's rate.
# A loaded machine (a SAN build beside other builds) can starve a client
# below its target, so a run that falls short is tried again, up to 3 times.
four_clients() {
	for i in 1 2 3 4; do
		{ iperf3 -c 127.0.0.1 -p 582$i -t 2 -b ${i}00M -J >c$i.json 2>&1 & } &&
		echo $! >c$i.pid || return 1
	done &&
	for i in 1 2 3 4; do wait $(cat c$i.pid) || return 1; done &&
	for i in 1 2 3 4; do
		r=$(result c$i.json) && echo "client $i: $r" &&
		python3 -c "import sys; r = float(sys.argv[1]); w = float(sys.argv[2]) * 1e8; \
			assert w - 0.5e8 < r <= 1.1 * w, (r, w)" "$r" $i || return 1
	done
}

test_expect_success 'four stock iperf3 clients at once, one per port: all four complete with their own rates' '
	four_clients || four_clients || four_clients
'

test_expect_success 'a UDP test on the last port binds that port' '
	iperf3 -c 127.0.0.1 -p $LAST -u -t 1 -b 20M -J >udp.json &&
	python3 -c "import json; d = json.load(open(\"udp.json\")); \
		assert \"error\" not in d and d[\"end\"][\"sum\"][\"bytes\"] > 1000000, d.get(\"error\")"
'

test_expect_success 'serve --max-tests 1 -p RANGE: the second client at once is told busy' '
	{ "$ND" serve -p 5826-5827 --max-tests 1 >serve1.log 2>&1 & } &&
	echo $! >serve1.pid &&
	nd_atexit "kill \$(cat $TRASH/serve1.pid) 2>/dev/null" &&
	sleep 0.5 &&
	grep -q "listening on 5826-5827 (nicdoctor, up to 1 test at once)" serve1.log &&
	{ iperf3 -c 127.0.0.1 -p 5826 -t 2 -b 10M -J >b1.json 2>&1 & } &&
	echo $! >b1.pid &&
	sleep 0.7 &&
	{ iperf3 -c 127.0.0.1 -p 5827 -t 1 -J >b2.json 2>&1; true; } &&
	wait $(cat b1.pid) &&
	test "$(result b2.json)" = "the server is busy running a test. try again later" &&
	result b1.json | grep -q "^[0-9]"
'

test_expect_success 'bad ranges exit 3 with one line' '
	for bad in 5824-5821 0 70000 5821-70000 5821,5823 5821-5900 x; do
		test_expect_code 3 "$ND" serve -p $bad 2>err || return 1
		test $(wc -l <err) = 1 && cat err || return 1
	done &&
	"$ND" serve -p 5824-5821 2>&1 | grep -q "the first port is above the last" &&
	"$ND" serve -p 5821-5900 2>&1 | grep -q "too many ports in .5821-5900.: at most 64"
'

test_done
