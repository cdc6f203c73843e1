/* unit_memo.c: the call-plan memo of fuser_execute (driver/call_memo.h) on
 * CPU against the fake libcuda (argv[1]). Every call is made twice, through
 * a function with the memo and through one loaded with
 * FUSER_EXECUTE_MEMO=0, and the two must agree exactly: status, message,
 * the launches the fake recorded (entry, grid, block, stream, every
 * parameter's bytes) and the outputs. A caching allocator callback hands
 * both the same addresses, so output pointers compare too. The tests change
 * one signature component at a time after a cached call (sizes, strides,
 * their absence, dtype, rank, device, NULL data, alignment class, integer
 * and floating scalars) and check both the agreement and whether the memo
 * hit (with one plan kept, then with several: least recently used goes
 * first); the address analysis is checked on its own; four threads calling one
 * function with four signatures each get their own outputs. argv[2...] are real
 * artifacts (fuser-translate --emit-artifact), run aligned and misaligned
 * from their input recipes. */
#include "driver/call_memo.h"
#include "driver/host_inputs.h"
#include "example_artifact.h"
#include "fake_cuda_open.h"
#include "unit.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static fake_state *fake;
static fuser_runtime *rt;
static fuser_error err;

/* ---- a caching allocator: the same request gets the same block back ---- */

#define MAX_BLOCKS 32
static struct {
  int n;
  void *ptr[MAX_BLOCKS];
  size_t bytes[MAX_BLOCKS];
  int used[MAX_BLOCKS];
} blocks;

static pthread_mutex_t blocks_lock = PTHREAD_MUTEX_INITIALIZER;

static int cache_alloc(void *ctx, size_t bytes, void *stream, void **ptr) {
  int rc = 0;
  pthread_mutex_lock(&blocks_lock);
  for (int i = 0; i < blocks.n; i++)
    if (!blocks.used[i] && blocks.bytes[i] >= bytes) {
      blocks.used[i] = 1;
      *ptr = blocks.ptr[i];
      pthread_mutex_unlock(&blocks_lock);
      return 0;
    }
  if (blocks.n == MAX_BLOCKS || !(*ptr = aligned_alloc(256, (bytes + 255) / 256 * 256))) rc = 1;
  else blocks.ptr[blocks.n] = *ptr, blocks.bytes[blocks.n] = bytes, blocks.used[blocks.n++] = 1;
  pthread_mutex_unlock(&blocks_lock);
  return rc;
}

static void cache_free(void *ctx, void *ptr, size_t bytes, void *stream) {
  pthread_mutex_lock(&blocks_lock);
  for (int i = 0; i < blocks.n; i++)
    if (blocks.ptr[i] == ptr) blocks.used[i] = 0;
  pthread_mutex_unlock(&blocks_lock);
}

/* ---- one call, recorded ------------------------------------------------------ */

#define MAX_OUT 4
#define MAX_REC 8

typedef struct call_result {
  int rc;
  char message[FUSER_ERROR_MESSAGE_SIZE];
  int nlaunches;
  fake_launch launches[MAX_REC];
  fuser_output outs[MAX_OUT]; /* copies: compare the arrays, not tensor.shape */
} call_result;

static void run_call(fuser_function *fn, const fuser_arg *args, size_t nargs, size_t nout, call_result *r) {
  memset(r, 0, sizeof *r);
  fake->nlaunches = 0;
  fuser_output outs[MAX_OUT];
  r->rc = fuser_execute(fn, args, nargs, outs, nout, &err);
  snprintf(r->message, sizeof r->message, "%s", r->rc ? err.message : "");
  r->nlaunches = fake->nlaunches < MAX_REC ? fake->nlaunches : MAX_REC;
  memcpy(r->launches, fake->launches, (size_t)r->nlaunches * sizeof *r->launches);
  if (r->rc) return;
  for (size_t k = 0; k < nout; k++) {
    r->outs[k] = outs[k];
    fuser_output_release(rt, &outs[k]);
  }
}

static int same_launch(const fake_launch *x, const fake_launch *y) {
  if (strcmp(x->name, y->name) || x->nparams != y->nparams || x->shared != y->shared || x->stream != y->stream)
    return 0;
  for (int g = 0; g < 3; g++)
    if (x->grid[g] != y->grid[g] || x->block[g] != y->block[g]) return 0;
  return !memcmp(x->params, y->params, (size_t)x->nparams * sizeof x->params[0]);
}

