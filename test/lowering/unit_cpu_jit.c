/* unit_cpu_jit: kernels lowered through the loop level and run by the CPU
 * JIT (lowering/cpu_jit.h) against C references: bit-exact for data
 * movement and + - * /, within 2 ulp for exp/tanh. Covers both variants, a
 * misaligned view (the vector variant's conditions fail: the mixed one
 * runs), odd and symbolic extents, the scalar tail of a fully contiguous
 * space (static, and symbolic with dims merged under run-time conditions),
 * padded rows (the "rows" variant), pad/slice, and a reduction. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/fuser.h"
#include "lowering/cpu_jit.h"
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

static fuser_cpu_module *compile(MlirContext ctx, const char *ir) {
  MlirModule m = mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(ir));
  CHECK(!mlirModuleIsNull(m));
  if (mlirModuleIsNull(m)) return NULL;
  char err[512] = "";
  fuser_cpu_module *cm = fuser_cpu_compile(m, err, sizeof err);
  if (!cm) fprintf(stderr, "compile failed: %s\n", err);
  CHECK(cm != NULL);
  mlirModuleDestroy(m);
  return cm;
}

static fuser_host_tensor tensor(void *data, fuser_dtype dt, int rank, const int64_t *sizes, const int64_t *strides) {
  fuser_host_tensor t = {.data = data, .dtype = dt, .rank = rank};
  memcpy(t.sizes, sizes, sizeof(int64_t) * (size_t)rank);
  memcpy(t.strides, strides, sizeof(int64_t) * (size_t)rank);
  return t;
}

/* ---- RoPE: cat on the last dim, strided views, broadcast tables --------- */

static const char *rope_ir =
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
  fuser_cpu_module *m = compile(ctx, rope_ir);
  if (!m) return;
  /* qkv-like buffer: rows of 64 elements per (b, s); head h at h*16 */
  enum { B = 2, H = 3, S = 8, D = 16, HALF = 8, ROW = 64 };
  static _Alignas(64) uint16_t buf[B * S * ROW + 16], x[B * S * ROW + 16], cosb[S * D], sinb[S * D];
  static _Alignas(64) uint16_t out[B * H * S * D], ref[B * H * S * D];
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
    int64_t tsz[2] = {S, D}, tst[2] = {D, 1}, hsz[4] = {B, H, S, HALF}, xsz[4] = {B, H, S, D};
    int64_t vst[4] = {512, 16, 64, 1}, ost[4] = {384, 128, 16, 1};
    fuser_host_tensor t[6] = {
        tensor(cosb, FUSER_DTYPE_BF16, 2, tsz, tst), tensor(sinb, FUSER_DTYPE_BF16, 2, tsz, tst),
        tensor(x2p, FUSER_DTYPE_BF16, 4, hsz, vst),  tensor(x1p, FUSER_DTYPE_BF16, 4, hsz, vst),
        tensor(xp, FUSER_DTYPE_BF16, 4, xsz, vst),   tensor(out, FUSER_DTYPE_BF16, 4, xsz, ost)};
    const char *variants[] = {NULL, "mixed", "vector"};
    for (int v = 0; v < (misaligned ? 1 : 3); v++) {
      memset(out, 0xff, sizeof out);
      const char *ran = NULL;
      char err[256];
      bool ok = fuser_cpu_run(m, "rope_k0", t, 6, variants[v], &ran, err, sizeof err);
      if (!ok) fprintf(stderr, "%s\n", err);
      CHECK(ok);
      if (!variants[v]) CHECK(strcmp(ran, misaligned ? "mixed" : "vector") == 0);
      CHECK(memcmp(out, ref, sizeof out) == 0);
    }
  }
  fuser_cpu_destroy(m);
}

/* ---- symbolic sizes and strides; transcendentals ------------------------- */

