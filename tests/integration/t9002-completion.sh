#!/bin/sh
test_description='bash completion: subcommands, every flag of each, check IDs, interfaces, files'
. ./test-lib.sh
test_skip_under_san
test_require_cmd bash

COMPLETION=$SRC_DIR/dist/nicdoctor.bash-completion

# complete WORD... : what the completion offers for the last WORD (the one
# being typed) after the others, one per line, sorted; the binary is $ND,
# so check IDs come from it.
complete() {
	bash -c '
		. "$1" || exit 1
		shift
		COMP_WORDS=("$@")
		COMP_CWORD=$(($# - 1))
		_nicdoctor
		[ ${#COMPREPLY[@]} -eq 0 ] || printf "%s\n" "${COMPREPLY[@]}"
	' complete "$COMPLETION" "$ND" "$@" | sort
}

# The long options in a command's getopt_long table and the short ones in
# its option string, as -x and --name lines, sorted.  bench, serve and
# iperf3 build theirs from one option table, which the binary lists.
options_of() {
	case $1 in
	bench | serve | iperf3)
		"$ND" __options $1 | sort -u
		return ;;
	esac
	python3 - "$SRC_DIR/src/cmd/$1.c" <<-\PY
	import re, sys
	text = open(sys.argv[1]).read()
	opts = {"--" + l for l in re.findall(r'\{ "([a-z0-9-]+)", *[a-z]+_argument', text)}
	for m in re.finditer(r'getopt_long\([^"]*((?:"[^"]*"\s*)+)', text):
	    for lit in re.findall(r'"([^"]*)"', m.group(1)):
	        opts.update("-" + c for c in lit if c != ":")
	print("\n".join(sorted(opts)))
	PY
}

test_expect_success 'bash -n; sourcing it registers the function for nicdoctor' '
	bash -n "$COMPLETION" &&
	echo "complete -F _nicdoctor nicdoctor" >expect &&
	bash -c ". \"$COMPLETION\" && complete -p nicdoctor" >actual &&
	test_cmp expect actual
'

test_expect_success 'the first word: every subcommand and the global flags' '
	printf "%s\n" bench checks collect diagnose fix iperf3 serve watch \
		--help --version -V -h | sort >expect &&
	complete "" >actual &&
	test_cmp expect actual &&
	echo diagnose >expect &&
	complete di >actual &&
	test_cmp expect actual
'

test_expect_success 'the completion knows every command of main.c' '
	sed -n "s/^[[:space:]]*{ \"\([a-z0-9]*\)\", cmd_.*/\1/p" "$SRC_DIR/src/main.c" | sort >commands &&
	test -s commands &&
	complete "" >offered &&
	( for cmd in $(cat commands); do
		grep -qx "$cmd" offered || { echo "not offered: $cmd"; exit 1; }
	done )
'

for cmd in diagnose fix bench serve iperf3 collect watch; do
	test_expect_success "$cmd: the flags offered are its option table's" '
		if ! [ -f "$SRC_DIR/src/cmd/$cmd.c" ]; then
			# Not built in this tree yet: the completion still offers its flags.
			complete $cmd - | grep -qx -- --help
		else
			options_of $cmd >expect &&
			test -s expect &&
			complete $cmd - | sort -u >actual &&
			test_cmp expect actual
		fi
	'
done

# man_section NAME: the lines of nicdoctor.8 from ".SS NAME" to the next .SS/.SH.
man_section() {
	awk -v want=".SS $1" '$0 == want { on = 1; next } on && /^\.S[SH] / { on = 0 } on' \
		"$SRC_DIR/man/nicdoctor.8"
}

for cmd in bench serve; do
	test_expect_success "man page: its $cmd section names every row of the option table" '
		man_section $cmd >section &&
		test -s section &&
		"$ND" __options --rows $cmd >rows &&
		test -s rows &&
		( while read -r first second; do
			named=
			for flag in $first $second; do
				grep -qF -- "$(printf "%s" "$flag" | sed "s/-/\\\\-/g")" section && named=1
			done
			[ -n "$named" ] || { echo "not in the man page: $first $second"; exit 1; }
		done <rows )
	'
done

test_expect_success 'check IDs after --skip and --only are the binary'"'"'s' '
	"$ND" checks | while read -r id rest; do echo "$id"; done | sort >expect &&
	test $(wc -l <expect) -gt 10 &&
	complete diagnose --skip "" >actual &&
	test_cmp expect actual &&
	complete diagnose eth0 --only "" >actual &&
	test_cmp expect actual &&
	complete fix --only "" >actual &&
	test_cmp expect actual
'

test_expect_success 'a comma list completes after the last comma, without the IDs already in it' '
	printf "%s\n" link.down,pcie.aspm_latency link.down,pcie.link_downgraded link.down,pcie.slot_too_slow >expect &&
	complete diagnose --skip link.down,pcie. >actual &&
	test_cmp expect actual &&
	printf "%s\n" link.down,link.half_duplex link.down,link.phy_errors \
		link.down,link.speed_below_max >expect &&
	complete diagnose --skip link.down,link. >actual &&
	test_cmp expect actual &&
	printf "%s\n" link.down,pcie.aspm_latency link.down,pcie.link_downgraded link.down,pcie.slot_too_slow >expect &&
	complete diagnose --skip = link.down,pcie. >actual &&
	test_cmp expect actual &&
	echo queues.single,link.down,link.half_duplex >expect &&
	complete fix --only queues.single,link.down,link.h >actual &&
	test_cmp expect actual
'

test_expect_success 'interfaces from /sys/class/net after diagnose, fix, collect and watch' '
	ls /sys/class/net | sort >expect &&
	grep -qx lo expect &&
	( for cmd in diagnose fix collect watch; do
		complete $cmd "" >actual && test_cmp expect actual || exit 1
	done ) &&
	complete diagnose --json "" >actual && test_cmp expect actual &&
	complete fix --revert "" >actual && test_cmp expect actual &&
	complete diagnose l >actual && grep -qx lo actual &&
	complete bench "" >actual && ! [ -s actual ] &&
	complete checks "" >actual && ! [ -s actual ]
'

test_expect_success '--format, --color=WHEN and --colour=WHEN values' '
	printf "%s\n" json markdown prometheus text >expect &&
	complete diagnose --format "" >actual && test_cmp expect actual &&
	complete diagnose --format = "" >actual && test_cmp expect actual &&
	printf "%s\n" always auto never >expect &&
	complete diagnose --color = >actual && test_cmp expect actual &&
	complete diagnose --colour = "" >actual && test_cmp expect actual &&
	echo always >expect &&
	complete diagnose --color = al >actual && test_cmp expect actual
'

test_expect_success 'files after --sysroot and --config, directories after collect -o, names with spaces whole' '
	mkdir snapdir "snap dir" && : >snap.tgz &&
	printf "%s\n" "snap dir" snap.tgz snapdir >expect &&
	complete diagnose --sysroot sn >actual && test_cmp expect actual &&
	complete serve --config sn >actual && test_cmp expect actual &&
	printf "%s\n" "snap dir" snapdir >expect &&
	complete collect eth0 -o sn >actual && test_cmp expect actual &&
	complete collect eth0 --output sn >actual && test_cmp expect actual
'

test_expect_success 'flags that take a value nicdoctor cannot guess offer nothing' '
	( for words in "diagnose --peer" "diagnose --duration" "bench -c" "bench -P" \
		"bench --time" "serve -p" "serve --max-memory" "fix --peer"; do
		complete $words "" >actual && ! [ -s actual ] ||
			{ echo "offered after $words:"; cat actual; exit 1; }
	done )
'

test_done
