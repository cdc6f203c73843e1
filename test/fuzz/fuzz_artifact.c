/* libFuzzer target for compiled artifacts (driver/artifact_io.c) and their
 * input recipes (driver/host_inputs.c), run on the fake libcuda
 * (test/driver/fake_cuda.c: device memory is host memory, launches are
 * recorded, not run).
 *
 * A refused artifact or recipe must come with a message. A read artifact
 * must write out and read back to the same bytes. When its recipes parse,
 * the inputs are made from them (small ones only) and the fusion is
 * executed: every output must then lie inside memory it may use; an alias
 * output's first and last element are read, so ASan reports a view outside
 * its input's allocation (issue 17, C5/C6). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "driver/checked_math.h"
#include "driver/fuser_runtime.h"
#include "driver/host_inputs.h"
#include "fuzz_common.h"

#ifndef FUZZ_FAKE_CUDA
#error "FUZZ_FAKE_CUDA (the fake libcuda's path) must be defined"
#endif

#define MAX_ARGS 64
#define MAX_INPUT_BYTES (1 << 20)

static fuser_runtime *rt;
static volatile unsigned char sink;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  setenv("FUSER_CUDA_LIBRARY", FUZZ_FAKE_CUDA, 1);
  /* matmul kernels, like PTX kernels on the fake, are not run: their load is
   * refused with a message (no cuBLASLt), never a real library opened */
  setenv("FUSER_CUBLASLT", "/nonexistent/libcublasLt.so", 1);
  fuser_error err = {0};
  if (fuser_runtime_create(0, NULL, NULL, &rt, &err) != FUSER_OK) {
    fprintf(stderr, "fuzz_artifact: no runtime on the fake libcuda: %s\n", err.message);
    abort();
  }
  return 0;
}

static void round_trip(const fuser_artifact *a) {
  fuser_error err = {0};
  void *b1 = NULL, *b2 = NULL;
  size_t n1 = 0, n2 = 0;
  fuser_artifact *again = NULL;
  FUZZ_REQUIRE(fuser_artifact_write_bytes(a, &b1, &n1, &err) == FUSER_OK, "a read artifact does not write: %s", err.message);
  FUZZ_REQUIRE(fuser_artifact_read_bytes(b1, n1, &again, &err) == FUSER_OK, "a written artifact does not read: %s",
               err.message);
  FUZZ_REQUIRE(fuser_artifact_write_bytes(again, &b2, &n2, &err) == FUSER_OK, "re-write failed: %s", err.message);
  FUZZ_REQUIRE(n1 == n2 && memcmp(b1, b2, n1) == 0, "write, read, write changed the bytes");
  fuser_artifact_release(again);
  free(b1);
  free(b2);
}

