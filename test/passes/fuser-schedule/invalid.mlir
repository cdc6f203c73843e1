// RUN: fuser-opt %s --split-input-file -verify-diagnostics --pass-pipeline='builtin.module(fuser-lower-kernels)'
// fuser-lower-kernels follows the schedule and refuses, with a located
// error, a kernel without one or with a malformed one (the C verifier).

// expected-error@+1 {{kernel has no fuser.schedule: run fuser-vectorize and fuser-schedule first}}
func.func private @none(%a: tensor<8xf32> {fuser.strides = array<i64: 1>}) -> (tensor<8xf32> {fuser.strides = array<i64: 1>}) attributes {fuser.kernel} {
  %0 = "fuser.neg"(%a) : (tensor<8xf32>) -> tensor<8xf32>
  func.return %0 : tensor<8xf32>
}

// -----

// The former form, the kind a string beside the fields: the kind is the
// dictionary's one key now, so this reads as two entries and is refused.
// expected-error@+1 {{fuser.schedule must be a dictionary of one entry, the kind's fields under its name}}
func.func private @kind_string(%a: tensor<8xf32> {fuser.strides = array<i64: 1>}) -> (tensor<8xf32> {fuser.strides = array<i64: 1>}) attributes {fuser.kernel, fuser.schedule = {kind = "pointwise", block_size = 128 : i64, variants = [{name = "scalar", vector_width = 1 : i64, unroll = 1 : i64, index_bits = 64 : i64, tail = false, flat = false, conditions = []}]}} {
  %0 = "fuser.neg"(%a) : (tensor<8xf32>) -> tensor<8xf32>
  func.return %0 : tensor<8xf32>
}

// -----

// expected-error@+1 {{fuser.schedule must be a dictionary of one entry, the kind's fields under its name}}
func.func private @kind_not_dict(%a: tensor<8xf32> {fuser.strides = array<i64: 1>}) -> (tensor<8xf32> {fuser.strides = array<i64: 1>}) attributes {fuser.kernel, fuser.schedule = {pointwise = 1 : i64}} {
  %0 = "fuser.neg"(%a) : (tensor<8xf32>) -> tensor<8xf32>
  func.return %0 : tensor<8xf32>
}

// -----

// expected-error@+1 {{fuser.schedule: unknown kind 'tiled'}}
func.func private @unknown(%a: tensor<8xf32> {fuser.strides = array<i64: 1>}) -> (tensor<8xf32> {fuser.strides = array<i64: 1>}) attributes {fuser.kernel, fuser.schedule = {tiled = {}}} {
  %0 = "fuser.neg"(%a) : (tensor<8xf32>) -> tensor<8xf32>
  func.return %0 : tensor<8xf32>
}

// -----

// expected-error@+1 {{fuser.schedule (pointwise): 'block_size' must be an integer in [1, 1024]}}
func.func private @block(%a: tensor<8xf32> {fuser.strides = array<i64: 1>}) -> (tensor<8xf32> {fuser.strides = array<i64: 1>}) attributes {fuser.kernel, fuser.schedule = {pointwise = {block_size = 4096 : i64, variants = []}}} {
  %0 = "fuser.neg"(%a) : (tensor<8xf32>) -> tensor<8xf32>
  func.return %0 : tensor<8xf32>
}

// -----

// expected-error@+1 {{fuser.schedule (pointwise): variant #0: 'vector_width' must be a power of two}}
func.func private @width(%a: tensor<8xf32> {fuser.strides = array<i64: 1>}) -> (tensor<8xf32> {fuser.strides = array<i64: 1>}) attributes {fuser.kernel, fuser.schedule = {pointwise = {block_size = 128 : i64, variants = [{name = "vector", vector_width = 3 : i64, unroll = 1 : i64, index_bits = 32 : i64, tail = false, flat = false, conditions = []}]}}} {
  %0 = "fuser.neg"(%a) : (tensor<8xf32>) -> tensor<8xf32>
  func.return %0 : tensor<8xf32>
}

// -----

