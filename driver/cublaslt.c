/* cublaslt.c: matmul kernels through cuBLASLt (cublaslt.h says the mapping).
 *
 * Types and values are declared here, not included: their numbers are those
 * of CUDA 13.1's headers (stable across cuBLAS 11-13):
 *   cublas_api.h     CUBLAS_STATUS_SUCCESS 0, CUBLAS_OP_N 0, CUBLAS_OP_T 1,
 *                    CUBLAS_COMPUTE_32F 68 (f32 accumulation, no TF32)
 *   library_types.h  CUDA_R_32F 0, CUDA_R_16F 2, CUDA_R_16BF 14
 *   cublasLt.h       cublasLtMatrixLayoutAttribute_t BATCH_COUNT 5 (int32),
 *                    STRIDED_BATCH_OFFSET 6 (int64);
 *                    cublasLtMatmulDescAttributes_t TRANSA 3, TRANSB 4
 *                    (int32), EPILOGUE 7 (uint32), BIAS_POINTER 8 (pointer),
 *                    BIAS_DATA_TYPE 26 (int32);
 *                    cublasLtEpilogue_t DEFAULT 1, BIAS 4;
 *                    cublasLtMatmulPreferenceAttributes_t MAX_WORKSPACE_BYTES
 *                    1 (uint64), MIN_ALIGNMENT_A/B/C/D_BYTES 5/6/7/8 (uint32,
 *                    default 256: we give the operands' real alignment);
 *                    cublasLtMatmulAlgo_t is 8 uint64; the heuristic result
 *                    is {algo, size_t workspaceSize, status state, float
 *                    wavesCount, int reserved[4]}.
 * Descriptors are pointers to opaque structs and enums are ints, so the
 * declarations below are ABI-exact. */
#include "driver/cublaslt.h"
#include "driver/checked_math.h"
#include "driver/error.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int lt_status;
typedef struct lt_context *lt_handle;
typedef void *lt_desc, *lt_layout, *lt_pref;
typedef struct {
  uint64_t data[8];
} lt_algo;
typedef struct {
  lt_algo algo;
  size_t workspace_size;
  lt_status state;
  float waves;
  int reserved[4];
} lt_heuristic;

enum {
  LT_SUCCESS = 0,
  LT_OP_N = 0,
  LT_OP_T = 1,
  LT_COMPUTE_32F = 68,
  LT_R_32F = 0,
  LT_R_16F = 2,
  LT_R_16BF = 14,
  LT_LAYOUT_BATCH_COUNT = 5,
  LT_LAYOUT_STRIDED_BATCH_OFFSET = 6,
  LT_DESC_TRANSA = 3,
  LT_DESC_TRANSB = 4,
  LT_DESC_EPILOGUE = 7,
  LT_DESC_BIAS_POINTER = 8,
  LT_DESC_BIAS_DATA_TYPE = 26,
  LT_EPILOGUE_BIAS = 4,
  LT_PREF_MAX_WORKSPACE_BYTES = 1,
  LT_PREF_MIN_ALIGNMENT_A = 5, /* B, C, D follow: 6, 7, 8 */
};

/* The workspace cuBLASLt may ask for: NVIDIA recommends 32 MiB on Hopper. */
#define LT_MAX_WORKSPACE ((uint64_t)32 << 20)
/* Plans kept per process; past it a shape gets a plan for its call only. */
#define LT_MAX_PLANS 4096

