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

# A stock iperf3 test must complete.  A hostile connection the server is
# still dropping may make it answer busy for a moment: retry briefly.
iperf3_ok() {
	for try in 1 2 3 4 5 6; do
		timeout 30 iperf3 -c 127.0.0.1 -p $PORT -t 1 >iperf3.out 2>&1 && return 0
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

test_expect_success 'the whole suite again: memory and descriptors stay bounded' '
	suite_again &&
	rss1=$(rss_kb) fds1=$(fds) &&
	say "after the suite: VmRSS $rss1 kB (was $rss0), $fds1 descriptors (was $fds0)" &&
	test $((rss1 - rss0)) -lt 16384 &&
	test "$fds1" -le $((fds0 + 1))
'

test_expect_success 'the server is still alive and logged no crash' '
	kill -0 $srv &&
	! grep -Ei "sanitizer|runtime error|segmentation|abort" serve.log
'

test_done