// A condition in the former form (the kind a string) or of no known kind is
// refused where the schedule is read, not skipped by the kernel generator.
// expected-error@+1 {{fuser.schedule (pointwise): variant #0: each condition must be one of passes/conditions.h's forms ({align = {arg = T, bytes = B}}, ..., {index32})}}
func.func private @cond_string(%a: tensor<8xf32> {fuser.strides = array<i64: 1>}) -> (tensor<8xf32> {fuser.strides = array<i64: 1>}) attributes {fuser.kernel, fuser.schedule = {pointwise = {block_size = 128 : i64, variants = [{name = "vector", vector_width = 4 : i64, unroll = 1 : i64, index_bits = 32 : i64, tail = false, flat = false, conditions = [{arg = 0 : i64, bytes = 16 : i64, kind = "align"}]}, {name = "scalar", vector_width = 1 : i64, unroll = 1 : i64, index_bits = 64 : i64, tail = false, flat = false, conditions = []}]}}} {
  %0 = "fuser.neg"(%a) : (tensor<8xf32>) -> tensor<8xf32>
  func.return %0 : tensor<8xf32>
}

// -----

// expected-error@+1 {{fuser.schedule (pointwise): variant #0: each access condition must be one of passes/conditions.h's forms}}
func.func private @access_kind(%a: tensor<8xf32> {fuser.strides = array<i64: 1>}) -> (tensor<8xf32> {fuser.strides = array<i64: 1>}) attributes {fuser.kernel, fuser.schedule = {pointwise = {block_size = 128 : i64, variants = [{name = "mixed", vector_width = 4 : i64, unroll = 1 : i64, index_bits = 32 : i64, tail = false, flat = false, conditions = [], access_conditions = [{alignment = {arg = 0 : i64, bytes = 16 : i64}}]}]}}} {
  %0 = "fuser.neg"(%a) : (tensor<8xf32>) -> tensor<8xf32>
  func.return %0 : tensor<8xf32>
}

// -----

// expected-error@+1 {{fuser.schedule (pointwise): variant #0: the last variant must have no conditions}}
func.func private @last(%a: tensor<8xf32> {fuser.strides = array<i64: 1>}) -> (tensor<8xf32> {fuser.strides = array<i64: 1>}) attributes {fuser.kernel, fuser.schedule = {pointwise = {block_size = 128 : i64, variants = [{name = "vector", vector_width = 4 : i64, unroll = 1 : i64, index_bits = 32 : i64, tail = false, flat = false, conditions = [{index32}]}]}}} {
  %0 = "fuser.neg"(%a) : (tensor<8xf32>) -> tensor<8xf32>
  func.return %0 : tensor<8xf32>
}

// -----

// expected-error@+1 {{fuser.schedule (pointwise): variant #0: 'index_bits' must be 32 or 64}}
func.func private @bits(%a: tensor<8xf32> {fuser.strides = array<i64: 1>}) -> (tensor<8xf32> {fuser.strides = array<i64: 1>}) attributes {fuser.kernel, fuser.schedule = {pointwise = {block_size = 128 : i64, variants = [{name = "vector", vector_width = 4 : i64, unroll = 1 : i64, index_bits = 48 : i64, tail = false, flat = false, conditions = []}]}}} {
  %0 = "fuser.neg"(%a) : (tensor<8xf32>) -> tensor<8xf32>
  func.return %0 : tensor<8xf32>
}

// -----

