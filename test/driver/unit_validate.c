/* unit_validate.c: checking DLTensor inputs against an artifact's signature
 * (dtype, rank, static sizes, strides against contiguity and stride order,
 * broadcasts, device, scalars) and picking kernel variants by alignment,
 * through fuser_artifact_check_inputs, the check fuser_execute makes first. */
#include "example_artifact.h"
#include "unit.h"

#include <stdio.h>
#include <string.h>

static fuser_error err;

#define ALIGNED_A ((void *)(uintptr_t)0x7f0000001000)
#define ALIGNED_B ((void *)(uintptr_t)0x7f0000002000)

static void test_add_signature(void) {
  fuser_artifact *a = example_add_artifact(1, &err);
  CHECK(a != NULL);
  int64_t shape[2] = {8, 16}, shape_b[2] = {8, 16};
  DLTensor x = example_tensor(ALIGNED_A, 2, shape, NULL);
  DLTensor y = example_tensor(ALIGNED_B, 2, shape_b, NULL);
  fuser_arg args[3] = {fuser_arg_tensor(&x), fuser_arg_tensor(&y), fuser_arg_int(2)};
  int variants[1] = {-1};

  CHECK_EQ_INT(fuser_artifact_check_inputs(a, args, 3, variants, &err), FUSER_OK);
  CHECK_EQ_INT(variants[0], 0); /* aligned, inner size % 4 == 0: vectorized */
  CHECK_EQ_INT(err.code, FUSER_OK);

  /* explicit row-major strides are the same layout */
  int64_t strides[2] = {16, 1};
  x.strides = strides;
  CHECK_EQ_INT(fuser_artifact_check_inputs(a, args, 3, variants, &err), FUSER_OK);

  /* misaligned by one element through byte_offset: the scalar fallback */
  y.byte_offset = 4;
  CHECK_EQ_INT(fuser_artifact_check_inputs(a, args, 3, variants, &err), FUSER_OK);
  CHECK_EQ_INT(variants[0], 1);
  y.byte_offset = 16; /* aligned again */
  CHECK_EQ_INT(fuser_artifact_check_inputs(a, args, 3, variants, &err), FUSER_OK);
  CHECK_EQ_INT(variants[0], 0);
  y.byte_offset = 0;
  /* misaligned data pointer */
  x.data = (char *)ALIGNED_A + 8;
  CHECK_EQ_INT(fuser_artifact_check_inputs(a, args, 3, variants, &err), FUSER_OK);
  CHECK_EQ_INT(variants[0], 1);
  x.data = ALIGNED_A;
  /* inner size not a multiple of 4 */
  shape[1] = shape_b[1] = 10;
  strides[0] = 10;
  CHECK_EQ_INT(fuser_artifact_check_inputs(a, args, 3, variants, &err), FUSER_OK);
  CHECK_EQ_INT(variants[0], 1);
  shape[1] = shape_b[1] = 16;
  strides[0] = 16;

  /* wrong dtype */
  y.dtype.bits = 16;
  CHECK_EQ_INT(fuser_artifact_check_inputs(a, args, 3, variants, &err), FUSER_ERR_INPUT_MISMATCH);
  CHECK(unit_contains(err.message, "input 1 (T1): dtype float16, expected f32"));
  y.dtype.code = kDLBfloat;
  CHECK_EQ_INT(fuser_artifact_check_inputs(a, args, 3, variants, &err), FUSER_ERR_INPUT_MISMATCH);
  CHECK(unit_contains(err.message, "input 1 (T1): dtype bfloat16, expected f32"));
  y.dtype.code = kDLFloat, y.dtype.bits = 32, y.dtype.lanes = 4;
  CHECK_EQ_INT(fuser_artifact_check_inputs(a, args, 3, variants, &err), FUSER_ERR_INPUT_MISMATCH);
  CHECK(unit_contains(err.message, "dtype float32x4, expected f32"));
  y.dtype.lanes = 1;

  /* wrong rank */
  y.ndim = 1;
  CHECK_EQ_INT(fuser_artifact_check_inputs(a, args, 3, variants, &err), FUSER_ERR_INPUT_MISMATCH);
  CHECK(unit_contains(err.message, "input 1 (T1): rank 1, expected 2"));
  y.ndim = 2;

  /* wrong stride: a transposed view where row-major was compiled */
  int64_t tstrides[2] = {1, 8};
  x.strides = tstrides;
  CHECK_EQ_INT(fuser_artifact_check_inputs(a, args, 3, variants, &err), FUSER_ERR_INPUT_MISMATCH);
  CHECK(unit_contains(err.message, "input 0 (T0): stride 8 of dim 1, expected 1"));
  /* padded rows (stride 32 for 16 elements) break contiguity of dim 0 */
  int64_t padded[2] = {32, 1};
  x.strides = padded;
  CHECK_EQ_INT(fuser_artifact_check_inputs(a, args, 3, variants, &err), FUSER_ERR_INPUT_MISMATCH);
  CHECK(unit_contains(err.message, "input 0 (T0): stride 32 of dim 0, expected 16"));
  /* a size-1 dim may have any stride */
  shape[0] = shape_b[0] = 1;
  int64_t odd[2] = {12345, 1};
  x.strides = odd;
  CHECK_EQ_INT(fuser_artifact_check_inputs(a, args, 3, variants, &err), FUSER_OK);
  shape[0] = shape_b[0] = 8;
  /* an empty tensor is never checked for strides */
  shape[0] = shape_b[0] = 0;
  x.strides = tstrides;
  CHECK_EQ_INT(fuser_artifact_check_inputs(a, args, 3, variants, &err), FUSER_OK);
  shape[0] = shape_b[0] = 8;
  x.strides = NULL;

  /* device */
  y.device.device_type = kDLCPU;
  CHECK_EQ_INT(fuser_artifact_check_inputs(a, args, 3, variants, &err), FUSER_ERR_INPUT_MISMATCH);
  CHECK(unit_contains(err.message, "input 1 (T1): device type 1, expected kDLCUDA (2)"));
  y.device.device_type = kDLCUDA;
  /* NULL data with elements */
  y.data = NULL;
  CHECK_EQ_INT(fuser_artifact_check_inputs(a, args, 3, variants, &err), FUSER_ERR_INPUT_MISMATCH);
  CHECK(unit_contains(err.message, "input 1 (T1): NULL data for a non-empty tensor"));
  y.data = ALIGNED_B;
  /* negative size */
  shape_b[0] = -2;
  CHECK_EQ_INT(fuser_artifact_check_inputs(a, args, 3, variants, &err), FUSER_ERR_INPUT_MISMATCH);
  CHECK(unit_contains(err.message, "input 1 (T1): negative size -2 of dim 0"));
  shape_b[0] = 8;

  /* argument kinds and counts */
  args[2] = fuser_arg_double(2.0);
  CHECK_EQ_INT(fuser_artifact_check_inputs(a, args, 3, variants, &err), FUSER_ERR_INPUT_MISMATCH);
  CHECK(unit_contains(err.message, "input 2 (S2): i64 scalar given a double"));
  args[2] = fuser_arg_tensor(&x);
  CHECK_EQ_INT(fuser_artifact_check_inputs(a, args, 3, variants, &err), FUSER_ERR_INPUT_MISMATCH);
  CHECK(unit_contains(err.message, "input 2 (S2): expected a i64 scalar, got a tensor"));
  args[2] = fuser_arg_int(2);
  args[1] = fuser_arg_int(2);
  CHECK_EQ_INT(fuser_artifact_check_inputs(a, args, 3, variants, &err), FUSER_ERR_INPUT_MISMATCH);
  CHECK(unit_contains(err.message, "input 1 (T1): expected a tensor, got a scalar"));
  args[1] = fuser_arg_tensor(&y);
  CHECK_EQ_INT(fuser_artifact_check_inputs(a, args, 2, variants, &err), FUSER_ERR_INVALID_ARGUMENT);
  CHECK(unit_contains(err.message, "2 arguments given, the fusion takes 3"));
  args[1] = fuser_arg_tensor(NULL);
  CHECK_EQ_INT(fuser_artifact_check_inputs(a, args, 3, variants, &err), FUSER_ERR_INPUT_MISMATCH);
  CHECK(unit_contains(err.message, "input 1 (T1): NULL DLTensor"));
  fuser_artifact_release(a);
}

