#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
test_description='the layout: each folder of src/ uses only the folders below it'
. ./test-lib.sh
test_require_cmd python3 nm

test_expect_success 'no folder calls a folder on its layer or above (tests/layering.py)' '
	python3 "$SRC_DIR/tests/layering.py" "$(dirname "$ND")" >out || { cat out; false; }
'

test_done
