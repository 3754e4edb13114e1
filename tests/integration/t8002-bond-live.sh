#!/bin/sh
test_description='bonds live over rtnetlink: a bridge and its port are no bond; where the kernel has a bonding driver, a bond of two veths read from IFLA_BOND_* (skipped without one, as on the development machine)'
. ./test-lib.sh
test_require_root
test_require_cmd ip python3

NS=nd-t8002-$$
diag() { ip netns exec "$NS" "$ND" diagnose --no-traffic --sample 0 --json "$@"; }

# "id severity source" of the bond findings of a report on stdin.
bond_rows() {
	python3 -c '
import json, sys
d = json.load(sys.stdin)
for f in d["findings"]:
    if f["id"].startswith("bond."):
        print(f["id"], f["severity"], f["evidence"].get("source", "-"))
print("members", " ".join(m["name"] for m in d.get("members") or []) or "-")
'
}

test_expect_success 'setup: a namespace with a bridge over a veth port' '
	nd_netns_add "$NS" &&
	ip -n "$NS" link add br0 type bridge &&
	ip -n "$NS" link add va type veth peer name vb &&
	ip -n "$NS" link set va master br0 &&
	ip -n "$NS" link set br0 up && ip -n "$NS" link set va up && ip -n "$NS" link set vb up
'

test_expect_success 'a bridge and a bridge port are no bond (netlink kind), no members' '
	for ifname in br0 va; do
		diag "$ifname" >report.json; test $? -le 2 || return 1
		bond_rows <report.json | cut -d" " -f2- | sort -u >actual
		printf "%s\n" "ok -" "-" | sort >expect
		test_cmp expect actual || return 1
	done
'

# The driver may be missing (no module, a kernel without it): then the
# real-bond tests are skipped, and say so.
if ip -n "$NS" link add bond0 type bond mode 802.3ad 2>/dev/null; then
	have_bond=yes
else
	have_bond=
fi

if [ -n "$have_bond" ]; then
	test_expect_success 'an 802.3ad bond of two veths is read from netlink, members diagnosed' '
		ip -n "$NS" link add m0 type veth peer name p0 &&
		ip -n "$NS" link add m1 type veth peer name p1 &&
		ip -n "$NS" link set m0 master bond0 && ip -n "$NS" link set m1 master bond0 &&
		for l in bond0 p0 p1; do ip -n "$NS" link set "$l" up || return 1; done &&
		sleep 1 &&
		diag bond0 >report.json; test $? -le 2 &&
		bond_rows <report.json >rows &&
		grep "^bond.member_down ok netlink$" rows &&
		grep "^bond.hash_layer2 warning netlink$" rows &&
		grep "^members m0 m1$" rows
	'
else
	echo "ok $((test_count + 1)) - an 802.3ad bond of two veths is read from netlink # SKIP no bonding driver in this kernel"
	test_count=$((test_count + 1))
fi

test_done
