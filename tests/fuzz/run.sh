#!/bin/sh
# Run each libFuzzer target for SECONDS, starting from its seed corpus in
# tests/fuzz/corpus/NAME/.  New inputs go to a scratch corpus (the seeds in
# git stay as they are); a crash leaves its input in build-fuzz/artifacts/
# and fails the run.  Usage: run.sh SECONDS BIN...
seconds=$1
shift
cd "$(dirname "$0")/../.." || exit 1
mkdir -p build-fuzz/artifacts build-fuzz/corpus
failed=0
for bin in "$@"; do
	name=$(basename "$bin")
	seeds=tests/fuzz/corpus/$name
	work=build-fuzz/corpus/$name
	mkdir -p "$work" "$seeds"
	log=build-fuzz/$name.log
	printf 'fuzz %-18s %ss ... ' "$name" "$seconds"
	if "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
		-max_len=65536 -print_final_stats=1 \
		-artifact_prefix=build-fuzz/artifacts/"$name"- "$work" "$seeds" >"$log" 2>&1; then
		execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
		cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
		echo "ok ($execs runs, $cov)"
	else
		echo "FAILED, see $log"
		grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error)' "$log" | head -5
		failed=$((failed + 1))
	fi
done
echo "fuzz: $# targets, $failed failed"
[ "$failed" -eq 0 ]