static int same_output(const fuser_output *x, const fuser_output *y) {
  const DLTensor *a = &x->tensor, *b = &y->tensor;
  if (a->ndim != b->ndim || a->dtype.code != b->dtype.code || a->dtype.bits != b->dtype.bits ||
      a->dtype.lanes != b->dtype.lanes || a->data != b->data || a->byte_offset != b->byte_offset ||
      a->device.device_type != b->device.device_type || a->device.device_id != b->device.device_id ||
      x->bytes != y->bytes || x->alias_of != y->alias_of || x->allocated_by != y->allocated_by)
    return 0;
  return !memcmp(x->shape, y->shape, (size_t)a->ndim * sizeof x->shape[0]) &&
         !memcmp(x->strides, y->strides, (size_t)a->ndim * sizeof x->strides[0]);
}

static int same_result(const call_result *x, const call_result *y, size_t nout) {
  if (x->rc != y->rc || strcmp(x->message, y->message) || x->nlaunches != y->nlaunches) {
    fprintf(stderr, "memo: rc %d '%s' %d launches; from scratch: rc %d '%s' %d launches\n", x->rc, x->message,
            x->nlaunches, y->rc, y->message, y->nlaunches);
    return 0;
  }
  for (int l = 0; l < x->nlaunches; l++)
    if (!same_launch(&x->launches[l], &y->launches[l])) {
      fprintf(stderr, "launch %d differs (%s vs %s)\n", l, x->launches[l].name, y->launches[l].name);
      return 0;
    }
  for (size_t k = 0; x->rc == FUSER_OK && k < nout; k++)
    if (!same_output(&x->outs[k], &y->outs[k])) {
      fprintf(stderr, "output %zu differs\n", k);
      return 0;
    }
  return 1;
}

/* A function with a memo of `entries` plans and one without. */
typedef struct pair {
  fuser_function *memo, *scratch;
  size_t nout;
} pair;

static pair load_pair_n(fuser_artifact *a, const char *entries) {
  pair p = {NULL, NULL, a ? fuser_artifact_num_outputs(a) : 0};
  if (!a) return p;
  setenv("FUSER_EXECUTE_MEMO", entries, 1);
  if (fuser_load(rt, a, &p.memo, &err) != FUSER_OK) fprintf(stderr, "load: %s\n", err.message);
  setenv("FUSER_EXECUTE_MEMO", "0", 1);
  if (fuser_load(rt, a, &p.scratch, &err) != FUSER_OK) fprintf(stderr, "load: %s\n", err.message);
  unsetenv("FUSER_EXECUTE_MEMO");
  return p;
}

/* One plan: every expectation below follows from "the memo holds the last
 * stored plan"; test_entries covers several. */
static pair load_pair(fuser_artifact *a) { return load_pair_n(a, "1"); }

static void destroy_pair(pair *p) {
  fuser_function_destroy(p->memo);
  fuser_function_destroy(p->scratch);
}

/* Calls both; checks they agree and whether the memo hit. The memo's call
 * is made first (a miss stores; the scratch function never has a memo). */
static call_result last;
static int agree(pair *p, const fuser_arg *args, size_t nargs, int expect_hit, int line) {
  size_t hits = fuser_function_memo_(p->memo)->hits;
  call_result scratch;
  run_call(p->memo, args, nargs, p->nout, &last);
  run_call(p->scratch, args, nargs, p->nout, &scratch);
  int ok = same_result(&last, &scratch, p->nout);
  int hit = fuser_function_memo_(p->memo)->hits != hits;
  if (hit != expect_hit) fprintf(stderr, "line %d: memo %s, expected %s\n", line, hit ? "hit" : "missed",
                                 expect_hit ? "a hit" : "a miss");
  if (!ok) fprintf(stderr, "line %d: the memo's call differs from the call planned from scratch\n", line);
  return ok && hit == expect_hit;
}
#define AGREE(p, args, nargs, hit) CHECK(agree(&(p), (args), (nargs), (hit), __LINE__))

static int launched(const char *entry) {
  return last.rc == FUSER_OK && last.nlaunches == 1 && !strcmp(last.launches[0].name, entry);
}

/* ---- the example: vec4 variant and scalar fallback, an alias output --------- */

static float xs[256] __attribute__((aligned(256))), ys[256] __attribute__((aligned(256)));

