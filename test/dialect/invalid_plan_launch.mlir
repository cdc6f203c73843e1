// The plan verifier's rules for fuser.launch (dialects/verify_plan.c): it
// stands in a plan after a func.call of its kernel (a func.func with
// fuser.kernel); its entry names a gpu.func of a gpu.module or a gpu.binary
// (@binary::@entry: a flat @entry is refused, the CPU runs the GPU's
// launches), taking one argument per parameter; a
// pointer parameter addresses a tensor of that call; the last launch of a
// call has no conditions. And IRDL's: the operand groups' types.
// RUN: fuser-opt %s -split-input-file -verify-diagnostics

// The vector variant without a fallback: when the alignment fails, nothing runs.
module {
  func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> attributes {fuser.fusion, fuser.plan} {
    %one = "fuser.scalar"() {value = 1 : i64} : () -> i64
    %t = "fuser.scalar"() {value = true} : () -> i1
    %out = call @k(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
    // expected-error@+1 {{'fuser.launch' op is the last launch of @k but has conditions: when they fail no variant runs}}
    "fuser.launch"(%one, %one, %one, %one, %one, %one, %one, %t) {entry = @gpu::@k__vector, kernel = @k, variant = "vector", operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 1, 0>} : (i64, i64, i64, i64, i64, i64, i64, i1) -> ()
    return %out : tensor<8xf32>
  }
  func.func private @k(%arg0: tensor<8xf32>) -> tensor<8xf32> attributes {fuser.kernel} {
    return %arg0 : tensor<8xf32>
  }
  gpu.module @gpu {
    gpu.func @k__vector() kernel {
      gpu.return
    }
  }
}

// -----

module {
  func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> attributes {fuser.fusion, fuser.plan} {
    %one = "fuser.scalar"() {value = 1 : i64} : () -> i64
    %out = call @k(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
    // expected-error@+1 {{'fuser.launch' op launches @f, which is not a kernel of the plan (func.func with fuser.kernel)}}
    "fuser.launch"(%one, %one, %one, %one, %one, %one, %one) {entry = @gpu::@k, kernel = @f, variant = "scalar", operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 0, 0>} : (i64, i64, i64, i64, i64, i64, i64) -> ()
    return %out : tensor<8xf32>
  }
  func.func private @k(%arg0: tensor<8xf32>) -> tensor<8xf32> attributes {fuser.kernel} {
    return %arg0 : tensor<8xf32>
  }
  gpu.module @gpu {
    gpu.func @k() kernel {
      gpu.return
    }
  }
}

// -----

// A launch before the call it belongs to would run the kernel before its inputs exist.
module {
  func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> attributes {fuser.fusion, fuser.plan} {
    %one = "fuser.scalar"() {value = 1 : i64} : () -> i64
    // expected-error@+1 {{'fuser.launch' op launches @k, which no func.call before it calls}}
    "fuser.launch"(%one, %one, %one, %one, %one, %one, %one) {entry = @gpu::@k, kernel = @k, variant = "scalar", operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 0, 0>} : (i64, i64, i64, i64, i64, i64, i64) -> ()
    %out = call @k(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
    return %out : tensor<8xf32>
  }
  func.func private @k(%arg0: tensor<8xf32>) -> tensor<8xf32> attributes {fuser.kernel} {
    return %arg0 : tensor<8xf32>
  }
  gpu.module @gpu {
    gpu.func @k() kernel {
      gpu.return
    }
  }
}

// -----

module {
  func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> attributes {fuser.fusion, fuser.plan} {
    %one = "fuser.scalar"() {value = 1 : i64} : () -> i64
    %out = call @k(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
    // expected-error@+1 {{'fuser.launch' op entry must be @binary::@entry}}
    "fuser.launch"(%one, %one, %one, %one, %one, %one, %one) {entry = @k__cpu, kernel = @k, variant = "scalar", operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 0, 0>} : (i64, i64, i64, i64, i64, i64, i64) -> ()
    return %out : tensor<8xf32>
  }
  func.func private @k(%arg0: tensor<8xf32>) -> tensor<8xf32> attributes {fuser.kernel} {
    return %arg0 : tensor<8xf32>
  }
}

// -----

module {
  func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> attributes {fuser.fusion, fuser.plan} {
    %one = "fuser.scalar"() {value = 1 : i64} : () -> i64
    %out = call @k(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
    // expected-error@+1 {{'fuser.launch' op entry names @k, which is not a gpu.module or gpu.binary of the module}}
    "fuser.launch"(%one, %one, %one, %one, %one, %one, %one) {entry = @k::@k, kernel = @k, variant = "scalar", operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 0, 0>} : (i64, i64, i64, i64, i64, i64, i64) -> ()
    return %out : tensor<8xf32>
  }
  func.func private @k(%arg0: tensor<8xf32>) -> tensor<8xf32> attributes {fuser.kernel} {
    return %arg0 : tensor<8xf32>
  }
}

// -----

module {
  func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> attributes {fuser.fusion, fuser.plan} {
    %one = "fuser.scalar"() {value = 1 : i64} : () -> i64
    %out = call @k(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
    // expected-error@+1 {{'fuser.launch' op entry names @gpu::@k__vector, which is not a gpu.func of that module}}
    "fuser.launch"(%one, %one, %one, %one, %one, %one, %one) {entry = @gpu::@k__vector, kernel = @k, variant = "scalar", operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 0, 0>} : (i64, i64, i64, i64, i64, i64, i64) -> ()
    return %out : tensor<8xf32>
  }
  func.func private @k(%arg0: tensor<8xf32>) -> tensor<8xf32> attributes {fuser.kernel} {
    return %arg0 : tensor<8xf32>
  }
  gpu.module @gpu {
    gpu.func @k() kernel {
      gpu.return
    }
  }
}

// -----

module {
  func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> attributes {fuser.fusion, fuser.plan} {
    %one = "fuser.scalar"() {value = 1 : i64} : () -> i64
    %out = call @k(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
    // expected-error@+1 {{'fuser.launch' op entry must be @binary::@entry}}
    "fuser.launch"(%one, %one, %one, %one, %one, %one, %one) {entry = @a::@b::@c, kernel = @k, variant = "scalar", operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 0, 0>} : (i64, i64, i64, i64, i64, i64, i64) -> ()
    return %out : tensor<8xf32>
  }
  func.func private @k(%arg0: tensor<8xf32>) -> tensor<8xf32> attributes {fuser.kernel} {
    return %arg0 : tensor<8xf32>
  }
}

// -----

// The kernel takes two pointers; the launch passes one: every later argument would shift.
module {
  func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> attributes {fuser.fusion, fuser.plan} {
    %one = "fuser.scalar"() {value = 1 : i64} : () -> i64
    %out = call @k(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
    %a = "fuser.address"(%arg0) : (tensor<8xf32>) -> i64
    // expected-error@+1 {{'fuser.launch' op passes 1 parameters but its entry takes 2}}
    "fuser.launch"(%one, %one, %one, %one, %one, %one, %one, %a) {entry = @gpu::@k, kernel = @k, variant = "scalar", operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 0, 1>} : (i64, i64, i64, i64, i64, i64, i64, i64) -> ()
    return %out : tensor<8xf32>
  }
  func.func private @k(%arg0: tensor<8xf32>) -> tensor<8xf32> attributes {fuser.kernel} {
    return %arg0 : tensor<8xf32>
  }
  gpu.module @gpu {
    gpu.func @k(%p0: memref<1xf32>, %p1: memref<1xf32>) kernel {
      gpu.return
    }
  }
}

// -----

// A pointer into a tensor the call neither reads nor writes: the kernel would read the wrong buffer.
module {
  func.func @f(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> tensor<8xf32> attributes {fuser.fusion, fuser.plan} {
    %one = "fuser.scalar"() {value = 1 : i64} : () -> i64
    %out = call @k(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
    %a = "fuser.address"(%arg1) : (tensor<8xf32>) -> i64
    %r = "fuser.address"(%out) : (tensor<8xf32>) -> i64
    // expected-error@+1 {{'fuser.launch' op parameter #0 is the address of a tensor the call of @k neither reads nor writes}}
    "fuser.launch"(%one, %one, %one, %one, %one, %one, %one, %a, %r) {entry = @gpu::@k, kernel = @k, variant = "scalar", operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 0, 2>} : (i64, i64, i64, i64, i64, i64, i64, i64, i64) -> ()
    return %out : tensor<8xf32>
  }
  func.func private @k(%arg0: tensor<8xf32>) -> tensor<8xf32> attributes {fuser.kernel} {
    return %arg0 : tensor<8xf32>
  }
  gpu.binary @gpu [#gpu.object<#nvvm.target, "">]
}

// -----

// The kernel as a nested reference: kernels are functions of the module.
module {
  func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> attributes {fuser.fusion, fuser.plan} {
    %one = "fuser.scalar"() {value = 1 : i64} : () -> i64
    %out = call @k(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
    // expected-error@+1 {{'fuser.launch' op needs kernel = @kernel, entry = @binary::@entry (or @entry) and 9 operand segments}}
    "fuser.launch"(%one, %one, %one, %one, %one, %one, %one) {entry = @gpu::@k, kernel = @gpu::@k, variant = "scalar", operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 0, 0>} : (i64, i64, i64, i64, i64, i64, i64) -> ()
    return %out : tensor<8xf32>
  }
  func.func private @k(%arg0: tensor<8xf32>) -> tensor<8xf32> attributes {fuser.kernel} {
    return %arg0 : tensor<8xf32>
  }
}

// -----

func.func @not_a_plan() {
  %one = "fuser.scalar"() {value = 1 : i64} : () -> i64
  // expected-error@+1 {{'fuser.launch' op is outside a plan function (func.func with fuser.plan)}}
  "fuser.launch"(%one, %one, %one, %one, %one, %one, %one) {entry = @k, kernel = @k, variant = "scalar", operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 0, 0>} : (i64, i64, i64, i64, i64, i64, i64) -> ()
  return
}

// -----

// IRDL: a condition is an i1, a parameter an i64 word.
func.func @condition_type(%n: i64) {
  // expected-error@+1 {{expected 'i1' but got 'i64'}}
  "fuser.launch"(%n, %n, %n, %n, %n, %n, %n, %n) {entry = @k, kernel = @k, variant = "v", operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 1, 0>} : (i64, i64, i64, i64, i64, i64, i64, i64) -> ()
  return
}

// -----

func.func @ceildiv_type(%n: i64, %m: i32) {
  // expected-error@+1 {{expected 'i64' but got 'i32'}}
  %0 = "fuser.ceildiv"(%n, %m) : (i64, i32) -> i64
  return
}

// -----

func.func @address_type(%n: i64) {
  // expected-error@+1 {{expected base type 'builtin.tensor' but got 'builtin.integer'}}
  %0 = "fuser.address"(%n) : (i64) -> i64
  return
}

// -----

func.func @bits_of_tensor(%t: tensor<4xf32>) {
  // expected-error@+1 {{'fuser.bits' op bits is a scalar's parameter word: the operand must be a scalar (a tensor's is its address)}}
  %0 = "fuser.bits"(%t) : (tensor<4xf32>) -> i64
  return
}
