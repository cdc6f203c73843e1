/* kernel_gen_shift.c: a W-wide contiguous load of a tensor that may be
 * misaligned, from aligned vector loads and a register shift, and the
 * matching store, from aligned power-of-two chunks (kg_shift_store, at the
 * end; docs/lowering.md "Per-tensor access widths").
 *
 * A view one element into a row (a slice at column 1, an odd row stride)
 * starts each vector `mis` elements past a B-byte boundary (B = W x element
 * size), and `mis` differs from row to row. Instead of W element loads, the
 * thread loads the two aligned vectors that cover its W elements and shifts
 * the pair down by `mis` lanes (kernel_gen_select.c calls it where the
 * tensor's own alignment check fails):
 *
 *   mis = (ptr / esize + addr) mod W             (run time, per vector)
 *   issue:   v0 = vector.load m[clamp(addr - mis)]                  always
 *            v1 = vector.load m[clamp(addr - mis + W)]              if mis != 0
 *            (clamp: into the whole aligned blocks inside the span, so
 *            these loads never leave the tensor and need no branch)
 *   finish:  words w = bitcast(v0) ++ bitcast(v1) (i32); q = mis * esize / 4,
 *            r = mis * esize mod 4 x 8 bits:
 *            out word i = funnel(w[i + q + 1] : w[i + q]) >> r
 *            (w[i + q] by a binary mux of selects over the bits of q; mis = 0
 *            gives v0)
 *   a vector whose aligned pair would leave the view's span [0, span) (the
 *   first vector of a view starting mid-block, the last of one ending
 *   mid-block): W element loads in the finish, so that no byte outside the
 *   tensor is read.
 *
 * Issue and finish are apart so that a thread's loads of several vectors
 * (the tile's phase 1, a point's inputs) all go out before the first shift
 * waits for data: with a branch on `mis` around each pair and its shift,
 * each vector's loads waited for the previous vector's data (the ragged
 * transpose's phase 1: 4 round trips in series).
 *
 * The second load reads the block the next thread reads first, so DRAM
 * traffic is unchanged (the L1 serves it); the branch on `mis` is uniform
 * over a warp when a warp's vectors share a row. Aligned tensors take the
 * `mis == 0` branch: one 16-byte access, as before. The bytes are
 * little-endian on both targets (NVPTX and the host of the CPU JIT). */
#include "lowering/kernel_gen_internal.h"
#include "mlir-c/BuiltinTypes.h"

static int log2i(int64_t v) {
  int l = 0;
  while ((int64_t)1 << l < v) l++;
  return l;
}

/* In the prologue, once per tensor: the element offset of its pointer in
 * a B-byte block, and its span (1 + sum_d (size_d - 1) x stride_d, elements). */
static void shift_setup(gen *g, int t, int64_t esize, int64_t B) {
  if (!mlirValueIsNull(g->shift.base[t])) return;
  fb_builder *b = &g->b;
  const fk_tensor *ten = &g->k->t[t];
  fb_ip save = kg_enter_prologue(g);
  MlirValue p = kg_param(g, FK_PARAM_PTR, t, -1);
  MlirValue addr = fb_op1(b, "memref.extract_aligned_pointer_as_index", fb_index_type(b), 1, &p);
  MlirValue in_block = fb_andi(b, addr, kg_cidx(g, B - 1));
  g->shift.base[t] = esize > 1 ? fb_binary(b, "arith.shrui", in_block, kg_cidx(g, log2i(esize))) : in_block;
  MlirValue span = kg_cidx(g, 1);
  for (int d = 0; d < ten->rank; d++) {
    if (ten->strides[d] == 0 || ten->shape[d] == 1) continue;
    MlirValue size = ten->shape[d] == FK_DYN ? kg_param(g, FK_PARAM_SIZE, t, d) : kg_cidx(g, ten->shape[d]);
    MlirValue stride = ten->strides[d] == FK_DYN ? kg_param(g, FK_PARAM_STRIDE, t, d) : kg_cidx(g, ten->strides[d]);
    span = fb_addi(b, span, fb_muli(b, fb_subi(b, size, kg_cidx(g, 1)), stride));
  }
  g->shift.span[t] = span;
  /* whole aligned blocks inside [0, span): from first = (W - base) mod W,
   * n = (span - first) / W of them (signed: a span shorter than first) */
  int64_t W = B / esize;
  MlirValue first = fb_andi(b, fb_subi(b, kg_cidx(g, W), g->shift.base[t]), kg_cidx(g, W - 1));
  MlirValue n = fb_binary(b, "arith.divsi", fb_subi(b, span, first), kg_cidx(g, W));
  g->shift.first[t] = first;
  g->shift.last[t] = fb_addi(b, first, fb_muli(b, fb_subi(b, n, kg_cidx(g, 1)), kg_cidx(g, W)));
  g->shift.has[t] = fb_cmpi(b, FB_CMPI_SGE, n, kg_cidx(g, 1));
  kg_leave_prologue(g, save);
}