typedef struct lt_api {
  lt_status (*create)(lt_handle *handle);
  lt_status (*desc_create)(lt_desc *desc, int compute_type, int scale_type);
  lt_status (*desc_destroy)(lt_desc desc);
  lt_status (*desc_set)(lt_desc desc, int attr, const void *buf, size_t size);
  lt_status (*layout_create)(lt_layout *layout, int type, uint64_t rows, uint64_t cols, int64_t ld);
  lt_status (*layout_destroy)(lt_layout layout);
  lt_status (*layout_set)(lt_layout layout, int attr, const void *buf, size_t size);
  lt_status (*pref_create)(lt_pref *pref);
  lt_status (*pref_destroy)(lt_pref pref);
  lt_status (*pref_set)(lt_pref pref, int attr, const void *buf, size_t size);
  lt_status (*heuristic)(lt_handle handle, lt_desc desc, lt_layout a, lt_layout b, lt_layout c, lt_layout d,
                         lt_pref pref, int requested, lt_heuristic *results, int *returned);
  lt_status (*matmul)(lt_handle handle, lt_desc desc, const void *alpha, const void *a, lt_layout la, const void *b,
                      lt_layout lb, const void *beta, const void *c, lt_layout lc, void *d, lt_layout ld,
                      const lt_algo *algo, void *workspace, size_t workspace_size, CUstream stream);
  const char *(*status_name)(lt_status status); /* optional (cuBLAS 11.4+) */
} lt_api;

static const struct {
  size_t offset;
  const char *name;
  int optional;
} symbols[] = {
    {offsetof(lt_api, create), "cublasLtCreate", 0},
    {offsetof(lt_api, desc_create), "cublasLtMatmulDescCreate", 0},
    {offsetof(lt_api, desc_destroy), "cublasLtMatmulDescDestroy", 0},
    {offsetof(lt_api, desc_set), "cublasLtMatmulDescSetAttribute", 0},
    {offsetof(lt_api, layout_create), "cublasLtMatrixLayoutCreate", 0},
    {offsetof(lt_api, layout_destroy), "cublasLtMatrixLayoutDestroy", 0},
    {offsetof(lt_api, layout_set), "cublasLtMatrixLayoutSetAttribute", 0},
    {offsetof(lt_api, pref_create), "cublasLtMatmulPreferenceCreate", 0},
    {offsetof(lt_api, pref_destroy), "cublasLtMatmulPreferenceDestroy", 0},
    {offsetof(lt_api, pref_set), "cublasLtMatmulPreferenceSetAttribute", 0},
    {offsetof(lt_api, heuristic), "cublasLtMatmulAlgoGetHeuristic", 0},
    {offsetof(lt_api, matmul), "cublasLtMatmul", 0},
    {offsetof(lt_api, status_name), "cublasLtGetStatusName", 1},
};

/* ---- opening ----------------------------------------------------------------- */

static pthread_once_t once = PTHREAD_ONCE_INIT;
static lt_api api;
static int open_status;
static char open_msg[600];

static int resolve(void *lib, const char *path) {
  for (size_t i = 0; i < sizeof symbols / sizeof *symbols; i++) {
    void *fn = dlsym(lib, symbols[i].name);
    if (!fn && symbols[i].optional) continue;
    if (!fn) {
      snprintf(open_msg, sizeof open_msg, "no cuBLASLt (%s lacks %s: not libcublasLt, or too old)", path, symbols[i].name);
      memset(&api, 0, sizeof api);
      return FUSER_ERR_NO_DRIVER;
    }
    memcpy((char *)&api + symbols[i].offset, &fn, sizeof fn);
  }
  return FUSER_OK;
}

static void open_library(void) {
  const char *env = getenv("FUSER_CUBLASLT");
  if (env && *env) {
    void *lib = dlopen(env, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      const char *why = dlerror();
      snprintf(open_msg, sizeof open_msg, "no cuBLASLt (FUSER_CUBLASLT=%s cannot be opened%s%s)", env, why ? ": " : "",
               why ? why : "");
      open_status = FUSER_ERR_NO_DRIVER;
      return;
    }
    open_status = resolve(lib, env);
    return;
  }
  static const char *const names[] = {"libcublasLt.so.13", "libcublasLt.so.12", "libcublasLt.so"};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
    void *lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (lib) {
      open_status = resolve(lib, names[i]);
      return;
    }
  }
  snprintf(open_msg, sizeof open_msg,
           "no cuBLASLt (libcublasLt.so.13, .so.12 and .so not found; set FUSER_CUBLASLT to its path): "
           "matmul and linear run through it");
  open_status = FUSER_ERR_NO_DRIVER;
}

