// REQUIRES: ptxas
// RUN: fuser-translate --emit-ptx --launch-plan %S/Inputs/seed_fusion_id0.mlir | FileCheck %s --check-prefix=ID0-KERNELS
// RUN: fuser-translate --emit-ptx --binary=fuser_kernels_i32 %S/Inputs/seed_fusion_id0.mlir | FileCheck %s --check-prefix=ID0
// RUN: fuser-translate --emit-ptx --launch-plan %S/Inputs/seed_fusion_id1.mlir | FileCheck %s --check-prefix=ID1-KERNELS
// RUN: fuser-translate --emit-ptx --binary=fuser_kernels_i32 %S/Inputs/seed_fusion_id1.mlir | FileCheck %s --check-prefix=ID1
// The seed fusions end to end (imported scripts, plan passes, vectorize,
// lowering, PTX): one kernel each, in two or three variants (vector, mixed:
// per-tensor alignment checked in the kernel, scalar where mixed keeps a launch
// condition: id0's index32); the vectorized one
// reads and writes every tensor with 128-bit accesses and never moves
// 2 bytes at a time, including the reads through cat on the last dim and
// the strided views of qkv. (This file is the test; inputs in Inputs/.)

// ID0-KERNELS: launch nvfuser_fusion_id0_k0__vector binary fuser_kernels_i32 kernel nvfuser_fusion_id0_k0 variant vector width 8
// ID0-KERNELS: launch nvfuser_fusion_id0_k0__mixed binary fuser_kernels_i32 kernel nvfuser_fusion_id0_k0 variant mixed width 8
// ID0-KERNELS: launch nvfuser_fusion_id0_k0__scalar binary fuser_kernels_i64 kernel nvfuser_fusion_id0_k0 variant scalar width 1
// ID0-KERNELS-NOT: launch

// Five inputs (q, the two halves, cos, sin): the empty tail of the second
// cat (2, 16, 1024, 0) is empty in the example inputs, so the plan pipeline
// concretizes that extent (fuser-specialize-shapes{empty-only}) and
// fuser-remove-empty drops the cat operand, as in id1.
// ID0-LABEL: .entry nvfuser_fusion_id0_k0__vector(
// ID0-NOT: {{(ld|st)}}.global{{(.nc)?}}.{{[bu]}}16
// ID0-COUNT-5: ld.global{{(.nc)?}}.v4.b32
// ID0-NOT: {{(ld|st)}}.global{{(.nc)?}}.{{[bu]}}16
// ID0: st.global.v4.b32
// ID0-NOT: {{(ld|st)}}.global{{(.nc)?}}.{{[bu]}}16
// ID0: ret;

// ID1-KERNELS: launch nvfuser_fusion_id1_k0__vector binary fuser_kernels_i32 kernel nvfuser_fusion_id1_k0 variant vector width 8
// ID1-KERNELS: launch nvfuser_fusion_id1_k0__mixed binary fuser_kernels_i32 kernel nvfuser_fusion_id1_k0 variant mixed width 8
// ID1-KERNELS-NOT: launch

// Five views (the qkv view, its two halves, cos, sin).
// ID1-LABEL: .entry nvfuser_fusion_id1_k0__vector(
// ID1-NOT: {{(ld|st)}}.global{{(.nc)?}}.{{[bu]}}16
// ID1-COUNT-5: ld.global{{(.nc)?}}.v4.b32
// ID1-NOT: {{(ld|st)}}.global{{(.nc)?}}.{{[bu]}}16
// ID1: st.global.v4.b32
// ID1-NOT: {{(ld|st)}}.global{{(.nc)?}}.{{[bu]}}16
// The mixed variant: each tensor's 128-bit access or its 8 element accesses,
// chosen in the kernel by that tensor's own alignment.
// ID1-LABEL: .entry nvfuser_fusion_id1_k0__mixed(
