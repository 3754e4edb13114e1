#!/bin/sh
test_description='bench and serve as iperf3 3.21 drop-ins: its -J keys, text layout, --json-stream, flags, the iperf3 command'
. ./test-lib.sh
test_require_cmd python3 timeout

NEW=${IPERF3_NEW:-$SRC_DIR/build-peers/iperf-3.21/bin/iperf3}
[ -x "$NEW" ] || test_skip_all="no iperf3 3.21 at '$NEW' (make peers)"
PORT=$((27700 + $$ % 50))  # below the ephemeral range, no other script
KEYS="python3 $TEST_DIR/json-keys.py"

# A 3.21 server for one test: new_server [FLAGS].  Every test uses the
# same port, so a test's server is waited for when it ends: one left
# listening (killed, not yet gone) made the next server's bind fail.
new_server() {
	"$NEW" -s -1 -p $PORT "$@" >server.out 2>&1 &
	srv=$!
	test_when_finished "kill $srv 2>/dev/null; wait $srv 2>/dev/null"
	nd_wait_listen $PORT
}

our_server() {
	"$ND" serve -1 -p $PORT "$@" >server.out 2>&1 &
	srv=$!
	test_when_finished "kill $srv 2>/dev/null; wait $srv 2>/dev/null"
	nd_wait_listen $PORT
}

# bench -J has every key 3.21's client -J has: client_keys "FLAGS"
client_keys() {
	new_server && timeout 20 "$NEW" -c 127.0.0.1 -p $PORT -t 1 -J $1 >theirs.json &&
	wait $srv && new_server &&
	timeout 20 "$ND" bench -c 127.0.0.1 -p $PORT -t 1 -J $1 >ours.json &&
	wait $srv && $KEYS theirs.json ours.json
}

# serve -J has every key 3.21's -s -J has, for the same 3.21 client.
server_keys() {
	new_server -J && timeout 20 "$NEW" -c 127.0.0.1 -p $PORT -t 1 $1 >/dev/null &&
	wait $srv && cp server.out theirs.json && our_server -J &&
	timeout 20 "$NEW" -c 127.0.0.1 -p $PORT -t 1 $1 >/dev/null &&
	wait $srv && $KEYS theirs.json server.out
}

for flags in "" "-u" "-R" "--bidir" "-u -R"; do
	test_expect_success "bench -J ${flags:-TCP} has 3.21's -J keys" "client_keys '$flags'"
done
for flags in "" "-u" "-R" "--bidir"; do
	test_expect_success "serve -J ${flags:-TCP} has 3.21's -s -J keys" "server_keys '$flags'"
done

# Text in 3.21's layout: the same lines once numbers (with the padding
# their width takes) and adaptive units are masked; the banner naming the
# program and the cookie differ.
# With -R, 3.21 heads the intervals with or without "Retr  Cwnd" from run
# to run (its sender_has_retransmits races the results exchange): masked.
shape() {
	case "$2" in *-R*) rtr='/^\[ ID\]/s/ +Retr  Cwnd$//';; *) rtr=;; esac
	sed -E -e "$rtr" -e '/^(iperf 3|nicdoctor [0-9])/d; /Cookie:/d; /^Setting UDP block size/d' \
	       -e 's/ +[0-9]+(\.[0-9]+)?/ N/g; s/[0-9]+(\.[0-9]+)?/N/g' \
	       -e 's/[KMGT]?(Bytes|bits)/U\1/g; s/ +$//' "$1"
}

layout() {
	new_server && timeout 20 "$NEW" -c 127.0.0.1 -p $PORT $1 >theirs.txt &&
	wait $srv && new_server &&
	timeout 20 "$ND" iperf3 -c 127.0.0.1 -p $PORT $1 >ours.txt &&
	wait $srv && shape theirs.txt "$1" >theirs.shape && shape ours.txt "$1" >ours.shape &&
	test_cmp theirs.shape ours.shape
}

for flags in "-V -t 1" "-f K -R -t 1" "-T job1 --timestamps=%H:%M:%S -t 1" "-P 2 -t 2" \
	"-V -u -t 1" "--bidir -t 1" "-u -P 2 --bidir -t 1"; do
	test_expect_success "text layout of 3.21 for '$flags'" "layout '$flags'"
done