int fuser_cublaslt_open(fuser_error *err) {
  pthread_once(&once, open_library);
  if (open_status) return fuser_set_error(err, open_status, "%s", open_msg);
  return FUSER_OK;
}

static int lt_fail(fuser_error *err, lt_status s, const char *name, const char *what) {
  const char *text = api.status_name ? api.status_name(s) : NULL;
  return fuser_set_error(err, FUSER_ERR_CUDA, "matmul kernel %s: %s failed: %s (%d)", name, what,
                         text ? text : "cuBLAS status", (int)s);
}

/* ---- handles, one per context --------------------------------------------------- */

typedef struct handle_entry {
  struct handle_entry *next;
  CUcontext ctx;
  lt_handle handle;
} handle_entry;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER; /* handles and plans */
static handle_entry *handles;

static int handle_of(CUcontext ctx, lt_handle *out, const char *name, fuser_error *err) {
  for (handle_entry *h = handles; h; h = h->next)
    if (h->ctx == ctx) {
      *out = h->handle;
      return FUSER_OK;
    }
  handle_entry *h = calloc(1, sizeof *h);
  if (!h) return fuser_set_error(err, FUSER_ERR_OUT_OF_MEMORY, "out of memory");
  lt_status s = api.create(&h->handle);
  if (s != LT_SUCCESS) {
    free(h);
    return lt_fail(err, s, name, "cublasLtCreate");
  }
  h->ctx = ctx;
  h->next = handles;
  handles = h;
  *out = h->handle;
  return FUSER_OK;
}

/* ---- the column-major form of a call -------------------------------------------- */

/* What identifies a plan (compared bytewise: built from a zeroed struct). */
typedef struct lt_key {
  CUcontext ctx;
  int dtype, bias, trans[2];
  uint64_t rows[3], cols[3]; /* cuBLASLt's A, B, D (C is D) */
  int64_t ld[3];
  int32_t count;
  int64_t batch_stride[3];
  uint32_t align[4]; /* A, B, D, bias */
} lt_key;

typedef struct lt_form {
  lt_key key;
  int empty;     /* nothing to compute (an extent is 0) */
  uint64_t p[3]; /* cuBLASLt's A, B, D addresses */
  int nloop;     /* batch dims cuBLASLt does not take: a loop, outermost first */
  int64_t loop_size[FUSER_TENSOR_MAX_RANK], loop_stride[FUSER_TENSOR_MAX_RANK][3];
} lt_form;

static int64_t max1(int64_t x) { return x > 1 ? x : 1; }

/* An R x C operand with element strides (r, c) as a column-major cuBLASLt
 * matrix read as is (OP_N: R x C, ld = c) or transposed (OP_T: stored
 * C x R, ld = r). A dim of extent 1 takes any stride. */
static int operand_layout(int64_t R, int64_t C, int64_t r, int64_t c, int allow_t, int *trans, uint64_t *rows,
                          uint64_t *cols, int64_t *ld) {
  if ((r == 1 || R <= 1) && (C <= 1 || c >= max1(R))) {
    *trans = LT_OP_N, *rows = (uint64_t)R, *cols = (uint64_t)C, *ld = C <= 1 ? max1(R) : c;
    return 1;
  }
  if (allow_t && (c == 1 || C <= 1) && (R <= 1 || r >= max1(C))) {
    *trans = LT_OP_T, *rows = (uint64_t)C, *cols = (uint64_t)R, *ld = R <= 1 ? max1(C) : r;
    return 1;
  }
  return 0;
}

/* The largest power of two up to 256 dividing x (0: 256). */
static uint32_t alignment(uint64_t x) {
  uint32_t a = 256;
  while (a > 1 && x % a) a /= 2;
  return a;
}

static size_t elem_size(int dtype) { return dtype == FUSER_TYPE_F32 ? 4 : 2; }

