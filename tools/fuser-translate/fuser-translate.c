/* fuser-translate: between nvFuser repro scripts and fuser IR.
 *
 *   fuser-translate --import-nvfuser script.py [-o out.mlir]
 *   fuser-translate --export-nvfuser fusion.mlir [-o out.py]
 *   fuser-translate --emit-ptx script.py|fusion.mlir|plan.mlir [-o out.ptx] [--binary=NAME] [--launch-plan]
 *   fuser-translate --emit-artifact script.py|fusion.mlir -o out.fart [--expected]
 *
 * --emit-ptx compiles (the plan passes unless the input is planned
 * already, then the PTX pipeline) and writes PTX as ptxas takes it: one
 * whole module per file. A fusion whose kernels need one binary writes
 * out.ptx; one with several (one per index width) writes
 * out.<binary>.ptx each and names them on stderr; --binary=NAME picks one;
 * --launch-plan writes the launch plan (lowering/launch_plan.h) instead; a
 * fusion without kernels writes nothing and says so. --emit-artifact
 * writes the runtime artifact
 * (PTX, plan, the script's input recipes); with --expected it also runs the
 * CPU reference evaluator on the script's inputs (seed 0) and records its
 * results, so that `fuser-run --artifact F --check` compares against them.
 *
 * Import prints the verified module; export prints a runnable script.
 * Errors are located diagnostics (`script.py:LINE:COL: error: ...` with the
 * source line and a caret), exit status 1, and nothing is written to the
 * output. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/fuser.h"
#include "support/mlir_print.h"
#include "frontend/nvfuser_export.h"
#include "frontend/nvfuser_import.h"
#include "tools/common/tool_support.h"
#include "tools/fuser-translate/compile_modes.h"

typedef enum { MODE_NONE, MODE_IMPORT, MODE_EXPORT, MODE_PTX, MODE_ARTIFACT } mode;

static void usage(FILE *f) {
  fputs("usage: fuser-translate --import-nvfuser script.py [-o out.mlir]\n"
        "       fuser-translate --export-nvfuser fusion.mlir [-o out.py]\n"
        "       fuser-translate --emit-ptx script.py|fusion.mlir [-o out.ptx] [--binary=NAME] [--launch-plan] [compile options]\n"
        "       fuser-translate --emit-artifact script.py|fusion.mlir -o out.fart [--expected] [compile options]\n"
        "--emit-ptx writes each PTX module whole (what ptxas takes): with one binary to -o (or stdout),\n"
        "with several (one per index width) to <out>.<binary>.ptx each; --binary=NAME writes that one;\n"
        "--launch-plan writes the launch plan (entries, parameters, conditions, PTX) instead.\n"
        "compile options:\n"
        "  --chip=sm_90             the GPU architecture\n"
        "  --unroll=N               vectors per thread in the vector variant (default: 1, or 4\n"
        "                           for compute-bound kernels)\n"
        "  --block-size=N           threads per block (default 128)\n"
        "  --specialize-shapes      compile for the script's input sizes only (static extents)\n"
        "  --mlir-print-debuginfo   print locations (import)\n",
        f);
}

/* Writes the whole output only once it exists: no partial files. */
static bool write_output(const char *path, const char *text, size_t len) {
  FILE *out = stdout;
  if (path && strcmp(path, "-") != 0 && !(out = fopen(path, "w"))) {
    fprintf(stderr, "fuser-translate: error: cannot write '%s'\n", path);
    return false;
  }
  bool ok = fwrite(text, 1, len, out) == len;
  if (out != stdout) ok &= fclose(out) == 0;
  else fflush(out);
  return ok;
}

