/* kernel_gen_internal.h: the private state and shared helpers of the kernel
 * generator (the implementation of kernel_gen.h), which is split by
 * responsibility into:
 *   kernel_gen_values.c    value types, constants, splats, dtype conversions;
 *   kernel_gen_prologue.c  extents and scalars, computed at function entry;
 *   kernel_gen_ops.c       element-wise ops;
 *   kernel_gen_access.c    global loads and stores;
 *   kernel_gen_select.c    per-tensor access widths checked in the kernel;
 *   kernel_gen_shift.c     misaligned loads (aligned vectors and a shift)
 *                          and stores (aligned chunks);
 *   kernel_gen_walk.c      the walker: index remapping through the op DAG;
 *   kernel_gen.c           the function, its loops, one point of the
 *                          iteration space (fk_codegen).
 * Only those files include this header; every other client uses kernel_gen.h.
 *
 * Ops go to two insertion points of the builder: the prologue (function
 * entry, before the thread loop: constants, memref views, extents derived
 * from parameters, scalar arithmetic; all point-independent) and the current
 * one (index math, loads, compute, stores). Values computed inside an scf
 * region are memoized only inside it. */
#ifndef FUSER_LOWERING_KERNEL_GEN_INTERNAL_H
#define FUSER_LOWERING_KERNEL_GEN_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "lowering/builder.h"
#include "lowering/kernel_gen.h"
#include "mlir-c/IR.h"
#include "passes/scoped_memo.h"

/* An index into a value: one index value per dim, and whether the dim
 * moves along the innermost iteration dim (its vectors' lanes). */
typedef struct {
  int rank;
  MlirValue v[FK_R];
  bool inner[FK_R];
} idx_t;

/* A computed value: scalar or vector<W>, and its dtype. */
typedef struct {
  MlirValue v;
  bool vec;
  fuser_dtype dt;
} kval;

/* Prefetched loads a generator may hold at once (gen.pre). */
#define FK_MAX_PREFETCH 96

/* A W-wide load issued ahead of its use (kg_issue_load): v0 the vector
 * loaded at the access's aligned block, v1 (null when the tensor has no
 * in-kernel check or no shifted form) the block after it. */
typedef struct {
  MlirValue v0, v1;
} kg_pair;

/* The generator's state for one kernel variant. */
typedef struct {
  fk_kernel *k;
  fb_builder b;
  int W;
  bool flat; /* index every access by the flat point index (fk_codegen_options.flat) */
  /* Tensors loaded lane by lane at their own coordinates (fk_codegen_options.gather),
   * and the flat index of the current point's first lane (emit_point). */
  bool gather[FK_MAX_TENSORS];
  MlirValue point;
  idx_t lane[64]; /* the iteration indices of each lane of the point (kg_gather_point) */
  fb_ip pro; /* the prologue */
  /* The iteration dim a vector's lanes run along: the innermost (set by
   * kg_open), or the transpose tile's tile_dim while its phase 2 runs in
   * columns (transpose_gen.c). */
  int lane_dim;
  fuser_scoped_memo memo;    /* (value, index) -> kval, scoped to scf regions */
  fuser_scoped_memo dims;    /* (value, dim) -> index value */
  fuser_scoped_memo scalars; /* value -> kval */
  fk_param *params;          /* the parameter list, fixed at the start */
  MlirValue *param_values;   /* the function argument (or its index cast) of each */
  int nparams, capparams;
  MlirValue mem[FK_MAX_TENSORS]; /* flat memref view of each tensor (null until made) */
  MlirValue zero_index;
  MlirValue flag_mem; /* the index flag's memref (null until an index op needs it) */
  /* i1, made in the prologue: whether tensor t may take W-wide accesses
   * (null: always, by the variant's launch conditions) */
  MlirValue access_ok[FK_MAX_TENSORS];
  /* The shifted loads of tensors with in-kernel checks (kernel_gen_shift.c),
   * made in the prologue on first use: the pointer's element offset in its
   * aligned block, and the tensor's span in elements. */
  struct {
    MlirValue base[FK_MAX_TENSORS], span[FK_MAX_TENSORS];
    /* the first and last whole aligned blocks inside the span (element
     * offsets), and whether there is one: where a pair's loads are clamped */
    MlirValue first[FK_MAX_TENSORS], last[FK_MAX_TENSORS], has[FK_MAX_TENSORS];
  } shift;
  /* Loads issued ahead of a point's evaluation (kg_prefetch_put): tensor
   * t's W-wide load at index ix, which kg_load there takes instead of
   * loading; cleared by the generator that made them. */
  struct {
    int n;
    int t[FK_MAX_PREFETCH];
    idx_t ix[FK_MAX_PREFETCH];
    kg_pair v[FK_MAX_PREFETCH];
  } pre;
  /* The transpose tile variant (transpose_gen.c): while tile.reading, a
   * load of tensor t with a tile buffer reads it from shared memory at the
   * point's tile coordinates instead of global memory. */
  struct {
    bool reading;
    MlirValue buf[FK_MAX_TENSORS]; /* null: a global tensor */
    MlirValue a_local, b_local;    /* the point (its first lane) in the tile */
    int T;                         /* tile edge, elements */
    int W;                         /* its chunk width (the point may be scalar) */
    bool columns;                  /* phase 2 in columns: its lanes along tile_dim, one buffer chunk */
    /* the side's static extent is a multiple of W: a W-wide vector along
     * it lies whole inside or whole outside (no ragged end) */
    bool a_whole, b_whole;
  } tile;
  bool failed;
} gen;

