#!/bin/sh
test_description='diagnose, collect, bench, serve and fix --revert under valgrind: no leaks, no invalid reads'
. ./test-lib.sh
test_require_cmd valgrind python3
# An AddressSanitizer build (make check SAN=1) cannot run under valgrind;
# the plain build of the same suite covers this file.
if ldd "$ND" 2>/dev/null | grep -q libasan; then
	test_skip_all="valgrind cannot run an ASan build"
fi

PORT=27361  # below the ephemeral range: no client socket can hold it

vg() {
	log=$1
	shift
	timeout 180 valgrind -q --leak-check=full --show-leak-kinds=definite,indirect \
		--errors-for-leak-kinds=definite,indirect --error-exitcode=99 \
		--track-fds=no --log-file="$log" "$@"
}

# clean LOG: valgrind reported no error and no lost block.
clean() {
	if grep -q "^==" "$1"; then
		cat "$1"
		return 1
	fi
	return 0
}

test_expect_success 'diagnose of a snapshot' '
	vg diag.vg "$ND" diagnose --sysroot "$FIXTURES/downgraded-82599-x2" eth0 \
		--json >out.json
	rc=$?
	test $rc -le 2 && clean diag.vg
'

test_expect_success 'diagnose of a snapshot, text and markdown' '
	vg text.vg "$ND" diagnose --sysroot "$FIXTURES/healthy-x16" enp1s0f0np0 \
		--format markdown >out.md
	rc=$?
	test $rc -le 2 && clean text.vg
'

test_expect_success 'live diagnose of lo without traffic' '
	vg live.vg "$ND" diagnose lo --no-traffic --json >live.json
	rc=$?
	test $rc -le 2 && clean live.vg
'

test_expect_success 'collect of lo, then diagnose of that snapshot' '
	vg collect.vg "$ND" collect lo -o "$TRASH/snap" >collect.out &&
	clean collect.vg && test -f "$TRASH/snap/ethtool/lo.json" &&
	vg snapdiag.vg "$ND" diagnose lo --sysroot "$TRASH/snap" --json >snap.json
	rc=$?
	test $rc -le 2 && clean snapdiag.vg
'

test_expect_success 'collect refusing a non-empty directory, and a missing parent' '
	vg refuse.vg "$ND" collect lo -o "$TRASH/snap" 2>refuse.err
	rc=$?
	test $rc = 3 && grep -q "not empty" refuse.err && clean refuse.vg &&
	vg noparent.vg "$ND" collect lo -o "$TRASH/nosuch/snap" 2>noparent.err
	rc=$?
	test $rc = 4 && clean noparent.vg
'

test_expect_success 'bench against serve, both under valgrind' '
	vg serve.vg "$ND" serve -p $PORT -1 -q &
	srv=$!
	test_when_finished "kill $srv 2>/dev/null; wait $srv 2>/dev/null"
	nd_wait_listen $PORT &&
	vg bench.vg "$ND" bench -c 127.0.0.1 -p $PORT -t 1 -J >bench.json &&
	wait $srv &&
	clean bench.vg && clean serve.vg &&
	python3 -c "import json; assert json.load(open(\"bench.json\"))[\"end\"][\"sum_received\"][\"bytes\"] > 0"
'

test_expect_success 'UDP bench against serve under valgrind' '
	PORT=$((PORT + 1))
	vg userve.vg "$ND" serve -p $PORT -1 -q &
	srv=$!
	test_when_finished "kill $srv 2>/dev/null; wait $srv 2>/dev/null"
	nd_wait_listen $PORT &&
	vg ubench.vg "$ND" bench -c 127.0.0.1 -p $PORT -t 1 -u -b 10M >ubench.out &&
	wait $srv &&
	clean ubench.vg && clean userve.vg
'

# Two targets at once (multi.c): a target's fields were once left
# uninitialised and bench bound to stack garbage.
test_expect_success 'bench with two targets (a port range) against serve -p RANGE, both under valgrind' '
	vg mserve.vg "$ND" serve -p 27371-27372 --tests 2 -q &
	srv=$!
	test_when_finished "kill $srv 2>/dev/null; wait $srv 2>/dev/null"
	nd_wait_listen 27372 &&
	vg mbench.vg "$ND" bench -c 127.0.0.1 -p 27371-27372 -t 1 -b 20M -J >multi.json &&
	wait $srv &&
	clean mbench.vg && clean mserve.vg &&
	python3 -c "import json; d = json.load(open(\"multi.json\")); assert len(d[\"targets\"]) == 2 and d[\"sum\"][\"received\"][\"bytes\"] > 0"
'

test_expect_success 'authentication under valgrind: a refused and an accepted client' '
	PORT=$((PORT + 2))
	command -v openssl >/dev/null && command -v sha256sum >/dev/null &&
	openssl genrsa -out priv.pem 2048 2>/dev/null &&
	openssl rsa -in priv.pem -pubout -out pub.pem 2>/dev/null &&
	printf "alice,%s\n" "$(printf "{%s}%s" alice secret | sha256sum | cut -d" " -f1)" >users.csv &&
	{ vg aserve.vg "$ND" serve -p $PORT -1 -q --rsa-private-key-path priv.pem \
		--authorized-users-path users.csv & } &&
	srv=$! &&
	test_when_finished "kill $srv 2>/dev/null; wait $srv 2>/dev/null" &&
	for i in $(seq 100); do
		ss -Hltn "sport = :$PORT" | grep -q . && break
		sleep 0.1
	done &&
	{ IPERF3_PASSWORD=wrong vg abad.vg "$ND" bench -c 127.0.0.1 -p $PORT -t 1 \
		--username alice --rsa-public-key-path pub.pem >/dev/null 2>&1; test $? = 4; } &&
	IPERF3_PASSWORD=secret vg agood.vg "$ND" bench -c 127.0.0.1 -p $PORT -t 1 \
		--username alice --rsa-public-key-path pub.pem >agood.out &&
	wait $srv &&
	clean abad.vg && clean agood.vg && clean aserve.vg
'

# fix --revert on a veth in a private network and UTS namespace, with the
# journal in the scratch directory: it never reaches the host's settings.
NS=nd-t5004-$$
if [ "$(id -u)" = 0 ] && command -v ip >/dev/null && command -v ethtool >/dev/null; then
	. "$TEST_DIR/fix-lib.sh"
	revert_ok=1
fi
# The last test: skipping it skips nothing else.
[ -n "$revert_ok" ] || test_skip_all="fix --revert needs root, ip and ethtool"

# vg inside the test's namespaces: valgrind runs nicdoctor itself.
vg_ns() {
	log=$1
	shift
	unshare -u ip netns exec "$NS" timeout 180 valgrind -q --leak-check=full \
		--show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite,indirect \
		--error-exitcode=99 --track-fds=no --log-file="$log" "$@"
}

test_expect_success 'fix --revert --list and fix --revert of two journals' '
	broken_veth &&
	fix nda --only offload.disabled --apply >/dev/null &&
	fix nda --only queues.single --apply >/dev/null &&
	vg_ns list.vg "$ND" fix --revert --list nda >list &&
	clean list.vg && grep -q "^2 journals, 2 to revert" list &&
	vg_ns revert.vg "$ND" fix --revert nda >out &&
	clean revert.vg && test $(grep -c "^reverted nda from " out) = 2 &&
	in_ns ethtool -k nda | grep -q "^generic-receive-offload: off"
'

test_done
