/* fuser-opt: the fuser pass driver, with mlir-opt's conventions.
 *
 *   fuser-opt [options] [input]        input: a .mlir file (text or bytecode),
 *                                      '-' (stdin), or an nvFuser script (.py),
 *                                      imported first
 *
 * Every input is parsed, checked by the C verifier (fuser-verify), run
 * through the pipeline (--pass-pipeline, or pass flags such as
 * --canonicalize; fuser and upstream passes mixed in one pass manager) and
 * printed. Failures print located diagnostics and exit 1. The options are
 * mlir-opt's where the two share one (options.h, docs/passes.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/fuser.h"
#include "frontend/nvfuser_import.h"
#include "lowering/lowering.h"
#include "mlir-c/Pass.h"
#include "passes/named_pipeline.h"
#include "passes/pass.h"
#include "passes/report.h"
#include "support/mlir_print.h"
#include "tools/common/tool_support.h"
#include "tools/fuser-opt/options.h"

#ifndef FUSER_LLVM_VERSION
#define FUSER_LLVM_VERSION "22"
#endif

static void list_passes(void) {
  printf("fuser passes (upstream MLIR passes are accepted too):\n");
  for (int i = 0; i < fuser_pass_count(); i++) {
    const fuser_pass_info *p = fuser_pass_at(i);
    if (p->anchor[0]) printf("  %-28s %s  [on %s]\n", p->argument, p->description, p->anchor);
    else printf("  %-28s %s\n", p->argument, p->description);
    for (int k = 0; k < FUSER_PASS_MAX_OPTIONS && p->options[k].name; k++)
      printf("      %s=<%s>  %s\n", p->options[k].name, p->options[k].default_value, p->options[k].help);
  }
  printf("fuser pass pipelines:\n");
  for (int i = 0; i < fuser_named_pipeline_count(); i++) {
    const fuser_named_pipeline *p = fuser_named_pipeline_at(i);
    printf("  %-28s %s\n", p->argument, p->description);
    for (int k = 0; k < FUSER_PASS_MAX_OPTIONS && p->options[k].name; k++)
      printf("      %s=<%s>  %s\n", p->options[k].name, p->options[k].default_value, p->options[k].help);
  }
}

static MlirOpPrintingFlags printing_flags(const fuser_opt_options *o) {
  MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
  if (o->debug_info) mlirOpPrintingFlagsEnableDebugInfo(flags, true, false);
  if (o->generic) mlirOpPrintingFlagsPrintGenericOpForm(flags);
  if (o->local_scope) mlirOpPrintingFlagsUseLocalScope(flags);
  return flags;
}

/* The pass manager for `pipeline`; with `instrument`, the printing, timing,
 * statistics and verification options are set on it (the up-front check of
 * the pipeline builds one without, so that it reports nothing when
 * destroyed). NULL (after printing) on a bad pipeline. */
static MlirPassManager make_pass_manager(MlirContext ctx, const fuser_opt_options *o, const char *pipeline,
                                         bool instrument) {
  MlirPassManager pm = mlirPassManagerCreateOnOperation(ctx, mlirStringRefCreateFromCString("builtin.module"));
  char err[1024];
  if (!fuser_pipeline_parse(pm, pipeline, err, sizeof err)) {
    fprintf(stderr, "fuser-opt: error: %s\n", err);
    mlirPassManagerDestroy(pm);
    return (MlirPassManager){NULL};
  }
  if (!instrument) return pm;
  mlirPassManagerEnableVerifier(pm, o->verify_each);
  bool after = o->print_after || o->print_after_failure; /* as mlir-opt: after-failure alone prints */
  if (o->print_before || after) {
    MlirOpPrintingFlags flags = printing_flags(o);
    const char *dir = o->print_tree_dir ? o->print_tree_dir : "";
    mlirPassManagerEnableIRPrinting(pm, o->print_before, after, o->print_module_scope, o->print_after_change,
                                    o->print_after_failure, flags, mlirStringRefCreateFromCString(dir));
    mlirOpPrintingFlagsDestroy(flags);
  }
  if (o->timing) mlirPassManagerEnableTiming(pm);
  if (o->statistics)
    mlirPassManagerEnableStatistics(pm, o->statistics_pipeline ? MLIR_PASS_DISPLAY_MODE_PIPELINE : MLIR_PASS_DISPLAY_MODE_LIST);
  return pm;
}

static bool is_script(const char *path) {
  size_t n = strlen(path);
  return n > 3 && strcmp(path + n - 3, ".py") == 0;
}

/* Parses, verifies, transforms and prints one chunk (`len` bytes: bytecode
 * holds NULs). Returns true on success. */
