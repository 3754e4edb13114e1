#!/bin/sh
test_description='the blind set: real captures from public threads, headline, severity and fix as the thread established them'
. ./test-lib.sh
test_require_cmd python3

BLIND="$FIXTURES/blind"

test_expect_success 'the generator rebuilds every case byte for byte' '
	mkdir rebuilt &&
	python3 "$BLIND/make-blind-fixtures.py" "$TRASH/rebuilt" &&
	for dir in rebuilt/*/; do
		name=$(basename "$dir") &&
		diff -r "$dir" "$BLIND/$name" || return 1
	done &&
	test "$(ls rebuilt | wc -l)" = "$(grep -c "^[a-z0-9]" "$BLIND/expected.tsv")"
'

test_expect_success 'every case renders in every format' '
	grep "^[a-z0-9]" "$BLIND/expected.tsv" | while read -r name ifname rest; do
		for format in text markdown json prometheus; do
			"$ND" diagnose "$ifname" --sysroot "$BLIND/$name" --format $format >out
			test $? -le 2 && test -s out || { echo "$name $format"; return 1; }
		done
	done
'

# blind.py prints one TAP test per expectation of expected.tsv (known-wrong
# cases as TODO), numbered after the ones above.
[ -n "$test_skip_all" ] || TRASH="$TRASH" python3 "$TEST_DIR/blind.py" "$ND" "$BLIND" "$test_count" ||
	test_failed=$((test_failed + 1))
test_count=$(cat "$TRASH/.blind-count" 2>/dev/null || echo "$test_count")
test_done
