/* Matrix products: matmul (torch.matmul) and linear (input @ weight.T + bias).
 *
 * Both reduce to one loop nest over a batch of [M, K] x [K, N] products,
 * described by strides (fuser_ref_matmul_desc): a 1-D matmul operand has a
 * stride-0 M or N dim of extent 1, broadcast batch dims have stride 0, and
 * linear's weight [N, K] is read transposed through its strides (no copy).
 * Accumulation is in f32 for bf16/f16/f32 (f64 in float64 mode), in k
 * order, as cuBLAS computes with CUBLAS_COMPUTE_32F; the bias is added to
 * the f32 sum and the result rounded once to the dtype, as cuBLASLt's bias
 * epilogue does. The CPU plan runs matmul segments through this same code
 * (fuser_ref_matmul_run, on raw buffers), so the CPU JIT and the reference
 * agree by construction.
 */
#include <stdlib.h>
#include <string.h>

#include "reference/ops.h"

typedef struct {
  int nb;                           /* batch dims */
  int64_t batch[FUSER_MAX_RANK];    /* their extents */
  int64_t a_bs[FUSER_MAX_RANK], b_bs[FUSER_MAX_RANK], o_bs[FUSER_MAX_RANK];
  int64_t m, n, k;
  int64_t a_m, a_k, b_k, b_n, o_m, o_n; /* element strides; 0 where the dim is absent */
  int64_t bias_n;                   /* bias stride along N (0: a 0-dim bias) */
} mm_desc;

/* Batch dim `d` of a `nb`-dim batch, read from operand dims [0, t_nb)
 * aligned right: its stride, 0 when absent or broadcast (extent 1). */
static bool batch_dim(ref_ctx *c, const ref_tensor *t, int t_nb, int nb, int d, int64_t *extent, int64_t *stride) {
  int td = d - (nb - t_nb);
  int64_t e = td >= 0 ? t->sizes[td] : 1;
  *stride = td >= 0 && e != 1 ? t->strides[td] : 0;
  if (e == 1) return true;
  if (*extent != 1 && *extent != e)
    return ref_fail(c, FUSER_REF_ERR_SHAPE, "batch dim %d has extents %lld and %lld", d, (long long)*extent, (long long)e);
  *extent = e;
  return true;
}

static bool describe(ref_ctx *c, fuser_op_id id, const ref_tensor *ops, int n, mm_desc *d) {
  memset(d, 0, sizeof *d);
  const ref_tensor *a = &ops[0], *b = &ops[1];
  if (a->rank < 1 || b->rank < 1) return ref_fail(c, FUSER_REF_ERR_FUSION, "matrix product of a 0-dim tensor");
  int64_t kb;
  if (id == FUSER_OP_linear) {
    /* input [batch..., M, K] (M absent when 1-D), weight [N, K] or [K] */
    d->nb = a->rank > 2 ? a->rank - 2 : 0;
    for (int i = 0; i < d->nb; i++) d->batch[i] = a->sizes[i], d->a_bs[i] = a->strides[i];
    d->m = a->rank >= 2 ? a->sizes[a->rank - 2] : 1;
    d->a_m = a->rank >= 2 ? a->strides[a->rank - 2] : 0;
    d->k = a->sizes[a->rank - 1], d->a_k = a->strides[a->rank - 1];
    kb = b->sizes[b->rank - 1], d->b_k = b->strides[b->rank - 1];
    d->n = b->rank == 2 ? b->sizes[0] : 1;
    d->b_n = b->rank == 2 ? b->strides[0] : 0;
    if (n == 3) {
      const ref_tensor *bias = &ops[2];
      if (bias->rank == 1 && bias->sizes[0] != d->n)
        return ref_fail(c, FUSER_REF_ERR_SHAPE, "bias has %lld elements for N = %lld", (long long)bias->sizes[0], (long long)d->n);
      d->bias_n = bias->rank == 1 ? bias->strides[0] : 0;
    }
  } else {
    int a_nb = a->rank > 2 ? a->rank - 2 : 0, b_nb = b->rank > 2 ? b->rank - 2 : 0;
    d->nb = a_nb > b_nb ? a_nb : b_nb;
    for (int i = 0; i < d->nb; i++) {
      d->batch[i] = 1;
      if (!batch_dim(c, a, a_nb, d->nb, i, &d->batch[i], &d->a_bs[i]) ||
          !batch_dim(c, b, b_nb, d->nb, i, &d->batch[i], &d->b_bs[i]))
        return false;
    }
    d->m = a->rank >= 2 ? a->sizes[a->rank - 2] : 1;
    d->a_m = a->rank >= 2 ? a->strides[a->rank - 2] : 0;
    d->k = a->sizes[a->rank - 1], d->a_k = a->strides[a->rank - 1];
    kb = b->sizes[b->rank == 1 ? 0 : b->rank - 2], d->b_k = b->strides[b->rank == 1 ? 0 : b->rank - 2];
    d->n = b->rank >= 2 ? b->sizes[b->rank - 1] : 1;
    d->b_n = b->rank >= 2 ? b->strides[b->rank - 1] : 0;
  }
  if (kb != d->k)
    return ref_fail(c, FUSER_REF_ERR_SHAPE, "contraction extents %lld and %lld differ", (long long)d->k, (long long)kb);
  return true;
}