/* Emits a located error once (the first failure) and marks the run failed. */
bool kg_fail_op(gen *g, MlirOperation op, const char *msg);
/* The current insertion point is the prologue while `save` is held. */
fb_ip kg_enter_prologue(gen *g);
void kg_leave_prologue(gen *g, fb_ip save);

/* ---- values, types, conversions (kernel_gen_values.c) -------------------- */

/* The element type of a dtype, and the memref element type (i1 is stored as i8). */
MlirType kg_elem_type(gen *g, fuser_dtype dt);
MlirType kg_storage_type(gen *g, fuser_dtype dt);
/* dt, or vector<W x dt> when vec. */
MlirType kg_type(gen *g, fuser_dtype dt, bool vec);
MlirValue kg_cidx(gen *g, int64_t v);
/* The value of a kernel parameter (index for sizes and strides). */
MlirValue kg_param(gen *g, fk_param_kind kind, int tensor, int dim);
/* The extent of iteration dim d: its constant, or its size parameter. */
MlirValue kg_iter_extent(gen *g, int d);
bool kg_is_float(fuser_dtype dt);
/* The constant v of dtype dt (splat to a vector when vec), in the prologue. */
kval kg_const(gen *g, double v, fuser_dtype dt, bool vec);
/* The constant v in the type (and vector shape) of `like`. */
kval kg_kconst(gen *g, double v, kval like);
/* The zero vector of vector type vty (integer or float elements), in the prologue. */
MlirValue kg_zero_vector(gen *g, MlirType vty);
/* A scalar broadcast to vector<W> (no-op when already a vector or W == 1). */
kval kg_splat(gen *g, kval x);
kval kg_convert(gen *g, kval x, fuser_dtype to);

/* ---- extents and scalars, in the prologue (kernel_gen_prologue.c) -------- */

/* Sets up the memos of extents and scalars. */
void kg_prologue_init(gen *g);
/* Extent of dim j of tensor value v (an index value). */
MlirValue kg_dim_of(gen *g, MlirValue v, int j);
/* A scalar (non-tensor) value: a parameter, a constant, or scalar math. */
kval kg_scalar_of(gen *g, MlirValue v);

/* ---- element-wise ops (kernel_gen_ops.c) ---------------------------------- */

kval kg_elementwise(gen *g, MlirOperation op, fuser_op_id id, kval *x, int n, fuser_dtype out_dt);
/* `r = opname a, b` in a's type. */
kval kg_op2(gen *g, const char *opname, kval a, kval b);

/* ---- global loads and stores (kernel_gen_access.c) ------------------------ */

kval kg_load(gen *g, int t, const idx_t *ix);
void kg_store(gen *g, int t, const idx_t *ix, kval v);