/* Without a scalar fallback a misaligned input is an error, never a launch. */
static void test_no_fallback(void) {
  fuser_artifact *a = example_add_artifact(0, NULL);
  int64_t shape[2] = {8, 16};
  DLTensor x = example_tensor(ALIGNED_A, 2, shape, NULL);
  DLTensor y = example_tensor(ALIGNED_B, 2, shape, NULL);
  fuser_arg args[3] = {fuser_arg_tensor(&x), fuser_arg_tensor(&y), fuser_arg_int(0)};
  int variants[1] = {-1};
  CHECK_EQ_INT(fuser_artifact_check_inputs(a, args, 3, variants, &err), FUSER_OK);
  y.byte_offset = 4;
  CHECK_EQ_INT(fuser_artifact_check_inputs(a, args, 3, variants, NULL), FUSER_ERR_NO_VARIANT);
  CHECK_EQ_INT(fuser_artifact_check_inputs(a, args, 3, variants, &err), FUSER_ERR_NO_VARIANT);
  CHECK(unit_contains(err.message, "kernel 0 (add): no variant applies to these inputs; the last, add_vec4, needs "
                              "`(addr(1) % 16) == 0`, which is false"));
  fuser_artifact_release(a);
}

/* nvFuser layouts: a stride_order permutation, False and None contiguity,
 * static sizes, expanded broadcasts. Input: logical [B, H, S, D] with
 * stride_order [3, 1, 2, 0] => allocation order (B, S, H, D), D innermost;
 * contiguity in allocation order [True, False, True, True]: B contiguous
 * with S, S free, H contiguous with D. Second input: [-1, 1(None), 16]
 * expanded broadcast on dim 1 given as size 5 with stride 0. */