/* The result's sizes: batch, then M and N where present. */
static int result_sizes(fuser_op_id id, const ref_tensor *ops, const mm_desc *d, int64_t *sizes, int *m_dim, int *n_dim) {
  int r = 0;
  for (int i = 0; i < d->nb; i++) sizes[r++] = d->batch[i];
  bool has_m = ops[0].rank >= 2, has_n = id == FUSER_OP_linear ? ops[1].rank == 2 : ops[1].rank >= 2;
  *m_dim = has_m ? r : -1;
  if (has_m) sizes[r++] = d->m;
  *n_dim = has_n ? r : -1;
  if (has_n) sizes[r++] = d->n;
  return r;
}

#define MM_LOOP(T)                                                                                             \
  do {                                                                                                         \
    T *arow = rows, *bp = arow + d->k, *orow = bp + d->n * d->k, *brow = orow + d->n;                           \
    if (bias) ref_load_row(bias, bias->offset, d->bias_n, d->n, dom, brow);                                    \
    for (int64_t nn = 0; nn < d->n; nn++) ref_load_row(b, b_off + nn * d->b_n, d->b_k, d->k, dom, bp + nn * d->k); \
    for (int64_t mm = 0; mm < d->m; mm++) {                                                                    \
      ref_load_row(a, a_off + mm * d->a_m, d->a_k, d->k, dom, arow);                                           \
      for (int64_t nn = 0; nn < d->n; nn++) {                                                                  \
        T acc = 0;                                                                                             \
        const T *col = bp + nn * d->k;                                                                         \
        for (int64_t kk = 0; kk < d->k; kk++) acc += arow[kk] * col[kk];                                       \
        orow[nn] = bias ? acc + brow[nn] : acc;                                                                \
      }                                                                                                        \
      ref_store_row(out, o_off + mm * d->o_m, d->o_n, d->n, dom, orow);                                        \
    }                                                                                                          \
  } while (0)

/* Runs the products of `d` (every extent > 0); false when out of memory. */
static bool mm_run(const mm_desc *d, const ref_tensor *a, const ref_tensor *b, const ref_tensor *bias, ref_tensor *out,
                   ref_domain dom) {
  size_t elems = (size_t)(d->k + d->n * d->k + 2 * d->n + 1);
  void *rows = malloc(elems * REF_DOMAIN_SIZE);
  if (!rows) return false;
  int64_t nbatch = 1, idx[FUSER_MAX_RANK] = {0};
  for (int i = 0; i < d->nb; i++) nbatch *= d->batch[i];
  for (int64_t bi = 0; bi < nbatch; bi++) {
    int64_t a_off = a->offset, b_off = b->offset, o_off = out->offset;
    for (int i = 0; i < d->nb; i++) a_off += idx[i] * d->a_bs[i], b_off += idx[i] * d->b_bs[i], o_off += idx[i] * d->o_bs[i];
    if (dom == REF_F64) MM_LOOP(double);
    else MM_LOOP(float);
    for (int i = d->nb - 1; i >= 0 && ++idx[i] == d->batch[i]; i--) idx[i] = 0;
  }
  free(rows);
  return true;
}

