#!/bin/sh
# nicdoctor-collect 1: what `nicdoctor diagnose` reads, gathered on a host
# without nicdoctor, into one tarball laid out as a sosreport is (so that
# `nicdoctor diagnose IF --sysroot TARBALL` reads it).  Run it as root; it
# needs only coreutils, ethtool, iproute2 and pciutils, and uses tar with
# xz or gzip when present.  It changes nothing on the host: it only reads,
# and writes below a new directory made by mktemp -d.  A command that is
# missing leaves no file (as in sos); a command that fails leaves its
# error text in the file (stdout and stderr both, as in sos).
#
# Printed by `nicdoctor collect --script`; see "COLLECT SCRIPT" in
# nicdoctor(8).

LC_ALL=C
export LC_ALL
PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:$PATH
umask 077

nd_version=1
nd_timeout=30

if [ "$(id -u 2>/dev/null)" != 0 ]; then
	echo "nicdoctor-collect: not root: PCI capabilities and some files will be missing" >&2
fi

nd_out=$(mktemp -d "${TMPDIR:-/tmp}/nicdoctor-collect.XXXXXX") || {
	echo "nicdoctor-collect: cannot make a directory with mktemp -d" >&2
	exit 1
}
nd_host=$( (tr -c 'A-Za-z0-9.\n-' '_' </proc/sys/kernel/hostname) 2>/dev/null)
nd_name="nicdoctor-collect-${nd_host:-host}-$(date +%Y-%m-%d-%H%M%S)"
R="$nd_out/$nd_name"
mkdir "$R" || exit 1

# mangle CMD...: the file name sos gives the output of a command
# (sos/report/plugins/__init__.py _mangle_command): runs of characters
# other than letters, digits, "_", "-", "." and "/" become one "_", "/"
# becomes ".", leading and trailing blanks, dots, "_" and "-" go, 255 at most.
mangle() {
	printf '%s\n' "$*" |
		sed -e 's#^/\(usr/\)\{0,1\}s\{0,1\}bin/##' \
		    -e 's#[^A-Za-z0-9_./-]\{1,\}#_#g' -e 's#/#.#g' \
		    -e 's#^[ ._-]*##' -e 's#[ ._-]*$##' | cut -c 1-255
}

# run PLUGIN CMD ARGS...: CMD's stdout and stderr into
# sos_commands/PLUGIN/<mangled command>; nothing when CMD is not installed.
run() {
	nd_plugin=$1
	shift
	command -v "$1" >/dev/null 2>&1 || return 0
	mkdir -p "$R/sos_commands/$nd_plugin"
	nd_file=$(mangle "$@")
	[ -n "$nd_file" ] || return 0
	nd_file="$R/sos_commands/$nd_plugin/$nd_file"
	if command -v timeout >/dev/null 2>&1; then
		timeout "$nd_timeout" "$@" >"$nd_file" 2>&1 </dev/null
	else
		"$@" >"$nd_file" 2>&1 </dev/null
	fi
	return 0
}

# copy FILE...: each readable regular file to the same path below the
# tree; one that cannot be read is left out (as sos does for /proc, /sys).
copy() {
	for nd_src in "$@"; do
		[ -f "$nd_src" ] || continue
		nd_dst="$R$nd_src"
		mkdir -p "${nd_dst%/*}" || continue
		cat -- "$nd_src" >"$nd_dst" 2>/dev/null || rm -f -- "$nd_dst"
	done
}

# mirror DIR: make DIR below the tree the way sos does (archive.py
# _make_leading_paths): each symbolic link on the way is recreated, with
# its own relative target, inside the physical directory that holds it, so
# sys/class/net/IF -> ../../devices/.../net/IF resolves inside the tree.
# Prints the physical directory to copy files into.
mirror() {
	nd_rest=${1#/}
	nd_at=
	while [ -n "$nd_rest" ]; do
		nd_part=${nd_rest%%/*}
		if [ "$nd_part" = "$nd_rest" ]; then nd_rest=; else nd_rest=${nd_rest#*/}; fi
		nd_at="$nd_at/$nd_part"
		if [ -L "$nd_at" ]; then
			nd_parent=$(readlink -f -- "${nd_at%/*}") || return 1
			mkdir -p "$R$nd_parent" || return 1
			if [ ! -L "$R$nd_parent/$nd_part" ] && [ ! -e "$R$nd_parent/$nd_part" ]; then
				ln -s -- "$(readlink -- "$nd_at")" "$R$nd_parent/$nd_part" || return 1
			fi
		fi
	done
	nd_phys=$(readlink -f -- "$1") || return 1
	mkdir -p "$R$nd_phys" || return 1
	printf '%s\n' "$nd_phys"
}

# copy_in DIR NAME...: DIR/NAME for each NAME, DIR reached as mirror does.
copy_in() {
	nd_dir=$1
	shift
	[ -d "$nd_dir" ] || return 0
	nd_phys=$(mirror "$nd_dir") || return 0
	for nd_base in "$@"; do
		[ -f "$nd_dir/$nd_base" ] || continue
		cat -- "$nd_dir/$nd_base" >"$R$nd_phys/$nd_base" 2>/dev/null ||
			rm -f -- "$R$nd_phys/$nd_base"
	done
}

# copy_all DIR: every regular file in DIR, DIR reached as mirror does.
copy_all() {
	[ -d "$1" ] || return 0
	nd_phys=$(mirror "$1") || return 0
	for nd_entry in "$1"/*; do
		[ -f "$nd_entry" ] || continue
		cat -- "$nd_entry" >"$R$nd_phys/${nd_entry##*/}" 2>/dev/null ||
			rm -f -- "$R$nd_phys/${nd_entry##*/}"
	done
}

