#!/bin/sh
# Run each libFuzzer target for SECONDS, starting from its seed corpus in
# tests/fuzz/corpus/NAME/.  New inputs go to a scratch corpus (the seeds in
# git stay as they are); a crash leaves its input in build-fuzz/artifacts/
# and fails the run.  FUZZ_JOBS targets run at once (default 2, one per
# core here).  Usage: run.sh SECONDS BIN...
seconds=$1
shift
jobs=${FUZZ_JOBS:-2}
cd "$(dirname "$0")/../.." || exit 1
mkdir -p build-fuzz/artifacts build-fuzz/corpus build-fuzz/results
rm -f build-fuzz/results/*

# One target: its result line goes to build-fuzz/results/NAME ("ok ..." or "FAILED ...").
run_one() {
	bin=$1 name=$(basename "$1")
	seeds=tests/fuzz/corpus/$name
	work=build-fuzz/corpus/$name
	mkdir -p "$work" "$seeds"
	log=build-fuzz/$name.log
	out=build-fuzz/results/$name
	if "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
		-max_len=65536 -print_final_stats=1 \
		-artifact_prefix=build-fuzz/artifacts/"$name"- "$work" "$seeds" >"$log" 2>&1; then
		execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
		cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
		printf 'fuzz %-26s %ss ... ok (%s runs, %s)\n' "$name" "$seconds" "$execs" "$cov" >"$out"
	else
		{ printf 'fuzz %-26s %ss ... FAILED, see %s\n' "$name" "$seconds" "$log"
		  grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error)' "$log" | head -5; } >"$out"
	fi
}

# Lane k of jobs takes targets k, k+jobs, k+2*jobs, ...
lane() {
	k=$1; shift; i=0
	for bin in "$@"; do
		[ $((i % jobs)) -eq "$k" ] && run_one "$bin"
		i=$((i + 1))
	done
}

k=0
while [ "$k" -lt "$jobs" ]; do
	lane "$k" "$@" &
	k=$((k + 1))
done
wait
failed=0
for bin in "$@"; do
	name=$(basename "$bin")
	cat "build-fuzz/results/$name" 2>/dev/null || echo "fuzz $name: no result"
	grep -q ' ok (' "build-fuzz/results/$name" 2>/dev/null || failed=$((failed + 1))
done
echo "fuzz: $# targets, $failed failed"
[ "$failed" -eq 0 ]
