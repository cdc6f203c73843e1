/* unit_cpu_jit: kernels lowered through the loop level and run by the CPU
 * JIT (lowering/cpu_jit.h) against C references: bit-exact for data
 * movement and + - * /, within 2 ulp for exp/tanh. Each kernel runs as a
 * call of a plan (lowering/cpu_plan.h): its variant is the first whose
 * fuser.launch conditions hold, evaluated as the GPU runtime evaluates them
 * (the translator's programs, fuser_expr_eval). Covers both variants, a
 * misaligned view (the vector variant's conditions fail: the mixed one
 * runs), odd and symbolic extents, the scalar tail of a fully contiguous
 * space (static, and symbolic with dims merged under run-time conditions),
 * padded rows (the "rows" variant), pad/slice, and a reduction. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/fuser.h"
#include "lowering/cpu_plan.h"
#include "lowering/lowering.h"
#include "lowering/plan_model_build.h"
#include "unit.h"

static float bf2f(uint16_t b) {
  uint32_t u = (uint32_t)b << 16;
  float f;
  memcpy(&f, &u, 4);
  return f;
}

static uint16_t f2bf(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  if ((u & 0x7fffffff) > 0x7f800000) return (uint16_t)((u >> 16) | 0x40);
  return (uint16_t)((u + 0x7fff + ((u >> 16) & 1)) >> 16);
}

static uint32_t rng = 12345;
static float rnd(void) {
  rng = rng * 1664525u + 1013904223u;
  return ((rng >> 8) & 0xffff) / 16384.0f - 2.0f;
}

/* A plan compiled twice, as fuser-cpu-check does: its model (launches from
 * the PTX pipeline) and its kernels for the CPU JIT. */
typedef struct {
  fuser_plan_model model;
  fuser_cpu_module *jit;
} compiled;

static bool compile(MlirContext ctx, const char *ir, compiled *c) {
  char err[1024] = "", ptx[2048];
  fuser_plan_to_ptx_pipeline("sm_90", ptx, sizeof ptx);
  MlirModule a = mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(ir));
  MlirModule b = mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(ir));
  CHECK(!mlirModuleIsNull(a) && !mlirModuleIsNull(b));
  if (mlirModuleIsNull(a) || mlirModuleIsNull(b)) return false;
  MlirOperation op = mlirModuleGetOperation(a);
  bool ok = fuser_plan_model_build(op, &c->model, err, sizeof err) && fuser_run_pipeline(op, ptx, err, sizeof err) &&
            fuser_plan_model_add_launches(&c->model, op, err, sizeof err);
  mlirModuleDestroy(a);
  c->jit = ok ? fuser_cpu_compile(b, err, sizeof err) : NULL;
  mlirModuleDestroy(b);
  if (!c->jit) fprintf(stderr, "compile failed: %s\n", err);
  CHECK(c->jit != NULL);
  if (!c->jit) fuser_plan_model_free(&c->model);
  return c->jit != NULL;
}

static void release(compiled *c) {
  fuser_cpu_destroy(c->jit);
  fuser_plan_model_free(&c->model);
}

/* Runs the plan; *variant (kernel k's) is its entry's suffix ("vector").
 * The outputs are the plan's (free with fuser_cpu_plan_free_outputs). */
static bool run(compiled *c, const fuser_host_tensor *inputs, fuser_host_tensor *outputs, int k, const char **variant) {
  const char *entries[8] = {0};
  char err[512];
  bool ok = fuser_cpu_plan_run(c->jit, &c->model, inputs, outputs, entries, err, sizeof err);
  if (!ok) fprintf(stderr, "%s\n", err);
  const char *sep = ok && entries[k] ? strstr(entries[k], "__") : NULL;
  *variant = sep ? sep + 2 : "nothing";
  return ok;
}

