#!/bin/sh
test_description='iperf3 authentication, wire-compatible with 3.21 both ways: a key pair and users file made with openssl; wrong password, wrong key, skewed clock and hostile tokens refused with one line'
. ./test-lib.sh
test_require_cmd openssl python3 sha256sum

# Loopback only.  P_AUTH: our serve with auth; P_PKCS1: the same with
# --use-pkcs1-padding; P_SKEW: a skew threshold of two hours; P_PLAIN: no
# auth; P_NEW: iperf3 3.21 -s with auth; P_ONE: -1 with auth.
P_AUTH=5341 P_PKCS1=5342 P_SKEW=5343 P_PLAIN=5344 P_NEW=5345 P_ONE=5346 P_OLD=5347
IPERF3_NEW=${IPERF3_NEW:-$SRC_DIR/build-peers/iperf-3.21/bin/iperf3}
TOKEN="python3 $TEST_DIR/auth-token.py"

# Tests against iperf3 3.21 skip when it is not built (make peers).
test_expect_success_new() {
	if [ ! -x "$IPERF3_NEW" ]; then
		test_count=$((test_count + 1))
		echo "ok $test_count - $1 # SKIP no iperf3 3.21 at $IPERF3_NEW (make peers)"
		return 0
	fi
	test_expect_success "$@"
}

# serve_bg PORT ARGS...: our server, stopped on exit; its log serve-PORT.log.
serve_bg() {
	port=$1; shift
	{ "$ND" serve -p "$port" --max-tests 4 --idle-timeout 2 "$@" \
		>"$TRASH/serve-$port.log" 2>&1 & } &&
	nd_atexit "kill $! 2>/dev/null" &&
	sleep 0.3
}

# bench_as PASSWORD PORT ARGS...: our client with these credentials.
bench_as() {
	pw=$1 port=$2; shift 2
	IPERF3_PASSWORD=$pw "$ND" bench -c 127.0.0.1 -p "$port" -t 1 "$@"
}

# one_line FILE: the file is exactly one line.
one_line() {
	test "$(wc -l <"$1")" -eq 1 || { cat "$1"; return 1; }
}

# token TS [PADDING]: an authtoken for alice/secret made by openssl itself,
# with the client clock at TS.
token() {
	printf 'user: %s\npwd:  %s\nts:   %s' alice secret "$1" |
	openssl pkeyutl -encrypt -pubin -inkey "$TRASH/pub.pem" \
		-pkeyopt "rsa_padding_mode:${2:-oaep}" | base64 -w0
}

test_expect_success 'keys, a users file with comments, CRLF and two users; the servers' '
	openssl genrsa -out priv.pem 2048 2>/dev/null &&
	openssl rsa -in priv.pem -pubout -out pub.pem 2>/dev/null &&
	openssl genrsa -out other.pem 2048 2>/dev/null &&
	openssl rsa -in other.pem -pubout -out other-pub.pem 2>/dev/null &&
	{
		echo "# iperf3 users: name,sha256 of {name}password" &&
		echo &&
		printf "bob,%s\r\n" "$(printf "{%s}%s" bob hunter2 | sha256sum | cut -d" " -f1)" &&
		printf "alice,%s\n" "$(printf "{%s}%s" alice secret | sha256sum | cut -d" " -f1)"
	} >users.csv &&
	AUTH="--rsa-private-key-path priv.pem --authorized-users-path users.csv" &&
	serve_bg $P_AUTH $AUTH &&
	serve_bg $P_PKCS1 $AUTH --use-pkcs1-padding &&
	serve_bg $P_SKEW $AUTH --time-skew-threshold 7200 &&
	serve_bg $P_PLAIN &&
	if [ -x "$IPERF3_NEW" ]; then
		{ "$IPERF3_NEW" -s -p $P_NEW $AUTH >iperf3-new.log 2>&1 & } &&
		nd_atexit "kill $! 2>/dev/null"
	fi
'

