#!/bin/sh
test_description='fix --revert refuses a hostile journal with one line and exit 4: files outside the persist paths, sysctls fix never writes, another interface, a journal or state directory others can write, an out-of-range created_usec; nothing is written'
. ./test-lib.sh
test_require_root
test_require_cmd ip ethtool python3 unshare hostname

NS=nd-t5006-$$
. "$TEST_DIR/fix-lib.sh"
S=$NICDOCTOR_STATE_DIR

# Revert in a private UTS namespace as well as the test's network
# namespace: a kernel.* or net.* write a journal asks for reaches neither
# the host's hostname nor its sysctls.
revert() {
	unshare -u sh -c 'hostname nd-t5006-uts && ip netns exec "$1" "$2" fix --revert nda
		rc=$?; echo "hostname $(hostname)" >uts; exit $rc' sh "$NS" "$ND"
}

# plant IF STEPS FILES [CREATED]: journal-...-nda.json naming interface IF.
plant() {
	mkdir -p "$S" && chmod 700 "$S" &&
	printf '{"schema":"nicdoctor.journal/1","interface":"%s","state":"applied","created_usec":%s,"steps":[%s],"files":[%s]}\n' \
		"$1" "${4:-1000}" "$2" "$3" >"$S/journal-0000000000001000-nda.json" &&
	chmod 600 "$S/journal-0000000000001000-nda.json"
}
step() {
	printf '{"kind":"%s","key":"%s","what":"%s","original":"%s","target":"%s"}' \
		"$1" "$2" "$2" "$3" "$4"
}
gro() { in_ns ethtool -k "$1" | sed -n 's/^generic-receive-offload: //p'; }
# A step revert would turn nda's GRO back on with: it must never run.
GRO_ON=$(step offloads rx-gro on off)
refused() {
	echo "nicdoctor: cannot use journal '$S/journal-0000000000001000-nda.json': $1" >expect &&
	test_cmp expect err && test ! -s out && test "$(gro nda)" = off
}

test_expect_success 'a broken veth (nda GRO off), a file that must not change' '
	broken_veth &&
	echo precious >"$TRASH/victim" && echo precious >"$TRASH/victim2" &&
	in_ns sysctl -q -w net.ipv4.ip_forward=0 &&
	test "$(gro nda)" = off
'

test_expect_success 'a journal file path outside the persist files is refused' '
	test_when_finished "rm -rf \"$S\"" &&
	plant nda "$GRO_ON" "{\"path\":\"$TRASH/victim\",\"existed\":true,\"original\":\"pwned\",\"content\":\"\"}" &&
	test_expect_code 4 revert >out 2>err &&
	refused "file 1 '"'"'$TRASH/victim'"'"' is not one --persist writes for '"'"'nda'"'"'" &&
	echo precious >expect && test_cmp expect "$TRASH/victim"
'

test_expect_success 'a persist path with ../ to a file to delete is refused' '
	test_when_finished "rm -rf \"$S\"" &&
	plant nda "$GRO_ON" "{\"path\":\"$NICDOCTOR_ETC_DIR/sysctl.d/../../victim2\",\"existed\":false,\"original\":null,\"content\":\"\"}" &&
	test_expect_code 4 revert >out 2>err &&
	refused "file 1 '"'"'$NICDOCTOR_ETC_DIR/sysctl.d/../../victim2'"'"' is not one --persist writes for '"'"'nda'"'"'" &&
	test -e "$TRASH/victim2"
'

test_expect_success 'a kernel.hostname step is refused, checked before any write' '
	test_when_finished "rm -rf \"$S\"" &&
	plant nda "$(step sysctl kernel.hostname pwned x),$GRO_ON" "" &&
	test_expect_code 4 revert >out 2>err &&
	refused "step 1 (sysctl '"'"'kernel.hostname'"'"') is not a change '"'"'nicdoctor fix'"'"' makes" &&
	echo "hostname nd-t5006-uts" >expect && test_cmp expect uts
'

