# test-lib.sh - a small git-style test library printing TAP.
#
#   test_description='what this file tests'
#   . ./test-lib.sh
#   test_expect_success 'title' '
#       cmd1 && cmd2
#   '
#   test_done
#
# Each script runs in its own scratch directory ($TRASH), removed on exit.
# test_when_finished registers a cleanup for the current test; nd_atexit
# one for the whole script (namespaces), run on every exit path, signals
# included.  Tests needing root call test_require_root first.

TEST_DIR=$(cd "$(dirname "$0")" && pwd)
SRC_DIR=$(cd "$TEST_DIR/../.." && pwd)
ND="${ND:-$SRC_DIR/nicdoctor}"
FIXTURES="$SRC_DIR/tests/fixtures"
export ND FIXTURES SRC_DIR

test_count=0
test_failed=0
test_skip_all=
test_cleanup=
script_cleanup=

TRASH=$(mktemp -d "${TMPDIR:-/tmp}/nd-test.XXXXXX") || exit 1
cd "$TRASH" || exit 1

nd_atexit() {
	script_cleanup="$1
$script_cleanup"
}

test_run_script_cleanup_() {
	eval "$script_cleanup"
	script_cleanup=
	cd / && rm -rf "$TRASH"
}
trap 'test_run_script_cleanup_' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

say() { printf '# %s\n' "$*"; }

test_when_finished() {
	test_cleanup="$1
$test_cleanup"
}

# The packaging tests (make install, make deb, the completion, the units)
# build and run the plain binary: under SAN=1 they would only repeat the
# plain pass, so they skip there.
test_skip_under_san() {
	if [ -n "${ND_SAN:-}" ]; then
		test_skip_all="under SAN=1 (packaging builds without sanitizers; run in the plain pass)"
	fi
}

test_require_root() {
	if [ "$(id -u)" != 0 ]; then
		test_skip_all="needs root"
	fi
}

test_require_cmd() {
	for cmd in "$@"; do
		command -v "$cmd" >/dev/null 2>&1 || test_skip_all="needs $cmd"
	done
}

# The body runs as this function's, so that a `return 1` in it (the loops'
# "|| return 1") fails its test; eval'd straight in test_expect_success it
# returned from test_expect_success, and the test was neither reported
# nor counted as failed.
test_run_body_() {
	eval "$body"
}

test_expect_success() {
	title=$1 body=$2
	test_count=$((test_count + 1))
	if [ -n "$test_skip_all" ]; then
		echo "ok $test_count - $title # SKIP $test_skip_all"
		return 0
	fi
	test_cleanup=
	# Run in this shell (as git does) so test_when_finished registers here.
	{ test_run_body_; } >"$TRASH/.out" 2>&1
	status=$?
	eval "$test_cleanup" >/dev/null 2>&1
	cd "$TRASH" || exit 1
	if [ $status -eq 0 ]; then
		echo "ok $test_count - $title"
	else
		echo "not ok $test_count - $title"
		sed 's/^/#   /' "$TRASH/.out"
		test_failed=$((test_failed + 1))
	fi
}

test_expect_code() {
	want=$1; shift
	"$@"
	got=$?
	if [ "$got" != "$want" ]; then
		echo "expected exit $want, got $got from: $*" >&2
		return 1
	fi
}

test_cmp() {
	diff -u "$1" "$2"
}

test_done() {
	echo "1..$test_count"
	[ "$test_failed" -eq 0 ]
	exit $?
}

# id severity ceiling title, for the bond checks of a JSON report.
nd_bond_findings() {
	python3 -c '
import json, sys
for f in json.load(sys.stdin)["findings"]:
    if f["id"].startswith("bond."):
        c = f["ceiling_mbps"]
        print(f["id"], f["severity"], "-" if c is None else round(c), f["title"])
'
}

# nd_wait_listen PORT: until a TCP socket listens on PORT (10 s at most;
# a server under valgrind or ASan takes a while to get there).
nd_wait_listen() {
	nd_wl_i=0
	while ! ss -Hltn "sport = :$1" | grep -q .; do
		nd_wl_i=$((nd_wl_i + 1))
		[ $nd_wl_i -le 200 ] || { echo "nothing listens on port $1" >&2; return 1; }
		sleep 0.05
	done
}

# A private network namespace, removed on every exit path.
nd_netns_add() {
	ip netns add "$1" || return 1
	nd_atexit "ip netns del '$1' 2>/dev/null"
}

# Print "id severity" for each finding of a JSON report on stdin.
nd_findings() {
	python3 -c '
import json, sys
for f in json.load(sys.stdin)["findings"]:
    print(f["id"], "skipped" if f.get("skipped") else f["severity"])
'
}

# Print one finding'"'"'s severity: nd_severity ID < report.json
nd_severity() {
	nd_findings | awk -v id="$1" '$1 == id { print $2 }'
}

# nd_amount_ok JSON COUNT KIND SLACK: -n/-k ended the test of a bench -J
# report.  The direction that ended it sent at least COUNT bytes (KIND
# bytes) or blocks of blksize (KIND blocks); no direction sent more than
# COUNT plus SLACK bytes (a block per stream where the sender stops at the
# count, what a -b paced UDP server sends while TEST_END crosses).
nd_amount_ok() {
	python3 - "$@" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
count, kind, slack = float(sys.argv[2]), sys.argv[3], float(sys.argv[4])
e, ts = d["end"], d["start"]["test_start"]
want = count * (ts["blksize"] if kind == "blocks" else 1)
sent = [e[k]["bytes"] for k in ("sum_sent", "sum_sent_bidir_reverse") if k in e]
print("sent", sent, "want", int(want), "at most", int(want + slack))
assert max(sent) >= want and max(sent) <= want + slack
PY
}

# nd_veth_mq_pair NSA NSB NET PORT: namespaces NSA and NSB joined by a
# 4-queue veth, nda (NET.1, an mq root qdisc) to ndb (NET.2), and serve -p
# PORT in NSB; all removed at exit.
nd_veth_mq_pair() {
	nd_netns_add "$1" && nd_netns_add "$2" &&
	ip -n "$1" link add nda numrxqueues 4 numtxqueues 4 type veth \
		peer ndb numrxqueues 4 numtxqueues 4 netns "$2" &&
	ip -n "$1" addr add "$3.1/24" dev nda &&
	ip -n "$2" addr add "$3.2/24" dev ndb &&
	ip -n "$1" link set nda up && ip -n "$2" link set ndb up &&
	ip netns exec "$1" tc qdisc add dev nda root handle 1: mq &&
	{ ip netns exec "$2" "$ND" serve -p "$4" >"$TRASH/serve.log" 2>&1 & } &&
	echo $! >"$TRASH/serve.pid" &&
	nd_atexit "kill \$(cat $TRASH/serve.pid) 2>/dev/null" &&
	sleep 0.5
}

# nd_nobody_copy: set ND_NOBODY to a copy of $ND that user nobody can run
# wherever the tree is (a checkout under /root is closed to others);
# removed at exit.  Not in $(...): the exit hook must register here.
nd_nobody_copy() {
	_bin=$(mktemp -d /tmp/nd-nobody.XXXXXX) || return 1
	nd_atexit "rm -rf '$_bin'"
	chmod 755 "$_bin" && cp "$ND" "$_bin/nicdoctor" && chmod 755 "$_bin/nicdoctor" &&
		ND_NOBODY=$_bin/nicdoctor
}
