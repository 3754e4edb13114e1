#!/bin/sh
test_description='every check ID a report can hold is in `nicdoctor checks` and taken by --skip'
. ./test-lib.sh
test_require_cmd python3

# The IDs a report can hold: the findings of every golden report (each
# fixture, bonds and teams included), the IDs the source gives a finding
# outside the registry (an experiment's own, `->id = "x.y"`), the
# suspects the verdicts know and the checks the fix kinds answer.
test_expect_success 'nicdoctor checks: one ID a line' '
	"$ND" checks >checks.txt &&
	awk "{ print \$1 }" checks.txt | sort >ids &&
	test "$(wc -l <ids)" -ge 30 &&
	test "$(sort -u ids | wc -l)" = "$(wc -l <ids)"
'

test_expect_success 'every ID in a golden report is a check, and every check is in each report' '
	python3 - "$SRC_DIR/tests/golden" <<-\PY
	import json, os, sys
	ids = set(open("ids").read().split())
	n = 0
	def docs(path):
	    # a golden file ends with its exit code: "# exit N"
	    text = "".join(l for l in open(path) if not l.startswith("# exit"))
	    dec, i = json.JSONDecoder(), 0
	    while True:
	        while i < len(text) and text[i].isspace():
	            i += 1
	        if i >= len(text):
	            return
	        doc, i = dec.raw_decode(text, i)
	        yield doc
	reports = []
	for d, _, files in os.walk(sys.argv[1]):
	    for name in files:
	        if name.endswith(".json"):
	            reports += [(name, doc) for doc in docs(os.path.join(d, name))]
	for name, doc in reports:
	    # a bond member lists only what needs attention: a subset
	    for report in [doc] + doc.get("other_ports", []) + (doc.get("members") or []):
	        if not isinstance(report, dict) or "findings" not in report:
	            continue
	        got = {f["id"] for f in report["findings"]}
	        assert got <= ids, (name, sorted(got - ids))
	        if "schema" in report:
	            assert got == ids, (name, "not reported:", sorted(ids - got))
	        n += 1
	assert n >= 20, n
	print(n, "reports")
	PY
'

test_expect_success 'every finding ID the source names is a check' '
	python3 - "$SRC_DIR/src" <<-\PY
	import os, re, sys
	ids = set(open("ids").read().split())
	named = {}
	pats = [re.compile(r"->id\s*=\s*\"([a-z0-9_]+\.[a-z0-9_]+)\""),
	        re.compile(r"\.id\s*=\s*\"([a-z0-9_]+\.[a-z0-9_]+)\""),
	        re.compile(r"\{\s*\"([a-z0-9_]+\.[a-z0-9_]+)\",\s*ND_SUSPECT_"),
	        re.compile(r"_checks\[\]\s*=\s*\{([^}]*)\}")]
	for d, _, files in os.walk(sys.argv[1]):
	    for name in files:
	        if not name.endswith(".c"):
	            continue
	        text = open(os.path.join(d, name)).read()
	        for p in pats:
	            for m in p.finditer(text):
	                for i in re.findall(r"\"([a-z0-9_]+\.[a-z0-9_]+)\"", m.group(0)):
	                    named.setdefault(i, name)
	assert len(named) >= 20, named
	missing = sorted((i, f) for i, f in named.items() if i not in ids)
	assert not missing, missing
	PY
'

test_expect_success 'every check is taken by --skip (and marked skipped), and by --only' '
	while read id; do
		"$ND" diagnose --sysroot "$FIXTURES/healthy-x16" enp1s0f0np0 --skip "$id" \
			--json >r.json 2>err; rc=$?
		[ $rc -le 2 ] || { echo "--skip $id: exit $rc"; cat err; return 1; }
		python3 -c "import json,sys; d=json.load(open(\"r.json\")); \
			assert [f[\"skipped\"] for f in d[\"findings\"] if f[\"id\"] == sys.argv[1]] == [True]" \
			"$id" || return 1
		"$ND" diagnose --sysroot "$FIXTURES/healthy-x16" enp1s0f0np0 --only "$id" \
			--json >/dev/null 2>err; rc=$?
		[ $rc -le 2 ] || { echo "--only $id: exit $rc"; cat err; return 1; }
	done <ids
'

test_done
