/* schedule.h: the schedule of a kernel, as IR. fuser-schedule (schedule.c)
 * attaches to every kernel function a `fuser.schedule` dictionary that
 * fuser-lower-kernels follows instead of deciding anything itself:
 *
 *   fuser.schedule = {pointwise = {block_size = 128 : i64, variants = [
 *     {name = "vector", vector_width = 8 : i64, unroll = 1 : i64, index_bits = 32 : i64,
 *      tail = false, flat = true, conditions = [{align = {arg = 0 : i64, bytes = 16 : i64}}, ...]},
 *     {name = "scalar", vector_width = 1 : i64, unroll = 1 : i64, index_bits = 64 : i64,
 *      tail = false, flat = false, conditions = []}]}}
 *
 * The kind is the dictionary's one key (as a condition's, conditions.h),
 * its fields the value: fuser_schedule_kernel writes it, fuser_schedule_of
 * and fuser_schedule_kind_name read it, nothing else spells it.
 *
 * Variants are tried in order at launch; the last has no conditions. Each
 * kind of schedule (the reductions' inner_persistent, inner_reduce and
 * outer, then transpose (shared-memory tiles), then pointwise) is one entry of the kinds table in schedule.c with its own
 * chooser and C verifier, in its own file (schedule_pointwise.c), and one
 * entry of the lowerings table in lowering/lower_kernels.c (a kind may
 * append pointwise fallback variants: fuser_schedule_pointwise.choose gives
 * their schedule, fuser_lower_pointwise lowers it). */
#ifndef FUSER_PASSES_SCHEDULE_H
#define FUSER_PASSES_SCHEDULE_H

#include <stdbool.h>
#include <stdint.h>

#include "mlir-c/IR.h"
#include "passes/kernel_info.h"

/* The GPU the schedule heuristics fill (pointwise grids, row and outer
 * reduction schedules, fuser-split-reductions): the H200's (and H100's)
 * 132 SMs of 2048 resident threads each. */
#define FUSER_TARGET_SMS 132
#define FUSER_TARGET_THREADS_PER_SM 2048

typedef struct {
  int unroll;        /* vectors per thread in the vector variant; 0: chosen per kernel */
  int scalar_unroll; /* elements per thread in the scalar variant */
  int block_size;    /* threads per block */
} fuser_schedule_options;

typedef struct {
  const char *kind; /* the schedule's key */
  /* Whether applies/choose read the analyzed fk_kernel (else k is NULL:
   * the row kinds read the IR, whose var_mean fk_kernel_read refuses). */
  bool analyzed;
  /* Whether this kind schedules kernel k (analyzed, vectorized). */
  bool (*applies)(const fk_kernel *k, MlirOperation func);
  /* The schedule's fields (the value under the kind's key); null (and a
   * located error) on failure. */
  MlirAttribute (*choose)(const fk_kernel *k, MlirOperation func, const fuser_schedule_options *o);
  /* Located errors at func for malformed fields of this kind. */
  bool (*verify)(MlirOperation func, MlirAttribute schedule);
} fuser_schedule_kind;

/* The pointwise kind (schedule_pointwise.c). */
extern const fuser_schedule_kind fuser_schedule_pointwise;
/* The transpose kind (schedule_transpose.c): shared-memory tiles, then the
 * pointwise variants as its fallback. */
extern const fuser_schedule_kind fuser_schedule_transpose;
/* The row schedules of reductions (schedule_reduction.c/.h): their kernels
 * are not vectorized by fuser-vectorize (the row decides the vectors). */
extern const fuser_schedule_kind fuser_schedule_inner_persistent;
extern const fuser_schedule_kind fuser_schedule_inner_reduce;
extern const fuser_schedule_kind fuser_schedule_outer;
extern const fuser_schedule_kind fuser_schedule_outer_persistent;
extern const fuser_schedule_kind fuser_schedule_inner_outer;

/* The schedule of a kernel function: the verified fields of its
 * `fuser.schedule` (the value under the kind's key), or a null attribute
 * after a located error (missing, not one key, unknown kind, malformed). */
MlirAttribute fuser_schedule_of(MlirOperation func);
/* The kind of func's schedule (its key; empty when it has none). */
MlirStringRef fuser_schedule_kind_name(MlirOperation func);

/* Accessors for the entries of a schedule or of one variant (verified: present and typed). */
MlirAttribute fuser_schedule_get(MlirAttribute dict, const char *name);
int64_t fuser_schedule_int(MlirAttribute dict, const char *name);
bool fuser_schedule_bool(MlirAttribute dict, const char *name);
/* conds with {points = {at_least = n, result = 0}} appended: the
 * variant runs only when result 0 has at least n points (schedule_pointwise.c). */
MlirAttribute fuser_schedule_with_points(MlirContext ctx, MlirAttribute conds, int64_t n);

/* Chooses and attaches the schedule of one kernel function. */
bool fuser_schedule_kernel(MlirOperation func, const fuser_schedule_options *o);

#endif
