/* unit_matmul.c: the runtime's matmul kernels (artifact_builder.h,
 * fuser_builder_add_matmul; driver/cublaslt.c) on CPU, against
 * test/driver/fake_cuda.c and test/driver/fake_cublaslt.c, which computes
 * the column-major product cuBLASLt would from the layouts, transposes,
 * batch strides and bias it is given. So the results here check the
 * row-major to column-major mapping (D^T = B^T A^T), transposed operands,
 * strided and looped batches, the bias epilogue, the plan cache, the
 * workspace, the file format's version 2, and the errors: extents that
 * disagree, operands cuBLASLt cannot read, no algorithm, a failing matmul.
 *   unit_driver_matmul FAKE_LIBCUDA FAKE_LIBCUBLASLT
 *   unit_driver_matmul FAKE_LIBCUDA missing   (no cuBLASLt: only fusions with a matmul fail) */
#include "example_artifact.h"
#include "fake_cublaslt.h"
#include "fake_cuda_open.h"
#include "unit.h"

#include "driver/half.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static fake_state *fake;
static fake_lt_state *lt;
static fuser_runtime *rt;
static fuser_error err;
#define STREAM ((void *)(uintptr_t)0x5157)

static fuser_artifact *finish(fuser_builder *b) {
  fuser_artifact *a = NULL;
  if (fuser_builder_finish(b, &a, &err) != FUSER_OK) fprintf(stderr, "finish: %s\n", err.message);
  return a;
}

static void values(fuser_builder *b, int k, const char *const *v, int n) {
  for (int i = 0; i < n; i++) fuser_builder_param_value(b, k, FUSER_PARAM_I64, v[i]);
}

/* out[M, N] = A[M, K] @ B[K, N] (linear: @ B[N, K]^T, + bias[N]); B's
 * allocation order b_order (NULL row-major). */
static fuser_artifact *matmul_2d(int dtype, int linear, int bias, const int64_t *b_order) {
  fuser_builder *b = fuser_builder_create();
  int64_t sz[2] = {-1, -1}, contig[2] = {1, 1};
  fuser_builder_add_tensor_input(b, "A", dtype, 2, sz, contig, NULL);
  fuser_builder_add_tensor_input(b, "B", dtype, 2, sz, contig, b_order);
  if (bias) fuser_builder_add_tensor_input(b, "bias", dtype, 1, sz, contig, NULL);
  const char *n = linear ? "size(1, 0)" : "size(1, 1)";
  const char *osz[2] = {"size(0, 0)", n};
  fuser_builder_add_output(b, dtype, 2, osz, NULL);
  const char *checks[2] = {linear ? "size(0, 1) == size(1, 1)" : "size(0, 1) == size(1, 0)", "size(2, 0) == size(1, 0)"};
  int k = fuser_builder_add_matmul(b, "mm", dtype, 0, bias, 1 + bias, checks);
  fuser_builder_param_pointer(b, k, FUSER_BUFFER_INPUT, 0, "0");
  fuser_builder_param_pointer(b, k, FUSER_BUFFER_INPUT, 1, "0");
  fuser_builder_param_pointer(b, k, FUSER_BUFFER_OUTPUT, 0, "0");
  const char *v[10] = {"size(0, 0)", n, "size(0, 1)", "stride(0, 0)", "stride(0, 1)",
                       linear ? "stride(1, 1)" : "stride(1, 0)", linear ? "stride(1, 0)" : "stride(1, 1)",
                       n, "1", bias ? "stride(2, 0)" : "0"};
  values(b, k, v, 10);
  if (bias) fuser_builder_param_pointer(b, k, FUSER_BUFFER_INPUT, 2, "0");
  return finish(b);
}

/* Small integers: every product and sum is exact in f32 and bf16. */
static float value(int i, int salt) { return (float)((i * 7 + salt * 3) % 5 - 2); }

static void fill(float *x, int64_t n, int salt) {
  for (int64_t i = 0; i < n; i++) x[i] = value((int)i, salt);
}