static void test_nvfuser_layouts(void) {
  fuser_builder *b = fuser_builder_create();
  int m = fuser_builder_add_module(b, FUSER_MODULE_PTX, example_ptx, strlen(example_ptx));
  int64_t sizes[4] = {-1, -1, -1, 64}, contig[4] = {1, 0, 1, 1}, order[4] = {3, 1, 2, 0};
  fuser_builder_add_tensor_input(b, "T0", FUSER_TYPE_BF16, 4, sizes, contig, order);
  int64_t sizes1[3] = {-1, -1, 16}, contig1[3] = {1, -1, 1};
  fuser_builder_add_tensor_input(b, "T1", FUSER_TYPE_F32, 3, sizes1, contig1, NULL);
  int k = fuser_builder_add_kernel(b, "k");
  fuser_builder_param_pointer(b, k, FUSER_BUFFER_INPUT, 0, "0");
  fuser_builder_param_value(b, k, FUSER_PARAM_I64, "stride(0, 2)");
  fuser_builder_add_variant(b, k, m, "k", "ceildiv(size(0, 0) * size(0, 1) * size(0, 2), 128)", 128, 0, NULL);
  fuser_artifact *a;
  CHECK_EQ_INT(fuser_builder_finish(b, &a, &err), FUSER_OK);
  if (!a) {
    fprintf(stderr, "%s\n", err.message);
    return;
  }
  /* B=2, H=4, S=10, D=64 stored as (B, S, H, D) with each S row padded by
   * 8 elements (S is False: any stride), B dense over S */
  int64_t shape[4] = {2, 4, 10, 64};
  int64_t strides[4] = {264 * 10, 64, 264, 1};
  DLTensor x = example_tensor(ALIGNED_A, 4, shape, strides);
  x.dtype.code = kDLBfloat, x.dtype.bits = 16;
  int64_t shape1[3] = {3, 5, 16}, strides1[3] = {16, 0, 1};
  DLTensor y = example_tensor(ALIGNED_B, 3, shape1, strides1);
  fuser_arg args[2] = {fuser_arg_tensor(&x), fuser_arg_tensor(&y)};
  CHECK_EQ_INT(fuser_artifact_check_inputs(a, args, 2, NULL, &err), FUSER_OK);
  if (err.code) fprintf(stderr, "%s\n", err.message);
  /* B must be contiguous with S: stride(B) == stride(S) * S */
  strides[0] = 264 * 12;
  CHECK_EQ_INT(fuser_artifact_check_inputs(a, args, 2, NULL, &err), FUSER_ERR_INPUT_MISMATCH);
  CHECK(unit_contains(err.message, "input 0 (T0): stride 3168 of dim 0, expected 2640"));
  strides[0] = 264 * 10;
  /* H contiguous with D: stride(H) must be 64 */
  strides[1] = 128;
  CHECK_EQ_INT(fuser_artifact_check_inputs(a, args, 2, NULL, &err), FUSER_ERR_INPUT_MISMATCH);
  CHECK(unit_contains(err.message, "input 0 (T0): stride 128 of dim 1, expected 64"));
  strides[1] = 64;
  /* static size of D */
  shape[3] = 32;
  CHECK_EQ_INT(fuser_artifact_check_inputs(a, args, 2, NULL, &err), FUSER_ERR_INPUT_MISMATCH);
  CHECK(unit_contains(err.message, "input 0 (T0): size 32 of dim 3, compiled for 64"));
  shape[3] = 64;
  /* row-major strides for the same sizes are the wrong layout */
  int64_t row_major[4] = {4 * 10 * 64, 10 * 64, 64, 1};
  x.strides = row_major;
  CHECK_EQ_INT(fuser_artifact_check_inputs(a, args, 2, NULL, &err), FUSER_ERR_INPUT_MISMATCH);
  CHECK(unit_contains(err.message, "input 0 (T0): stride 640 of dim 1, expected 64"));
  x.strides = strides;
  /* the broadcast dim must have stride 0 when its size is not 1 */
  strides1[1] = 16;
  CHECK_EQ_INT(fuser_artifact_check_inputs(a, args, 2, NULL, &err), FUSER_ERR_INPUT_MISMATCH);
  CHECK(unit_contains(err.message, "input 1 (T1): dim 1 is a broadcast (contiguity None) but has size 5 and stride 16"));
  shape1[1] = 1; /* a plain broadcast of size 1: any stride */
  CHECK_EQ_INT(fuser_artifact_check_inputs(a, args, 2, NULL, &err), FUSER_OK);
  fuser_artifact_release(a);
}

