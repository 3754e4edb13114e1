#!/bin/sh
test_description='collect --script: a POSIX sh script whose tarball, in sosreport names, diagnoses as live'
. ./test-lib.sh
test_require_root
test_require_cmd ip ethtool python3 dash tar

NS=nd-t1006-$$
# Odd but valid interface names: the script must quote them, and name
# their files as sos does.
ODD='v$(id);*'
ODD_PEER='w-x.'

# tarball_of OUTPUT: the path the script said it wrote.
tarball_of() { sed -n 's/^nicdoctor-collect: wrote //p' "$1"; }

# sos_name CMD...: sos's _mangle_command (sos/report/plugins/__init__.py),
# in Python as sos has it, to check the script's shell version.
sos_name() {
	python3 -c '
import re, sys
m = re.sub(r"^/(usr/|)(bin|sbin)/", "", " ".join(sys.argv[1:]))
m = re.sub(r"[^\w\-\.\/]+", "_", m)
print(re.sub(r"/", ".", m).strip(" ._-")[0:255])
' "$@"
}

# severities FILE: "id severity" per finding, tool.* left out (a bundle
# holds no tool versions: those are of the host diagnose runs on).
severities() {
	nd_findings <"$1" | grep -v "^tool\." | sort
}

test_expect_success 'the script prints without the source tree and is POSIX sh' '
	(cd / && "$ND" collect --script) >collect.sh &&
	head -n 1 collect.sh | grep -q "^#!/bin/sh" &&
	dash -n collect.sh && sh -n collect.sh &&
	if command -v shellcheck >/dev/null; then shellcheck -s sh collect.sh; fi &&
	if command -v checkbashisms >/dev/null; then checkbashisms collect.sh; fi
'

test_expect_success '--script takes no interface or -o' '
	test_expect_code 3 "$ND" collect --script eth0 &&
	test_expect_code 3 "$ND" collect --script -o "$TRASH/x"
'

test_expect_success 'set up veths in a namespace: one RX channel of 4, RPS off' '
	nd_netns_add "$NS" &&
	ip -n "$NS" link add nda numrxqueues 4 numtxqueues 4 type veth \
		peer ndb numrxqueues 4 numtxqueues 4 &&
	ip -n "$NS" link add "$ODD" type veth peer name "$ODD_PEER" &&
	ip -n "$NS" link set nda up && ip -n "$NS" link set ndb up &&
	ip netns exec "$NS" ethtool -L nda rx 1 &&
	ip -n "$NS" addr add 192.0.2.1/24 dev nda &&
	ip -n "$NS" route add default via 192.0.2.2 dev nda
'

test_expect_success 'run under dash: one tarball in a new directory, and it says where' '
	(cd "$TRASH" && ip netns exec "$NS" env TMPDIR="$TRASH" dash collect.sh) >out 2>err &&
	tar=$(tarball_of out) &&
	test -s "$tar" && case "$tar" in "$TRASH"/nicdoctor-collect.*/*.tar.xz) ;; *) false ;; esac &&
	test_when_finished "rm -rf \"${tar%/*}\"" &&
	test "$(ls "${tar%/*}")" = "${tar##*/}" &&
	! test -e "$TRASH/x" && ! test -e x &&
	mkdir tree && tar -xf "$tar" -C tree &&
	echo tree/* >root && test -d "$(cat root)"
'

test_expect_success 'version.txt names the script; sos_commands names follow sos mangling' '
	root=$(cat root) && bad= &&
	test "$(cat "$root/version.txt")" = "nicdoctor-collect: 1" &&
	for ifname in nda ndb lo "$ODD" "$ODD_PEER"; do
		for opt in "" -i -l -g -k -c -a -S; do
			f=$(sos_name ethtool $opt "$ifname") &&
			test -f "$root/sos_commands/networking/$f" || {
				say "missing sos_commands/networking/$f"; bad=1; }
		done
	done &&
	test -f "$root/sos_commands/networking/ethtool_-i_v_id" &&
	test -f "$root/sos_commands/networking/ethtool_-l_w-x" &&
	while read -r plugin cmd; do
		f=$(sos_name $cmd) &&
		test -f "$root/sos_commands/$plugin/$f" || { say "missing $plugin/$f"; bad=1; }
	done <<-EOF
	networking ip -s -d link
	networking tc -s qdisc show
	networking ip route
	pci lspci -nnvv
	pci lspci -tv
	kernel sysctl -a
	processor lscpu
	host hostname
	date date
	process ps auxwwwm
	EOF
	test -z "$bad" &&
	grep -q "^RX:[[:space:]]*1" "$root/sos_commands/networking/ethtool_-l_nda" &&
	grep -q "default via 192.0.2.2 dev nda" "$root/sos_commands/networking/ip_route"
'

test_expect_success 'copies: proc files, sys/class/net links as in sos, and what sos lacks' '
	root=$(cat root) && bad= &&
	for f in proc/interrupts proc/net/softnet_stat proc/sys/net/core/rmem_max \
		proc/sys/net/ipv4/tcp_rmem proc/sys/net/ipv4/tcp_wmem \
		sys/devices/system/cpu/online; do
		test -s "$root/$f" || { say "missing $f"; bad=1; }
	done &&
	test -L "$root/sys/class/net/nda" &&
	test "$(readlink "$root/sys/class/net/nda")" = "$(ip netns exec "$NS" readlink /sys/class/net/nda)" &&
	for f in flags mtu operstate carrier tx_queue_len statistics/rx_packets \
		queues/rx-0/rps_cpus queues/rx-0/rps_flow_cnt queues/tx-3/xps_cpus; do
		test -f "$root/sys/class/net/nda/$f" || { say "missing nda/$f"; bad=1; }
	done &&
	test -z "$bad" &&
	test "$(cat "$root/sys/class/net/nda/mtu")" = 1500 &&
	ls "$root/proc/irq" | grep -q "^[0-9]" &&
	if test -d /proc/bus/pci/00; then ls "$root/proc/bus/pci/00" | grep -q "\.0$"; fi
'

test_expect_success 'a missing command leaves no file; a failing one leaves its error' '
	: >not-exec && chmod 0644 not-exec &&
	(cd "$TRASH" && ip netns exec "$NS" unshare -m sh -c "
		mount --bind \"$TRASH/not-exec\" \"\$(command -v lspci)\" &&
		env TMPDIR=\"$TRASH\" dash collect.sh") >out2 2>err2 &&
	tar=$(tarball_of out2) && test -s "$tar" &&
	test_when_finished "rm -rf \"${tar%/*}\"" &&
	tar -tf "$tar" >list &&
	! grep -q "sos_commands/pci/lspci" list &&
	grep -q "sos_commands/networking/ethtool_-l_nda" list &&
	tar -xOf "$tar" --wildcards "*/sos_commands/networking/ethtool_-a_lo" >pause_lo &&
	grep -q "Operation not supported" pause_lo