static void test_add(void) {
  fuser_artifact *a = example_add_artifact(1, &err);
  pair p = load_pair(a);
  fuser_artifact_release(a);
  if (!p.memo || !p.scratch) return;
  const fuser_call_memo *m = fuser_function_memo_(p.memo);
  CHECK_EQ_INT(m->addr_use[0], FUSER_ADDR_MODULO);
  CHECK_EQ_INT(m->addr_modulus[0], 16);
  CHECK_EQ_INT(m->addr_use[1], FUSER_ADDR_MODULO);
  CHECK_EQ_INT(m->addr_use[2], FUSER_ADDR_UNUSED);

  int64_t shape_x[2] = {8, 16}, shape_y[2] = {8, 16};
  DLTensor x = example_tensor(xs, 2, shape_x, NULL), y = example_tensor(ys, 2, shape_y, NULL);
  fuser_arg args[3] = {fuser_arg_tensor(&x), fuser_arg_tensor(&y), fuser_arg_int(3)};

  AGREE(p, args, 3, 0); /* first call: planned, stored */
  CHECK_EQ_INT(m->stores, 1);
  AGREE(p, args, 3, 1);
  CHECK(launched("add_vec4"));
  AGREE(p, args, 3, 1);

  /* sizes */
  shape_x[1] = shape_y[1] = 12;
  AGREE(p, args, 3, 0);
  CHECK(launched("add_vec4"));
  AGREE(p, args, 3, 1);
  shape_x[1] = shape_y[1] = 10; /* inner size % 4 != 0: the fallback */
  AGREE(p, args, 3, 0);
  CHECK(launched("add_scalar"));
  shape_x[0] = 9; /* one input's size alone */
  AGREE(p, args, 3, 0);
  shape_x[0] = 8;
  AGREE(p, args, 3, 0);
  shape_x[1] = shape_y[1] = 16;
  AGREE(p, args, 3, 0);
  CHECK(launched("add_vec4"));

  /* strides: given explicitly (same values) is another signature, same plan;
   * non-contiguous ones are refused after a cached call */
  int64_t strides_y[2] = {16, 1};
  y.strides = strides_y;
  AGREE(p, args, 3, 0);
  AGREE(p, args, 3, 1);
  strides_y[0] = 32;
  AGREE(p, args, 3, 0);
  CHECK_EQ_INT(last.rc, FUSER_ERR_INPUT_MISMATCH);
  strides_y[0] = 16;
  AGREE(p, args, 3, 1); /* the memo still holds the last good plan */
  y.strides = NULL;
  AGREE(p, args, 3, 0);

  /* alignment class: a misaligned input after an aligned call takes the
   * fallback, whether the offset is in byte_offset or in data */
  y.byte_offset = 4;
  AGREE(p, args, 3, 0);
  CHECK(launched("add_scalar"));
  CHECK(last.launches[0].params[1] == (uint64_t)(uintptr_t)ys + 4);
  y.byte_offset = 0;
  y.data = ys + 1; /* same residue mod 16: a hit, with the new pointer */
  AGREE(p, args, 3, 1);
  CHECK(launched("add_scalar"));
  CHECK(last.launches[0].params[1] == (uint64_t)(uintptr_t)(ys + 1));
  y.data = ys + 4; /* aligned again */
  AGREE(p, args, 3, 0);
  CHECK(launched("add_vec4"));
  y.data = ys + 8; /* another aligned address: a hit, pointer updated */
  AGREE(p, args, 3, 1);
  CHECK(launched("add_vec4"));
  CHECK(last.launches[0].params[1] == (uint64_t)(uintptr_t)(ys + 8));
  x.data = xs + 2; /* the other input misaligned (8 bytes) */
  AGREE(p, args, 3, 0);
  CHECK(launched("add_scalar"));
  x.data = xs;
  y.data = ys;
  AGREE(p, args, 3, 0);
  CHECK(launched("add_vec4"));

  /* integer scalar: in the signature (the alias offset and size use it) */
  args[2] = fuser_arg_int(5);
  AGREE(p, args, 3, 0);
  CHECK(last.outs[1].tensor.byte_offset == 20 && last.outs[1].shape[0] == 123);
  AGREE(p, args, 3, 1);
  CHECK(last.outs[1].tensor.byte_offset == 20 && last.outs[1].shape[0] == 123);

  /* bad inputs after a cached call: refused exactly as from scratch */
  y.dtype.bits = 64;
  AGREE(p, args, 3, 0);
  CHECK_EQ_INT(last.rc, FUSER_ERR_INPUT_MISMATCH);
  y.dtype.bits = 32;
  y.ndim = 1;
  AGREE(p, args, 3, 0);
  CHECK_EQ_INT(last.rc, FUSER_ERR_INPUT_MISMATCH);
  y.ndim = 2;
  y.device.device_id = 1;
  AGREE(p, args, 3, 0);
  CHECK_EQ_INT(last.rc, FUSER_ERR_INPUT_MISMATCH);
  y.device.device_id = 0;
  y.device.device_type = kDLCPU;
  AGREE(p, args, 3, 0);
  CHECK_EQ_INT(last.rc, FUSER_ERR_INPUT_MISMATCH);
  y.device.device_type = kDLCUDA;
  y.data = NULL; /* address 0 has an aligned residue: NULL-ness is its own part */
  AGREE(p, args, 3, 0);
  CHECK_EQ_INT(last.rc, FUSER_ERR_INPUT_MISMATCH);
  y.data = ys;
  y.shape = NULL;
  AGREE(p, args, 3, 0);
  CHECK_EQ_INT(last.rc, FUSER_ERR_INPUT_MISMATCH);
  y.shape = shape_y;
  args[1] = fuser_arg_tensor(NULL);
  AGREE(p, args, 3, 0);
  CHECK_EQ_INT(last.rc, FUSER_ERR_INPUT_MISMATCH);
  args[1] = fuser_arg_int(1);
  AGREE(p, args, 3, 0);
  CHECK_EQ_INT(last.rc, FUSER_ERR_INPUT_MISMATCH);
  args[1] = fuser_arg_tensor(&y);
  args[2] = fuser_arg_double(5);
  AGREE(p, args, 3, 0);
  CHECK_EQ_INT(last.rc, FUSER_ERR_INPUT_MISMATCH);
  args[2] = fuser_arg_int(5);
  AGREE(p, args, 2, 0);
  CHECK_EQ_INT(last.rc, FUSER_ERR_INVALID_ARGUMENT);
  AGREE(p, NULL, 3, 0);
  CHECK_EQ_INT(last.rc, FUSER_ERR_INVALID_ARGUMENT);
  AGREE(p, args, 3, 1); /* and the good call still hits */
  shape_y[1] = 15; /* one input's inner size alone */
  AGREE(p, args, 3, 0);
  shape_y[1] = 16;
  AGREE(p, args, 3, 0); /* the memo holds the last plan only */

  /* the alias view's byte offset comes from the input's byte_offset, which
   * the signature does not hold: one that wraps the address (data +
   * byte_offset == xs, the cached address) is refused with the input
   * (validate.c's storage rule), before the alias is computed */
  x.data = xs + 20;
  x.byte_offset = UINT64_MAX - 79;
  AGREE(p, args, 3, 0);
  CHECK_EQ_INT(last.rc, FUSER_ERR_INPUT_MISMATCH);
  CHECK(strstr(last.message, "wraps past the address space") != NULL);
  x.data = xs;
  x.byte_offset = 0;
  AGREE(p, args, 3, 1);

  /* addresses below 2^32 are never memoised (the residue argument needs
   * addr + c to stay positive); results still agree */
  size_t stores = m->stores;
  x.data = (void *)(uintptr_t)0x100000;
  AGREE(p, args, 3, 0);
  AGREE(p, args, 3, 0);
  CHECK(launched("add_vec4"));
  CHECK_EQ_INT(m->stores, stores);
  x.data = xs;
  AGREE(p, args, 3, 0); /* such a call also drops the memo's plan */
  AGREE(p, args, 3, 1);

  /* empty tensors: no launch, no allocation, memoised like any other */
  shape_x[0] = shape_y[0] = 0;
  args[2] = fuser_arg_int(0);
  AGREE(p, args, 3, 0);
  AGREE(p, args, 3, 1);
  CHECK_EQ_INT(last.nlaunches, 0);
  destroy_pair(&p);
}

