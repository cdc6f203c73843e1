#!/usr/bin/env bash
# install-deps.sh: installs what fuser needs to build and test, and only what
# is missing, on Debian 12 (bookworm). Safe to run again: when everything is
# present it changes nothing and does not touch the network.
#
# LLVM/MLIR 22.1.8 come from Debian's bookworm-security suite. A stock
# bookworm image lists that suite in /etc/apt/sources.list.d/debian.sources;
# if this machine does not, the suite is added exactly as it is configured on
# the machines fuser was built on (deb.debian.org/debian-security, main).
set -euo pipefail

packages=(
  cmake gcc g++ make                       # build
  libmlir-22-dev mlir-22-tools             # MLIR C API, mlir-opt
  llvm-22-dev llvm-22-tools                # libLLVM, FileCheck, lit, not
  libdlpack-dev                            # DLPack header (driver)
  python3-numpy                            # tests that read .npy files; the Python binding's tests
  python3-dev python3-torch                # the Python binding (python/) and its CPU tests
  valgrind                                 # scripts/memcheck-negative.sh
  lld pkg-config zlib1g-dev                # libfuser.so's link (ld.lld, libz.a) and its install test
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages are installed"
  exit 0
fi
echo "install-deps: missing: ${missing[*]}"

sudo=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null; then sudo=(sudo); else
    echo "install-deps: error: not root and no sudo; install as root: ${missing[*]}" >&2
    exit 1
  fi
fi

# The suite that carries the 22.x packages, added only when no source lists it.
# (FUSER_APT_ETC replaces /etc/apt, for testing this script.)
apt_etc=${FUSER_APT_ETC:-/etc/apt}
security_listed() {
  grep -rqs "debian-security" "$apt_etc/sources.list" "$apt_etc/sources.list.d/" 2>/dev/null &&
    grep -rqs "bookworm-security" "$apt_etc/sources.list" "$apt_etc/sources.list.d/" 2>/dev/null
}
if ! security_listed; then
  echo "install-deps: adding the bookworm-security source"
  "${sudo[@]}" tee "$apt_etc/sources.list.d/fuser-bookworm-security.sources" >/dev/null <<'SRC'
Types: deb
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
fi

export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update
"${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
echo "install-deps: installed ${missing[*]}"
