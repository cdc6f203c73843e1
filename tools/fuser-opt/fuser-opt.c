/* fuser-opt: the fuser pass driver, with mlir-opt's conventions.
 *
 *   fuser-opt [options] [input]        input: a .mlir file, or '-' (stdin)
 *                                      or an nvFuser script (.py), imported first
 *
 * Every input is parsed, checked by the C verifier (fuser-verify), run
 * through --pass-pipeline (fuser and upstream passes mixed in one pass
 * manager) and printed. Failures print located diagnostics and exit 1. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/fuser.h"
#include "frontend/nvfuser_import.h"
#include "lowering/lowering.h"
#include "mlir-c/Pass.h"
#include "passes/pass.h"
#include "passes/report.h"
#include "tools/common/tool_support.h"

typedef struct {
  const char *input, *output, *pipeline;
  bool split, verify_diagnostics, print_before, print_after, timing, debug_info, list_passes, report;
} options;

static void usage(FILE *f) {
  fputs("usage: fuser-opt [options] [input.mlir|script.py|-]\n"
        "  --pass-pipeline=<text>      builtin.module(...) of fuser and upstream passes\n"
        "  -o <file>                   output file (default stdout)\n"
        "  --split-input-file          process each '// -----' chunk separately\n"
        "  --verify-diagnostics        check expected-error/warning/note/remark comments\n"
        "  --mlir-print-ir-before-all  print the IR before every pass\n"
        "  --mlir-print-ir-after-all   print the IR after every pass\n"
        "  --mlir-timing               report pass timing\n"
        "  --mlir-print-debuginfo      print locations\n"
        "  --list-passes               list the fuser passes and their options\n"
        "  --fuser-report              after the pipeline, print each fusion's kernels (ops,\n"
        "                              globals, strides, vector width, why each boundary exists)\n",
        f);
}

static bool parse_args(int argc, char **argv, options *o) {
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (a[0] == '-' && a[1] == '-' && a[2]) a++; /* accept -x and --x alike */
    if (strncmp(a, "-pass-pipeline=", 15) == 0) o->pipeline = a + 15;
    else if (strcmp(a, "-pass-pipeline") == 0 && i + 1 < argc) o->pipeline = argv[++i];
    else if (strcmp(a, "-o") == 0 && i + 1 < argc) o->output = argv[++i];
    else if (strcmp(a, "-split-input-file") == 0) o->split = true;
    else if (strcmp(a, "-verify-diagnostics") == 0) o->verify_diagnostics = true;
    else if (strcmp(a, "-mlir-print-ir-before-all") == 0) o->print_before = true;
    else if (strcmp(a, "-mlir-print-ir-after-all") == 0) o->print_after = true;
    else if (strcmp(a, "-mlir-timing") == 0) o->timing = true;
    else if (strcmp(a, "-mlir-print-debuginfo") == 0) o->debug_info = true;
    else if (strcmp(a, "-list-passes") == 0) o->list_passes = true;
    else if (strcmp(a, "-fuser-report") == 0) o->report = true;
    else if (strcmp(a, "-h") == 0 || strcmp(a, "-help") == 0) { usage(stdout); exit(0); }
    else if (strcmp(a, "-o") == 0 || strcmp(a, "-pass-pipeline") == 0) {
      fprintf(stderr, "fuser-opt: error: option '%s' needs a value\n", argv[i]);
      return false;
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "fuser-opt: error: unknown option '%s'\n", argv[i]);
      usage(stderr);
      return false;
    } else if (o->input && strcmp(o->input, "-") != 0) {
      fprintf(stderr, "fuser-opt: error: more than one input ('%s' and '%s')\n", o->input, a);
      return false;
    } else o->input = a;
  }
  if (!o->input) o->input = "-";
  return true;
}

static void list_passes(void) {
  printf("fuser passes (upstream MLIR passes are accepted too):\n");
  for (int i = 0; i < fuser_pass_count(); i++) {
    const fuser_pass_info *p = fuser_pass_at(i);
    if (p->anchor[0]) printf("  %-28s %s  [on %s]\n", p->argument, p->description, p->anchor);
    else printf("  %-28s %s\n", p->argument, p->description);
    for (int k = 0; k < FUSER_PASS_MAX_OPTIONS && p->options[k].name; k++)
      printf("      %s=<%s>  %s\n", p->options[k].name, p->options[k].default_value, p->options[k].help);
  }
}