test_expect_success 'bench -> serve with auth: both users authenticate' '
	bench_as secret $P_AUTH --username alice --rsa-public-key-path pub.pem -J >a.json &&
	python3 -c "import json; d = json.load(open(\"a.json\")); assert d[\"end\"][\"sum_received\"][\"bytes\"] > 0" &&
	bench_as hunter2 $P_AUTH --username bob --rsa-public-key-path pub.pem >b.txt &&
	grep "receiver" b.txt &&
	grep "^Authenticated as '"'"'alice'"'"'" serve-$P_AUTH.log &&
	grep "^Authenticated as '"'"'bob'"'"'" serve-$P_AUTH.log
'

test_expect_success 'the password is asked on the terminal without echo when IPERF3_PASSWORD is unset' '
	(sleep 1; echo secret; sleep 4) | script -qec "env -u IPERF3_PASSWORD \"$ND\" bench \
		-c 127.0.0.1 -p $P_AUTH -t 1 --username alice --rsa-public-key-path pub.pem" \
		/dev/null >tty.txt &&
	grep "^Password: " tty.txt &&
	grep "receiver" tty.txt &&
	! grep secret tty.txt
'

test_expect_success 'without IPERF3_PASSWORD and a terminal: one line, exit 4, nothing sent' '
	test_expect_code 4 env -u IPERF3_PASSWORD "$ND" bench -c 127.0.0.1 -p $P_AUTH -t 1 \
		--username alice --rsa-public-key-path pub.pem </dev/null 2>err >/dev/null &&
	one_line err && grep "set IPERF3_PASSWORD or run on a terminal" err
'

test_expect_success_new 'iperf3 3.21 client -> serve with auth: ok' '
	IPERF3_PASSWORD=secret "$IPERF3_NEW" -c 127.0.0.1 -p $P_AUTH -t 1 --username alice \
		--rsa-public-key-path pub.pem -J >new.json &&
	python3 -c "import json; d = json.load(open(\"new.json\")); assert \"error\" not in d, d[\"error\"]; assert d[\"end\"][\"sum_received\"][\"bytes\"] > 0"
'

test_expect_success_new 'iperf3 3.21 client with a wrong password -> serve: test authorization failed' '
	! IPERF3_PASSWORD=wrong "$IPERF3_NEW" -c 127.0.0.1 -p $P_AUTH -t 1 --username alice \
		--rsa-public-key-path pub.pem >new.txt 2>&1 &&
	grep "error - test authorization failed" new.txt
'

test_expect_success_new 'bench -> iperf3 3.21 server with auth: ok' '
	bench_as secret $P_NEW --username alice --rsa-public-key-path pub.pem -J >n.json &&
	python3 -c "import json; d = json.load(open(\"n.json\")); assert d[\"end\"][\"sum_received\"][\"bytes\"] > 0"
'

test_expect_success_new 'bench -> iperf3 3.21: wrong password, wrong key, none: refused, one line, exit 4' '
	test_expect_code 4 bench_as wrong $P_NEW --username alice \
		--rsa-public-key-path pub.pem 2>err >/dev/null &&
	one_line err && grep "authentication refused" err &&
	test_expect_code 4 bench_as secret $P_NEW --username alice \
		--rsa-public-key-path other-pub.pem 2>err >/dev/null &&
	one_line err && grep "authentication refused" err &&
	test_expect_code 4 "$ND" bench -c 127.0.0.1 -p $P_NEW -t 1 2>err >/dev/null &&
	one_line err && grep "requires --username and --rsa-public-key-path" err
'

test_expect_success 'wrong password: refused with one line, the server says why' '
	test_expect_code 4 bench_as wrong $P_AUTH --username alice \
		--rsa-public-key-path pub.pem 2>err >/dev/null &&
	one_line err && grep "test authorization failed (wrong user, password" err &&
	grep "authentication of '"'"'alice'"'"' failed: no such user with this password in '"'"'users.csv'"'"'" \
		serve-$P_AUTH.log &&
	test_expect_code 4 bench_as secret $P_AUTH --username carol \
		--rsa-public-key-path pub.pem 2>err >/dev/null &&
	one_line err && grep "'"'"'carol'"'"' failed" serve-$P_AUTH.log &&
	! grep -e secret -e wrong serve-$P_AUTH.log