/* ---- floating scalars, i32 values, temps, 3-D grid ------------------------ */

static fuser_artifact *scale_artifact(void) {
  static const char text[] = "// entry scale 6\n";
  fuser_builder *b = fuser_builder_create();
  int m = fuser_builder_add_module(b, FUSER_MODULE_PTX, text, strlen(text));
  int64_t sizes[1] = {-1}, contig[1] = {1};
  fuser_builder_add_tensor_input(b, "x", FUSER_TYPE_F32, 1, sizes, contig, NULL);
  fuser_builder_add_scalar_input(b, "alpha", FUSER_TYPE_F64);
  fuser_builder_add_scalar_input(b, "n", FUSER_TYPE_I32);
  const char *osz[1] = {"size(0, 0) - scalar(2)"};
  fuser_builder_add_output(b, FUSER_TYPE_F32, 1, osz, NULL);
  fuser_builder_add_temp(b, "4 * size(0, 0)", 1);
  int k = fuser_builder_add_kernel(b, "scale");
  fuser_builder_param_pointer(b, k, FUSER_BUFFER_INPUT, 0, "scalar(2)");
  fuser_builder_param_pointer(b, k, FUSER_BUFFER_OUTPUT, 0, "1");
  fuser_builder_param_value(b, k, FUSER_PARAM_I32, "size(0, 0) - scalar(2)");
  fuser_builder_param_scalar(b, k, FUSER_PARAM_F32, 1);
  fuser_builder_param_scalar(b, k, FUSER_PARAM_F64, 1);
  fuser_builder_param_pointer(b, k, FUSER_BUFFER_TEMP, 0, "8");
  const char *grid[3] = {"ceildiv(size(0, 0), 64)", "2", "1 + scalar(2)"};
  const unsigned block[3] = {64, 2, 1};
  fuser_builder_add_variant_3d(b, k, m, "scale", grid, block, 256, 0, NULL);
  fuser_artifact *a = NULL;
  if (fuser_builder_finish(b, &a, &err)) fprintf(stderr, "scale: %s\n", err.message);
  return a;
}

