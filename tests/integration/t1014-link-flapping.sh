#!/bin/sh
test_description='link.phy_errors: a carrier that goes down and up during the sample is a flapping link'
. ./test-lib.sh
test_require_root
test_require_cmd ip python3

NS=nd-t1014-$$
diag() { ip netns exec "$NS" "$ND" diagnose --no-traffic "$@"; }

# The title of one finding of a JSON report on stdin.
title_of() {
	python3 -c '
import json, sys
for f in json.load(sys.stdin)["findings"]:
    if f["id"] == sys.argv[1]:
        print(f["title"])
' "$1"
}

test_expect_success 'set up a veth pair in a namespace' '
	nd_netns_add "$NS" &&
	ip -n "$NS" link add nda type veth peer ndb &&
	ip -n "$NS" link set nda up && ip -n "$NS" link set ndb up
'

test_expect_success 'a steady veth: no wire, nothing flaps: not a warning' '
	{ diag nda --sample 1 --json >steady.json; test $? -le 2; } &&
	sev=$(nd_severity link.phy_errors <steady.json) &&
	test -n "$sev" && test "$sev" != warning
'

test_expect_success 'the peer flapping through the whole sample: link flapping, a warning' '
	( while :; do ip -n "$NS" link set ndb down; sleep 0.1;
		ip -n "$NS" link set ndb up; sleep 0.1; done ) >/dev/null 2>&1 &
	flapper=$! &&
	test_when_finished "kill $flapper 2>/dev/null; wait $flapper 2>/dev/null;
		ip -n $NS link set ndb up" &&
	{ diag nda --sample 2 --json >flap.json; test $? -le 2; } &&
	test "$(nd_severity link.phy_errors <flap.json)" = warning &&
	title_of link.phy_errors <flap.json | grep -q "^link flapping: the carrier changed [0-9]* times during the last 2 s"
'

test_done
