#!/bin/sh
test_description='serve against hostile clients: each followed by a stock iperf3 test, memory and descriptors bounded'
. ./test-lib.sh
test_require_cmd python3 iperf3

PORT=27301  # below the ephemeral range: no client socket can hold it
HOSTILE="$TEST_DIR/t5000-hostile.py"

# One server for the whole file: what one hostile client does must not
# hurt the next client, and what it costs must not accumulate.
"$ND" serve -p $PORT --idle-timeout 2 >serve.log 2>&1 &
srv=$!
nd_atexit "kill $srv 2>/dev/null; wait $srv 2>/dev/null"
sleep 0.5

rss_kb() { awk '/^VmRSS:/ { print $2 }' /proc/$srv/status; }
fds() { ls /proc/$srv/fd | wc -l; }

# A stock iperf3 test must complete (on PORT, or the port given).  A hostile connection the server is
# still dropping may make it answer busy for a moment: retry briefly.
iperf3_ok() {
	port=${1:-$PORT}
	for try in 1 2 3 4 5 6; do
		timeout 30 iperf3 -c 127.0.0.1 -p $port -t 1 >iperf3.out 2>&1 && return 0
		grep -q busy iperf3.out || break
		sleep 0.5
	done
	cat iperf3.out
	return 1
}

hostile() {
	timeout 60 python3 "$HOSTILE" client $PORT "$1" && kill -0 $srv && iperf3_ok
}

suite_again() {
	for case in random cookie-silence len0 len8193 lenmax wrong-types minus1 parallel \
		wrong-cookie burst; do
		hostile $case >hostile.out 2>&1 || { echo "case $case:"; cat hostile.out; return 1; }
	done
}

# A config file that is not a regular file is refused at once, in one
# line, as a usage error; /dev/zero used to spin and a FIFO to block.
refused_in_one_line() {
	test_expect_code 3 timeout 5 "$ND" serve -p $PORT --config "$1" 2>conf.err &&
	cat conf.err &&
	test "$(wc -l <conf.err)" = 1 &&
	grep -q "cannot read .$1.: not a regular file" conf.err
}

test_expect_success 'serve --config /dev/zero and a FIFO: one line, exit 3, at once' '
	mkfifo fifo.conf &&
	refused_in_one_line /dev/zero &&
	refused_in_one_line fifo.conf
'

test_expect_success 'a config line over 255 characters counts as one line' '
	{ printf "share = no%300s# padded\n" "" &&
	  printf "#%s share = yes\n" "$(printf "%300s" "" | tr " " x)" &&
	  echo "bogus = 1"; } >long.conf &&
	test_expect_code 3 timeout 5 "$ND" serve -p $PORT --config long.conf 2>conf.err &&
	cat conf.err &&
	grep -q "long.conf:3: unknown setting .bogus = 1." conf.err
'

test_expect_success 'server is up and a stock iperf3 completes (warm-up)' '
	kill -0 $srv && iperf3_ok && iperf3_ok
'
rss0=$(rss_kb) fds0=$(fds)
say "after warm-up: VmRSS ${rss0} kB, $fds0 descriptors"

for case in random cookie-silence partial-cookie len0 len8193 lenmax badjson wrong-types \
	minus1 parallel wrong-cookie burst; do
	test_expect_success "hostile client '$case', then iperf3" "hostile $case"
done

test_expect_success 'a client during a running test is answered busy (0xff)' '
	{ timeout 30 iperf3 -c 127.0.0.1 -p $PORT -t 3 >running.out 2>&1 & run=$!; } &&
	sleep 1 &&
	timeout 20 python3 "$HOSTILE" client $PORT busy &&
	wait $run &&
	iperf3_ok
'

test_expect_success 'a cookie and then silence is dropped within the idle timeout (2 s)' '
	start=$(date +%s) &&
	timeout 20 python3 "$HOSTILE" client $PORT cookie-silence >silence.out &&
	cat silence.out &&
	sec=$(sed -n "s/.*gave up after \([0-9.]*\) s/\1/p" silence.out) &&
	python3 -c "import sys; s = float(sys.argv[1]); sys.exit(not 1.5 <= s <= 4)" "$sec"
'