static void test_scalars(void) {
  fuser_artifact *a = scale_artifact();
  pair p = load_pair(a);
  fuser_artifact_release(a);
  if (!p.memo || !p.scratch) return;
  int64_t shape[1] = {100};
  DLTensor x = example_tensor(xs, 1, shape, NULL);
  fuser_arg args[3] = {fuser_arg_tensor(&x), fuser_arg_double(0.5), fuser_arg_int(2)};
  AGREE(p, args, 3, 0);
  AGREE(p, args, 3, 1);
  float f;
  double d;
  memcpy(&f, &last.launches[0].params[3], sizeof f);
  memcpy(&d, &last.launches[0].params[4], sizeof d);
  CHECK(f == 0.5f && d == 0.5);
  CHECK(last.launches[0].params[0] == (uint64_t)(uintptr_t)xs + 8);
  CHECK_EQ_INT(last.launches[0].grid[2], 3);
  /* a double's value is not in the signature: a hit, with the new value */
  args[1] = fuser_arg_double(-1.25);
  AGREE(p, args, 3, 1);
  memcpy(&f, &last.launches[0].params[3], sizeof f);
  memcpy(&d, &last.launches[0].params[4], sizeof d);
  CHECK(f == -1.25f && d == -1.25);
  /* an integer for the floating scalar: another signature, same conversion */
  args[1] = fuser_arg_int(7);
  AGREE(p, args, 3, 0);
  AGREE(p, args, 3, 1);
  args[1] = fuser_arg_int(8);
  AGREE(p, args, 3, 0);
  memcpy(&d, &last.launches[0].params[4], sizeof d);
  CHECK(d == 8.0);
  /* the i32 scalar: value in the signature; out of range refused */
  args[2] = fuser_arg_int(3);
  AGREE(p, args, 3, 0);
  CHECK_EQ_INT(last.launches[0].grid[2], 4);
  args[2] = fuser_arg_int(INT64_C(1) << 40);
  AGREE(p, args, 3, 0);
  CHECK_EQ_INT(last.rc, FUSER_ERR_INPUT_MISMATCH);
  args[2] = fuser_arg_int(101); /* output size -1 */
  AGREE(p, args, 3, 0);
  CHECK_EQ_INT(last.rc, FUSER_ERR_EXPRESSION);
  args[2] = fuser_arg_int(3);
  AGREE(p, args, 3, 1);
  destroy_pair(&p);
}

/* ---- the address analysis ------------------------------------------------------ */

