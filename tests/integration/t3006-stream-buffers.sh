#!/bin/sh
test_description='stream workers send and receive through page-aligned buffers in both roles (the -R gap: a buffer 16 bytes into a fresh mapping cost twice the CPU per byte)'
. ./test-lib.sh
test_require_cmd strace

PORT=27431  # below the ephemeral range: no client socket can hold it
# LeakSanitizer cannot run under ptrace (a SAN build).
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
export ASAN_OPTIONS

# Every data-stream call of $2 with length $3 (hex, as strace -e raw prints
# it) in trace $1 passes a page-aligned buffer, and there is at least one.
aligned() {
	grep -v resumed "$1" |
	sed -nE "s/.*$2\(0x[0-9a-f]+, (0x[0-9a-f]+), $3,.*/\1/p" | sort -u >addrs &&
	test -s addrs &&
	while read -r a; do
		if [ $((a % 4096)) -ne 0 ]; then echo "unaligned $2 buffer $a"; return 1; fi
	done <addrs
}

# The client's side (strace on bench), the server's (strace on serve).
run_traced() {
	PORT=$((PORT + 1))
	if [ "$1" = client ]; then
		timeout 30 "$ND" serve -p $PORT -1 -q &
		srv=$!
		sleep 0.3
		strace -f -e trace=recvfrom,sendto -e raw=recvfrom,sendto -o tr.txt \
			timeout 30 "$ND" bench -c 127.0.0.1 -p $PORT -t 1 $2 >/dev/null
	else
		strace -f -e trace=recvfrom,sendto -e raw=recvfrom,sendto -o tr.txt \
			timeout 30 "$ND" serve -p $PORT -1 -q &
		srv=$!
		sleep 0.5
		timeout 30 "$ND" bench -c 127.0.0.1 -p $PORT -t 1 $2 >/dev/null
	fi
	wait $srv
}

test_expect_success 'the -R client receives into page-aligned buffers' '
	run_traced client "-R -P 2" && aligned tr.txt recvfrom 0x40000
'

test_expect_success 'the forward client sends from page-aligned buffers' '
	run_traced client "-P 2" && aligned tr.txt sendto 0x20000
'

test_expect_success 'the server receives into, and with -R sends from, page-aligned buffers' '
	run_traced server "-P 2" && aligned tr.txt recvfrom 0x40000 &&
	run_traced server "-R" && aligned tr.txt sendto 0x20000
'

test_done
