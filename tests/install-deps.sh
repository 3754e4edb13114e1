#!/bin/sh
# Install the Debian packages named as arguments that are not installed yet.
# Used by `make deps`; does nothing (and needs no root) when all are present.
set -e
missing=
for pkg in "$@"; do
	dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $pkg"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
	echo "nicdoctor: missing packages:$missing (run 'make deps' as root)" >&2
	exit 1
fi
echo "installing:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing
