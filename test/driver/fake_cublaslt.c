/* fake_cublaslt.c: a stand-in libcublasLt for the runtime's matmul kernels
 * on CPU (with fake_cuda.c, whose "device" memory is host memory). It
 * implements the entry points driver/cublaslt.c resolves with cuBLASLt's
 * semantics as cublasLt.h states them, checks what it is given (attribute
 * sizes, layouts that fit the operation, ld >= rows), and computes
 * D = op(A) op(B) (+ bias along D's rows) column-major on the CPU, in f32
 * with one rounding, so a test sees whether the runtime's row-major to
 * column-major mapping is right by the numbers it gets back. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "driver/half.h"
#include "fake_cublaslt.h"

enum { OK = 0, INVALID_VALUE = 7, EXECUTION_FAILED = 13, NOT_SUPPORTED = 15 };
enum { R_32F = 0, R_16F = 2, R_16BF = 14 };

fake_lt_state fake_cublaslt_state = {.heuristic_workspace = 4096};

typedef struct {
  int compute, scale;
  int32_t trans[2];
  uint32_t epilogue;
  const void *bias;
  int32_t bias_type;
} desc;
typedef struct {
  int type;
  uint64_t rows, cols;
  int64_t ld;
  int32_t count;
  int64_t stride;
} layout;
typedef struct {
  uint64_t max_workspace;
  uint32_t align[4];
} pref;
typedef struct {
  uint64_t data[8];
} algo;
typedef struct {
  algo a;
  size_t workspace_size;
  int state;
  float waves;
  int reserved[4];
} heuristic_result;

int cublasLtCreate(void **handle) {
  fake_cublaslt_state.creates++;
  *handle = (void *)(uintptr_t)0x17;
  return OK;
}
const char *cublasLtGetStatusName(int s) { return s == OK ? "CUBLAS_STATUS_SUCCESS" : "CUBLAS_STATUS_FAKE"; }

int cublasLtMatmulDescCreate(desc **d, int compute, int scale) {
  if (compute != 68 || scale != R_32F) return NOT_SUPPORTED; /* f32 accumulation, f32 alpha/beta */
  *d = calloc(1, sizeof **d);
  (*d)->compute = compute, (*d)->scale = scale, (*d)->epilogue = 1, (*d)->bias_type = -1;
  fake_cublaslt_state.desc_creates++;
  return OK;
}
int cublasLtMatmulDescDestroy(desc *d) {
  free(d);
  return OK;
}
int cublasLtMatmulDescSetAttribute(desc *d, int attr, const void *buf, size_t size) {
  switch (attr) {
  case 3: case 4: /* TRANSA, TRANSB: int32 */
    if (size != 4) return INVALID_VALUE;
    memcpy(&d->trans[attr - 3], buf, 4);
    return d->trans[attr - 3] == 0 || d->trans[attr - 3] == 1 ? OK : INVALID_VALUE;
  case 7: /* EPILOGUE: uint32 */
    if (size != 4) return INVALID_VALUE;
    memcpy(&d->epilogue, buf, 4);
    return d->epilogue == 1 || d->epilogue == 4 ? OK : NOT_SUPPORTED;
  case 8: /* BIAS_POINTER */
    if (size != sizeof(void *)) return INVALID_VALUE;
    memcpy(&d->bias, buf, sizeof(void *));
    return OK;
  case 26: /* BIAS_DATA_TYPE: int32 */
    if (size != 4) return INVALID_VALUE;
    memcpy(&d->bias_type, buf, 4);
    return OK;
  }
  return NOT_SUPPORTED;
}

int cublasLtMatrixLayoutCreate(layout **l, int type, uint64_t rows, uint64_t cols, int64_t ld) {
  if (type != R_32F && type != R_16F && type != R_16BF) return NOT_SUPPORTED;
  if (ld < 0 || (cols > 1 && (uint64_t)ld < rows)) return INVALID_VALUE; /* columns must not overlap */
  *l = calloc(1, sizeof **l);
  (*l)->type = type, (*l)->rows = rows, (*l)->cols = cols, (*l)->ld = ld, (*l)->count = 1;
  return OK;
}
int cublasLtMatrixLayoutDestroy(layout *l) {
  free(l);
  return OK;
}
int cublasLtMatrixLayoutSetAttribute(layout *l, int attr, const void *buf, size_t size) {
  if (attr == 5 && size == 4) return memcpy(&l->count, buf, 4), l->count >= 1 ? OK : INVALID_VALUE;
  if (attr == 6 && size == 8) return memcpy(&l->stride, buf, 8), OK;
  return attr == 5 || attr == 6 ? INVALID_VALUE : NOT_SUPPORTED;
}

