/* Element-wise ops (unary, binary, ternary, cast), on tensors and scalars.
 *
 * Each op is one line of EW_OPS: its value as an expression of the operands
 * a, b, c, once for floating point (the same text is compiled for float and
 * for double through <tgmath.h>, so f32 ops really compute in f32) and once
 * for int64 (integers and bool). NOFLOAT / NOINT mark the domains where an
 * op has no meaning (type promotion never sends it there; if an IR does, it
 * is an error, not a guess).
 *
 * Which domain computes (float, double, int64): the result dtype's for
 * arithmetic (bf16/f16 compute in float, as nvFuser's cast_half_to_float);
 * the operands' promoted dtype for comparisons and logical ops, whose
 * result is bool. Scalar operands are converted to that domain first, as
 * nvFuser casts them to the common dtype. Results are rounded once when
 * stored in their dtype.
 */
#include <stdint.h>
#include <stdlib.h>
#include <tgmath.h>

#include "mlir-c/BuiltinTypes.h"
#include "reference/ops.h"
#include "reference/special.h"

/* ---- helpers with C's undefined corners defined --------------------------- */

static int64_t i_add(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }
static int64_t i_sub(int64_t a, int64_t b) { return (int64_t)((uint64_t)a - (uint64_t)b); }
static int64_t i_mul(int64_t a, int64_t b) { return (int64_t)((uint64_t)a * (uint64_t)b); }
static int64_t i_neg(int64_t a) { return (int64_t)(0 - (uint64_t)a); }
static int64_t i_abs(int64_t a) { return a < 0 ? i_neg(a) : a; }
/* integer division truncates (C, CUDA); by zero gives 0 */
static int64_t i_div(int64_t a, int64_t b) { return b == 0 ? 0 : (b == -1 ? i_neg(a) : a / b); }
static int64_t i_fmod(int64_t a, int64_t b) { return b == 0 || b == -1 ? 0 : a % b; }
/* remainder takes the divisor's sign (Python, torch.remainder) */
static int64_t i_rem(int64_t a, int64_t b) {
  int64_t r = i_fmod(a, b);
  return r != 0 && ((r < 0) != (b < 0)) ? r + b : r;
}
static int64_t i_pow(int64_t a, int64_t b) {
  if (b < 0) return a == 1 ? 1 : a == -1 ? (b % 2 ? -1 : 1) : 0;
  int64_t r = 1;
  for (; b; b >>= 1, a = i_mul(a, a))
    if (b & 1) r = i_mul(r, a);
  return r;
}

/* Shifts on the int64 domain for a dtype of `bits` bits, as PTX's shl/shr
 * do: an amount outside [0, bits) shifts everything out (0, or the sign for
 * an arithmetic right shift). Logical right shift reads the value unsigned. */
static int shift_bits(fuser_dtype dt) { return dt == FUSER_DTYPE_I32 ? 32 : 64; }
static int64_t i_shl(int64_t a, int64_t b, fuser_dtype dt) {
  return b < 0 || b >= shift_bits(dt) ? 0 : (int64_t)((uint64_t)a << b);
}
static int64_t i_shr(int64_t a, int64_t b, fuser_dtype dt) {
  return b < 0 || b >= shift_bits(dt) ? (a < 0 ? -1 : 0) : a >> b;
}
static int64_t i_lshr(int64_t a, int64_t b, fuser_dtype dt) {
  if (b < 0 || b >= shift_bits(dt)) return 0;
  return dt == FUSER_DTYPE_I32 ? (int64_t)((uint32_t)a >> b) : (int64_t)((uint64_t)a >> b);
}