'

test_expect_success 'wrong key: refused with one line, the server says it does not decrypt' '
	test_expect_code 4 bench_as secret $P_AUTH --username alice \
		--rsa-public-key-path other-pub.pem 2>err >/dev/null &&
	one_line err && grep "test authorization failed" err &&
	grep "do not decrypt with the server'"'"'s key" serve-$P_AUTH.log
'

test_expect_success 'no credentials against serve with auth: refused, it names the options' '
	test_expect_code 4 "$ND" bench -c 127.0.0.1 -p $P_AUTH -t 1 2>err >/dev/null &&
	one_line err && grep "the server wants --username and --rsa-public-key-path" err &&
	grep "the client sent no credentials" serve-$P_AUTH.log
'

test_expect_success 'a token made by openssl now is accepted; an hour off is refused as a skewed clock' '
	token "$(date +%s)" >now.tok && $TOKEN $P_AUTH now.tok >ans && cat ans &&
	test "$(cat ans)" = CREATE_STREAMS &&
	token "$(($(date +%s) - 3600))" >late.tok && $TOKEN $P_AUTH late.tok >ans &&
	test "$(cat ans)" = "SERVER_ERROR 142" &&
	grep "its clock is 3[56][0-9][0-9] s behind the server'"'"'s (more than --time-skew-threshold 10)" \
		serve-$P_AUTH.log &&
	token "$(($(date +%s) + 60))" >early.tok && $TOKEN $P_AUTH early.tok >ans &&
	test "$(cat ans)" = "SERVER_ERROR 142" &&
	grep "s ahead of the server" serve-$P_AUTH.log
'

test_expect_success '--time-skew-threshold 7200 takes a token an hour off' '
	token "$(($(date +%s) - 3600))" >late.tok &&
	$TOKEN $P_SKEW late.tok >ans && test "$(cat ans)" = CREATE_STREAMS
'

test_expect_success '--use-pkcs1-padding on both ends; OAEP against it is refused' '
	bench_as secret $P_PKCS1 --username alice --rsa-public-key-path pub.pem \
		--use-pkcs1-padding >p.txt && grep receiver p.txt &&
	token "$(date +%s)" pkcs1 >pk.tok && $TOKEN $P_PKCS1 pk.tok >ans &&
	test "$(cat ans)" = CREATE_STREAMS &&
	test_expect_code 4 bench_as secret $P_PKCS1 --username alice \
		--rsa-public-key-path pub.pem 2>err >/dev/null && one_line err &&
	test_expect_code 4 bench_as secret $P_AUTH --username alice \
		--rsa-public-key-path pub.pem --use-pkcs1-padding 2>err >/dev/null && one_line err
'

# Debian's iperf3 3.12 encrypts with PKCS#1 v1.5 (OAEP came in 3.17).
test_expect_success 'iperf3 3.12 both ways, with --use-pkcs1-padding' '
	IPERF3_PASSWORD=secret iperf3 -c 127.0.0.1 -p $P_PKCS1 -t 1 --username alice \
		--rsa-public-key-path pub.pem -J >old.json &&
	python3 -c "import json; d = json.load(open(\"old.json\")); assert \"error\" not in d, d[\"error\"]" &&
	{ iperf3 -s -p $P_OLD $AUTH >iperf3-old.log 2>&1 & } && pid=$! &&
	nd_atexit "kill $pid 2>/dev/null" && sleep 0.3 &&
	bench_as secret $P_OLD --username alice --rsa-public-key-path pub.pem \
		--use-pkcs1-padding >o.txt && grep receiver o.txt &&
	test_expect_code 4 bench_as wrong $P_OLD --username alice \
		--rsa-public-key-path pub.pem --use-pkcs1-padding 2>err >/dev/null &&
	one_line err && grep "test authorization failed" err
