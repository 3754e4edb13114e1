#!/bin/sh
test_description='sysroot fixtures made from real machines: each yields its expected findings'
. ./test-lib.sh
test_require_cmd python3

# Each fixture directory holds expected-findings.txt ("id severity" per
# check, every registered check) and one interface under sys/class/net.
for fixture in "$FIXTURES"/*/; do
	fixture=${fixture%/}
	[ -f "$fixture/expected-findings.txt" ] || continue
	name=$(basename "$fixture")
	test_expect_success "fixture $name: expected findings" '
		ifname=$(ls "$fixture/sys/class/net" | head -n 1) &&
		{ "$ND" diagnose "$ifname" --sysroot "$fixture" --json >report.json; test $? -le 2; } &&
		nd_findings <report.json >actual &&
		grep -v "^#" "$fixture/expected-findings.txt" >expect &&
		test_cmp expect actual
	'
done

test_expect_success 'a fixture renders in every format' '
	fixture=$(ls -d "$FIXTURES"/*/ | head -n 1) &&
	ifname=$(ls "$fixture/sys/class/net" | head -n 1) &&
	for format in text markdown json; do
		"$ND" diagnose "$ifname" --sysroot "$fixture" --format $format >out.$format
		test $? -le 2 && test -s out.$format || return 1
	done
'

test_done
