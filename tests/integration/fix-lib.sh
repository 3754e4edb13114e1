# fix-lib.sh - shared by the fix tests (t2*): sourced after test-lib.sh with
# NS set.  Journal and persist files go to the test's scratch directory.
export NICDOCTOR_STATE_DIR="$TRASH/state" NICDOCTOR_ETC_DIR="$TRASH/etc"
in_ns() { ip netns exec "$NS" "$@"; }
fix() { in_ns "$ND" fix "$@"; }

# Every value a fix may touch on nda, as the kernel's own tools print them.
snapshot() {
	in_ns ethtool -l nda && in_ns ethtool -k nda &&
	# The glob inside the namespace: the host's /sys has no nda.
	in_ns sh -c 'for q in /sys/class/net/nda/queues/rx-*; do
		printf "%s %s %s\n" "${q##*/}" "$(cat "$q/rps_cpus")" "$(cat "$q/rps_flow_cnt")"
	done'
}

# The broken veth every fix test starts from: nda/ndb with 4 queues each in
# $NS, nda cut to 1 RX channel, its RPS mask cleared and GRO off.
broken_veth() {
	nd_netns_add "$NS" &&
	ip -n "$NS" link add nda numrxqueues 4 numtxqueues 4 type veth \
		peer ndb numrxqueues 4 numtxqueues 4 &&
	ip -n "$NS" link set nda up && ip -n "$NS" link set ndb up &&
	in_ns ethtool -L nda rx 1 &&
	in_ns sh -c "echo 0 > /sys/class/net/nda/queues/rx-0/rps_cpus" &&
	in_ns ethtool -K nda gro off
}