int cublasLtMatmulPreferenceCreate(pref **p) {
  *p = calloc(1, sizeof **p);
  for (int i = 0; i < 4; i++) (*p)->align[i] = 256;
  return OK;
}
int cublasLtMatmulPreferenceDestroy(pref *p) {
  free(p);
  return OK;
}
int cublasLtMatmulPreferenceSetAttribute(pref *p, int attr, const void *buf, size_t size) {
  if (attr == 1 && size == 8) return memcpy(&p->max_workspace, buf, 8), OK;
  if (attr >= 5 && attr <= 8 && size == 4) return memcpy(&p->align[attr - 5], buf, 4), OK;
  return INVALID_VALUE;
}

/* op(A) is m x k, op(B) k x n, C and D m x n, every batch count equal. */
static int shapes_fit(const desc *d, const layout *a, const layout *b, const layout *c, const layout *dl) {
  uint64_t m = d->trans[0] ? a->cols : a->rows, ka = d->trans[0] ? a->rows : a->cols;
  uint64_t kb = d->trans[1] ? b->cols : b->rows, n = d->trans[1] ? b->rows : b->cols;
  return ka == kb && c->rows == m && c->cols == n && dl->rows == m && dl->cols == n && a->type == dl->type &&
         b->type == dl->type && a->count == dl->count && b->count == dl->count && c->count == dl->count;
}

int cublasLtMatmulAlgoGetHeuristic(void *handle, desc *d, layout *a, layout *b, layout *c, layout *dl, pref *p,
                                   int requested, heuristic_result *results, int *returned) {
  fake_cublaslt_state.heuristics++;
  memcpy(fake_cublaslt_state.align, p->align, sizeof p->align);
  if (requested < 1 || !shapes_fit(d, a, b, c, dl)) return INVALID_VALUE;
  if (d->epilogue == 4 && (!d->bias || d->bias_type != dl->type)) return INVALID_VALUE;
  *returned = 0;
  if (fake_cublaslt_state.no_algorithm) return OK;
  memset(&results[0], 0, sizeof results[0]);
  results[0].workspace_size = fake_cublaslt_state.heuristic_workspace;
  if (results[0].workspace_size > p->max_workspace) results[0].workspace_size = p->max_workspace;
  results[0].a.data[0] = 0xa160;
  *returned = 1;
  return OK;
}

static float load(int type, const void *base, int64_t i) {
  if (type == R_32F) return ((const float *)base)[i];
  uint16_t h = ((const uint16_t *)base)[i];
  return type == R_16BF ? fuser_bf16_to_f32(h) : fuser_f16_to_f32(h);
}
static void store(int type, void *base, int64_t i, float v) {
  if (type == R_32F) ((float *)base)[i] = v;
  else ((uint16_t *)base)[i] = type == R_16BF ? fuser_f32_to_bf16(v) : fuser_f32_to_f16(v);
}
static size_t elem(int type) { return type == R_32F ? 4 : 2; }

/* Element (i, j) of op(X), X column-major with leading dimension ld. */
static float at(const layout *l, int trans, const char *x, int64_t i, int64_t j) {
  return trans ? load(l->type, x, j + i * l->ld) : load(l->type, x, i + j * l->ld);
}

int cublasLtMatmul(void *handle, desc *d, const float *alpha, const void *A, layout *a, const void *B, layout *b,
                   const float *beta, const void *C, layout *c, void *D, layout *dl, const algo *al,
                   void *workspace, size_t workspace_size, void *stream) {
  fake_lt_state *s = &fake_cublaslt_state;
  s->matmuls++;
  s->stream = stream, s->workspace = workspace, s->workspace_bytes = workspace_size;
  s->transa = d->trans[0], s->transb = d->trans[1], s->epilogue = (int)d->epilogue, s->count = dl->count;
  const layout *ls[3] = {a, b, dl};
  for (int i = 0; i < 3; i++) s->rows[i] = ls[i]->rows, s->cols[i] = ls[i]->cols, s->ld[i] = ls[i]->ld;
  if (s->fail_matmul) return EXECUTION_FAILED;
  if (!shapes_fit(d, a, b, c, dl) || !al || al->data[0] != 0xa160 || *beta != 0 || C != D) return INVALID_VALUE;
  if (workspace_size && !workspace) return INVALID_VALUE;
  int64_t m = (int64_t)dl->rows, n = (int64_t)dl->cols, k = (int64_t)(d->trans[0] ? a->rows : a->cols);
  for (int32_t bi = 0; bi < dl->count; bi++) {
    const char *pa = (const char *)A + bi * a->stride * (int64_t)elem(a->type);
    const char *pb = (const char *)B + bi * b->stride * (int64_t)elem(b->type);
    char *pd = (char *)D + bi * dl->stride * (int64_t)elem(dl->type);
    for (int64_t i = 0; i < m; i++)
      for (int64_t j = 0; j < n; j++) {
        float sum = 0;
        for (int64_t l = 0; l < k; l++) sum += at(a, d->trans[0], pa, i, l) * at(b, d->trans[1], pb, l, j);
        sum *= *alpha;
        if (d->epilogue == 4) sum += load(d->bias_type, d->bias, i);
        store(dl->type, pd, i + j * dl->ld, sum);
      }
  }
  return OK;
}