static float xa[4096] __attribute__((aligned(256))), xb[4096] __attribute__((aligned(256)));
static uint16_t ha[4096] __attribute__((aligned(256))), hb[4096] __attribute__((aligned(256))), hbias[64];

static fuser_output out[1];

static int run(fuser_artifact *a, fuser_arg *args, size_t nargs) {
  fuser_function *fn = NULL;
  int rc = fuser_load(rt, a, &fn, &err);
  if (rc) return rc;
  rc = fuser_execute(fn, args, nargs, out, 1, &err);
  fuser_function_destroy(fn);
  return rc;
}

/* [M, K] @ [K, N] in f32, B row-major then column-major (read transposed
 * through its layout); the second call of a shape reuses the plan. */
static void test_2d(void) {
  const int64_t M = 5, K = 7, N = 3;
  fill(xa, M * K, 1);
  fill(xb, K * N, 2);
  for (int col = 0; col < 2; col++) {
    int64_t order[2] = {0, 1};
    fuser_artifact *a = matmul_2d(FUSER_TYPE_F32, 0, 0, col ? order : NULL);
    CHECK(a != NULL);
    if (!a) return;
    int64_t sa[2] = {M, K}, sb[2] = {K, N}, stb[2] = {1, K};
    DLTensor ta = example_tensor(xa, 2, sa, NULL), tb = example_tensor(xb, 2, sb, col ? stb : NULL);
    fuser_arg args[2] = {fuser_arg_tensor(&ta), fuser_arg_tensor(&tb)};
    int heuristics = lt->heuristics, matmuls = lt->matmuls;
    for (int call = 0; call < 2; call++) {
      CHECK_EQ_INT(run(a, args, 2), FUSER_OK);
      const float *d = out[0].tensor.data;
      int wrong = 0;
      for (int64_t i = 0; i < M; i++)
        for (int64_t j = 0; j < N; j++) {
          float want = 0;
          for (int64_t l = 0; l < K; l++) want += xa[i * K + l] * (col ? xb[j * K + l] : xb[l * N + j]);
          wrong += d[i * N + j] != want;
        }
      CHECK_EQ_INT(wrong, 0);
      fuser_output_release(rt, &out[0]);
    }
    CHECK_EQ_INT(lt->matmuls, matmuls + 2);
    CHECK_EQ_INT(lt->heuristics, heuristics + 1); /* cached per shape */
    /* D^T = B^T A^T: cuBLASLt's A is our B ([N, K] column-major: B row-major
     * read as is, B column-major read transposed), its D [N, M] */
    CHECK_EQ_INT(lt->transa, col ? 1 : 0);
    CHECK_EQ_INT(lt->transb, 0);
    CHECK_EQ_INT(lt->rows[2], N);
    CHECK_EQ_INT(lt->cols[2], M);
    CHECK_EQ_INT(lt->ld[2], N);
    CHECK(lt->stream == STREAM);
    CHECK(lt->workspace != NULL);
    CHECK_EQ_INT(lt->workspace_bytes, 4096);
    CHECK_EQ_INT(lt->align[0], 256);
    fuser_artifact_release(a);
  }
  CHECK_EQ_INT(fake->allocs, fake->frees); /* outputs and workspaces went back */
}

