#!/bin/sh
test_description='diagnose --trial-fixes: each fix applied, measured and reverted; nothing stays changed, also after SIGINT halfway and after a crash (fix --revert)'
. ./test-lib.sh
test_require_root
test_require_cmd ip ethtool taskset python3

NSA=nd-t4002a-$$ NSB=nd-t4002b-$$
PORT=5244
export NICDOCTOR_STATE_DIR="$TRASH/state" NICDOCTOR_ETC_DIR="$TRASH/etc"
in_a() { ip netns exec "$NSA" "$@"; }
# Both ends and their streams on CPU 0: one CPU carries the work, as with
# one queue and RPS off on a real NIC.  On veth the receive softirq runs
# in the sender's context, so where the load lands decides whether the
# RPS suspect is refuted; the offloads trial (GRO off, which no run speaks
# to) is always made.
diag() { in_a taskset -c 0 "$ND" diagnose nda "$@"; }
# The same as a simple command, so that $! of "diag_bg ... &" is nicdoctor.
DIAG_BG="ip netns exec $NSA taskset -c 0 $ND diagnose nda"

[ "$(nproc)" -ge 2 ] || test_skip_all="needs 2 or more CPUs"

snapshot() {
	in_a ethtool -l nda && in_a ethtool -k nda &&
	for q in /sys/class/net/nda/queues/rx-*; do
		printf '%s %s\n' "${q##*/}" "$(in_a cat "$q/rps_cpus")"
	done
}

# Every trial: before and after measured, reverted; prints the fix kinds.
trials_ok() {
	python3 -c '
import json, sys
t = json.load(open(sys.argv[1]))["throughput"]
assert t["trials"], t
for tr in t["trials"]:
    assert tr["reverted"] and tr["error"] is None, tr
    assert tr["before_mbps"] > 0 and tr["after_mbps"] > 0, tr
    print(tr["fix"])
' "$1"
}

journals_reverted() {
	python3 -c '
import glob, json, sys
js = glob.glob(sys.argv[1] + "/journal-*-nda.json")
assert js
for path in js:
    assert json.load(open(path))["state"] == "reverted", path
' "$NICDOCTOR_STATE_DIR"
}

test_expect_success 'a veth with one queue, RPS cleared and GRO off, nicdoctor serve on the far end' '
	nd_netns_add "$NSA" && nd_netns_add "$NSB" &&
	ip -n "$NSA" link add nda type veth peer ndb netns "$NSB" &&
	ip -n "$NSA" addr add 10.77.42.1/24 dev nda &&
	ip -n "$NSB" addr add 10.77.42.2/24 dev ndb &&
	ip -n "$NSA" link set nda up && ip -n "$NSB" link set ndb up &&
	in_a sh -c "echo 0 > /sys/class/net/nda/queues/rx-0/rps_cpus" &&
	in_a ethtool -K nda gro off &&
	snapshot >"$TRASH/before" &&
	{ ip netns exec "$NSB" taskset -c 0 "$ND" serve -p $PORT >"$TRASH/serve.log" 2>&1 & } &&
	nd_atexit "kill $! 2>/dev/null" &&
	sleep 0.5
'

test_expect_success '--trial-fixes: before/after per fix, every value read back as it was' '
	{ diag --peer 10.77.42.2:$PORT --duration 3 --trial-fixes --json >report.json; test $? -le 2; } &&
	trials_ok report.json >kinds &&
	grep -qx offloads kinds &&
	rps=$(python3 -c "import json; print([f[\"verdict\"] for f in json.load(open(\"report.json\"))[\"findings\"] if f[\"id\"] == \"rps.off_single_queue\"][0])") &&
	say "rps.off_single_queue: $rps, trials: $(echo $(cat kinds))" &&
	{ [ "$rps" = refuted ] || grep -qx rps kinds; } &&
	journals_reverted &&
	snapshot >after && test_cmp "$TRASH/before" after
'

test_expect_success 'the text report shows the trials' '
	{ diag --peer 10.77.42.2:$PORT --duration 3 --trial-fixes >report.txt; test $? -le 2; } &&
	grep -q "^Trial fixes, each applied, measured forward in Mbit/s, reverted:$" report.txt &&
	grep -q "^  offloads (offload.disabled): before [0-9]*, after [0-9]* ([-+][0-9]*%), reverted$" \
		report.txt &&
	snapshot >after && test_cmp "$TRASH/before" after
'

test_expect_success 'SIGINT halfway through a trial: reverted before exit, exit 130' '
	rm -rf "$NICDOCTOR_STATE_DIR" &&
	{ $DIAG_BG --peer 10.77.42.2:$PORT --duration 6 --trial-fixes --json >report.json 2>err & } &&
	pid=$! && n=0 &&
	while ! ls "$NICDOCTOR_STATE_DIR"/journal-* >/dev/null 2>&1 && [ $n -lt 300 ]; do
		sleep 0.1; n=$((n + 1))
	done &&
	sleep 0.5 && kill -INT $pid;
	wait $pid; rc=$? &&
	test $rc = 130 &&
	journals_reverted &&
	python3 -c "import json; assert json.load(open(\"report.json\"))[\"throughput\"][\"interrupted\"]" &&
	snapshot >after && test_cmp "$TRASH/before" after
'

test_expect_success 'a crash mid-trial leaves the journal: fix --revert restores it' '
	rm -rf "$NICDOCTOR_STATE_DIR" &&
	{ $DIAG_BG --peer 10.77.42.2:$PORT --duration 6 --trial-fixes >/dev/null 2>&1 & } &&
	pid=$! && n=0 &&
	while ! ls "$NICDOCTOR_STATE_DIR"/journal-* >/dev/null 2>&1 && [ $n -lt 300 ]; do
		sleep 0.1; n=$((n + 1))
	done &&
	sleep 0.5 && kill -KILL $pid; wait $pid;
	in_a "$ND" fix --revert nda >out &&
	snapshot >after && test_cmp "$TRASH/before" after
'

test_done
