#!/bin/sh
# Run every tests/integration/t*.sh (TAP) and print one closing summary line.
#
# Under SAN=1 the integration tests run without LeakSanitizer: its
# stop-the-world tracer was seen to livelock a server stopped by SIGTERM,
# hanging the suite.  Leaks are checked by the unit tests (LSan on) and by
# the valgrind integration test.  Each script also gets a time limit, so a
# hang fails that script instead of eating the CI run.
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=0}
export ASAN_OPTIONS
SCRIPT_TIMEOUT=${SCRIPT_TIMEOUT:-600}
cd "$(dirname "$0")/integration" || exit 1
passed=0 failed=0 skipped=0
for t in t[0-9]*.sh; do
	[ -f "$t" ] || continue
	start=$(date +%s)
	out=$(timeout -k 10 "$SCRIPT_TIMEOUT" sh "$t" 2>&1); rc=$?
	printf '%s\n' "$out"
	echo "# $t: $(( $(date +%s) - start )) s"
	[ $rc -eq 124 ] && echo "FAILED: $t timed out after ${SCRIPT_TIMEOUT}s"
	p=$(printf '%s\n' "$out" | grep -c '^ok ' ); s=$(printf '%s\n' "$out" | grep -c '^ok .*# SKIP')
	f=$(printf '%s\n' "$out" | grep -c '^not ok ')
	passed=$((passed + p - s)) skipped=$((skipped + s)) failed=$((failed + f))
	[ $rc -ne 0 ] && [ "$f" -eq 0 ] && { echo "FAILED: $t exited $rc"; failed=$((failed + 1)); }
done
echo "integration: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
