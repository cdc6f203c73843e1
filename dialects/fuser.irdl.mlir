// The fuser dialect: tensor ops with value semantics, mirroring nvFuser's
// Python frontend (fd.ops.*). Generic syntax only (IRDL); see docs/dialect.md.
// Constraints IRDL cannot state (shapes, dtype promotion, dense-array element
// types, cross-operand rules) are checked by the C verifier (dialects/verify.c).
// Keep in sync with dialects/ops.def (a unit test checks every op loads).
irdl.dialect @fuser {
  irdl.operation @scalar {
    %v = irdl.any
    %r = irdl.any
    irdl.attributes {"value" = %v}
    irdl.results(result: %r)
  }
  irdl.operation @cast {
    %x = irdl.any
    %r = irdl.any
    irdl.operands(input: %x)
    irdl.results(result: %r)
  }
  irdl.operation @neg {
    %x = irdl.any
    %r = irdl.any
    irdl.operands(input: %x)
    irdl.results(result: %r)
  }
  irdl.operation @abs {
    %x = irdl.any
    %r = irdl.any
    irdl.operands(input: %x)
    irdl.results(result: %r)
  }
  irdl.operation @exp {
    %x = irdl.any
    %r = irdl.any
    irdl.operands(input: %x)
    irdl.results(result: %r)
  }
  irdl.operation @exp2 {
    %x = irdl.any
    %r = irdl.any
    irdl.operands(input: %x)
    irdl.results(result: %r)
  }
  irdl.operation @expm1 {
    %x = irdl.any
    %r = irdl.any
    irdl.operands(input: %x)
    irdl.results(result: %r)
  }
  irdl.operation @log {
    %x = irdl.any
    %r = irdl.any
    irdl.operands(input: %x)
    irdl.results(result: %r)
  }
  irdl.operation @log1p {
    %x = irdl.any
    %r = irdl.any
    irdl.operands(input: %x)
    irdl.results(result: %r)
  }
  irdl.operation @log2 {
    %x = irdl.any
    %r = irdl.any
    irdl.operands(input: %x)
    irdl.results(result: %r)
  }
  irdl.operation @sqrt {
    %x = irdl.any
    %r = irdl.any
    irdl.operands(input: %x)
    irdl.results(result: %r)
  }
  irdl.operation @rsqrt {
    %x = irdl.any
    %r = irdl.any
    irdl.operands(input: %x)
    irdl.results(result: %r)
  }
  irdl.operation @reciprocal {
    %x = irdl.any
    %r = irdl.any
    irdl.operands(input: %x)
    irdl.results(result: %r)
  }
  irdl.operation @sin {
    %x = irdl.any
    %r = irdl.any
    irdl.operands(input: %x)
    irdl.results(result: %r)
  }
  irdl.operation @cos {
    %x = irdl.any
    %r = irdl.any
    irdl.operands(input: %x)
    irdl.results(result: %r)
  }
  irdl.operation @tan {
    %x = irdl.any
    %r = irdl.any
    irdl.operands(input: %x)
    irdl.results(result: %r)
  }
  irdl.operation @tanh {
    %x = irdl.any
    %r = irdl.any
    irdl.operands(input: %x)
    irdl.results(result: %r)
  }
  irdl.operation @sigmoid {
    %x = irdl.any
    %r = irdl.any
    irdl.operands(input: %x)
    irdl.results(result: %r)
  }
  irdl.operation @erf {
    %x = irdl.any
    %r = irdl.any
    irdl.operands(input: %x)
    irdl.results(result: %r)
  }
  irdl.operation @silu {
    %x = irdl.any
    %r = irdl.any
    irdl.operands(input: %x)
    irdl.results(result: %r)
  }
  irdl.operation @relu {
    %x = irdl.any
    %r = irdl.any
    irdl.operands(input: %x)
    irdl.results(result: %r)
  }
  irdl.operation @ceil {
    %x = irdl.any
    %r = irdl.any
    irdl.operands(input: %x)
    irdl.results(result: %r)
  }
  irdl.operation @floor {
    %x = irdl.any
    %r = irdl.any
    irdl.operands(input: %x)
    irdl.results(result: %r)
  }
  irdl.operation @round {
    %x = irdl.any
    %r = irdl.any
    irdl.operands(input: %x)
    irdl.results(result: %r)
  }
  irdl.operation @trunc {
    %x = irdl.any
    %r = irdl.any
    irdl.operands(input: %x)
    irdl.results(result: %r)
  }
  irdl.operation @sign {
    %x = irdl.any
    %r = irdl.any
    irdl.operands(input: %x)
    irdl.results(result: %r)
  }
  irdl.operation @isnan {
    %x = irdl.any
    %r = irdl.any
    irdl.operands(input: %x)
    irdl.results(result: %r)
  }
  irdl.operation @isinf {
    %x = irdl.any
    %r = irdl.any
    irdl.operands(input: %x)
    irdl.results(result: %r)
  }
  irdl.operation @logical_not {
    %x = irdl.any
    %r = irdl.any
    irdl.operands(input: %x)
    irdl.results(result: %r)
  }
  irdl.operation @bitwise_not {
    %x = irdl.any
    %r = irdl.any
    irdl.operands(input: %x)
    irdl.results(result: %r)
  }
  irdl.operation @acos {
    %x = irdl.any
    %r = irdl.any
    irdl.operands(input: %x)
    irdl.results(result: %r)
  }
  irdl.operation @asin {
    %x = irdl.any
    %r = irdl.any
    irdl.operands(input: %x)
    irdl.results(result: %r)
  }
  irdl.operation @atan {
    %x = irdl.any
    %r = irdl.any
    irdl.operands(input: %x)
    irdl.results(result: %r)
  }
  irdl.operation @acosh {
    %x = irdl.any
    %r = irdl.any
    irdl.operands(input: %x)
    irdl.results(result: %r)
  }
  irdl.operation @asinh {
    %x = irdl.any
    %r = irdl.any
    irdl.operands(input: %x)
    irdl.results(result: %r)
  }
  irdl.operation @atanh {
    %x = irdl.any
    %r = irdl.any
    irdl.operands(input: %x)
    irdl.results(result: %r)
  }
  irdl.operation @cosh {
    %x = irdl.any
    %r = irdl.any
    irdl.operands(input: %x)
    irdl.results(result: %r)
  }
  irdl.operation @sinh {
    %x = irdl.any
    %r = irdl.any
    irdl.operands(input: %x)
    irdl.results(result: %r)
  }
  irdl.operation @log10 {
    %x = irdl.any
    %r = irdl.any
    irdl.operands(input: %x)
    irdl.results(result: %r)
  }
  irdl.operation @erfc {
    %x = irdl.any
    %r = irdl.any
    irdl.operands(input: %x)
    irdl.results(result: %r)
  }
  irdl.operation @erfinv {
    %x = irdl.any
    %r = irdl.any
    irdl.operands(input: %x)
    irdl.results(result: %r)
  }
  irdl.operation @erfcinv {
    %x = irdl.any
    %r = irdl.any
    irdl.operands(input: %x)
    irdl.results(result: %r)
  }
  irdl.operation @lgamma {
    %x = irdl.any
    %r = irdl.any
    irdl.operands(input: %x)
    irdl.results(result: %r)
  }
  irdl.operation @frac {
    %x = irdl.any
    %r = irdl.any
    irdl.operands(input: %x)
    irdl.results(result: %r)
  }
  irdl.operation @signbit {
    %x = irdl.any
    %r = irdl.any
    irdl.operands(input: %x)
    irdl.results(result: %r)
  }
  irdl.operation @isfinite {
    %x = irdl.any
    %r = irdl.any
    irdl.operands(input: %x)
    irdl.results(result: %r)
  }
  irdl.operation @isposinf {
    %x = irdl.any
    %r = irdl.any
    irdl.operands(input: %x)
    irdl.results(result: %r)
  }
  irdl.operation @isneginf {
    %x = irdl.any
    %r = irdl.any
    irdl.operands(input: %x)
    irdl.results(result: %r)
  }
  irdl.operation @add {
    %a = irdl.any
    %b = irdl.any
    %r = irdl.any
    irdl.operands(lhs: %a, rhs: %b)
    irdl.results(result: %r)
  }
  irdl.operation @sub {
    %a = irdl.any
    %b = irdl.any
    %r = irdl.any
    irdl.operands(lhs: %a, rhs: %b)
    irdl.results(result: %r)
  }
  irdl.operation @mul {
    %a = irdl.any
    %b = irdl.any
    %r = irdl.any
    irdl.operands(lhs: %a, rhs: %b)
    irdl.results(result: %r)
  }
  irdl.operation @div {
    %a = irdl.any
    %b = irdl.any
    %r = irdl.any
    irdl.operands(lhs: %a, rhs: %b)
    irdl.results(result: %r)
  }
  irdl.operation @pow {
    %a = irdl.any
    %b = irdl.any
    %r = irdl.any
    irdl.operands(lhs: %a, rhs: %b)
    irdl.results(result: %r)
  }
  irdl.operation @fmod {
    %a = irdl.any
    %b = irdl.any
    %r = irdl.any
    irdl.operands(lhs: %a, rhs: %b)
    irdl.results(result: %r)
  }
  irdl.operation @remainder {
    %a = irdl.any
    %b = irdl.any
    %r = irdl.any
    irdl.operands(lhs: %a, rhs: %b)
    irdl.results(result: %r)
  }
  irdl.operation @maximum {
    %a = irdl.any
    %b = irdl.any
    %r = irdl.any
    irdl.operands(lhs: %a, rhs: %b)
    irdl.results(result: %r)
  }
  irdl.operation @minimum {
    %a = irdl.any
    %b = irdl.any
    %r = irdl.any
    irdl.operands(lhs: %a, rhs: %b)
    irdl.results(result: %r)
  }
  irdl.operation @atan2 {
    %a = irdl.any
    %b = irdl.any
    %r = irdl.any
    irdl.operands(lhs: %a, rhs: %b)
    irdl.results(result: %r)
  }
  irdl.operation @eq {
    %a = irdl.any
    %b = irdl.any
    %r = irdl.any
    irdl.operands(lhs: %a, rhs: %b)
    irdl.results(result: %r)
  }
  irdl.operation @ne {
    %a = irdl.any
    %b = irdl.any
    %r = irdl.any
    irdl.operands(lhs: %a, rhs: %b)
    irdl.results(result: %r)
  }
  irdl.operation @lt {
    %a = irdl.any
    %b = irdl.any
    %r = irdl.any
    irdl.operands(lhs: %a, rhs: %b)
    irdl.results(result: %r)
  }
  irdl.operation @le {
    %a = irdl.any
    %b = irdl.any
    %r = irdl.any
    irdl.operands(lhs: %a, rhs: %b)
    irdl.results(result: %r)
  }
  irdl.operation @gt {
    %a = irdl.any
    %b = irdl.any
    %r = irdl.any
    irdl.operands(lhs: %a, rhs: %b)
    irdl.results(result: %r)
  }
  irdl.operation @ge {
    %a = irdl.any
    %b = irdl.any
    %r = irdl.any
    irdl.operands(lhs: %a, rhs: %b)
    irdl.results(result: %r)
  }
  irdl.operation @logical_and {
    %a = irdl.any
    %b = irdl.any
    %r = irdl.any
    irdl.operands(lhs: %a, rhs: %b)
    irdl.results(result: %r)
  }
  irdl.operation @logical_or {
    %a = irdl.any
    %b = irdl.any
    %r = irdl.any
    irdl.operands(lhs: %a, rhs: %b)
    irdl.results(result: %r)
  }
  irdl.operation @bitwise_and {
    %a = irdl.any
    %b = irdl.any
    %r = irdl.any
    irdl.operands(lhs: %a, rhs: %b)
    irdl.results(result: %r)
  }
  irdl.operation @bitwise_or {
    %a = irdl.any
    %b = irdl.any
    %r = irdl.any
    irdl.operands(lhs: %a, rhs: %b)
    irdl.results(result: %r)
  }
  irdl.operation @bitwise_xor {
    %a = irdl.any
    %b = irdl.any
    %r = irdl.any
    irdl.operands(lhs: %a, rhs: %b)
    irdl.results(result: %r)
  }
  irdl.operation @bitwise_left_shift {
    %a = irdl.any
    %b = irdl.any
    %r = irdl.any
    irdl.operands(lhs: %a, rhs: %b)
    irdl.results(result: %r)
  }
  irdl.operation @bitwise_right_shift {
    %a = irdl.any
    %b = irdl.any
    %r = irdl.any
    irdl.operands(lhs: %a, rhs: %b)
    irdl.results(result: %r)
  }
  irdl.operation @logical_right_shift {
    %a = irdl.any
    %b = irdl.any
    %r = irdl.any
    irdl.operands(lhs: %a, rhs: %b)
    irdl.results(result: %r)
  }
  irdl.operation @where {
    %a = irdl.any
    %b = irdl.any
    %c = irdl.any
    %r = irdl.any
    irdl.operands(condition: %a, lhs: %b, rhs: %c)
    irdl.results(result: %r)
  }
  irdl.operation @clamp {
    %a = irdl.any
    %b = irdl.any
    %c = irdl.any
    %r = irdl.any
    irdl.operands(input: %a, min: %b, max: %c)
    irdl.results(result: %r)
  }
  irdl.operation @lerp {
    %a = irdl.any
    %b = irdl.any
    %c = irdl.any
    %r = irdl.any
    irdl.operands(start: %a, end: %b, weight: %c)
    irdl.results(result: %r)
  }
  irdl.operation @broadcast_in_dim {
    %x = irdl.base "!builtin.tensor"
    %r = irdl.base "!builtin.tensor"
    %a0 = irdl.base "#builtin.dense_array"
    %s = irdl.is i64
    irdl.operands(input: %x, shape: variadic %s)
    irdl.results(result: %r)
    irdl.attributes {"broadcast_dims" = %a0}
  }
  irdl.operation @broadcast {
    %x = irdl.base "!builtin.tensor"
    %r = irdl.base "!builtin.tensor"
    %a0 = irdl.base "#builtin.dense_array"
    irdl.operands(input: %x)
    irdl.results(result: %r)
    irdl.attributes {"is_broadcast_dim" = %a0}
  }
  irdl.operation @expand {
    %x = irdl.base "!builtin.tensor"
    %r = irdl.base "!builtin.tensor"
    %s = irdl.is i64
    irdl.operands(input: %x, shape: variadic %s)
    irdl.results(result: %r)
  }
  irdl.operation @reshape {
    %x = irdl.base "!builtin.tensor"
    %r = irdl.base "!builtin.tensor"
    %s = irdl.is i64
    irdl.operands(input: %x, shape: variadic %s)
    irdl.results(result: %r)
  }
  irdl.operation @permute {
    %x = irdl.base "!builtin.tensor"
    %r = irdl.base "!builtin.tensor"
    %a0 = irdl.base "#builtin.dense_array"
    irdl.operands(input: %x)
    irdl.results(result: %r)
    irdl.attributes {"dims" = %a0}
  }
  irdl.operation @slice {
    %x = irdl.base "!builtin.tensor"
    %r = irdl.base "!builtin.tensor"
    %a0 = irdl.base "#builtin.dense_array"
    %a1 = irdl.base "#builtin.dense_array"
    %a2 = irdl.base "#builtin.dense_array"
    irdl.operands(input: %x)
    irdl.results(result: %r)
    irdl.attributes {"start_indices" = %a0, "end_indices" = %a1, "strides" = %a2}
  }
  irdl.operation @squeeze {
    %x = irdl.base "!builtin.tensor"
    %r = irdl.base "!builtin.tensor"
    %a0 = irdl.base "#builtin.dense_array"
    irdl.operands(input: %x)
    irdl.results(result: %r)
    irdl.attributes {"dims" = %a0}
  }
  irdl.operation @pad {
    %x = irdl.base "!builtin.tensor"
    %v = irdl.any
    %r = irdl.base "!builtin.tensor"
    %w = irdl.base "#builtin.dense_array"
    irdl.operands(input: %x, value: %v)
    irdl.results(result: %r)
    irdl.attributes {"pad_widths" = %w}
  }
  irdl.operation @cat {
    %a = irdl.base "!builtin.tensor"
    %b = irdl.base "!builtin.tensor"
    %r = irdl.base "!builtin.tensor"
    %d = irdl.base "#builtin.integer"
    irdl.operands(lhs: %a, rhs: %b)
    irdl.results(result: %r)
    irdl.attributes {"dim" = %d}
  }
  irdl.operation @set {
    %x = irdl.base "!builtin.tensor"
    %r = irdl.base "!builtin.tensor"
    irdl.operands(input: %x)
    irdl.results(result: %r)
  }
  irdl.operation @segment_set {
    %x = irdl.base "!builtin.tensor"
    %r = irdl.base "!builtin.tensor"
    irdl.operands(input: %x)
    irdl.results(result: %r)
  }
  irdl.operation @view {
    %x = irdl.base "!builtin.tensor"
    %d = irdl.is i64
    %r = irdl.base "!builtin.tensor"
    %o = irdl.base "#builtin.integer"
    %s = irdl.base "#builtin.dense_array"
    irdl.operands(input: %x, dynamic: variadic %d)
    irdl.results(result: %r)
    irdl.attributes {"static_offset" = %o, "static_strides" = %s}
  }
  irdl.operation @size {
    %x = irdl.base "!builtin.tensor"
    %r = irdl.is i64
    %d = irdl.base "#builtin.integer"
    irdl.operands(input: %x)
    irdl.results(result: %r)
    irdl.attributes {"dim" = %d}
  }
  irdl.operation @stride {
    %x = irdl.base "!builtin.tensor"
    %r = irdl.is i64
    %d = irdl.base "#builtin.integer"
    irdl.operands(input: %x)
    irdl.results(result: %r)
    irdl.attributes {"dim" = %d}
  }
  irdl.operation @sum {
    %x = irdl.base "!builtin.tensor"
    %r = irdl.base "!builtin.tensor"
    %d = irdl.base "#builtin.dense_array"
    %k = irdl.base "#builtin.integer"
    irdl.operands(input: %x)
    irdl.results(result: %r)
    irdl.attributes {"dims" = %d, "keepdim" = %k}
  }
  irdl.operation @max {
    %x = irdl.base "!builtin.tensor"
    %r = irdl.base "!builtin.tensor"
    %d = irdl.base "#builtin.dense_array"
    %k = irdl.base "#builtin.integer"
    irdl.operands(input: %x)
    irdl.results(result: %r)
    irdl.attributes {"dims" = %d, "keepdim" = %k}
  }
  irdl.operation @min {
    %x = irdl.base "!builtin.tensor"
    %r = irdl.base "!builtin.tensor"
    %d = irdl.base "#builtin.dense_array"
    %k = irdl.base "#builtin.integer"
    irdl.operands(input: %x)
    irdl.results(result: %r)
    irdl.attributes {"dims" = %d, "keepdim" = %k}
  }
  irdl.operation @prod {
    %x = irdl.base "!builtin.tensor"
    %r = irdl.base "!builtin.tensor"
    %d = irdl.base "#builtin.dense_array"
    %k = irdl.base "#builtin.integer"
    irdl.operands(input: %x)
    irdl.results(result: %r)
    irdl.attributes {"dims" = %d, "keepdim" = %k}
  }
  irdl.operation @var_mean {
    %x = irdl.base "!builtin.tensor"
    %v = irdl.base "!builtin.tensor"
    %m = irdl.base "!builtin.tensor"
    %d = irdl.base "#builtin.dense_array"
    %c = irdl.base "#builtin.integer"
    %k = irdl.base "#builtin.integer"
    irdl.operands(input: %x)
    irdl.results(var: %v, mean: %m)
    irdl.attributes {"dims" = %d, "correction" = %c, "keepdim" = %k}
  }
  irdl.operation @full {
    %f = irdl.any
    %s = irdl.is i64
    %r = irdl.base "!builtin.tensor"
    irdl.operands(fill_value: %f, shape: variadic %s)
    irdl.results(result: %r)
  }
  irdl.operation @iota {
    %n = irdl.is i64
    %a = irdl.any
    %b = irdl.any
    %r = irdl.base "!builtin.tensor"
    irdl.operands(length: %n, start: %a, step: %b)
    irdl.results(result: %r)
  }
  irdl.operation @uniform {
    %a = irdl.any
    %b = irdl.any
    %i = irdl.is i64
    %r = irdl.base "!builtin.tensor"
    irdl.operands(minval: %a, maxval: %b, rng_seed: %i, rng_offset: %i, shape: variadic %i)
    irdl.results(result: %r)
  }
  irdl.operation @normal {
    %a = irdl.any
    %b = irdl.any
    %i = irdl.is i64
    %r = irdl.base "!builtin.tensor"
    irdl.operands(mean: %a, std: %b, rng_seed: %i, rng_offset: %i, shape: variadic %i)
    irdl.results(result: %r)
  }
  irdl.operation @matmul {
    %a = irdl.base "!builtin.tensor"
    %b = irdl.base "!builtin.tensor"
    %r = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %a, rhs: %b)
    irdl.results(result: %r)
  }
  irdl.operation @linear {
    %x = irdl.base "!builtin.tensor"
    %w = irdl.base "!builtin.tensor"
    %b = irdl.base "!builtin.tensor"
    %r = irdl.base "!builtin.tensor"
    irdl.operands(input: %x, weight: %w, bias: optional %b)
    irdl.results(result: %r)
  }
  irdl.operation @index_select {
    %a = irdl.base "!builtin.tensor"
    %i = irdl.base "!builtin.tensor"
    %r = irdl.base "!builtin.tensor"
    %d = irdl.base "#builtin.integer"
    irdl.operands(arg: %a, index: %i)
    irdl.results(result: %r)
    irdl.attributes {"dim" = %d}
  }
  irdl.operation @gather {
    %a = irdl.base "!builtin.tensor"
    %i = irdl.base "!builtin.tensor"
    %r = irdl.base "!builtin.tensor"
    %d = irdl.base "#builtin.integer"
    irdl.operands(arg: %a, index: %i)
    irdl.results(result: %r)
    irdl.attributes {"dim" = %d}
  }
  irdl.operation @take_along_axis {
    %a = irdl.base "!builtin.tensor"
    %i = irdl.base "!builtin.tensor"
    %r = irdl.base "!builtin.tensor"
    %d = irdl.base "#builtin.integer"
    irdl.operands(arg: %a, index: %i)
    irdl.results(result: %r)
    irdl.attributes {"dim" = %d}
  }
  irdl.operation @triu {
    %x = irdl.base "!builtin.tensor"
    %r = irdl.base "!builtin.tensor"
    %d = irdl.base "#builtin.integer"
    irdl.operands(input: %x)
    irdl.results(result: %r)
    irdl.attributes {"diagonal" = %d}
  }
}
