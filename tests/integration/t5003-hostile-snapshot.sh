#!/bin/sh
test_description='diagnose --sysroot on hostile snapshots: links out of the root, huge files, garbage, missing directories, FIFOs and device nodes, terminal escapes and invalid UTF-8 in names'
. ./test-lib.sh
test_require_cmd python3

FIXTURE="$FIXTURES/downgraded-82599-x2"
OUT="$TRASH/outside"
FN=sys/devices/pci0000:00/0000:00:10.0/0000:01:00.0

# fresh_root: a copy of a real snapshot in ./root, and ./outside beside it
# holding the same files, so that reading one from outside would show.
fresh_root() {
	rm -rf root "$OUT" && cp -a "$FIXTURE" root && mkdir -p "$OUT" &&
	cp root/$FN/config "$OUT/config" &&
	sed "s/\"mtu\": *1500/\"mtu\": 4242/" root/ethtool/eth0.json >"$OUT/eth0.json" &&
	grep -q 4242 "$OUT/eth0.json"
}

# diag: diagnose the snapshot; never a crash, a hang or a sanitizer report.
diag() {
	timeout 60 "$ND" diagnose --sysroot root eth0 --json >out.json 2>err.txt
	rc=$?
	cat err.txt
	test $rc -le 2 && ! grep -Eqi "sanitizer|runtime error" err.txt &&
	python3 -c "import json; json.load(open(\"out.json\"))"
}