static int cuda_type(int dtype) {
  return dtype == FUSER_TYPE_F32 ? LT_R_32F : dtype == FUSER_TYPE_F16 ? LT_R_16F : LT_R_16BF;
}

static int unsupported(fuser_error *err, const char *name, const char *what) {
  return fuser_set_error(err, FUSER_ERR_UNSUPPORTED, "matmul kernel %s: %s", name, what);
}

/* Batch dims of an operand B shared by every batch that nest with m in A
 * and D (a linear's [batch.., M, K] input, row-major) are more rows of one
 * product: M grows, the batch dim goes (one larger GEMM, not a batch). */
static void fold_batch_into_m(fuser_matmul_call *c) {
  while (c->batch > 0) {
    int i = c->batch - 1;
    int64_t a_stride, d_stride, m;
    if (!fuser_mul_i64(c->m, c->a_m, &a_stride) || !fuser_mul_i64(c->m, c->d_m, &d_stride) ||
        !fuser_mul_i64(c->m, c->batch_size[i], &m))
      return;
    if (c->batch_size[i] != 1 && (c->b_batch[i] != 0 || c->a_batch[i] != a_stride || c->d_batch[i] != d_stride))
      return;
    c->m = m;
    c->batch--;
  }
}

/* Extents and strides come from the artifact's expressions: refuse what no
 * tensor has, so nothing below overflows. */
static int valid_call(const fuser_matmul_call *c, const char *name, fuser_error *err) {
  int64_t v[] = {c->m, c->n, c->k, c->a_m, c->a_k, c->b_k, c->b_n, c->d_m, c->d_n, c->bias_n};
  int ok = c->batch >= 0 && c->batch <= FUSER_TENSOR_MAX_RANK;
  for (size_t i = 0; ok && i < sizeof v / sizeof *v; i++) ok = v[i] >= 0 && v[i] <= INT64_MAX / 16;
  for (int i = 0; ok && i < c->batch; i++)
    ok = c->batch_size[i] >= 0 && c->a_batch[i] >= 0 && c->b_batch[i] >= 0 && c->d_batch[i] >= 0 &&
         c->a_batch[i] <= INT64_MAX / 16 && c->b_batch[i] <= INT64_MAX / 16 && c->d_batch[i] <= INT64_MAX / 16;
  return ok ? FUSER_OK
            : fuser_set_error(err, FUSER_ERR_EXPRESSION, "matmul kernel %s: a negative or huge extent or stride", name);
}

