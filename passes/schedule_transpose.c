/* schedule_transpose.c: the transpose schedule (schedule.h), for a
 * pointwise kernel where an input is contiguous along another iteration dim
 * (`tile_dim`) than the one the outputs are written along (the innermost):
 * out = x + permute(y, [1, 0]) with x, y and out row-major reads y with a
 * stride of one row per element in the per-point kernel.
 *
 * The `tile` variant (lowering/transpose_gen.c) moves tiles of tile x tile
 * points through shared memory: each block reads the tile of every such
 * input (`tiled`) with W-wide loads along tile_dim into a swizzled buffer,
 * waits at a barrier, then evaluates the outputs in W-wide vectors along the
 * innermost dim, reading the tiled inputs from the buffer. The pointwise
 * variants follow as the fallback (index32 does not hold, fewer than
 * TILE_MIN_POINTS points with symbolic sizes, or the lowering is asked for
 * them; static sizes below TILE_MIN_POINTS get SMALL_TILE tiles):
 *
 *   fuser.schedule = {transpose = {block_size = 128 : i64, narrow = array<i64>, threads = 256 : i64,
 *     tile = 64 : i64, tile_dim = 0 : i64, tiled = array<i64: 1>, variants = [
 *       {access_conditions = [],
 *        conditions = [{index32}, {points = {at_least = 262144 : i64, result = 0 : i64}},
 *                      {align = {arg = 1 : i64, bytes = 16 : i64}}, ...],
 *        flat = false, index_bits = 32 : i64, name = "tile",
 *        tail = false, unroll = 2 : i64, vector_width = 8 : i64},
 *       {access_conditions = [{align = {arg = 1 : i64, bytes = 16 : i64}}, ...],
 *        conditions = [{index32}, {points = {at_least = 262144 : i64, result = 0 : i64}}],
 *        ..., name = "tile_mixed", ...},
 *       ... the pointwise variants ...]}
 *
 * W = 16 bytes / the widest element; tile = 8 W (a buffer row is eight
 * W-wide chunks: 128 bytes of bf16); `unroll` = vectors per thread and
 * phase, tile^2 / (W threads). `tile` takes each tensor's W-wide accesses
 * aligned (alignment, run-time strides multiple of W) as launch conditions;
 * `tile_mixed` checks them in the kernel (a failing tensor gets shifted
 * loads and stores), as in the pointwise `mixed` variant; a
 * tensor whose static strides or offset misalign them (a row of 70 f32) is
 * listed in `narrow` and always takes them. A tile variant also needs the
 * innermost side at least tile/2 long (a `row_length` condition where it
 * is symbolic): skinny rows take the pointwise `gather` variant instead. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "passes/conditions.h"
#include "passes/schedule.h"
#include "passes/schedule_transpose.h"
#include "passes/vectorize.h"

/* Threads per block of the tile variant: two vectors per thread and phase
 * where that takes 128 to 256 threads (bf16: 256), else 128 (f32: 2
 * vectors, f64: 1, 1-byte: 8). Measured on an H100 (session 12): bf16
 * tiles of 256 threads x 2 vectors against 128 x 4 ran the ragged
 * transpose (8191 x 8193) 0.816x as long, at 50% occupancy instead of 31%
 * (64 registers, not 96), and the other bf16/f16 transposes 0.980-1.006
 * (from_last_bf16_large 1.029); f32 tiles of 256 threads x 1 vector were
 * 1.09-1.23x as long. */
#define TILE_THREADS 128
#define TILE_THREADS_MAX 256