static fuser_host_tensor tensor(void *data, fuser_dtype dt, int rank, const int64_t *sizes, const int64_t *strides) {
  fuser_host_tensor t = {.data = data, .dtype = dt, .rank = rank};
  memcpy(t.sizes, sizes, sizeof(int64_t) * (size_t)rank);
  memcpy(t.strides, strides, sizeof(int64_t) * (size_t)rank);
  return t;
}

/* ---- RoPE: cat on the last dim, strided views, broadcast tables --------- */

/* The views of a qkv-like buffer (rows of 64 elements per (b, s), head h
 * at h*16; the second half 8 elements in) and of x, laid out like it. */
static const char *rope_ir =
    "func.func @rope(%cos: tensor<8x16xbf16>, %sin: tensor<8x16xbf16>, %buf: tensor<1039xbf16>, %x: tensor<1039xbf16>)\n"
    "    -> tensor<2x3x8x16xbf16> attributes {fuser.fusion, fuser.plan} {\n"
    "  %x2 = \"fuser.view\"(%buf) {static_offset = 0 : i64, static_strides = array<i64: 512, 16, 64, 1>} : (tensor<1039xbf16>) -> tensor<2x3x8x8xbf16>\n"
    "  %x1 = \"fuser.view\"(%buf) {static_offset = 8 : i64, static_strides = array<i64: 512, 16, 64, 1>} : (tensor<1039xbf16>) -> tensor<2x3x8x8xbf16>\n"
    "  %xv = \"fuser.view\"(%x) {static_offset = 0 : i64, static_strides = array<i64: 512, 16, 64, 1>} : (tensor<1039xbf16>) -> tensor<2x3x8x16xbf16>\n"
    "  %out = call @rope_k0(%cos, %sin, %x2, %x1, %xv) {fuser.cuts = [\"fusion output\"]} : (tensor<8x16xbf16>, tensor<8x16xbf16>, tensor<2x3x8x8xbf16>, tensor<2x3x8x8xbf16>, tensor<2x3x8x16xbf16>) -> tensor<2x3x8x16xbf16>\n"
    "  return %out : tensor<2x3x8x16xbf16>\n"
    "}\n"
    "func.func private @rope_k0(\n"
    "    %cos: tensor<8x16xbf16> {fuser.strides = array<i64: 16, 1>},\n"
    "    %sin: tensor<8x16xbf16> {fuser.strides = array<i64: 16, 1>},\n"
    "    %x2: tensor<2x3x8x8xbf16> {fuser.strides = array<i64: 512, 16, 64, 1>},\n"
    "    %x1: tensor<2x3x8x8xbf16> {fuser.strides = array<i64: 512, 16, 64, 1>},\n"
    "    %x: tensor<2x3x8x16xbf16> {fuser.strides = array<i64: 512, 16, 64, 1>})\n"
    "    -> (tensor<2x3x8x16xbf16> {fuser.strides = array<i64: 384, 128, 16, 1>}) attributes {fuser.kernel} {\n"
    "  %0 = \"fuser.cast\"(%x1) : (tensor<2x3x8x8xbf16>) -> tensor<2x3x8x8xf32>\n"
    "  %1 = \"fuser.neg\"(%0) : (tensor<2x3x8x8xf32>) -> tensor<2x3x8x8xf32>\n"
    "  %2 = \"fuser.cast\"(%1) : (tensor<2x3x8x8xf32>) -> tensor<2x3x8x8xbf16>\n"
    "  %3 = \"fuser.cat\"(%2, %x2) {dim = 3 : i64} : (tensor<2x3x8x8xbf16>, tensor<2x3x8x8xbf16>) -> tensor<2x3x8x16xbf16>\n"
    "  %4 = \"fuser.broadcast_in_dim\"(%cos) {broadcast_dims = array<i64: 2, 3>} : (tensor<8x16xbf16>) -> tensor<2x3x8x16xbf16>\n"
    "  %5 = \"fuser.mul\"(%x, %4) : (tensor<2x3x8x16xbf16>, tensor<2x3x8x16xbf16>) -> tensor<2x3x8x16xf32>\n"
    "  %6 = \"fuser.broadcast_in_dim\"(%sin) {broadcast_dims = array<i64: 2, 3>} : (tensor<8x16xbf16>) -> tensor<2x3x8x16xbf16>\n"
    "  %7 = \"fuser.mul\"(%3, %6) : (tensor<2x3x8x16xbf16>, tensor<2x3x8x16xbf16>) -> tensor<2x3x8x16xf32>\n"
    "  %8 = \"fuser.add\"(%5, %7) : (tensor<2x3x8x16xf32>, tensor<2x3x8x16xf32>) -> tensor<2x3x8x16xf32>\n"
    "  %9 = \"fuser.cast\"(%8) : (tensor<2x3x8x16xf32>) -> tensor<2x3x8x16xbf16>\n"
    "  func.return %9 : tensor<2x3x8x16xbf16>\n"
    "}\n";