static int form_of(CUcontext ctx, const fuser_matmul_call *call, const char *name, lt_form *f, fuser_error *err) {
  memset(f, 0, sizeof *f);
  int rc = valid_call(call, name, err);
  if (rc) return rc;
  fuser_matmul_call folded = *call;
  const fuser_matmul_call *c = &folded;
  fold_batch_into_m(&folded);
  lt_key *k = &f->key;
  k->ctx = ctx;
  k->dtype = c->dtype;
  k->bias = c->has_bias;
  f->empty = c->m == 0 || c->n == 0;
  for (int i = 0; i < c->batch; i++) f->empty |= c->batch_size[i] == 0;
  if (f->empty) return FUSER_OK;
  /* D^T = B^T A^T when the result's n stride is the unit one (row-major),
   * D = A B when its m stride is (column-major) */
  int swap = operand_layout(c->n, c->m, c->d_n, c->d_m, 0, &k->trans[0], &k->rows[2], &k->cols[2], &k->ld[2]);
  if (!swap && !operand_layout(c->m, c->n, c->d_m, c->d_n, 0, &k->trans[0], &k->rows[2], &k->cols[2], &k->ld[2]))
    return unsupported(err, name, "the result has no unit stride on its matrix dims");
  int ok = swap ? operand_layout(c->n, c->k, c->b_n, c->b_k, 1, &k->trans[0], &k->rows[0], &k->cols[0], &k->ld[0]) &&
                      operand_layout(c->k, c->m, c->a_k, c->a_m, 1, &k->trans[1], &k->rows[1], &k->cols[1], &k->ld[1])
                : operand_layout(c->m, c->k, c->a_m, c->a_k, 1, &k->trans[0], &k->rows[0], &k->cols[0], &k->ld[0]) &&
                      operand_layout(c->k, c->n, c->b_k, c->b_n, 1, &k->trans[1], &k->rows[1], &k->cols[1], &k->ld[1]);
  if (!ok)
    return unsupported(err, name, "an operand has no unit stride on its matrix dims (cuBLASLt reads matrices with "
                                  "one packed dim; copy it contiguous first)");
  if (c->has_bias && (!swap || (c->bias_n != 1 && c->n > 1)))
    return unsupported(err, name, "the bias is not a packed [N] vector along the result's rows (cuBLASLt's bias "
                                  "epilogue needs one)");
  f->p[0] = swap ? c->b : c->a;
  f->p[1] = swap ? c->a : c->b;
  f->p[2] = c->d;
  /* batch dims: extent-1 dims dropped, nesting dims merged */
  int nb = 0;
  int64_t size[FUSER_TENSOR_MAX_RANK], stride[FUSER_TENSOR_MAX_RANK][3];
  for (int i = 0; i < c->batch; i++) {
    if (c->batch_size[i] == 1) continue;
    int64_t s[3] = {swap ? c->b_batch[i] : c->a_batch[i], swap ? c->a_batch[i] : c->b_batch[i], c->d_batch[i]};
    if (nb > 0) {
      int64_t inner, merged;
      int nests = fuser_mul_i64(size[nb - 1], c->batch_size[i], &merged);
      for (int o = 0; o < 3; o++) nests &= fuser_mul_i64(s[o], c->batch_size[i], &inner) && stride[nb - 1][o] == inner;
      if (nests) {
        size[nb - 1] = merged;
        memcpy(stride[nb - 1], s, sizeof s);
        continue;
      }
    }
    size[nb] = c->batch_size[i];
    memcpy(stride[nb], s, sizeof s);
    nb++;
  }
  k->count = 1;
  if (nb > 0) {
    if (size[nb - 1] > INT32_MAX) return unsupported(err, name, "a batch of more than 2^31 - 1 products");
    k->count = (int32_t)size[nb - 1];
    memcpy(k->batch_stride, stride[nb - 1], sizeof k->batch_stride);
    f->nloop = nb - 1;
    memcpy(f->loop_size, size, sizeof(int64_t) * (size_t)f->nloop);
    memcpy(f->loop_stride, stride, sizeof stride[0] * (size_t)f->nloop);
  }
  /* every address a product reads must be as aligned as the plan assumes */
  size_t e = elem_size(c->dtype);
  for (int o = 0; o < 3; o++) {
    uint64_t bits = f->p[o] | (uint64_t)k->batch_stride[o] * e;
    for (int l = 0; l < f->nloop; l++) bits |= (uint64_t)f->loop_stride[l][o] * e;
    k->align[o] = alignment(bits);
  }
  k->align[3] = c->has_bias ? alignment(c->bias) : 0;
  return FUSER_OK;
}

/* ---- plans ------------------------------------------------------------------------ */

struct fuser_matmul_plan {
  struct fuser_matmul_plan *next;
  lt_key key;
  int cached;
  lt_handle handle;
  lt_desc desc;
  lt_layout layout[3];
  lt_algo algo;
  size_t workspace;
  pthread_mutex_t bias_lock; /* the bias pointer is set on the shared descriptor per call */
};

static fuser_matmul_plan *plans;
static int nplans;

static void plan_free(fuser_matmul_plan *p) {
  for (int i = 0; i < 3; i++)
    if (p->layout[i]) api.layout_destroy(p->layout[i]);
  if (p->desc) api.desc_destroy(p->desc);
  pthread_mutex_destroy(&p->bias_lock);
  free(p);
}