test_expect_success '--json-stream: 3.21 event lines, the same events and keys' '
	new_server && timeout 20 "$NEW" -c 127.0.0.1 -p $PORT -t 2 --json-stream >theirs.jl &&
	wait $srv && new_server &&
	timeout 20 "$ND" bench -c 127.0.0.1 -p $PORT -t 2 --json-stream >ours.jl &&
	wait $srv &&
	python3 - theirs.jl ours.jl <<-PY
	import json, sys
	def events(name):
	    return [json.loads(l) for l in open(name)]
	t, o = events(sys.argv[1]), events(sys.argv[2])
	names = lambda ev: [e["event"] for e in ev if e["event"] != "interval"]
	assert names(t) == names(o) == ["start", "end"], (names(t), names(o))
	assert any(e["event"] == "interval" for e in o)
	for name in ("start", "interval", "end"):
	    a = next(e["data"] for e in t if e["event"] == name)
	    b = next(e["data"] for e in o if e["event"] == name)
	    missing = set(a) - set(b)
	    assert not missing, (name, missing)
	PY
'

test_expect_success '--json-stream --json-stream-full-output: the events, then the whole -J object' '
	new_server &&
	timeout 20 "$ND" bench -c 127.0.0.1 -p $PORT -t 1 --json-stream --json-stream-full-output >out &&
	wait $srv && grep -q "^{\"event\":\"end\"" out &&
	sed -n "/^{\$/,\$p" out >full.json && python3 -m json.tool full.json >/dev/null
'

test_expect_success '--json-stream-full-output alone changes nothing, as in 3.21: text' '
	new_server && timeout 20 "$ND" bench -c 127.0.0.1 -p $PORT -t 1 --json-stream-full-output >out &&
	wait $srv && grep -q "receiver$" out && ! grep -q "^{" out
'

test_expect_success '-F sends a file that 3.21 -s -F stores, whole' '
	head -c 3000000 /dev/urandom >send.bin &&
	new_server -F recv.bin && timeout 20 "$ND" bench -c 127.0.0.1 -p $PORT -F send.bin >out &&
	wait $srv && cmp send.bin recv.bin
'

test_expect_success '-F -R stores what 3.21 -s -F sends' '
	head -c 2000000 /dev/urandom >src.bin &&
	new_server -F src.bin && timeout 20 "$ND" bench -c 127.0.0.1 -p $PORT -t 1 -R -F got.bin &&
	wait $srv && cmp src.bin got.bin
'

test_expect_success '--cport, --dscp, --fq-rate, --extra-data reach 3.21 as its own client sends them' '
	new_server -J &&
	timeout 20 "$ND" bench -c 127.0.0.1 -p $PORT -t 1 --cport 45677 --dscp ef --fq-rate 500M \
		--extra-data hello --pacing-timer 2000 --repeating-payload --snd-timeout 5000 \
		--cntl-ka=30/5/3 --udp-counters-64bit -J >ours.json &&
	wait $srv &&
	python3 - server.out ours.json <<-PY
	import json, sys
	s, c = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
	assert s["start"]["connected"][0]["remote_port"] == 45677, s["start"]["connected"]
	assert s["start"]["test_start"]["tos"] == 0xb8, s["start"]["test_start"]
	assert s["start"]["test_start"]["fqrate"] == 500000000
	assert s["extra_data"] == "hello" and c["extra_data"] == "hello"
	bits = c["end"]["sum_sent"]["bits_per_second"]
	assert bits < 600e6, bits
	PY
'

test_expect_success '--bind-dev lo, -B 127.0.0.1%lo and -c 127.0.0.1%lo bind to lo' '
	new_server && timeout 20 "$ND" bench -c 127.0.0.1 -p $PORT -t 1 --bind-dev lo >/dev/null &&
	wait $srv && new_server &&
	timeout 20 "$ND" bench -c 127.0.0.1%lo -p $PORT -t 1 -B 127.0.0.1%lo >/dev/null &&
	wait $srv
'

test_expect_success '--bind-dev to a device that does not exist fails (exit 4)' '
	new_server &&
	test_expect_code 4 timeout 20 "$ND" bench -c 127.0.0.1 -p $PORT -t 1 --bind-dev nd-none0
'

test_expect_success '--logfile takes all output; -I writes the PID file while it runs' '
	new_server &&
	{ "$ND" bench -c 127.0.0.1 -p $PORT -t 2 --logfile run.log -I run.pid >stdout.txt & } &&
	pid=$! && sleep 1 && test "$(cat run.pid)" = "$pid" && wait $pid && wait $srv &&
	test ! -s stdout.txt && grep -q "receiver$" run.log && test ! -e run.pid