/* linear in bf16: A [M, K] @ W[N, K]^T + bias[N], the bias epilogue. */
static void test_linear_bias(void) {
  const int64_t M = 4, K = 8, N = 6;
  for (int64_t i = 0; i < M * K; i++) ha[i] = fuser_f32_to_bf16(value((int)i, 3));
  for (int64_t i = 0; i < N * K; i++) hb[i] = fuser_f32_to_bf16(value((int)i, 4));
  for (int64_t i = 0; i < N; i++) hbias[i] = fuser_f32_to_bf16((float)i - 2.5f);
  fuser_artifact *a = matmul_2d(FUSER_TYPE_BF16, 1, 1, NULL);
  CHECK(a != NULL);
  if (!a) return;
  int64_t sa[2] = {M, K}, sw[2] = {N, K}, sbias[1] = {N};
  DLTensor ta = example_tensor(ha, 2, sa, NULL), tw = example_tensor(hb, 2, sw, NULL),
           tbias = example_tensor(hbias, 1, sbias, NULL);
  ta.dtype.code = tw.dtype.code = tbias.dtype.code = kDLBfloat;
  ta.dtype.bits = tw.dtype.bits = tbias.dtype.bits = 16;
  fuser_arg args[3] = {fuser_arg_tensor(&ta), fuser_arg_tensor(&tw), fuser_arg_tensor(&tbias)};
  CHECK_EQ_INT(run(a, args, 3), FUSER_OK);
  const uint16_t *d = out[0].tensor.data;
  int wrong = 0;
  for (int64_t i = 0; i < M; i++)
    for (int64_t j = 0; j < N; j++) {
      float want = fuser_bf16_to_f32(hbias[j]);
      for (int64_t l = 0; l < K; l++) want += fuser_bf16_to_f32(ha[i * K + l]) * fuser_bf16_to_f32(hb[j * K + l]);
      wrong += d[i * N + j] != fuser_f32_to_bf16(want);
    }
  CHECK_EQ_INT(wrong, 0);
  CHECK_EQ_INT(lt->epilogue, 4); /* CUBLASLT_EPILOGUE_BIAS */
  CHECK_EQ_INT(lt->transa, 1);   /* W [N, K] row-major is [K, N] column-major: read transposed */
  fuser_output_release(rt, &out[0]);
  fuser_artifact_release(a);
}

/* [P, Q, M, K] @ [K, N] with A's batch dims stored Q-major: they do not
 * nest, so Q is cuBLASLt's strided batch and P a loop of calls; B is
 * shared by every batch (batch stride 0). */
static void test_batches(void) {
  const int64_t P = 2, Q = 3, M = 4, K = 5, N = 6;
  fuser_builder *b = fuser_builder_create();
  int64_t sz[4] = {-1, -1, -1, -1}, contig[4] = {1, 1, 1, 1}, order[4] = {2, 3, 1, 0};
  fuser_builder_add_tensor_input(b, "A", FUSER_TYPE_F32, 4, sz, contig, order);
  fuser_builder_add_tensor_input(b, "B", FUSER_TYPE_F32, 2, sz, contig, NULL);
  const char *osz[4] = {"size(0, 0)", "size(0, 1)", "size(0, 2)", "size(1, 1)"};
  fuser_builder_add_output(b, FUSER_TYPE_F32, 4, osz, NULL);
  const char *check[1] = {"size(0, 3) == size(1, 0)"};
  int k = fuser_builder_add_matmul(b, "batched", FUSER_TYPE_F32, 2, 0, 1, check);
  fuser_builder_param_pointer(b, k, FUSER_BUFFER_INPUT, 0, "0");
  fuser_builder_param_pointer(b, k, FUSER_BUFFER_INPUT, 1, "0");
  fuser_builder_param_pointer(b, k, FUSER_BUFFER_OUTPUT, 0, "0");
  const char *v[18] = {"size(0, 2)", "size(1, 1)", "size(0, 3)", "stride(0, 2)", "stride(0, 3)", "stride(1, 0)",
                       "stride(1, 1)", "size(1, 1)", "1", "0",
                       /* P */ "size(0, 0)", "stride(0, 0)", "0", "size(0, 1) * size(0, 2) * size(1, 1)",
                       /* Q */ "size(0, 1)", "stride(0, 1)", "0", "size(0, 2) * size(1, 1)"};
  values(b, k, v, 18);
  fuser_artifact *a = finish(b);
  CHECK(a != NULL);
  if (!a) return;
  fill(xa, P * Q * M * K, 5);
  fill(xb, K * N, 6);
  int64_t sa[4] = {P, Q, M, K}, sta[4] = {M * K, P * M * K, K, 1}, sb[2] = {K, N};
  DLTensor ta = example_tensor(xa, 4, sa, sta), tb = example_tensor(xb, 2, sb, NULL);
  fuser_arg args[2] = {fuser_arg_tensor(&ta), fuser_arg_tensor(&tb)};
  int matmuls = lt->matmuls;
  CHECK_EQ_INT(run(a, args, 2), FUSER_OK);
  CHECK_EQ_INT(lt->matmuls, matmuls + 2); /* the loop over P */
  CHECK_EQ_INT(lt->count, 3);            /* Q in one call */
  const float *d = out[0].tensor.data;
  int wrong = 0;
  for (int64_t p = 0; p < P; p++)
    for (int64_t q = 0; q < Q; q++)
      for (int64_t i = 0; i < M; i++)
        for (int64_t j = 0; j < N; j++) {
          float want = 0;
          for (int64_t l = 0; l < K; l++) want += xa[p * sta[0] + q * sta[1] + i * K + l] * xb[l * N + j];
          wrong += d[((p * Q + q) * M + i) * N + j] != want;
        }
  CHECK_EQ_INT(wrong, 0);
  fuser_output_release(rt, &out[0]);
  fuser_artifact_release(a);
}

