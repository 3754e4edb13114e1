#!/bin/sh
test_description='collect -o DIR into a hostile place: planted links, a non-empty, foreign or world-writable directory'
. ./test-lib.sh
test_require_root
test_require_cmd python3 strace

# victim NAME: a file of ours that a write through a planted link would change.
victim() {
	echo "precious $1" >"$TRASH/$1" && echo "precious $1" >"$TRASH/$1.want"
}

# refused DIR: collect lo -o DIR exits 3 with one line, naming DIR.
refused() {
	"$ND" collect lo -o "$1" >out.txt 2>err.txt
	rc=$?
	cat out.txt err.txt
	test $rc = 3 && test "$(wc -l <err.txt)" = 1 && ! test -s out.txt &&
	grep -q "^nicdoctor: refusing output directory '$1': " err.txt
}

# listing DIR: what DIR holds, links with their targets, for a test_cmp.
listing() {
	(cd "$1" && find . -printf "%p %y %l\n" | sort)
}

test_expect_success 'into a new directory: created private, a snapshot diagnose reads' '
	"$ND" collect lo -o new >out.txt &&
	grep -q "snapshot of lo written to new" out.txt &&
	test "$(stat -c %a new)" = 700 &&
	test -f new/ethtool/lo.json && ! test -e new/ethtool/lo.json.tmp &&
	test -f new/proc/interrupts && test -L new/sys/class/net/lo &&
	{ "$ND" diagnose lo --sysroot new --json >report.json; test $? -le 2; } &&
	python3 -c "import json; assert json.load(open(\"report.json\"))[\"interface\"][\"mtu\"] == 65536"
'

test_expect_success 'into an existing empty directory of ours (0755): written, mode kept' '
	mkdir -m 0755 empty && "$ND" collect lo -o empty/ >/dev/null &&
	test "$(stat -c %a empty)" = 755 && test -f empty/ethtool/lo.json
'

test_expect_success 'a non-empty directory: refused, left as it was' '
	mkdir full && echo mine >full/notes.txt && listing full >before &&
	refused full && grep -q "not empty" err.txt &&
	listing full >after && test_cmp before after
'

test_expect_success 'proc/interrupts planted as a link to a file of ours: the file unchanged' '
	victim interrupts && mkdir -p p1/proc && ln -s "$TRASH/interrupts" p1/proc/interrupts &&
	{ "$ND" collect lo -o p1 >/dev/null 2>&1; true; } &&
	test_cmp interrupts.want interrupts &&
	refused p1
'

test_expect_success 'ethtool/IF.json.tmp planted as a link: the target unchanged' '
	victim tmpjson && mkdir -p p2/ethtool && ln -s "$TRASH/tmpjson" p2/ethtool/lo.json.tmp &&
	{ "$ND" collect lo -o p2 >/dev/null 2>&1; true; } &&
	test_cmp tmpjson.want tmpjson && test -L p2/ethtool/lo.json.tmp &&
	! test -e p2/ethtool/lo.json
'

test_expect_success 'sys planted as a link to another directory: nothing written there' '
	mkdir other && mkdir p3 && ln -s "$TRASH/other" p3/sys &&
	{ "$ND" collect lo -o p3 >/dev/null 2>&1; true; } &&
	test -z "$(ls -A other)" && refused p3
'

test_expect_success 'DIR itself a link to an empty directory: refused, nothing written' '
	mkdir target && ln -s target linked && refused linked &&
	grep -q "symbolic link" err.txt && test -z "$(ls -A target)"
'

test_expect_success 'DIR owned by another user: refused, nothing written' '
	mkdir -m 0700 foreign && chown 65534 foreign && refused foreign &&
	grep -q "owned by uid 65534" err.txt && test -z "$(ls -A foreign)"
'

test_expect_success 'DIR writable by others, sticky or not: refused, nothing written' '
	mkdir -m 0777 open && refused open && grep -q "writable by group or others" err.txt &&
	test -z "$(ls -A open)" &&
	mkdir -m 1777 sticky && refused sticky && test -z "$(ls -A sticky)" &&
	mkdir -m 0770 group && refused group && test -z "$(ls -A group)"
'

test_expect_success 'DIR a regular file: refused, the file unchanged' '
	victim plain && refused plain && test_cmp plain.want plain
'

test_expect_success 'a missing parent directory: exit 4, one line, nothing created' '
	test_expect_code 4 "$ND" collect lo -o nosuch/snap >out.txt 2>err.txt &&
	test "$(wc -l <err.txt)" = 1 && grep -q "^nicdoctor: cannot create .nosuch/snap." err.txt &&
	! test -e nosuch
'

# Every file below DIR is created relative to a directory fd (no path
# string through DIR for the kernel to resolve), exclusively, without
# following a link; every directory below DIR is opened without following.
# (LeakSanitizer cannot run under ptrace: off for an ASan build.)
fd_relative() {
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 strace -f -qq -e trace=open,openat,creat,mkdir,mkdirat,rename,renameat,renameat2,symlink,symlinkat \
		-o trace.txt "$ND" collect lo -o "$TRASH/traced" >/dev/null || return 1
	! grep -E "^[0-9]+ +[a-z0-9]+\((AT_FDCWD, )?\"$TRASH/traced/" trace.txt &&
	! grep -E "^[0-9]+ +(open|creat)\(" trace.txt | grep "$TRASH" &&
	grep -E "openat\([0-9]+, .*O_CREAT" trace.txt >creates.txt &&
	grep -q "\"lo.json.tmp\"" creates.txt && grep -q "\"interrupts\"" creates.txt &&
	! grep -v "O_EXCL" creates.txt && ! grep -v "O_NOFOLLOW" creates.txt &&
	grep -E "openat\([0-9]+, .*O_DIRECTORY" trace.txt >dirs.txt &&
	grep -q "\"sys\"" dirs.txt && ! grep -v "O_NOFOLLOW" dirs.txt &&
	grep -q "renameat2\?([0-9]\+, \"lo.json.tmp\", [0-9]\+, \"lo.json\"" trace.txt
}

test_expect_success 'every file created with openat(dirfd, O_EXCL|O_NOFOLLOW)' '
	fd_relative || { cat trace.txt | grep "$TRASH\|openat([0-9]" | head -n 40; false; }
'

test_done
