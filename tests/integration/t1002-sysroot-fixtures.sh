#!/bin/sh
test_description='sysroot fixtures made from real machines: each yields its expected findings'
. ./test-lib.sh
test_require_cmd python3

# Each fixture directory holds one interface under sys/class/net and
# expected-findings.txt: "id severity" for the checks that fixture is
# about (written by make-fixtures.py).  The report's lines for those IDs
# must equal it.  A sosreport-shaped fixture may have no sys/class/net:
# then its interface is the one ethtool -i was run on.
fixture_iface() {
	{ ls "$1/sys/class/net" 2>/dev/null; ls "$1/sos_commands/networking" 2>/dev/null |
		sed -n "s/^ethtool_-i_//p"; } | head -n 1
}

# The title and evidence of each finding that differs, so a failure says
# why (a SAN pass once saw rps.off_single_queue unknown: openat2's EAGAIN
# while other lanes renamed, see tests/unit/test_sysroot_race.c).
why_differs() {
	python3 - "$@" <<-\PY
	import json, sys
	d = json.load(open(sys.argv[1]))
	diff = set(open(sys.argv[2]).read().split("\n")) ^ set(open(sys.argv[3]).read().split("\n"))
	ids = {l.split()[0] for l in diff if l.strip()}
	for f in d["findings"]:
	    if f["id"] in ids:
	        print(f["id"], f["severity"], f.get("title"), json.dumps(f.get("evidence"))[:400])
	PY
}

for fixture in "$FIXTURES"/*/; do
	fixture=${fixture%/}
	[ -f "$fixture/expected-findings.txt" ] || continue
	name=$(basename "$fixture")
	test_expect_success "fixture $name: expected findings" '
		ifname=$(fixture_iface "$fixture") &&
		{ "$ND" diagnose "$ifname" --sysroot "$fixture" --json >report.json; test $? -le 2; } &&
		grep -v "^#" "$fixture/expected-findings.txt" | sort >expect &&
		cut -d" " -f1 expect >ids &&
		nd_findings <report.json | grep -F -w -f ids | sort >actual &&
		{ test_cmp expect actual || { why_differs report.json expect actual; false; }; }
	'
done

# A doctor that cries wolf is as broken as one that misses the cause.
for fixture in "$FIXTURES"/healthy-*/; do
	fixture=${fixture%/}
	test_expect_success "fixture $(basename "$fixture"): no warning, no critical, exit 0" '
		ifname=$(fixture_iface "$fixture") &&
		"$ND" diagnose "$ifname" --sysroot "$fixture" --json >report.json &&
		! nd_findings <report.json | grep -E " (warning|critical)$"
	'
done

test_expect_success 'the field case: downgraded link is critical with the PCIe math' '
	"$ND" diagnose -v enp1s0f0np0 --sysroot "$FIXTURES/downgraded-x1" >report.txt
	test $? = 2 &&
	grep -q "CRIT.*pcie.link_downgraded" report.txt &&
	grep -q "1 lane x 4.000 Gb/s (5 GT/s, 8b/10b) x 512/(512+24) = 3821 Mbit/s" report.txt
'

test_expect_success 'every fixture renders in every format' '
	for fixture in "$FIXTURES"/*/; do
		[ -d "$fixture/sys" ] || continue
		ifname=$(ls "$fixture/sys/class/net" | head -n 1)
		for format in text markdown json prometheus; do
			"$ND" diagnose "$ifname" --sysroot "$fixture" --format $format >out
			test $? -le 2 && test -s out || return 1
		done
	done
'

test_done
