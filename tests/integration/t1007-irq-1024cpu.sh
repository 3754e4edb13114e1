#!/bin/sh
test_description='a host with 1024 CPUs: /proc/interrupts lines of 11 KiB still name the IRQs'
. ./test-lib.sh
test_require_cmd python3

# The irq-one-cpu fixture widened to the kernel's layout on a 1024-CPU host
# (11 characters a CPU column, so every line, the header too, is over
# 11 KiB): the eight queue IRQs fire only on the last CPU.
test_expect_success 'widen the irq-one-cpu fixture to 1024 CPU columns' '
	cp -a "$FIXTURES/irq-one-cpu" big &&
	python3 - big/proc/interrupts <<-\PY
	import re, sys
	path = sys.argv[1]
	out = []
	for line in open(path).read().splitlines():
	    if line.lstrip().startswith("CPU0"):
	        out.append(" " * 11 + "".join("CPU%-8d" % c for c in range(1024)))
	        continue
	    m = re.match(r"(\s*\w+:)((?:\s+\d+){8})(.*)$", line)
	    if not m:
	        out.append(line)
	        continue
	    counts = [int(x) for x in m.group(2).split()]
	    wide = [0] * 1024
	    wide[:8] = counts
	    if m.group(1).strip(" :") in [str(irq) for irq in range(28, 36)]:
	        wide[1023], wide[0] = counts[0], 0
	    out.append(m.group(1) + " " + "".join("%10u " % v for v in wide) + m.group(3))
	# IRQs of other devices, so the file is well over 1 MiB as on such a host
	for irq in range(2000, 2200):
	    out.append("%5d: " % irq + "".join("%10u " % 7 for _ in range(1024)) +
	               " IR-PCI-MSI-edge  nvme0q%d" % irq)
	open(path, "w").write("\n".join(out) + "\n")
	PY
	test $(head -n 1 big/proc/interrupts | wc -c) -gt 11264 &&
	test $(wc -c <big/proc/interrupts) -gt 2097152 &&
	for irq in 28 29 30 31 32 33 34 35; do
		echo 1023 >big/proc/irq/$irq/smp_affinity_list
	done
'

test_expect_success 'diagnose --sysroot finds the IRQs and the one busy CPU' '
	{ "$ND" diagnose eth1 --sysroot big --json >report.json; test $? -le 2; } &&
	python3 - <<-\PY
	import json, sys
	report = json.load(open("report.json"))
	f = {x["id"]: x for x in report["findings"]}["irq.concentrated"]
	print(f["severity"], json.dumps(f["evidence"]))
	ev = f["evidence"]
	sys.exit(0 if f["severity"] == "warning" and ev.get("queue_irqs") == 8 and
	         ev.get("busiest_cpu") == 1023 else 1)
	PY
'

test_done
