/* --emit-ptx and --emit-artifact (compile_modes.h). */
#include "tools/fuser-translate/compile_modes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/fuser_runtime.h"
#include "lowering/compile.h"
#include "lowering/launch_plan.h"
#include "lowering/lowering.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Pass.h"
#include "passes/ir_util.h"
#include "passes/pass.h"
#include "reference/reference.h"

/* Reference outputs at most this large are recorded whole. */
#define EXPECTED_VALUES_LIMIT (8u << 20)

/* fuser-specialize-shapes on the whole module, when asked. */
static bool specialize(MlirModule module, const translate_compile_options *o) {
  if (!o->specialize_shapes) return true;
  MlirOperation op = mlirModuleGetOperation(module);
  MlirPassManager pm = mlirPassManagerCreateOnOperation(mlirOperationGetContext(op),
                                                        mlirStringRefCreateFromCString("builtin.module"));
  char err[512];
  bool ok = fuser_pipeline_parse(pm, "builtin.module(fuser-specialize-shapes)", err, sizeof err);
  if (!ok) fprintf(stderr, "fuser-translate: error: %s\n", err);
  else if (!mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, op))) {
    fprintf(stderr, "fuser-translate: error: fuser-specialize-shapes failed\n");
    ok = false;
  }
  mlirPassManagerDestroy(pm);
  return ok;
}

/* Writes `len` bytes to `path` ("-" or NULL: stdout). */
static bool write_file(const char *path, const char *data, size_t len) {
  bool to_stdout = !path || strcmp(path, "-") == 0;
  FILE *out = to_stdout ? stdout : fopen(path, "w");
  if (!out) {
    fprintf(stderr, "fuser-translate: error: cannot write '%s'\n", path);
    return false;
  }
  bool ok = fwrite(data, 1, len, out) == len;
  ok &= to_stdout ? fflush(out) == 0 : fclose(out) == 0;
  if (!ok) fprintf(stderr, "fuser-translate: error: cannot write '%s'\n", to_stdout ? "<stdout>" : path);
  return ok;
}

/* `<output without .ptx>.<binary>.ptx` */
static void binary_path(const char *output, const char *binary, char *buf, size_t len) {
  size_t n = strlen(output);
  if (n > 4 && strcmp(output + n - 4, ".ptx") == 0) n -= 4;
  snprintf(buf, len, "%.*s.%s.ptx", (int)n, output, binary);
}

/* The module's PTX after the PTX pipeline: its gpu.binary ops (one per
 * index width), in module order. Which entry a call launches is the plan's
 * business (its fuser.launch ops), not the file's. */
typedef struct {
  char name[64];
  char *ptx;
  size_t len;
} binary;

static int binaries_of(MlirOperation module, binary **out) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  int n = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    n += fuser_op_is(op, "gpu.binary");
  binary *bs = calloc((size_t)n + 1, sizeof *bs);
  int k = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (!fuser_op_is(op, "gpu.binary")) continue;
    MlirStringRef sym = mlirStringAttrGetValue(mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("sym_name")));
    snprintf(bs[k].name, sizeof bs[k].name, "%.*s", (int)sym.length, sym.data);
    bs[k].ptx = fuser_binary_ptx(module, bs[k].name, &bs[k].len);
    if (bs[k].ptx) k++; /* a binary without an object has no PTX to write */
  }
  *out = bs;
  return k;
}

/* The text form of lowering/launch_plan.h (the kernel lowering's records). */
static bool write_launch_plan(MlirOperation module, const char *output) {
  fuser_launch *ls;
  int n = fuser_launch_plan_read(module, &ls);
  if (n < 0) {
    fprintf(stderr, "fuser-translate: error: the launch plan does not read (the error above)\n");
    return false;
  }
  char *text = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&text, &len);
  fuser_launch_plan_write(mem, ls, n);
  fclose(mem);
  bool ok = write_file(output, text, len);
  free(text);
  fuser_launch_plan_free(ls, n);
  return ok;
}