static void test_rope(MlirContext ctx) {
  compiled m;
  if (!compile(ctx, rope_ir, &m)) return;
  enum { B = 2, H = 3, S = 8, D = 16, HALF = 8, ROW = 64 };
  static _Alignas(64) uint16_t buf[B * S * ROW + 16], x[B * S * ROW + 16], cosb[S * D], sinb[S * D];
  static uint16_t ref[B * H * S * D];
  for (size_t i = 0; i < sizeof buf / 2; i++) buf[i] = f2bf(rnd()), x[i] = f2bf(rnd());
  for (int i = 0; i < S * D; i++) cosb[i] = f2bf(rnd()), sinb[i] = f2bf(rnd());
  for (int misaligned = 0; misaligned < 2; misaligned++) {
    int shift = misaligned; /* one element: 2 bytes off the 16-byte class */
    uint16_t *x2p = buf + shift, *x1p = buf + HALF + shift, *xp = x + shift;
    for (int b = 0; b < B; b++)
      for (int h = 0; h < H; h++)
        for (int s = 0; s < S; s++)
          for (int d = 0; d < D; d++) {
            int64_t in = b * 512 + h * 16 + s * 64;
            float cat = d < HALF ? -bf2f(x1p[in + d]) : bf2f(x2p[in + d - HALF]);
            float r = bf2f(xp[in + d]) * bf2f(cosb[s * D + d]) + bf2f(f2bf(cat)) * bf2f(sinb[s * D + d]);
            ref[((b * H + h) * S + s) * D + d] = f2bf(r);
          }
    int64_t tsz[2] = {S, D}, tst[2] = {D, 1}, bsz[1] = {1039}, bst[1] = {1};
    fuser_host_tensor t[4] = {tensor(cosb, FUSER_DTYPE_BF16, 2, tsz, tst), tensor(sinb, FUSER_DTYPE_BF16, 2, tsz, tst),
                              tensor(x2p, FUSER_DTYPE_BF16, 1, bsz, bst), tensor(xp, FUSER_DTYPE_BF16, 1, bsz, bst)};
    fuser_host_tensor out[1];
    const char *ran = NULL;
    CHECK(run(&m, t, out, 0, &ran));
    if (strcmp(ran, misaligned ? "mixed" : "vector") != 0) fprintf(stderr, "rope (misaligned %d) ran %s\n", misaligned, ran);
    CHECK(strcmp(ran, misaligned ? "mixed" : "vector") == 0);
    CHECK(out[0].data && memcmp(out[0].data, ref, sizeof ref) == 0);
    fuser_cpu_plan_free_outputs(&m.model, out);
  }
  release(&m);
}

/* ---- symbolic sizes and strides; transcendentals ------------------------- */

/* Rows of a and b start `lda` elements apart (dim 0 not contiguous): the
 * kernel takes their strides; the output is dense. */