static void run(fuser_artifact *a) {
  size_t len;
  const char *text = fuser_artifact_metadata(a, "inputs", &len);
  if (!text) return;
  static fuser_input_recipe recipes[MAX_ARGS];
  fuser_error err = {0};
  int n = fuser_recipes_parse(text, recipes, MAX_ARGS, &err);
  if (n < 0) {
    FUZZ_REQUIRE(err.message[0], "a recipe was refused without a message");
    return;
  }
  if ((size_t)n != fuser_artifact_num_inputs(a)) return;
  void *storage[MAX_ARGS] = {0};
  size_t bytes[MAX_ARGS] = {0};
  DLTensor t[MAX_ARGS];
  int64_t shapes[MAX_ARGS][FUSER_TENSOR_MAX_RANK], strides[MAX_ARGS][FUSER_TENSOR_MAX_RANK];
  fuser_arg args[MAX_ARGS];
  bool ok = true;
  for (int i = 0; ok && i < n; i++) {
    fuser_input_recipe *r = &recipes[i];
    if (!r->tensor) {
      bool is_float = r->dtype == FUSER_TYPE_F32 || r->dtype == FUSER_TYPE_F64;
      args[i] = is_float ? fuser_arg_double(r->value) : fuser_arg_int(r->is_int ? r->ivalue : 0);
      continue;
    }
    size_t es = fuser_type_size(r->dtype);
    if (fuser_input_storage_bytes(r->numel, 0, es, &bytes[i], &err) != FUSER_OK) {
      FUZZ_REQUIRE(err.message[0], "the input cap refused without a message");
      ok = false;
      break;
    }
    if (bytes[i] > MAX_INPUT_BYTES) { /* valid, but too slow to fuzz */
      ok = false;
      break;
    }
    storage[i] = calloc(bytes[i] ? bytes[i] : 1, 1);
    if (fuser_recipe_fill(r, 0, i, storage[i], &err) != FUSER_OK) {
      FUZZ_REQUIRE(err.message[0], "a recipe fill failed without a message");
      ok = false;
      break;
    }
    memset(&t[i], 0, sizeof t[i]);
    t[i].data = storage[i];
    t[i].device = (DLDevice){kDLCUDA, 0};
    t[i].ndim = r->rank;
    t[i].dtype = fuser_type_to_dlpack(r->dtype);
    for (int d = 0; d < r->rank; d++) shapes[i][d] = r->sizes[d], strides[i][d] = r->strides[d];
    t[i].shape = shapes[i];
    t[i].strides = strides[i];
    t[i].byte_offset = (uint64_t)r->offset * es;
    args[i] = fuser_arg_tensor(&t[i]);
  }
  fuser_function *fn = NULL;
  if (ok && fuser_load(rt, a, &fn, &err) != FUSER_OK) {
    FUZZ_REQUIRE(err.message[0], "fuser_load failed without a message");
    ok = false;
  }
  size_t nout = fuser_artifact_num_outputs(a);
  fuser_output outs[64];
  if (ok && nout <= 64) {
    int rc = fuser_execute(fn, args, (size_t)n, outs, nout, &err);
    if (rc != FUSER_OK) {
      FUZZ_REQUIRE(err.message[0], "fuser_execute failed without a message");
    } else {
      for (size_t k = 0; k < nout; k++) {
        const DLTensor *o = &outs[k].tensor;
        int64_t lo, hi;
        bool empty;
        FUZZ_REQUIRE(fuser_view_span(0, o->shape, o->strides, o->ndim, &lo, &hi, &empty) && lo >= 0,
                     "output %zu has a view that overflows or steps backwards", k);
        if (!empty && outs[k].alias_of >= 0) { /* inside its input's host allocation: ASan checks the reads */
          FUZZ_REQUIRE(outs[k].alias_of < n && o->data == storage[outs[k].alias_of], "output %zu aliases the wrong input", k);
          size_t es = fuser_type_size(recipes[outs[k].alias_of].dtype);
          const unsigned char *p = (const unsigned char *)o->data + o->byte_offset;
          FUZZ_REQUIRE(o->byte_offset + (uint64_t)(hi + 1) * es <= bytes[outs[k].alias_of],
                       "alias output %zu reaches outside its input's storage", k);
          sink ^= p[lo * (int64_t)es];
          sink ^= p[hi * (int64_t)es + (int64_t)es - 1];
        }
        fuser_output_release(rt, &outs[k]);
      }
    }
  }
  if (fn) fuser_function_destroy(fn);
  for (int i = 0; i < n; i++) free(storage[i]);
}

static void put_u64(uint8_t *p, uint64_t v) {
  for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* Mutated payloads would nearly all fail the checksum: an input that starts
 * with the magic gets its header's payload size and FNV-1a checksum fixed
 * up, so the fuzzer explores the payload ("checksum-valid corrupted
 * artifacts", as the reproducers of C6 are). Other inputs test the header. */
static uint8_t *fix_header(const uint8_t *data, size_t size) {
  uint8_t *p = malloc(size ? size : 1);
  memcpy(p, data, size);
  if (size >= 32 && memcmp(p, "FUSERART", 8) == 0) {
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (size_t i = 32; i < size; i++) h = (h ^ p[i]) * UINT64_C(0x100000001b3);
    put_u64(p + 16, size - 32);
    put_u64(p + 24, h);
  }
  return p;
}

int LLVMFuzzerTestOneInput(const uint8_t *raw, size_t size) {
  fuser_artifact *a = NULL;
  fuser_error err = {0};
  uint8_t *data = fix_header(raw, size);
  int rc = fuser_artifact_read_bytes(data, size, &a, &err);
  free(data);
  if (rc != FUSER_OK) {
    FUZZ_REQUIRE(err.message[0], "an artifact was refused without a message");
    return 0;
  }
  round_trip(a);
  run(a);
  fuser_artifact_release(a);
  return 0;
}