static int plan_make(const lt_form *f, const fuser_matmul_call *c, lt_handle handle, const char *name,
                     fuser_matmul_plan **out, fuser_error *err) {
  const lt_key *k = &f->key;
  fuser_matmul_plan *p = calloc(1, sizeof *p);
  if (!p) return fuser_set_error(err, FUSER_ERR_OUT_OF_MEMORY, "out of memory");
  pthread_mutex_init(&p->bias_lock, NULL);
  p->key = *k;
  p->handle = handle;
  lt_status s = api.desc_create(&p->desc, LT_COMPUTE_32F, LT_R_32F);
  const char *what = "cublasLtMatmulDescCreate";
  int32_t trans[2] = {k->trans[0], k->trans[1]};
  if (s == LT_SUCCESS) what = "setting TRANSA", s = api.desc_set(p->desc, LT_DESC_TRANSA, &trans[0], sizeof trans[0]);
  if (s == LT_SUCCESS) what = "setting TRANSB", s = api.desc_set(p->desc, LT_DESC_TRANSB, &trans[1], sizeof trans[1]);
  if (s == LT_SUCCESS && k->bias) {
    uint32_t epilogue = LT_EPILOGUE_BIAS;
    int32_t type = cuda_type(k->dtype);
    const void *bias = (const void *)(uintptr_t)c->bias; /* the heuristic reads its alignment */
    what = "setting the bias epilogue";
    s = api.desc_set(p->desc, LT_DESC_EPILOGUE, &epilogue, sizeof epilogue);
    if (s == LT_SUCCESS) s = api.desc_set(p->desc, LT_DESC_BIAS_DATA_TYPE, &type, sizeof type);
    if (s == LT_SUCCESS) s = api.desc_set(p->desc, LT_DESC_BIAS_POINTER, &bias, sizeof bias);
  }
  for (int i = 0; i < 3 && s == LT_SUCCESS; i++) {
    what = "cublasLtMatrixLayoutCreate";
    s = api.layout_create(&p->layout[i], cuda_type(k->dtype), k->rows[i], k->cols[i], k->ld[i]);
    if (s == LT_SUCCESS && k->count > 1) {
      what = "setting a strided batch";
      s = api.layout_set(p->layout[i], LT_LAYOUT_BATCH_COUNT, &k->count, sizeof k->count);
      if (s == LT_SUCCESS)
        s = api.layout_set(p->layout[i], LT_LAYOUT_STRIDED_BATCH_OFFSET, &k->batch_stride[i], sizeof k->batch_stride[i]);
    }
  }
  lt_pref pref = NULL;
  if (s == LT_SUCCESS) what = "cublasLtMatmulPreferenceCreate", s = api.pref_create(&pref);
  if (s == LT_SUCCESS) {
    uint64_t max_ws = LT_MAX_WORKSPACE;
    what = "setting the preference";
    s = api.pref_set(pref, LT_PREF_MAX_WORKSPACE_BYTES, &max_ws, sizeof max_ws);
    uint32_t align[4] = {k->align[0], k->align[1], k->align[2], k->align[2]}; /* A, B, C (= D), D */
    for (int i = 0; i < 4 && s == LT_SUCCESS; i++) s = api.pref_set(pref, LT_PREF_MIN_ALIGNMENT_A + i, &align[i], sizeof align[i]);
  }
  lt_heuristic result;
  int returned = 0;
  memset(&result, 0, sizeof result);
  if (s == LT_SUCCESS) {
    what = "cublasLtMatmulAlgoGetHeuristic";
    s = api.heuristic(handle, p->desc, p->layout[0], p->layout[1], p->layout[2], p->layout[2], pref, 1, &result,
                      &returned);
  }
  if (pref) api.pref_destroy(pref);
  if (s != LT_SUCCESS) {
    plan_free(p);
    return lt_fail(err, s, name, what);
  }
  if (returned < 1 || result.state != LT_SUCCESS) {
    plan_free(p);
    return fuser_set_error(err, FUSER_ERR_UNSUPPORTED,
                           "matmul kernel %s: cuBLASLt has no algorithm for %s %llux%llux%llu (batch %d, "
                           "alignment %u/%u/%u bytes)",
                           name, fuser_type_name(c->dtype), (unsigned long long)c->m, (unsigned long long)c->n,
                           (unsigned long long)c->k, (int)k->count, k->align[0], k->align[1], k->align[2]);
  }
  p->algo = result.algo;
  p->workspace = result.workspace_size;
  *out = p;
  return FUSER_OK;
}