collect_iface() {
	nd_if=$1
	nd_sys="/sys/class/net/$nd_if"
	for nd_opt in "" -i -l -g -k -c -a -S; do
		if [ -n "$nd_opt" ]; then
			run networking ethtool "$nd_opt" "$nd_if"
		else
			run networking ethtool "$nd_if"
		fi
	done
	copy_in "$nd_sys" flags speed duplex mtu operstate carrier tx_queue_len \
		address addr_len type ifindex
	copy_all "$nd_sys/statistics"
	copy_all "$nd_sys/bonding"		# a bond master's attributes
	copy_all "$nd_sys/bonding_slave"	# a bond member's state
	# a team (the team driver's ethtool -i says "driver: team"): its
	# runner lives in teamd, recorded as sos's teamd plugin does
	if ethtool -i "$nd_if" 2>/dev/null | grep -q '^driver: team$'; then
		run teamd teamdctl "$nd_if" state dump
		run teamd teamdctl "$nd_if" config dump
	fi
	for nd_q in "$nd_sys"/queues/rx-*; do
		[ -d "$nd_q" ] && copy_in "$nd_q" rps_cpus rps_flow_cnt
	done
	for nd_q in "$nd_sys"/queues/tx-*; do
		[ -d "$nd_q" ] && copy_in "$nd_q" xps_cpus xps_rxqs tx_maxrate
	done
	[ -d "$nd_sys/device" ] || return 0
	copy_in "$nd_sys/device" numa_node local_cpulist current_link_speed \
		current_link_width max_link_speed max_link_width vendor device class \
		subsystem_vendor subsystem_device irq
	copy_all "$nd_sys/device/msi_irqs"
}

# What the tarball is: detected by sos_commands/ and version.txt.
echo "nicdoctor-collect: $nd_version" >"$R/version.txt"

run host hostname
run date date
run date date --utc
run kernel uname -a
run kernel sysctl -a
run processor lscpu
run pci lspci -nnvv
run pci lspci -tv
run networking ip -s -d link
run networking ip route
run networking ip route show table all
run networking ip -o addr
run networking tc -s qdisc show
run process ps auxwwwm
run systemd systemctl list-units --all
run systemd systemctl status irqbalance

for nd_path in /sys/class/net/*; do
	nd_if=${nd_path##*/}
	case $nd_if in
	bonding_masters | -*) continue ;;	# not a device; would read as an option
	esac
	[ -d "$nd_path" ] || continue
	collect_iface "$nd_if"
done

copy /proc/interrupts /proc/softirqs /proc/net/softnet_stat /proc/net/dev \
	/proc/cpuinfo /proc/uptime /proc/sys/kernel/hostname /proc/sys/kernel/osrelease \
	/proc/sys/net/ipv4/tcp_rmem /proc/sys/net/ipv4/tcp_wmem \
	/proc/irq/default_smp_affinity
# Whether this is a VM, and whose (nicdoctor's virt facts).
copy /sys/hypervisor/type /sys/class/dmi/id/sys_vendor /sys/class/dmi/id/product_name
for nd_f in /proc/net/bonding/*; do	# as sosreport copies them
	copy "$nd_f"
done
for nd_f in /proc/sys/net/core/*; do
	copy "$nd_f"
done
for nd_irq in /proc/irq/*; do
	[ -d "$nd_irq" ] || continue
	copy "$nd_irq/smp_affinity" "$nd_irq/smp_affinity_list" \
		"$nd_irq/effective_affinity" "$nd_irq/effective_affinity_list" \
		"$nd_irq/affinity_hint" "$nd_irq/node"
done
# PCI config space as bytes (whole when root); lspci -nnvv is the fallback.
if [ -d /proc/bus/pci ]; then
	mkdir -p "$R/proc/bus" && cp -R /proc/bus/pci "$R/proc/bus/" 2>/dev/null
fi

copy_in /sys/devices/system/cpu online possible present
for nd_cpu in /sys/devices/system/cpu/cpu[0-9]*; do
	[ -d "$nd_cpu/cpufreq" ] &&
		copy_in "$nd_cpu/cpufreq" scaling_governor scaling_driver
done
for nd_node in /sys/devices/system/node/node[0-9]*; do
	[ -d "$nd_node" ] && copy_in "$nd_node" cpulist
done

# One tarball next to the tree; the tree is removed once it is packed.
cd "$nd_out" || exit 1
if command -v xz >/dev/null 2>&1; then
	nd_tar="$nd_name.tar.xz"
	tar -cf - "$nd_name" | xz -c >"$nd_tar"
elif command -v gzip >/dev/null 2>&1; then
	nd_tar="$nd_name.tar.gz"
	tar -cf - "$nd_name" | gzip -c >"$nd_tar"
else
	nd_tar="$nd_name.tar"
	tar -cf "$nd_tar" "$nd_name"
fi
if [ -s "$nd_tar" ]; then
	rm -rf -- "$nd_name"
	echo "nicdoctor-collect: wrote $nd_out/$nd_tar"
	echo "attach it to the ticket; read it with: nicdoctor diagnose IF --sysroot $nd_out/$nd_tar"
else
	echo "nicdoctor-collect: tar failed; the files are in $R" >&2
	exit 1
fi
