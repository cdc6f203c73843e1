#!/usr/bin/env bash
# install-deps.sh: installs what fuser needs to build and test, and only what
# is missing, on Debian 12 (bookworm). Safe to run again: when everything is
# present it changes nothing and does not touch the network.
#
# It uses the apt sources the machine has and never edits them. LLVM/MLIR
# 22.1.8 come from Debian's bookworm-security suite (a stock bookworm image
# lists it in /etc/apt/sources.list.d/debian.sources). When no configured
# source offers a package, it says which and what to add, and installs
# nothing.
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

export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update

# Every missing package must have an install candidate in the configured
# sources; otherwise say what is absent and what to add.
unavailable=()
for p in "${missing[@]}"; do
  # Read the whole answer first: `apt-cache ... | grep -q` under pipefail fails
  # when grep exits at its first match and apt-cache gets SIGPIPE (seen on a
  # fresh machine: every package reported as unavailable).
  policy=$(apt-cache policy "$p" 2>/dev/null || true)
  if ! grep -q "Candidate: [^(]" <<<"$policy"; then unavailable+=("$p"); fi
done
if [ ${#unavailable[@]} -ne 0 ]; then
  echo "install-deps: error: no configured apt source offers: ${unavailable[*]}" >&2
  case " ${unavailable[*]}" in
    *-22-*|*" llvm-22"*|*" mlir-22"*)
      cat >&2 <<'MSG'
install-deps: LLVM/MLIR 22.1.8 come from Debian's bookworm-security suite, which
install-deps: this machine's apt sources do not list. Add it (your Debian security
install-deps: mirror, suite bookworm-security, component main), e.g. in
install-deps: /etc/apt/sources.list.d/debian.sources:
install-deps:     Types: deb
install-deps:     URIs: <your Debian security mirror>
install-deps:     Suites: bookworm-security
install-deps:     Components: main
install-deps:     Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
install-deps: then run this script again.
MSG
      ;;
  esac
  exit 1
fi

"${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
echo "install-deps: installed ${missing[*]}"