/* NaN-propagating maximum/minimum (torch.maximum, nvFuser's fmax) */
#define MAXNAN(a, b) (isnan(a) ? (a) : isnan(b) ? (b) : (a) > (b) ? (a) : (b))
#define MINNAN(a, b) (isnan(a) ? (a) : isnan(b) ? (b) : (a) < (b) ? (a) : (b))
/* nvFuser's clamp: fmin(fmax(x, lo), hi), NaN-propagating (x or a bound) */
#define CLAMP(x, lo, hi) MINNAN(MAXNAN(x, lo), hi)
/* the same on integers */
#define ICLAMP(x, lo, hi) (((x) < (lo) ? (lo) : (x)) > (hi) ? (hi) : ((x) < (lo) ? (lo) : (x)))
/* torch.remainder on floats: fmod, moved to the divisor's sign */
#define FREM(a, b) (fmod(a, b) != 0 && ((b) < 0) != (fmod(a, b) < 0) ? fmod(a, b) + (b) : fmod(a, b))

#define NOFLOAT (*unsupported = true, (T)0)
#define NOINT (*unsupported = true, (int64_t)0)

/* name, float/double expression (operands a b c of type T), int64 expression
 * (operands a b c of type int64_t; dt is the compute dtype) */
#define EW_OPS(OP)                                                                            \
  OP(neg, -a, i_neg(a))                                                                       \
  OP(abs, fabs(a), i_abs(a))                                                                  \
  OP(exp, exp(a), NOINT)                                                                      \
  OP(exp2, exp2(a), NOINT)                                                                    \
  OP(expm1, expm1(a), NOINT)                                                                  \
  OP(log, log(a), NOINT)                                                                      \
  OP(log1p, log1p(a), NOINT)                                                                  \
  OP(log2, log2(a), NOINT)                                                                    \
  OP(sqrt, sqrt(a), NOINT)                                                                    \
  OP(rsqrt, (T)1 / sqrt(a), NOINT)                                                            \
  OP(reciprocal, (T)1 / a, NOINT)                                                             \
  OP(sin, sin(a), NOINT)                                                                      \
  OP(cos, cos(a), NOINT)                                                                      \
  OP(tan, tan(a), NOINT)                                                                      \
  OP(tanh, tanh(a), NOINT)                                                                    \
  OP(sigmoid, (T)1 / ((T)1 + exp(-a)), NOINT)                                                 \
  OP(erf, erf(a), NOINT)                                                                      \
  OP(silu, a * ((T)1 / ((T)1 + exp(-a))), NOINT)                                              \
  OP(relu, a > 0 || isnan(a) ? a : (T)0, a > 0 ? a : 0)                                       \
  OP(ceil, ceil(a), a)                                                                        \
  OP(floor, floor(a), a)                                                                      \
  OP(round, nearbyint(a), a)                                                                  \
  OP(trunc, trunc(a), a)                                                                      \
  OP(sign, (T)((a > 0) - (a < 0)), (a > 0) - (a < 0))                                         \
  OP(isnan, isnan(a), 0)                                                                      \
  OP(isinf, isinf(a), 0)                                                                      \
  OP(logical_not, a == 0, a == 0)                                                             \
  OP(bitwise_not, NOFLOAT, dt == FUSER_DTYPE_I1 ? a == 0 : ~a)                                \
  OP(acos, acos(a), NOINT)                                                                    \
  OP(asin, asin(a), NOINT)                                                                    \
  OP(atan, atan(a), NOINT)                                                                    \
  OP(acosh, acosh(a), NOINT)                                                                  \
  OP(asinh, asinh(a), NOINT)                                                                  \
  OP(atanh, atanh(a), NOINT)                                                                  \
  OP(cosh, cosh(a), NOINT)                                                                    \
  OP(sinh, sinh(a), NOINT)                                                                    \
  OP(log10, log10(a), NOINT)                                                                  \
  OP(erfc, erfc(a), NOINT)                                                                    \
  OP(erfinv, fuser_ref_erfinv(a), NOINT)                                                              \
  OP(erfcinv, fuser_ref_erfcinv(a), NOINT)                                                            \
  OP(lgamma, lgamma(a), NOINT)                                                                \
  OP(frac, a - trunc(a), 0)                                                                   \
  OP(signbit, signbit(a) != 0, a < 0)                                                         \
  OP(isfinite, isfinite(a), 1)                                                                \
  OP(isposinf, isinf(a) && a > 0, 0)                                                          \
  OP(isneginf, isinf(a) && a < 0, 0)                                                          \
  OP(add, a + b, i_add(a, b))                                                                 \
  OP(sub, a - b, i_sub(a, b))                                                                 \
  OP(mul, a * b, i_mul(a, b))                                                                 \
  OP(div, a / b, i_div(a, b))                                                                 \
  OP(pow, pow(a, b), i_pow(a, b))                                                             \
  OP(fmod, fmod(a, b), i_fmod(a, b))                                                          \
  OP(remainder, FREM(a, b), i_rem(a, b))                                                      \
  OP(maximum, MAXNAN(a, b), a > b ? a : b)                                                    \
  OP(minimum, MINNAN(a, b), a < b ? a : b)                                                    \
  OP(atan2, atan2(a, b), NOINT)                                                               \
  OP(nextafter, nextafter(a, b), NOINT)                                                       \
  OP(eq, a == b, a == b)                                                                      \
  OP(ne, a != b, a != b)                                                                      \
  OP(lt, a < b, a < b)                                                                        \
  OP(le, a <= b, a <= b)                                                                      \
  OP(gt, a > b, a > b)                                                                        \
  OP(ge, a >= b, a >= b)                                                                      \
  OP(logical_and, a != 0 && b != 0, a != 0 && b != 0)                                         \
  OP(logical_or, a != 0 || b != 0, a != 0 || b != 0)                                          \
  OP(bitwise_and, NOFLOAT, a & b)                                                             \
  OP(bitwise_or, NOFLOAT, a | b)                                                              \
  OP(bitwise_xor, NOFLOAT, a ^ b)                                                             \
  OP(bitwise_left_shift, NOFLOAT, i_shl(a, b, dt))                                            \
  OP(bitwise_right_shift, NOFLOAT, i_shr(a, b, dt))                                           \
  OP(logical_right_shift, NOFLOAT, i_lshr(a, b, dt))                                          \
  OP(where, a != 0 ? b : c, a != 0 ? b : c)                                                   \
  OP(clamp, CLAMP(a, b, c), ICLAMP(a, b, c))                                                  \
  OP(lerp, c < (T)0.5 ? a + c * (b - a) : b - (b - a) * ((T)1 - c), NOINT)