test_expect_success 'a net.ipv4.ip_forward step is refused' '
	test_when_finished "rm -rf \"$S\"" &&
	plant nda "$GRO_ON,$(step sysctl net.ipv4.ip_forward 1 0)" "" &&
	test_expect_code 4 revert >out 2>err &&
	refused "step 2 (sysctl '"'"'net.ipv4.ip_forward'"'"') is not a change '"'"'nicdoctor fix'"'"' makes" &&
	test "$(in_ns sysctl -n net.ipv4.ip_forward)" = 0
'

test_expect_success 'an rps step outside queues/rx-N/rps_* is refused' '
	test_when_finished "rm -rf \"$S\"" &&
	plant nda "$(step rps queues/rx-0/../../mtu 1280 1500)" "" &&
	test_expect_code 4 revert >out 2>err &&
	refused "step 1 (rps '"'"'queues/rx-0/../../mtu'"'"') is not a change '"'"'nicdoctor fix'"'"' makes" &&
	test "$(in_ns cat /sys/class/net/nda/mtu)" = 1500
'

test_expect_success 'journal-...-nda.json about ndb is refused and ndb left alone' '
	test_when_finished "rm -rf \"$S\"" &&
	was=$(gro ndb) && if [ "$was" = on ]; then other=off; else other=on; fi &&
	plant ndb "$(step offloads rx-gro $other $was)" "" &&
	test_expect_code 4 revert >out 2>err &&
	refused "it names interface '"'"'ndb'"'"', its file name '"'"'nda'"'"'" &&
	test "$(gro ndb)" = "$was"
'

test_expect_success 'created_usec 1e300 is refused, not cast' '
	test_when_finished "rm -rf \"$S\"" &&
	plant nda "$GRO_ON" "" 1e300 &&
	test_expect_code 4 revert >out 2>err &&
	refused "no '"'"'created_usec'"'"' between 0 and 100000000000000000"
'

test_expect_success 'a journal others can write is refused' '
	test_when_finished "rm -rf \"$S\"" &&
	plant nda "$GRO_ON" "" && chmod 666 "$S"/journal-*.json &&
	test_expect_code 4 revert >out 2>err &&
	refused "writable by group or others"
'

test_expect_success 'a journal an unprivileged user owns is refused' '
	test_when_finished "rm -rf \"$S\"" &&
	plant nda "$GRO_ON" "" && chown 65534:65534 "$S"/journal-*.json &&
	test_expect_code 4 revert >out 2>err &&
	refused "owned by uid 65534, not root"
'

test_expect_success 'a world-writable state directory is refused, its journal unread' '
	test_when_finished "rm -rf \"$S\"" &&
	plant nda "$GRO_ON" "" && chmod 1777 "$S" &&
	test_expect_code 4 revert >out 2>err &&
	echo "nicdoctor: refusing the journals: state directory '"'"'$S'"'"' is writable by group or others" >expect &&
	test_cmp expect err && test "$(gro nda)" = off &&
	test_expect_code 4 fix nda --only offload.disabled --apply >out 2>err &&
	test_cmp expect err && test "$(gro nda)" = off
'

test_expect_success 'a state directory an unprivileged user owns is refused' '
	test_when_finished "rm -rf \"$S\"" &&
	plant nda "$GRO_ON" "" && chown 65534 "$S" &&
	test_expect_code 4 revert >out 2>err &&
	echo "nicdoctor: refusing the journals: state directory '"'"'$S'"'"' is owned by uid 65534, not root" >expect &&
	test_cmp expect err && test "$(gro nda)" = off
'

test_expect_success 'the same journal, well-formed and root-owned, is obeyed' '
	test_when_finished "rm -rf \"$S\"" &&
	plant nda "$GRO_ON" "" &&
	revert >out 2>err &&
	grep -q "^reverted nda from .*: 1 value restored, 0 already original$" out &&
	test "$(gro nda)" = on &&
	in_ns ethtool -K nda gro off
'

test_done
