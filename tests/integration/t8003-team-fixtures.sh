#!/bin/sh
test_description='team devices from teamd'"'"'s JSON (sos_commands/teamd/teamdctl_TEAM_state_dump, _config_dump): the runner and tx_hash mapped onto the bond checks, unknown with the reason where teamd'"'"'s data is absent'
. ./test-lib.sh
test_require_cmd python3

# The evidence field $2 of finding $1 in report.json.
evidence() {
	python3 -c '
import json, sys
for f in json.load(open("report.json"))["findings"]:
    if f["id"] == sys.argv[1]:
        print(f["evidence"].get(sys.argv[2]))
' "$1" "$2"
}

test_expect_success 'lacp runner without a partner: layer2+3-like default tx_hash, no partner, split aggregators' '
	{ "$ND" diagnose team0 --sysroot "$FIXTURES/team-lacp-no-partner" --json \
		>report.json; test $? = 1; } &&
	nd_bond_findings <report.json >actual &&
	cat >expect <<-\EOT &&
	bond.member_down ok - all 2 members up
	bond.speed_mismatch ok - all 2 members up at 10000 Mbit/s
	bond.hash_layer2 warning 9415 tx_hash eth,ipv4,ipv6 (as layer2+3) puts all traffic to one peer (or to the gateway) on one member: one peer gets at most one member'"'"'s 9415 Mbit/s of the 2
	bond.lacp_no_partner warning 9415 no LACP partner (partner MAC 00:00:00:00:00:00, partner info defaulted): the switch ports are not an LACP port-channel, and the bond carries one member'"'"'s 9415 Mbit/s
	bond.aggregator_split warning 9415 members split over aggregators: only aggregator 3 (1 of 2 members up) carries traffic; unused: ens1f1 in 4
	bond.active_backup_capacity ok - runner lacp uses more than one member
	bond.flows_on_one_member unknown - cannot tell: members'"'"' counters over a traffic run unknown
	EOT
	test_cmp expect actual &&
	printf "%s\n" teamdctl lacp eth,ipv4,ipv6 True >expect &&
	{ evidence bond.hash_layer2 source; evidence bond.hash_layer2 team_runner;
	  evidence bond.hash_layer2 team_tx_hash;
	  evidence bond.hash_layer2 team_tx_hash_default; } >actual &&
	test_cmp expect actual
'

test_expect_success 'the fixes are teamd'"'"'s: tx_hash through nmcli, the LACP state through teamdctl' '
	python3 -c "
