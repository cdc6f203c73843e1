/* fuser.h: the fuser dialect as seen from C.
 *
 * The dialect itself is defined in IRDL (generated from dialects/ops.def by
 * dialects/gen_irdl.c and embedded at build time). This header gives what every part of the compiler needs
 * on top of it: a context with the dialect loaded, the op table
 * (dialects/ops.def) as an enum, dtypes, attribute accessors, nvFuser's
 * result-type rules, and the verifier for what IRDL cannot check.
 *
 * Conventions of the IR (docs/dialect.md has the full reference):
 *   - A fusion is a func.func with the unit attribute `fuser.fusion`.
 *     Tensor arguments carry the input layout as argument attributes:
 *       fuser.contiguity  = array<i64: ...>  allocation order; 1 True, 0 False, -1 None
 *       fuser.stride_order = array<i64: ...> stride rank of each logical dim, 0 fastest
 *     Scalar arguments (i64, f64, i1, ...) are symbolic scalars.
 *   - Tensors are builtin ranked tensors: bf16 f16 f32 f64 i1 i32 i64 elements,
 *     `?` symbolic extent, 1 broadcast, 0 empty.
 *   - Ops that take a target shape (reshape, expand, broadcast_in_dim, full)
 *     carry it in their result type; each `?` result dim is supplied, in order,
 *     by one i64 `shape` operand.
 */
#ifndef FUSER_DIALECT_FUSER_H
#define FUSER_DIALECT_FUSER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FUSER_MAX_RANK 8

/* ---- context ------------------------------------------------------------ */

/* A context with every upstream dialect, pass and LLVM translation
 * registered and the fuser dialect loaded. Returns a null context (and
 * prints to stderr) only if the embedded IRDL text fails to load. */
MlirContext fuser_context_create(void);

/* The embedded IRDL source of the dialect. */
const char *fuser_irdl_source(void);

/* ---- op table ----------------------------------------------------------- */

typedef enum {
  FUSER_KIND_SCALAR,    /* () -> scalar, attribute `value` */
  FUSER_KIND_UNARY,     /* (x) -> y */
  FUSER_KIND_BINARY,    /* (lhs, rhs) -> y, tensor or scalar on either side */
  FUSER_KIND_TERNARY,   /* (a, b, c) -> y */
  FUSER_KIND_SHAPED,    /* (tensor, shape: i64...) -> tensor of the result type's shape */
  FUSER_KIND_META,      /* (tensor) -> tensor, attributes only */
  FUSER_KIND_PAD,       /* (tensor, value) -> tensor, attribute pad_widths */
  FUSER_KIND_CAT,       /* (lhs, rhs) -> tensor, attribute dim */
  FUSER_KIND_REDUCTION, /* (tensor) -> tensor, attributes dims, keepdim */
  FUSER_KIND_VAR_MEAN,  /* (tensor) -> (var, mean), attributes dims, correction, keepdim */
  FUSER_KIND_FULL,      /* (fill_value, shape: i64...) -> tensor */
  FUSER_KIND_VIEW,      /* (tensor, dynamic: i64...) -> strided view, attributes static_offset, static_strides */
  FUSER_KIND_QUERY,     /* (tensor) -> i64, attribute dim */
  FUSER_KIND_CHECK,     /* (cond: i1) -> (), attribute message: the plan refuses the call unless cond */
  FUSER_KIND_HOST,      /* (i64, i64) -> i64: host integer math of the plan (ceildiv) */
  FUSER_KIND_ADDRESS,   /* (tensor or scalar or nothing) -> i64: a kernel parameter word (address, bits, index_flag) */
  FUSER_KIND_LAUNCH,    /* (grid, block, shared, conditions: i1..., params: i64...) -> (), attributes entry, kernel, variant */
  FUSER_KIND_IOTA,      /* (length, start, step) -> 1-D tensor */
  FUSER_KIND_RNG,       /* (a, b, rng_seed: i64, rng_offset: i64, shape: i64...) -> tensor (Philox) */
  FUSER_KIND_MATMUL,    /* matmul (a, b), linear (input, weight[, bias]) -> tensor of the operands' dtype */
  FUSER_KIND_INDEX,     /* index_select, gather, take_along_axis (arg, index: i32/i64) -> tensor, attribute dim */
  FUSER_KIND_NONE,      /* not a fuser op (FUSER_OP_NONE) */
} fuser_op_kind;

