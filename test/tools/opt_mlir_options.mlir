// fuser-opt takes mlir-opt's options with mlir-opt's meanings.
//
// -p is --pass-pipeline; -o=FILE is -o FILE.
// RUN: fuser-opt %s -p 'builtin.module(cse)' -o=%t.p.mlir && FileCheck %s --check-prefix=CSE < %t.p.mlir
// Passes as flags run in order, upstream and fuser alike; a flag's value is
// the pass's options; a pass anchored on func.func is nested under it.
// RUN: fuser-opt %s --cse --fuser-segment --canonicalize='max-iterations=2' --affine-loop-invariant-code-motion --dump-pass-pipeline -o %t.flags.mlir 2> %t.flags.err
// RUN: FileCheck %s --check-prefix=FLAGS < %t.flags.err
// RUN: FileCheck %s --check-prefix=CSE < %t.flags.mlir
// RUN: FileCheck %s --check-prefix=SEGMENT < %t.flags.mlir
// RUN: not fuser-opt %s --no-such-pass 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not fuser-opt %s --cse -p 'builtin.module(cse)' 2>&1 | FileCheck %s --check-prefix=BOTH
// --mlir-print-op-generic prints builtin and func ops generically too.
// RUN: fuser-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// --mlir-disable-threading: same result, one thread.
// RUN: fuser-opt %s --cse --mlir-disable-threading | FileCheck %s --check-prefix=CSE
// --emit-bytecode writes MLIR bytecode, which fuser-opt reads back.
// RUN: fuser-opt %s --emit-bytecode -o %t.mlirbc
// RUN: head -c 4 %t.mlirbc | od -An -c | FileCheck %s --check-prefix=MAGIC
// RUN: fuser-opt %t.mlirbc --cse | FileCheck %s --check-prefix=CSE
// --mlir-pass-statistics prints the statistics report (empty with Debian's
// LLVM 22, a release build without pass counters: mlir-opt prints the same).
// RUN: fuser-opt %s --cse --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS
// RUN: fuser-opt %s --cse --mlir-pass-statistics --mlir-pass-statistics-display=pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS
// --mlir-timing prints one report, after the run (regression: an empty
// report came first, from the pass manager that only checked the pipeline).
// RUN: fuser-opt %s --cse --mlir-timing -o /dev/null 2>&1 | FileCheck %s --check-prefix=TIMING
// --version, --show-dialects answer without input.
// RUN: fuser-opt --version | FileCheck %s --check-prefix=VERSION
// RUN: fuser-opt --show-dialects | FileCheck %s --check-prefix=DIALECTS

// CSE: func.func @f
// CSE-NEXT: %[[C:.*]] = arith.constant 1 : i32
// CSE-NEXT: "fuser.neg"
// CSE-NEXT: return %{{.*}}, %[[C]], %[[C]]

// FLAGS: builtin.module(cse,fuser-segment,canonicalize{ max-iterations=2 {{.*}}},func.func(affine-loop-invariant-code-motion))

// SEGMENT: func.func @g
// SEGMENT-SAME: fuser.plan
// SEGMENT: call @g_k0

// UNKNOWN: fuser-opt: error: unknown option '--no-such-pass' (neither an option nor a pass; see --help)
// BOTH: fuser-opt: error: --pass-pipeline cannot be combined with pass flags such as '--cse'

// GENERIC: "builtin.module"() ({
// GENERIC: "func.func"() <{function_type =

// MAGIC: M L 357 R

// STATS: Pass statistics report

// TIMING: Execution time report
// TIMING: CSE
// TIMING-NOT: Execution time report

// VERSION: fuser-opt
// VERSION: MLIR/LLVM 22.

// DIALECTS: Available Dialects: {{.*}}arith, {{.*}}func, fuser, gpu, {{.*}}nvvm, {{.*}}vector
// DIALECTS-NOT: test_dyn

func.func @f(%a: tensor<2xf32>) -> (tensor<2xf32>, i32, i32) {
  %c = arith.constant 1 : i32
  %d = arith.constant 1 : i32
  %0 = "fuser.neg"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  return %0, %c, %d : tensor<2xf32>, i32, i32
}

func.func @g(%a: tensor<8xf32>) -> tensor<8xf32> attributes {fuser.fusion} {
  %0 = "fuser.neg"(%a) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
