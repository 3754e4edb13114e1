#!/bin/sh
test_description="serve takes iperf3 3.21's server-side flags with their meanings: --json-stream[-full-output], --timestamps, -F, --snd-timeout, --cntl-ka, -m"
. ./test-lib.sh
test_require_cmd python3 timeout strace ss cmp

NEW=${IPERF3_NEW:-$SRC_DIR/build-peers/iperf-3.21/bin/iperf3}
OLD=$(command -v iperf3 || true)	# Debian's 3.12, where it has the flag
[ -x "$NEW" ] || test_skip_all="no iperf3 3.21 at '$NEW' (make peers, or IPERF3_NEW)"
# Ports 5860-5879 are this script's alone.
P_JS=5860 P_JS3=5861 P_FULL=5862 P_CMD=5863 P_TS=5864 P_TS3=5865 P_FF=5866 P_FR=5867
P_FU=5868 P_SND=5869 P_KA=5870 P_MP=5871 P_BAD=5872 P_F12=5873 P_DBG=5874 P_LAY=5875

# our_server PORT FLAGS...: one test, stdout in server.out
our_server() {
	port=$1; shift
	"$ND" serve -1 -B 127.0.0.1 -p "$port" "$@" >server.out 2>server.err &
	srv=$!
	test_when_finished "kill $srv 2>/dev/null"
	nd_wait_listen "$port"
}

# new_server PORT FLAGS...: 3.21's server, the same way, stdout in theirs.out
new_server() {
	port=$1; shift
	"$NEW" -s -1 -B 127.0.0.1 -p "$port" "$@" >theirs.out 2>theirs.err &
	srv=$!
	test_when_finished "kill $srv 2>/dev/null"
	nd_wait_listen "$port"
}

# The event names of a --json-stream output, each line parsed as JSON
# (a line that is not fails), a run of "interval" as one.
events() {
	python3 -c '
import json, sys
names = []
for line in open(sys.argv[1]):
    ev = json.loads(line)
    assert set(ev) == {"event", "data"}, ev
    if not (names and names[-1] == ev["event"] == "interval"):
        names.append(ev["event"])
print(" ".join(names))' "$1"
}

# Both servers with the same flags against the same 3.21 client: the same
# event names in the same order.
same_events() {
	port=$1 sflags=$2 cflags=$3
	new_server "$port" $sflags &&
	{ timeout 20 "$NEW" -c 127.0.0.1 -p "$port" $cflags >/dev/null 2>&1; wait $srv; true; } &&
	events theirs.out >theirs.ev &&
	our_server "$port" $sflags &&
	{ timeout 20 "$NEW" -c 127.0.0.1 -p "$port" $cflags >/dev/null 2>&1; true; } &&
	wait $srv && events server.out >ours.ev &&
	cat ours.ev && test_cmp theirs.ev ours.ev
}

test_expect_success '--json-stream: 3.21 event lines, TCP' '
	same_events $P_JS --json-stream "-t 2" &&
	echo "start interval end" >want && test_cmp want ours.ev
'

test_expect_success '--json-stream: 3.21 event lines, UDP -R' '
	same_events $P_JS3 --json-stream "-t 2 -u -R -b 10M"
'

test_expect_success '--json-stream: a refused test ends in "error" and an empty "end", as 3.21' '
	same_events $P_FU "--json-stream -F $TRASH/never.bin" "-u -t 1" &&
	echo "error end" >want && test_cmp want ours.ev &&
	grep -q "cannot transfer file using UDP" server.out &&
	python3 -c "import json,sys; assert json.loads(open(sys.argv[1]).readlines()[-1])[\"data\"] == {}" server.out
'

test_expect_success '--json-stream-full-output: the events, then -J'"'"'s object; alone, plain text (as 3.21)' '
	our_server $P_FULL --json-stream --json-stream-full-output &&
	timeout 20 "$NEW" -c 127.0.0.1 -p $P_FULL -t 1 >/dev/null && wait $srv &&
	python3 -c "