/* [B, M, K] @ [K, N] with A row-major and B shared: the batch nests with
 * M in A and D, so it is one [B*M, K] @ [K, N] product, not a batch. */
static void test_fold(void) {
  const int64_t B = 3, M = 4, K = 5, N = 6;
  fuser_builder *b = fuser_builder_create();
  int64_t sz[3] = {-1, -1, -1}, contig[3] = {1, 1, 1};
  fuser_builder_add_tensor_input(b, "A", FUSER_TYPE_F32, 3, sz, contig, NULL);
  fuser_builder_add_tensor_input(b, "B", FUSER_TYPE_F32, 2, sz, contig, NULL);
  const char *osz[3] = {"size(0, 0)", "size(0, 1)", "size(1, 1)"};
  fuser_builder_add_output(b, FUSER_TYPE_F32, 3, osz, NULL);
  int k = fuser_builder_add_matmul(b, "folded", FUSER_TYPE_F32, 1, 0, 0, NULL);
  fuser_builder_param_pointer(b, k, FUSER_BUFFER_INPUT, 0, "0");
  fuser_builder_param_pointer(b, k, FUSER_BUFFER_INPUT, 1, "0");
  fuser_builder_param_pointer(b, k, FUSER_BUFFER_OUTPUT, 0, "0");
  const char *v[14] = {"size(0, 1)", "size(1, 1)", "size(0, 2)", "stride(0, 1)", "stride(0, 2)", "stride(1, 0)",
                       "stride(1, 1)", "size(1, 1)", "1", "0",
                       "size(0, 0)", "stride(0, 0)", "0", "size(0, 1) * size(1, 1)"};
  values(b, k, v, 14);
  fuser_artifact *a = finish(b);
  CHECK(a != NULL);
  if (!a) return;
  fill(xa, B * M * K, 7);
  fill(xb, K * N, 8);
  int64_t sa[3] = {B, M, K}, sb[2] = {K, N};
  DLTensor ta = example_tensor(xa, 3, sa, NULL), tb = example_tensor(xb, 2, sb, NULL);
  fuser_arg args[2] = {fuser_arg_tensor(&ta), fuser_arg_tensor(&tb)};
  int matmuls = lt->matmuls;
  CHECK_EQ_INT(run(a, args, 2), FUSER_OK);
  CHECK_EQ_INT(lt->matmuls, matmuls + 1);
  CHECK_EQ_INT(lt->count, 1);
  CHECK_EQ_INT(lt->cols[2], B * M);
  const float *d = out[0].tensor.data;
  int wrong = 0;
  for (int64_t i = 0; i < B * M; i++)
    for (int64_t j = 0; j < N; j++) {
      float want = 0;
      for (int64_t l = 0; l < K; l++) want += xa[i * K + l] * xb[l * N + j];
      wrong += d[i * N + j] != want;
    }
  CHECK_EQ_INT(wrong, 0);
  fuser_output_release(rt, &out[0]);
  fuser_artifact_release(a);
}

/* Errors: extents that disagree (nothing run), an operand with no unit
 * stride, no algorithm, a failing matmul; none leaves memory allocated. */
