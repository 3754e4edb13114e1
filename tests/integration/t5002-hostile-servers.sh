#!/bin/sh
test_description='bench against hostile servers: a one-line error naming the problem, exit 4, no hang past the timeout'
. ./test-lib.sh
test_require_cmd python3

PORT=27331  # below the ephemeral range: no client socket can hold it
HOSTILE="$TEST_DIR/t5000-hostile.py"

# hostile_server CASE: a fresh port each time, wait until it listens.
hostile_server() {
	PORT=$((PORT + 1))
	timeout 60 python3 "$HOSTILE" server $PORT "$1" >server.out 2>&1 &
	hs=$!
	test_when_finished "kill $hs 2>/dev/null; wait $hs 2>/dev/null"
	for i in $(seq 50); do
		grep -q listening server.out 2>/dev/null && return 0
		sleep 0.1
	done
	echo "hostile server on port $PORT did not start:"; cat server.out
	return 1
}

# bench_fails SECONDS PATTERN: exit 4 within SECONDS, one stderr line
# matching PATTERN.  --connect-timeout 2000 bounds every control read.
bench_fails() {
	start=$(date +%s)
	test_expect_code 4 timeout "$1" "$ND" bench -c 127.0.0.1 -p $PORT -t 1 \
		--connect-timeout 2000 >bench.out 2>bench.err ||
		{ cat bench.err server.out; return 1; }
	end=$(date +%s)
	cat bench.err
	test "$(wc -l <bench.err)" -eq 1 &&
	grep -q "$2" bench.err &&
	test $((end - start)) -le "$1"
}

test_expect_success 'garbage state byte instead of PARAM_EXCHANGE' '
	hostile_server garbage-state &&
	bench_fails 10 "unexpected control state 99 (wanted 9)"
'

test_expect_success 'garbage bytes after the parameters' '
	hostile_server garbage-bytes &&
	bench_fails 10 "unexpected control state -128 (wanted 10)"
'

test_expect_success 'a silent server: the control read gives up after 2 s' '
	hostile_server silence &&
	bench_fails 6 "no message from the server within 2.0 s"
'

test_expect_success 'a server that goes silent after TEST_END' '
	hostile_server silence-after-end &&
	bench_fails 10 "no message from the server within 2.0 s"
'

test_expect_success 'results of 100 MiB are refused at the length, not read' '
	hostile_server big-results &&
	bench_fails 10 "server.s results: length is 0 or above the 4 MiB limit"
'

test_expect_success 'a closed port: connection refused, exit 4' '
	PORT=$((PORT + 1)) &&
	bench_fails 6 "cannot connect to .127.0.0.1. port $PORT"
'

test_done
