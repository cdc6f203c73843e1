/* --emit-ptx and --emit-artifact (compile_modes.h). */
#include "tools/fuser-translate/compile_modes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/fuser_runtime.h"
#include "lowering/compile.h"
#include "lowering/launch_plan.h"
#include "lowering/lowering.h"
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

bool translate_emit_ptx(MlirModule module, const char *output, const translate_compile_options *o) {
  char err[1024];
  if (!specialize(module, o)) return false;
  char *ptx = fuser_module_to_ptx_text_with(mlirModuleGetOperation(module), o->chip, o->unroll > 0 ? o->unroll : 0,
                                            o->block_size > 0 ? o->block_size : 128, err, sizeof err);
  if (!ptx) {
    fprintf(stderr, "fuser-translate: error: %s\n", err);
    return false;
  }
  FILE *out = output && strcmp(output, "-") != 0 ? fopen(output, "w") : stdout;
  bool ok = out != NULL;
  if (!ok) fprintf(stderr, "fuser-translate: error: cannot write '%s'\n", output);
  else {
    ok = fputs(ptx, out) >= 0;
    if (out != stdout) ok &= fclose(out) == 0;
  }
  free(ptx);
  return ok;
}

typedef struct {
  char *text;
  void *values[8];
  size_t sizes[8];
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
  size_t cap = 64 * (size_t)(ok ? out.count + 1 : 1), len = 0;
  e->text = calloc(cap, 1);
  for (int k = 0; ok && k < out.count; k++) {
    DLTensor *t = out.values[k].tensor;
    if (!out.values[k].is_tensor) continue;
    len += (size_t)snprintf(e->text + len, cap - len, "output %d fnv %016llx\n", k,
                            (unsigned long long)fuser_ref_checksum_fnv1a(t));
    int64_t n = fuser_ref_tensor_numel(t);
    size_t es = (size_t)(t->dtype.bits / 8);
    if (k < 8 && (size_t)n * es <= EXPECTED_VALUES_LIMIT) { /* results are row-major or in their stride order */
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
  char keys[8][24];
  if (expected) {
    meta.keys[meta.count] = "expected", meta.blobs[meta.count] = e.text, meta.sizes[meta.count++] = strlen(e.text);
    for (int k = 0; k < e.nvalues && meta.count < 8; k++) {
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
  for (int k = 0; k < 8; k++) free(e.values[k]);
  return ok;
}
