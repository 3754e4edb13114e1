#!/bin/sh
test_description='fix --apply --peer: measures before and after each kind of change, keeps or rolls back each, and --revert restores the originals'
. ./test-lib.sh
test_require_root
test_require_cmd ip ethtool python3 openssl sha256sum

NSA=nd-t2004a-$$ NSB=nd-t2004b-$$
PORT=5294
IDS=queues.single,rps.off_single_queue,offload.disabled
export NICDOCTOR_STATE_DIR="$TRASH/state" NICDOCTOR_ETC_DIR="$TRASH/etc"
in_a() { ip netns exec "$NSA" "$@"; }
fix() { in_a "$ND" fix "$@"; }

[ "$(nproc)" -ge 2 ] || test_skip_all="needs 2 or more CPUs"

snapshot() {
	in_a ethtool -l nda && in_a ethtool -k nda &&
	for q in /sys/class/net/nda/queues/rx-*; do
		printf '%s %s\n' "${q##*/}" "$(in_a cat "$q/rps_cpus")"
	done
}

test_expect_success 'a broken veth between two namespaces, nicdoctor serve on the far end' '
	nd_netns_add "$NSA" && nd_netns_add "$NSB" &&
	ip -n "$NSA" link add nda numrxqueues 4 numtxqueues 4 type veth \
		peer ndb numrxqueues 4 numtxqueues 4 netns "$NSB" &&
	ip -n "$NSA" addr add 10.77.4.1/24 dev nda &&
	ip -n "$NSB" addr add 10.77.4.2/24 dev ndb &&
	ip -n "$NSA" link set nda up && ip -n "$NSB" link set ndb up &&
	in_a ethtool -L nda rx 1 &&
	in_a sh -c "echo 0 > /sys/class/net/nda/queues/rx-0/rps_cpus" &&
	in_a ethtool -K nda gro off &&
	snapshot >"$TRASH/before" &&
	{ ip netns exec "$NSB" "$ND" serve -p $PORT >"$TRASH/serve.log" 2>&1 & } &&
	nd_atexit "kill $! 2>/dev/null" &&
	sleep 0.5
'

test_expect_success 'an unreachable peer: exit 4 before any change' '
	test_expect_code 4 fix nda --only "$IDS" --apply --peer 10.77.4.2:1 --duration 1 \
		>out 2>err &&
	grep -q "^nicdoctor: cannot measure against '"'"'10.77.4.2'"'"': .*(nothing changed)$" err &&
	! ls "$NICDOCTOR_STATE_DIR"/journal-* 2>/dev/null &&
	snapshot >now && test_cmp "$TRASH/before" now
'

test_expect_success 'a peer the route reaches over lo: exit 3 before any change; no route: exit 4' '
	ip -n "$NSA" link set lo up &&
	test_expect_code 3 fix nda --only "$IDS" --apply --peer 127.0.0.1:$PORT --duration 1 \
		>out 2>err &&
	echo "nicdoctor: fix: 127.0.0.1 is reached through lo, not nda: --peer measures nda'"'"'s changes, name a peer reached through it" >want &&
	test_cmp want err && test ! -s out &&
	test_expect_code 3 fix nda --only "$IDS" --apply --peer 10.77.4.1:$PORT --duration 1 \
		>out 2>err &&
	grep -q "^nicdoctor: fix: 10.77.4.1 is reached through lo, not nda: " err &&
	test_expect_code 4 fix nda --only "$IDS" --apply --peer 10.99.0.1 >out 2>err &&
	grep -qx "nicdoctor: fix: no route to 10.99.0.1: Network is unreachable (nothing changed)" err &&
	! ls "$NICDOCTOR_STATE_DIR"/journal-* 2>/dev/null &&
	snapshot >now && test_cmp "$TRASH/before" now
'