static void test_errors(void) {
  fuser_artifact *a = matmul_2d(FUSER_TYPE_F32, 0, 0, NULL);
  CHECK(a != NULL);
  if (!a) return;
  int64_t sa[2] = {4, 6}, sb[2] = {5, 3};
  DLTensor ta = example_tensor(xa, 2, sa, NULL), tb = example_tensor(xb, 2, sb, NULL);
  fuser_arg args[2] = {fuser_arg_tensor(&ta), fuser_arg_tensor(&tb)};
  int matmuls = lt->matmuls;
  CHECK_EQ_INT(run(a, args, 2), FUSER_ERR_INPUT_MISMATCH);
  CHECK(unit_contains(err.message, "A"));
  CHECK_EQ_INT(lt->matmuls, matmuls);

  int64_t sb2[2] = {6, 3}, strided[2] = {12, 2}; /* A with no unit stride */
  DLTensor tb2 = example_tensor(xb, 2, sb2, NULL), ta2 = example_tensor(xa, 2, sa, strided);
  fuser_arg args2[2] = {fuser_arg_tensor(&ta2), fuser_arg_tensor(&tb2)};
  /* the artifact says A is contiguous: an input mismatch before any matmul */
  CHECK_EQ_INT(run(a, args2, 2), FUSER_ERR_INPUT_MISMATCH);
  args2[0] = fuser_arg_tensor(&ta);
  lt->no_algorithm = 1;
  int64_t sa3[2] = {9, 6};
  DLTensor ta3 = example_tensor(xa, 2, sa3, NULL); /* a new shape: a new heuristic query */
  args2[0] = fuser_arg_tensor(&ta3);
  CHECK_EQ_INT(run(a, args2, 2), FUSER_ERR_UNSUPPORTED);
  CHECK(unit_contains(err.message, "matmul kernel mm: cuBLASLt has no algorithm for f32 9x3x6"));
  lt->no_algorithm = 0;
  lt->fail_matmul = 1;
  CHECK_EQ_INT(run(a, args2, 2), FUSER_ERR_CUDA);
  CHECK(unit_contains(err.message, "matmul kernel mm: cublasLtMatmul failed: CUBLAS_STATUS_FAKE (13)"));
  lt->fail_matmul = 0;
  CHECK_EQ_INT(fake->allocs, fake->frees);
  fuser_artifact_release(a);

  /* a transposed-and-strided operand the runtime cannot express: A [M, K]
   * declared with unknown contiguity, given with strides (2K, 2) */
  fuser_builder *b = fuser_builder_create();
  int64_t sz[2] = {-1, -1}, none[2] = {0, 0}, contig[2] = {1, 1};
  fuser_builder_add_tensor_input(b, "A", FUSER_TYPE_F32, 2, sz, none, NULL);
  fuser_builder_add_tensor_input(b, "B", FUSER_TYPE_F32, 2, sz, contig, NULL);
  const char *osz[2] = {"size(0, 0)", "size(1, 1)"};
  fuser_builder_add_output(b, FUSER_TYPE_F32, 2, osz, NULL);
  int k = fuser_builder_add_matmul(b, "mm", FUSER_TYPE_F32, 0, 0, 0, NULL);
  fuser_builder_param_pointer(b, k, FUSER_BUFFER_INPUT, 0, "0");
  fuser_builder_param_pointer(b, k, FUSER_BUFFER_INPUT, 1, "0");
  fuser_builder_param_pointer(b, k, FUSER_BUFFER_OUTPUT, 0, "0");
  const char *v[10] = {"size(0, 0)", "size(1, 1)", "size(0, 1)", "stride(0, 0)", "stride(0, 1)", "stride(1, 0)",
                       "stride(1, 1)", "size(1, 1)", "1", "0"};
  values(b, k, v, 10);
  a = finish(b);
  CHECK(a != NULL);
  if (!a) return;
  int64_t sa4[2] = {4, 6}, st4[2] = {12, 2};
  DLTensor ta4 = example_tensor(xa, 2, sa4, st4);
  fuser_arg args4[2] = {fuser_arg_tensor(&ta4), fuser_arg_tensor(&tb2)};
  CHECK_EQ_INT(run(a, args4, 2), FUSER_ERR_UNSUPPORTED);
  CHECK(unit_contains(err.message, "matmul kernel mm: an operand has no unit stride on its matrix dims"));
  CHECK_EQ_INT(fake->allocs, fake->frees);
  fuser_artifact_release(a);

  /* an extent no tensor has (an artifact's expression gone wrong) */
  b = fuser_builder_create();
  fuser_builder_add_tensor_input(b, "A", FUSER_TYPE_F32, 2, sz, contig, NULL);
  fuser_builder_add_tensor_input(b, "B", FUSER_TYPE_F32, 2, sz, contig, NULL);
  fuser_builder_add_output(b, FUSER_TYPE_F32, 2, osz, NULL);
  k = fuser_builder_add_matmul(b, "mm", FUSER_TYPE_F32, 0, 0, 0, NULL);
  fuser_builder_param_pointer(b, k, FUSER_BUFFER_INPUT, 0, "0");
  fuser_builder_param_pointer(b, k, FUSER_BUFFER_INPUT, 1, "0");
  fuser_builder_param_pointer(b, k, FUSER_BUFFER_OUTPUT, 0, "0");
  const char *bad[10] = {"size(0, 0) - 10", "size(1, 1)", "size(0, 1)", "stride(0, 0)", "stride(0, 1)",
                         "stride(1, 0)", "stride(1, 1)", "size(1, 1)", "1", "0"};
  values(b, k, bad, 10);
  a = finish(b);
  CHECK(a != NULL);
  if (!a) return;
  DLTensor ta5 = example_tensor(xa, 2, sa, NULL);
  fuser_arg args5[2] = {fuser_arg_tensor(&ta5), fuser_arg_tensor(&tb2)};
  CHECK_EQ_INT(run(a, args5, 2), FUSER_ERR_EXPRESSION);
  CHECK(unit_contains(err.message, "matmul kernel mm: a negative or huge extent or stride"));
  CHECK_EQ_INT(fake->allocs, fake->frees);
  fuser_artifact_release(a);
}