/* Result dtype rules, nvFuser's type promotion (csrc/type_promotion.cpp). */
typedef enum {
  FUSER_RULE_GIVEN,   /* stated by the op (cast, reductions, factories): the result type */
  FUSER_RULE_KEEP,    /* the (first tensor) operand's dtype */
  FUSER_RULE_ARITH,   /* common type of the operands; bf16/f16 compute in and return f32 */
  FUSER_RULE_FLOAT,   /* as ARITH, and integers/bool become f32 */
  FUSER_RULE_COMPARE, /* i1 */
  FUSER_RULE_BOOL,    /* i1 */
  FUSER_RULE_INTEGER, /* common type; integers and bool only */
  FUSER_RULE_WHERE,   /* common type of the two values, no bf16/f16 promotion */
  FUSER_RULE_NONE,    /* not a fuser op (FUSER_OP_NONE) */
} fuser_rule;

typedef enum {
#define FUSER_OP(name, kind, rule, ...) FUSER_OP_##name,
#include "ops.def"
  FUSER_OP_COUNT,
  FUSER_OP_NONE = -1
} fuser_op_id;

const char *fuser_op_mnemonic(fuser_op_id id); /* "add" */
const char *fuser_op_full_name(fuser_op_id id); /* "fuser.add" */
fuser_op_kind fuser_op_kind_of(fuser_op_id id);
fuser_rule fuser_op_rule_of(fuser_op_id id);
fuser_op_id fuser_op_from_mnemonic(const char *mnemonic, size_t len);
/* FUSER_OP_NONE when `op` is not a fuser op. */
fuser_op_id fuser_op_id_of(MlirOperation op);
/* triu and tril: element-wise but index-dependent over the last two dims;
 * element (row, col) is kept when fuser_triangle_keeps, else 0. */
bool fuser_is_triangle_op(fuser_op_id id);
bool fuser_triangle_keeps(fuser_op_id id, int64_t row, int64_t col, int64_t diagonal);
/* nvFuser's fd.ops.stride_order(arg, order): a `fuser.set` carrying its own
 * `fuser.stride_order` (a copy into that layout, never a view). */
bool fuser_op_is_layout_set(MlirOperation op);
/* Ops of the plan level that passes make and nvFuser scripts never spell
 * (view, size, stride, check, ceildiv, address, launch): the importer,
 * the exporter and libfuser's op list leave them out. */
bool fuser_op_is_plan_level(fuser_op_id id);

/* ---- dtypes ------------------------------------------------------------- */

typedef enum {
  FUSER_DTYPE_BF16,
  FUSER_DTYPE_F16,
  FUSER_DTYPE_F32,
  FUSER_DTYPE_F64,
  FUSER_DTYPE_I1,
  FUSER_DTYPE_I32,
  FUSER_DTYPE_I64,
  FUSER_DTYPE_COUNT,
  FUSER_DTYPE_INVALID = -1
} fuser_dtype;

fuser_dtype fuser_dtype_of_type(MlirType element_type);
MlirType fuser_dtype_to_type(MlirContext ctx, fuser_dtype dt);
const char *fuser_dtype_mlir_name(fuser_dtype dt);    /* "bf16" */
const char *fuser_dtype_nvfuser_name(fuser_dtype dt); /* "BFloat16" (DataType.X) */
fuser_dtype fuser_dtype_from_nvfuser_name(const char *name, size_t len);
size_t fuser_dtype_size(fuser_dtype dt); /* bytes; i1 is stored as 1 byte */
bool fuser_dtype_is_float(fuser_dtype dt);
bool fuser_dtype_is_integer(fuser_dtype dt); /* i32, i64 (not i1) */

/* The dtype of a value: a tensor's element type or a scalar's type. */
fuser_dtype fuser_value_dtype(MlirValue v);
bool fuser_value_is_tensor(MlirValue v);

/* ---- nvFuser type promotion --------------------------------------------- */

/* Result dtype of `rule` applied to operands (dtype, is_tensor).
 * FUSER_DTYPE_INVALID when the rule rejects the operands (e.g. bitwise on
 * floats); `why` then says which (may be NULL). */
fuser_dtype fuser_promote(fuser_rule rule, int n, const fuser_dtype *dtypes,
                          const bool *is_tensor, const char **why);

/* What an operand is for promotion: a 0-dim tensor (a CPU scalar tensor)
 * ranks between scalars and tensors with dims, as in PyTorch. */
enum { FUSER_OPERAND_SCALAR = 0, FUSER_OPERAND_ZERO_DIM = 1, FUSER_OPERAND_TENSOR = 2 };
fuser_dtype fuser_promote_kinds(fuser_rule rule, int n, const fuser_dtype *dtypes, const int *kinds,
                                const char **why);
