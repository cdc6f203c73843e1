/* Reductions: sum, prod, max, min and var_mean.
 *
 * Each output element accumulates its inputs in row-major order of the
 * reduced dims, in the domain of the declared result dtype: float for
 * f32/bf16/f16 (a bf16 sum accumulates in f32 and rounds once at the end),
 * double for f64 and in float64 mode, int64 for integers and bool. max/min
 * propagate NaN; over zero elements sum is 0, prod 1, max -inf (the
 * dtype's lowest integer) and min +inf (highest), nvFuser's init values.
 * var_mean is two-pass: mean = sum / N, var = sum((x - mean)^2) /
 * max(0, N - correction), both in the result dtype's domain.
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

typedef struct {
  ref_ctx *c;
  fuser_op_id op;
  ref_domain domain;
  acc_t acc, mean; /* mean: var_mean's second pass subtracts it */
  bool second_pass;
  const ref_tensor *part; /* the reduced dims of one output element */
  void *row;
} red_job;

#define MAXNAN(a, b) (isnan(a) ? (a) : isnan(b) ? (b) : (a) > (b) ? (a) : (b))
#define MINNAN(a, b) (isnan(a) ? (a) : isnan(b) ? (b) : (a) < (b) ? (a) : (b))

#define ACCUMULATE_FLOAT(T, field)                                   \
  do {                                                               \
    const T *x = j->row;                                             \
    T a = j->acc.field, m = j->mean.field;                           \
    if (j->second_pass)                                              \
      for (int64_t k = 0; k < n; k++) a += (x[k] - m) * (x[k] - m);  \
    else if (j->op == FUSER_OP_prod)                                 \
      for (int64_t k = 0; k < n; k++) a *= x[k];                     \
    else if (j->op == FUSER_OP_max)                                  \
      for (int64_t k = 0; k < n; k++) a = MAXNAN(a, x[k]);           \
    else if (j->op == FUSER_OP_min)                                  \
      for (int64_t k = 0; k < n; k++) a = MINNAN(a, x[k]);           \
    else                                                             \
      for (int64_t k = 0; k < n; k++) a += x[k];                     \
    j->acc.field = a;                                                \
  } while (0)

static bool accumulate_row(const int64_t *idx, void *user) {
  red_job *j = user;
  const ref_tensor *t = j->part;
  int r = t->rank;
  int64_t n = r ? t->sizes[r - 1] : 1, stride = r ? t->strides[r - 1] : 0;
  ref_load_row(t, ref_outer_offset(t, idx), stride, n, j->domain, j->row);
  if (j->domain == REF_F32) ACCUMULATE_FLOAT(float, f);
  else if (j->domain == REF_F64) ACCUMULATE_FLOAT(double, d);
  else {
    const int64_t *x = j->row;
    for (int64_t k = 0; k < n; k++) {
      uint64_t a = (uint64_t)j->acc.i; /* wrapping arithmetic, as the integer dtypes do */
      if (j->op == FUSER_OP_prod) j->acc.i = (int64_t)(a * (uint64_t)x[k]);
      else if (j->op == FUSER_OP_max) j->acc.i = x[k] > j->acc.i ? x[k] : j->acc.i;
      else if (j->op == FUSER_OP_min) j->acc.i = x[k] < j->acc.i ? x[k] : j->acc.i;
      else j->acc.i = (int64_t)(a + (uint64_t)x[k]);
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

/* acc divided by a count, in the domain */
static acc_t divide(acc_t a, ref_domain domain, int64_t count) {
  if (domain == REF_F32) a.f = a.f / (float)count;
  else if (domain == REF_F64) a.d = a.d / (double)count;
  else a.i = count ? a.i / count : 0;
  return a;
}

static void store_one(ref_tensor *out, int64_t offset, ref_domain domain, acc_t a) {
  ref_store_row(out, offset, 1, 1, domain, &a);
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
  /* part: the reduced dims (a view); outer: the kept dims */
  ref_tensor part = *in, outer = *in;
  int64_t out_sizes[FUSER_MAX_RANK], count = 1;
  int np = 0, no = 0, nout = 0;
  for (int d = 0; d < in->rank; d++) {
    if (reduced[d]) {
      part.sizes[np] = in->sizes[d], part.strides[np++] = in->strides[d];
      count *= in->sizes[d];
      if (keepdim) out_sizes[nout++] = 1;
    } else {
      outer.sizes[no] = in->sizes[d], outer.strides[no++] = in->strides[d];
      out_sizes[nout++] = in->sizes[d];
    }
  }
  part.rank = np;
  outer.rank = no;
  int nres = var_mean ? 2 : 1;
  fuser_dtype store_dt = ref_storage_dtype(c, rt.dtype);
  for (int k = 0; k < nres; k++)
    if (!ref_alloc(c, store_dt, nout, out_sizes, &res[k])) {
      if (k) ref_release(&res[0]);
      return false;
    }
  int64_t row = np ? part.sizes[np - 1] : 1;
  red_job j = {.c = c, .op = id, .domain = ref_domain_of(c, rt.dtype), .part = &part};
  j.row = malloc((size_t)(row ? row : 1) * REF_DOMAIN_SIZE);
  if (!j.row) {
    for (int k = 0; k < nres; k++) ref_release(&res[k]);
    return ref_fail(c, FUSER_REF_ERR_MEMORY, "out of memory");
  }
  int64_t total = ref_numel(&outer), idx[FUSER_MAX_RANK] = {0};
  for (int64_t o = 0; o < total; o++) {
    part.offset = in->offset;
    for (int d = 0; d < no; d++) part.offset += idx[d] * outer.strides[d];
    j.second_pass = false;
    j.acc = initial(var_mean ? FUSER_OP_sum : id, j.domain, rt.dtype);
    ref_for_each_row(np, part.sizes, accumulate_row, &j);
    if (var_mean) {
      j.mean = divide(j.acc, j.domain, count);
      store_one(&res[1], o, j.domain, j.mean);
      j.second_pass = true;
      j.acc = initial(FUSER_OP_sum, j.domain, rt.dtype);
      ref_for_each_row(np, part.sizes, accumulate_row, &j);
      int64_t dof = count - correction;
      acc_t var = j.acc;
      if (j.domain == REF_F32) var.f = var.f / (float)(dof > 0 ? dof : 0);
      else var.d = var.d / (double)(dof > 0 ? dof : 0);
      store_one(&res[0], o, j.domain, var);
    } else {
      store_one(&res[0], o, j.domain, j.acc);
    }
    for (int d = no - 1; d >= 0 && ++idx[d] == outer.sizes[d]; d--) idx[d] = 0;
  }
  free(j.row);
  return true;
}