/* The builder and the file format: a matmul kernel is validated (its
 * parameter layout, its operands' dtypes), written as version 2 and read
 * back; a fusion without one stays version 1. */
static void test_format(void) {
  fuser_artifact *a = matmul_2d(FUSER_TYPE_BF16, 1, 1, NULL);
  CHECK(a != NULL);
  if (!a) return;
  void *bytes;
  size_t size;
  CHECK_EQ_INT(fuser_artifact_write_bytes(a, &bytes, &size, &err), FUSER_OK);
  CHECK_EQ_INT(((uint8_t *)bytes)[8], 2);
  fuser_artifact *back = NULL;
  CHECK_EQ_INT(fuser_artifact_read_bytes(bytes, size, &back, &err), FUSER_OK);
  void *again;
  size_t again_size;
  if (back) {
    CHECK_EQ_INT(fuser_artifact_write_bytes(back, &again, &again_size, &err), FUSER_OK);
    CHECK(again_size == size && !memcmp(again, bytes, size));
    free(again);
    fuser_artifact_release(back);
  }
  /* every truncation is refused with an error, never a crash */
  int refused = 0;
  for (size_t n = 0; n < size; n++) {
    fuser_artifact *t = NULL;
    refused += fuser_artifact_read_bytes(bytes, n, &t, &err) != FUSER_OK;
    fuser_artifact_release(t);
  }
  CHECK_EQ_INT(refused, (long long)size);
  free(bytes);
  fuser_artifact_release(a);
  a = example_add_artifact(1, &err);
  CHECK_EQ_INT(fuser_artifact_write_bytes(a, &bytes, &size, &err), FUSER_OK);
  CHECK_EQ_INT(((uint8_t *)bytes)[8], 1);
  free(bytes);
  fuser_artifact_release(a);

  /* builder validation: a wrong parameter count, a wrong dtype, a bad kind */
  fuser_builder *b = fuser_builder_create();
  int64_t sz[2] = {-1, -1}, contig[2] = {1, 1};
  fuser_builder_add_tensor_input(b, "A", FUSER_TYPE_F32, 2, sz, contig, NULL);
  const char *osz[2] = {"size(0, 0)", "size(0, 1)"};
  fuser_builder_add_output(b, FUSER_TYPE_F32, 2, osz, NULL);
  int k = fuser_builder_add_matmul(b, "mm", FUSER_TYPE_F32, 0, 0, 0, NULL);
  fuser_builder_param_pointer(b, k, FUSER_BUFFER_INPUT, 0, "0");
  CHECK(finish(b) == NULL);
  CHECK(unit_contains(err.message, "kernel 0 (mm): a matmul of 0 batch dims takes 13 parameters, not 1"));
  b = fuser_builder_create();
  fuser_builder_add_tensor_input(b, "A", FUSER_TYPE_F16, 2, sz, contig, NULL);
  fuser_builder_add_output(b, FUSER_TYPE_F32, 2, osz, NULL);
  k = fuser_builder_add_matmul(b, "mm", FUSER_TYPE_F32, 0, 0, 0, NULL);
  for (int i = 0; i < 2; i++) fuser_builder_param_pointer(b, k, FUSER_BUFFER_INPUT, 0, "0");
  fuser_builder_param_pointer(b, k, FUSER_BUFFER_OUTPUT, 0, "0");
  const char *v[10] = {"1", "1", "1", "1", "1", "1", "1", "1", "1", "0"};
  values(b, k, v, 10);
  CHECK(finish(b) == NULL);
  CHECK(unit_contains(err.message, "matmul operand 0 has dtype"));
  b = fuser_builder_create();
  fuser_builder_add_tensor_input(b, "A", FUSER_TYPE_I32, 2, sz, contig, NULL);
  fuser_builder_add_output(b, FUSER_TYPE_I32, 2, osz, NULL);
  fuser_builder_add_matmul(b, "mm", FUSER_TYPE_I32, 0, 0, 0, NULL);
  CHECK(finish(b) == NULL);
  CHECK(unit_contains(err.message, "matmul of dtype"));
}