static int tile_threads(int64_t tile, int W) {
  int64_t two = tile * tile / (2 * (int64_t)W);
  return two >= TILE_THREADS && two <= TILE_THREADS_MAX ? (int)two : TILE_THREADS;
}
/* At most this many tiled inputs (8 KB of shared memory each for bf16). */
#define MAX_TILED 4
/* A block's static shared memory, which holds the tile buffers. */
#define TILE_SHARED_BYTES (48 * 1024)
/* Points below which a symbolic space runs the per-point kernel instead of
 * the tiles, and a static one smaller tiles: 64 x 64 bf16 tiles of a small
 * transpose are too few blocks, each one a long chain (global load, shared
 * store, barrier, shared loads and the other inputs' global loads, store):
 * transpose_add_small, 200 x 328 bf16, 24 tiles, was 1.72x the per-point
 * kernel on the H200 (docs/PERFORMANCE.md, session 12). */
#define TILE_MIN_POINTS ((int64_t)1 << 18)
/* A static space below TILE_MIN_POINTS gets tiles of SMALL_TILE elements a
 * side (at most the usual 8 W): 32 x 32 bf16 makes four times the blocks of
 * 64 x 64, each moving a quarter of the bytes, as torch.compile's tiled
 * kernel does (transpose_add_small, 200 x 328 bf16: 77 tiles instead of
 * 24; H200, session 13: 0.852x the per-point kernel's time, 64 x 64 tiles
 * were 1.72x). Not where an output is `narrow` (its phase 2 stores element
 * by element: t021_add_bf16_small, rows of 130, was 1.41x), nor below
 * SMALL_TILE_MIN_POINTS (a handful of tiles on as many SMs: to_last_f32_small,
 * 14 tiles, was 1.085x): the per-point kernel runs there. */
#define SMALL_TILE 32
#define SMALL_TILE_MIN_POINTS ((int64_t)1 << 14)

static MlirAttribute fattr(MlirOperation op, const char *name) {
  return mlirOperationGetDiscardableAttributeByName(op, mlirStringRefCreateFromCString(name));
}

static MlirNamedAttribute named(MlirContext ctx, const char *name, MlirAttribute a) {
  return mlirNamedAttributeGet(mlirIdentifierGet(ctx, mlirStringRefCreateFromCString(name)), a);
}

static MlirAttribute i64(MlirContext ctx, int64_t v) { return mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), v); }
static MlirAttribute str(MlirContext ctx, const char *s) { return mlirStringAttrGet(ctx, mlirStringRefCreateFromCString(s)); }

/* The vector dim of access a in the tile variant: tile_dim for a tiled
 * input, the innermost for the rest; -1 when it is read per element
 * (broadcast along the innermost dim). */
static int vector_dim(const fk_kernel *k, const fuser_tile_plan *p, int a) {
  const fk_access *acc = &k->acc[a];
  for (int i = 0; i < p->ntiled; i++)
    if (p->tiled[i] == acc->tensor) return p->tile_dim;
  return fk_access_stride(k, acc, k->rank - 1) == 0 ? -1 : k->rank - 1;
}

/* Whether iteration dim d is merged into its tile group's innermost dim
 * (its index is then always 0: its stride does not move an access). */
static bool merged_away(const fk_kernel *k, const fuser_tile_plan *p, int d) {
  return fuser_tile_side(p, k->rank, d) != 0 && d != p->tile_dim && d != k->rank - 1;
}

/* Whether a W-wide access along dim vd starts at multiples of W wherever
 * the other dims are, as far as static strides and offsets tell. */
static bool statically_aligned(const fk_kernel *k, const fuser_tile_plan *p, const fk_access *acc, int vd, int W) {
  const fk_tensor *t = &k->t[acc->tensor];
  int64_t off = fk_access_offset(k, acc);
  if (off == FK_DYN || off % W) return false;
  for (int j = 0; j < t->rank; j++)
    for (int d = 0; d < k->rank; d++)
      if (d != vd && !merged_away(k, p, d) && acc->coef[j][d] && t->strides[j] != FK_DYN && (t->strides[j] * acc->coef[j][d]) % W)
        return false;
  return true;
}