/* The W lanes of v0 ++ v1 starting at lane `mis` (0 < mis < W). */
static MlirValue shift_pair(gen *g, MlirType vty, MlirValue v0, MlirValue v1, MlirValue mis, int64_t esize, int64_t B) {
  fb_builder *b = &g->b;
  int n = (int)(B / 4);
  MlirType i32 = fb_int_type(b, 32), wty = fb_vector_type(i32, n);
  MlirValue w[8], src[2] = {v0, v1};
  for (int h = 0; h < 2; h++) {
    MlirValue words = fb_op1(b, "vector.bitcast", wty, 1, &src[h]);
    for (int i = 0; i < n; i++) w[h * n + i] = fb_extract(b, words, i);
  }
  /* byte shift s = mis x esize: word shift q = s / 4, bit shift r = (s mod 4) x 8 */
  MlirValue s = fb_index_cast(b, fb_muli(b, mis, kg_cidx(g, esize)), i32);
  MlirValue q = fb_binary(b, "arith.shrui", s, fb_const_int(b, i32, 2));
  int len = 2 * n;
  for (int k = 1; k < n; k <<= 1) { /* x[j] = w[j + (q's bits so far)] */
    MlirValue bit = fb_cmpi(b, FB_CMPI_NE, fb_andi(b, q, fb_const_int(b, i32, k)), fb_const_int(b, i32, 0));
    for (int j = 0; j + k < len; j++) w[j] = fb_select(b, bit, w[j + k], w[j]);
    len -= k;
  }
  MlirValue out[4];
  if (esize >= 4) { /* whole words: no bit shift */
    for (int i = 0; i < n; i++) out[i] = w[i];
  } else {
    /* a funnel shift of each word pair (llvm.intr.fshr: one shf.r.wrap.b32
     * in PTX, where the i64 form (zext, shl, or, lshr, trunc) was five
     * instructions a word) */
    MlirValue r = fb_muli(b, fb_andi(b, s, fb_const_int(b, i32, 3)), fb_const_int(b, i32, 8));
    for (int i = 0; i < n; i++) out[i] = fb_op1(b, "llvm.intr.fshr", i32, 3, (MlirValue[]){w[i + 1], w[i], r});
  }
  MlirValue words = fb_from_elements(b, wty, n, out);
  return fb_op1(b, "vector.bitcast", vty, 1, &words);
}

static bool shiftable(gen *g, int t, int64_t *esize, int64_t *B) {
  *esize = (int64_t)fuser_dtype_size(g->k->t[t].dtype), *B = g->W * *esize;
  return *esize != 0 && *B >= 4 && *B <= 16 && (*B & (*B - 1)) == 0;
}

bool kg_shiftable(gen *g, int t) {
  int64_t esize, B;
  return shiftable(g, t, &esize, &B);
}

/* the vector's element offset in its aligned block */
static MlirValue misalignment(gen *g, int t, MlirValue addr) {
  return fb_andi(&g->b, fb_addi(&g->b, g->shift.base[t], addr), kg_cidx(g, g->W - 1));
}

static MlirValue clamp(gen *g, MlirValue x, MlirValue lo, MlirValue hi) {
  fb_builder *b = &g->b;
  return fb_binary(b, "arith.minsi", fb_binary(b, "arith.maxsi", x, lo), hi);
}

kg_pair kg_shift_issue(gen *g, int t, MlirType vty, MlirValue m, MlirValue addr) {
  fb_builder *b = &g->b;
  int64_t esize, B;
  if (!shiftable(g, t, &esize, &B)) return (kg_pair){{NULL}, {NULL}};
  shift_setup(g, t, esize, B);
  MlirValue mis = misalignment(g, t, addr), a0 = fb_subi(b, addr, mis);
  /* clamped, the loads stay inside the span whatever the vector; where the
   * pair is used (aligned, or whole inside the span) clamping moves nothing */
  MlirValue lo = g->shift.first[t], hi = g->shift.last[t];
  MlirValue c0 = clamp(g, a0, lo, hi), c1 = clamp(g, fb_addi(b, a0, kg_cidx(g, g->W)), lo, hi);
  MlirValue shifted = fb_cmpi(b, FB_CMPI_NE, mis, g->zero_index);
  return (kg_pair){kg_load_when(g, g->shift.has[t], vty, m, c0, B),
                   kg_load_when(g, fb_andi(b, g->shift.has[t], shifted), vty, m, c1, B)};
}