# A second server whose receive timeout (2 s) is shorter than its control
# timeout (30 s): a client silent in any state is dropped within the
# receive timeout, and the slot is free for the next client.
RPORT=27302
"$ND" serve -p $RPORT --rcv-timeout 2000 --idle-timeout 30 >rcv.log 2>&1 &
rsrv=$!
nd_atexit "kill $rsrv 2>/dev/null; wait $rsrv 2>/dev/null"
sleep 0.5

# hostile case on the second server: dropped 1.5 to 4 s after it fell
# silent, and then a stock iperf3 test completes there.
dropped_within_rcv_timeout() {
	timeout 30 python3 "$HOSTILE" client $RPORT "$1" >silent.out 2>&1 || { cat silent.out; return 1; }
	cat silent.out &&
	sec=$(sed -n "s/.*gave up after \([0-9.]*\) s/\1/p" silent.out) &&
	python3 -c "import sys; s = float(sys.argv[1]); sys.exit(not 1.5 <= s <= 4)" "$sec" &&
	iperf3_ok $RPORT
}

for case in silent-connect cookie-silence silent-streams-wait silent-stream silent-mid-test \
	silent-reverse; do
	test_expect_success "--rcv-timeout 2000: '$case' is dropped within 4 s, the slot freed" \
		"dropped_within_rcv_timeout $case"
done

test_expect_success 'a silent day-long test is told why and the server says so' '
	grep -q "SERVER_ERROR 144" silent.out &&
	grep -q "the client took no data for 2000 ms (--rcv-timeout)" rcv.log &&
	grep -q "the client sent no data for 2000 ms (--rcv-timeout)" rcv.log &&
	grep -q "1 of 2 streams connected within the timeout (2000 ms)" rcv.log
'

# A third server with a small budget shared by up to four tests.
BPORT=27303
"$ND" serve -p $BPORT --max-tests 4 --max-streams 8 --max-memory 4M >budget.log 2>&1 &
bsrv=$!
nd_atexit "kill $bsrv 2>/dev/null; wait $bsrv 2>/dev/null"
sleep 0.5

test_expect_success 'budget: a test with more streams than the server allows is refused' '
	! timeout 20 iperf3 -c 127.0.0.1 -p $BPORT -t 1 -P 16 >over.out 2>&1 &&
	cat over.out &&
	grep -q "parallel streams" over.out &&
	grep -q "refused: 16 streams, the server allows 8 (--max-streams)" budget.log
'

test_expect_success 'budget: a test needing more buffer memory than allowed is refused' '
	! timeout 20 "$ND" bench -c 127.0.0.1 -p $BPORT -t 1 -P 5 -l 1M >mem.out 2>&1 &&
	cat mem.out &&
	grep -q "more memory than the server allows" mem.out &&
	grep -q "refused: 5 MiB of stream buffers, the server allows 4 MiB (--max-memory)" \
		budget.log
'

test_expect_success 'budget: two tests within it run at once, a third waits its turn (busy)' '
	{ timeout 30 iperf3 -c 127.0.0.1 -p $BPORT -t 3 -P 4 >b1.out 2>&1 & b1=$!; } &&
	{ timeout 30 iperf3 -c 127.0.0.1 -p $BPORT -t 3 -P 4 >b2.out 2>&1 & b2=$!; } &&
	sleep 1.5 &&
	! timeout 20 iperf3 -c 127.0.0.1 -p $BPORT -t 1 -P 1 >b3.out 2>&1 &&
	cat b3.out &&
	grep -q busy b3.out &&
	grep -q "refused for now: the tests running leave 0 of 8 streams and 2 of 4 MiB, this one needs 1 and 1 MiB" \
		budget.log &&
	wait $b1 && wait $b2 &&
	timeout 30 iperf3 -c 127.0.0.1 -p $BPORT -t 1 -P 8 >b4.out 2>&1 ||
	{ cat b1.out b2.out b4.out budget.log; false; }
'

test_expect_success 'the whole suite again: memory and descriptors stay bounded' '
	suite_again &&
	rss1=$(rss_kb) fds1=$(fds) &&
	say "after the suite: VmRSS $rss1 kB (was $rss0), $fds1 descriptors (was $fds0)" &&
	test $((rss1 - rss0)) -lt 16384 &&
	test "$fds1" -le $((fds0 + 1))
'

test_expect_success 'the servers are still alive and logged no crash' '
	kill -0 $srv && kill -0 $rsrv && kill -0 $bsrv &&
	! grep -Ei "sanitizer|runtime error|segmentation|abort" serve.log rcv.log budget.log
'

test_done