static bool process_chunk(MlirContext ctx, const fuser_opt_options *o, const char *pipeline, const char *text,
                          size_t len, fuser_diag_state *diag, FILE *out) {
  /* an nvFuser script is imported (and verified) instead of parsed */
  MlirModule module = is_script(o->input) ? fuser_import_nvfuser(ctx, text, len, diag->path)
                                          : fuser_parse_mlir(ctx, text, len);
  if (mlirModuleIsNull(module)) return false; /* with a located error (mlir_reader.h) */
  MlirOperation op = mlirModuleGetOperation(module);
  bool ok = fuser_verify(op) == 0;
  if (ok && pipeline) {
    MlirPassManager pm = make_pass_manager(ctx, o, pipeline, true);
    if (mlirPassManagerIsNull(pm)) ok = false;
    else {
      ok = mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, op));
      mlirPassManagerDestroy(pm);
    }
  }
  if (ok && o->report) ok = fuser_report(op, out);
  if (ok && !o->verify_diagnostics) {
    if (o->emit_bytecode) mlirOperationWriteBytecode(op, fuser_print_to_file, out);
    else {
      MlirOpPrintingFlags flags = printing_flags(o);
      fuser_print_op_with(op, out, flags);
      mlirOpPrintingFlagsDestroy(flags);
    }
  }
  mlirModuleDestroy(module);
  return ok && diag->errors == 0;
}

/* --help, --list-passes, --show-dialects, --version: answered without input. */
static int answer_query(const fuser_opt_options *o) {
  if (o->version) {
    printf("fuser-opt (fuser, the nvFuser-dialect compiler)\n  built with MLIR/LLVM %s\n", FUSER_LLVM_VERSION);
    return 0;
  }
  if (o->list_passes) {
    list_passes();
    return 0;
  }
  MlirContext ctx = fuser_context_create();
  if (mlirContextIsNull(ctx)) return 1;
  if (o->help) fuser_opt_print_help(ctx);
  else fuser_opt_show_dialects(ctx);
  mlirContextDestroy(ctx);
  return 0;
}

int main(int argc, char **argv) {
  fuser_opt_options o = {0};
  if (!fuser_opt_parse_args(argc, argv, &o)) return 1;
  fuser_lowering_register_passes();
  if (o.version || o.list_passes || o.help || o.show_dialects) return answer_query(&o);
  size_t len;
  char *text = fuser_read_file("fuser-opt", o.input, &len);
  if (!text) return 1;
  const char *shown_path = strcmp(o.input, "-") == 0 ? "<stdin>" : o.input;
  bool bytecode = fuser_is_bytecode(text, len);
  if (!bytecode && !fuser_check_nesting(shown_path, text, FUSER_MAX_NESTING)) {
    free(text);
    return 1;
  }
  MlirContext ctx = fuser_context_create();
  if (mlirContextIsNull(ctx)) {
    free(text);
    return 1;
  }
  if (o.allow_unregistered) mlirContextSetAllowUnregisteredDialects(ctx, true);
  /* Module-scope IR printing needs one thread (MLIR aborts otherwise); it
   * also keeps the dumps of parallel func.func passes in order. */
  bool printing = o.print_before || o.print_after || o.print_after_failure;
  if (o.disable_threading || (printing && o.print_module_scope)) mlirContextEnableMultithreading(ctx, false);
  /* Check the pipeline once before touching the input; on these early
   * failures free what is held (memcheck counts it as a leak otherwise). */
  FILE *out = stdout;
  char *pipeline = NULL;
  bool setup_ok = fuser_opt_pipeline_text(ctx, &o, &pipeline);
  if (setup_ok && pipeline) {
    MlirPassManager pm = make_pass_manager(ctx, &o, pipeline, false);
    if (mlirPassManagerIsNull(pm)) setup_ok = false;
    else {
      if (o.dump_pipeline) {
        mlirPrintPassPipeline(mlirPassManagerGetAsOpPassManager(pm), fuser_print_to_file, stderr);
        fputc('\n', stderr);
      }
      mlirPassManagerDestroy(pm);
    }
  }
  if (setup_ok && o.output && strcmp(o.output, "-") != 0 && !(out = fopen(o.output, o.emit_bytecode ? "wb" : "w"))) {
    fprintf(stderr, "fuser-opt: error: cannot write '%s'\n", o.output);
    setup_ok = false;
  }
  if (!setup_ok) {
    free(pipeline);
    mlirContextDestroy(ctx);
    free(text);
    return 1;
  }
  fuser_diag_state diag = {.path = shown_path, .source = bytecode ? NULL : text, .collect = o.verify_diagnostics};
  fuser_diag_attach(ctx, &diag);
  fuser_chunk *chunks;
  int n = bytecode ? 0 : fuser_split_input(text, is_script(o.input) ? NULL : o.split_marker, &chunks);
  bool all_ok = true;
  if (bytecode) all_ok = process_chunk(ctx, &o, pipeline, text, len, &diag, out);
  for (int i = 0; i < n; i++) {
    if (i > 0 && !o.verify_diagnostics) fprintf(out, "%s\n", o.output_split_marker);
    fuser_diag_reset(&diag);
    bool ok = process_chunk(ctx, &o, pipeline, chunks[i].text, strlen(chunks[i].text), &diag, out);
    if (o.verify_diagnostics) ok = fuser_verify_expected(&diag, &chunks[i]);
    all_ok &= ok;
  }
  if (!bytecode) fuser_free_chunks(chunks, n);
  fuser_diag_free(&diag);
  if (out != stdout) fclose(out);
  free(pipeline);
  mlirContextDestroy(ctx);
  free(text);
  return all_ok ? 0 : 1;
}