/* The tensors whose W-wide accesses are statically misaligned under p's groups. */
static void mark_narrow(const fk_kernel *k, fuser_tile_plan *p) {
  memset(p->narrow, 0, sizeof p->narrow);
  for (int a = 0; a < k->num_accesses; a++) {
    int vd = vector_dim(k, p, a);
    if (vd >= 0 && !statically_aligned(k, p, &k->acc[a], vd, p->width)) p->narrow[k->acc[a].tensor] = true;
  }
}

/* Whether the tile buffers fit in a block's static shared memory (the
 * CPU form puts them on the stack: lowering/transpose_gen.c): tile^2
 * elements of each tiled input (bool as a byte); *bytes gets their sum.
 * Beyond it ptxas refuses the kernel. */
static bool tile_buffers_fit(int64_t tile, int n, const int64_t *element_bytes, int64_t *bytes) {
  *bytes = 0;
  for (int i = 0; i < n; i++) *bytes += tile * tile * element_bytes[i];
  return *bytes <= TILE_SHARED_BYTES;
}

/* The iteration space's points, or -1 when an extent is symbolic. */
static int64_t static_points(const fk_kernel *k) {
  int64_t n = 1;
  for (int d = 0; d < k->rank; d++) {
    if (k->extent[d] == FK_DYN) return -1;
    n *= k->extent[d];
  }
  return n;
}

/* Whether a static space of `points` below TILE_MIN_POINTS takes small
 * tiles rather than the per-point kernel (SMALL_TILE): no `narrow` output,
 * at least SMALL_TILE_MIN_POINTS points. */
static bool small_tiles_pay(const fk_kernel *k, const fuser_tile_plan *p, int64_t points) {
  for (int t = k->num_args; t < k->num_tensors; t++)
    if (p->narrow[t]) return false;
  return points >= SMALL_TILE_MIN_POINTS;
}

bool fuser_tile_plan_of(const fk_kernel *k, fuser_tile_plan *p) {
  memset(p, 0, sizeof *p);
  int R = k->rank;
  if (R < 2 || k->has_reduction || k->has_reshape || k->reshape_lanes || k->num_boundaries > 0) return false;
  int64_t widest = 1;
  for (int t = 0; t < k->num_tensors; t++)
    if (k->t[t].is_tensor && (int64_t)fuser_dtype_size(k->t[t].dtype) > widest) widest = fuser_dtype_size(k->t[t].dtype);
  int W = (int)(16 / widest);
  if (W < 2) return false;
  int count[FK_MAX_TENSORS] = {0};
  p->tile_dim = -1;
  for (int a = 0; a < k->num_accesses; a++) {
    const fk_access *acc = &k->acc[a];
    if (acc->opaque) return false;
    count[acc->tensor]++;
    int64_t inner = fk_access_stride(k, acc, R - 1);
    if (inner == 0 || inner == 1) continue;
    /* across the outputs' vectors: transposable when contiguous along another dim */
    int along = -1;
    for (int d = 0; d < R - 1; d++)
      if (fk_access_stride(k, acc, d) == 1) along = d;
    if (along < 0 || acc->tensor >= k->num_args) return false;
    if (p->tile_dim >= 0 && p->tile_dim != along) return false;
    p->tile_dim = along;
    bool seen = false;
    for (int i = 0; i < p->ntiled; i++) seen |= p->tiled[i] == acc->tensor;
    if (!seen) {
      if (p->ntiled == MAX_TILED) return false;
      p->tiled[p->ntiled++] = acc->tensor;
    }
  }
  if (p->ntiled == 0) return false;
  for (int i = 0; i < p->ntiled; i++)
    if (count[p->tiled[i]] != 1) return false; /* one tile per tiled input: it is read at the point only */
  p->width = W;
  p->a_lo = p->tile_dim, p->b_lo = R - 1;
  mark_narrow(k, p);
  int64_t points = static_points(k);
  bool small = points >= 0 && points < TILE_MIN_POINTS;
  if (small && !small_tiles_pay(k, p, points)) return false;
  p->tile = small && SMALL_TILE < 8 * W ? SMALL_TILE : 8 * W;
  int64_t sizes[MAX_TILED], bytes;
  for (int i = 0; i < p->ntiled; i++) sizes[i] = (int64_t)fuser_dtype_size(k->t[p->tiled[i]].dtype);
  if (!tile_buffers_fit(p->tile, p->ntiled, sizes, &bytes)) return false; /* four 1-byte inputs: 4 x 16 KiB */
  p->threads = tile_threads(p->tile, W);
  p->vectors = p->tile * p->tile / (W * p->threads);
  return p->vectors >= 1;
}