static void test_analysis(void) {
  static const char text[] = "// entry k 1\n// entry k_fallback 1\n";
  fuser_builder *b = fuser_builder_create();
  int m = fuser_builder_add_module(b, FUSER_MODULE_PTX, text, strlen(text));
  int64_t sizes[1] = {-1}, contig[1] = {1};
  for (int i = 0; i < 8; i++) fuser_builder_add_tensor_input(b, NULL, FUSER_TYPE_F32, 1, sizes, contig, NULL);
  const char *osz[1] = {"size(0, 0)"};
  fuser_builder_add_output(b, FUSER_TYPE_F32, 1, osz, NULL);
  int k = fuser_builder_add_kernel(b, "k");
  fuser_builder_param_pointer(b, k, FUSER_BUFFER_INPUT, 3, "0");
  const char *conds[] = {
      "addr(0) % 16 == 0",                       /* 0: residue mod 16 */
      "(addr(0) + (64 * 2)) % 8 == 0",           /*    with a folded constant */
      "addr(1) % 12 == 0",                       /* 1: not a power of two: whole */
      "addr(2) > 0",                             /* 2: compared: whole */
      "(16 - addr(4)) % 16 == 0",                /* 4: subtracted from: whole */
      "(addr(5) + 8589934592) % 16 == 0",        /* 5: offset of 2^33: whole */
      "((addr(6) - 4) % 4) + (addr(6) % 32) == 0 || 1", /* 6: the largest modulus, 32 */
      "addr(7) % 4294967296 >= 0",               /* 7: modulus 2^32 */
  };
  fuser_builder_add_variant(b, k, m, "k", "1", 32, 8, conds);
  fuser_builder_add_variant(b, k, m, "k_fallback", "1", 32, 0, NULL);
  fuser_artifact *a = NULL;
  CHECK_EQ_INT(fuser_builder_finish(b, &a, &err), FUSER_OK);
  if (!a) return;
  uint8_t use[8];
  uint64_t modulus[8];
  fuser_call_memo_analyse(a, use, modulus);
  CHECK(use[0] == FUSER_ADDR_MODULO && modulus[0] == 16);
  CHECK_EQ_INT(use[1], FUSER_ADDR_WHOLE);
  CHECK_EQ_INT(use[2], FUSER_ADDR_WHOLE);
  CHECK_EQ_INT(use[3], FUSER_ADDR_UNUSED);
  CHECK_EQ_INT(use[4], FUSER_ADDR_WHOLE);
  CHECK_EQ_INT(use[5], FUSER_ADDR_WHOLE);
  CHECK(use[6] == FUSER_ADDR_MODULO && modulus[6] == 32);
  CHECK(use[7] == FUSER_ADDR_MODULO && modulus[7] == UINT64_C(4294967296));

  /* whole addresses: a hit only at the same address; unused ones: any */
  pair p = load_pair(a);
  fuser_artifact_release(a);
  if (!p.memo || !p.scratch) return;
  static float buf[8][64] __attribute__((aligned(256)));
  int64_t shape[1] = {64};
  DLTensor t[8];
  fuser_arg args[8];
  for (int i = 0; i < 8; i++) {
    t[i] = example_tensor(buf[i], 1, shape, NULL);
    args[i] = fuser_arg_tensor(&t[i]);
  }
  AGREE(p, args, 8, 0);
  AGREE(p, args, 8, 1);
  t[3].data = buf[3] + 1; /* unused address, the pointer parameter: a hit */
  AGREE(p, args, 8, 1);
  CHECK(last.launches[0].params[0] == (uint64_t)(uintptr_t)(buf[3] + 1));
  t[1].data = buf[1] + 12; /* 48 bytes on: 12 still divides it, but the address is whole */
  AGREE(p, args, 8, 0);
  AGREE(p, args, 8, 1);
  t[6].data = buf[6] + 4; /* 16 bytes: residue mod 32 changes */
  AGREE(p, args, 8, 0);
  AGREE(p, args, 8, 1);
  t[6].data = buf[6] + 12; /* 48 bytes: the same residue mod 32 as 16 */
  AGREE(p, args, 8, 1);
  t[6].data = buf[6] + 8; /* 32 bytes: residue 0 */
  AGREE(p, args, 8, 0);
  destroy_pair(&p);
}

/* ---- several plans: the least recently used goes --------------------------- */

