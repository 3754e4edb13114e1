#!/bin/sh
test_description='--version: nicdoctor'"'"'s version and the libraries it was built with; one version everywhere'
. ./test-lib.sh
test_skip_under_san

V=$(sed -n 's/^#define ND_VERSION "\(.*\)"$/\1/p' "$SRC_DIR/include/nicdoctor/common.h")

# "NAME BUILT ..." for each library, BUILT as pkg-config reports it here.
test_expect_success '--version: the version, then each library with its version; exit 0' '
	test -n "$V" &&
	"$ND" --version >out &&
	echo "nicdoctor $V" >expect &&
	head -n 1 out >actual &&
	test_cmp expect actual &&
	for lib in "libnl libnl-3.0" "libpci libpci" "cJSON libcjson" "libarchive libarchive" \
		"OpenSSL openssl"; do
		set -- $lib
		echo "$1 $(pkg-config --modversion $2)"
	done >expect &&
	sed -n "2,\$p" out | cut -d" " -f1,2 >actual &&
	test_cmp expect actual
'

test_expect_success '--version: the run-time versions of the libraries that report one' '
	grep -q "^libnl [0-9.]* (running [0-9]*\.[0-9]*\.[0-9]*)$" out &&
	grep -q "^libpci [0-9.]* (PCI_LIB_VERSION 0x[0-9a-f]\{6\})$" out &&
	grep -q "^cJSON [0-9.]* (running [0-9]*\.[0-9]*\.[0-9]*)$" out &&
	grep -q "^libarchive [0-9.]* (running [0-9]*\.[0-9]*\.[0-9]*)$" out &&
	grep -q "^OpenSSL [0-9.]* (running OpenSSL [0-9.]* .*)$" out
'

test_expect_success '-V is --version' '
	"$ND" -V >actual &&
	test_cmp out actual
'

test_expect_success 'one version: the JSON report, the man page and debian/changelog say it' '
	{ "$ND" diagnose lo --no-traffic --sample 0 --json >report.json; test $? -le 2; } &&
	python3 -c "import json,sys; print(json.load(sys.stdin)[\"tool\"][\"version\"])" \
		<report.json >actual &&
	echo "$V" >expect &&
	test_cmp expect actual &&
	grep -q "^\.TH NICDOCTOR 8 \"[^\"]*\" \"nicdoctor $V\"" "$SRC_DIR/man/nicdoctor.8" &&
	head -n 1 "$SRC_DIR/debian/changelog" >actual &&
	echo "nicdoctor ($V) unstable; urgency=medium" >expect &&
	test_cmp expect actual
'

test_done