test_expect_success '--apply --peer measures each kind and keeps only what did not hurt' '
	fix nda --only "$IDS" --apply --peer 10.77.4.2:$PORT --duration 1 >out &&
	grep -q "^throughput from 10.77.4.2: [0-9]* Mbit/s (run-to-run noise [0-9]*%, RTT " out &&
	grep -q "^throughput: before [0-9]* Mbit/s, after [0-9]* Mbit/s" out &&
	test $(grep -c "^  after \(offloads\|channels\|rps\): [0-9]* Mbit/s" out) = 3 &&
	python3 - "$NICDOCTOR_STATE_DIR" out <<-\PY
	import glob, json, re, subprocess, sys
	j = json.load(open(glob.glob(sys.argv[1] + "/journal-*-nda.json")[0]))
	assert j["state"] == "applied", j["state"]
	text = open(sys.argv[2]).read()
	undone = set(re.findall(r"^  after (\w+): .*rolling back$", text, re.M))
	for step in j["steps"]:
	    want = step["original"] if step["kind"] in undone else step["target"]
	    ns = ["ip", "netns", "exec", "'"$NSA"'"]
	    if step["kind"] == "offloads":
	        out = subprocess.run(ns + ["ethtool", "-k", "nda"], capture_output=True, text=True).stdout
	        now = "on" if "generic-receive-offload: on" in out else "off"
	    elif step["kind"] == "channels":
	        out = subprocess.run(ns + ["ethtool", "-l", "nda"], capture_output=True, text=True).stdout
	        now = out.split("Current hardware settings:")[1].split()[1]
	    else:
	        now = subprocess.run(ns + ["cat", "/sys/class/net/nda/" + step["key"]],
	                             capture_output=True, text=True).stdout.strip().lstrip("0") or "0"
	    assert now == want, (step, now, want)
	PY
'

test_expect_success '--revert restores the originals' '
	fix --revert nda >out &&
	snapshot >after && test_cmp "$TRASH/before" after
'

test_expect_success 'a peer that wants credentials: without them nothing changes; with them it measures' '
	openssl genrsa -out priv.pem 2048 2>/dev/null &&
	openssl rsa -in priv.pem -pubout -out pub.pem 2>/dev/null &&
	printf "alice,%s\n" "$(printf "{%s}%s" alice secret | sha256sum | cut -d" " -f1)" \
		>users.csv &&
	{ ip netns exec "$NSB" "$ND" serve -p $((PORT + 1)) --rsa-private-key-path priv.pem \
		--authorized-users-path users.csv >"$TRASH/serve-auth.log" 2>&1 & } &&
	nd_atexit "kill $! 2>/dev/null" &&
	sleep 0.5 &&
	ls "$NICDOCTOR_STATE_DIR" >journals.before &&
	test_expect_code 4 fix nda --only "$IDS" --apply --peer 10.77.4.2:$((PORT + 1)) \
		--duration 1 >out 2>err &&
	grep -q "^nicdoctor: cannot measure against .*(nothing changed)$" err &&
	ls "$NICDOCTOR_STATE_DIR" >journals.now && test_cmp journals.before journals.now &&
	snapshot >now && test_cmp "$TRASH/before" now &&
	IPERF3_PASSWORD=secret fix nda --only "$IDS" --apply --peer 10.77.4.2:$((PORT + 1)) \
		--duration 1 --username alice --rsa-public-key-path pub.pem >out &&
	grep -q "^throughput from 10.77.4.2: [0-9]* Mbit/s" out &&
	grep -q "^Authenticated as .alice.$" "$TRASH/serve-auth.log" &&
	fix --revert nda >/dev/null &&
	snapshot >after && test_cmp "$TRASH/before" after
'

test_expect_success 'bad --peer and --duration are usage errors' '
	test_expect_code 3 "$ND" fix --peer "[::1" 2>err &&
	test_expect_code 3 "$ND" fix --peer host:99999 2>err &&
	test_expect_code 3 "$ND" fix --peer host --duration 0 2>err &&
	test_expect_code 3 "$ND" fix --duration 5 2>err &&
	test_expect_code 3 "$ND" fix --username alice 2>err &&
	grep -q "^nicdoctor: fix: --username and --rsa-public-key-path need --peer$" err &&
	test_expect_code 3 "$ND" fix --peer host --username alice 2>err &&
	one_line_err() { test "$(wc -l <err)" = 1; } && one_line_err
'

test_done
