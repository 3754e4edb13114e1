#!/bin/sh
test_description='bench against hostile servers: a one-line error naming the problem, exit 4, no hang past the timeout; escapes in what a server says never reach the terminal'
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

# clean FILE: no ESC, BEL, CR or C1 CSI (raw or UTF-8), strict UTF-8, and
# the marker U+FFFD where the hostile bytes were.
clean() {
	python3 - "$1" <<-\PY
	import sys
	data = open(sys.argv[1], "rb").read()
	bad = [b for b in (b"\x1b", b"\x07", b"\r", b"\x9b", b"\xc2\x9b") if b in data]
	text = data.decode("utf-8")
	if bad or "\ufffd" not in text:
	    sys.exit("%s: bytes %r, marker %s" % (sys.argv[1], bad, "\ufffd" in text))
	PY
}

# bench_output ARGS...: a bench run against the hostile server, into bench.out.
bench_output() {
	timeout 20 "$ND" bench -c 127.0.0.1 -p $PORT -t 1 --get-server-output \
		--connect-timeout 2000 "$@" >bench.out 2>bench.err ||
		{ cat bench.out bench.err server.out; return 1; }
}

test_expect_success '--get-server-output with escapes and invalid UTF-8: text and -J clean' '
	hostile_server escape-output && bench_output &&
	clean bench.out && grep -q "wiped$" bench.out && grep -q "]52;c;ZXZpbA==" bench.out &&
	hostile_server escape-output && bench_output -J &&
	clean bench.out &&
	python3 -c "import json; json.loads(open(\"bench.out\", \"rb\").read().decode(\"utf-8\"))"
'

# The far end's report (the first run's answer is kept when a later run
# fails): its names and titles reach the text and JSON reports only clean.
test_expect_success 'a far end whose report holds escapes: diagnose --peer text and JSON clean' '
	hostile_server escape-far-end &&
	test_expect_code 4 timeout 40 "$ND" diagnose lo --peer 127.0.0.1:$PORT --duration 3 \
		>diag.out 2>diag.err &&
	clean diag.out && grep -q "^Far end (127.0.0.1:$PORT): the far end.s own findings" diag.out &&
	hostile_server escape-far-end &&
	test_expect_code 4 timeout 40 "$ND" diagnose lo --peer 127.0.0.1:$PORT --duration 3 \
		--json >diag.json 2>diag.err &&
	clean diag.json &&
	python3 -c "import json; d = json.loads(open(\"diag.json\", \"rb\").read().decode(\"utf-8\")); \
		assert d[\"peer\"][\"status\"] == \"shared\", d[\"peer\"]"
'

test_expect_success 'a closed port: connection refused, exit 4' '
	PORT=$((PORT + 1)) &&
	bench_fails 6 "cannot connect to .127.0.0.1. port $PORT"
'

test_done