int main(int argc, char **argv) {
  mode m = MODE_NONE;
  const char *input = NULL, *output = NULL;
  bool debug_info = false, expected = false;
  translate_compile_options copts = {.chip = "sm_90"};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (a[0] == '-' && a[1] == '-' && a[2]) a++;
    if (strcmp(a, "-import-nvfuser") == 0) m = MODE_IMPORT;
    else if (strcmp(a, "-export-nvfuser") == 0) m = MODE_EXPORT;
    else if (strcmp(a, "-emit-ptx") == 0) m = MODE_PTX;
    else if (strcmp(a, "-emit-artifact") == 0) m = MODE_ARTIFACT;
    else if (strcmp(a, "-expected") == 0) expected = true;
    else if (strncmp(a, "-binary=", 8) == 0) copts.binary = a + 8;
    else if (strcmp(a, "-launch-plan") == 0) copts.launch_plan = true;
    else if (strncmp(a, "-chip=", 6) == 0) copts.chip = a + 6;
    else if (strncmp(a, "-unroll=", 8) == 0 || strncmp(a, "-block-size=", 12) == 0) {
      const char *v = strchr(a, '=') + 1;
      char *end;
      long n = strtol(v, &end, 10);
      bool unroll = a[1] == 'u';
      if (!*v || *end || n < 1 || n > (unroll ? 16 : 1024)) {
        fprintf(stderr, "fuser-translate: error: %s wants an integer in 1..%d, got '%s'\n", unroll ? "--unroll" : "--block-size",
                unroll ? 16 : 1024, v);
        return 1;
      }
      *(unroll ? &copts.unroll : &copts.block_size) = (int)n;
    } else if (strcmp(a, "-specialize-shapes") == 0) copts.specialize_shapes = true;
    else if (strcmp(a, "-o") == 0 && i + 1 < argc) output = argv[++i];
    else if (strcmp(a, "-mlir-print-debuginfo") == 0) debug_info = true;
    else if (strcmp(a, "-h") == 0 || strcmp(a, "-help") == 0) { usage(stdout); return 0; }
    else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "fuser-translate: error: unknown option '%s'\n", argv[i]);
      usage(stderr);
      return 1;
    } else if (input) {
      fprintf(stderr, "fuser-translate: error: more than one input ('%s' and '%s')\n", input, argv[i]);
      return 1;
    } else input = argv[i];
  }
  if (m == MODE_NONE) {
    fprintf(stderr, "fuser-translate: error: choose --import-nvfuser, --export-nvfuser, --emit-ptx or --emit-artifact\n");
    usage(stderr);
    return 1;
  }
  if (!input) input = "-";
  size_t len;
  char *src = fuser_read_file("fuser-translate", input, &len);
  if (!src) return 1;
  MlirContext ctx = fuser_context_create();
  if (mlirContextIsNull(ctx)) return 1;
  const char *path = strcmp(input, "-") == 0 ? "<stdin>" : input;
  fuser_diag_state diag = {.path = path, .source = src};
  fuser_diag_attach(ctx, &diag);

  bool ok = false;
  if (m == MODE_IMPORT) {
    MlirModule mod = fuser_import_nvfuser(ctx, src, len, path);
    if (!mlirModuleIsNull(mod)) {
      strbuf b = {0};
      MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
      if (debug_info) mlirOpPrintingFlagsEnableDebugInfo(flags, true, false);
      mlirOperationPrintWithFlags(mlirModuleGetOperation(mod), flags, fuser_print_to_strbuf, &b);
      mlirOpPrintingFlagsDestroy(flags);
      sb_append(&b, "\n");
      ok = diag.errors == 0 && write_output(output, b.data, b.len);
      free(b.data);
      mlirModuleDestroy(mod);
    }
  } else if (m == MODE_PTX || m == MODE_ARTIFACT) {
    size_t plen = strlen(path);
    bool script = plen > 3 && strcmp(path + plen - 3, ".py") == 0;
    MlirModule mod = script ? fuser_import_nvfuser(ctx, src, len, path) : fuser_parse_mlir(ctx, src, len);
    if (!mlirModuleIsNull(mod)) {
      if (fuser_verify(mlirModuleGetOperation(mod)) == 0)
        ok = m == MODE_PTX ? translate_emit_ptx(mod, output, &copts) : translate_emit_artifact(mod, output, &copts, expected);
      mlirModuleDestroy(mod);
    }
  } else {
    MlirModule mod = fuser_parse_mlir(ctx, src, len); /* a failure has a located error */
    if (!mlirModuleIsNull(mod)) {
      MlirOperation op = mlirModuleGetOperation(mod);
      if (fuser_verify(op) == 0) {
        char *script = fuser_export_nvfuser(op);
        if (script) ok = diag.errors == 0 && write_output(output, script, strlen(script));
        free(script);
      }
      mlirModuleDestroy(mod);
    }
  }
  fuser_diag_free(&diag);
  mlirContextDestroy(ctx);
  free(src);
  return ok ? 0 : 1;
}
