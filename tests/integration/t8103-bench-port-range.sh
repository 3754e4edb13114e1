#!/bin/sh
test_description='bench -c 127.0.0.1 -p 5831-5834 against four stock iperf3 -s -1: four targets at once, one clock; target and range errors exit 3 with one line'
. ./test-lib.sh
test_require_cmd iperf3 python3

test_expect_success 'four stock iperf3 -s -1, one per port' '
	for p in 5831 5832 5833 5834; do
		{ iperf3 -s -1 -p $p >s$p.log 2>&1 & } &&
		nd_atexit "kill $! 2>/dev/null" || return 1
	done &&
	sleep 0.5
'

test_expect_success 'bench -p 5831-5834 -b 50M -J: four targets, each its own test and streams, the sum of four' '
	"$ND" bench -c 127.0.0.1 -p 5831-5834 -t 2 -b 50M -P 2 -J >range.json &&
	python3 - <<-\PY
	import json
	d = json.load(open("range.json"))
	t = d["targets"]
	assert [x["port"] for x in d["nicdoctor"]["targets"]] == [5831, 5832, 5833, 5834]
	assert [x["start"]["connecting_to"]["port"] for x in t] == [5831, 5832, 5833, 5834]
	# -P 2 per target: two streams each, 2 x 50 Mbit/s per target.
	assert all(len(x["end"]["streams"]) == 2 for x in t), [len(x["end"]["streams"]) for x in t]
	bps = [x["end"]["sum_received"]["bits_per_second"] for x in t]
	assert all(abs(b - 100e6) <= 10e6 for b in bps), bps
	s = d["sum"]["received"]["bits_per_second"]
	assert abs(s - sum(bps)) <= 1e-6 * s and abs(s - 400e6) <= 40e6, s
	# One clock: every target ran the same 2 s and started within 0.2 s.
	starts = [x["start"]["timestamp"]["timesecs"] for x in t]
	assert max(starts) - min(starts) <= 1, starts
	durs = [x["end"]["sum_sent"]["seconds"] for x in t]
	assert all(abs(x - 2.0) <= 0.2 for x in durs), durs
	PY
'

test_expect_success 'the stock servers each ran exactly one test' '
	for p in 5831 5832 5833 5834; do
		grep -q "Accepted connection" s$p.log || return 1
	done
'

# TCP pacing napped at most 10 ms per block: a 128 KiB block stream ran at
# 105 Mbit/s whatever -b asked below that.
test_expect_success 'bench -b 20M with 128 KiB blocks: paced at 20 Mbit/s, not 105' '
	{ iperf3 -s -1 -p 5835 >s5835.log 2>&1 & } &&
	nd_atexit "kill $! 2>/dev/null" &&
	sleep 0.3 &&
	"$ND" bench -c 127.0.0.1 -p 5835 -t 2 -b 20M -J >paced.json &&
	python3 -c "import json; b = json.load(open(\"paced.json\"))[\"end\"][\"sum_received\"][\"bits_per_second\"]; \
		print(b); assert abs(b - 20e6) <= 2e6, b"
'

test_expect_success 'bad targets and ranges exit 3 with one line' '
	for args in "-p 5204-5201" "-p 0" "-p 70000" "-p 5201-" "-c a,b -p 5201-5209" \
		"-c a:0" "-c a:70000" "-c [::1" "-c a,,b" "-c 127.0.0.1,127.0.0.2 -p 5801-5809"; do
		set -- $args
		case "$1" in -c) ;; *) set -- -c 127.0.0.1 "$@" ;; esac
		test_expect_code 3 "$ND" bench "$@" -t 1 2>err || return 1
		test $(wc -l <err) = 1 && cat err || return 1
	done &&
	"$ND" bench -c 127.0.0.1 -p 5204-5201 2>&1 | grep -q "the first port is above the last" &&
	"$ND" bench -c a,b -p 5201-5209 2>&1 | grep -qx "nicdoctor: bench: too many targets: 18, at most 16 in one run"
'

test_done