int fuser_cublaslt_prepare(CUcontext ctx, const fuser_matmul_call *c, const char *name, fuser_matmul_plan **plan,
                           size_t *workspace, fuser_error *err) {
  *plan = NULL;
  *workspace = 0;
  int rc = fuser_cublaslt_open(err);
  if (rc) return rc;
  lt_form f;
  rc = form_of(ctx, c, name, &f, err);
  if (rc || f.empty) return rc;
  pthread_mutex_lock(&lock);
  for (fuser_matmul_plan *p = plans; p; p = p->next)
    if (!memcmp(&p->key, &f.key, sizeof f.key)) {
      pthread_mutex_unlock(&lock);
      *plan = p;
      *workspace = p->workspace;
      return FUSER_OK;
    }
  lt_handle handle = NULL;
  rc = handle_of(ctx, &handle, name, err);
  fuser_matmul_plan *p = NULL;
  if (!rc) rc = plan_make(&f, c, handle, name, &p, err);
  if (!rc && nplans < LT_MAX_PLANS) {
    p->cached = 1;
    p->next = plans;
    plans = p;
    nplans++;
  }
  pthread_mutex_unlock(&lock);
  if (rc) return rc;
  *plan = p;
  *workspace = p->workspace;
  return FUSER_OK;
}

int fuser_cublaslt_run(fuser_matmul_plan *plan, const fuser_matmul_call *c, void *workspace, CUstream stream,
                       const char *name, fuser_error *err) {
  if (!plan) return FUSER_OK; /* an empty product */
  lt_form f;
  int rc = form_of(plan->key.ctx, c, name, &f, err); /* as prepare made it: cannot fail now */
  const float one = 1.0f, zero = 0.0f;
  size_t e = elem_size(c->dtype);
  int64_t index[FUSER_TENSOR_MAX_RANK] = {0};
  int locked = !rc && plan->key.bias;
  if (locked) {
    pthread_mutex_lock(&plan->bias_lock);
    const void *bias = (const void *)(uintptr_t)c->bias;
    lt_status s = api.desc_set(plan->desc, LT_DESC_BIAS_POINTER, &bias, sizeof bias);
    if (s != LT_SUCCESS) rc = lt_fail(err, s, name, "setting the bias pointer");
  }
  for (int done = 0; !rc && !done;) {
    uint64_t p[3];
    for (int o = 0; o < 3; o++) { /* unsigned: a hostile artifact's strides wrap, never overflow */
      uint64_t off = 0;
      for (int l = 0; l < f.nloop; l++) off += (uint64_t)index[l] * (uint64_t)f.loop_stride[l][o];
      p[o] = f.p[o] + off * e;
    }
    lt_status s = api.matmul(plan->handle, plan->desc, &one, (const void *)(uintptr_t)p[0], plan->layout[0],
                             (const void *)(uintptr_t)p[1], plan->layout[1], &zero, (const void *)(uintptr_t)p[2],
                             plan->layout[2], (void *)(uintptr_t)p[2], plan->layout[2], &plan->algo, workspace,
                             plan->workspace, stream);
    if (s != LT_SUCCESS) rc = lt_fail(err, s, name, "cublasLtMatmul");
    /* the next index of the loop dims (odometer, innermost fastest) */
    done = 1;
    for (int l = f.nloop - 1; l >= 0 && done; l--) {
      if (++index[l] < f.loop_size[l]) done = 0;
      else index[l] = 0;
    }
  }
  if (locked) pthread_mutex_unlock(&plan->bias_lock);
  return rc;
}

void fuser_cublaslt_release(fuser_matmul_plan *plan) {
  if (plan && !plan->cached) plan_free(plan);
}
