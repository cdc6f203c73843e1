// REQUIRES: ptxas
// The registered pipeline fuser-to-ptx takes fuser IR to gpu.binary ops
// holding PTX for the chip (with +ptx80: PTX 8.0, which sm_90 needs), one
// per index width, and the launch plan; as a pipeline element or a pass
// flag. Its options are checked.
// RUN: fuser-opt %S/Inputs/seed_fusion_id0.mlir --pass-pipeline='builtin.module(fuser-to-ptx{chip=sm_90})' | FileCheck %s
// RUN: fuser-opt %S/Inputs/seed_fusion_id0.mlir --fuser-to-ptx --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIPE
// RUN: fuser-opt %S/Inputs/seed_fusion_id0.mlir --fuser-plan | FileCheck %s --check-prefix=PLAN
// RUN: not fuser-opt %S/Inputs/seed_fusion_id0.mlir --pass-pipeline='builtin.module(fuser-to-ptx{chip=90})' 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not fuser-opt %S/Inputs/seed_fusion_id0.mlir --fuser-to-ptx='nosuch=1' 2>&1 | FileCheck %s --check-prefix=OPTION

// CHECK: fuser.launches
// CHECK: gpu.binary @fuser_kernels_i32 [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">, {{.*}}assembly = "{{.*}}.version 8.0\0A.target sm_90{{.*}}.entry nvfuser_fusion_id0_k0__vector(
// CHECK: gpu.binary @fuser_kernels_i64 [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">, {{.*}}assembly = "{{.*}}.entry nvfuser_fusion_id0_k0__scalar(

// PIPE: builtin.module(fuser-specialize-shapes,fuser-remove-empty,fuser-hoist-reshape,fuser-alias-meta-ops,fuser-input-sizes,fuser-allocation-order,fuser-split-reductions,fuser-segment,fuser-fuse-inner-outer,fuser-vectorize,fuser-schedule,fuser-lower-kernels,fuser-kernels-to-gpu,nvvm-attach-target{{.*}}chip=sm_90{{.*}}features=+ptx80{{.*}},gpu.module({{.*}}convert-gpu-to-nvvm{{.*}}),gpu-module-to-binary{format=isa

// PLAN: func.func @nvfuser_fusion_id0
// PLAN-SAME: fuser.plan
// PLAN: call @nvfuser_fusion_id0_k0
// PLAN-NOT: gpu.module

// CHIP: fuser-opt: error: fuser-to-ptx: chip must be an sm_XX name, got '90'
// OPTION: fuser-opt: error: pass 'fuser-to-ptx' has no option 'nosuch'
