#!/bin/sh
test_description='diagnose --peer against a server busy with another test: a clear message naming the peer, exit 4 in bounded time, static findings still reported'
. ./test-lib.sh
test_require_root
test_require_cmd python3 timeout

PORT=5271

test_expect_success 'a server kept busy by another client' '
	{ "$ND" serve -p $PORT -q >/dev/null 2>&1 & } && nd_atexit "kill $! 2>/dev/null" &&
	sleep 0.3 &&
	{ "$ND" bench -c 127.0.0.1 -p $PORT -t 15 >/dev/null 2>&1 & } &&
	nd_atexit "kill $! 2>/dev/null" &&
	sleep 0.5
'

test_expect_success 'diagnose --peer: "busy", exit 4, the report still printed' '
	start=$(date +%s) &&
	test_expect_code 4 timeout 30 "$ND" diagnose lo --peer 127.0.0.1:$PORT --duration 2 \
		--json >report.json 2>err &&
	elapsed=$(( $(date +%s) - start )) &&
	echo "took ${elapsed}s" && test $elapsed -le 12 &&
	test "$(wc -l <err)" -eq 1 &&
	grep "peer .127.0.0.1:$PORT. is busy" err &&
	python3 -c "
import json
d = json.load(open(\"report.json\"))
assert d[\"findings\"], \"no findings\"
assert d[\"throughput\"][\"measured_mbps\"] is None
assert d[\"throughput\"][\"error\"], \"no error recorded\"
"
'

test_done