/* Whether a symbolic merge of tensor dims (j, j2) can hold for a dense
 * tensor as far as its static strides tell: j2 = j + 1, and, for a tensor
 * stored permuted (stride 1 on another dim s than its last, as a
 * channels-last input or a permute's view), neither is s: in memory the
 * dim next to s is not its logical neighbour (NHWC's C sits beside W, not
 * beside N or H), so the condition would fail at every launch. */
static bool plausible_merge(const fk_kernel *k, const fk_condition *c) {
  const fk_tensor *t = &k->t[c->tensor];
  if (c->inner != c->dim + 1) return false;
  for (int s = 0; s < t->rank - 1; s++)
    if (t->strides[s] == 1 && t->shape[s] != 1 && (c->dim == s || c->inner == s)) return false;
  return true;
}

/* Whether iteration dims d, d+1 merge for every access (vectorize.h's
 * rule), statically or under plausible conditions: merging a batch dim
 * into a transposed pair's dim needs stride(y, 0) == size(y, 2) for y of
 * [B, N, M] read as permute(y, [0, 2, 1]), which no dense y has. */
static bool merges(const fk_kernel *k, int d, fk_condition_list *conds) {
  fk_condition_list c = {0};
  bool ok = fk_mergeable_at_run_time(k, d, &c);
  for (int i = 0; ok && i < c.n; i++) ok = plausible_merge(k, &c.items[i]);
  if (ok) fk_conditions_append(conds, &c);
  fk_conditions_free(&c);
  return ok;
}

bool fuser_tile_groups(const fk_kernel *k, fuser_tile_plan *p, fk_condition_list *conds) {
  bool grew = false;
  p->a_lo = p->tile_dim, p->b_lo = k->rank - 1;
  while (p->b_lo - 1 > p->tile_dim && merges(k, p->b_lo - 1, conds)) p->b_lo--, grew = true;
  while (p->a_lo > 0 && merges(k, p->a_lo - 1, conds)) p->a_lo--, grew = true;
  return grew;
}

/* {align} and {stride} conditions of every W-wide access, checked in the
 * kernel per tensor (kernel_gen_select.c). */
static MlirAttribute access_conditions(MlirContext ctx, const fk_kernel *k, const fuser_tile_plan *p) {
  int cap = 16, n = 0;
  MlirAttribute *c = malloc((size_t)cap * sizeof *c);
  bool aligned[FK_MAX_TENSORS] = {false}, strided[FK_MAX_TENSORS][FK_R];
  memset(strided, 0, sizeof strided);
  for (int a = 0; a < k->num_accesses; a++) {
    const fk_access *acc = &k->acc[a];
    int vd = vector_dim(k, p, a), t = acc->tensor;
    if (vd < 0 || p->narrow[t]) continue;
    if (n + FK_R + 1 > cap) c = realloc(c, (size_t)(cap *= 2) * sizeof *c);
    if (!aligned[t]) {
      aligned[t] = true;
      fk_condition a = {.kind = FK_COND_ALIGN, .tensor = t, .value = p->width * (int64_t)fuser_dtype_size(k->t[t].dtype)};
      c[n++] = fk_condition_attr(ctx, &a, k->num_args);
    }
    for (int j = 0; j < k->t[t].rank; j++)
      for (int d = 0; d < k->rank; d++)
        if (d != vd && !merged_away(k, p, d) && acc->coef[j][d] && k->t[t].strides[j] == FK_DYN && !strided[t][j]) {
          strided[t][j] = true;
          fk_condition s = {.kind = FK_COND_STRIDE, .tensor = t, .dim = j, .value = p->width};
          c[n++] = fk_condition_attr(ctx, &s, k->num_args);
        }
  }
  MlirAttribute r = mlirArrayAttrGet(ctx, n, c);
  free(c);
  return r;
}


