#!/bin/sh
test_description='the queue chain of eth0 (virtio_net on a PCI function, read only), the same from its snapshot, and per-queue traffic sampled during diagnose --peer runs deciding rss.flows_on_one_queue'
. ./test-lib.sh
test_require_root
test_require_cmd ip tc python3

NSA=nd-t7002a-$$ NSB=nd-t7002b-$$
PORT=7021
in_a() { ip netns exec "$NSA" "$@"; }

# rx-0's row of a finding's queue_chain: chain_row ID QUEUE < report.json
chain_row() {
	python3 -c '
import json, sys
f = [f for f in json.load(sys.stdin)["findings"] if f["id"] == sys.argv[1]][0]
row = [r for r in f["evidence"].get("queue_chain", []) if r["queue"] == sys.argv[2]]
print(json.dumps(row[0], sort_keys=True) if row else "none")
' "$@"
}

# eth0 here: virtio_net on a real PCI function with real IRQs.  Only read:
# never traffic to it, never a change.
eth0_virtio=
if [ -e /sys/class/net/eth0/device/driver ] &&
   [ "$(basename "$(readlink /sys/class/net/eth0/device/driver)")" = virtio_net ]; then
	eth0_virtio=yes
fi

test_expect_success 'eth0: rx-0 -> NAPI (netdev) -> IRQ of virtioN-input.0 -> its effective CPU' '
	test -z "$eth0_virtio" || { dev=$(basename "$(readlink -f /sys/class/net/eth0/device)") &&
	irq=$(awk -v n="$dev-input.0" "\$NF == n { sub(\":\", \"\", \$1); print \$1 }" /proc/interrupts) &&
	test -n "$irq" &&
	cpus=$(cat /proc/irq/$irq/effective_affinity_list) &&
	{ "$ND" diagnose eth0 --no-traffic --json >eth0.json; test $? -le 2; } &&
	chain_row irq.concentrated rx-0 <eth0.json >row &&
	python3 - "$irq" "$cpus" <<-\EOF
	import json, sys
	row = json.load(open("row"))
	assert row["irq"] == int(sys.argv[1]) and row["irq_source"] == "irq name", row
	assert row["cpus"] == sys.argv[2], row
	assert row["napi_id"] > 0, row       # from the netdev family
	EOF
	}
'

test_expect_success 'eth0 from its snapshot: the same chain, the netdev answers recorded' '
	test -z "$eth0_virtio" || {
	"$ND" collect eth0 -o snap >/dev/null &&
	{ "$ND" diagnose --sysroot snap eth0 --json >off.json; test $? -le 2; } &&
	chain_row irq.concentrated rx-0 <off.json >off.row && ! grep -qx none off.row &&
	test_cmp row off.row; }
'

test_expect_success 'watch eth0 (read only): its queues with IRQ and CPUs, interrupts/s per CPU' '
	test -z "$eth0_virtio" || {
	"$ND" watch eth0 -n 1 -i 0.3 --json >w.json &&
	head -n 1 w.json | python3 -c "
import json, sys
v = json.loads(sys.stdin.read()); row = json.load(open(\"row\"))
rx = [q for q in v[\"queues\"] if q[\"queue\"] == \"rx-0\"][0]
assert rx[\"source\"] == \"netdev\" and rx[\"irq\"] == row[\"irq\"] and rx[\"cpus\"] == row[\"cpus\"], rx
assert all(\"interrupts_ps\" in c for c in v[\"cpus\"]), v[\"cpus\"]
assert v[\"unavailable\"] == [], v[\"unavailable\"]"; }
'

test_expect_success 'two namespaces over a 4-queue veth, mq root on the sender, serve on the far end' '
	nd_veth_mq_pair "$NSA" "$NSB" 10.77.72 $PORT
'

# One flow first: since boot one TX queue carries everything, which makes
# rss.flows_on_one_queue suspect; the 4-stream run then decides.
test_expect_success 'one flow makes rss.flows_on_one_queue suspect; the runs sample per-queue deltas and decide it' '
	in_a "$ND" bench -c 10.77.72.2 -p $PORT -P 1 -t 2 >/dev/null &&
	{ in_a "$ND" diagnose nda --no-traffic --json >quiet.json; test $? -le 2; } &&
	test "$(nd_severity rss.flows_on_one_queue <quiet.json)" = warning &&
	{ in_a "$ND" diagnose nda --peer 10.77.72.2:$PORT --duration 3 --json >peer.json
	  test $? -le 2; } &&
	python3 - <<-\EOF
	import json
	f = [f for f in json.load(open("peer.json"))["findings"] if f["id"] == "rss.flows_on_one_queue"][0]
	e = f["experiment"]
	assert f["verdict"] in ("confirmed", "refuted", "inconclusive"), f
	assert e["kind"] == "queues" and e["run"] == "forward_many", e
	assert len(e["queues"]) == 4 and sum(q["packets"] for q in e["queues"]) > 0, e
	assert e["streams"] >= 2, e
	EOF
'

test_done
