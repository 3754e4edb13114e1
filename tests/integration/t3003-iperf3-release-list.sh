#!/bin/sh
test_description='iperf3 release test list (test_commands.sh) both ways against iperf3 3.21 and 3.12'
#
# The list is iperf3's own pre-release checklist: test_commands.sh in the
# iperf-3.21 tarball (../shared/peers/iperf-3.21.tar.gz, esnet/iperf tag
# 3.21, commit d39cf41), its 34 client command lines copied below.  Each runs
# four ways on loopback: `nicdoctor iperf3 -c` against `iperf3 -s` 3.21 and
# 3.12, and iperf3 3.21 and 3.12 `-c` against `nicdoctor iperf3 -s`.
# Rewritten to fit the run time: every "-t 5" became "-t 1", and a line
# without -t, -n or -k (so 10 s) got "-t 1".  The list takes one host; the
# -6 lines get ::1, the others 127.0.0.1.  The four ways run at the same
# time on four ports (the check is that each command works, not its speed).
#
# Stock iperf3 against itself here does not pass every line; those are
# not "passes", so each is checked for what stock does instead (say_skip):
#   --sctp: neither iperf3 build here has SCTP; ours refuses it too
#   -n 5M -t 1: iperf3 refuses two end conditions; ours refuses it too
#   -A 2/2: core 2 does not exist on a 2-CPU host (iperf3 fails); on a
#     bigger host stock passes, and so must we
. ./test-lib.sh
test_require_cmd timeout python3

NEW=${IPERF3_NEW:-$SRC_DIR/build-peers/iperf-3.21/bin/iperf3}
OLD=$(command -v iperf3)
[ -x "$NEW" ] || test_skip_all="no iperf3 3.21 at '$NEW' (make peers)"
[ -n "$OLD" ] || test_skip_all="no iperf3 (Debian's 3.12)"

cat >cmds <<'LIST'
-V -t 1 -T "test1"
-u -V -t 1
-i .3 -O 2 -t 1
-i 1 -J -t 1
-4 -t 1
-4 -u -t 1
-6 -t 1
-6 -u -t 1
-V -t 1 --fq-rate 5m
-u -V -t 1 --fq-rate 5m
--sctp -V -t 1
-P 3 -t 1
-u -P 3 -t 1
-P 2 -t 1 -R
-u -P 2 -t 1 -R
-P 2 -t 1 --bidir
-u -P 2 -t 1 --bidir
-Z -t 1
-Z -t 1 -R
-t 1 -w 8M
-n 5M
-n 5M -u -b1G
-n 5M -R
-n 5M -u -b1G -R
-n 5M -t 1
-k 1K
-k 1K -u -b1G
-k 1K -R
-k 1K -u -b1G -R
-A 2/2 -t 1
-A 2/2 -u -b1G -t 1
-u -b1G/100 -t 1
-C reno -V -t 1
-M 1000 -V -t 1
LIST

# The wrapper makes nicdoctor's drop-in one command, like iperf3.
printf '#!/bin/sh\nexec "%s" iperf3 "$@"\n' "$ND" >nd-iperf3
chmod +x nd-iperf3
NDI=$TRASH/nd-iperf3

# lane NAME CLIENT SERVER PORT: the list, one server for all of it.
# Writes NAME/N.out and NAME/N.rc per command.
lane() {
	lane_dir=$1 lane_client=$2 lane_port=$4
	mkdir -p "$lane_dir"
	$3 -s -p $lane_port >"$lane_dir/server.log" 2>&1 &
	lane_srv=$!
	echo $lane_srv >"$lane_dir/server.pid"
	sleep 0.5
	n=0
	while IFS= read -r args; do
		n=$((n + 1))
		case " $args " in *" -6 "*) host=::1;; *) host=127.0.0.1;; esac
		eval "set -- $args"
		timeout 20 $lane_client -c $host -p $lane_port "$@" >"$lane_dir/$n.out" 2>&1
		echo $? >"$lane_dir/$n.rc"
		sleep 0.1
	done <cmds
	kill $lane_srv 2>/dev/null
	wait $lane_srv 2>/dev/null
}

# What "passed" means: exit 0 and a complete report (a receiver line, or
# -J with its end sums).
passed() {
	[ "$(cat "$1.rc")" = 0 ] || return 1
	case "$2" in
	*-J*) python3 -c 'import json,sys; e=json.load(open(sys.argv[1]))["end"]
assert "sum_received" in e or "sum" in e' "$1.out" ;;
	*) grep -q "receiver$" "$1.out" ;;
	esac
}

check() {
	if passed "$1/$2" "$3"; then
		return 0
	fi
	echo "exit $(cat "$1/$2.rc"): $3"
	cat "$1/$2.out"
	sed 's/^/server: /' "$1/server.log" | tail -20
	return 1
}

# A line stock refuses: ours must refuse it too (non-zero exit).
refused() {
	rc=$(cat "$1/$2.rc")
	[ "$rc" != 0 ] && [ "$rc" != 124 ] || { echo "exit $rc: $3"; cat "$1/$2.out"; return 1; }
}

ncpu=$(getconf _NPROCESSORS_ONLN)
if [ -z "$test_skip_all" ]; then
	# The lanes' servers, should the script be cut short.
	nd_atexit 'for f in "$TRASH"/*/server.pid; do kill "$(cat "$f")" 2>/dev/null; done'
	ports=$((28000 + $$ % 40))  # 28000-28239: below the ephemeral range, no other script
	lane ours-321 "$NDI" "$NEW" $ports &
	lane 321-ours "$NEW" "$NDI" $((ports + 50)) &
	lane ours-312 "$NDI" "$OLD" $((ports + 100)) &
	lane 312-ours "$OLD" "$NDI" $((ports + 150)) &
	wait
fi

n=0
while IFS= read -r args; do
	n=$((n + 1))
	for way in ours-321 321-ours ours-312 312-ours; do
		case "$args" in
		--sctp*|"-n 5M -t 1")
			test_expect_success "$way: $args (stock refuses it; so do we)" \
				"refused $way $n '$args'" ;;
		"-A 2/2"*)
			if [ "$ncpu" -le 2 ]; then
				test_expect_success "$way: $args (no core 2 here: stock fails; so do we)" \
					"refused $way $n '$args'"
			else
				test_expect_success "$way: $args" "check $way $n '$args'"
			fi ;;
		*)
			test_expect_success "$way: $args" "check $way $n '$args'" ;;
		esac
	done
done <cmds

test_done
