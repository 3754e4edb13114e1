#!/bin/sh
test_description='fix --apply killed between two steps is undone by --revert; a failing step rolls back the earlier ones'
. ./test-lib.sh
test_require_root
test_require_cmd ip ethtool python3

NS=nd-t2002-$$
IDS=queues.single,rps.off_single_queue,offload.disabled
. "$TEST_DIR/fix-lib.sh"

rx_channels() {
	in_ns ethtool -l nda | sed -n '/Current/,$p' | awk '$1 == "RX:" { print $2 }'
}

[ "$(nproc)" -ge 2 ] || test_skip_all="needs 2 or more CPUs"

test_expect_success 'a broken veth: 1 RX channel of 4, RPS cleared, GRO off' '
	broken_veth &&
	snapshot >"$TRASH/before"
'

test_expect_success 'SIGKILL after step 2 of 3 leaves a journal of all three originals' '
	NICDOCTOR_TEST_PAUSE_AFTER_STEP=2 ip netns exec "$NS" "$ND" fix nda \
		--only "$IDS" --apply >out 2>err &
	pid=$! &&
	test_when_finished "kill -9 $pid 2>/dev/null" &&
	for i in $(seq 100); do
		grep -q "paused after step 2" err && break
		sleep 0.1
	done &&
	grep -q "paused after step 2" err &&
	test_expect_code 4 fix --revert nda 2>busy &&
	grep -q "^nicdoctor: another '"'"'nicdoctor fix'"'"' is applying or reverting in " busy &&
	kill -9 $pid && { wait $pid; test $? = 137; } &&
	test "$(rx_channels)" != 1 &&
	in_ns ethtool -k nda | grep -q "^generic-receive-offload: on" &&
	test "$(in_ns cat /sys/class/net/nda/queues/rx-0/rps_cpus | tr -d 0)" = "" &&
	python3 -c "
import glob, json
j = json.load(open(glob.glob(\"$NICDOCTOR_STATE_DIR/journal-*-nda.json\")[0]))
assert j[\"state\"] == \"applying\" and len(j[\"steps\"]) == 3, j
"
'

test_expect_success 'a second --apply refuses while the killed journal says applying' '
	journal=$(ls "$NICDOCTOR_STATE_DIR"/journal-*-nda.json) &&
	test_expect_code 4 fix nda --only "$IDS" --apply >out 2>err &&
	test ! -s out &&
	echo "nicdoctor: journal '"'"'$journal'"'"' of '"'"'nda'"'"' is still applying (the apply was interrupted): run '"'"'nicdoctor fix --revert nda'"'"' first" >expect &&
	test_cmp expect err &&
	test "$(ls "$NICDOCTOR_STATE_DIR"/journal-*-nda.json)" = "$journal" &&
	test "$(rx_channels)" != 1 &&
	in_ns ethtool -k nda | grep -q "^generic-receive-offload: on"
'

test_expect_success '--revert after the kill restores the originals' '
	fix --revert nda >out &&
	grep -q "2 values restored, 1 already original" out &&
	snapshot >after && test_cmp "$TRASH/before" after
'

test_expect_success 'a step the device refuses rolls back the steps before it' '
	test_expect_code 4 env NICDOCTOR_TEST_CHANNELS_TARGET=64 ip netns exec "$NS" "$ND" \
		fix nda --only "$IDS" --apply >out 2>err &&
	grep -q "^  step 1 applied: feature rx-gro off -> on$" out &&
	grep -q "^  step 1 rolled back: feature rx-gro on -> off$" out &&
	grep -q "^step 2 of 4 failed (rx channels): cannot set rx channels to 64: Invalid argument$" out &&
	grep -q "^rolled back: 1 change undone, every value is back to the original$" out &&
	echo "nicdoctor: fix failed at step 2 (rx channels): cannot set rx channels to 64: Invalid argument" >expect &&
	test_cmp expect err &&
	snapshot >after && test_cmp "$TRASH/before" after
'

test_expect_success 'the rolled-back journal says so and --revert changes nothing' '
	newest=$(ls "$NICDOCTOR_STATE_DIR"/journal-*-nda.json | sort | tail -n 1) &&
	grep -q "\"state\":[[:space:]]*\"rolled-back\"" "$newest" &&
	fix --revert nda >out &&
	grep -q "0 values restored" out &&
	snapshot >after && test_cmp "$TRASH/before" after
'

test_expect_success 'a truncated journal is refused with the reason, exit 4' '
	newest=$(ls "$NICDOCTOR_STATE_DIR"/journal-*-nda.json | sort | tail -n 1) &&
	head -c 100 "$newest" >"$NICDOCTOR_STATE_DIR/journal-9999999999999999-nda.json" &&
	test_expect_code 4 fix --revert nda 2>err &&
	echo "nicdoctor: cannot use journal '"'"'$NICDOCTOR_STATE_DIR/journal-9999999999999999-nda.json'"'"': not valid JSON (truncated or corrupt)" >expect &&
	test_cmp expect err &&
	snapshot >after && test_cmp "$TRASH/before" after
'

test_done