'

# No team driver or teamd here: a stand-in ethtool (bound over the real
# one) says "driver: team" for ndb and runs the real one otherwise; a
# stand-in teamdctl, found on PATH after the system's, prints a fixture's
# dumps.  The script records them where sos's teamd plugin does, and
# diagnose --sysroot reads the team's runner from them.
test_expect_success 'a team: teamdctl state and config dumps, as sos keeps them' '
	eth=$(command -v ethtool) && cp "$eth" "$TRASH/ethtool.real" &&
	fx="$FIXTURES/team-loadbalance-l4-port-down/sos_commands/teamd" &&
	mkdir -p bin &&
	cat >ethtool.fake <<-EOF &&
	#!/bin/sh
	if [ "\$1" = -i ] && [ "\$2" = ndb ]; then echo "driver: team"; exit 0; fi
	exec "$TRASH/ethtool.real" "\$@"
	EOF
	cat >bin/teamdctl <<-EOF &&
	#!/bin/sh
	[ "\$1" = ndb ] && [ "\$3" = dump ] || exit 1
	exec cat "$fx/teamdctl_team0_\$2_dump"
	EOF
	chmod 0755 ethtool.fake bin/teamdctl &&
	(cd "$TRASH" && ip netns exec "$NS" unshare -m sh -c "
		mount --bind \"$TRASH/ethtool.fake\" \"$eth\" &&
		env TMPDIR=\"$TRASH\" PATH=\"\$PATH:$TRASH/bin\" dash collect.sh") >out4 2>err4 &&
	tar=$(tarball_of out4) && test -s "$tar" &&
	test_when_finished "rm -rf \"${tar%/*}\"" &&
	tar -tf "$tar" >list4 &&
	grep -q "/sos_commands/teamd/teamdctl_ndb_state_dump$" list4 &&
	grep -q "/sos_commands/teamd/teamdctl_ndb_config_dump$" list4 &&
	! grep -q "teamdctl_nda_" list4 &&
	tar -xOf "$tar" --wildcards "*/sos_commands/teamd/teamdctl_ndb_state_dump" >state &&
	cmp state "$fx/teamdctl_team0_state_dump" &&
	{ "$ND" diagnose ndb --sysroot "$tar" --json >team.json; test $? -le 2; } &&
	python3 -c "
import json, sys
fs = [f for f in json.load(open(\"team.json\"))[\"findings\"] if f[\"id\"] == \"bond.hash_layer2\"]
e = fs[0][\"evidence\"]
sys.exit(0 if (e[\"source\"], e[\"team_runner\"]) == (\"teamdctl\", \"loadbalance\") else 1)
"
'

test_expect_success 'diagnose --sysroot TARBALL agrees with live diagnose on every check' '
	ip netns exec "$NS" sh -c "echo 0 > /sys/class/net/nda/queues/rx-0/rps_cpus" &&
	(cd "$TRASH" && ip netns exec "$NS" env TMPDIR="$TRASH" dash collect.sh) >out3 2>&1 &&
	tar=$(tarball_of out3) &&
	test_when_finished "rm -rf \"${tar%/*}\"" &&
	{ ip netns exec "$NS" "$ND" diagnose --no-traffic nda --json >live.json; test $? -le 2; } &&
	{ "$ND" diagnose nda --sysroot "$tar" --json >offline.json; test $? -le 2; } &&
	severities live.json >live.sev && severities offline.json >offline.sev &&
	grep -q "^queues.single warning" live.sev &&
	test_cmp live.sev offline.sev
'

test_expect_success 'without IF the tarball gives the default route interface' '
	(cd "$TRASH" && ip netns exec "$NS" env TMPDIR="$TRASH" dash collect.sh) >out4 2>&1 &&
	tar=$(tarball_of out4) &&
	test_when_finished "rm -rf \"${tar%/*}\"" &&
	{ "$ND" diagnose --sysroot "$tar" --json >default.json; test $? -le 2; } &&
	python3 -c "import json,sys; sys.exit(json.load(open(\"default.json\"))[\"interface\"][\"name\"] != \"nda\")"
'

test_done
