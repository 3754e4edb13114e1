#!/bin/sh
test_description='snapshots collected inside QEMU guests (tests/fixtures/vm): each guest NIC yields its expected findings'
. ./test-lib.sh
test_require_cmd python3

# Each tests/fixtures/vm/MODEL holds snapshot/ (nicdoctor collect run in
# the guest), guest-info.txt (its first line names the interface) and
# expected-findings.txt: "host.virt KIND", then "id severity" lines, "na"
# for not applicable.  The report's lines for those IDs must equal it.
guest_findings() {
	python3 -c '
import json, sys
ids = set(l.split()[0] for l in open(sys.argv[1]) if l.strip() and not l.startswith("#"))
d = json.load(sys.stdin)
virt = d["host"]["virt"]
print("host.virt", virt["kind"] if virt else "null")
for f in d["findings"]:
    if f["id"] in ids:
        print(f["id"], "na" if f.get("not_applicable") else f["severity"])
' "$1"
}

for guest in "$FIXTURES"/vm/*/; do
	guest=${guest%/}
	name=$(basename "$guest")
	[ -f "$guest/expected-findings.txt" ] || continue
	test_expect_success "guest $name: expected findings" '
		ifname=$(sed -n "s/^ifname=//p" "$guest/guest-info.txt") &&
		{ "$ND" diagnose "$ifname" --sysroot "$guest/snapshot" --json >report.json
		  test $? -le 2; } &&
		grep -v "^#" "$guest/expected-findings.txt" | sort >expect &&
		guest_findings "$guest/expected-findings.txt" <report.json | sort >actual &&
		test_cmp expect actual
	'
done

test_expect_success 'the q35 virtio guest at 25000 Mbit/s: no PCIe ceiling in the report' '
	"$ND" diagnose enp1s0 --sysroot "$FIXTURES/vm/virtio1/snapshot" --json >report.json
	python3 -c "
import json, sys
d = json.load(open(\"report.json\"))
assert all(c[\"source\"] != \"pcie\" for c in d[\"ceilings\"]), d[\"ceilings\"]
"
'

test_expect_success 'without DMI, QEMU subsystem 1af4:1100 of the e1000 names the hypervisor' '
	cp -a "$FIXTURES/vm/e1000/snapshot" nodmi &&
	rm -r nodmi/sys/class/dmi &&
	{ "$ND" diagnose enp0s2 --sysroot nodmi --json >nodmi.json; test $? -le 2; } &&
	python3 -c "
import json
d = json.load(open(\"nodmi.json\"))
v = d[\"host\"][\"virt\"]
assert v[\"kind\"] == \"qemu\", v
assert v[\"source\"] == \"/sys/bus/pci/devices/0000:00:02.0/subsystem_vendor\", v
assert [f[\"severity\"] for f in d[\"findings\"] if f[\"id\"] == \"virt.emulated_nic\"] == [\"warning\"]
"
'

test_done
