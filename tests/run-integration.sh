#!/bin/sh
# Run every tests/integration/t*.sh (TAP) and print one closing summary line.
cd "$(dirname "$0")/integration" || exit 1
passed=0 failed=0 skipped=0
for t in t[0-9]*.sh; do
	[ -f "$t" ] || continue
	out=$(sh "$t" 2>&1); rc=$?
	printf '%s\n' "$out"
	p=$(printf '%s\n' "$out" | grep -c '^ok ' ); s=$(printf '%s\n' "$out" | grep -c '^ok .*# SKIP')
	f=$(printf '%s\n' "$out" | grep -c '^not ok ')
	passed=$((passed + p - s)) skipped=$((skipped + s)) failed=$((failed + f))
	[ $rc -ne 0 ] && [ "$f" -eq 0 ] && { echo "FAILED: $t exited $rc"; failed=$((failed + 1)); }
done
echo "integration: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
