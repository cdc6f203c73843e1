// REQUIRES: ptxas
// RUN: fuser-translate --emit-ptx --binary=fuser_kernels_i32 %S/Inputs/rope.mlir | FileCheck %s
// RUN: fuser-opt %S/Inputs/rope.mlir --pass-pipeline='builtin.module(fuser-vectorize, fuser-schedule, fuser-lower-kernels)' | FileCheck %s --check-prefix=LOOPS
// A RoPE-like kernel (cat on the last dim, strided bf16 views of qkv, two
// broadcast tables): every tensor is read and written with 16-byte accesses
// in the vectorized kernel, and nothing there moves 2 bytes at a time.
// (This file is the test; the input is Inputs/rope.mlir.)

// Five inputs: five 128-bit loads and one 128-bit store per thread.
// CHECK-LABEL: .entry rope_k0__vector(
// CHECK-NOT: {{(ld|st)}}.global{{(.nc)?}}.{{[bu]}}16
// CHECK-COUNT-5: ld.global{{(.nc)?}}.v4.b32
// CHECK-NOT: {{(ld|st)}}.global{{(.nc)?}}.{{[bu]}}16
// CHECK: st.global.v4.b32
// CHECK-NOT: {{(ld|st)}}.global{{(.nc)?}}.{{[bu]}}16
// The mixed variant: a 16-byte access or 8 element accesses per tensor,
// chosen in the kernel by its alignment (no launch condition left, so no
// scalar variant). x's load keeps both forms.
// CHECK-LABEL: .entry rope_k0__mixed(
// CHECK: ld.global.v4.b32
// CHECK: ld.global.b16
// CHECK-NOT: .entry rope_k0__scalar(

// Which tensor each 16-byte access belongs to, at loop level.
// LOOPS-LABEL: func.func @rope_k0__vector(
// LOOPS-DAG: %[[COS:.*]] = memref.reinterpret_cast %arg0
// LOOPS-DAG: %[[SIN:.*]] = memref.reinterpret_cast %arg1
// LOOPS-DAG: %[[X2:.*]] = memref.reinterpret_cast %arg2
// LOOPS-DAG: %[[X1:.*]] = memref.reinterpret_cast %arg3
// LOOPS-DAG: %[[X:.*]] = memref.reinterpret_cast %arg4
// LOOPS-DAG: %[[OUT:.*]] = memref.reinterpret_cast %arg5
// LOOPS-DAG: vector.load %[[COS]][%{{.*}}] {alignment = 16 : i64} : memref<?xbf16>, vector<8xbf16>
// LOOPS-DAG: vector.load %[[SIN]][%{{.*}}] {alignment = 16 : i64} : memref<?xbf16>, vector<8xbf16>
// LOOPS-DAG: vector.load %[[X2]][%{{.*}}] {alignment = 16 : i64} : memref<?xbf16>, vector<8xbf16>
// LOOPS-DAG: vector.load %[[X1]][%{{.*}}] {alignment = 16 : i64} : memref<?xbf16>, vector<8xbf16>
// LOOPS-DAG: vector.load %[[X]][%{{.*}}] {alignment = 16 : i64} : memref<?xbf16>, vector<8xbf16>
// LOOPS-DAG: vector.store %{{.*}}, %[[OUT]][%{{.*}}] {alignment = 16 : i64} : memref<?xbf16>, vector<8xbf16>
// LOOPS-LABEL: func.func @rope_k0__mixed(
