#!/bin/bash
# Runs scripts/install-deps.sh against shims (dpkg-query, apt-get, apt-cache,
# sudo) so its decisions can be tested without installing.
#   run_install_deps.sh SRC_ROOT SCRATCH_DIR "MISSING PACKAGES" ["UNAVAILABLE PACKAGES"]
set -u
src=$1 missing=$3 unavailable=${4:-}
here=$(cd "$(dirname "$0")" && pwd)
FUSER_SHIM_MISSING=$missing FUSER_SHIM_UNAVAILABLE=$unavailable \
  PATH="$here/shim:$PATH" bash "$src/scripts/install-deps.sh"
rc=$?
echo "== exit $rc"
exit 0
