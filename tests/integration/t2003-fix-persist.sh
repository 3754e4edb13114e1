#!/bin/sh
test_description='fix --persist writes sysctl.d, .link and udev files with the applied values; --revert removes them or puts back what was there'
. ./test-lib.sh
test_require_root
test_require_cmd ip ethtool python3 sysctl

NS=nd-t2003-$$
. "$TEST_DIR/fix-lib.sh"
ETC=$NICDOCTOR_ETC_DIR

# Socket buffer sysctls are per namespace on current kernels, but a kernel
# where one is global would share it with the host: save the host's values
# and put them back on every exit path.
for name in net.core.rmem_max net.core.wmem_max net.ipv4.tcp_rmem net.ipv4.tcp_wmem; do
	value=$(sysctl -n "$name" 2>/dev/null) &&
	nd_atexit "sysctl -q -w '$name=$value' >/dev/null 2>&1"
done

[ "$(nproc)" -ge 2 ] || test_skip_all="needs 2 or more CPUs"

snapshot() {
	in_ns ethtool -l nda && in_ns ethtool -k nda &&
	in_ns cat /sys/class/net/nda/queues/rx-0/rps_cpus &&
	in_ns sysctl -n net.ipv4.tcp_rmem
}

test_expect_success 'a broken veth and a small receive buffer in its namespace' '
	broken_veth &&
	in_ns sysctl -q -w net.ipv4.tcp_rmem="4096 131072 262144" &&
	snapshot >"$TRASH/before" &&
	mkdir -p "$ETC/udev/rules.d" &&
	echo "# an older rule" >"$ETC/udev/rules.d/90-nicdoctor-nda.rules"
'

test_expect_success 'a dry run with --persist names the files and writes nothing' '
	fix nda --only queues.single,rps.off_single_queue,offload.disabled,sysctl.rmem_max_low \
		--persist >out &&
	cat >expect <<-EXPECT &&
	with --apply, --persist writes: $ETC/sysctl.d/90-nicdoctor.conf
	with --apply, --persist writes: $ETC/systemd/network/90-nicdoctor-nda.link
	with --apply, --persist writes: $ETC/udev/rules.d/90-nicdoctor-nda.rules
	EXPECT
	grep "^with --apply" out >actual &&
	test_cmp expect actual &&
	test ! -e "$ETC/sysctl.d" && test ! -e "$NICDOCTOR_STATE_DIR" &&
	snapshot >now && test_cmp "$TRASH/before" now
'

test_expect_success '--apply --persist writes the three files and prints their paths' '
	fix nda --only queues.single,rps.off_single_queue,offload.disabled,sysctl.rmem_max_low \
		--apply --persist >out &&
	cat >expect <<-EXPECT &&
	persisted: $ETC/sysctl.d/90-nicdoctor.conf
	persisted: $ETC/systemd/network/90-nicdoctor-nda.link
	persisted: $ETC/udev/rules.d/90-nicdoctor-nda.rules
	EXPECT
	grep "^persisted: " out >actual &&
	test_cmp expect actual
'

test_expect_success 'the files hold the applied values' '
	mac=$(in_ns cat /sys/class/net/nda/address) &&
	rx=$(in_ns ethtool -l nda | sed -n "/Current/,\$p" | awk "\$1 == \"RX:\" { print \$2 }") &&
	mask=$(in_ns cat /sys/class/net/nda/queues/rx-0/rps_cpus | sed "s/^0*//") &&
	rmem=$(in_ns sysctl -n net.ipv4.tcp_rmem | tr -s "\t" " ") &&
	cat >expect.conf <<-EXPECT &&
	# Written by '"'"'nicdoctor fix --apply --persist'"'"' for nda.
	# '"'"'nicdoctor fix --revert nda'"'"' removes it (or restores what was here).
	net.ipv4.tcp_rmem = $rmem
	EXPECT
	test_cmp expect.conf "$ETC/sysctl.d/90-nicdoctor.conf" &&
	cat >expect.link <<-EXPECT &&
	# Written by '"'"'nicdoctor fix --apply --persist'"'"' for nda.
	# '"'"'nicdoctor fix --revert nda'"'"' removes it (or restores what was here).

	[Match]
	MACAddress=$mac

	[Link]
	NamePolicy=keep kernel database onboard slot path
	AlternativeNamesPolicy=database onboard slot path
	MACAddressPolicy=persistent
	GenericReceiveOffload=yes
	RxChannels=$rx
	EXPECT
	test_cmp expect.link "$ETC/systemd/network/90-nicdoctor-nda.link" &&
	cat >expect.rules <<-EXPECT &&
	# Written by '"'"'nicdoctor fix --apply --persist'"'"' for nda.
	# '"'"'nicdoctor fix --revert nda'"'"' removes it (or restores what was here).
	ACTION=="add", SUBSYSTEM=="net", ATTR{address}=="$mac", ATTR{queues/rx-0/rps_cpus}="$mask"
	EXPECT
	test_cmp expect.rules "$ETC/udev/rules.d/90-nicdoctor-nda.rules"
'

test_expect_success 'the journal records each file and whether it existed' '
	python3 -c "
import glob, json
j = json.load(open(glob.glob(\"$NICDOCTOR_STATE_DIR/journal-*-nda.json\")[0]))
files = {f[\"path\"].rsplit(\"/\", 1)[1]: f for f in j[\"files\"]}
assert files[\"90-nicdoctor.conf\"][\"existed\"] is False
assert files[\"90-nicdoctor-nda.rules\"][\"original\"] == \"# an older rule\n\", files
"
'

test_expect_success '--revert removes new files, restores the older one and every value' '
	fix --revert nda >out &&
	cat >expect <<-EXPECT &&
	removed: $ETC/sysctl.d/90-nicdoctor.conf
	removed: $ETC/systemd/network/90-nicdoctor-nda.link
	restored: $ETC/udev/rules.d/90-nicdoctor-nda.rules
	EXPECT
	grep -E "^(removed|restored): " out >actual &&
	test_cmp expect actual &&
	test ! -e "$ETC/sysctl.d/90-nicdoctor.conf" &&
	test ! -e "$ETC/systemd/network/90-nicdoctor-nda.link" &&
	echo "# an older rule" >expect &&
	test_cmp expect "$ETC/udev/rules.d/90-nicdoctor-nda.rules" &&
	snapshot >after && test_cmp "$TRASH/before" after
'

test_done