'

test_expect_success '-m runs MPTCP where the kernel has it, else is refused with why (exit 4)' '
	new_server &&
	if [ "$(cat /proc/sys/net/mptcp/enabled 2>/dev/null)" = 1 ]; then
		timeout 20 "$ND" bench -c 127.0.0.1 -p $PORT -t 1 -m >out && wait $srv
	else
		test_expect_code 4 "$ND" bench -c 127.0.0.1 -p $PORT -t 1 -m 2>err &&
		grep -q "MPTCP" err
	fi
'

test_expect_success '-d prints 3.21s debug lines: states, parameters, results; --dont-fragment -L -u --gsro run' '
	new_server && timeout 20 "$ND" bench -c 127.0.0.1 -p $PORT -t 1 -d 2>err >/dev/null &&
	wait $srv && grep -qx "send_parameters:" err &&
	grep -qx "State change: client received and changed State to 10-CREATE_STREAMS" err &&
	grep -qx "State change: State set to 4-TEST_END" err &&
	grep -qx "get_results:" err && grep -q "\"congestion_used\":" err && new_server &&
	timeout 20 "$ND" bench -c 127.0.0.1 -p $PORT -t 1 -u --dont-fragment --gsro -L 7 >/dev/null &&
	wait $srv
'

test_expect_success 'serve -V -f m --bind-dev lo: 3.21 -V lines, Mbits' '
	our_server -V -f m --bind-dev lo && timeout 20 "$NEW" -c 127.0.0.1 -p $PORT -t 1 >/dev/null &&
	wait $srv && grep -q "^Starting Test: protocol: TCP" server.out &&
	grep -q "^snd_tcp_congestion " server.out &&
	grep -q "Mbits/sec  *receiver$" server.out
'

test_expect_success 'nicdoctor iperf3 -c and -s: the whole iperf3 command line' '
	"$ND" iperf3 -s -1 -p $PORT >srv.txt 2>&1 &
	srv=$! && test_when_finished "kill $srv 2>/dev/null; wait $srv 2>/dev/null" && nd_wait_listen $PORT &&
	timeout 20 "$ND" iperf3 -c 127.0.0.1 -p $PORT -t 1 >out && wait $srv &&
	grep -q "^iperf Done.$" out && grep -q "receiver$" srv.txt
'

test_expect_success 'the binary run as iperf3 (a link) is the drop-in; 3.21 talks to it' '
	ln -s "$ND" iperf3 &&
	{ ./iperf3 -s -1 -p $PORT >srv.txt 2>&1 & } &&
	srv=$! && test_when_finished "kill $srv 2>/dev/null; wait $srv 2>/dev/null" && nd_wait_listen $PORT &&
	timeout 20 "$NEW" -c 127.0.0.1 -p $PORT -t 1 -J >c.json && wait $srv &&
	new_server && timeout 20 ./iperf3 -c 127.0.0.1 -p $PORT -t 1 -J >o.json && wait $srv &&
	python3 -m json.tool o.json >/dev/null && ./iperf3 -v | grep -q "iperf 3.21 compatible"
'

test_expect_success 'usage errors keep exit 3: no role, unknown flag, bad value, both roles, SCTP' '
	test_expect_code 3 "$ND" iperf3 -p 5201 &&
	test_expect_code 3 "$ND" iperf3 -c 127.0.0.1 --no-such-flag &&
	test_expect_code 3 "$ND" iperf3 -c 127.0.0.1 -f x &&
	test_expect_code 3 "$ND" iperf3 -c 127.0.0.1 --dscp nosuch &&
	test_expect_code 3 "$ND" iperf3 -c 127.0.0.1 --cntl-ka=5/5/5 &&
	test_expect_code 3 "$ND" iperf3 -s -c 127.0.0.1 &&
	test_expect_code 3 "$ND" iperf3 -c 127.0.0.1 --sctp 2>err &&
	grep -q "SCTP is not supported" err &&
	test_expect_code 3 "$ND" iperf3 -c 127.0.0.1 -u -F /etc/hostname 2>err &&
	grep -q "UDP" err && test_expect_code 0 "$ND" iperf3 -v && test_expect_code 0 "$ND" iperf3 -h
'

test_done
