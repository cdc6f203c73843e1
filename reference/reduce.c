/* Reductions: sum, prod, max, min and var_mean.
 *
 * Each output element accumulates its inputs in row-major order of the
 * reduced dims, in the domain of the declared result dtype: float for
 * f32/bf16/f16, double for f64 and in float64 mode, int64 for integers and
 * bool. max/min propagate NaN; over zero elements sum is 0, prod 1, max
 * -inf (the dtype's lowest integer) and min +inf (highest), nvFuser's init
 * values. var_mean is two-pass: mean = sum / N rounded to the domain (the
 * f32 value nvFuser's kernel holds), var = sum((x - mean)^2) / max(0, N -
 * correction).
 * Every floating sum (sum, and var_mean's two) accumulates in double and
 * rounds once to its dtype: the results are compared at the ulp of their
 * own dtype, and a sequential f32 sum is the inaccurate side there (a
 * sequential f32 sum of 1000 squared deviations is tens of ulp off;
 * logsumexp's f32 sum over 128,256 exp terms was 58 ulp from the kernels'
 * pairwise trees, which are within 1 ulp of the exact sum), so the oracle
 * is the accurate side. prod keeps the domain's (f32) product in sequence.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reference/ops.h"

typedef union {
  float f;
  double d;
  int64_t i;
} acc_t;

/* The input is read once in row-major order; every element is combined into
 * the accumulator of its output element. For each output element that is
 * exactly the row-major order of its reduced dims. */
typedef struct {
  fuser_op_id op;
  ref_domain domain;
  bool second_pass;           /* var_mean: sum of squared deviations from mean[] */
  const ref_tensor *in;
  int64_t acc_stride[FUSER_MAX_RANK]; /* accumulator index step per input dim (0: reduced) */
  acc_t *acc, *mean;
  void *row;
} red_job;

#define MAXNAN(a, b) (isnan(a) ? (a) : isnan(b) ? (b) : (a) > (b) ? (a) : (b))
#define MINNAN(a, b) (isnan(a) ? (a) : isnan(b) ? (b) : (a) < (b) ? (a) : (b))

#define ACCUMULATE_FLOAT(T, field)                                                     \
  do {                                                                                 \
    const T *x = j->row;                                                               \
    if (j->second_pass)                                                                \
      for (int64_t k = 0; k < n; k++) {                                                \
        acc_t *a = &j->acc[base + k * step];                                           \
        T dev = x[k] - j->mean[base + k * step].field;                                 \
        a->field += dev * dev;                                                         \
      }                                                                                \
    else if (j->op == FUSER_OP_prod)                                                   \
      for (int64_t k = 0; k < n; k++) j->acc[base + k * step].field *= x[k];           \
    else if (j->op == FUSER_OP_max)                                                    \
      for (int64_t k = 0; k < n; k++) {                                                \
        acc_t *a = &j->acc[base + k * step];                                           \
        a->field = MAXNAN(a->field, x[k]);                                             \
      }                                                                                \
    else if (j->op == FUSER_OP_min)                                                    \
      for (int64_t k = 0; k < n; k++) {                                                \
        acc_t *a = &j->acc[base + k * step];                                           \
        a->field = MINNAN(a->field, x[k]);                                             \
      }                                                                                \
    else                                                                               \
      for (int64_t k = 0; k < n; k++) j->acc[base + k * step].field += x[k];           \
  } while (0)

static bool accumulate_row(const int64_t *idx, void *user) {
  red_job *j = user;
  const ref_tensor *t = j->in;
  int r = t->rank;
  int64_t n = r ? t->sizes[r - 1] : 1, stride = r ? t->strides[r - 1] : 0;
  int64_t base = 0, step = r ? j->acc_stride[r - 1] : 0;
  for (int d = 0; d + 1 < r; d++) base += idx[d] * j->acc_stride[d];
  ref_load_row(t, ref_outer_offset(t, idx), stride, n, j->domain, j->row);
  if (j->domain == REF_F32) ACCUMULATE_FLOAT(float, f);
  else if (j->domain == REF_F64) ACCUMULATE_FLOAT(double, d);
  else {
    const int64_t *x = j->row;
    for (int64_t k = 0; k < n; k++) {
      acc_t *a = &j->acc[base + k * step];
      uint64_t u = (uint64_t)a->i; /* wrapping arithmetic, as the integer dtypes do */
      if (j->op == FUSER_OP_prod) a->i = (int64_t)(u * (uint64_t)x[k]);
      else if (j->op == FUSER_OP_max) a->i = x[k] > a->i ? x[k] : a->i;
      else if (j->op == FUSER_OP_min) a->i = x[k] < a->i ? x[k] : a->i;
      else a->i = (int64_t)(u + (uint64_t)x[k]);
    }
  }
  return true;
}

static acc_t initial(fuser_op_id op, ref_domain domain, fuser_dtype dt) {
  acc_t a;
  memset(&a, 0, sizeof a);
  bool is_max = op == FUSER_OP_max, is_min = op == FUSER_OP_min;
  double v = op == FUSER_OP_prod ? 1 : is_max ? -INFINITY : is_min ? INFINITY : 0;
  if (domain == REF_F32) a.f = (float)v;
  else if (domain == REF_F64) a.d = v;
  else if (is_max) a.i = dt == FUSER_DTYPE_I1 ? 0 : dt == FUSER_DTYPE_I32 ? INT32_MIN : INT64_MIN;
  else if (is_min) a.i = dt == FUSER_DTYPE_I1 ? 1 : dt == FUSER_DTYPE_I32 ? INT32_MAX : INT64_MAX;
  else a.i = op == FUSER_OP_prod;
  return a;
}