/* The operands' common dtype (PyTorch's result_type, no bf16/f16 -> f32),
 * what nvFuser casts operands to before a comparison. */
fuser_dtype fuser_common_dtype(int n, const fuser_dtype *dtypes, const int *kinds);

/* ---- attributes (discardable only: inherent access aborts on IRDL ops) --- */

/* Reads a dense i64 (or i1/i32) array attribute; returns its length, or -1
 * when absent or of another kind. Writes at most `cap` elements. */
int fuser_get_i64_array(MlirOperation op, const char *name, int64_t *out, int cap);
bool fuser_get_i64(MlirOperation op, const char *name, int64_t *out);
/* The same on an attribute (null or of another kind: -1 / false). */
int fuser_attr_i64_array(MlirAttribute a, int64_t *out, int cap);
bool fuser_attr_i64(MlirAttribute a, int64_t *out);
void fuser_set_i64_array(MlirOperation op, const char *name, const int64_t *v, int n);
MlirAttribute fuser_i64_array_attr(MlirContext ctx, const int64_t *v, int n);

/* ---- result-type inference and verification ----------------------------- */

/* What the inference needs about one op before it exists. */
typedef struct {
  fuser_op_id id;
  int num_operands;
  const MlirValue *operands;
  int num_attrs;
  const MlirNamedAttribute *attrs;
  /* For SHAPED/FULL/IOTA ops: the requested result shape (kDynamic for `?`);
   * for GIVEN-rule ops: the requested dtype. Ignored otherwise. */
  int hint_rank;
  const int64_t *hint_shape;
  fuser_dtype hint_dtype;
} fuser_op_desc;

/* Computes the result types of an op (1, or 2 for var_mean). On a rule
 * violation returns false and writes a message such as
 * "dims is not a permutation of [0, 4)" into err. */
bool fuser_infer_result_types(MlirContext ctx, const fuser_op_desc *desc,
                              MlirType *results, char *err, size_t errlen);

/* The dims of a matrix product (matmul: torch.matmul; linear: input @
 * weight.T) for operands of ranks rank_a and rank_b: result dim d comes from
 * dim a_dim[d] of the first operand and/or b_dim[d] of the second (-1: not
 * from it; batch dims may come from both, broadcast); a_k/b_k are the
 * contraction dims, a_m the first operand's M dim and b_n the second's N dim
 * (-1 when a 1-D operand has none), m_dim/n_dim the result's. False for a
 * rank the op does not take. */
typedef struct {
  int rank, batch;
  int a_dim[FUSER_MAX_RANK], b_dim[FUSER_MAX_RANK];
  int a_k, b_k, a_m, b_n, m_dim, n_dim;
} fuser_matmul_dims;
bool fuser_matmul_dims_of(fuser_op_id id, int rank_a, int rank_b, fuser_matmul_dims *m);

/* Where the extent of result dim d of an index op (FUSER_KIND_INDEX, arg
 * rank `rank`, static extents arg_shape/index_shape: 1 marks a broadcast)
 * comes from: dim *src_dim of operand *src (0 arg, 1 index). One rule for
 * the inference, the kernel extents, the plan and the reference:
 *   index_select  dim `dim` from the 1-D index, the others from arg;
 *   gather        every dim from index (index extents <= arg's off dim);
 *   take_along_axis  dim `dim` and dims where arg broadcasts from index,
 *                 the others from arg (equal extents, or index broadcasts). */
void fuser_index_dims_of(fuser_op_id id, int dim, const int64_t *arg_shape, const int64_t *index_shape, int d, int *src,
                         int *src_dim);

/* Checks one fuser op against the rules IRDL cannot state (including the
 * result types above). Returns false with a message in err. */
bool fuser_verify_op(MlirOperation op, char *err, size_t errlen);

/* Recomputes the op's result types from its (possibly refined) operand
 * types and sets them; the current result type is kept as the hint for
 * shape- and dtype-taking ops. Returns false with a message on a violation. */
bool fuser_reinfer_op(MlirOperation op, char *err, size_t errlen);

/* The plan level's rules for one op (dialects/verify_plan.c): a static
 * view inside its input's known storage, plan calls naming kernels. */
bool fuser_verify_plan_op(MlirOperation op, char *err, size_t errlen);

/* Checks a fusion function's argument layouts (contiguity/stride_order). */
bool fuser_verify_function(MlirOperation func, char *err, size_t errlen);

/* Walks `root` and verifies every fuser op and fusion function, emitting a
 * located error for each violation. Returns the number of errors. */
int fuser_verify(MlirOperation root);

#ifdef __cplusplus
}
#endif
#endif
