#!/bin/sh
test_description='bad input: one clear line on stderr, exit 3, nothing partial on stdout'
. ./test-lib.sh

# expect_usage_error ARGS...: exit 3, empty stdout, exactly one stderr line.
expect_usage_error() {
	test_expect_code 3 "$ND" "$@" >out 2>err &&
	test ! -s out &&
	test "$(wc -l <err)" -eq 1 &&
	grep -q '^nicdoctor: ' err
}

test_expect_success 'unknown interface' '
	expect_usage_error diagnose nd-no-such0 --json &&
	grep -q "no such interface .nd-no-such0." err
'

test_expect_success 'interface name longer than 15 bytes' '
	expect_usage_error diagnose abcdefghijklmnop --json &&
	grep -q "invalid interface name" err
'

test_expect_success 'interface name with a slash' '
	expect_usage_error diagnose "eth0/../lo" --json &&
	grep -q "invalid interface name" err
'

test_expect_success 'missing sysroot' '
	expect_usage_error diagnose lo --sysroot "$TRASH/none" --json &&
	grep -q "cannot use sysroot" err
'

test_expect_success 'unknown flag' '
	expect_usage_error diagnose lo --frobnicate
'

test_expect_success 'unknown format' '
	expect_usage_error diagnose lo --format yaml
'

test_expect_success 'unknown check ID in --skip' '
	expect_usage_error diagnose lo --skip no.such_check --json &&
	grep -q "no.such_check" err
'

test_expect_success 'unknown command' '
	expect_usage_error frobnicate
'

test_expect_success 'collect: missing output directory flag' '
	expect_usage_error collect lo
'

# bench: nothing is connected for a value that cannot be meant, so these
# fail before "Connecting to host" (a port nobody listens on proves it).
for args in "-t nan" "-t inf" "-t 0.5" "-t 1e-9" "-b nan" "-b 0.5" "-n 0.5" "-n 0x10" \
	"-k nan" "-k 1e-300" "-i 0.0001" "-i 1e-300" "-i 61" "-i nan" "-O nan" "-O -1" "-O 1.5"; do
	test_expect_success "bench $args is a usage error" "
		expect_usage_error bench -c 127.0.0.1 -p 5328 $args &&
		grep -q \"invalid value\" err
	"
done

test_expect_success 'checks lists the foundation IDs' '
	"$ND" checks >out &&
	for id in pcie.link_downgraded queues.single rps.off_single_queue irq.concentrated; do
		grep -q "^$id " out || return 1
	done
'

test_done