bool translate_emit_ptx(MlirModule module, const char *output, const translate_compile_options *o) {
  char err[1024];
  if (!specialize(module, o)) return false;
  MlirOperation op = mlirModuleGetOperation(module);
  if (!fuser_module_compile_to_ptx(op, o->chip, o->unroll > 0 ? o->unroll : 0, o->block_size > 0 ? o->block_size : 128,
                                   err, sizeof err)) {
    fprintf(stderr, "fuser-translate: error: %s\n", err);
    return false;
  }
  if (o->launch_plan) return write_launch_plan(op, output);
  binary *bs;
  int nbin = binaries_of(op, &bs);
  bool ok = true;
  if (nbin == 0) {
    /* every output is an input, a view of one, empty, or a matmul (cuBLASLt's): nothing of ours to run */
    fprintf(stderr, "fuser-translate: note: the fusion compiles to no kernels (its outputs are inputs, views of "
                    "them, empty, or matmul segments); no PTX written\n");
  } else if (o->binary) {
    int found = -1;
    for (int k = 0; k < nbin && found < 0; k++)
      if (strcmp(bs[k].name, o->binary) == 0) found = k;
    if (found < 0) {
      fprintf(stderr, "fuser-translate: error: no PTX binary named '%s'; this fusion has:", o->binary);
      for (int k = 0; k < nbin; k++) fprintf(stderr, " %s", bs[k].name);
      fputc('\n', stderr);
      ok = false;
    } else ok = write_file(output, bs[found].ptx, bs[found].len);
  } else if (nbin == 1) {
    ok = write_file(output, bs[0].ptx, bs[0].len);
  } else if (!output || strcmp(output, "-") == 0) {
    fprintf(stderr, "fuser-translate: error: the fusion compiles to %d PTX modules (one per index width:", nbin);
    for (int k = 0; k < nbin; k++) fprintf(stderr, " %s", bs[k].name);
    fprintf(stderr, ") and ptxas takes one per file: give -o FILE.ptx (writes FILE.<binary>.ptx each) or "
                    "--binary=NAME\n");
    ok = false;
  } else {
    for (int k = 0; k < nbin && ok; k++) {
      char path[4096];
      binary_path(output, bs[k].name, path, sizeof path);
      ok = write_file(path, bs[k].ptx, bs[k].len);
      if (ok) fprintf(stderr, "fuser-translate: wrote %s\n", path);
    }
  }
  for (int k = 0; k < nbin; k++) free(bs[k].ptx);
  free(bs);
  return ok;
}

/* The values of at most this many outputs are recorded (one metadata entry
 * each, beside the checksums); a fusion with more is refused, not cut. */
#define EXPECTED_MAX_OUTPUTS (FUSER_COMPILE_MAX_METADATA - 1)

typedef struct {
  char *text;
  void *values[EXPECTED_MAX_OUTPUTS];
  size_t sizes[EXPECTED_MAX_OUTPUTS];
  int nvalues;
} expected_results;

/* Runs the CPU reference on the script's inputs (seed 0) and records each
 * output's checksum, and its values when small. */
