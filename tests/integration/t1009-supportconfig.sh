#!/bin/sh
test_description='a supportconfig, directory or .txz, is read as the sosreport it converts into'
. ./test-lib.sh
test_require_cmd python3 tar xz

FIX="$SRC_DIR/tests/fixtures/supportconfig-kvm-virtio"
SCC=scc_sles15vm_260301_1000

# report_of ARGS...: "id severity title" of each finding (static data:
# the whole line is stable).
report_of() {
	"$ND" diagnose "$@" --json >r.json; rc=$?
	[ $rc -le 2 ] || return 1
	python3 -c '
import json
for f in json.load(open("r.json"))["findings"]:
    print(f["id"], f["severity"], f["title"])
'
}

test_expect_success 'the generator reproduces the committed fixture byte for byte' '
	python3 "$SRC_DIR/tests/fixtures/make-supportconfig.py" "$TRASH/gen" &&
	diff -r "$FIX" "$TRASH/gen"
'

test_expect_success 'set up: the supportconfig as supportconfig leaves it, and its .txz' '
	cp -R "$FIX" "$TRASH/$SCC" &&
	tar -C "$TRASH" -cJf "$TRASH/$SCC.txz" "$SCC" &&
	mkdir "$TRASH/tmp"
'

test_expect_success 'the directory and the .txz give the same report' '
	TMPDIR="$TRASH/tmp" report_of ens3 --sysroot "$TRASH/$SCC" >dir.report &&
	TMPDIR="$TRASH/tmp" report_of ens3 --sysroot "$TRASH/$SCC.txz" >txz.report &&
	test -s dir.report &&
	test_cmp dir.report txz.report
'

test_expect_success 'the conversion is private and gone afterwards; the bundle is untouched' '
	test "$(ls -A "$TRASH/tmp")" = "" &&
	diff -r "$FIX" "$TRASH/$SCC"
'

test_expect_success 'no private directory to convert into: one line, exit 4' '
	: >"$TRASH/not-a-dir" &&
	test_expect_code 4 env TMPDIR="$TRASH/not-a-dir" "$ND" diagnose ens3 \
		--sysroot "$TRASH/$SCC" --json >out 2>err &&
	test "$(wc -l <err)" -eq 1 && grep -q "private directory" err && ! test -s out
'

test_expect_success 'hostile: a FIFO and a link to a file outside as section files' '
	mkdir "$TRASH/hostile" &&
	cp "$FIX/basic-environment.txt" "$FIX/env.txt" "$TRASH/hostile/" &&
	mkfifo "$TRASH/hostile/hardware.txt" &&
	cp "$FIX/network.txt" "$TRASH/outside.txt" &&
	ln -s "$TRASH/outside.txt" "$TRASH/hostile/network.txt" &&
	TMPDIR="$TRASH/tmp" timeout 20 "$ND" diagnose ens3 --sysroot "$TRASH/hostile" \
		--json >out 2>err; rc=$? &&
	test $rc -ne 124 && test $rc -le 4 &&
	test "$(ls -A "$TRASH/tmp")" = ""
'

test_expect_success 'an interface the supportconfig does not name is a usage error' '
	test_expect_code 3 "$ND" diagnose nosuch0 --sysroot "$TRASH/$SCC" --json >/dev/null
'

# ethtool -l says combined 1 of at most 1: one queue, and the device has no
# more, as the sosreport of the same guest says (fixture sos42-kvm-virtio).
test_expect_success 'expected findings of the virtio guest (read by the sos probe)' '
	report_of ens3 --sysroot "$TRASH/$SCC" | cut -d" " -f1-2 >got &&
	grep -qx "queues.single ok" got &&
	grep -qx "link.down ok" got &&
	grep -qx "mtu.jumbo_possible ok" got &&
	grep -qx "rps.off_single_queue unknown" got
'

test_done
