#!/bin/sh
# test-lane: packaging (make in the source tree: one at a time)
test_description='make install puts every file where systemd, bash-completion and man look for it'
. ./test-lib.sh
test_skip_under_san
test_require_cmd make bash

D=$TRASH/dest
L=$TRASH/local
# Where this system's systemd and bash-completion want them, when they say.
unitdir=$(pkg-config --variable=systemdsystemunitdir systemd 2>/dev/null)
unitdir=${unitdir:-/lib/systemd/system}
compdir=$(pkg-config --variable=completionsdir bash-completion 2>/dev/null)
compdir=${compdir:-/usr/share/bash-completion/completions}

# The file list of a tree, with each file's mode.
tree_modes() {
	(cd "$1" && find . -type f -exec stat -c '%a %n' {} + | sort -k2)
}

test_expect_success 'PREFIX=/usr: every file in the Debian layout, with its mode' '
	make -s -C "$SRC_DIR" install PREFIX=/usr DESTDIR="$D" >make.out 2>&1 &&
	tree_modes "$D" >actual &&
	sort -k2 >expect <<-EOF &&
	644 ./etc/default/nicdoctor
	644 .$unitdir/nicdoctor-serve.service
	644 .$unitdir/nicdoctor-textfile.service
	644 .$unitdir/nicdoctor-textfile.timer
	755 ./usr/libexec/nicdoctor/nicdoctor-textfile
	755 ./usr/sbin/nicdoctor
	644 .$compdir/nicdoctor
	644 ./usr/share/man/man8/nicdoctor.8
	EOF
	test_cmp expect actual
'

test_expect_success 'the units and the script name the installed paths' '
	! grep -rn "@[A-Z]*@" "$D" --exclude=nicdoctor --exclude=nicdoctor.8 &&
	grep -qx "ExecStart=/usr/sbin/nicdoctor serve \$NICDOCTOR_SERVE_ARGS" \
		"$D$unitdir/nicdoctor-serve.service" &&
	grep -qx "ExecStart=/usr/libexec/nicdoctor/nicdoctor-textfile" \
		"$D$unitdir/nicdoctor-textfile.service" &&
	test $(cat "$D$unitdir"/nicdoctor-*.service | grep -c "^EnvironmentFile=-/etc/default/nicdoctor\$") -eq 2 &&
	grep -q "^nicdoctor=\${NICDOCTOR:-/usr/sbin/nicdoctor}\$" "$D/usr/libexec/nicdoctor/nicdoctor-textfile" &&
	sh -n "$D/usr/libexec/nicdoctor/nicdoctor-textfile"
'

test_expect_success 'PREFIX=/usr/local: units below the prefix, in a directory systemd reads' '
	make -s -C "$SRC_DIR" install PREFIX=/usr/local DESTDIR="$L" >make.out 2>&1 &&
	tree_modes "$L" >actual &&
	sort -k2 >expect <<-EOF &&
	644 ./etc/default/nicdoctor
	644 ./usr/local/lib/systemd/system/nicdoctor-serve.service
	644 ./usr/local/lib/systemd/system/nicdoctor-textfile.service
	644 ./usr/local/lib/systemd/system/nicdoctor-textfile.timer
	755 ./usr/local/libexec/nicdoctor/nicdoctor-textfile
	755 ./usr/local/sbin/nicdoctor
	644 ./usr/local/share/bash-completion/completions/nicdoctor
	644 ./usr/local/share/man/man8/nicdoctor.8
	EOF
	test_cmp expect actual &&
	grep -qx "ExecStart=/usr/local/sbin/nicdoctor serve \$NICDOCTOR_SERVE_ARGS" \
		"$L/usr/local/lib/systemd/system/nicdoctor-serve.service" &&
	if command -v systemd-analyze >/dev/null; then
		systemd-analyze unit-paths >paths &&
		grep -qx /usr/local/lib/systemd/system paths &&
		grep -qx "$unitdir" paths
	fi
'

test_expect_success 'an edited /etc/default/nicdoctor survives a second install' '
	echo "NICDOCTOR_TEXTFILE_DIR=/srv/prom" >"$L/etc/default/nicdoctor" &&
	make -s -C "$SRC_DIR" install PREFIX=/usr/local DESTDIR="$L" >make.out 2>&1 &&
	echo "NICDOCTOR_TEXTFILE_DIR=/srv/prom" >expect &&
	test_cmp expect "$L/etc/default/nicdoctor"