/* A kernel computes n results from three operand rows (unused operands
 * point at operand 0's row). Returns false for NOFLOAT/NOINT. */
typedef bool (*ew_kernel)(void *out, void *const *in, int64_t n, fuser_dtype dt);

#define DEFINE_FLOAT_KERNEL(name, fexpr, FT)                                         \
  static bool name##_##FT(void *out_, void *const *in, int64_t n, fuser_dtype dt) {  \
    typedef FT T;                                                                    \
    (void)dt;                                                                        \
    bool unsupported_flag = false, *unsupported = &unsupported_flag;                 \
    T *out = out_;                                                                   \
    const T *A = in[0], *B = in[1], *C = in[2];                                      \
    for (int64_t i = 0; i < n; i++) {                                                \
      T a = A[i], b = B[i], c = C[i];                                                \
      (void)a, (void)b, (void)c;                                                     \
      out[i] = (T)(fexpr);                                                           \
    }                                                                                \
    return !*unsupported;                                                            \
  }

#define DEFINE_KERNELS(name, fexpr, iexpr)                                           \
  DEFINE_FLOAT_KERNEL(name, fexpr, float)                                            \
  DEFINE_FLOAT_KERNEL(name, fexpr, double)                                           \
  static bool name##_int64(void *out_, void *const *in, int64_t n, fuser_dtype dt) { \
    (void)dt;                                                                        \
    bool unsupported_flag = false, *unsupported = &unsupported_flag;                 \
    int64_t *out = out_;                                                             \
    const int64_t *A = in[0], *B = in[1], *C = in[2];                                \
    for (int64_t i = 0; i < n; i++) {                                                \
      int64_t a = A[i], b = B[i], c = C[i];                                          \
      (void)a, (void)b, (void)c;                                                     \
      out[i] = (int64_t)(iexpr);                                                     \
    }                                                                                \
    return !*unsupported;                                                            \
  }

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-value"
#pragma GCC diagnostic ignored "-Wfloat-conversion"
EW_OPS(DEFINE_KERNELS)
#pragma GCC diagnostic pop

