/* pipelines.c: the pipeline texts of the lowering (lowering.h). Each piece
 * was found necessary by a failing case (../shared/GUIDE.md §5). */
/* realpath (XSI) resolves a PATH symlink such as /usr/bin/nvcc. */
#define _XOPEN_SOURCE 700
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lowering/lowering.h"
#include "mlir-c/Pass.h"
#include "passes/pass.h"

/* Where libdevice comes from (math.exp -> __nv_expf; without it the PTX
 * keeps calls to undefined __nv_* functions and ptxas rejects it).
 * gpu-module-to-binary links <toolkit>/nvvm/libdevice/libdevice.10.bc of the
 * toolkit that CUDA_ROOT, CUDA_HOME or CUDA_PATH names; with none set it
 * links nothing (this LLVM has no built-in toolkit path and no embedded
 * libdevice). So, in order:
 *   FUSER_LIBDEVICE=<file>  that bitcode file (nvvm-attach-target's l=);
 *   CUDA_ROOT/CUDA_HOME/CUDA_PATH  as MLIR reads them;
 *   the toolkit of the first ptxas or nvcc on PATH (<root>/bin/ptxas), then
 *     /usr/local/cuda, whichever has nvvm/libdevice/libdevice.10.bc:
 *     CUDA_ROOT is set to it.
 * Nothing is read from the LLVM install, so the static tools find libdevice
 * on a machine that has CUDA but no LLVM (docs/gpu-machine.md). */
static bool has_libdevice(const char *root) {
  char path[4096];
  snprintf(path, sizeof path, "%s/nvvm/libdevice/libdevice.10.bc", root);
  return access(path, R_OK) == 0;
}

/* The toolkit holding the first `tool` on PATH (<root>/bin/<tool>) that
 * has libdevice, into root; false if none. */
static bool toolkit_on_path(const char *tool, char *root, size_t len) {
  const char *path = getenv("PATH");
  while (path && *path) {
    size_t n = strcspn(path, ":");
    char exe[4096];
    snprintf(exe, sizeof exe, "%.*s/%s", (int)n, path, tool);
    char *real = access(exe, X_OK) == 0 ? realpath(exe, NULL) : NULL;
    if (real) {
      char *slash = strrchr(real, '/'); /* <root>/bin/<tool> -> <root> */
      if (slash) *slash = 0;
      slash = strrchr(real, '/');
      if (slash) *slash = 0;
      bool found = slash && has_libdevice(real) && strlen(real) < len;
      if (found) snprintf(root, len, "%s", real);
      free(real);
      if (found) return true;
    }
    path += n + (path[n] == ':');
  }
  return false;
}

/* FUSER_LIBDEVICE, or NULL when unset or empty. */
static const char *libdevice_file(void) {
  const char *file = getenv("FUSER_LIBDEVICE");
  return file && *file ? file : NULL;
}

static void ensure_cuda_root(void) {
  if (libdevice_file() || getenv("CUDA_ROOT") || getenv("CUDA_HOME") || getenv("CUDA_PATH")) return;
  char root[4096];
  if (toolkit_on_path("ptxas", root, sizeof root) || toolkit_on_path("nvcc", root, sizeof root))
    setenv("CUDA_ROOT", root, 0);
  else if (has_libdevice("/usr/local/cuda"))
    setenv("CUDA_ROOT", "/usr/local/cuda", 0);
}

/* nvvm-attach-target's option that links FUSER_LIBDEVICE, quoted so that
 * the pipeline parser keeps the path whole ("" when unset). A missing file
 * is reported by the serializer: "File path: ... does not exist". */
static void libdevice_link_option(char *buf, size_t len) {
  const char *file = libdevice_file();
  if (file)
    snprintf(buf, len, " l=\"%s\"", file);
  else
    buf[0] = 0;
}

void fuser_gpu_to_ptx_pipeline(const char *chip, char *buf, size_t len) {
  ensure_cuda_root();
  char link[1100]; /* paths under 1 KB */
  libdevice_link_option(link, sizeof link);
  snprintf(buf, len,
           "nvvm-attach-target{chip=%s features=+ptx80 O=3%s}, "
           "gpu.module(expand-strided-metadata, lower-affine, convert-scf-to-cf, "
           "convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv}, canonicalize, cse, reconcile-unrealized-casts), "
           "gpu-module-to-binary{format=isa}",
           chip, link);
}

void fuser_plan_to_ptx_pipeline(const char *chip, char *buf, size_t len) {
  fuser_plan_to_ptx_pipeline_with(chip, 0, 128, buf, len);
}

void fuser_plan_to_ptx_pipeline_with(const char *chip, int unroll, int block_size, char *buf, size_t len) {
  char tail[1536];
  fuser_gpu_to_ptx_pipeline(chip, tail, sizeof tail);
  snprintf(buf, len,
           "builtin.module(fuser-vectorize, fuser-schedule{unroll=%d block-size=%d}, fuser-lower-kernels, fuser-kernels-to-gpu, %s)",
           unroll, block_size, tail);
}

const char *fuser_cpu_to_llvm_pipeline(void) {
  return "builtin.module(func.func(canonicalize, cse, arith-expand{include-bf16=true}), convert-math-to-llvm, convert-math-to-libm, "
         "convert-scf-to-cf, convert-to-llvm, reconcile-unrealized-casts)";
}

bool fuser_run_pipeline(MlirOperation module, const char *text, char *err, size_t errlen) {
  MlirContext ctx = mlirOperationGetContext(module);
  MlirPassManager pm = mlirPassManagerCreateOnOperation(ctx, mlirStringRefCreateFromCString("builtin.module"));
  fuser_lowering_register_passes();
  bool ok = fuser_pipeline_parse(pm, text, err, errlen);
  if (ok && mlirLogicalResultIsFailure(mlirPassManagerRunOnOp(pm, module))) {
    snprintf(err, errlen, "the pipeline failed (see the diagnostics above)");
    ok = false;
  }
  mlirPassManagerDestroy(pm);
  return ok;
}