import json, sys
text = open(sys.argv[1]).read()
lines = text.split(\"\n\")
# one line an event; a loaded machine may end a 1 s test with a second,
# partial interval; then the whole object over many lines
n = lines.index(\"{\")
evs = [json.loads(l)[\"event\"] for l in lines[:n]]
assert evs[0] == \"start\" and evs[-1] == \"end\" and len(evs) >= 3, evs
assert set(evs[1:-1]) == {\"interval\"}, evs
full = json.loads(\"\n\".join(lines[n:]))
assert set([\"start\", \"intervals\", \"end\"]) <= set(full), list(full)
assert full[\"intervals\"], \"no intervals kept\"
" server.out &&
	our_server $P_FULL --json-stream-full-output &&
	timeout 20 "$NEW" -c 127.0.0.1 -p $P_FULL -t 1 >/dev/null && wait $srv &&
	grep -q "^Server listening on $P_FULL" server.out &&
	grep -q " receiver$" server.out
'

test_expect_success 'nicdoctor iperf3 -s --json-stream -1: the same events' '
	"$ND" iperf3 -s --json-stream -1 -B 127.0.0.1 -p $P_CMD >server.out 2>server.err &
	srv=$! && test_when_finished "kill $srv 2>/dev/null" && nd_wait_listen $P_CMD &&
	timeout 20 "$NEW" -c 127.0.0.1 -p $P_CMD -t 1 -R >/dev/null && wait $srv &&
	events server.out >ours.ev && echo "start interval end" >want && test_cmp want ours.ev
'

# Every line of FILE starts with the time in the default %c format.
all_stamped() {
	test -s "$1" &&
	! grep -Ev "^[A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9][0-9] [0-9]{2}:[0-9]{2}:[0-9]{2} [0-9]{4} " "$1"
}

test_expect_success '--timestamps: every line of the server starts with the time (3.21 client)' '
	our_server $P_TS --timestamps -V &&
	timeout 20 "$NEW" -c 127.0.0.1 -p $P_TS -t 1 >/dev/null && wait $srv &&
	cat server.out && all_stamped server.out &&
	grep -q "Accepted connection" server.out && grep -q " receiver$" server.out
'

test_expect_success '--timestamps=FORMAT, strftime: every line (3.12 client), as 3.21 prints it' '
	new_server $P_TS3 "--timestamps=%s " &&
	timeout 20 "$NEW" -c 127.0.0.1 -p $P_TS3 -t 1 >/dev/null && wait $srv &&
	! grep -Ev "^[0-9]{10} " theirs.out &&
	our_server $P_TS3 "--timestamps=%s " &&
	timeout 20 "${OLD:-$NEW}" -c 127.0.0.1 -p $P_TS3 -t 1 >/dev/null && wait $srv &&
	test -s server.out && ! grep -Ev "^[0-9]{10} " server.out
'

test_expect_success '--timestamps: each line reaches a file as printed, not at exit' '
	"$ND" serve -B 127.0.0.1 -p $P_TS --timestamps >server.out 2>server.err &
	srv=$! && test_when_finished "kill $srv 2>/dev/null" && nd_wait_listen $P_TS &&
	timeout 20 "$NEW" -c 127.0.0.1 -p $P_TS -t 1 >/dev/null && sleep 0.3 &&
	cat server.out && grep -q "Accepted connection" server.out &&
	grep -q " receiver$" server.out && all_stamped server.out &&
	{ kill $srv; wait $srv; true; }
'

test_expect_success '-B ADDR%DEV: ADDR bound on DEV (--bind-dev), as 3.21; a bad DEV is exit 3' '
	our_server $P_BAD -B 127.0.0.1%lo &&
	ss -Hltn "sport = :$P_BAD" | grep -q "127.0.0.1%lo:$P_BAD" &&
	timeout 20 "$NEW" -c 127.0.0.1 -p $P_BAD -t 1 >/dev/null && wait $srv &&
	test_expect_code 3 "$ND" serve -p $P_BAD -B "127.0.0.1%a/b"
'

test_expect_success '--timestamps leaves --json-stream lines JSON, as 3.21' '
	same_events $P_TS "--json-stream --timestamps" "-t 1"
'

test_expect_success '-F FILE: what the 3.21 client sends (-n, its own -F) is written to FILE; -J diskfile' '
	head -c 1048576 /dev/urandom >src.bin && rm -f got.bin &&
	our_server $P_FF -F "$TRASH/got.bin" -J &&
	timeout 20 "$NEW" -c 127.0.0.1 -p $P_FF -n 1M -F src.bin >/dev/null && wait $srv &&
	cmp src.bin got.bin &&
	python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))[\"end\"][\"streams\"][0]
assert list(d) == [\"sender\", \"diskfile\", \"receiver\"], list(d)
f = d[\"diskfile\"]
assert f[\"received\"] == f[\"size\"] == 1048576 and f[\"percent_received\"] == 100, f
assert f[\"filename\"].endswith(\"got.bin\"), f
" server.out
'

test_expect_success '-F FILE: a 3.21 client sending without a file: FILE holds the -n bytes; the text line' '
	rm -f got.bin && our_server $P_FF -F "$TRASH/got.bin" &&
	timeout 20 "$NEW" -c 127.0.0.1 -p $P_FF -n 512K >/dev/null && wait $srv &&
	test "$(stat -c %s got.bin)" = 524288 &&
	grep -E "^        Sent +512 KByte / +512 KByte \(100%\) of .*got.bin$" server.out
'

test_expect_success '-F FILE with -R: the server sends the content of FILE (3.21 client -F receives it)' '
	head -c 1048576 /dev/urandom >src.bin && rm -f got.bin &&
	our_server $P_FR -F "$TRASH/src.bin" &&
	timeout 20 "$NEW" -c 127.0.0.1 -p $P_FR -R -n 1048576 -F got.bin >/dev/null && wait $srv &&
	cmp src.bin got.bin &&
	grep -E "^        Sent 1.00 MByte / 1.00 MByte \(100%\) of .*src.bin$" server.out
'

test_expect_success '-F FILE: Debian 3.12 client, both ways' '
	test -z "$OLD" && echo "no 3.12 here" || {
	head -c 1048576 /dev/urandom >src.bin && rm -f got.bin back.bin &&
	our_server $P_F12 -F "$TRASH/got.bin" &&
	timeout 20 "$OLD" -c 127.0.0.1 -p $P_F12 -F src.bin >/dev/null && wait $srv &&
	cmp src.bin got.bin &&
	our_server $P_F12 -F "$TRASH/src.bin" &&
	timeout 20 "$OLD" -c 127.0.0.1 -p $P_F12 -R -n 1048576 -F back.bin >/dev/null && wait $srv &&
	cmp src.bin back.bin; }
'

test_expect_success '-F with a UDP test: refused as 3.21 refuses it' '
	our_server $P_FU -F "$TRASH/never.bin" &&
	{ timeout 20 "$NEW" -c 127.0.0.1 -p $P_FU -u -t 1 >client.out 2>&1; echo $? >rc; } &&
	wait $srv && cat client.out && test "$(cat rc)" = 1 &&
	grep -q "SERVER ERROR - cannot transfer file using UDP" client.out && test ! -e never.bin
'

test_expect_success '-F FILE missing with -R: refused at once with 3.21'"'"'s "unable to open -F file"' '
	our_server $P_FU -F "$TRASH/missing.bin" &&
	{ timeout 10 "$NEW" -c 127.0.0.1 -p $P_FU -R -t 1 >client.out 2>&1; echo $? >rc; } &&
	wait $srv && cat client.out && test "$(cat rc)" = 1 &&
	grep -q "SERVER ERROR - unable to open -F file" client.out
'

# straced PORT FLAGS...: serve -1 under strace, its setsockopt calls in st.out
# (LeakSanitizer cannot run under ptrace: off there for a SAN build).
straced() {
	port=$1; shift
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	strace -f -qq -e trace=setsockopt -o st.out \
		"$ND" serve -1 -B 127.0.0.1 -p "$port" "$@" >server.out 2>server.err &
	srv=$!
	test_when_finished "kill $srv 2>/dev/null"
	nd_wait_listen "$port"
}

test_expect_success '--snd-timeout MS: TCP_USER_TIMEOUT on the control and the data sockets' '
	straced $P_SND --snd-timeout 2500 &&
	timeout 20 "$NEW" -c 127.0.0.1 -p $P_SND -t 1 -P 2 >/dev/null && wait $srv &&
	test "$(grep -c "TCP_USER_TIMEOUT, \[2500\], 4) = 0" st.out)" -ge 3
'

test_expect_success '--cntl-ka=IDLE/INTV/CNT: keepalive on the control connection (strace, ss timer)' '
	straced $P_KA --cntl-ka=30/5/3 &&
	{ timeout 20 "$NEW" -c 127.0.0.1 -p $P_KA -t 3 >/dev/null & cli=$!; } &&
	sleep 1.5 && ss -tno state established "( sport = :$P_KA )" >ss.out &&
	wait $cli && wait $srv && cat ss.out &&
	grep -q "SO_KEEPALIVE, \[1\], 4) = 0" st.out &&
	grep -q "TCP_KEEPIDLE, \[30\], 4) = 0" st.out &&
	grep -q "TCP_KEEPINTVL, \[5\], 4) = 0" st.out &&
	grep -q "TCP_KEEPCNT, \[3\], 4) = 0" st.out &&
	test "$(grep -c "timer:(keepalive" ss.out)" = 1
'

test_expect_success '--cntl-ka alone keeps the system values; IDLE not above INTV*CNT is a usage error' '
	straced $P_KA --cntl-ka &&
	timeout 20 "$NEW" -c 127.0.0.1 -p $P_KA -t 1 >/dev/null && wait $srv &&
	grep -q "SO_KEEPALIVE, \[1\], 4) = 0" st.out && ! grep -q TCP_KEEPIDLE st.out &&
	test_expect_code 3 "$ND" serve -p $P_BAD --cntl-ka=10/5/3 2>err && cat err &&
	test "$(wc -l <err)" = 1
'

test_expect_success '-m: MPTCP listeners where the kernel runs it, else refused in one line (exit 4)' '
	if [ "$(cat /proc/sys/net/mptcp/enabled 2>/dev/null)" = 1 ]; then
		our_server $P_MP -m &&
		ss -Mltn "sport = :$P_MP" | grep -q "^mptcp" &&
		{ timeout 20 "$NEW" -c 127.0.0.1 -p $P_MP -m -t 2 >client.out & cli=$!; } &&
		sleep 1 && ss -MHtn "sport = :$P_MP" >ss.out &&
		wait $cli && wait $srv && cat ss.out &&
		grep -q "^mptcp *ESTAB" ss.out && grep -q " receiver$" client.out
	else
		test_expect_code 4 "$ND" serve -p $P_MP -m 2>err && cat err &&
		test "$(wc -l <err)" = 1 && grep -q MPTCP err
	fi
'

# The server's text in 3.21's layout: the same lines once numbers, units
# and the banner (ours names the program) are masked; the rules between
# tests dropped, and so is every row after the first second of these 1 s
# tests: either end may print the last partial interval ("1.00-1.00 sec")
# or not, as the timing falls.
server_shape() {
	sed -E -e '/^Server listening on /d; /^-{59}$/d' \
	       -e '/^\[[ 0-9SUM]+\](\[[A-Z-]+\])? +[1-9][0-9]*\.[0-9]+-[0-9.]+ +sec /d' \
	       -e 's/ +[0-9]+(\.[0-9]+)?/ N/g; s/[0-9]+(\.[0-9]+)?/N/g' \
	       -e 's/[KMGT]?(Bytes|bits)/U\1/g; s/ +$//' "$1" | uniq
}

server_layout() {
	new_server $P_LAY && timeout 20 "$NEW" -c 127.0.0.1 -p $P_LAY $1 >/dev/null &&
	wait $srv && our_server $P_LAY && timeout 20 "$NEW" -c 127.0.0.1 -p $P_LAY $1 >/dev/null &&
	wait $srv && server_shape theirs.out >theirs.shape && server_shape server.out >ours.shape &&
	test_cmp theirs.shape ours.shape
}

for flags in "-t 1" "-R -t 1" "--bidir -t 1" "-P 2 -t 1" "-u -b 10M -P 2 -t 1" "-u -R -b 10M -t 1"; do
	test_expect_success "serve: 3.21's server text layout for '$flags'" "server_layout '$flags'"
done

test_expect_success '-d: 3.21s debug lines on stderr (states, parameters, results), stdout as without' '
	our_server $P_DBG -d && timeout 20 "$NEW" -c 127.0.0.1 -p $P_DBG -t 1 >/dev/null &&
	wait $srv && cat server.err &&
	grep -qx "State change: State set to 9-PARAM_EXCHANGE - Client to Server Parameters Exchange" \
		server.err &&
	grep -qx "get_parameters:" server.err && grep -q "\"client_version\":.*\"3.21\"" server.err &&
	grep -qx "State change: server received and changed State to 4-TEST_END" server.err &&
	grep -qx "send_results:" server.err &&
	grep -qx "State change: server received and changed State to 16-IPERF_DONE" server.err &&
	! grep -q "State change" server.out && grep -q "receiver$" server.out &&
	our_server $P_DBG --debug=1 && timeout 20 "$NEW" -c 127.0.0.1 -p $P_DBG -t 1 >/dev/null &&
	wait $srv && grep -q "State change" server.err &&
	test_expect_code 3 "$ND" serve -p $P_DBG --debug=9 2>err && cat err &&
	grep -q "invalid value .9." err &&
	test_expect_code 3 "$ND" serve -p $P_DBG -d=1 2>err && cat err &&
	grep -qx "nicdoctor: serve: unknown or incomplete option .-=. (in .-d=1.)" err
'

test_expect_success 'bad values of the new flags are usage errors; --cport is taken (3.21 ignores it too)' '
	test_expect_code 3 "$ND" serve -p $P_BAD --snd-timeout -1 &&
	test_expect_code 3 "$ND" serve -p $P_BAD --snd-timeout x &&
	test_expect_code 3 "$ND" serve -p $P_BAD --cport 70000 &&
	test_expect_code 3 "$ND" serve -p $P_BAD -X foo &&
	"$ND" serve -h | grep -q -- "--json-stream" &&
	our_server $P_BAD --cport 5000 &&
	timeout 20 "$NEW" -c 127.0.0.1 -p $P_BAD -t 1 >/dev/null && wait $srv
'

test_done