static const char *dyn_ir =
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
  fuser_cpu_module *m = compile(ctx, dyn_ir);
  if (!m) return;
  /* contiguous (any size: the dims merge at run time, with a tail),
   * padded rows whose stride keeps rows aligned ("rows"), and others */
  struct { int64_t rows, cols, lda; const char *variant; } cases[] = {
      {5, 7, 9, "scalar"}, {64, 12, 16, "rows"}, {3, 8, 10, "mixed"}, {1, 1, 1, "vector"},
      {31, 63, 63, "vector"}, {16, 32, 32, "vector"}};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    int64_t R = cases[c].rows, C = cases[c].cols, L = cases[c].lda;
    float *a = aligned_alloc(64, 4096 * 4), *b = aligned_alloc(64, 4096 * 4), *o = aligned_alloc(64, 4096 * 4);
    for (int i = 0; i < 4096; i++) a[i] = rnd(), b[i] = rnd(), o[i] = NAN;
    int64_t sz[2] = {R, C}, st[2] = {L, 1}, ost[2] = {C, 1};
    fuser_host_tensor t[3] = {tensor(a, FUSER_DTYPE_F32, 2, sz, st), tensor(b, FUSER_DTYPE_F32, 2, sz, st),
                              tensor(o, FUSER_DTYPE_F32, 2, sz, ost)};
    const char *ran = NULL;
    char err[256];
    bool ok = fuser_cpu_run(m, "dyn_k0", t, 3, NULL, &ran, err, sizeof err);
    if (!ok) fprintf(stderr, "%s\n", err);
    CHECK(ok);
    if (!ran || strcmp(ran, cases[c].variant) != 0)
      fprintf(stderr, "%lldx%lld lda %lld ran %s\n", (long long)R, (long long)C, (long long)L, ran ? ran : "nothing");
    CHECK(ran && strcmp(ran, cases[c].variant) == 0);
    int64_t worst = 0;
    for (int64_t i = 0; i < R; i++)
      for (int64_t j = 0; j < C; j++) {
        float x = a[i * L + j], r = expf(x) * b[i * L + j] + tanhf(x);
        int64_t d = ulp_diff(r, o[i * C + j]);
        worst = d > worst ? d : worst;
      }
    CHECK(worst <= 2);
    free(a), free(b), free(o);
  }
  fuser_cpu_destroy(m);
}

/* ---- a fully contiguous odd-sized space: width 8 and a scalar tail -------- */

static const char *big_ir =
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
  fuser_cpu_module *m = compile(ctx, big_ir);
  if (!m) return;
  size_t n = 999 * 1003;
  size_t bytes = (n * 2 + 64 + 63) / 64 * 64; /* aligned_alloc wants a multiple of the alignment */
  uint16_t *a = aligned_alloc(64, bytes), *b = aligned_alloc(64, bytes), *o = aligned_alloc(64, bytes);
  for (size_t i = 0; i < n; i++) a[i] = f2bf(rnd()), b[i] = f2bf(rnd() + 4.5f);
  int64_t sz[2] = {999, 1003}, st[2] = {1003, 1};
  fuser_host_tensor t[3] = {tensor(a, FUSER_DTYPE_BF16, 2, sz, st), tensor(b, FUSER_DTYPE_BF16, 2, sz, st),
                            tensor(o, FUSER_DTYPE_BF16, 2, sz, st)};
  const char *ran = NULL;
  char err[256];
  CHECK(fuser_cpu_run(m, "big_k0", t, 3, NULL, &ran, err, sizeof err));
  CHECK(ran && strcmp(ran, "vector") == 0);
  size_t bad = 0;
  for (size_t i = 0; i < n; i++) bad += o[i] != f2bf(bf2f(a[i]) / bf2f(b[i]) - bf2f(a[i]));
  CHECK_EQ_INT(bad, 0);
  free(a), free(b), free(o);
  fuser_cpu_destroy(m);
}

/* ---- slice, pad and a reduction ---------------------------------------------- */

static const char *pad_ir =
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
  fuser_cpu_module *m = compile(ctx, pad_ir);
  if (!m) return;
  float a[60], o[60], ref[60];
  for (int i = 0; i < 60; i++) a[i] = rnd();
  for (int i = 0; i < 5; i++)
    for (int j = 0; j < 12; j++) {
      int si = i - 1, sj = j - 3;
      float v = (si >= 0 && si < 4 && sj >= 0 && sj < 7) ? a[(si + 1) * 10 + sj + 2] : 0.5f;
      ref[i * 12 + j] = v * 2.0f;
    }
  int64_t asz[2] = {6, 10}, ast[2] = {10, 1}, osz[2] = {5, 12}, ost[2] = {12, 1};
  fuser_host_tensor t[2] = {tensor(a, FUSER_DTYPE_F32, 2, asz, ast), tensor(o, FUSER_DTYPE_F32, 2, osz, ost)};
  char err[256];
  const char *ran;
  CHECK(fuser_cpu_run(m, "pad_k0", t, 2, NULL, &ran, err, sizeof err));
  CHECK(memcmp(o, ref, sizeof ref) == 0);

  uint16_t x[4 * 37];
  float s[4], sref[4];
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
  int64_t xsz[2] = {4, 37}, xst[2] = {37, 1}, ssz[1] = {4}, sst[1] = {1};
  fuser_host_tensor u[2] = {tensor(x, FUSER_DTYPE_BF16, 2, xsz, xst), tensor(s, FUSER_DTYPE_F32, 1, ssz, sst)};
  CHECK(fuser_cpu_run(m, "sum_k1", u, 2, NULL, &ran, err, sizeof err));
  CHECK(strcmp(ran, "looped_scalar") == 0);
  CHECK(memcmp(s, sref, sizeof sref) == 0);
  fuser_cpu_destroy(m);
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