static void test_entries(void) {
  fuser_artifact *a = example_add_artifact(1, &err);
  pair p = load_pair_n(a, ""); /* empty: the default */
  fuser_artifact_release(a);
  if (!p.memo || !p.scratch) return;
  CHECK_EQ_INT(fuser_function_memo_(p.memo)->nentries, FUSER_MEMO_DEFAULT_ENTRIES);
  int64_t shape_x[2] = {8, 16}, shape_y[2] = {8, 16};
  DLTensor x = example_tensor(xs, 2, shape_x, NULL), y = example_tensor(ys, 2, shape_y, NULL);
  fuser_arg args[3] = {fuser_arg_tensor(&x), fuser_arg_tensor(&y), fuser_arg_int(3)};
  /* two signatures alternating (aligned and misaligned y): both stay */
  AGREE(p, args, 3, 0);
  y.byte_offset = 4;
  AGREE(p, args, 3, 0);
  for (int i = 0; i < 3; i++) {
    y.byte_offset = 0;
    AGREE(p, args, 3, 1);
    CHECK(launched("add_vec4"));
    y.byte_offset = 4;
    AGREE(p, args, 3, 1);
    CHECK(launched("add_scalar"));
  }
  /* rows 1..4 (the two above were rows 8): the first two evicted in LRU order */
  y.byte_offset = 0;
  for (int r = 1; r <= 4; r++) {
    shape_x[0] = shape_y[0] = r;
    AGREE(p, args, 3, 0);
  }
  for (int r = 1; r <= 4; r++) {
    shape_x[0] = shape_y[0] = r;
    AGREE(p, args, 3, 1);
  }
  shape_x[0] = shape_y[0] = 8;
  AGREE(p, args, 3, 0);
  /* rows 1 was used least recently: gone; 2..4 stay */
  shape_x[0] = shape_y[0] = 1;
  AGREE(p, args, 3, 0);
  shape_x[0] = shape_y[0] = 3;
  AGREE(p, args, 3, 1);
  shape_x[0] = shape_y[0] = 2; /* evicted by rows 1 */
  AGREE(p, args, 3, 0);
  destroy_pair(&p);
  /* the environment sets the count; 0 turns it off */
  a = example_add_artifact(1, &err);
  p = load_pair_n(a, "0");
  CHECK_EQ_INT(fuser_function_memo_(p.memo)->nentries, 0);
  AGREE(p, args, 3, 0);
  AGREE(p, args, 3, 0);
  destroy_pair(&p);
  p = load_pair_n(a, "1000");
  CHECK_EQ_INT(fuser_function_memo_(p.memo)->nentries, FUSER_MEMO_MAX_ENTRIES);
  destroy_pair(&p);
  fuser_artifact_release(a);
}

/* ---- threads: one function, several signatures at once -------------------- */

#define CALLS 5000

typedef struct worker {
  fuser_function *fn;
  int64_t rows, offset; /* this thread's signature: x is rows x 16, the view starts at `offset` */
  int bad;              /* calls whose outputs were not this thread's */
  pthread_barrier_t *start;
} worker;

static void *work(void *arg) {
  worker *w = arg;
  int64_t shape[2] = {w->rows, 16};
  DLTensor x = example_tensor(xs, 2, shape, NULL), y = example_tensor(ys, 2, shape, NULL);
  fuser_arg args[3] = {fuser_arg_tensor(&x), fuser_arg_tensor(&y), fuser_arg_int(w->offset)};
  if (w->start) pthread_barrier_wait(w->start);
  for (int i = 0; i < CALLS; i++) {
    fuser_output out[2];
    fuser_error e;
    if (fuser_execute(w->fn, args, 3, out, 2, &e) != FUSER_OK) {
      w->bad++;
      continue;
    }
    if (out[0].shape[0] != w->rows || out[0].bytes != (size_t)(w->rows * 16 * 4) ||
        out[1].shape[0] != w->rows * 16 - w->offset || out[1].tensor.byte_offset != (uint64_t)w->offset * 4)
      w->bad++;
    fuser_output_release(rt, &out[0]);
    fuser_output_release(rt, &out[1]);
    if (w->start) sched_yield(); /* interleave the signatures */
  }
  return NULL;
}

static void test_threads(void) {
  fuser_artifact *a = example_add_artifact(1, &err);
  fuser_function *fn = NULL;
  CHECK_EQ_INT(fuser_load(rt, a, &fn, &err), FUSER_OK);
  fuser_artifact_release(a);
  if (!fn) return;
  /* the fake records no launch past FAKE_MAX_LAUNCHES: keep threads off its records */
  fake->nlaunches = FAKE_MAX_LAUNCHES;
  worker w[4];
  pthread_t th[4];
  pthread_barrier_t start;
  pthread_barrier_init(&start, NULL, 4);
  for (int i = 0; i < 4; i++) {
    w[i] = (worker){fn, 1 + i, i, 0, &start};
    CHECK_EQ_INT(pthread_create(&th[i], NULL, work, &w[i]), 0);
  }
  for (int i = 0; i < 4; i++) pthread_join(th[i], NULL);
  pthread_barrier_destroy(&start);
  for (int i = 0; i < 4; i++) CHECK_EQ_INT(w[i].bad, 0);
  /* one thread alone again: hits */
  const fuser_call_memo *m = fuser_function_memo_(fn);
  printf("threads: %zu hits, %zu stores in %d calls\n", m->hits, m->stores, 4 * CALLS);
  w[0].start = NULL;
  size_t hits = m->hits;
  work(&w[0]);
  CHECK_EQ_INT(w[0].bad, 0);
  CHECK(m->hits >= hits + CALLS - 1);
  fuser_function_destroy(fn);
  fake->nlaunches = 0;
}

/* ---- real artifacts ---------------------------------------------------------- */

