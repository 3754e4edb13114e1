#!/bin/sh
test_description='fix on a broken veth: the plan names three changes, --apply makes them, --revert restores every value'
. ./test-lib.sh
test_require_root
test_require_cmd ip ethtool python3

NS=nd-t2001-$$
IDS=queues.single,rps.off_single_queue,offload.disabled
. "$TEST_DIR/fix-lib.sh"

# The NIC-local CPUs of a veth are all online CPUs: channel target and mask.
ONLINE=$(python3 -c '
cpus = set()
for part in open("/sys/devices/system/cpu/online").read().strip().split(","):
    lo, _, hi = part.partition("-")
    cpus.update(range(int(lo), int(hi or lo) + 1))
print(len(cpus), format(sum(1 << c for c in cpus), "x"))')
NCPU=${ONLINE% *} MASK=${ONLINE#* }
[ "$NCPU" -ge 2 ] || test_skip_all="needs 2 or more CPUs"
TARGET=$(( NCPU < 4 ? NCPU : 4 ))

test_expect_success 'a veth with 4 queues, cut to 1 RX channel, RPS cleared, GRO off' '
	broken_veth &&
	snapshot >"$TRASH/before"
'

test_expect_success 'the dry run plans exactly those three changes and changes nothing' '
	cat >expect <<-EXPECT &&
	fix plan for nda: 3 changes (dry run, nothing changed; add --apply to make them)
	 feature rx-gro off -> on [offload.disabled] ethtool -K nda gro on
	 rx channels 1 -> $TARGET [queues.single] ethtool -L nda rx $TARGET
	 rx-0 rps_cpus 0 -> $MASK [rps.off_single_queue] echo $MASK > /sys/class/net/nda/queues/rx-0/rps_cpus
	EXPECT
	fix nda --only "$IDS" >out &&
	tr -s " " <out >actual &&
	test_cmp expect actual &&
	snapshot >now && test_cmp "$TRASH/before" now &&
	test ! -e "$NICDOCTOR_STATE_DIR"
'

test_expect_success '--apply journals, applies and reads back each step' '
	fix nda --only "$IDS" --apply >out &&
	grep -q "^applied 3 changes to nda$" out &&
	ls "$NICDOCTOR_STATE_DIR"/journal-*-nda.json >journals &&
	test $(wc -l <journals) = 1 &&
	python3 -c "
import json, sys
j = json.load(open(sys.argv[1]))
assert j[\"state\"] == \"applied\", j[\"state\"]
got = [(s[\"kind\"], s[\"key\"], s[\"original\"], s[\"target\"]) for s in j[\"steps\"]]
want = [(\"offloads\", \"rx-gro\", \"off\", \"on\"), (\"channels\", \"rx\", \"1\", \"$TARGET\"),
        (\"rps\", \"queues/rx-0/rps_cpus\", \"0\", \"$MASK\")]
assert got == want, got
" $(cat journals) &&
	in_ns ethtool -l nda | sed -n "/Current/,\$p" | grep -q "^RX:[[:space:]]*$TARGET\$" &&
	in_ns ethtool -k nda | grep -q "^generic-receive-offload: on"
'

test_expect_success 'diagnose now finds the three checks ok' '
	{ in_ns "$ND" diagnose --no-traffic nda --json >report.json; test $? -le 2; } &&
	test "$(nd_severity queues.single <report.json)" = ok &&
	test "$(nd_severity rps.off_single_queue <report.json)" = ok &&
	test "$(nd_severity offload.disabled <report.json)" = ok
'

test_expect_success 'nothing left to plan after the fix' '
	fix nda --only "$IDS" >out &&
	grep -q "^nothing to fix on nda" out
'

test_expect_success '--revert restores every original value' '
	fix --revert nda >out &&
	grep -q "3 values restored, 0 already original" out &&
	snapshot >after && test_cmp "$TRASH/before" after
'

test_expect_success '--revert again is a no-op that succeeds' '
	fix --revert nda >out &&
	echo "nothing to revert: every journal of '"'"'nda'"'"' in '"'"'$NICDOCTOR_STATE_DIR'"'"' is reverted" >expect &&
	test_cmp expect out &&
	snapshot >after && test_cmp "$TRASH/before" after
'

test_expect_success 'two applies with different --only: --revert --list shows both' '
	fix nda --only offload.disabled --apply >out &&
	grep -q "^applied 1 change to nda$" out &&
	fix nda --only queues.single,rps.off_single_queue --apply >out &&
	grep -q "^applied 2 changes to nda$" out &&
	fix --revert --list nda >list &&
	grep -q "^3 journals, 2 to revert (newest first)$" list &&
	grep -q "^  feature rx-gro: original off, set to on$" list &&
	grep -q "^  rx channels: original 1, set to $TARGET$" list
'

test_expect_success 'one --revert puts back both, newest first' '
	fix --revert nda >out &&
	test $(grep -c "^reverted nda from " out) = 2 &&
	grep "^reverted nda from " out | head -n 1 | grep -q ": 2 values restored, 0 already original$" &&
	grep "^reverted nda from " out | tail -n 1 | grep -q ": 1 value restored, 0 already original$" &&
	snapshot >after && test_cmp "$TRASH/before" after &&
	fix --revert --list nda >list &&
	grep -q "^3 journals, 0 to revert (newest first)$" list
'

test_expect_success 'not root: one line, exit 4, nothing changed' '
	test_expect_code 4 in_ns setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$ND" fix nda --apply >out 2>err &&
	echo "nicdoctor: fix --apply needs root" >expect &&
	test_cmp expect err && test ! -s out &&
	snapshot >after && test_cmp "$TRASH/before" after
'

test_expect_success 'usage errors exit 3' '
	test_expect_code 3 "$ND" fix --revert --apply 2>err &&
	test_expect_code 3 "$ND" fix --list 2>err &&
	test_expect_code 3 "$ND" fix --bogus 2>err &&
	test_expect_code 3 "$ND" fix "bad/name" 2>err &&
	test_expect_code 3 fix nda --only no.such.check 2>err
'

test_done