static const char *dyn_ir =
    "func.func @dyn(%a: tensor<?x?xf32> {fuser.contiguity = array<i64: 0, 1>}, %b: tensor<?x?xf32> {fuser.contiguity = array<i64: 0, 1>})\n"
    "    -> tensor<?x?xf32> attributes {fuser.fusion, fuser.plan} {\n"
    "  %out = call @dyn_k0(%a, %b) {fuser.cuts = [\"fusion output\"]} : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>\n"
    "  return %out : tensor<?x?xf32>\n"
    "}\n"
    "func.func private @dyn_k0(\n"
    "    %a: tensor<?x?xf32> {fuser.strides = array<i64: -9223372036854775808, 1>},\n"
    "    %b: tensor<?x?xf32> {fuser.strides = array<i64: -9223372036854775808, 1>})\n"
    "    -> (tensor<?x?xf32> {fuser.strides = array<i64: -9223372036854775808, 1>}) attributes {fuser.kernel} {\n"
    "  %0 = \"fuser.exp\"(%a) : (tensor<?x?xf32>) -> tensor<?x?xf32>\n"
    "  %1 = \"fuser.mul\"(%0, %b) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>\n"
    "  %2 = \"fuser.tanh\"(%a) : (tensor<?x?xf32>) -> tensor<?x?xf32>\n"
    "  %3 = \"fuser.add\"(%1, %2) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>\n"
    "  func.return %3 : tensor<?x?xf32>\n"
    "}\n";

static int64_t ulp_diff(float a, float b) {
  int32_t ia, ib;
  memcpy(&ia, &a, 4);
  memcpy(&ib, &b, 4);
  if (ia < 0) ia = INT32_MIN - ia;
  if (ib < 0) ib = INT32_MIN - ib;
  return llabs((long long)ia - ib);
}

static void test_dynamic(MlirContext ctx) {
  compiled m;
  if (!compile(ctx, dyn_ir, &m)) return;
  /* contiguous (any size: the dims merge at run time, with a tail),
   * padded rows whose stride keeps rows aligned ("rows"), and others;
   * rows of 7 at a stride of 9 ("segments": both inputs gathered by
   * segments of their rows, the output flat) */
  struct { int64_t rows, cols, lda; const char *variant; } cases[] = {
      {5, 7, 9, "segments"}, {64, 12, 16, "rows"}, {3, 8, 10, "mixed"}, {1, 1, 1, "vector"},
      {31, 63, 63, "vector"}, {16, 32, 32, "vector"}};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    int64_t R = cases[c].rows, C = cases[c].cols, L = cases[c].lda;
    float *a = aligned_alloc(64, 4096 * 4), *b = aligned_alloc(64, 4096 * 4);
    for (int i = 0; i < 4096; i++) a[i] = rnd(), b[i] = rnd();
    int64_t sz[2] = {R, C}, st[2] = {L, 1};
    fuser_host_tensor t[2] = {tensor(a, FUSER_DTYPE_F32, 2, sz, st), tensor(b, FUSER_DTYPE_F32, 2, sz, st)};
    fuser_host_tensor out[1];
    const char *ran = NULL;
    bool ok = run(&m, t, out, 0, &ran);
    CHECK(ok);
    if (strcmp(ran, cases[c].variant) != 0)
      fprintf(stderr, "%lldx%lld lda %lld ran %s\n", (long long)R, (long long)C, (long long)L, ran);
    CHECK(strcmp(ran, cases[c].variant) == 0);
    if (ok) {
      const float *o = out[0].data;
      int64_t worst = 0;
      for (int64_t i = 0; i < R; i++)
        for (int64_t j = 0; j < C; j++) {
          float x = a[i * L + j], r = expf(x) * b[i * L + j] + tanhf(x);
          int64_t d = ulp_diff(r, o[i * C + j]);
          worst = d > worst ? d : worst;
        }
      CHECK(worst <= 2);
      fuser_cpu_plan_free_outputs(&m.model, out);
    }
    free(a), free(b);
  }
  release(&m);
}

/* ---- a fully contiguous odd-sized space: width 8 and a scalar tail -------- */