/* Loads issued before the point's values are computed, so that a point's
 * loads are all in flight before any of them is used (a branch between
 * loads, as the per-tensor checks and the tile phases make, otherwise
 * waits for the first load's data before issuing the next one):
 *   kg_issue_load     the loads of tensor t's W-wide contiguous access at
 *                     index ix, with no branch on data: the aligned vector,
 *                     or for a tensor with an in-kernel check the two
 *                     aligned blocks a shifted load takes (kg_shift_issue);
 *   kg_prefetch_load  kg_issue_load where the access is a contiguous vector
 *                     of a global tensor, else nulls (then kg_load loads as
 *                     before);
 *   kg_prefetch_put   records a pair (those loads, or values yielded from
 *                     them) for kg_load at t and ix (the same index values),
 *                     which finishes it (kg_select_load);
 *   kg_prefetch_point the loads of every argument read at the point's own
 *                     index (`it`), for kernels without cat/pad boundaries.
 * An unused prefetch has no effect (its ops are dead). */
bool kg_prefetchable(gen *g, int t, const idx_t *ix); /* kg_prefetch_load would load */
/* With gathered tensors: the iteration indices of each lane of the point
 * at g->point, into g->lane, made at the point's top level (before any
 * scf region of the walker, so every load may use them). */
void kg_gather_point(gen *g);
kg_pair kg_issue_load(gen *g, int t, const idx_t *ix);
/* Tensor t's W element loads at ix where its lanes are strided (neither
 * contiguous nor broadcast: a row-major x read along its columns), issued
 * ahead as kg_issue_load's are (v0; v1 null), from element 0 where `when`
 * (i1) fails: no branch, so the lanes reach their use as loaded (in a
 * branch's result LLVM widened bf16 lanes to f32 inside the branch: 8 f32
 * registers a vector, 8 converts and adds instead of 4 add.rn.bf16x2).
 * Nulls for any other access. */
kg_pair kg_prefetch_lanes(gen *g, int t, const idx_t *ix, MlirValue when);
bool kg_lanes_prefetchable(gen *g, int t, const idx_t *ix); /* kg_prefetch_lanes would load */
kg_pair kg_prefetch_load(gen *g, int t, const idx_t *ix);
void kg_prefetch_put(gen *g, int t, const idx_t *ix, kg_pair v);
void kg_prefetch_point(gen *g, const idx_t *it);
/* Whether tensor argument t is read at the result index (an identity map). */
bool kg_reads_at_result_index(gen *g, int t);

/* ---- per-tensor access widths checked in the kernel (kernel_gen_select.c) */

/* Fills g->access_ok from the variant's access conditions (null: none). */
void kg_access_checks(gen *g, MlirAttribute conditions);
/* W contiguous element loads (stores) at addr, addr + step, ...: the
 * narrow form of a vector access. */
MlirValue kg_lanes_load(gen *g, MlirType vty, MlirValue m, MlirValue addr, MlirValue step);
void kg_lanes_store(gen *g, MlirValue v, MlirValue m, MlirValue addr, MlirValue step);
/* vector.load m[addr] where `when` holds, else a zero vector: a predicated
 * load (scf.if yielding it), not a branch around a use of its data. */
MlirValue kg_load_when(gen *g, MlirValue when, MlirType vty, MlirValue m, MlirValue addr, int64_t align);
/* The loads of a W-wide access of tensor t at addr, issued with no branch
 * on data (kg_pair): the vector.load where t has no in-kernel check, else
 * kg_shift_issue's pair, else (no shifted form) the vector.load under
 * access_ok[t]. */
kg_pair kg_select_issue(gen *g, int t, MlirType vty, MlirValue m, MlirValue addr, int64_t align);
/* Whether kg_select_issue gives tensor t's accesses two loads (v1 set). */
bool kg_issues_pair(gen *g, int t);
/* The vector from those loads (`pre`, or issued here when pre is null):
 * v0 when access_ok[t] holds (one uniform branch), else the shifted pair
 * (kg_shift_finish) or the lanes. */
MlirValue kg_select_load(gen *g, int t, MlirType vty, MlirValue m, MlirValue addr, int64_t align, const kg_pair *pre);
void kg_select_store(gen *g, int t, MlirValue v, MlirValue m, MlirValue addr, int64_t align);

/* ---- misaligned accesses from aligned ones (kernel_gen_shift.c) ---------- */

