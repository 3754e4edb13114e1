#!/bin/sh
test_description='hostile support-bundle tarballs: nothing written or read outside, no hang, one line'
. ./test-lib.sh
test_require_cmd python3

# Private temporary directories go here, so a leftover is seen.
export TMPDIR="$TRASH/tmp"
mkdir -p "$TMPDIR"
IF=enp1s0f0np0
MAKE="python3 $TEST_DIR/bundle-hostile.py"

no_leftover() {
	test -z "$(ls -A "$TMPDIR")" || { ls -la "$TMPDIR"; return 1; }
}

test_expect_success 'a tarball of a snapshot gives the same findings as the tree' '
	tar -C "$FIXTURES" -cJf plain.tar.xz downgraded-x1 &&
	{ "$ND" diagnose $IF --sysroot "$FIXTURES/downgraded-x1" --json >tree.json; test $? -eq 2; } &&
	{ "$ND" diagnose $IF --sysroot plain.tar.xz --json >tar.json; test $? -eq 2; } &&
	nd_findings <tree.json >expect && nd_findings <tar.json >actual &&
	test_cmp expect actual && no_leftover
'

test_expect_success 'a member with .. is not written outside' '
	$MAKE dotdot dotdot.tar.xz "dotdot-victim-$$" &&
	{ "$ND" diagnose $IF --sysroot dotdot.tar.xz --json >r.json 2>err; test $? -eq 2; } &&
	test ! -e "$TMPDIR/../dotdot-victim-$$" && test ! -e "$TRASH/dotdot-victim-$$" &&
	test ! -e "/tmp/dotdot-victim-$$" && grep -q "left out" err && no_leftover
'

test_expect_success 'an absolute member is not written' '
	$MAKE absolute abs.tar.xz "$TRASH/absolute-victim" &&
	{ "$ND" diagnose $IF --sysroot abs.tar.xz --json >r.json 2>err; test $? -eq 2; } &&
	test ! -e "$TRASH/absolute-victim" && no_leftover
'

test_expect_success 'links pointing out are neither made nor read through' '
	echo "SECRET-$$" >"$TRASH/secret" &&
	$MAKE link-out link.tar.xz "$TRASH/secret" &&
	{ "$ND" diagnose $IF --sysroot link.tar.xz --json >r.json 2>err; test $? -eq 2; } &&
	! grep -q "SECRET-$$" r.json && test ! -e "$TRASH/secret.new" &&
	test "$(cat "$TRASH/secret")" = "SECRET-$$" && no_leftover
'

test_expect_success 'FIFOs, device nodes and hard links are left out, in bounded time' '
	$MAKE special special.tar.xz &&
	{ timeout 20 "$ND" diagnose $IF --sysroot special.tar.xz --json >r.json 2>err; test $? -eq 2; } &&
	python3 -c "import json,sys; json.load(open(\"r.json\"))" && no_leftover
'

test_expect_success 'a member over the size cap is left out and said so' '
	$MAKE big-member big.tar.xz &&
	{ "$ND" diagnose $IF --sysroot big.tar.xz --json >r.json 2>err; test $? -eq 2; } &&
	grep -q "larger than 32 MiB" err && no_leftover
'

test_expect_success 'a decompression bomb stops with one line, exit 3, no JSON' '
	$MAKE bomb bomb.tar.gz &&
	test_expect_code 3 timeout 60 "$ND" diagnose $IF --sysroot bomb.tar.gz --json >r.json 2>err &&
	test ! -s r.json && test "$(wc -l <err)" -eq 1 && grep -q "decompression bomb" err &&
	no_leftover
'

test_expect_success 'garbage, an empty file, a truncated tarball: exit 3, one line' '
	head -c 4096 /dev/urandom >garbage && : >empty &&
	head -c 3000 plain.tar.xz >truncated.tar.xz &&
	bad= &&
	for f in garbage empty truncated.tar.xz; do
		test_expect_code 3 "$ND" diagnose $IF --sysroot $f --json >r.json 2>err &&
		test ! -s r.json && test "$(wc -l <err)" -eq 1 || bad="$bad $f"
	done && test -z "$bad" && no_leftover
'

test_expect_success 'a directory that is no bundle: exit 3 saying what was expected' '
	mkdir nothing && echo hello >nothing/file &&
	test_expect_code 3 "$ND" diagnose $IF --sysroot nothing >out 2>err &&
	grep -q "sos_commands" err && test ! -s out
'

test_expect_success 'a FIFO given as the bundle is refused at once' '
	mkfifo fifo &&
	test_expect_code 3 timeout 10 "$ND" diagnose $IF --sysroot fifo 2>err &&
	grep -q "not a regular file or directory" err
'

test_expect_success 'the private directory goes when diagnose is killed' '
	$MAKE slow slow.tar.gz &&
	{ "$ND" diagnose $IF --sysroot slow.tar.gz --json >/dev/null 2>&1 & } &&
	pid=$! && seen= &&
	for i in $(seq 500); do
		[ -n "$(ls -A "$TMPDIR")" ] && { seen=1; break; }; sleep 0.02
	done &&
	kill -9 $pid; wait $pid 2>/dev/null
	{ test -n "$seen" || { echo "never saw the private directory"; false; }; } &&
	for i in $(seq 50); do
		[ -z "$(ls -A "$TMPDIR")" ] && break; sleep 0.1
	done && no_leftover
'

test_done