static const char *big_ir =
    "func.func @big(%a: tensor<999x1003xbf16>, %b: tensor<999x1003xbf16>) -> tensor<999x1003xbf16> attributes {fuser.fusion, fuser.plan} {\n"
    "  %out = call @big_k0(%a, %b) {fuser.cuts = [\"fusion output\"]} : (tensor<999x1003xbf16>, tensor<999x1003xbf16>) -> tensor<999x1003xbf16>\n"
    "  return %out : tensor<999x1003xbf16>\n"
    "}\n"
    "func.func private @big_k0(\n"
    "    %a: tensor<999x1003xbf16> {fuser.strides = array<i64: 1003, 1>},\n"
    "    %b: tensor<999x1003xbf16> {fuser.strides = array<i64: 1003, 1>})\n"
    "    -> (tensor<999x1003xbf16> {fuser.strides = array<i64: 1003, 1>}) attributes {fuser.kernel} {\n"
    "  %0 = \"fuser.div\"(%a, %b) : (tensor<999x1003xbf16>, tensor<999x1003xbf16>) -> tensor<999x1003xf32>\n"
    "  %1 = \"fuser.sub\"(%0, %a) : (tensor<999x1003xf32>, tensor<999x1003xbf16>) -> tensor<999x1003xf32>\n"
    "  %2 = \"fuser.cast\"(%1) : (tensor<999x1003xf32>) -> tensor<999x1003xbf16>\n"
    "  func.return %2 : tensor<999x1003xbf16>\n"
    "}\n";

static void test_tail(MlirContext ctx) {
  compiled m;
  if (!compile(ctx, big_ir, &m)) return;
  size_t n = 999 * 1003;
  size_t bytes = (n * 2 + 64 + 63) / 64 * 64; /* aligned_alloc wants a multiple of the alignment */
  uint16_t *a = aligned_alloc(64, bytes), *b = aligned_alloc(64, bytes);
  for (size_t i = 0; i < n; i++) a[i] = f2bf(rnd()), b[i] = f2bf(rnd() + 4.5f);
  int64_t sz[2] = {999, 1003}, st[2] = {1003, 1};
  fuser_host_tensor t[2] = {tensor(a, FUSER_DTYPE_BF16, 2, sz, st), tensor(b, FUSER_DTYPE_BF16, 2, sz, st)};
  fuser_host_tensor out[1];
  const char *ran = NULL;
  if (run(&m, t, out, 0, &ran)) {
    CHECK(strcmp(ran, "vector") == 0);
    const uint16_t *o = out[0].data;
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) bad += o[i] != f2bf(bf2f(a[i]) / bf2f(b[i]) - bf2f(a[i]));
    CHECK_EQ_INT(bad, 0);
    fuser_cpu_plan_free_outputs(&m.model, out);
  } else {
    CHECK(false);
  }
  free(a), free(b);
  release(&m);
}

/* ---- slice, pad and a reduction ---------------------------------------------- */

