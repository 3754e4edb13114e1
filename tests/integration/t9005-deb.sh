#!/bin/sh
# test-lane: packaging (make in the source tree: one at a time)
test_description='make deb: a Debian package with the units, completion and manual, lintian clean, installable'
. ./test-lib.sh
test_skip_under_san
test_require_cmd make dpkg-buildpackage dh dpkg-deb lintian

V=$(sed -n 's/^#define ND_VERSION "\(.*\)"$/\1/p' "$SRC_DIR/include/nicdoctor/common.h")
ARCH=$(dpkg --print-architecture 2>/dev/null)
DEB=$SRC_DIR/build-deb/nicdoctor_${V}_$ARCH.deb

test_expect_success 'make deb builds nicdoctor_VERSION_ARCH.deb in build-deb/' '
	{ make -s -C "$SRC_DIR" deb >build.out 2>&1 || { tail -n 30 build.out; false; }; } &&
	test -f "$DEB"
'

test_expect_success 'the package holds the binary, units, completion, script, defaults and manual' '
	dpkg-deb -c "$DEB" | awk "\$1 !~ /^d/ { print substr(\$1, 2, 9), \$6 }" | sort -k2 >actual &&
	sort -k2 >expect <<-EOF &&
	rw-r--r-- ./etc/default/nicdoctor
	rw-r--r-- ./lib/systemd/system/nicdoctor-serve.service
	rw-r--r-- ./lib/systemd/system/nicdoctor-textfile.service
	rw-r--r-- ./lib/systemd/system/nicdoctor-textfile.timer
	rwxr-xr-x ./usr/libexec/nicdoctor/nicdoctor-textfile
	rwxr-xr-x ./usr/sbin/nicdoctor
	rw-r--r-- ./usr/share/bash-completion/completions/nicdoctor
	rw-r--r-- ./usr/share/doc/nicdoctor/changelog.gz
	rw-r--r-- ./usr/share/doc/nicdoctor/copyright
	rw-r--r-- ./usr/share/man/man8/nicdoctor.8.gz
	EOF
	test_cmp expect actual
'

test_expect_success 'control: version, the libraries from shlibs, the defaults file a conffile' '
	test "$(dpkg-deb -f "$DEB" Package)" = nicdoctor &&
	test "$(dpkg-deb -f "$DEB" Version)" = "$V" &&
	dpkg-deb -f "$DEB" Depends | tr "," "\n" | sed "s/^ *//; s/ .*//" | sort >depends &&
	( for lib in libarchive13 libc6 libcjson1 libnl-3-200 libnl-genl-3-200 \
		libnl-route-3-200 libpci3; do
		grep -qx "$lib" depends || { echo "no $lib in Depends"; cat depends; exit 1; }
	done ) &&
	dpkg-deb -e "$DEB" ctrl &&
	echo /etc/default/nicdoctor >expect &&
	test_cmp expect ctrl/conffiles
'

test_expect_success 'the units are neither enabled nor started on install' '
	grep -q "deb-systemd-helper" ctrl/postinst &&
	! grep -q "deb-systemd-invoke" ctrl/postinst &&
	# An enable only where the unit was enabled before (an upgrade).
	awk "/deb-systemd-helper enable/ { if (prev !~ /was-enabled/) bad = 1 }
		!/^[[:space:]]*#/ { prev = \$0 } END { exit bad }" ctrl/postinst
'

test_expect_success 'lintian: no errors' '
	lintian --no-tag-display-limit "$SRC_DIR"/build-deb/nicdoctor_${V}_$ARCH.changes >lintian.out 2>&1
	cat lintian.out
	! grep -q "^E:" lintian.out
'

test_expect_success 'apt can install it here (its dependencies resolve on this release)' '
	apt-get -s install "$DEB" >apt.out 2>&1
	rc=$?
	cat apt.out
	[ $rc -eq 0 ] && grep -q "^Inst nicdoctor " apt.out
'

# The real install happens in a throwaway root: a private mount namespace
# where /usr, /etc and /var are overlays whose upper layers live in $TRASH,
# so dpkg's database, the files and the maintainer scripts' effects vanish
# with the namespace on every exit path.  /run/systemd is hidden, so the
# maintainer scripts talk to no running systemd.
cat >inroot.sh <<'EOF'
set -e
mount --make-rprivate /
for dir in usr etc var; do
	mkdir -p "$OVL/$dir.up" "$OVL/$dir.work"
	mount -t overlay overlay \
		-o "lowerdir=/$dir,upperdir=$OVL/$dir.up,workdir=$OVL/$dir.work" "/$dir"
done
[ -d /run/systemd ] && mount -t tmpfs tmpfs /run/systemd
export DEBIAN_FRONTEND=noninteractive
# man-db's trigger would rebuild the whole index: not what is tested.
echo "man-db man-db/auto-update boolean false" | debconf-set-selections
apt-get install -y -q "$DEB" >apt-install.out 2>&1 ||
	{ cat apt-install.out; exit 1; }
echo installed
rc=0
/usr/sbin/nicdoctor diagnose lo --no-traffic --sample 0 >diagnose.out || rc=$?
[ $rc -le 2 ]
echo "diagnose lo exit $rc"
/usr/sbin/nicdoctor --version | head -n 1
bash -c '. /usr/share/bash-completion/bash_completion
	__load_completion nicdoctor && complete -p nicdoctor'
systemd-analyze verify /lib/systemd/system/nicdoctor-serve.service \
	/lib/systemd/system/nicdoctor-textfile.service \
	/lib/systemd/system/nicdoctor-textfile.timer >verify.out 2>&1 || { cat verify.out; exit 1; }
[ ! -s verify.out ] || { cat verify.out; exit 1; }
echo verified
! ls /etc/systemd/system/*.wants/nicdoctor-* 2>/dev/null
mkdir textfile
NICDOCTOR_TEXTFILE_DIR=$PWD/textfile NICDOCTOR_TEXTFILE_INTERFACES=lo \
	/usr/libexec/nicdoctor/nicdoctor-textfile
ls textfile
dpkg --purge nicdoctor >purge.out 2>&1 || { cat purge.out; exit 1; }
for f in /usr/sbin/nicdoctor /etc/default/nicdoctor /lib/systemd/system/nicdoctor-serve.service \
	/usr/share/bash-completion/completions/nicdoctor /usr/share/man/man8/nicdoctor.8.gz; do
	[ ! -e "$f" ] || { echo "left after purge: $f"; exit 1; }
done
echo purged
EOF

if [ "$(id -u)" = 0 ]; then
	test_expect_success 'installed with apt in a throwaway root: runs from /usr/sbin, purges clean' '
		host_before=$(dpkg-query -W -f="\${Status}" nicdoctor 2>/dev/null)
		mkdir ovl &&
		OVL=$TRASH/ovl DEB=$DEB unshare --mount sh inroot.sh >actual 2>&1
		rc=$?
		cat actual
		[ $rc -eq 0 ] &&
		sed "s/^diagnose lo exit [012]$/diagnose lo exit OK/" actual >got &&
		cat >expect <<-EOF &&
		installed
		diagnose lo exit OK
		nicdoctor $V
		complete -F _nicdoctor nicdoctor
		verified
		nicdoctor-lo.prom
		purged
		EOF
		test_cmp expect got &&
		test "$(dpkg-query -W -f="\${Status}" nicdoctor 2>/dev/null)" = "$host_before"
	'
else
	test_expect_success 'installed in a throwaway root # SKIP needs root' 'true'
fi

test_done
