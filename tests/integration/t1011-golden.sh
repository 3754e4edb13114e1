#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
test_description='the report of every fixture, byte for byte as kept in tests/golden'
. ./test-lib.sh
test_require_cmd python3

# A refactor must leave every report as it was; a change meant to alter
# reports rewrites them with `python3 tests/golden/golden.py update
# ./nicdoctor` and the diff shows what changed (tests/README).
test_expect_success 'every fixture: JSON of each interface, text, markdown, prometheus' '
	python3 "$SRC_DIR/tests/golden/golden.py" check "$ND" >out ||
	{ cat out; false; }
'

test_done
