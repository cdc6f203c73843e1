#!/usr/bin/env bash
# run-seed.sh: the main job. Builds fuser and compiles and runs the seed
# fusions of nvFuser issue #2613 (../shared/corpus/seed, or the copies in
# test/Inputs when the corpus is absent), saying what each stage did:
# import the scripts, plan them (views, kernels), compile to PTX and an
# artifact, and run: on the GPU when there is one (the runtime checks the
# outputs against the CPU reference), otherwise on the CPU reference
# evaluator.
#
#   bash scripts/run-seed.sh [--no-deps]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build=${FUSER_BUILD_DIR:-build}
out=${FUSER_SEED_OUT:-$build/seed}

stage_setup() {
  [ "${1:-}" = "--no-deps" ] || bash scripts/install-deps.sh
  bash scripts/build.sh
  mkdir -p "$out"
}

# Stage: verify the hand-written seed fusion id1 with the C verifier and
# print it back (fuser-opt runs fuser-verify before anything else).
stage_verify() {
  local src=test/dialect/seed_fusion_id1.mlir
  echo "== verify: $src (fuser-verify, then print)"
  "$build/bin/fuser-opt" "$src" --pass-pipeline='builtin.module(fuser-verify)' -o "$out/seed_fusion_id1.verified.mlir"
  # re-parse what was printed: the output must be a fixed point
  "$build/bin/fuser-opt" "$out/seed_fusion_id1.verified.mlir" -o "$out/seed_fusion_id1.reprinted.mlir"
  cmp "$out/seed_fusion_id1.verified.mlir" "$out/seed_fusion_id1.reprinted.mlir"
  local nops
  nops=$(grep -c '"fuser\.' "$out/seed_fusion_id1.verified.mlir")
  echo "   verified: $nops fuser ops; printed IR round-trips: $out/seed_fusion_id1.verified.mlir"
  cat "$out/seed_fusion_id1.verified.mlir"
}

corpus=${FUSER_CORPUS_DIR:-../shared/corpus}
seeds=()
for id in 0 1; do
  if [ -f "$corpus/seed/seed_fusion_id$id.py" ]; then seeds+=("$corpus/seed/seed_fusion_id$id.py")
  else seeds+=("test/Inputs/seed_fusion_id$id.py"); fi
done

# Stage: import the scripts into the fuser dialect.
stage_import() {
  for s in "${seeds[@]}"; do
    local n; n=$(basename "$s" .py)
    "$build/bin/fuser-translate" --import-nvfuser "$s" -o "$out/$n.mlir"
    echo "== import: $s -> $out/$n.mlir ($(grep -c '"fuser\.' "$out/$n.mlir") fuser ops)"
  done
}

# Stage: the fuser-level passes, and what they decided.
stage_plan() {
  for s in "${seeds[@]}"; do
    local n; n=$(basename "$s" .py)
    echo "== plan: $n (fuser-specialize-shapes{empty-only=true}, fuser-remove-empty, fuser-alias-meta-ops, fuser-allocation-order, fuser-segment, fuser-vectorize)"
    "$build/bin/fuser-opt" "$out/$n.mlir" --fuser-report -o "$out/$n.plan.mlir" \
      --pass-pipeline='builtin.module(fuser-specialize-shapes{empty-only=true}, fuser-remove-empty, fuser-alias-meta-ops, fuser-allocation-order, fuser-segment, fuser-vectorize)'
    sed -n '/^fusion/,/^module/p' "$out/$n.plan.mlir" | grep -v '^module'
  done
}

# Stage: PTX and the runtime artifact (with the CPU reference's results).
stage_compile() {
  for s in "${seeds[@]}"; do
    local n; n=$(basename "$s" .py)
    # one PTX file per binary (index width): $n.ptx or $n.<binary>.ptx
    rm -f "$out/$n".*ptx
    "$build/bin/fuser-translate" --emit-ptx "$s" -o "$out/$n.ptx"
    "$build/bin/fuser-translate" --emit-artifact "$s" -o "$out/$n.fart" --expected
    local ptx=("$out/$n".*ptx)
    echo "== compile: $n -> ${ptx[*]} ($(cat "${ptx[@]}" | grep -c 'ld.global.v4\|ld.global.nc.v4') 128-bit loads," \
         "$(cat "${ptx[@]}" | grep -c 'st.global.v4') 128-bit stores; the $(cat "${ptx[@]}" | grep -c 'ld.global.u16\|ld.global.b16') 16-bit loads are the scalar fallback's)" \
         "and $out/$n.fart"
  done
}

have_gpu() { command -v nvidia-smi > /dev/null && nvidia-smi -L > /dev/null 2>&1; }

# Stage: run on the GPU (runtime alone, checked against the CPU reference),
# or on the CPU reference evaluator.
stage_run() {
  for s in "${seeds[@]}"; do
    local n; n=$(basename "$s" .py)
    if have_gpu; then
      echo "== run on the GPU: fuser-run --artifact $out/$n.fart --check --bench 20"
      "$build/bin/fuser-run" --artifact "$out/$n.fart" --check --bench 20 --name "$n"
    else
      echo "== run on the CPU (no GPU here): fuser-run --cpu $s"
      "$build/bin/fuser-run" --cpu "$s"
    fi
  done
}

stage_setup "$@"
stage_verify
stage_import
stage_plan
stage_compile
stage_run
echo "== done"