/* Wherever there is a tile plan (static sizes below TILE_MIN_POINTS: small
 * tiles where they pay); symbolic sizes get the tile variant under a
 * `points` condition, the pointwise variants below it. */
static bool applies(const fk_kernel *k, MlirOperation func) {
  fuser_tile_plan p;
  return fuser_tile_plan_of(k, &p);
}

/* The tile's innermost side must be at least half a tile long: a skinny
 * one (x[M, 7] + permute(y[7, M])) leaves most of each tile idle and every
 * phase-2 vector ragged, at 15% of copy bandwidth on the H200; the
 * pointwise variants (`gather`) do better there. A `row_length` condition
 * on result 0's dims [b_lo, rank) where the side's dims are those trailing
 * dims in order (a permuted output: none, as before); none either where
 * static extents already hold it. Returns whether it added one. */
static bool short_side_condition(const fk_kernel *k, const fuser_tile_plan *p, fk_condition *c) {
  int64_t n = 1;
  bool dynamic = false;
  for (int d = p->b_lo; d < k->rank; d++) {
    if (k->iter_dim[d] != d) return false;
    if (k->extent[d] == FK_DYN) dynamic = true;
    else n *= k->extent[d];
  }
  if (!dynamic && n >= p->tile / 2) return false;
  *c = (fk_condition){.kind = FK_COND_ROW_LENGTH, .tensor = k->num_args, .dim = p->b_lo, .value = p->tile / 2};
  return true;
}

/* The array conds with the array more's conditions appended. */
static MlirAttribute with_array(MlirContext ctx, MlirAttribute conds, MlirAttribute more) {
  intptr_t m = mlirArrayAttrGetNumElements(conds), n = mlirArrayAttrGetNumElements(more);
  if (n == 0) return conds;
  MlirAttribute *all = malloc((size_t)(m + n) * sizeof *all);
  for (intptr_t i = 0; i < m; i++) all[i] = mlirArrayAttrGetElement(conds, i);
  for (intptr_t i = 0; i < n; i++) all[m + i] = mlirArrayAttrGetElement(more, i);
  MlirAttribute r = mlirArrayAttrGet(ctx, m + n, all);
  free(all);
  return r;
}

/* The array conds with the n conditions c appended. */
static MlirAttribute with_conditions(MlirContext ctx, const fk_kernel *k, MlirAttribute conds, const fk_condition *c, int n) {
  if (n == 0) return conds;
  MlirAttribute *more = malloc((size_t)n * sizeof *more);
  for (int i = 0; i < n; i++) more[i] = fk_condition_attr(ctx, &c[i], k->num_args);
  MlirAttribute r = with_array(ctx, conds, mlirArrayAttrGet(ctx, n, more));
  free(more);
  return r;
}

/* A tile variant of plan p: `groups` (p's a_lo, b_lo) when it merges dims,
 * its `merge` conditions at launch beside index32 and points, and the
 * short-side condition. The W-wide accesses' alignment and strides (access,
 * access_conditions of p) are launch conditions (`checked` false: the
 * kernel has no per-tensor checks, no shifted loads and stores, phase 2 in
 * rows only) or checked in the kernel (`checked`: name + "_mixed", any
 * layout). */