// The row schedules' verifier (passes/schedule_reduction_attr.c: the schedule attribute's reader and verifier).
// expected-error@+1 {{fuser.schedule (inner_persistent): variant #0: 'threads' must be a power of two in [1, 1024]}}
func.func private @row_threads(%a: tensor<4x64xf32> {fuser.strides = array<i64: 64, 1>}) -> (tensor<4xf32> {fuser.strides = array<i64: 1>}) attributes {fuser.kernel, fuser.schedule = {inner_persistent = {outer_dims = 1 : i64, variants = [{width = 4 : i64, vectors = 2 : i64, threads = 24 : i64, rows_per_block = 1 : i64}]}}} {
  %0 = "fuser.sum"(%a) {dims = array<i64: 1>, keepdim = false} : (tensor<4x64xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

// A variant's run-time `points` threshold is a count.
// expected-error@+1 {{fuser.schedule (outer): variant #0: 'min_points' must be a non-negative integer}}
func.func private @row_min_points(%a: tensor<64x4xf32> {fuser.strides = array<i64: 4, 1>}) -> (tensor<4xf32> {fuser.strides = array<i64: 1>}) attributes {fuser.kernel, fuser.schedule = {outer = {outer_dims = 1 : i64, variants = [{width = 4 : i64, vectors = 4 : i64, threads = 16 : i64, rows_per_block = 16 : i64, min_points = -1 : i64}]}}} {
  %0 = "fuser.sum"(%a) {dims = array<i64: 0>, keepdim = false} : (tensor<64x4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

// expected-error@+1 {{fuser.schedule (outer): 'variants' must be an array of 1 to 4 dictionaries}}
func.func private @row_variants(%a: tensor<64x4xf32> {fuser.strides = array<i64: 4, 1>}) -> (tensor<4xf32> {fuser.strides = array<i64: 1>}) attributes {fuser.kernel, fuser.schedule = {outer = {outer_dims = 1 : i64, variants = []}}} {
  %0 = "fuser.sum"(%a) {dims = array<i64: 0>, keepdim = false} : (tensor<64x4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

// expected-error@+1 {{fuser.schedule (inner_reduce): 'outer_dims' must be an integer in [0, the reduction input's rank]}}
func.func private @row_outer(%a: tensor<4x64xf32> {fuser.strides = array<i64: 64, 1>}) -> (tensor<4xf32> {fuser.strides = array<i64: 1>}) attributes {fuser.kernel, fuser.schedule = {inner_reduce = {outer_dims = 7 : i64, variants = [{width = 4 : i64, vectors = 0 : i64, threads = 512 : i64, rows_per_block = 1 : i64}]}}} {
  %0 = "fuser.sum"(%a) {dims = array<i64: 1>, keepdim = false} : (tensor<4x64xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

// A cluster only on a variant of one row per block.
// expected-error@+1 {{fuser.schedule (inner_reduce): variant #0: 'cluster' must be a power of two in [1, 8], on a variant of one row per block and at least 32 threads}}
func.func private @row_cluster(%a: tensor<4x65536xf32> {fuser.strides = array<i64: 65536, 1>}) -> (tensor<4xf32> {fuser.strides = array<i64: 1>}) attributes {fuser.kernel, fuser.schedule = {inner_reduce = {outer_dims = 1 : i64, variants = [{width = 4 : i64, vectors = 0 : i64, threads = 512 : i64, rows_per_block = 2 : i64, cluster = 4 : i64}]}}} {
  %0 = "fuser.sum"(%a) {dims = array<i64: 1>, keepdim = false} : (tensor<4x65536xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

// A persistent cluster's blocks hold chunks of a static row: no row_length.
// expected-error@+1 {{fuser.schedule (inner_reduce): variant #0: a persistent 'cluster' variant (vectors > 0) needs a static 'row_length' of at most cluster x threads x vectors x width}}
func.func private @row_cluster_persistent(%a: tensor<4x?xf32> {fuser.strides = array<i64: -9223372036854775808, 1>}) -> (tensor<4xf32> {fuser.strides = array<i64: 1>}) attributes {fuser.kernel, fuser.schedule = {inner_reduce = {outer_dims = 1 : i64, variants = [{width = 4 : i64, vectors = 2 : i64, threads = 512 : i64, rows_per_block = 1 : i64, cluster = 4 : i64}]}}} {
  %0 = "fuser.sum"(%a) {dims = array<i64: 1>, keepdim = false} : (tensor<4x?xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

// ... nor a row longer than its blocks hold (4 x 512 x 2 x 4 = 16384 < 65536).
// expected-error@+1 {{fuser.schedule (inner_reduce): variant #0: a persistent 'cluster' variant (vectors > 0) needs a static 'row_length' of at most cluster x threads x vectors x width}}
func.func private @row_cluster_short(%a: tensor<4x65536xf32> {fuser.strides = array<i64: 65536, 1>}) -> (tensor<4xf32> {fuser.strides = array<i64: 1>}) attributes {fuser.kernel, fuser.schedule = {inner_reduce = {outer_dims = 1 : i64, row_length = 65536 : i64, variants = [{width = 4 : i64, vectors = 2 : i64, threads = 512 : i64, rows_per_block = 1 : i64, cluster = 4 : i64}]}}} {
  %0 = "fuser.sum"(%a) {dims = array<i64: 1>, keepdim = false} : (tensor<4x65536xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

// reload re-reads a persistent variant's vectors: not on a looped one.
// expected-error@+1 {{fuser.schedule (inner_reduce): variant #0: 'reload' must be a bool, true only on a persistent variant (vectors > 0)}}
func.func private @row_reload_looped(%a: tensor<4x65536xf32> {fuser.strides = array<i64: 65536, 1>}) -> (tensor<4xf32> {fuser.strides = array<i64: 1>}) attributes {fuser.kernel, fuser.schedule = {inner_reduce = {outer_dims = 1 : i64, variants = [{width = 4 : i64, vectors = 0 : i64, threads = 512 : i64, rows_per_block = 1 : i64, reload = true}]}}} {
  %0 = "fuser.sum"(%a) {dims = array<i64: 1>, keepdim = false} : (tensor<4x65536xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

// expected-error@+1 {{fuser.schedule (inner_reduce): variant #0: 'reload' must be a bool, true only on a persistent variant (vectors > 0)}}
func.func private @row_reload_int(%a: tensor<4x64xf32> {fuser.strides = array<i64: 64, 1>}) -> (tensor<4xf32> {fuser.strides = array<i64: 1>}) attributes {fuser.kernel, fuser.schedule = {inner_reduce = {outer_dims = 1 : i64, row_length = 64 : i64, variants = [{width = 4 : i64, vectors = 2 : i64, threads = 8 : i64, rows_per_block = 16 : i64, reload = 1 : i64}]}}} {
  %0 = "fuser.sum"(%a) {dims = array<i64: 1>, keepdim = false} : (tensor<4x64xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

// prefetch issues a held persistent variant's epilogue loads early: not on a
// re-read one (its registers are capped), a looped one, or as a non-bool.
// expected-error@+1 {{fuser.schedule (inner_persistent): variant #0: 'prefetch' must be a bool, true only on a held persistent variant (vectors > 0, no reload, no cluster)}}
func.func private @row_prefetch_reload(%a: tensor<4x4096xf32> {fuser.strides = array<i64: 4096, 1>}) -> (tensor<4x4096xf32> {fuser.strides = array<i64: 4096, 1>}) attributes {fuser.kernel, fuser.schedule = {inner_persistent = {outer_dims = 1 : i64, row_length = 4096 : i64, variants = [{width = 4 : i64, vectors = 2 : i64, threads = 512 : i64, rows_per_block = 1 : i64, reload = true, prefetch = true}]}}} {
  %0 = "fuser.sum"(%a) {dims = array<i64: 1>, keepdim = false} : (tensor<4x4096xf32>) -> tensor<4xf32>
  %1 = "fuser.broadcast_in_dim"(%0) {broadcast_dims = array<i64: 0>} : (tensor<4xf32>) -> tensor<4x4096xf32>
  %2 = "fuser.sub"(%a, %1) : (tensor<4x4096xf32>, tensor<4x4096xf32>) -> tensor<4x4096xf32>
  func.return %2 : tensor<4x4096xf32>
}

// -----

// expected-error@+1 {{fuser.schedule (inner_reduce): variant #0: 'prefetch' must be a bool, true only on a held persistent variant (vectors > 0, no reload, no cluster)}}
func.func private @row_prefetch_looped(%a: tensor<4x65536xf32> {fuser.strides = array<i64: 65536, 1>}) -> (tensor<4xf32> {fuser.strides = array<i64: 1>}) attributes {fuser.kernel, fuser.schedule = {inner_reduce = {outer_dims = 1 : i64, variants = [{width = 4 : i64, vectors = 0 : i64, threads = 512 : i64, rows_per_block = 1 : i64, prefetch = true}]}}} {
  %0 = "fuser.sum"(%a) {dims = array<i64: 1>, keepdim = false} : (tensor<4x65536xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

// expected-error@+1 {{fuser.schedule (inner_reduce): variant #0: 'prefetch' must be a bool, true only on a held persistent variant (vectors > 0, no reload, no cluster)}}
func.func private @row_prefetch_int(%a: tensor<4x64xf32> {fuser.strides = array<i64: 64, 1>}) -> (tensor<4xf32> {fuser.strides = array<i64: 1>}) attributes {fuser.kernel, fuser.schedule = {inner_reduce = {outer_dims = 1 : i64, row_length = 64 : i64, variants = [{width = 4 : i64, vectors = 2 : i64, threads = 8 : i64, rows_per_block = 16 : i64, prefetch = 1 : i64}]}}} {
  %0 = "fuser.sum"(%a) {dims = array<i64: 1>, keepdim = false} : (tensor<4x64xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

// expected-error@+1 {{fuser.schedule (inner_reduce): variant #0: 'cluster' must be a power of two in [1, 8], on a variant of one row per block and at least 32 threads}}
func.func private @row_cluster16(%a: tensor<4x65536xf32> {fuser.strides = array<i64: 65536, 1>}) -> (tensor<4xf32> {fuser.strides = array<i64: 1>}) attributes {fuser.kernel, fuser.schedule = {inner_reduce = {outer_dims = 1 : i64, variants = [{width = 4 : i64, vectors = 0 : i64, threads = 1024 : i64, rows_per_block = 1 : i64, cluster = 16 : i64}]}}} {
  %0 = "fuser.sum"(%a) {dims = array<i64: 1>, keepdim = false} : (tensor<4x65536xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

// The transpose kind: its tile fields are checked.
// expected-error@+1 {{fuser.schedule (transpose): 'tile' must be a power of two}}
func.func private @tile_pow2(%a: tensor<64x64xf32> {fuser.strides = array<i64: 64, 1>}, %b: tensor<64x64xf32> {fuser.strides = array<i64: 1, 64>}) -> (tensor<64x64xf32> {fuser.strides = array<i64: 64, 1>}) attributes {fuser.kernel, fuser.schedule = {transpose = {narrow = array<i64>, block_size = 128 : i64, threads = 128 : i64, tile = 48 : i64, tile_dim = 0 : i64, tiled = array<i64: 1>, variants = [{name = "tile", vector_width = 4 : i64, unroll = 2 : i64, index_bits = 32 : i64, tail = false, flat = false, conditions = []}]}}} {
  %0 = "fuser.add"(%a, %b) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  func.return %0 : tensor<64x64xf32>
}

// -----

// expected-error@+1 {{fuser.schedule (transpose): 'tiled' must be an array<i64> of 1 to 4 tensor numbers}}
func.func private @tiled(%a: tensor<64x64xf32> {fuser.strides = array<i64: 64, 1>}, %b: tensor<64x64xf32> {fuser.strides = array<i64: 1, 64>}) -> (tensor<64x64xf32> {fuser.strides = array<i64: 64, 1>}) attributes {fuser.kernel, fuser.schedule = {transpose = {narrow = array<i64>, block_size = 128 : i64, threads = 128 : i64, tile = 32 : i64, tile_dim = 0 : i64, tiled = array<i64>, variants = [{name = "tile", vector_width = 4 : i64, unroll = 2 : i64, index_bits = 32 : i64, tail = false, flat = false, conditions = []}]}}} {
  %0 = "fuser.add"(%a, %b) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  func.return %0 : tensor<64x64xf32>
}

// -----

// expected-error@+1 {{fuser.schedule (transpose): the tile variant must cover the tile: tile^2 = vector_width x threads x unroll}}
func.func private @cover(%a: tensor<64x64xf32> {fuser.strides = array<i64: 64, 1>}, %b: tensor<64x64xf32> {fuser.strides = array<i64: 1, 64>}) -> (tensor<64x64xf32> {fuser.strides = array<i64: 64, 1>}) attributes {fuser.kernel, fuser.schedule = {transpose = {narrow = array<i64>, block_size = 128 : i64, threads = 64 : i64, tile = 32 : i64, tile_dim = 0 : i64, tiled = array<i64: 1>, variants = [{name = "tile", vector_width = 4 : i64, unroll = 2 : i64, index_bits = 32 : i64, tail = false, flat = false, conditions = []}]}}} {
  %0 = "fuser.add"(%a, %b) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  func.return %0 : tensor<64x64xf32>
}

// -----

// expected-error@+1 {{fuser.schedule (transpose): the first variant must be 'tile'}}
func.func private @first(%a: tensor<64x64xf32> {fuser.strides = array<i64: 64, 1>}, %b: tensor<64x64xf32> {fuser.strides = array<i64: 1, 64>}) -> (tensor<64x64xf32> {fuser.strides = array<i64: 64, 1>}) attributes {fuser.kernel, fuser.schedule = {transpose = {narrow = array<i64>, block_size = 128 : i64, threads = 128 : i64, tile = 32 : i64, tile_dim = 0 : i64, tiled = array<i64: 1>, variants = [{name = "vector", vector_width = 4 : i64, unroll = 2 : i64, index_bits = 32 : i64, tail = false, flat = false, conditions = []}]}}} {
  %0 = "fuser.add"(%a, %b) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  func.return %0 : tensor<64x64xf32>
}

// -----

// A transpose schedule on a kernel it does not fit (no input read across the vectors).
// expected-error@+1 {{fuser-lower-kernels: the transpose schedule does not apply to this kernel}}
func.func private @fit(%a: tensor<64x64xf32> {fuser.strides = array<i64: 64, 1>}, %b: tensor<64x64xf32> {fuser.strides = array<i64: 64, 1>}) -> (tensor<64x64xf32> {fuser.strides = array<i64: 64, 1>}) attributes {fuser.kernel, fuser.schedule = {transpose = {narrow = array<i64>, block_size = 128 : i64, threads = 128 : i64, tile = 32 : i64, tile_dim = 0 : i64, tiled = array<i64: 1>, variants = [{name = "tile", vector_width = 4 : i64, unroll = 2 : i64, index_bits = 32 : i64, tail = false, flat = false, conditions = []}]}}} {
  %0 = "fuser.add"(%a, %b) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  func.return %0 : tensor<64x64xf32>
}

// -----

// expected-error@+1 {{fuser.schedule (transpose): 'narrow' must be an array<i64> of tensor numbers}}
func.func private @narrow(%a: tensor<64x64xf32> {fuser.strides = array<i64: 64, 1>}, %b: tensor<64x64xf32> {fuser.strides = array<i64: 1, 64>}) -> (tensor<64x64xf32> {fuser.strides = array<i64: 64, 1>}) attributes {fuser.kernel, fuser.schedule = {transpose = {narrow = array<i64: -1>, block_size = 128 : i64, threads = 128 : i64, tile = 32 : i64, tile_dim = 0 : i64, tiled = array<i64: 1>, variants = [{name = "tile", vector_width = 4 : i64, unroll = 2 : i64, index_bits = 32 : i64, tail = false, flat = false, conditions = []}]}}} {
  %0 = "fuser.add"(%a, %b) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  func.return %0 : tensor<64x64xf32>
}

// -----

// The tile buffers live in a block's static shared memory (48 KiB; the CPU
// form puts them on the stack): a 256 x 256 f32 tile (256 KiB) is refused
// here, not by ptxas.
// expected-error@+1 {{fuser.schedule (transpose): the tile buffers take 262144 bytes (tile^2 x element size per tiled input); a block's static shared memory is 49152}}
func.func private @tile_bytes(%a: tensor<?x?xf32> {fuser.strides = array<i64: -9223372036854775808, 1>}, %b: tensor<?x?xf32> {fuser.strides = array<i64: 1, -9223372036854775808>}) -> (tensor<?x?xf32> {fuser.strides = array<i64: -9223372036854775808, 1>}) attributes {fuser.kernel, fuser.schedule = {transpose = {narrow = array<i64>, block_size = 1024 : i64, threads = 1024 : i64, tile = 256 : i64, tile_dim = 0 : i64, tiled = array<i64: 1>, variants = [{name = "tile", vector_width = 4 : i64, unroll = 16 : i64, index_bits = 32 : i64, tail = false, flat = false, conditions = []}]}}} {
  %0 = "fuser.add"(%a, %b) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  func.return %0 : tensor<?x?xf32>
}

// -----

// inner_outer (fuser-fuse-inner-outer's kernels) needs its row groups ...
// expected-error@+1 {{fuser.schedule (inner_outer): 'partials' (the row groups, a positive integer) is required by inner_outer and only there}}
func.func private @io_partials(%a: tensor<64x8xf32> {fuser.strides = array<i64: 8, 1>}) -> (tensor<64x8xf32> {fuser.strides = array<i64: 8, 1>}, tensor<4x8xf32> {fuser.strides = array<i64: 8, 1>}) attributes {fuser.kernel, fuser.schedule = {inner_outer = {outer_dims = 1 : i64, rows = 64 : i64, row_length = 8 : i64, variants = [{width = 1 : i64, vectors = 1 : i64, threads = 8 : i64, rows_per_block = 1 : i64}]}}} {
  %0 = "fuser.sum"(%a) {dims = array<i64: 1>, keepdim = false} : (tensor<64x8xf32>) -> tensor<64xf32>
  %1 = "fuser.broadcast_in_dim"(%0) {broadcast_dims = array<i64: 0>} : (tensor<64xf32>) -> tensor<64x8xf32>
  %2 = "fuser.sub"(%a, %1) : (tensor<64x8xf32>, tensor<64x8xf32>) -> tensor<64x8xf32>
  %3 = "fuser.reshape"(%a) : (tensor<64x8xf32>) -> tensor<4x16x8xf32>
  %4 = "fuser.sum"(%3) {dims = array<i64: 1>, keepdim = false} : (tensor<4x16x8xf32>) -> tensor<4x8xf32>
  func.return %2, %4 : tensor<64x8xf32>, tensor<4x8xf32>
}

// -----

// The same limit for two tiled inputs whose buffers fit alone (64 x 64 f64: 2 x 32 KiB).
// expected-error@+1 {{fuser.schedule (transpose): the tile buffers take 65536 bytes}}
func.func private @tile_bytes_two(%a: tensor<?x?xf64> {fuser.strides = array<i64: 1, -9223372036854775808>}, %b: tensor<?x?xf64> {fuser.strides = array<i64: 1, -9223372036854775808>}) -> (tensor<?x?xf64> {fuser.strides = array<i64: -9223372036854775808, 1>}) attributes {fuser.kernel, fuser.schedule = {transpose = {narrow = array<i64>, block_size = 512 : i64, threads = 512 : i64, tile = 64 : i64, tile_dim = 0 : i64, tiled = array<i64: 0, 1>, variants = [{name = "tile", vector_width = 2 : i64, unroll = 4 : i64, index_bits = 32 : i64, tail = false, flat = false, conditions = []}]}}} {
  %0 = "fuser.add"(%a, %b) : (tensor<?x?xf64>, tensor<?x?xf64>) -> tensor<?x?xf64>
  func.return %0 : tensor<?x?xf64>
}

// -----

// ... and persistent variants whose rows per block divide them.
// expected-error@+1 {{fuser.schedule (inner_outer): variant #0: inner_outer: a persistent variant (vectors > 0) whose rows per block divide 'partials'}}
func.func private @io_rows_per_block(%a: tensor<64x8xf32> {fuser.strides = array<i64: 8, 1>}) -> (tensor<64x8xf32> {fuser.strides = array<i64: 8, 1>}, tensor<4x8xf32> {fuser.strides = array<i64: 8, 1>}) attributes {fuser.kernel, fuser.schedule = {inner_outer = {outer_dims = 1 : i64, rows = 64 : i64, row_length = 8 : i64, partials = 4 : i64, variants = [{width = 1 : i64, vectors = 1 : i64, threads = 8 : i64, rows_per_block = 8 : i64}]}}} {
  %0 = "fuser.sum"(%a) {dims = array<i64: 1>, keepdim = false} : (tensor<64x8xf32>) -> tensor<64xf32>
  %1 = "fuser.broadcast_in_dim"(%0) {broadcast_dims = array<i64: 0>} : (tensor<64xf32>) -> tensor<64x8xf32>
  %2 = "fuser.sub"(%a, %1) : (tensor<64x8xf32>, tensor<64x8xf32>) -> tensor<64x8xf32>
  %3 = "fuser.reshape"(%a) : (tensor<64x8xf32>) -> tensor<4x16x8xf32>
  %4 = "fuser.sum"(%3) {dims = array<i64: 1>, keepdim = false} : (tensor<4x16x8xf32>) -> tensor<4x8xf32>
  func.return %2, %4 : tensor<64x8xf32>, tensor<4x8xf32>
}