/* The kernels by domain (REF_F32, REF_F64, REF_I64), indexed by op id. */
static const struct {
  ew_kernel kernel[3];
} ew_table[FUSER_OP_COUNT] = {
#define TABLE_ENTRY(name, fexpr, iexpr) [FUSER_OP_##name] = {{name##_float, name##_double, name##_int64}},
    EW_OPS(TABLE_ENTRY)
#undef TABLE_ENTRY
};

bool ref_elementwise_knows(fuser_op_id id) { return id == FUSER_OP_cast || ew_table[id].kernel[0] != NULL; }

/* ---- evaluation ------------------------------------------------------------ */

#define CHUNK 4096

typedef struct {
  ref_ctx *c;
  const ref_tensor *in[3]; /* operands broadcast to the result's shape */
  int n_in;
  ref_tensor *out;
  ew_kernel kernel;       /* NULL: a cast */
  ref_domain domain;      /* where the kernel computes */
  fuser_dtype compute_dt; /* the dtype the domain stands for */
  fuser_dtype round_to;   /* float64-mode casts: the dtype whose precision the value takes */
  void *rows[4];
} ew_job;

static bool ew_row(const int64_t *idx, void *user) {
  ew_job *j = user;
  int r = j->out->rank;
  int64_t n = r ? j->out->sizes[r - 1] : 1;
  for (int64_t k0 = 0; k0 < n; k0 += CHUNK) {
    int64_t len = n - k0 < CHUNK ? n - k0 : CHUNK;
    void *in[3];
    for (int k = 0; k < 3; k++) {
      if (k >= j->n_in) {
        in[k] = j->rows[0];
        continue;
      }
      const ref_tensor *t = j->in[k];
      int64_t stride = r ? t->strides[r - 1] : 0;
      ref_load_row(t, ref_outer_offset(t, idx) + k0 * stride, stride, len, j->domain, j->rows[k]);
      in[k] = j->rows[k];
    }
    void *result = in[0];
    if (j->kernel) {
      result = j->rows[3];
      if (!j->kernel(result, in, len, j->compute_dt))
        return ref_fail(j->c, FUSER_REF_ERR_UNSUPPORTED, "'%s' is not defined on %s values",
                        fuser_op_full_name(fuser_op_id_of(j->c->op)), fuser_dtype_mlir_name(j->compute_dt));
    } else if (j->round_to != FUSER_DTYPE_INVALID) {
      ref_round_row(j->round_to, result, len);
    }
    int64_t ostride = r ? j->out->strides[r - 1] : 0;
    ref_store_row(j->out, ref_outer_offset(j->out, idx) + k0 * ostride, ostride, len, j->domain, result);
  }
  return true;
}

/* The result's runtime extents: equal extents, or 1 against anything. */
static bool broadcast_shape(ref_ctx *c, const ref_tensor *ops, int n, int rank, int64_t *sizes) {
  for (int d = 0; d < rank; d++) sizes[d] = 1;
  for (int k = 0; k < n; k++) {
    if (ops[k].rank == 0) continue;
    if (ops[k].rank != rank)
      return ref_fail(c, FUSER_REF_ERR_SHAPE, "operand #%d has rank %d, the result rank %d", k, ops[k].rank, rank);
    for (int d = 0; d < rank; d++) {
      int64_t e = ops[k].sizes[d];
      if (sizes[d] == 1) sizes[d] = e;
      else if (e != 1 && e != sizes[d])
        return ref_fail(c, FUSER_REF_ERR_SHAPE, "operand #%d has extent %lld in dim %d where %lld is expected", k,
                        (long long)e, d, (long long)sizes[d]);
    }
  }
  return true;
}