static bool record_expected(MlirOperation module, expected_results *e) {
  MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  MlirOperation func = {NULL};
  for (MlirOperation op = mlirBlockGetFirstOperation(b); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (fuser_is_fusion_func(op)) func = op;
  fuser_ref_inputs in;
  fuser_ref_outputs out;
  fuser_ref_error err;
  fuser_ref_options opts = {0};
  if (mlirOperationIsNull(func) || fuser_ref_make_inputs(func, 0, &in, &err) != FUSER_REF_OK) {
    fprintf(stderr, "fuser-translate: error: --expected: %s\n", mlirOperationIsNull(func) ? "no fusion" : err.message);
    return false;
  }
  bool ok = fuser_ref_run(func, in.values, in.count, &opts, &out, &err) == FUSER_REF_OK;
  if (!ok) fprintf(stderr, "fuser-translate: error: --expected: %s\n", err.message);
  if (ok && out.count > EXPECTED_MAX_OUTPUTS) {
    fprintf(stderr, "fuser-translate: error: --expected records at most %d outputs; the fusion has %d\n",
            EXPECTED_MAX_OUTPUTS, out.count);
    fuser_ref_outputs_free(&out);
    ok = false;
  }
  size_t cap = 64 * (size_t)(ok ? out.count + 1 : 1), len = 0;
  e->text = calloc(cap, 1);
  for (int k = 0; ok && k < out.count; k++) {
    DLTensor *t = out.values[k].tensor;
    if (!out.values[k].is_tensor) continue;
    len += (size_t)snprintf(e->text + len, cap - len, "output %d fnv %016llx\n", k,
                            (unsigned long long)fuser_ref_checksum_fnv1a(t));
    int64_t n = fuser_ref_tensor_numel(t);
    size_t es = (size_t)(t->dtype.bits / 8);
    if ((size_t)n * es <= EXPECTED_VALUES_LIMIT) { /* results are row-major or in their stride order */
      e->sizes[k] = (size_t)n * es;
      e->values[k] = malloc(e->sizes[k] ? e->sizes[k] : 1);
      /* element j in logical row-major order */
      int64_t idx[16] = {0};
      for (int64_t j = 0; j < n; j++) {
        int64_t off = 0;
        for (int d = 0; d < t->ndim; d++) off += idx[d] * (t->strides ? t->strides[d] : 1);
        memcpy((char *)e->values[k] + (size_t)j * es, (char *)t->data + t->byte_offset + (size_t)off * es, es);
        for (int d = t->ndim - 1; d >= 0; d--) {
          if (++idx[d] < t->shape[d]) break;
          idx[d] = 0;
        }
      }
      e->nvalues = k + 1;
    }
  }
  if (ok) fuser_ref_outputs_free(&out);
  fuser_ref_inputs_free(&in);
  return ok;
}

bool translate_emit_artifact(MlirModule module, const char *output, const translate_compile_options *o,
                             bool expected) {
  if (!output || strcmp(output, "-") == 0) {
    fprintf(stderr, "fuser-translate: error: --emit-artifact needs -o FILE (the artifact is binary)\n");
    return false;
  }
  if (!specialize(module, o)) return false;
  MlirOperation op = mlirModuleGetOperation(module);
  expected_results e = {0};
  if (expected && !record_expected(op, &e)) return false;
  fuser_metadata meta = {0};
  char keys[EXPECTED_MAX_OUTPUTS][24];
  if (expected) {
    meta.keys[meta.count] = "expected", meta.blobs[meta.count] = e.text, meta.sizes[meta.count++] = strlen(e.text);
    for (int k = 0; k < e.nvalues; k++) {
      if (!e.values[k]) continue;
      snprintf(keys[k], sizeof keys[k], "expected.%d", k);
      meta.keys[meta.count] = keys[k], meta.blobs[meta.count] = e.values[k], meta.sizes[meta.count++] = e.sizes[k];
    }
  }
  fuser_compile_options co = {o->chip, o->unroll, o->block_size};
  struct fuser_artifact *art = NULL;
  char err[1024];
  bool ok = fuser_compile_module(op, &co, &meta, &art, err, sizeof err) == 0;
  if (!ok) fprintf(stderr, "fuser-translate: error: %s\n", err);
  fuser_error ferr;
  if (ok && fuser_artifact_write_file(art, output, &ferr) != FUSER_OK) {
    fprintf(stderr, "fuser-translate: error: %s\n", ferr.message);
    ok = false;
  }
  if (art) fuser_artifact_release(art);
  free(e.text);
  for (int k = 0; k < EXPECTED_MAX_OUTPUTS; k++) free(e.values[k]);
  return ok;
}