bool ref_eval_matmul(ref_ctx *c, const ref_tensor *ops, int n, ref_tensor *res) {
  fuser_op_id id = fuser_op_id_of(c->op);
  if (n != 2 && !(id == FUSER_OP_linear && n == 3))
    return ref_fail(c, FUSER_REF_ERR_FUSION, "'%s' has %d operands", fuser_op_full_name(id), n);
  ref_type rt;
  if (!ref_result_type(c, 0, &rt)) return false;
  mm_desc dd, *d = &dd;
  if (!describe(c, id, ops, n, d)) return false;
  int64_t sizes[FUSER_MAX_RANK + 2];
  int m_dim, n_dim, rank = result_sizes(id, ops, d, sizes, &m_dim, &n_dim);
  if (rank != rt.rank) return ref_fail(c, FUSER_REF_ERR_FUSION, "result rank %d, the type says %d", rank, rt.rank);
  if (!ref_check_extents(c, &rt, sizes)) return false;
  if (!ref_alloc(c, ref_storage_dtype(c, rt.dtype), rank, sizes, &res[0])) return false;
  ref_tensor *out = &res[0];
  for (int i = 0; i < d->nb; i++) d->o_bs[i] = out->strides[i];
  d->o_m = m_dim >= 0 ? out->strides[m_dim] : 0;
  d->o_n = n_dim >= 0 ? out->strides[n_dim] : 0;
  if (ref_numel(out) == 0) return true;
  if (!mm_run(d, &ops[0], &ops[1], n == 3 ? &ops[2] : NULL, out, ref_domain_of(c, rt.dtype))) {
    ref_release(out);
    return ref_fail(c, FUSER_REF_ERR_MEMORY, "out of memory");
  }
  return true;
}

/* A raw buffer as a rank-0 view: ref_load_row/ref_store_row address it by
 * element offset and stride alone. */
static ref_tensor raw_view(ref_buffer *buf, fuser_dtype dt, const void *data) {
  *buf = (ref_buffer){.refs = 1, .owned = false, .data = (void *)data};
  return (ref_tensor){.dtype = dt, .buf = buf};
}

bool fuser_ref_matmul_run(const fuser_ref_matmul_args *x) {
  if (x->batch < 0 || x->batch > FUSER_MAX_RANK) return false;
  mm_desc d = {.nb = x->batch, .m = x->m, .n = x->n, .k = x->k, .a_m = x->a_m, .a_k = x->a_k, .b_k = x->b_k,
               .b_n = x->b_n, .o_m = x->out_m, .o_n = x->out_n, .bias_n = x->bias_n};
  for (int i = 0; i < x->batch; i++) {
    d.batch[i] = x->batch_size[i], d.a_bs[i] = x->a_batch[i], d.b_bs[i] = x->b_batch[i], d.o_bs[i] = x->out_batch[i];
    if (d.batch[i] == 0) return true;
  }
  if (d.m == 0 || d.n == 0) return true;
  ref_buffer ba, bb, bc, bo;
  ref_tensor a = raw_view(&ba, x->dtype, x->a), b = raw_view(&bb, x->dtype, x->b), o = raw_view(&bo, x->dtype, x->out);
  ref_tensor bias = raw_view(&bc, x->dtype, x->bias);
  return mm_run(&d, &a, &b, x->bias ? &bias : NULL, &o, REF_F32);
}

bool ref_matmul_knows(fuser_op_id id) { return id == FUSER_OP_matmul || id == FUSER_OP_linear; }