static MlirAttribute tile_variant(MlirContext ctx, const fk_kernel *k, MlirOperation func, const fuser_tile_plan *p,
                                  const char *name, const fk_condition_list *merge, MlirAttribute access, bool checked) {
  /* 32-bit index math, under index32 when the sizes are symbolic */
  bool wide = mlirIntegerAttrGetValueInt(fattr(func, "fuser.index_bits")) == 64;
  MlirAttribute cond = fk_condition_attr(ctx, &(fk_condition){.kind = FK_COND_INDEX32, .tensor = -1}, k->num_args);
  MlirAttribute conds = mlirArrayAttrGet(ctx, wide ? 1 : 0, &cond);
  if (static_points(k) < 0) conds = fuser_schedule_with_points(ctx, conds, TILE_MIN_POINTS);
  conds = with_conditions(ctx, k, conds, merge->items, merge->n);
  fk_condition side;
  if (short_side_condition(k, p, &side)) conds = with_conditions(ctx, k, conds, &side, 1);
  bool grouped = p->a_lo != p->tile_dim || p->b_lo != k->rank - 1;
  char full[32];
  snprintf(full, sizeof full, "%s%s", name, checked ? "_mixed" : "");
  if (!checked) conds = with_array(ctx, conds, access), access = mlirArrayAttrGet(ctx, 0, NULL);
  MlirNamedAttribute v[9] = {
      named(ctx, "access_conditions", access),
      named(ctx, "conditions", conds),
      named(ctx, "flat", mlirBoolAttrGet(ctx, false)),
      named(ctx, "index_bits", i64(ctx, 32)),
      named(ctx, "name", str(ctx, full)),
      named(ctx, "tail", mlirBoolAttrGet(ctx, false)),
      named(ctx, "unroll", i64(ctx, p->vectors)),
      named(ctx, "vector_width", i64(ctx, p->width)),
      named(ctx, "groups", mlirDenseI64ArrayGet(ctx, 2, (int64_t[]){p->a_lo, p->b_lo})),
  };
  return mlirDictionaryAttrGet(ctx, grouped ? 9 : 8, v);
}

/* Plan p's tile variants into out: the one whose accesses' alignment is a
 * launch condition, then, where any access has such a condition, the one
 * that checks them in the kernel (`_mixed`). Both forms in one kernel cost
 * a small tile its latency: transpose_add_small's static 32 x 32 tile held
 * both phase-2 forms, the shifted loads' pairs and their element paths, 68
 * registers against Triton's 22 for the same tile. Returns how many. */
static int tile_pair(MlirContext ctx, const fk_kernel *k, MlirOperation func, const fuser_tile_plan *p, const char *name,
                     const fk_condition_list *merge, MlirAttribute *out) {
  MlirAttribute access = access_conditions(ctx, k, p);
  out[0] = tile_variant(ctx, k, func, p, name, merge, access, false);
  if (mlirArrayAttrGetNumElements(access) == 0) return 1;
  out[1] = tile_variant(ctx, k, func, p, name, merge, access, true);
  return 2;
}