static void test_scalars(void) {
  fuser_builder *b = fuser_builder_create();
  int m = fuser_builder_add_module(b, FUSER_MODULE_PTX, example_ptx, strlen(example_ptx));
  fuser_builder_add_scalar_input(b, "flag", FUSER_TYPE_BOOL);
  fuser_builder_add_scalar_input(b, "n", FUSER_TYPE_I32);
  fuser_builder_add_scalar_input(b, "alpha", FUSER_TYPE_F64);
  int k = fuser_builder_add_kernel(b, "k");
  fuser_builder_param_scalar(b, k, FUSER_PARAM_F32, 2);
  const char *cond[1] = {"scalar(0)"};
  fuser_builder_add_variant(b, k, m, "k_flag", "scalar(1)", 32, 1, cond);
  fuser_builder_add_variant(b, k, m, "k_plain", "scalar(1)", 32, 0, NULL);
  fuser_artifact *a;
  CHECK_EQ_INT(fuser_builder_finish(b, &a, &err), FUSER_OK);
  fuser_arg args[3] = {fuser_arg_int(1), fuser_arg_int(5), fuser_arg_double(0.5)};
  int v = -1;
  CHECK_EQ_INT(fuser_artifact_check_inputs(a, args, 3, &v, &err), FUSER_OK);
  CHECK_EQ_INT(v, 0);
  args[0] = fuser_arg_int(0);
  CHECK_EQ_INT(fuser_artifact_check_inputs(a, args, 3, &v, &err), FUSER_OK);
  CHECK_EQ_INT(v, 1); /* a scalar condition picks the variant */
  args[2] = fuser_arg_int(3); /* an integer for a floating scalar converts */
  CHECK_EQ_INT(fuser_artifact_check_inputs(a, args, 3, &v, &err), FUSER_OK);
  args[0] = fuser_arg_int(2);
  CHECK_EQ_INT(fuser_artifact_check_inputs(a, args, 3, &v, &err), FUSER_ERR_INPUT_MISMATCH);
  CHECK(unit_contains(err.message, "input 0 (flag): bool scalar given 2 (expected 0 or 1)"));
  args[0] = fuser_arg_int(1);
  args[1] = fuser_arg_int(INT64_C(1) << 40);
  CHECK_EQ_INT(fuser_artifact_check_inputs(a, args, 3, &v, &err), FUSER_ERR_INPUT_MISMATCH);
  CHECK(unit_contains(err.message, "input 1 (n): i32 scalar given 1099511627776, out of range"));
  fuser_artifact_release(a);
}