/* The dtype comparisons and logical ops compute in: the operands' common
 * dtype (bf16/f16 in f32). */
static fuser_dtype operands_dtype(const ref_ctx *c, int n) {
  fuser_dtype dts[3];
  int kinds[3];
  for (int k = 0; k < n; k++) {
    MlirValue v = mlirOperationGetOperand(c->op, k);
    dts[k] = fuser_value_dtype(v);
    kinds[k] = !fuser_value_is_tensor(v) ? FUSER_OPERAND_SCALAR
               : mlirShapedTypeGetRank(mlirValueGetType(v)) == 0 ? FUSER_OPERAND_ZERO_DIM
                                                                : FUSER_OPERAND_TENSOR;
  }
  return fuser_promote_kinds(FUSER_RULE_ARITH, n, dts, kinds, NULL);
}

bool ref_eval_elementwise(ref_ctx *c, const ref_tensor *ops, int n, ref_tensor *res) {
  fuser_op_id id = fuser_op_id_of(c->op);
  ref_type rt;
  if (!ref_result_type(c, 0, &rt)) return false;
  if (n < 1 || n > 3) return ref_fail(c, FUSER_REF_ERR_FUSION, "element-wise op with %d operands", n);
  ew_job j = {.c = c, .n_in = n, .round_to = FUSER_DTYPE_INVALID};
  if (id == FUSER_OP_cast) {
    /* the source's widest domain, then one rounding into the result dtype */
    j.domain = fuser_dtype_is_float(ops[0].dtype) ? REF_F64 : REF_I64;
    if (c->options.f64 && fuser_dtype_is_float(rt.dtype)) j.round_to = rt.dtype;
  } else {
    if (!ew_table[id].kernel[0]) return ref_fail(c, FUSER_REF_ERR_UNSUPPORTED, "no element-wise semantics for '%s'",
                                                 fuser_op_full_name(id));
    fuser_rule rule = fuser_op_rule_of(id);
    j.compute_dt = rule == FUSER_RULE_COMPARE || rule == FUSER_RULE_BOOL ? operands_dtype(c, n) : rt.dtype;
    if (j.compute_dt == FUSER_DTYPE_INVALID)
      return ref_fail(c, FUSER_REF_ERR_UNSUPPORTED, "operand dtypes of '%s' have no common dtype", fuser_op_full_name(id));
    j.domain = ref_domain_of(c, j.compute_dt);
    j.kernel = ew_table[id].kernel[j.domain];
  }
  int rank = rt.is_tensor ? rt.rank : 0;
  int64_t sizes[FUSER_MAX_RANK];
  if (!broadcast_shape(c, ops, n, rank, sizes) || !ref_check_extents(c, &rt, sizes)) return false;
  if (!ref_alloc(c, ref_storage_dtype(c, rt.dtype), rank, sizes, &res[0])) return false;
  ref_tensor views[3];
  for (int k = 0; k < n; k++) {
    views[k] = ops[k];
    views[k].rank = rank;
    for (int d = 0; d < rank; d++) {
      bool broadcast = ops[k].rank == 0 || (ops[k].sizes[d] == 1 && sizes[d] != 1);
      views[k].sizes[d] = sizes[d];
      views[k].strides[d] = broadcast ? 0 : ops[k].strides[d];
    }
    j.in[k] = &views[k];
  }
  j.out = &res[0];
  int64_t row = rank ? sizes[rank - 1] : 1;
  size_t bytes = (size_t)(row < CHUNK ? (row ? row : 1) : CHUNK) * REF_DOMAIN_SIZE;
  bool ok = true;
  for (int k = 0; k < 4; k++) ok &= (j.rows[k] = malloc(bytes)) != NULL;
  if (!ok) ref_fail(c, FUSER_REF_ERR_MEMORY, "out of memory");
  else ok = ref_for_each_row(rank, sizes, ew_row, &j);
  for (int k = 0; k < 4; k++) free(j.rows[k]);
  if (!ok) ref_release(&res[0]);
  return ok;
}