# field EXPR: a value from the JSON report (d is the report).
field() {
	python3 -c "
import json
d = json.load(open(\"out.json\"))
f = {x[\"id\"]: x for x in d[\"findings\"]}
print($1)"
}

test_expect_success 'the untouched snapshot reads the PCIe link (x2) and the MTU' '
	fresh_root && diag &&
	test "$(field "f[\"pcie.link_downgraded\"][\"severity\"]")" = critical &&
	test "$(field "d[\"interface\"][\"mtu\"]")" = 1500
'

test_expect_success 'PCI config linked to an absolute path outside: not read by libpci' '
	fresh_root && ln -sf "$OUT/config" root/$FN/config && diag &&
	test "$(field "f[\"pcie.link_downgraded\"][\"severity\"]")" = unknown &&
	field "f[\"pcie.link_downgraded\"][\"evidence\"]" >evidence.txt &&
	cat evidence.txt && ! grep -q lnksta evidence.txt &&
	grep -q "points outside the snapshot" out.json
'

test_expect_success 'PCI config linked with ../ out of the root: not read by libpci' '
	fresh_root && ln -sf ../../../../../../outside/config root/$FN/config &&
	test -f root/$FN/config && diag &&
	test "$(field "f[\"pcie.link_downgraded\"][\"severity\"]")" = unknown &&
	grep -q "points outside the snapshot" out.json
'

test_expect_success 'a PCI device entry or the whole bus linked outside: refused' '
	fresh_root && cp -a root/$FN "$OUT/fn" &&
	ln -sfn "$OUT/fn" root/sys/bus/pci/devices/0000:01:00.0 && diag &&
	test "$(field "f[\"pcie.link_downgraded\"][\"severity\"]")" = unknown &&
	fresh_root && cp -a root/sys/bus/pci "$OUT/pci" && rm -rf root/sys/bus/pci &&
	ln -s "$OUT/pci" root/sys/bus/pci && diag &&
	test "$(field "f[\"pcie.link_downgraded\"][\"severity\"]")" = unknown
'

# Test bodies run inside test_expect_success: loops that may fail live in
# functions, so that "return 1" fails the test instead of skipping its line.
mtu_never_seen() {
	for target in "$OUT/eth0.json" ../../outside/eth0.json; do
		fresh_root && ln -sf "$target" root/ethtool/eth0.json && diag &&
		test "$(field "d[\"interface\"][\"mtu\"]")" = None &&
		! grep -q 4242 out.json || return 1
	done
}

test_expect_success 'ethtool/eth0.json linked outside (absolute and ../): MTU 4242 never seen' '
	mtu_never_seen
'

test_expect_success 'a directory on the path linked outside: nothing read through it' '
	fresh_root && cp -a root/proc "$OUT/proc" && rm -rf root/proc &&
	ln -s "$OUT/proc" root/proc && diag &&
	test "$(field "f[\"softnet.dropped\"][\"severity\"]")" = unknown &&
	test "$(field "f[\"sysctl.rmem_max_low\"][\"severity\"]")" = unknown &&
	fresh_root && cp -a root/proc "$OUT/proc2" && rm -rf root/proc &&
	ln -s ../outside/proc2 root/proc && diag &&
	test "$(field "f[\"softnet.dropped\"][\"severity\"]")" = unknown
'

# valgrind does not know openat2, so under it the sysroot walks paths by
# hand (as on kernels before 5.6): the same links must stay inside.
valgrind_walk() {
	if ! command -v valgrind >/dev/null || ldd "$ND" | grep -q libasan; then
		say "skipped: needs valgrind and a build without ASan"
		return 0
	fi
	for target in "$OUT/eth0.json" ../../outside/eth0.json; do
		fresh_root && ln -sf "$target" root/ethtool/eth0.json &&
		cp -a root/proc "$OUT/proc" && rm -rf root/proc && ln -s "$OUT/proc" root/proc &&
		valgrind -q --error-exitcode=99 "$ND" diagnose --sysroot root eth0 --json \
			>out.json 2>err.txt
		test $? -le 2 || { cat err.txt; return 1; }
		test "$(field "d[\"interface\"][\"mtu\"]")" = None &&
		test "$(field "f[\"softnet.dropped\"][\"severity\"]")" = unknown &&
		test "$(field "f[\"pcie.link_downgraded\"][\"evidence\"][\"lnksta\"]")" = \
			"2.5GT/s x2" || return 1
	done
}

test_expect_success 'links outside under valgrind (the walk without openat2)' '
	valgrind_walk
'

test_expect_success 'huge files: refused or read up to the cap, quickly' '
	fresh_root &&
	python3 -c "print(\"{\" + \" \" * (3 << 20) + \"}\")" >root/ethtool/eth0.json &&
	yes "  0:  1  2  IO-APIC-edge  timer" | head -c 3000000 >root/proc/interrupts &&
	truncate -s 1G root/proc/net/softnet_stat &&
	truncate -s 100M root/$FN/config &&
	diag && grep -q "File too large" out.json
'

test_expect_success 'binary garbage where text is expected' '
	fresh_root &&
	for f in ethtool/eth0.json proc/interrupts proc/net/softnet_stat $FN/numa_node \
		$FN/current_link_speed $FN/vendor $FN/config proc/sys/net/ipv4/tcp_rmem; do
		head -c 65536 /dev/urandom >root/$f
	done &&
	diag
'

test_expect_success 'missing directories and files' '
	fresh_root && rm -rf root/sys/bus/pci root/proc/irq root/$FN/net/eth0/queues \
		root/proc/net root/ethtool && diag &&
	fresh_root && rm -rf root/sys/devices &&
	test_expect_code 3 "$ND" diagnose --sysroot root eth0 --json >out.json 2>err.txt &&
	grep -q "no interface .eth0. in the snapshot" err.txt &&
	fresh_root && rm -rf root/proc root/ethtool root/tools && diag
'

test_expect_success 'a FIFO where a file is expected does not block' '
	fresh_root && rm root/proc/interrupts root/ethtool/eth0.json &&
	mkfifo root/proc/interrupts root/ethtool/eth0.json &&
	rm -f root/$FN/config && mkfifo root/$FN/config &&
	diag
'

# Names a snapshot may carry: CSI and OSC 52 (clipboard) escapes, BEL, the
# C1 CSI U+009B as UTF-8 and as a raw byte, bytes that are no UTF-8.
hostile_names() {
	mkdir -p root/proc/sys/kernel &&
	printf "evil\033]0;pwned\007\377host\n" >root/proc/sys/kernel/hostname &&
	python3 - root/ethtool/eth0.json root/proc/interrupts <<-\PY
	import json, sys
	path, irqs = sys.argv[1], sys.argv[2]
	d = json.load(open(path))
	d["drvinfo"] = {"known": True, "driver": "ixgbe@ESC[2J", "version": "5.1@BEL",
	                "fw_version": "0x8000@C1[31m@RAW[1m", "bus_info": "0000:01:00.0@FF"}
	d["link"]["qdisc"] = "mq@ESC]52;c;ZXZpbA==@BEL"
	d["qdisc"] = {"known": True, "kind": "tbf@FF@ESC[5m", "rate_bps": 1000000000}
	raw = json.dumps(d).encode()
	for mark, byte in (("@ESC", b"\\u001b"), ("@BEL", b"\\u0007"), ("@C1", b"\\u009b"),
	                   ("@RAW", b"\x9b"), ("@FF", b"\xff")):
	    raw = raw.replace(mark.encode(), byte)
	open(path, "wb").write(raw)
	text = open(irqs, "rb").read().replace(b"eth0-TxRx-0", b"eth0-TxRx-0\x1b[2J\x9b")
	open(irqs, "wb").write(text)
	PY
}

# clean FILE [MARKED]: no ESC, BEL or C1 CSI (raw or UTF-8) in it, strict
# UTF-8; with MARKED, the marker U+FFFD shows the hostile names reached it.
clean() {
	python3 - "$@" <<-\PY
	import sys
	data = open(sys.argv[1], "rb").read()
	bad = [b for b in (b"\x1b", b"\x07", b"\x9b", b"\xc2\x9b") if b in data]
	text = data.decode("utf-8")
	if bad or (len(sys.argv) > 2 and "\ufffd" not in text):
	    sys.exit("%s: bytes %r, marker %s" % (sys.argv[1], bad, "\ufffd" in text))
	PY
}

# Each format from the hostile snapshot: clean on stdout and stderr (the
# Prometheus labels name only the interface and check IDs: nothing marked).
hostile_formats() {
	for format in text markdown json prometheus; do
		timeout 60 "$ND" diagnose --sysroot root eth0 --format $format >out.$format 2>err.txt
		rc=$? && cat err.txt && test $rc -le 2 &&
			clean out.$format $(test $format = prometheus || echo marked) &&
			clean err.txt || return 1
	done
}

test_expect_success 'escapes and invalid UTF-8 in host, driver, firmware, qdisc names: every format clean' '
	fresh_root && hostile_names && hostile_formats &&
	python3 -c "import json; json.loads(open(\"out.json\", \"rb\").read().decode(\"utf-8\"))" &&
	grep -qF "$(printf "ixgbe\357\277\275[2J")" out.json &&
	grep -qF "$(printf "evil\357\277\275]0;pwned")" out.text
'

device_node() {
	if [ "$(id -u)" != 0 ]; then
		say "skipped: needs root for mknod"
		return 0
	fi
	fresh_root && rm root/proc/net/softnet_stat root/$FN/config &&
	mknod root/proc/net/softnet_stat c 1 5 && mknod root/$FN/config c 1 5 &&
	strace -f -qq -e trace=open,openat,openat2 -o trace.txt \
		"$ND" diagnose --sysroot root eth0 --json >out.json 2>err.txt
	test $? -le 2 &&
	! grep softnet_stat trace.txt | grep -v O_PATH &&
	! grep "/config\"" trace.txt | grep -v ENOENT
}

test_expect_success 'a device node in the snapshot is never opened' '
	device_node
'

test_done