/* Builds the pass manager for one chunk; NULL (after printing) on a bad pipeline. */
static MlirPassManager make_pass_manager(MlirContext ctx, const options *o) {
  MlirPassManager pm = mlirPassManagerCreateOnOperation(ctx, mlirStringRefCreateFromCString("builtin.module"));
  char err[1024];
  if (o->pipeline && !fuser_pipeline_parse(pm, o->pipeline, err, sizeof err)) {
    fprintf(stderr, "fuser-opt: error: %s\n", err);
    mlirPassManagerDestroy(pm);
    return (MlirPassManager){NULL};
  }
  if (o->print_before || o->print_after) {
    /* Module-scope printing needs one thread (MLIR aborts otherwise); it
     * also keeps the dumps of parallel func.func passes in order. */
    mlirContextEnableMultithreading(ctx, false);
    MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
    mlirPassManagerEnableIRPrinting(pm, o->print_before, o->print_after, true, false, false, flags,
                                    mlirStringRefCreate(NULL, 0));
    mlirOpPrintingFlagsDestroy(flags);
  }
  if (o->timing) mlirPassManagerEnableTiming(pm);
  return pm;
}

/* Parses, verifies and transforms one chunk. Returns true on success. */
static bool is_script(const char *path) {
  size_t n = strlen(path);
  return n > 3 && strcmp(path + n - 3, ".py") == 0;
}

static bool process_chunk(MlirContext ctx, const options *o, const fuser_chunk *chunk, fuser_diag_state *diag,
                          FILE *out) {
  /* an nvFuser script is imported (and verified) instead of parsed */
  MlirModule module = is_script(o->input)
                          ? fuser_import_nvfuser(ctx, chunk->text, strlen(chunk->text), diag->path)
                          : mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(chunk->text));
  if (mlirModuleIsNull(module)) return false;
  MlirOperation op = mlirModuleGetOperation(module);
  bool ok = fuser_verify(op) == 0;
  if (ok && o->pipeline) {
    MlirPassManager pm = make_pass_manager(ctx, o);
    if (mlirPassManagerIsNull(pm)) ok = false;
    else {
      ok = mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, op));
      mlirPassManagerDestroy(pm);
    }
  }
  if (ok && o->report) fuser_report(op, out);
  if (ok && !o->verify_diagnostics) fuser_print_op(op, out, o->debug_info);
  mlirModuleDestroy(module);
  return ok && diag->errors == 0;
}

int main(int argc, char **argv) {
  options o = {0};
  if (!parse_args(argc, argv, &o)) return 1;
  fuser_lowering_register_passes();
  if (o.list_passes) {
    list_passes();
    return 0;
  }
  char *text = fuser_read_file("fuser-opt", o.input, NULL);
  if (!text) return 1;
  const char *shown_path = strcmp(o.input, "-") == 0 ? "<stdin>" : o.input;
  if (!fuser_check_nesting(shown_path, text, FUSER_MAX_NESTING)) {
    free(text);
    return 1;
  }
  MlirContext ctx = fuser_context_create();
  if (mlirContextIsNull(ctx)) {
    free(text);
    return 1;
  }
  /* Check the pipeline once before touching the input; on these early
   * failures free what is held (memcheck counts it as a leak otherwise). */
  FILE *out = stdout;
  bool setup_ok = true;
  if (o.pipeline) {
    MlirPassManager pm = make_pass_manager(ctx, &o);
    if (mlirPassManagerIsNull(pm)) setup_ok = false;
    else mlirPassManagerDestroy(pm);
  }
  if (setup_ok && o.output && strcmp(o.output, "-") != 0 && !(out = fopen(o.output, "w"))) {
    fprintf(stderr, "fuser-opt: error: cannot write '%s'\n", o.output);
    setup_ok = false;
  }
  if (!setup_ok) {
    mlirContextDestroy(ctx);
    free(text);
    return 1;
  }
  fuser_diag_state diag = {.path = shown_path, .source = text,
                           .collect = o.verify_diagnostics};
  fuser_diag_attach(ctx, &diag);
  fuser_chunk *chunks;
  int n = fuser_split_input(text, o.split && !is_script(o.input), &chunks);
  bool all_ok = true;
  for (int i = 0; i < n; i++) {
    if (i > 0 && !o.verify_diagnostics) fputs("// -----\n", out);
    fuser_diag_reset(&diag);
    bool ok = process_chunk(ctx, &o, &chunks[i], &diag, out);
    if (o.verify_diagnostics) ok = fuser_verify_expected(&diag, &chunks[i]);
    all_ok &= ok;
  }
  fuser_free_chunks(chunks, n);
  fuser_diag_free(&diag);
  if (out != stdout) fclose(out);
  mlirContextDestroy(ctx);
  free(text);
  return all_ok ? 0 : 1;
}