'

test_expect_success 'hostile tokens are refused and the server goes on' '
	printf "not base64!!" >bad.tok && $TOKEN $P_AUTH bad.tok >ans &&
	test "$(cat ans)" = "SERVER_ERROR 142" &&
	python3 -c "print(\"QUFB\" * 1500)" >long.tok && $TOKEN $P_AUTH long.tok >ans &&
	test "$(cat ans)" = "SERVER_ERROR 142" &&
	printf "QUFBQQ==" >short.tok && $TOKEN $P_AUTH short.tok >ans &&
	test "$(cat ans)" = "SERVER_ERROR 142" &&
	$TOKEN $P_AUTH -json 5 >ans && test "$(cat ans)" = "SERVER_ERROR 142" &&
	$TOKEN $P_AUTH -json "\"\"" >ans && test "$(cat ans)" = "SERVER_ERROR 142" &&
	bench_as secret $P_AUTH --username alice --rsa-public-key-path pub.pem >ok.txt &&
	grep receiver ok.txt
'

test_expect_success 'serve without auth refuses any credentials, as before' '
	test_expect_code 4 bench_as secret $P_PLAIN --username alice \
		--rsa-public-key-path pub.pem 2>err >/dev/null &&
	one_line err && grep "test authorization failed" err &&
	grep "authentication requested, refused" serve-$P_PLAIN.log &&
	"$ND" bench -c 127.0.0.1 -p $P_PLAIN -t 1 >plain.txt && grep receiver plain.txt
'

test_expect_success 'serve -1: a refused client does not use up the one test' '
	{ "$ND" serve -p $P_ONE -1 --rsa-private-key-path priv.pem \
		--authorized-users-path users.csv >one.log 2>&1 & } && pid=$! &&
	nd_atexit "kill $pid 2>/dev/null" && sleep 0.3 &&
	test_expect_code 4 bench_as wrong $P_ONE --username alice \
		--rsa-public-key-path pub.pem 2>/dev/null >/dev/null &&
	sleep 0.3 && kill -0 $pid &&
	bench_as secret $P_ONE --username alice --rsa-public-key-path pub.pem >one.txt &&
	grep receiver one.txt && sleep 0.5 && ! kill -0 $pid 2>/dev/null
'

test_expect_success 'usage: half of a pair, a bad threshold, white space; files: missing, not a key' '
	test_expect_code 3 "$ND" serve -p $P_ONE --rsa-private-key-path priv.pem 2>err &&
	one_line err && grep "go together" err &&
	test_expect_code 3 "$ND" serve -p $P_ONE --authorized-users-path users.csv 2>err &&
	test_expect_code 3 "$ND" serve -p $P_ONE --time-skew-threshold 5 2>err &&
	one_line err && grep "need --rsa-private-key-path" err &&
	test_expect_code 3 "$ND" serve -p $P_ONE $AUTH --time-skew-threshold 0 2>err &&
	test_expect_code 4 "$ND" serve -p $P_ONE --rsa-private-key-path priv.pem \
		--authorized-users-path nosuch.csv 2>err &&
	one_line err && grep "cannot read '"'"'nosuch.csv'"'"'" err &&
	test_expect_code 4 "$ND" serve -p $P_ONE --rsa-private-key-path pub.pem \
		--authorized-users-path users.csv 2>err &&
	one_line err && grep "is not a PEM RSA private key" err &&
	test_expect_code 3 "$ND" bench -c 127.0.0.1 -p $P_AUTH --username alice 2>err &&
	one_line err && grep "go together" err &&
	test_expect_code 4 bench_as secret $P_AUTH --username alice \
		--rsa-public-key-path users.csv 2>err && one_line err &&
	grep "is not a PEM RSA public key" err &&
	test_expect_code 3 bench_as "a b" $P_AUTH --username alice \
		--rsa-public-key-path pub.pem 2>err && one_line err &&
	grep "without white space" err
'

test_done
