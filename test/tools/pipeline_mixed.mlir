// Exercises passes/pipeline.c, passes/options.c and passes/external.c (fuser
// passes as MLIR external passes in one pass manager with upstream ones).
// fuser and upstream passes in one pipeline, nested under func.func too:
// upstream cse/canonicalize do their work on the non-fuser ops, the fuser
// ops survive (IRDL ops have no memory effects, so upstream passes never
// erase or merge them), and fuser-verify runs at every level.
// RUN: fuser-opt %s --pass-pipeline='builtin.module(fuser-verify, func.func(canonicalize, cse, fuser-verify), cse, fuser-verify)' | FileCheck %s
// RUN: fuser-opt %s --pass-pipeline='builtin.module(func.func(fuser-verify{}))' | FileCheck %s --check-prefix=NOOPT
// RUN: fuser-opt %s --pass-pipeline=' builtin.module ( fuser-verify , func.func ( cse ) ) ' | FileCheck %s --check-prefix=SPACES
// RUN: fuser-opt %s --pass-pipeline='builtin.module()' | FileCheck %s --check-prefix=EMPTY
// RUN: fuser-opt %s --pass-pipeline='builtin.module(func.func(canonicalize{max-iterations=2 test-convergence=false}))' | FileCheck %s --check-prefix=UPOPT

// CHECK-LABEL: func.func @f
// CHECK: %[[C:.*]] = arith.constant 1 : i32
// CHECK-NOT: arith.constant
// CHECK: "fuser.neg"(%arg0)
// CHECK: "fuser.neg"(%arg0)
// CHECK: "fuser.neg"(%arg0)
// CHECK: return %{{.*}}, %[[C]], %[[C]]

// NOOPT: arith.constant 1 : i32
// NOOPT: arith.constant 1 : i32
// SPACES-COUNT-1: arith.constant 1 : i32
// SPACES-NOT: arith.constant
// EMPTY-COUNT-2: arith.constant 1 : i32
// UPOPT-COUNT-1: arith.constant 1 : i32
// UPOPT-NOT: arith.constant

func.func @f(%a: tensor<2xf32>) -> (tensor<2xf32>, i32, i32) {
  %c = arith.constant 1 : i32
  %d = arith.constant 1 : i32
  %0 = "fuser.neg"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  %1 = "fuser.neg"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  %unused = "fuser.neg"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  return %0, %c, %d : tensor<2xf32>, i32, i32
}
