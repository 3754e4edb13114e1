#!/bin/sh
# test-lane: packaging (make in the source tree: one at a time)
test_description='nicdoctor-textfile: whole .prom files Prometheus parses, one per interface, atomically'
. ./test-lib.sh
test_skip_under_san
test_require_cmd make

# python3-prometheus-client is a Debian package: the system python has it.
PY=
for py in /usr/bin/python3 python3; do
	"$py" -c 'import prometheus_client.parser' 2>/dev/null && { PY=$py; break; }
done
[ -n "$PY" ] || test_skip_all="needs python3-prometheus-client"

D=$TRASH/dest
SCRIPT=$D/usr/libexec/nicdoctor/nicdoctor-textfile
TF=$TRASH/textfile
FIX=$FIXTURES/downgraded-x1
FIX_IF=enp1s0f0np0
export NICDOCTOR="$ND"

# check.py FILE... : each file is whole: ends in a newline, parses, and
# holds nicdoctor_worst_severity (written last) for its interface.  Prints
# "IF WORST" per file.  check.py --watch DIR STOPFILE: the collector's view,
# parsing every *.prom in DIR until STOPFILE exists; prints how many files
# it read, fails on the first one that is not whole or not ours.
cat >check.py <<'EOF'
import glob, os, re, sys
from prometheus_client.parser import text_string_to_metric_families

def whole(path):
    with open(path) as f:
        text = f.read()
    if not text.endswith("\n"):
        raise ValueError("%s: %d bytes, no final newline" % (path, len(text)))
    fams = {f.name: f for f in text_string_to_metric_families(text)}
    worst = fams.get("nicdoctor_worst_severity")
    if worst is None or len(worst.samples) != 1:
        raise ValueError("%s: %d bytes, no nicdoctor_worst_severity" % (path, len(text)))
    sample = worst.samples[0]
    want = re.match(r"nicdoctor-(.*)\.prom$", os.path.basename(path))
    if not want or sample.labels.get("interface") != want.group(1):
        raise ValueError("%s: interface %r" % (path, sample.labels))
    return sample.labels["interface"], int(sample.value)

if sys.argv[1] == "--watch":
    directory, stop, reads = sys.argv[2], sys.argv[3], 0
    while not os.path.exists(stop):
        for path in glob.glob(os.path.join(directory, "*.prom")):
            try:
                whole(path)
            except FileNotFoundError:
                continue
            reads += 1
    print(reads)
else:
    for path in sys.argv[1:]:
        print(*whole(path))
EOF

test_expect_success 'install the script' '
	make -s -C "$SRC_DIR" install PREFIX=/usr DESTDIR="$D" >make.out 2>&1 &&
	test -x "$SCRIPT" && mkdir "$TF"
'

test_expect_success 'one run for lo: nicdoctor-lo.prom, whole, readable by node_exporter, nothing else' '
	NICDOCTOR_TEXTFILE_DIR="$TF" NICDOCTOR_TEXTFILE_INTERFACES=lo "$SCRIPT" &&
	ls -A "$TF" >actual &&
	echo nicdoctor-lo.prom >expect &&
	test_cmp expect actual &&
	test "$(stat -c %a "$TF/nicdoctor-lo.prom")" = 644 &&
	"$PY" check.py "$TF/nicdoctor-lo.prom" >out &&
	grep -q "^lo [0-4]$" out &&
	"$PY" -c "
from prometheus_client.parser import text_string_to_metric_families as parse
print(sorted(f.name for f in parse(open(\"$TF/nicdoctor-lo.prom\").read())))" >names &&
	grep -q "nicdoctor_finding" names && grep -q "nicdoctor_findings" names
'

test_expect_success 'by default every interface with a device, and not lo' '
	rm -f "$TF"/* &&
	for path in /sys/class/net/*; do
		[ -e "$path/device" ] && echo "nicdoctor-${path##*/}.prom"
	done | sort >expect &&
	NICDOCTOR_TEXTFILE_DIR="$TF" "$SCRIPT" &&
	ls -A "$TF" | sort >actual &&
	test_cmp expect actual &&
	! [ -e "$TF/nicdoctor-lo.prom" ] &&
	if [ -s expect ]; then (cd "$TF" && "$PY" "$TRASH/check.py" *.prom); fi
'

test_expect_success 'findings are not failures: a critical interface is written, the script exits 0' '
	rm -f "$TF"/* &&
	test_expect_code 2 "$ND" diagnose "$FIX_IF" --sysroot "$FIX" --no-traffic >/dev/null &&
	NICDOCTOR_TEXTFILE_DIR="$TF" NICDOCTOR_TEXTFILE_INTERFACES="$FIX_IF" \
		NICDOCTOR_TEXTFILE_ARGS="--sysroot $FIX" "$SCRIPT" &&
	echo "$FIX_IF 4" >expect &&
	"$PY" check.py "$TF/nicdoctor-$FIX_IF.prom" >actual &&
	test_cmp expect actual
'

test_expect_success 'an interface that fails: exit 1, one line, the old file kept, the others written' '
	rm -f "$TF"/* &&
	echo "# the previous run" >"$TF/nicdoctor-nd9003x.prom" &&
	test_expect_code 1 env NICDOCTOR_TEXTFILE_DIR="$TF" \
		NICDOCTOR_TEXTFILE_INTERFACES="nd9003x lo" "$SCRIPT" 2>err &&
	grep -q "diagnose .nd9003x. exited 3" err &&
	printf "%s\n" nicdoctor-lo.prom nicdoctor-nd9003x.prom >expect &&
	ls -A "$TF" >actual &&
	test_cmp expect actual &&
	echo "# the previous run" >expect &&
	test_cmp expect "$TF/nicdoctor-nd9003x.prom"
'

test_expect_success 'a missing directory: exit 1 and says which' '
	test_expect_code 1 env NICDOCTOR_TEXTFILE_DIR="$TRASH/none" "$SCRIPT" 2>err &&
	grep -q "no directory .$TRASH/none." err
'

# The collector reads whatever *.prom exists whenever it is scraped.
watch_while() {
	rm -f stop && "$PY" check.py --watch "$TF" stop >reads 2>watch.err &
	watcher=$!
	"$@"
	rc=$?
	: >stop
	wait $watcher || { cat watch.err; return 1; }
	echo "$(cat reads) reads"
	return $rc
}

rewrite_atomic() {
	for run in 1 2 3 4; do
		NICDOCTOR_TEXTFILE_DIR="$TF" NICDOCTOR_TEXTFILE_INTERFACES=lo \
			NICDOCTOR_TEXTFILE_ARGS="--sample 0.3" "$SCRIPT" || return 1
	done
}

# What the script must not do: write the file in place.
rewrite_in_place() {
	for run in 1 2 3 4; do
		"$ND" diagnose lo --no-traffic --sample 0.3 --format prometheus >"$TF/nicdoctor-lo.prom"
		[ $? -le 2 ] || return 1
	done
}

test_expect_success 'never half-written: the collector sees only whole files while it runs' '
	rm -f "$TF"/* &&
	NICDOCTOR_TEXTFILE_DIR="$TF" NICDOCTOR_TEXTFILE_INTERFACES=lo "$SCRIPT" &&
	watch_while rewrite_atomic &&
	test "$(cat reads)" -gt 20
'

test_expect_success 'the same watch catches a file written in place (the check can fail)' '
	rm -f "$TF"/* &&
	! watch_while rewrite_in_place &&
	grep -q "no nicdoctor_worst_severity\|no final newline" watch.err
'

test_done