import json
for f in json.load(open(\"report.json\"))[\"findings\"]:
    if f[\"id\"] in (\"bond.hash_layer2\", \"bond.lacp_no_partner\", \"bond.aggregator_split\"):
        print(f[\"id\"], f[\"fix\"][\"commands\"][0 if f[\"id\"] == \"bond.hash_layer2\" else 1])
" >actual &&
	cat >expect <<-\EOT &&
	bond.hash_layer2 nmcli connection modify team0 team.runner-tx-hash eth,ipv4,ipv6,tcp,udp
	bond.lacp_no_partner teamdctl team0 state view
	bond.aggregator_split teamdctl team0 state view
	EOT
	test_cmp expect actual
'

test_expect_success 'insights-core'"'"'s activebackup capture (no ports in it): the ports from the config, info with one port as the ceiling, exit 0' '
	"$ND" diagnose team0 --sysroot "$FIXTURES/team-activebackup-insights" --json >report.json &&
	nd_bond_findings <report.json | grep -v " ok " >actual &&
	echo "bond.active_backup_capacity info 941 active-backup: eno1 carries everything, 1 other member on standby: the bond'"'"'s ceiling is one member'"'"'s 941 Mbit/s" >expect &&
	test_cmp expect actual &&
	python3 -c "
import json
print(\" \".join(m[\"name\"] for m in json.load(open(\"report.json\"))[\"members\"]))
" >actual && echo "eno1 eno2" >expect && test_cmp expect actual
'

test_expect_success 'state dump without the config: tx_hash unknown, the reason named' '
	{ "$ND" diagnose team0 --sysroot "$FIXTURES/team-lacp-state-only" --json \
		>report.json; test $? = 1; } &&
	nd_bond_findings <report.json | grep hash_layer2 >actual &&
	echo "bond.hash_layer2 unknown - cannot tell: the team'"'"'s tx_hash (teamdctl config dump) unknown" >expect &&
	test_cmp expect actual &&
	evidence bond.hash_layer2 reason >actual &&
	echo "no teamdctl config dump in sos_commands/teamd: the runner'"'"'s tx_hash is unknown" >expect &&
	test_cmp expect actual
'

test_expect_success 'config dump without the state: the LACP state unknown, the ports from the config and their carrier' '
	"$ND" diagnose team0 --sysroot "$FIXTURES/team-lacp-config-only" --json >report.json &&
	nd_bond_findings <report.json | grep -E "member_down|hash_layer2|lacp_no_partner" >actual &&
	cat >expect <<-\EOT &&
	bond.member_down ok - all 2 members up
	bond.hash_layer2 ok - tx_hash eth,ipv4,ipv6,tcp,udp (as layer3+4) spreads one peer'"'"'s flows over the members; one flow still gets one member (9415 Mbit/s)
	bond.lacp_no_partner unknown - cannot tell: 802.3ad aggregator and LACP port states unknown
	EOT
	test_cmp expect actual &&
	evidence bond.lacp_no_partner reason >actual &&
	echo "no teamdctl state dump in sos_commands/teamd: the ports'"'"' link watches and LACP state are unknown" >expect &&
	test_cmp expect actual
'

test_expect_success 'loadbalance with a port down: the ceiling is the port up; the link watch'"'"'s downs counted' '
	{ "$ND" diagnose team0 --sysroot "$FIXTURES/team-loadbalance-l4-port-down" --json \
		>report.json; test $? = 1; } &&
	nd_bond_findings <report.json | grep -E " (warning|critical) " >actual &&
	echo "bond.member_down warning 9415 1 of 2 members down: ens2f1 (down); the bond carries at most 9415 Mbit/s on the 1 up" >expect &&
	test_cmp expect actual &&
	python3 -c "
import json
for f in json.load(open(\"report.json\"))[\"findings\"]:
    if f[\"id\"] == \"bond.member_down\":
        print([(m[\"name\"], m[\"mii_status\"], m.get(\"link_failure_count\")) for m in f[\"evidence\"][\"members\"]])
" >actual &&
	echo "[('"'"'ens2f0'"'"', '"'"'up'"'"', 0), ('"'"'ens2f1'"'"', '"'"'down'"'"', 3)]" >expect &&
	test_cmp expect actual
'

test_expect_success 'roundrobin over 10G and 1G: equal shares, capped at 2 x the 1G port' '
	{ "$ND" diagnose team0 --sysroot "$FIXTURES/team-roundrobin-speed-mismatch" --json \
		>report.json; test $? = 1; } &&
	nd_bond_findings <report.json | grep -E " (warning|critical) " >actual &&
	echo "bond.speed_mismatch warning 1883 members at 10000 and 1000 Mbit/s: runner roundrobin gives each member an equal share, so enp4s0 caps the bond at 2 x 941 Mbit/s" >expect &&
	test_cmp expect actual
'

test_expect_success 'a sosreport (directory and .tar.xz) with sos_commands/teamd: the team judged from it' '
	mkdir -p sos/sos_commands/networking &&
	echo "sosreport: 4.5" >sos/version.txt &&
	cp -a "$FIXTURES/team-lacp-no-partner/sys" "$FIXTURES/team-lacp-no-partner/sos_commands" sos/ &&
	{ "$ND" diagnose team0 --sysroot sos --json >report.json; test $? = 1; } &&
	evidence bond.lacp_no_partner source >actual && echo teamdctl >expect &&
	test_cmp expect actual &&
	tar -C sos -cJf sos.tar.xz . &&
	{ "$ND" diagnose team0 --sysroot sos.tar.xz --json >tar.json; test $? = 1; } &&
	nd_bond_findings <report.json >dir.txt && nd_bond_findings <tar.json >tar.txt &&
	test_cmp dir.txt tar.txt
'

test_expect_success 'a port of the team, and a tree without teamd'"'"'s files, are not teams' '
	"$ND" diagnose ens1f0 --sysroot "$FIXTURES/team-lacp-no-partner" --json >report.json;
	test $? -le 2 &&
	nd_bond_findings <report.json | sort -u | cut -d" " -f2- | sort -u >actual &&
	echo "ok - not a bond" >expect && test_cmp expect actual &&
	cp -a "$FIXTURES/team-lacp-no-partner" plain && rm -r plain/sos_commands &&
	"$ND" diagnose team0 --sysroot plain --json >report.json; test $? -le 2 &&
	nd_bond_findings <report.json | cut -d" " -f2- | sort -u >actual &&
	test_cmp expect actual
'

test_expect_success 'terminal controls in teamd'"'"'s JSON reach the report only as U+FFFD' '
	cp -a "$FIXTURES/team-lacp-no-partner" hostile &&
	sed -i "s/\"runner_name\": \"lacp\"/\"runner_name\": \"lacp\\\\u001b[2J\"/" \
		hostile/sos_commands/teamd/teamdctl_team0_state_dump &&
	grep -q "lacp.u001b" hostile/sos_commands/teamd/teamdctl_team0_state_dump &&
	for format in text json markdown prometheus; do
		"$ND" diagnose team0 --sysroot hostile -v --format $format >out
		test $? -le 2 || return 1
		! grep -q "$(printf "\033")" out || return 1
	done &&
	"$ND" diagnose team0 --sysroot hostile -v >out; test $? -le 2 &&
	grep -q "teamd runner '"'"'lacp$(printf "\357\277\275")\[2J'"'"' is one this version does not know" out
'

test_done