'

# systemd-analyze verify wants the ExecStart binary at its path and runs
# man for Documentation=: verify copies whose ExecStart points into the
# DESTDIR, with MANPATH at the installed manual.
verify_units() {
	mkdir -p units &&
	for unit in "$1$unitdir"/nicdoctor-*; do
		sed "s|^ExecStart=/|ExecStart=$1/|" "$unit" >"units/${unit##*/}" || return 1
	done &&
	MANPATH="$1/usr/share/man" systemd-analyze verify units/* >verify.out 2>&1
	rc=$?
	cat verify.out
	[ $rc -eq 0 ] && ! [ -s verify.out ]
}

if command -v systemd-analyze >/dev/null; then
	test_expect_success 'systemd-analyze verify: the units are clean' '
		verify_units "$D"
	'
	test_expect_success 'systemd-analyze verify fails a unit whose program is missing' '
		rm "$D/usr/libexec/nicdoctor/nicdoctor-textfile" &&
		test_when_finished "make -s -C \"$SRC_DIR\" install PREFIX=/usr DESTDIR=\"$D\" >/dev/null 2>&1" &&
		! verify_units "$D"
	'
fi

# The unit's own command line, with the default file's (empty) arguments
# plus -1, run as an unprivileged user as DynamicUser= does, in a private
# network namespace on the default port: a stock iperf3 client gets a test.
if [ "$(id -u)" = 0 ] && command -v iperf3 >/dev/null && command -v setpriv >/dev/null; then
	NS=nd-t9001-$$
	test_expect_success 'the serve unit'"'"'s command, unprivileged, answers a stock iperf3 client' '
		nd_netns_add "$NS" &&
		ip -n "$NS" link set lo up &&
		cmd=$(sed -n "s/^ExecStart=//p" "$D$unitdir/nicdoctor-serve.service") &&
		. "$D/etc/default/nicdoctor" &&
		eval "set -- $cmd \$NICDOCTOR_SERVE_ARGS -1" && shift &&
		test "$*" = "serve -1" &&
		nd_nobody_copy &&
		# Braces: only the server goes to the background, the set-up above
		# (its exit hooks) stays in this shell.
		{ ip netns exec "$NS" setpriv --reuid=65534 --regid=65534 --clear-groups \
			timeout 30 "$ND_NOBODY" "$@" >serve.out 2>&1 & } &&
		srv=$!
		test_when_finished "kill $srv 2>/dev/null"
		sleep 0.5 &&
		ip netns exec "$NS" timeout 30 iperf3 -c 127.0.0.1 -t 1 -J >client.json &&
		wait $srv &&
		python3 -c "import json,sys; d=json.load(sys.stdin); assert d[\"end\"][\"sum_received\"][\"bytes\"] > 0" <client.json
	'
fi

command -v man >/dev/null &&
test_expect_success 'man finds the page in the installed tree' '
	echo "$D/usr/share/man/man8/nicdoctor.8" >expect &&
	MANPATH="$D/usr/share/man" man -w nicdoctor >actual &&
	test_cmp expect actual
'

test_expect_success 'bash -n on the completion; bash-completion loads it from its directory' '
	bash -n "$D$compdir/nicdoctor" &&
	echo "complete -F _nicdoctor nicdoctor" >expect &&
	if [ -r /usr/share/bash-completion/bash_completion ]; then
		# The loader looks in $XDG_DATA_DIRS/bash-completion/completions.
		XDG_DATA_DIRS="$D${compdir%/bash-completion/completions}" bash -c "
			. /usr/share/bash-completion/bash_completion
			__load_completion nicdoctor && complete -p nicdoctor" >actual &&
		test_cmp expect actual &&
		XDG_DATA_DIRS="$L/usr/local/share" bash -c "
			. /usr/share/bash-completion/bash_completion
			__load_completion nicdoctor && complete -p nicdoctor" >actual &&
		test_cmp expect actual
	else
		bash -c ". \"$D$compdir/nicdoctor\" && complete -p nicdoctor" >actual &&
		test_cmp expect actual
	fi
'

test_done