/* The W contiguous elements of tensor t at element offset addr, for any
 * alignment: one aligned vector load when the vector starts on its block,
 * else the two aligned blocks around it shifted by the misalignment, else
 * (a pair leaving the tensor's span) element loads. Null when the vector
 * is not 4, 8 or 16 bytes (then the caller takes element loads). */
MlirValue kg_shift_load(gen *g, int t, MlirType vty, MlirValue m, MlirValue addr);
/* kg_shift_load in two steps, so that many vectors' loads are in flight
 * before any is used: kg_shift_issue loads the two aligned blocks around
 * addr, clamped into the span's whole blocks (no branch on data; the second
 * only where the vector is misaligned); kg_shift_finish shifts them, or
 * loads the lanes where the pair would leave the span. Issue gives nulls
 * when the vector is not 4, 8 or 16 bytes. */
kg_pair kg_shift_issue(gen *g, int t, MlirType vty, MlirValue m, MlirValue addr);
bool kg_shiftable(gen *g, int t); /* kg_shift_issue gives loads (a 4, 8 or 16-byte vector) */
MlirValue kg_shift_finish(gen *g, int t, MlirType vty, MlirValue m, MlirValue addr, kg_pair p);
/* Stores the W contiguous elements v of tensor t at element offset addr,
 * for any alignment, with aligned stores only: at misalignment k, the
 * vector's lanes in power-of-two chunks, each aligned to its own size (k = 0:
 * one W-wide store; k = 1 of 8: 4 stores instead of 8). No byte outside the
 * vector is written. False when the vector is not 2 to 16 bytes of a power
 * of two (then the caller takes element stores). */
bool kg_shift_store(gen *g, int t, MlirValue v, MlirValue m, MlirValue addr);

/* ---- random numbers (kernel_gen_rng.c) ------------------------------------ */

/* Element ix of fuser.uniform / fuser.normal `op` (result v): Philox. */
kval kg_rng(gen *g, MlirOperation op, MlirValue v, const idx_t *ix);

/* ---- index ops (kernel_gen_index.c) -------------------------------------- */

/* The index value k (i32 or i64) of index op `op` checked against [0,
 * extent): when it is outside, the op's site number goes into the index
 * flag; returns k as an index, 0 when outside (so the read stays in
 * bounds). `extra` (may be null) is an i1 that must hold too (gather's
 * other dims in range). */
MlirValue kg_index_checked(gen *g, MlirOperation op, kval k, MlirValue extent, MlirValue extra);

/* ---- the function (kernel_gen.c) ------------------------------------------ */

/* Starts generator g on variant `opts` of kernel k: the function
 * `@<kernel>__<variant>` after `after`, its parameters (then `nextra`
 * arguments of the given types), the prologue, the per-tensor access checks.
 * Returns it (null and g->failed after a located error). */
MlirOperation kg_open(gen *g, fk_kernel *k, const fk_codegen_options *opts, MlirOperation after, int nextra,
                      const MlirType *extra);
/* Finishes it: its attributes, or its removal after a failure; frees g.
 * Returns the function or a null op. */
MlirOperation kg_close(gen *g, MlirOperation f, const fk_codegen_options *opts);
/* A tile load of kernel_gen_access.c: tensor t at the current tile point
 * (transpose_gen.c). */
MlirValue kg_tile_load(gen *g, int t, MlirType vty);

/* ---- one point of the iteration space (kernel_gen.c) ---------------------- */

/* The iteration indices of flat point index `lin` (row-major over the
 * iteration extents; `it` gets rank and v). */
void kg_delinearize(gen *g, MlirValue lin, idx_t *it);
/* The index of the results at iteration indices `it` (kernel_info.h's
 * iter_dim: result dim iter_dim[d] is iteration dim d, the vectors run
 * along iteration dim g->lane_dim). */
void kg_result_index(gen *g, const idx_t *it, idx_t *rix);
/* Evaluates and stores every result at iteration indices `it`. */
void kg_emit_results(gen *g, const idx_t *it);

/* ---- the walker (kernel_gen_walk.c) --------------------------------------- */

/* Sets up the walker's memo. */
void kg_walk_init(gen *g);
/* The value v at index ix (memoized per value and index). */
kval kg_visit(gen *g, MlirValue v, const idx_t *ix);

#endif