MlirValue kg_shift_finish(gen *g, int t, MlirType vty, MlirValue m, MlirValue addr, kg_pair p) {
  fb_builder *b = &g->b;
  int64_t esize, B;
  shiftable(g, t, &esize, &B);
  MlirValue cW = kg_cidx(g, g->W);
  MlirValue mis = misalignment(g, t, addr), a0 = fb_subi(b, addr, mis);
  /* mis == 0: v0 is the vector (shift_pair by 0 lanes gives v0) */
  MlirValue inside = fb_andi(b, fb_cmpi(b, FB_CMPI_SGE, a0, g->zero_index),
                             fb_cmpi(b, FB_CMPI_SLE, fb_addi(b, a0, fb_addi(b, cW, cW)), g->shift.span[t]));
  MlirValue usable = fb_binary(b, "arith.ori", fb_cmpi(b, FB_CMPI_EQ, mis, g->zero_index), inside);
  MlirValue shifted = shift_pair(g, vty, p.v0, p.v1, mis, esize, B);
  fb_ip save = fb_get_ip(b);
  MlirOperation br = fb_if(b, usable, 1, &vty, true);
  fb_set_ip(b, fb_ip_end(fb_then(br)));
  fb_yield(b, 1, &shifted);
  fb_set_ip(b, fb_ip_end(fb_else(br)));
  MlirValue lanes = kg_lanes_load(g, vty, m, addr, kg_cidx(g, 1));
  fb_yield(b, 1, &lanes);
  fb_set_ip(b, save);
  return fb_result(br, 0);
}

MlirValue kg_shift_load(gen *g, int t, MlirType vty, MlirValue m, MlirValue addr) {
  kg_pair p = kg_shift_issue(g, t, vty, m, addr);
  return mlirValueIsNull(p.v0) ? p.v0 : kg_shift_finish(g, t, vty, m, addr, p);
}

/* The chunks of a vector stored at misalignment k (0 <= k < W) in elements:
 * from frame position k of its two aligned blocks, each chunk the widest
 * power of two that its position is a multiple of and that stays inside the
 * vector (so inside one block): k = 1 of 8 gives 1 + 2 + 4 lanes in the
 * first block and 1 in the second; k = 4 gives 4 + 4. Returns the count;
 * lane[i] and width[i] per chunk. */
static int store_chunks(int W, int k, int *lane, int *width) {
  int n = 0;
  for (int p = k; p < k + W;) {
    int c = W;
    while (c > 1 && (p % c != 0 || p + c > k + W)) c /= 2;
    lane[n] = p - k, width[n] = c, n++;
    p += c;
  }
  return n;
}

bool kg_shift_store(gen *g, int t, MlirValue v, MlirValue m, MlirValue addr) {
  fb_builder *b = &g->b;
  int W = g->W;
  int64_t esize = (int64_t)fuser_dtype_size(g->k->t[t].dtype), B = W * esize;
  if (esize == 0 || W < 2 || W > 64 || B > 16 || (B & (B - 1))) return false;
  shift_setup(g, t, esize, B);
  MlirType vty = mlirValueGetType(v), et = fb_elem_type(vty);
  MlirValue mis = fb_andi(b, fb_addi(b, g->shift.base[t], addr), kg_cidx(g, W - 1));
  fb_ip save = fb_get_ip(b);
  for (int k = 0; k < W; k++) { /* uniform over a row: one branch taken */
    MlirOperation at = fb_if(b, fb_cmpi(b, FB_CMPI_EQ, mis, kg_cidx(g, k)), 0, NULL, false);
    fb_set_ip(b, fb_ip_in(fb_then(at)));
    int lane[64], width[64], n = store_chunks(W, k, lane, width);
    for (int i = 0; i < n; i++) {
      MlirValue at_lane = fb_addi_const(b, addr, lane[i]);
      if (width[i] == W) {
        fb_vector_store(b, v, m, at_lane, B);
      } else if (width[i] == 1) {
        fb_store(b, fb_extract(b, v, lane[i]), m, at_lane);
      } else {
        MlirValue e[64];
        for (int j = 0; j < width[i]; j++) e[j] = fb_extract(b, v, lane[i] + j);
        MlirValue chunk = fb_from_elements(b, fb_vector_type(et, width[i]), width[i], e);
        fb_vector_store(b, chunk, m, at_lane, width[i] * esize);
      }
    }
    fb_set_ip(b, fb_ip_after(at));
  }
  fb_set_ip(b, save);
  return true;
}