static const char *pad_ir =
    "func.func @pad(%a: tensor<6x10xf32>, %x: tensor<4x37xbf16>) -> (tensor<5x12xf32>, tensor<4xf32>) attributes {fuser.fusion, fuser.plan} {\n"
    "  %p = call @pad_k0(%a) {fuser.cuts = [\"fusion output\"]} : (tensor<6x10xf32>) -> tensor<5x12xf32>\n"
    "  %s = call @sum_k1(%x) {fuser.cuts = [\"fusion output\"]} : (tensor<4x37xbf16>) -> tensor<4xf32>\n"
    "  return %p, %s : tensor<5x12xf32>, tensor<4xf32>\n"
    "}\n"
    "func.func private @pad_k0(%a: tensor<6x10xf32> {fuser.strides = array<i64: 10, 1>})\n"
    "    -> (tensor<5x12xf32> {fuser.strides = array<i64: 12, 1>}) attributes {fuser.kernel} {\n"
    "  %0 = \"fuser.slice\"(%a) {start_indices = array<i64: 1, 2>, end_indices = array<i64: 5, 9>, strides = array<i64: 1, 1>} : (tensor<6x10xf32>) -> tensor<4x7xf32>\n"
    "  %v = \"fuser.scalar\"() {value = 0.5 : f64} : () -> f64\n"
    "  %1 = \"fuser.pad\"(%0, %v) {pad_widths = array<i64: 3, 2, 1, 0>} : (tensor<4x7xf32>, f64) -> tensor<5x12xf32>\n"
    "  %two = \"fuser.scalar\"() {value = 2.0 : f64} : () -> f64\n"
    "  %2 = \"fuser.mul\"(%1, %two) : (tensor<5x12xf32>, f64) -> tensor<5x12xf32>\n"
    "  func.return %2 : tensor<5x12xf32>\n"
    "}\n"
    "func.func private @sum_k1(%a: tensor<4x37xbf16> {fuser.strides = array<i64: 37, 1>})\n"
    "    -> (tensor<4xf32> {fuser.strides = array<i64: 1>}) attributes {fuser.kernel} {\n"
    "  %0 = \"fuser.sum\"(%a) {dims = array<i64: 1>, keepdim = false} : (tensor<4x37xbf16>) -> tensor<4xf32>\n"
    "  func.return %0 : tensor<4xf32>\n"
    "}\n";

static void test_pad_and_sum(MlirContext ctx) {
  compiled m;
  if (!compile(ctx, pad_ir, &m)) return;
  float a[60], ref[60];
  for (int i = 0; i < 60; i++) a[i] = rnd();
  for (int i = 0; i < 5; i++)
    for (int j = 0; j < 12; j++) {
      int si = i - 1, sj = j - 3;
      float v = (si >= 0 && si < 4 && sj >= 0 && sj < 7) ? a[(si + 1) * 10 + sj + 2] : 0.5f;
      ref[i * 12 + j] = v * 2.0f;
    }
  uint16_t x[4 * 37];
  float sref[4];
  for (int i = 0; i < 4 * 37; i++) x[i] = f2bf(rnd());
  /* the row sum runs the row schedule's variant without conditions (37 is
   * not a multiple of 4): 512 threads stride over the row, then the warp
   * butterflies and the butterfly across the 16 warps, in this order (the
   * GPU's: bit for bit) */
  for (int i = 0; i < 4; i++) {
    float p[512];
    for (int t = 0; t < 512; t++) p[t] = t < 37 ? -0.0f + bf2f(x[i * 37 + t]) : -0.0f;
    for (int w = 0; w < 16; w++)
      for (int off = 16; off >= 1; off /= 2)
        for (int l = 0; l < off; l++) p[32 * w + l] = p[32 * w + l] + p[32 * w + l + off];
    for (int off = 8; off >= 1; off /= 2)
      for (int l = 0; l < off; l++) p[32 * l] = p[32 * l] + p[32 * (l + off)];
    sref[i] = p[0];
  }
  int64_t asz[2] = {6, 10}, ast[2] = {10, 1}, xsz[2] = {4, 37}, xst[2] = {37, 1};
  fuser_host_tensor t[2] = {tensor(a, FUSER_DTYPE_F32, 2, asz, ast), tensor(x, FUSER_DTYPE_BF16, 2, xsz, xst)};
  fuser_host_tensor out[2];
  const char *ran = NULL;
  if (run(&m, t, out, 1, &ran)) {
    CHECK(memcmp(out[0].data, ref, sizeof ref) == 0);
    CHECK(strcmp(ran, "looped_scalar") == 0);
    CHECK(memcmp(out[1].data, sref, sizeof sref) == 0);
    fuser_cpu_plan_free_outputs(&m.model, out);
  } else {
    CHECK(false);
  }
  release(&m);
}

int main(void) {
  MlirContext ctx = fuser_context_create();
  test_rope(ctx);
  test_dynamic(ctx);
  test_tail(ctx);
  test_pad_and_sum(ctx);
  mlirContextDestroy(ctx);
  UNIT_MAIN_END();
}
