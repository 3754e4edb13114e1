#!/bin/sh
test_description='bench and serve interoperate with Debian iperf3 3.12 on loopback, both roles'
. ./test-lib.sh
test_require_cmd iperf3 python3

PORT=5311

# Both sides' totals in an iperf3-layout -J report agree within 1%.
#
# UDP: what the receiver counts plus what it reports lost is what was sent.
#
# Where the receiving end is a stock iperf3 (named in $2: "forward" for
# sum_sent/sum_received, "reverse" for the bidir reverse pair), it stops
# counting when it sends TEST_END, but the sender counts until it reads
# TEST_END.  In between, the receiver keeps draining (uncounted), so the
# difference may be what was queued between the sockets (TCP: at most
# tcp_wmem[2] + tcp_rmem[2] per stream, 32 MiB of rmem on kernels since
# 6.16; UDP: a datagram per stream) plus what flowed while TEST_END crossed:
# allowed as 50 ms at the measured rate (on a loaded two-core machine the
# control thread may wait a scheduler slice).  UDP datagrams in that tail
# are neither received nor lost: no later one arrives to reveal the gap.
totals_agree() {
	python3 - "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
stock_receives = sys.argv[2].split()
e = d["end"]
streams = d["start"]["test_start"]["num_streams"]
udp = d["start"]["test_start"]["protocol"] == "UDP"
blksize = d["start"]["test_start"]["blksize"]
if udp:
    queue = blksize
else:
    queue = sum(int(open("/proc/sys/net/ipv4/%s" % f).read().split()[2])
                for f in ("tcp_rmem", "tcp_wmem"))
pairs = [("forward", "sum_sent", "sum_received")]
if "sum_sent_bidir_reverse" in e:
    pairs.append(("reverse", "sum_sent_bidir_reverse", "sum_received_bidir_reverse"))
for name, s, r in pairs:
    a, b = e[s]["bytes"], e[r]["bytes"]
    slack = 0.01 * max(a, b)
    if udp:
        b += e[r]["lost_packets"] * blksize
    if name in stock_receives:
        slack = max(slack, streams * queue + 0.05 * e[s]["bits_per_second"] / 8)
    print(name, s, a, r, b, "allowed", int(slack))
    if a <= 0 or b <= 0 or abs(a - b) > slack:
        sys.exit(1)
PY
}

# $1: extra flags. Our client against `iperf3 -s -1`.
our_client() {
	iperf3 -s -p $PORT -1 >iperf3-server.out 2>&1 &
	srv=$!
	test_when_finished "kill $srv 2>/dev/null; wait $srv 2>/dev/null"
	nd_wait_listen $PORT || return 1
	case "$1" in *-R*) stock=;; *) stock=forward;; esac
	timeout 30 "$ND" bench -c 127.0.0.1 -p $PORT -t 1 -J $1 >client.json &&
	wait $srv && totals_agree client.json "$stock"
}

# $1: extra flags. Stock `iperf3 -c` against our server.
their_client() {
	timeout 30 "$ND" serve -p $PORT -1 -q &
	srv=$!
	test_when_finished "kill $srv 2>/dev/null; wait $srv 2>/dev/null"
	nd_wait_listen $PORT || return 1
	case "$1" in *-R*) stock=forward;; *--bidir*) stock=reverse;; *) stock=;; esac
	timeout 30 iperf3 -c 127.0.0.1 -p $PORT -t 1 -J $1 >client.json &&
	wait $srv && totals_agree client.json "$stock"
}

# --bidir runs longer, so the 1% bound holds for the halves ours receive.
for flags in "" "-P 4" "-R" "--bidir -t 3" "-u -b 100M" "-u -R -b 100M" "--bidir -P 2 -u -b 20M"; do
	test_expect_success "our client, iperf3 3.12 server: '${flags:-TCP -P 1}'" "our_client '$flags'"
	test_expect_success "iperf3 3.12 client, our server: '${flags:-TCP -P 1}'" "their_client '$flags'"
done

# $1: flags, then amount_ok's COUNT KIND SLACK.  timeout 20: a UDP -R test
# by count never ended in old builds.
our_client_amount() {
	iperf3 -s -p $PORT -1 >iperf3-server.out 2>&1 &
	srv=$!
	test_when_finished "kill $srv 2>/dev/null; wait $srv 2>/dev/null"
	nd_wait_listen $PORT || return 1
	case "$1" in *-R*) stock=;; *) stock=forward;; esac
	timeout 20 "$ND" bench -c 127.0.0.1 -p $PORT -J $1 >client.json &&
	wait $srv && totals_agree client.json "$stock" && nd_amount_ok client.json $2 $3 $4
}

their_client_amount() {
	timeout 30 "$ND" serve -p $PORT -1 -q &
	srv=$!
	test_when_finished "kill $srv 2>/dev/null; wait $srv 2>/dev/null"
	nd_wait_listen $PORT || return 1
	case "$1" in *-R*) stock=forward;; *--bidir*) stock=reverse;; *) stock=;; esac
	timeout 20 iperf3 -c 127.0.0.1 -p $PORT -J $1 >client.json &&
	wait $srv && totals_agree client.json "$stock" && nd_amount_ok client.json $2 $3 $4
}

# Slack: where the sender stops at the count, a block per stream (TCP
# 128 KiB, UDP one datagram of up to 64 KiB); where a -b 1G paced sender
# runs on until TEST_END lands (iperf3 does; serve does for UDP), one
# interval of its rate: the issue's "ends within one interval of the count"
# (0.25 s was seen exceeded by 34 MB when a stock 3.12 client, on a loaded
# machine, was late to see its count and send TEST_END).  A stock 3.12
# client counts a -k block per read, so it may end short of the count; its
# -k run is checked against the server sending at most the count.
PACED=125000000
for c in "-n 5M -R|5242880 bytes 131072" "-n 100M --bidir|104857600 bytes 131072" \
	"-n 5M -u -b1G|5242880 bytes 65536" "-n 5M -u -b1G -R|5242880 bytes $PACED" \
	"-k 1K -u -b1G -R|1024 blocks $PACED"; do
	flags=${c%%|*} check=${c#*|}
	test_expect_success "our client, iperf3 3.12 server: '$flags' ends at the count" \
		"our_client_amount '$flags' $check"
	test_expect_success "iperf3 3.12 client, our server: '$flags' ends at the count" \
		"their_client_amount '$flags' $check"
done

test_expect_success 'text output against iperf3 has sender and receiver summary lines' '
	iperf3 -s -p $PORT -1 >/dev/null 2>&1 &
	srv=$!
	test_when_finished "kill $srv 2>/dev/null; wait $srv 2>/dev/null"
	nd_wait_listen $PORT || return 1
	timeout 30 "$ND" bench -c 127.0.0.1 -p $PORT -t 1 -P 2 >out.txt &&
	grep -q "^\[SUM\].*sender$" out.txt && grep -q "^\[SUM\].*receiver$" out.txt &&
	grep -q "connected to 127.0.0.1 port $PORT" out.txt
'

test_expect_success 'our server answers a stock client with its output (--get-server-output)' '
	timeout 30 "$ND" serve -p $PORT -1 -q &
	srv=$!
	test_when_finished "kill $srv 2>/dev/null; wait $srv 2>/dev/null"
	nd_wait_listen $PORT || return 1
	timeout 30 iperf3 -c 127.0.0.1 -p $PORT -t 1 --get-server-output >out.txt &&
	grep -q "Server output" out.txt && grep -q "receiver" out.txt
'

test_done