/* A condition that cannot be evaluated is an error that names it. */
static void test_condition_error(void) {
  fuser_builder *b = fuser_builder_create();
  int m = fuser_builder_add_module(b, FUSER_MODULE_PTX, example_ptx, strlen(example_ptx));
  fuser_builder_add_scalar_input(b, "n", FUSER_TYPE_I64);
  int k = fuser_builder_add_kernel(b, "k");
  const char *cond[1] = {"16 % scalar(0) == 0"};
  fuser_builder_add_variant(b, k, m, "k", "1", 32, 1, cond);
  fuser_artifact *a;
  CHECK_EQ_INT(fuser_builder_finish(b, &a, &err), FUSER_OK);
  fuser_arg args[1] = {fuser_arg_int(0)};
  CHECK_EQ_INT(fuser_artifact_check_inputs(a, args, 1, NULL, NULL), FUSER_ERR_EXPRESSION);
  CHECK_EQ_INT(fuser_artifact_check_inputs(a, args, 1, NULL, &err), FUSER_ERR_EXPRESSION);
  CHECK(unit_contains(err.message, "kernel 0 (k) variant 0 condition 0: `(16 % scalar(0)) == 0`: division by zero"));
  fuser_artifact_release(a);
}

/* The builder sequence of docs/runtime.md (bf16 add, v8 and v1 variants). */
static void test_doc_example(void) {
  fuser_builder *b = fuser_builder_create();
  int m = fuser_builder_add_module(b, FUSER_MODULE_PTX, example_ptx, strlen(example_ptx));
  int64_t sizes[2] = {-1, -1}, contig[2] = {1, 1}, order[2] = {1, 0};
  fuser_builder_add_tensor_input(b, "T0", FUSER_TYPE_BF16, 2, sizes, contig, order);
  fuser_builder_add_tensor_input(b, "T1", FUSER_TYPE_BF16, 2, sizes, contig, order);
  const char *osz[2] = {"size(0, 0)", "size(0, 1)"};
  fuser_builder_add_output(b, FUSER_TYPE_F32, 2, osz, order);
  int k = fuser_builder_add_kernel(b, "add");
  fuser_builder_param_pointer(b, k, FUSER_BUFFER_INPUT, 0, "0");
  fuser_builder_param_pointer(b, k, FUSER_BUFFER_INPUT, 1, "0");
  fuser_builder_param_pointer(b, k, FUSER_BUFFER_OUTPUT, 0, "0");
  fuser_builder_param_value(b, k, FUSER_PARAM_I64, "size(0, 0) * size(0, 1)");
  const char *vec[3] = {"addr(0) % 16 == 0", "addr(1) % 16 == 0", "(size(0, 0) * size(0, 1)) % 8 == 0"};
  fuser_builder_add_variant(b, k, m, "add_v8", "ceildiv(size(0, 0) * size(0, 1), 8 * 256)", 256, 3, vec);
  fuser_builder_add_variant(b, k, m, "add_v1", "ceildiv(size(0, 0) * size(0, 1), 256)", 256, 0, NULL);
  fuser_artifact *a;
  CHECK_EQ_INT(fuser_builder_finish(b, &a, &err), FUSER_OK);
  if (!a) return;
  int64_t shape[2] = {3, 8};
  DLTensor x = example_tensor(ALIGNED_A, 2, shape, NULL), y = example_tensor(ALIGNED_B, 2, shape, NULL);
  x.dtype.code = y.dtype.code = kDLBfloat;
  x.dtype.bits = y.dtype.bits = 16;
  fuser_arg args[2] = {fuser_arg_tensor(&x), fuser_arg_tensor(&y)};
  int v = -1;
  CHECK_EQ_INT(fuser_artifact_check_inputs(a, args, 2, &v, &err), FUSER_OK);
  CHECK_EQ_INT(v, 0);
  y.byte_offset = 2; /* one bf16 off */
  CHECK_EQ_INT(fuser_artifact_check_inputs(a, args, 2, &v, &err), FUSER_OK);
  CHECK_EQ_INT(v, 1);
  fuser_artifact_release(a);
}