static MlirAttribute choose(const fk_kernel *k, MlirOperation func, const fuser_schedule_options *o) {
  MlirContext ctx = mlirOperationGetContext(func);
  fuser_tile_plan p, merged;
  fuser_tile_plan_of(k, &p);
  MlirAttribute fallback = fuser_schedule_pointwise.choose(k, func, o);
  if (mlirAttributeIsNull(fallback)) return fallback;
  MlirAttribute pv = fuser_schedule_get(fallback, "variants");
  /* merged tiles first; the tiles of single dims after them when the merge
   * is a run-time condition (a layout it fails for still gets tiles) */
  fk_condition_list mc = {0}, none = {0};
  merged = p;
  bool grew = fuser_tile_groups(k, &merged, &mc);
  MlirAttribute tiles[4];
  int nt = 0;
  if (grew && mc.n == 0) {
    mark_narrow(k, &merged); /* static merges: the only tile plan */
    p = merged;
    nt = tile_pair(ctx, k, func, &p, "tile", &none, tiles);
  } else if (grew) {
    nt = tile_pair(ctx, k, func, &merged, "tile", &mc, tiles);
    nt += tile_pair(ctx, k, func, &p, "tile_dims", &none, tiles + nt);
  } else {
    nt = tile_pair(ctx, k, func, &p, "tile", &none, tiles);
  }
  fk_conditions_free(&mc);
  intptr_t n = mlirArrayAttrGetNumElements(pv);
  MlirAttribute *all = malloc((size_t)(n + nt) * sizeof *all);
  for (int i = 0; i < nt; i++) all[i] = tiles[i];
  for (intptr_t i = 0; i < n; i++) all[i + nt] = mlirArrayAttrGetElement(pv, i);
  int64_t tiled[MAX_TILED], narrow[FK_MAX_TENSORS];
  int nn = 0;
  for (int i = 0; i < p.ntiled; i++) tiled[i] = p.tiled[i];
  for (int t = 0; t < k->num_tensors; t++)
    if (p.narrow[t]) narrow[nn++] = t;
  MlirNamedAttribute e[7] = {
      named(ctx, "block_size", i64(ctx, o->block_size)),
      named(ctx, "narrow", mlirDenseI64ArrayGet(ctx, nn, narrow)),
      named(ctx, "threads", i64(ctx, p.threads)),
      named(ctx, "tile", i64(ctx, p.tile)),
      named(ctx, "tile_dim", i64(ctx, p.tile_dim)),
      named(ctx, "tiled", mlirDenseI64ArrayGet(ctx, p.ntiled, tiled)),
      named(ctx, "variants", mlirArrayAttrGet(ctx, n + nt, all)),
  };
  free(all);
  return mlirDictionaryAttrGet(ctx, 7, e);
}

/* ---- the C verifier -------------------------------------------------------- */

static bool bad(MlirOperation func, const char *what) {
  char msg[300];
  snprintf(msg, sizeof msg, "fuser.schedule (transpose): %s", what);
  mlirEmitError(mlirOperationGetLocation(func), msg);
  return false;
}

static bool int_in(MlirAttribute d, const char *name, int64_t lo, int64_t hi) {
  MlirAttribute a = fuser_schedule_get(d, name);
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAInteger(a)) return false;
  int64_t v = mlirIntegerAttrGetValueInt(a);
  return v >= lo && v <= hi;
}

/* The same for a hand-written schedule, from the kernel's argument types. */
static bool verify_tile_bytes(MlirOperation func, MlirAttribute tiled, int64_t tile) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  intptr_t nargs = mlirBlockGetNumArguments(body);
  int64_t sizes[MAX_TILED], bytes;
  int n = 0;
  for (intptr_t i = 0; i < mlirDenseArrayGetNumElements(tiled) && n < MAX_TILED; i++) {
    int64_t t = mlirDenseI64ArrayGetElement(tiled, i);
    if (t >= nargs) continue; /* not an input: the lowering says the schedule does not apply */
    MlirType ty = mlirValueGetType(mlirBlockGetArgument(body, t));
    if (mlirTypeIsARankedTensor(ty)) sizes[n++] = (int64_t)fuser_dtype_size(fuser_dtype_of_type(mlirShapedTypeGetElementType(ty)));
  }
  if (tile_buffers_fit(tile, n, sizes, &bytes)) return true;
  char what[200];
  snprintf(what, sizeof what,
           "the tile buffers take %lld bytes (tile^2 x element size per tiled input); a block's static shared memory is %d",
           (long long)bytes, TILE_SHARED_BYTES);
  return bad(func, what);
}