/* No cuBLASLt: loading a fusion with a matmul fails with a clear error; a
 * fusion without one loads and runs, never opening it. */
static void test_missing(void) {
  fuser_artifact *a = matmul_2d(FUSER_TYPE_F32, 0, 0, NULL);
  fuser_function *fn = NULL;
  CHECK_EQ_INT(fuser_load(rt, a, &fn, &err), FUSER_ERR_NO_DRIVER);
  CHECK(unit_contains(err.message, "no cuBLASLt (FUSER_CUBLASLT=/nonexistent/libcublasLt.so cannot be opened"));
  CHECK(fn == NULL);
  fuser_artifact_release(a);
  a = example_add_artifact(1, &err);
  CHECK_EQ_INT(fuser_load(rt, a, &fn, &err), FUSER_OK);
  fuser_function_destroy(fn);
  fuser_artifact_release(a);
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: unit_driver_matmul FAKE_LIBCUDA FAKE_LIBCUBLASLT|missing\n");
    return 2;
  }
  int missing = strcmp(argv[2], "missing") == 0;
  setenv("FUSER_CUBLASLT", missing ? "/nonexistent/libcublasLt.so" : argv[2], 1);
  if (!(fake = fake_cuda_runtime(argv[1], STREAM, &rt))) return 1;
  if (missing) {
    test_missing();
  } else {
    void *ltlib = dlopen(argv[2], RTLD_NOW | RTLD_LOCAL);
    lt = ltlib ? dlsym(ltlib, "fake_cublaslt_state") : NULL;
    if (!lt) {
      fprintf(stderr, "cannot reach fake_cublaslt_state in %s\n", argv[2]);
      return 1;
    }
    test_2d();
    test_linear_bias();
    test_batches();
    test_fold();
    test_errors();
    test_format();
  }
  fuser_runtime_destroy(rt);
  UNIT_MAIN_END();
}
