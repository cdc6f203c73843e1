#!/bin/bash
# Runs scripts/install-deps.sh against shims (dpkg-query, apt-get, sudo) and
# a scratch /etc/apt, so its decisions can be tested without installing.
#   run_install_deps.sh SRC_ROOT SCRATCH_DIR "MISSING PACKAGES" [with-security]
set -u
src=$1 scratch=$2 missing=$3
rm -rf "$scratch" && mkdir -p "$scratch/sources.list.d"
printf 'Types: deb\nURIs: http://deb.debian.org/debian\nSuites: bookworm bookworm-updates\nComponents: main\n' \
  >"$scratch/sources.list.d/debian.sources"
if [ "${4:-}" = with-security ]; then
  printf 'Types: deb\nURIs: http://deb.debian.org/debian-security\nSuites: bookworm-security\nComponents: main\n' \
    >>"$scratch/sources.list.d/debian.sources"
fi
here=$(cd "$(dirname "$0")" && pwd)
FUSER_SHIM_MISSING=$missing FUSER_APT_ETC=$scratch PATH="$here/shim:$PATH" bash "$src/scripts/install-deps.sh"
rc=$?
for f in "$scratch"/sources.list.d/*; do echo "== $(basename "$f")"; cat "$f"; done
exit $rc
