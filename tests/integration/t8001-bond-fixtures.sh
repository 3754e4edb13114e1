#!/bin/sh
test_description='bonds from real /proc/net/bonding captures: the bond checks with their ceilings and fixes, the sysfs fallback, each member diagnosed on its own'
. ./test-lib.sh
test_require_cmd python3

test_expect_success '802.3ad v3.2.4 capture: layer2, no partner, split aggregators' '
	{ "$ND" diagnose bond0 --sysroot "$FIXTURES/bond-8023ad-no-partner-split" --json \
		>report.json; test $? = 1; } &&
	nd_bond_findings <report.json >actual &&
	cat >expect <<-\EOT &&
	bond.member_down ok - all 2 members up
	bond.speed_mismatch ok - all 2 members up at 1000 Mbit/s
	bond.hash_layer2 warning 941 xmit_hash_policy layer2 puts all traffic to one peer (or to the gateway) on one member: one peer gets at most one member'"'"'s 941 Mbit/s of the 2
	bond.lacp_no_partner warning 941 no LACP partner (partner MAC 00:00:00:00:00:00): the switch ports are not an LACP port-channel, and the bond carries one member'"'"'s 941 Mbit/s
	bond.aggregator_split warning 941 members split over aggregators: only aggregator 3 (1 of 2 members up) carries traffic; unused: eth2 in 2
	bond.active_backup_capacity ok - mode 802.3ad uses more than one member
	bond.flows_on_one_member unknown - cannot tell: members'"'"' counters over a traffic run unknown
	EOT
	test_cmp expect actual
'

test_expect_success 'the layer2 fix is the ip command, the LACP fix the switch side' '
	python3 -c "
import json, sys
for f in json.load(open(\"report.json\"))[\"findings\"]:
    if f[\"id\"] in (\"bond.hash_layer2\", \"bond.lacp_no_partner\"):
        print(f[\"id\"], f[\"fix\"][\"commands\"][0])
" >actual &&
	cat >expect <<-\EOT &&
	bond.hash_layer2 ip link set dev bond0 type bond xmit_hash_policy layer3+4
	bond.lacp_no_partner # the switch side: put the member ports in one LACP port-channel (802.3ad, mode active), same speed, same VLANs
	EOT
	test_cmp expect actual
'

test_expect_success 'without /proc/net/bonding the sysfs files give the same judgement' '
	"$ND" diagnose bond0 --sysroot "$FIXTURES/bond-sysfs-8023ad-no-partner-split" --json \
		>sysfs.json; test $? = 1 &&
	nd_bond_findings <report.json >proc.txt &&
	nd_bond_findings <sysfs.json >sysfs.txt &&
	test_cmp proc.txt sysfs.txt &&
	python3 -c "
import json
d = json.load(open(\"sysfs.json\"))
print([f[\"evidence\"][\"source\"] for f in d[\"findings\"] if f[\"id\"] == \"bond.member_down\"][0])
" >source && echo sysfs >expect && test_cmp expect source
'

test_expect_success 'v3.7.1 capture: a member down, no partner; the ceiling is the one up' '
	{ "$ND" diagnose bond0 --sysroot "$FIXTURES/bond-8023ad-churn-member-down" --json \
		>report.json; test $? = 1; } &&
	nd_bond_findings <report.json | grep -E " (warning|critical) " >actual &&
	cat >expect <<-\EOT &&
	bond.member_down warning 941 1 of 2 members down: enp0s8 (down); the bond carries at most 941 Mbit/s on the 1 up
	bond.lacp_no_partner warning 941 no LACP partner (partner MAC 00:00:00:00:00:00, partner info defaulted): the switch ports are not an LACP port-channel, and the bond carries one member'"'"'s 941 Mbit/s
	EOT
	test_cmp expect actual
'

test_expect_success 'active-backup: info with one member as the ceiling, exit 0' '
	"$ND" diagnose bond0 --sysroot "$FIXTURES/bond-active-backup-2x10g" --json >report.json &&
	nd_bond_findings <report.json | grep " info " >actual &&
	echo "bond.active_backup_capacity info 9415 active-backup: enp17s0f0 carries everything, 1 other member on standby: the bond'"'"'s ceiling is one member'"'"'s 9415 Mbit/s" >expect &&
	test_cmp expect actual
'

test_expect_success 'each member gets one line in text, a row in markdown, an entry in JSON' '
	"$ND" diagnose bond0 --sysroot "$FIXTURES/bond-round-robin-2x1g" >report.txt &&
	sed -n "/^Members/,/^\$/p" report.txt >actual &&
	cat >expect <<-\EOT &&
	Members (2), each diagnosed on its own:
	  eno1: no problem found (some checks could not judge)
	  eno2: no problem found (some checks could not judge)

	EOT
	test_cmp expect actual &&
	"$ND" diagnose bond0 --sysroot "$FIXTURES/bond-round-robin-2x1g" --json |
		python3 -c "import json, sys; print(*[m[\"name\"] + \"=\" + m[\"worst\"] for m in json.load(sys.stdin)[\"members\"]])" >actual &&
	echo "eno1=unknown eno2=unknown" >expect &&
	test_cmp expect actual &&
	"$ND" diagnose bond0 --sysroot "$FIXTURES/bond-round-robin-2x1g" --format markdown |
		sed -n "/^## Members/,/^| eno2/p" >actual &&
	cat >expect <<-\EOT &&
	## Members

	| Member | Worst | Warning or worse |
	|---|---|---|
	| eno1 | unknown |  |
	| eno2 | unknown |  |
	EOT
	test_cmp expect actual
'

test_expect_success 'a member'"'"'s own warning is listed and raises the exit code to 1' '
	cp -a "$FIXTURES/healthy-bond-8023ad" hb && mkdir -p hb/ethtool &&
	cat >hb/ethtool/enp0s9.json <<-\EOT &&
	{"link": {"known": true, "carrier": true, "operstate": "up", "mtu": 1500, "ifindex": 3},
	 "linkmodes": {"known": true, "speed_mbps": 1000, "duplex": 0, "autoneg": false,
	   "supported": [], "advertised": [], "lp_advertised": []}}
	EOT
	"$ND" diagnose bond0 --sysroot "$FIXTURES/healthy-bond-8023ad" >/dev/null &&
	{ "$ND" diagnose bond0 --sysroot hb >report.txt; test $? = 1; } &&
	grep "^  enp0s9:" report.txt >actual &&
	echo "  enp0s9: warning; link.half_duplex" >expect &&
	test_cmp expect actual
'

test_expect_success 'a member missing from the snapshot, or with an invalid name, is said, not fatal' '
	cp -a "$FIXTURES/bond-round-robin-2x1g" gone &&
	rm gone/sys/class/net/eno2 &&
	"$ND" diagnose bond0 --sysroot gone >report.txt &&
	grep "^  eno2:" report.txt >actual &&
	echo "  eno2: unknown  no such interface" >expect &&
	test_cmp expect actual &&
	sed -i "s|^Slave Interface: eno2|Slave Interface: ../../../../etc|" \
		gone/proc/net/bonding/bond0 &&
	"$ND" diagnose bond0 --sysroot gone >report.txt &&
	grep "^  \.\./" report.txt >actual &&
	echo "  ../../../../etc: unknown  invalid interface name" >expect &&
	test_cmp expect actual
'

test_expect_success 'an interface that is no bond: every bond check ok, no members' '
	"$ND" diagnose enp1s0f0np0 --sysroot "$FIXTURES/healthy-x16" --json >report.json &&
	nd_bond_findings <report.json | cut -d" " -f2- | sort -u >actual &&
	echo "ok - not a bond" >expect &&
	test_cmp expect actual &&
	! grep -q "\"members\"" report.json
'

test_expect_success '--redact hides the LACP partner'"'"'s MAC in every format' '
	for format in text json markdown; do
		"$ND" diagnose bond0 --sysroot "$FIXTURES/healthy-bond-8023ad" --redact -v \
			--format $format >out.$format || return 1
		! grep -q "52:54:00:12:34:56" out.$format || return 1
	done &&
	grep -o "LACP partner mac-1 answers" out.text >actual &&
	echo "LACP partner mac-1 answers" >expect &&
	test_cmp expect actual
'

test_expect_success 'a sosreport with /proc/net/bonding/bond0 (sos copies /proc/net): the bond judged from it' '
	mkdir -p sos/sos_commands/networking sos/sys/class/net/bond0 sos/proc/net/bonding &&
	echo "sosreport: 4.2" >sos/version.txt &&
	tail -n +2 "$FIXTURES/raw/bonding-xor-layer2+3-2x1g.txt" >sos/proc/net/bonding/bond0 &&
	{ "$ND" diagnose bond0 --sysroot sos --json >report.json; test $? = 1; } &&
	python3 -c "
import json
for f in json.load(open(\"report.json\"))[\"findings\"]:
    if f[\"id\"] == \"bond.hash_layer2\":
        print(f[\"severity\"], f[\"evidence\"][\"source\"], f[\"evidence\"][\"xmit_hash_policy\"])
" >actual &&
	echo "warning /proc/net/bonding layer2+3" >expect &&
	test_cmp expect actual
'

test_expect_success 'terminal controls in a snapshot'"'"'s bonding files reach no report' '
	cp -a "$FIXTURES/bond-sysfs-8023ad-no-partner-split" hostile &&
	printf "up\033]52;c;eA==\007\n" >hostile/sys/devices/virtual/net/eth1/bonding_slave/mii_status &&
	printf "802.3ad\033[2J 4\n" >hostile/sys/devices/virtual/net/bond0/bonding/mode &&
	for format in text json markdown prometheus; do
		"$ND" diagnose bond0 --sysroot hostile -v --format $format >out
		test $? -le 2 || return 1
		! grep -q "$(printf "\033")" out || return 1
	done
'

test_expect_success 'nicdoctor checks lists the bond checks' '
	"$ND" checks >list &&
	grep -o "^bond\.[a-z0-9_]*" list >actual &&
	cat >expect <<-\EOT &&
	bond.member_down
	bond.speed_mismatch
	bond.hash_layer2
	bond.lacp_no_partner
	bond.aggregator_split
	bond.active_backup_capacity
	bond.flows_on_one_member
	EOT
	test_cmp expect actual
'

test_done
