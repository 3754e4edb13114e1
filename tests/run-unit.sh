#!/bin/sh
# Run each cmocka test binary; print one closing "N passed, N failed" line.
passed=0 failed=0
for t in "$@"; do
	if "$t"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAILED: $t"; fi
done
echo "unit: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
