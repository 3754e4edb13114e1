#!/bin/sh
test_description='verdicts drive severity: an egress-only shaper explains path.asymmetric (info, explained_by qdisc.rate_limit), no refuted suspect is a warning, tool.* is info until a run confirms it, a window ceiling cites only a check that judged it a problem, the exit code follows'
. ./test-lib.sh
test_require_root
test_require_cmd ip ethtool tc python3

NSA=nd-t4006a-$$ NSB=nd-t4006b-$$
PORT=5291
in_a() { ip netns exec "$NSA" "$@"; }
diag() { in_a "$ND" diagnose nda "$@"; }

# The report's exit code against its own worst severity, and what must hold
# of every report: check_report REPORT.json EXIT.  No refuted suspect at
# warning or worse; severity_before_verdict only where the verdict changed
# it; tool.* above info only when confirmed; every ID a check of
# `nicdoctor checks`; a ceiling naming a check only when that check is at
# warning or worse.
check_report() {
	python3 - "$1" "$2" ids <<-\PY
	import json, sys
	d = json.load(open(sys.argv[1]))
	rc, ids = int(sys.argv[2]), set(open(sys.argv[3]).read().split())
	rank = ["ok", "info", "unknown", "warning", "critical"]
	fs = {f["id"]: f for f in d["findings"]}
	assert set(fs) <= ids, sorted(set(fs) - ids)
	worst = max((rank.index(f["severity"]) for f in fs.values() if f["severity"]), default=0)
	assert d["summary"]["worst"] == rank[worst], (d["summary"], worst)
	assert rc == {3: 1, 4: 2}.get(worst, 0), (rc, rank[worst])
	for f in fs.values():
	    if f["verdict"] == "refuted":
	        assert f["severity"] in ("ok", "info"), f
	    if "severity_before_verdict" in f:
	        assert f["severity_before_verdict"] != f["severity"], f
	    if f["id"].startswith("tool.") and f["severity"] not in ("ok", "info", "unknown"):
	        assert f["verdict"] == "confirmed", f
	for c in d["ceilings"]:
	    for i, f in fs.items():
	        if c["detail"].startswith(i + ":"):
	            assert f["severity"] in ("warning", "critical"), (c, f["severity"])
	# a window ceiling from the runs only when their RTTs agree (1.25x)
	runs = (d["throughput"] or {}).get("runs", [])
	rtts = [r["min_rtt_usec"] for r in runs if r.get("min_rtt_usec")]
	measured = [c for c in d["ceilings"] if "measured RTT" in c["detail"]]
	if len(rtts) >= 2 and max(rtts) > 1.25 * min(rtts):
	    assert not measured, (rtts, measured)
	PY
}

test_expect_success 'set-up: veth between two namespaces, nicdoctor serve on the far end' '
	"$ND" checks | awk "{ print \$1 }" >ids &&
	nd_netns_add "$NSA" && nd_netns_add "$NSB" &&
	ip -n "$NSA" link add nda numrxqueues 2 numtxqueues 2 type veth \
		peer ndb numrxqueues 2 numtxqueues 2 netns "$NSB" &&
	ip -n "$NSA" addr add 10.77.91.1/24 dev nda &&
	ip -n "$NSB" addr add 10.77.91.2/24 dev ndb &&
	ip -n "$NSA" link set nda up && ip -n "$NSB" link set ndb up &&
	ip -n "$NSA" link set lo up &&
	{ ip netns exec "$NSB" "$ND" serve -p $PORT >"$TRASH/serve.log" 2>&1 & } &&
	echo $! >"$TRASH/serve.pid" &&
	nd_atexit "kill \$(cat $TRASH/serve.pid) 2>/dev/null" &&
	sleep 0.5
'

# Egress only on nda: forward (here to the peer) is held to 200 Mbit/s,
# reverse is not shaped at all.
test_expect_success 'egress-only tbf: path.asymmetric is info, explained by qdisc.rate_limit' '
	in_a tc qdisc add dev nda root tbf rate 200mbit burst 32k latency 50ms &&
	test_when_finished "in_a tc qdisc del dev nda root" &&
	diag --peer 10.77.91.2:$PORT --duration 6 --json >report.json 2>err; rc=$?
	cat err && check_report report.json $rc &&
	python3 - <<-\PY
	import json
	d = json.load(open("report.json"))
	fs = {f["id"]: f for f in d["findings"]}
	q, a = fs["qdisc.rate_limit"], fs["path.asymmetric"]
	assert q["verdict"] == "confirmed" and q["severity"] == "warning", q
	assert a["verdict"] == "confirmed", a
	assert a["evidence"]["slower"] == "forward", a
	assert a["severity"] == "info", a
	assert a["explained_by"] == "qdisc.rate_limit", a
	assert "explained by qdisc.rate_limit" in a["title"], a["title"]
	assert "severity_before_verdict" not in q, q
	assert d["throughput"]["bottleneck"]["id"] == "qdisc.rate_limit", d["throughput"]
	# the one fact is one finding
	assert [f["id"] for f in d["findings"]].count("path.asymmetric") == 1
	PY
'

test_expect_success 'the same in text: the effect is info, not a second warning' '
	in_a tc qdisc add dev nda root tbf rate 200mbit burst 32k latency 50ms &&
	test_when_finished "in_a tc qdisc del dev nda root" &&
	diag --peer 10.77.91.2:$PORT --duration 6 >report.txt 2>err; rc=$?
	test $rc -le 2 &&
	grep -q "^\[WARN\] qdisc.rate_limit " report.txt &&
	! grep -q "^\[WARN\] path.asymmetric" report.txt &&
	grep -q "^  confirmed  *path.asymmetric: explained by qdisc.rate_limit " report.txt &&
	grep -A2 "^\[INFO\] path.asymmetric " report.txt >asym.txt &&
	tr "\n" " " <asym.txt | sed "s/  */ /g" | grep -q "explained by qdisc.rate_limit" &&
	! awk "length > 80" report.txt | grep -q .
'

test_expect_success 'unshaped: whatever the runs refute is at most info, the exit code follows' '
	diag --peer 10.77.91.2:$PORT --duration 3 --json >report.json 2>err; rc=$?
	cat err && check_report report.json $rc
'

test_expect_success '--no-traffic: tool.* at most info, path.asymmetric untested' '
	diag --no-traffic --json >report.json 2>err; rc=$?
	check_report report.json $rc &&
	python3 - <<-\PY
	import json
	fs = {f["id"]: f for f in json.load(open("report.json"))["findings"]}
	t, a = fs["tool.iperf3_single_threaded"], fs["path.asymmetric"]
	assert t["severity"] in ("ok", "info", "unknown"), t
	assert t["verdict"] == "untested" and a["verdict"] == "untested", (t, a)
	assert a["severity"] == "ok" and "explained_by" not in a, a
	PY
'

test_expect_success '--skip path.asymmetric: taken, and the runs leave it skipped' '
	in_a tc qdisc add dev nda root tbf rate 200mbit burst 32k latency 50ms &&
	test_when_finished "in_a tc qdisc del dev nda root" &&
	diag --peer 10.77.91.2:$PORT --duration 3 --skip path.asymmetric --json \
		>report.json 2>err; rc=$?
	check_report report.json $rc &&
	python3 -c "import json; fs = [f for f in json.load(open(\"report.json\"))[\"findings\"] \
		if f[\"id\"] == \"path.asymmetric\"]; \
		assert len(fs) == 1 and fs[0][\"skipped\"] and fs[0][\"verdict\"] == \"untested\", fs"
'

test_done