/* acc divided by a count, in the domain (count 0 gives 0/0 = NaN, as torch) */
static acc_t divide(acc_t a, ref_domain domain, int64_t count) {
  if (domain == REF_F32) a.f = a.f / (float)count;
  else if (domain == REF_F64) a.d = a.d / (double)count;
  else a.i = count ? a.i / count : 0;
  return a;
}

static void store_all(ref_tensor *out, ref_domain domain, const acc_t *acc, int64_t n) {
  for (int64_t o = 0; o < n; o++) ref_store_row(out, o, 1, 1, domain, &acc[o]);
}

bool ref_eval_reduction(ref_ctx *c, const ref_tensor *ops, int n, ref_tensor *res) {
  fuser_op_id id = fuser_op_id_of(c->op);
  bool var_mean = id == FUSER_OP_var_mean;
  ref_type rt;
  int64_t dims[FUSER_MAX_RANK + 1], keepdim = 0, correction = 0;
  int nd;
  if (!ref_result_type(c, 0, &rt) || !ref_attr_i64_array(c, "dims", dims, FUSER_MAX_RANK, &nd) ||
      !ref_attr_i64(c, "keepdim", &keepdim) || (var_mean && !ref_attr_i64(c, "correction", &correction)))
    return false;
  if (n != 1 || (ops[0].rank == 0 && nd > 0)) return ref_fail(c, FUSER_REF_ERR_FUSION, "a reduction takes one tensor");
  const ref_tensor *in = &ops[0];
  bool reduced[FUSER_MAX_RANK] = {0};
  for (int i = 0; i < nd; i++) {
    int64_t d = dims[i] < 0 ? dims[i] + in->rank : dims[i];
    if (d < 0 || d >= in->rank || reduced[d])
      return ref_fail(c, FUSER_REF_ERR_FUSION, "reduction dims must be distinct dims of the input");
    reduced[d] = true;
  }
  int64_t out_sizes[FUSER_MAX_RANK], count = 1, total = 1;
  int nout = 0;
  ref_domain compute = ref_domain_of(c, rt.dtype);
  red_job j = {.op = var_mean ? FUSER_OP_sum : id, .domain = compute, .in = in};
  if (compute == REF_F32 && (var_mean || id == FUSER_OP_sum)) j.domain = REF_F64; /* float sums accumulate in double */
  for (int d = in->rank - 1; d >= 0; d--) { /* kept dims, row-major over the output */
    j.acc_stride[d] = reduced[d] ? 0 : total;
    if (reduced[d]) count *= in->sizes[d];
    else total *= in->sizes[d];
  }
  for (int d = 0; d < in->rank; d++)
    if (!reduced[d]) out_sizes[nout++] = in->sizes[d];
    else if (keepdim) out_sizes[nout++] = 1;
  int nres = var_mean ? 2 : 1;
  fuser_dtype store_dt = ref_storage_dtype(c, rt.dtype);
  for (int k = 0; k < nres; k++)
    if (!ref_alloc(c, store_dt, nout, out_sizes, &res[k])) {
      if (k) ref_release(&res[0]);
      return false;
    }
  int64_t row = in->rank ? in->sizes[in->rank - 1] : 1;
  j.row = malloc((size_t)(row ? row : 1) * REF_DOMAIN_SIZE);
  j.acc = malloc((size_t)(total ? total : 1) * sizeof(acc_t));
  j.mean = var_mean ? malloc((size_t)(total ? total : 1) * sizeof(acc_t)) : NULL;
  if (!j.row || !j.acc || (var_mean && !j.mean)) {
    free(j.row), free(j.acc), free(j.mean);
    for (int k = 0; k < nres; k++) ref_release(&res[k]);
    return ref_fail(c, FUSER_REF_ERR_MEMORY, "out of memory");
  }
  acc_t init = initial(j.op, j.domain, rt.dtype);
  for (int64_t o = 0; o < total; o++) j.acc[o] = init;
  ref_for_each_row(in->rank, in->sizes, accumulate_row, &j);
  if (var_mean) {
    for (int64_t o = 0; o < total; o++) {
      j.mean[o] = divide(j.acc[o], j.domain, count), j.acc[o] = init;
      if (compute == REF_F32) j.mean[o].d = (float)j.mean[o].d; /* the f32 mean the deviations subtract */
    }
    store_all(&res[1], j.domain, j.mean, total);
    j.second_pass = true;
    ref_for_each_row(in->rank, in->sizes, accumulate_row, &j);
    int64_t dof = count - correction > 0 ? count - correction : 0;
    for (int64_t o = 0; o < total; o++) {
      if (j.domain == REF_F32) j.acc[o].f = j.acc[o].f / (float)dof;
      else j.acc[o].d = j.acc[o].d / (double)dof;
    }
  }
  store_all(&res[0], j.domain, j.acc, total);
  free(j.row);
  free(j.acc);
  free(j.mean);
  return true;
}

bool ref_reduction_knows(fuser_op_id id) {
  return id == FUSER_OP_sum || id == FUSER_OP_prod || id == FUSER_OP_max || id == FUSER_OP_min || id == FUSER_OP_var_mean;
}