static bool verify(MlirOperation func, MlirAttribute s) {
  /* the variants have the pointwise form (the first is the tile variant) */
  if (!fuser_schedule_pointwise.verify(func, s)) return false;
  if (!int_in(s, "threads", 32, 1024)) return bad(func, "'threads' must be an integer in [32, 1024]");
  if (!int_in(s, "tile", 2, 256)) return bad(func, "'tile' must be an integer in [2, 256]");
  int64_t tile = fuser_schedule_int(s, "tile");
  if (tile & (tile - 1)) return bad(func, "'tile' must be a power of two");
  if (!int_in(s, "tile_dim", 0, FK_R - 1)) return bad(func, "'tile_dim' must be an iteration dim");
  MlirAttribute tiled = fuser_schedule_get(s, "tiled");
  if (mlirAttributeIsNull(tiled) || !mlirAttributeIsADenseI64Array(tiled) || mlirDenseArrayGetNumElements(tiled) == 0 ||
      mlirDenseArrayGetNumElements(tiled) > MAX_TILED)
    return bad(func, "'tiled' must be an array<i64> of 1 to 4 tensor numbers");
  MlirAttribute narrow = fuser_schedule_get(s, "narrow");
  if (mlirAttributeIsNull(narrow) || !mlirAttributeIsADenseI64Array(narrow))
    return bad(func, "'narrow' must be an array<i64> of tensor numbers");
  for (intptr_t i = 0; i < mlirDenseArrayGetNumElements(narrow); i++)
    if (mlirDenseI64ArrayGetElement(narrow, i) < 0 || mlirDenseI64ArrayGetElement(narrow, i) >= FK_MAX_TENSORS)
      return bad(func, "'narrow' must be an array<i64> of tensor numbers");
  for (intptr_t i = 0; i < mlirDenseArrayGetNumElements(tiled); i++)
    if (mlirDenseI64ArrayGetElement(tiled, i) < 0 || mlirDenseI64ArrayGetElement(tiled, i) >= FK_MAX_TENSORS)
      return bad(func, "'tiled' must be an array<i64> of 1 to 4 tensor numbers");
  if (!verify_tile_bytes(func, tiled, tile)) return false;
  MlirAttribute variants = fuser_schedule_get(s, "variants");
  MlirAttribute v0 = mlirArrayAttrGetElement(variants, 0);
  MlirStringRef name = mlirStringAttrGetValue(fuser_schedule_get(v0, "name"));
  if (name.length != 4 || memcmp(name.data, "tile", 4) != 0) return bad(func, "the first variant must be 'tile'");
  int64_t threads = fuser_schedule_int(s, "threads"), tile_dim = fuser_schedule_int(s, "tile_dim");
  for (intptr_t i = 0; i < fuser_tile_variants(s); i++) {
    MlirAttribute v = mlirArrayAttrGetElement(variants, i);
    int64_t w = fuser_schedule_int(v, "vector_width"), u = fuser_schedule_int(v, "unroll");
    if (w < 1 || tile % w || (tile * tile) != w * threads * u)
      return bad(func, "the tile variant must cover the tile: tile^2 = vector_width x threads x unroll");
    MlirAttribute g = fuser_schedule_get(v, "groups");
    if (!mlirAttributeIsNull(g) &&
        (!mlirAttributeIsADenseI64Array(g) || mlirDenseArrayGetNumElements(g) != 2 || mlirDenseI64ArrayGetElement(g, 0) < 0 ||
         mlirDenseI64ArrayGetElement(g, 0) > tile_dim || mlirDenseI64ArrayGetElement(g, 1) <= tile_dim ||
         mlirDenseI64ArrayGetElement(g, 1) >= FK_R))
      return bad(func, "a tile variant's 'groups' must be array<i64: a_lo, b_lo> with a_lo <= tile_dim < b_lo");
  }
  return true;
}

intptr_t fuser_tile_variants(MlirAttribute schedule) {
  MlirAttribute variants = fuser_schedule_get(schedule, "variants");
  intptr_t n = 0;
  while (n < mlirArrayAttrGetNumElements(variants)) {
    MlirStringRef name = mlirStringAttrGetValue(fuser_schedule_get(mlirArrayAttrGetElement(variants, n), "name"));
    if (name.length < 4 || memcmp(name.data, "tile", 4) != 0) break;
    n++;
  }
  return n;
}

const fuser_schedule_kind fuser_schedule_transpose = {
    .kind = "transpose",
    .analyzed = true,
    .applies = applies,
    .choose = choose,
    .verify = verify,
};
