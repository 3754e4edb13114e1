#!/bin/sh
test_description='diagnose: colour as iproute2 does it (--color, a tty, NO_COLOR), never in piped or machine output; the counters window of --sample'
. ./test-lib.sh
test_require_root
test_require_cmd ip script python3

NS=nd-t1006-$$
diag() { ip netns exec "$NS" "$ND" diagnose nda --no-traffic "$@"; }
# Run diagnose on a pseudo-terminal (script), its output on stdout.
# script -e passes on diagnose's exit code (warnings: 1, critical: 2).
on_tty() { ip netns exec "$NS" script -qec "$*" /dev/null; test $? -le 2; }
esc=$(printf '\033')
# Print evidence KEY of finding ID from a JSON report on stdin.
ev() {
	python3 -c 'import json,sys
f=[f for f in json.load(sys.stdin)["findings"] if f["id"]==sys.argv[1]][0]
v=f["evidence"]
for k in sys.argv[2].split("."): v=v[k] if v is not None else None
print(json.dumps(v))' "$1" "$2"
}

test_expect_success 'a veth pair with one queue in a namespace' '
	nd_netns_add "$NS" &&
	ip -n "$NS" link add nda type veth peer ndb &&
	ip -n "$NS" link set nda up && ip -n "$NS" link set ndb up
'

test_expect_success 'piped output has no escape sequence in any format' '
	( for format in text markdown json prometheus; do
		{ diag --sample 0 --format $format >out.$format; test $? -le 2; } &&
		! grep -q "$esc" out.$format || exit 1
	done )
'

test_expect_success '--color=always colours text only, never markdown, json or prometheus' '
	{ diag --sample 0 --color=always >always.txt; test $? -le 2; } &&
	grep -q "$esc\\[" always.txt &&
	{ NO_COLOR=1 diag --sample 0 --color=always >always-nc.txt; test $? -le 2; } &&
	grep -q "$esc\\[" always-nc.txt &&
	( for format in markdown json prometheus; do
		{ diag --sample 0 --color=always --format $format >c.$format; test $? -le 2; } &&
		! grep -q "$esc" c.$format || exit 1
	done )
'

test_expect_success 'on a terminal: auto colours, NO_COLOR and --color=never do not' '
	on_tty "$ND diagnose nda --no-traffic --sample 0" >tty-auto.txt &&
	grep -q "$esc\\[" tty-auto.txt &&
	on_tty "NO_COLOR=1 $ND diagnose nda --no-traffic --sample 0" >tty-nocolor.txt &&
	grep -q "Result: " tty-nocolor.txt && ! grep -q "$esc" tty-nocolor.txt &&
	on_tty "$ND diagnose nda --no-traffic --sample 0 --color=never" >tty-never.txt &&
	grep -q "Result: " tty-never.txt && ! grep -q "$esc" tty-never.txt
'

test_expect_success 'bad --color and --sample values are usage errors' '
	{ diag --color=sometimes 2>err; test $? = 3; } && grep -q "invalid color" err &&
	{ diag --sample -1 2>err; test $? = 3; } && grep -q "invalid sample" err &&
	{ diag --sample x 2>err; test $? = 3; } &&
	{ "$ND" diagnose --sysroot . lo --sample 1 2>err; test $? = 3; }
'

test_expect_success 'the window: a sample of its own by default, none with --sample 0' '
	{ diag --json >sampled.json; test $? -le 2; } &&
	test "$(ev softnet.dropped window.source <sampled.json)" = "\"sample\"" &&
	python3 -c "import sys; s=float(sys.argv[1]); sys.exit(0 if 0.9 <= s < 5 else 1)" \
		"$(ev softnet.dropped window.seconds <sampled.json)" &&
	test "$(ev nic.rx_dropped samples <sampled.json)" = 2 &&
	{ diag --sample 0.3 --json >short.json; test $? -le 2; } &&
	python3 -c "import sys; s=float(sys.argv[1]); sys.exit(0 if 0.25 <= s < 0.9 else 1)" \
		"$(ev softnet.dropped window.seconds <short.json)" &&
	{ diag --sample 0 --json >none.json; test $? -le 2; } &&
	test "$(ev softnet.dropped window <none.json)" = null &&
	test "$(ev softnet.dropped window_reason <none.json)" = "\"no window measured (--sample 0)\"" &&
	test "$(ev nic.rx_dropped samples <none.json)" = 1
'

# A veth has no IRQs: the window's queue interrupt counts are read where the
# host's own NIC has queue IRQs (read only, --no-traffic); skipped otherwise.
test_expect_success 'the window counts the queue interrupts of a NIC that has them' '
	"$ND" diagnose --no-traffic --json >host.json 2>host.err
	if [ $? -gt 2 ]; then say "$(cat host.err): skipped"; exit 0; fi
	irqs=$(ev irq.concentrated queue_irqs <host.json 2>/dev/null || echo null) &&
	if [ "$irqs" = null ] || [ "$irqs" -lt 1 ]; then
		say "no queue IRQs on the default route NIC: skipped"; exit 0
	fi &&
	ev irq.concentrated window_queue_interrupts <host.json | grep -q "^[0-9][0-9]*$" &&
	test "$(ev irq.concentrated window.source <host.json)" = "\"sample\""
'

# sysctl.backlog_low is unknown in a namespace: netdev_max_backlog is not per-netns here.
test_expect_success 'uptime is the evidence context of every counter check' '
	( for id in softnet.dropped softnet.squeezed nic.rx_dropped; do
		ev $id uptime_sec <sampled.json | grep -q "^[0-9][0-9]*$" || exit 1
	done )
'

test_done