/* Issue 17, G1: a tensor must lie in memory a kernel can address: its first
 * element aligned to the element size, no stride of a stepped dim negative,
 * and no byte of its span past 2^64 (each was accepted, and each is a fault
 * on a real GPU). The outer dim is contiguity False, so its stride is free. */
static void test_storage(void) {
  fuser_builder *b = fuser_builder_create();
  int m = fuser_builder_add_module(b, FUSER_MODULE_PTX, example_ptx, strlen(example_ptx));
  int64_t sizes[2] = {-1, -1}, contig[2] = {0, 1}, order[2] = {1, 0};
  fuser_builder_add_tensor_input(b, "T0", FUSER_TYPE_F32, 2, sizes, contig, order);
  const char *osz[2] = {"size(0, 0)", "size(0, 1)"};
  fuser_builder_add_output(b, FUSER_TYPE_F32, 2, osz, order);
  int k = fuser_builder_add_kernel(b, "neg");
  fuser_builder_param_pointer(b, k, FUSER_BUFFER_INPUT, 0, "0");
  fuser_builder_param_pointer(b, k, FUSER_BUFFER_OUTPUT, 0, "0");
  fuser_builder_add_variant(b, k, m, "add_v1", "1", 256, 0, NULL);
  fuser_artifact *a;
  CHECK_EQ_INT(fuser_builder_finish(b, &a, &err), FUSER_OK);
  if (!a) return;
  int64_t shape[2] = {8, 16}, strides[2] = {16, 1};
  DLTensor x = example_tensor(ALIGNED_A, 2, shape, strides);
  fuser_arg args[1] = {fuser_arg_tensor(&x)};
  CHECK_EQ_INT(fuser_artifact_check_inputs(a, args, 1, NULL, &err), FUSER_OK);
  struct {
    uintptr_t data;
    uint64_t byte_offset;
    int64_t stride0;
    const char *why;
  } bad[] = {
      {0x7f0000001001, 0, 16, "is not aligned to the 4-byte element size"},
      {0x7f0000001000, 2, 16, "is not aligned to the 4-byte element size"},
      {0x7f0000001000, UINT64_C(1) << 63, 16, "wraps past the address space"},
      {UINT64_C(0xfffffffffffffff0), 0x20, 16, "wraps past the address space"},
      {UINT64_C(0xffffffffffffff00), 0, 16, "the 128 elements the view spans wrap past the address space"},
      {0x7f0000001000, 0, -16, "negative stride -16 of dim 0"},
      {0x7f0000001000, 0, INT64_MIN, "negative stride"},
      {0x7f0000001000, 0, INT64_C(1) << 62, "sizes and strides reach past 2^63 elements"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    x.data = (void *)bad[i].data;
    x.byte_offset = bad[i].byte_offset;
    strides[0] = bad[i].stride0;
    CHECK_EQ_INT(fuser_artifact_check_inputs(a, args, 1, NULL, &err), FUSER_ERR_INPUT_MISMATCH);
    CHECK(unit_contains(err.message, bad[i].why));
  }
  /* a size-1 dim is never stepped: any stride, even negative */
  x.data = ALIGNED_A, x.byte_offset = 0, shape[0] = 1, strides[0] = -5;
  CHECK_EQ_INT(fuser_artifact_check_inputs(a, args, 1, NULL, &err), FUSER_OK);
  fuser_artifact_release(a);
}

int main(void) {
  test_storage();
  test_doc_example();
  test_add_signature();
  test_no_fallback();
  test_nvfuser_layouts();
  test_scalars();
  test_condition_error();
  UNIT_MAIN_END();
}