static void test_artifact_file(const char *path) {
  fuser_artifact *a = NULL;
  if (fuser_artifact_read_file(path, &a, &err) != FUSER_OK) {
    fprintf(stderr, "%s: %s\n", path, err.message);
    CHECK(0);
    return;
  }
  size_t len;
  const char *text = fuser_artifact_metadata(a, "inputs", &len);
  fuser_input_recipe recipes[32];
  int n = text ? fuser_recipes_parse(text, recipes, 32, &err) : -1;
  CHECK(n >= 0 && (size_t)n == fuser_artifact_num_inputs(a));
  if (n < 0) {
    fuser_artifact_release(a);
    return;
  }
  fuser_arg args[32];
  DLTensor t[32];
  int64_t shapes[32][FUSER_TENSOR_MAX_RANK], strides[32][FUSER_TENSOR_MAX_RANK];
  void *storage[32] = {0};
  for (int i = 0; i < n; i++) {
    const fuser_input_recipe *r = &recipes[i];
    if (!r->tensor) {
      int is_float = r->dtype == FUSER_TYPE_F32 || r->dtype == FUSER_TYPE_F64;
      args[i] = is_float ? fuser_arg_double(r->value) : fuser_arg_int((int64_t)r->value);
      continue;
    }
    /* the fake never touches input memory: a small aligned block stands in */
    storage[i] = aligned_alloc(256, 512);
    t[i] = example_tensor(storage[i], r->rank, shapes[i], strides[i]);
    t[i].dtype = fuser_type_to_dlpack(r->dtype);
    for (int d = 0; d < r->rank; d++) shapes[i][d] = r->sizes[d], strides[i][d] = r->strides[d];
    t[i].byte_offset = (uint64_t)r->offset * fuser_type_size(r->dtype);
    args[i] = fuser_arg_tensor(&t[i]);
  }
  pair p = load_pair(a);
  if (p.memo && p.scratch) {
    AGREE(p, args, (size_t)n, 0);
    CHECK(last.rc == FUSER_OK && last.nlaunches == (int)fuser_artifact_num_kernels(a));
    AGREE(p, args, (size_t)n, 1);
    /* every tensor input one element on: no vector variant may be chosen;
     * a hit only where no expression looks at an address (no alignment
     * conditions: bias_grad) */
    int looks = 0;
    for (int i = 0; i < n; i++) looks |= fuser_function_memo_(p.memo)->addr_use[i] != FUSER_ADDR_UNUSED;
    for (int i = 0; i < n; i++)
      if (recipes[i].tensor) t[i].byte_offset += fuser_type_size(recipes[i].dtype);
    AGREE(p, args, (size_t)n, !looks);
    for (int l = 0; l < last.nlaunches; l++) CHECK(strstr(last.launches[l].name, "__vector") == NULL);
    AGREE(p, args, (size_t)n, 1);
    /* back to aligned: the vector variants again */
    for (int i = 0; i < n; i++)
      if (recipes[i].tensor) t[i].byte_offset -= fuser_type_size(recipes[i].dtype);
    AGREE(p, args, (size_t)n, !looks);
    AGREE(p, args, (size_t)n, 1);
    /* a scalar input's value, where there is one */
    for (int i = 0; i < n; i++)
      if (!recipes[i].tensor && args[i].kind == FUSER_ARG_INT) {
        args[i].i += 1;
        AGREE(p, args, (size_t)n, 0);
        args[i].i -= 1;
      }
    printf("%s: %zu hits, %zu stores\n", path, fuser_function_memo_(p.memo)->hits,
           fuser_function_memo_(p.memo)->stores);
  }
  destroy_pair(&p);
  for (int i = 0; i < n; i++) free(storage[i]);
  fuser_artifact_release(a);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: unit_driver_memo PATH_TO_FAKE_LIBCUDA [ARTIFACT...]\n");
    return 2;
  }
  if (!(fake = fake_cuda_open(argv[1]))) return 1;
  unsetenv("FUSER_EXECUTE_MEMO");
  fuser_allocator allocator = {NULL, cache_alloc, cache_free};
  if (fuser_runtime_create(0, (void *)(uintptr_t)0x5157, &allocator, &rt, &err) != FUSER_OK) {
    fprintf(stderr, "runtime: %s\n", err.message);
    return 1;
  }
  test_add();
  test_scalars();
  test_analysis();
  test_entries();
  test_threads();
  for (int i = 2; i < argc; i++) test_artifact_file(argv[i]);
  fuser_runtime_destroy(rt);
  UNIT_MAIN_END();
}
