#!/usr/bin/env bash
# Session 14's device call, all in one (starts were scarce): call2.sh (the tile twins' A/B,
# vs_compile, memcheck, peers), then call1.sh's diagnostics (ncu of torch.compile's kernels and
# ours, Triton's source and PTX, unroll 2 / 4 and 256-thread blocks on two_inputs_large).
#   bash bench/results/2026-12-07_session14/call3.sh .carry/f14 .carry/a14 .carry/py14b .carry/u14 .carry/n14
set -uo pipefail
here=$(dirname "$0")
bash "$here/call2.sh" "$1" "$2" "$3"
SKIP_VS_COMPILE=1 bash "$here/call1.sh" "$1" "$4" "$5" "$3"
