/* options.h: fuser-opt's command line, with mlir-opt's spelling and
 * meaning for every option the two share (docs/passes.md, "fuser-opt"). */
#ifndef FUSER_TOOLS_FUSER_OPT_OPTIONS_H
#define FUSER_TOOLS_FUSER_OPT_OPTIONS_H

#include <stdbool.h>
#include <stdio.h>

#include "mlir-c/IR.h"

#define FUSER_OPT_MAX_PASS_FLAGS 64

/* A pass given as a flag (`--canonicalize`, `--cse='opts'`), in order. */
typedef struct {
  const char *name; /* points into argv */
  size_t name_len;
  const char *options; /* after the '=' (NULL: none) */
  const char *spelled; /* argv[i], for messages */
} fuser_opt_pass_flag;

typedef struct {
  const char *input, *output;
  const char *pipeline;            /* --pass-pipeline / -p */
  fuser_opt_pass_flag pass_flags[FUSER_OPT_MAX_PASS_FLAGS];
  int npass_flags;
  const char *split_marker;        /* --split-input-file[=marker]; NULL: whole input */
  const char *output_split_marker; /* --output-split-marker (default "// -----") */
  bool verify_diagnostics;
  bool print_before, print_after, print_after_change, print_after_failure, print_module_scope;
  const char *print_tree_dir; /* --mlir-print-ir-tree-dir */
  bool timing, statistics, statistics_pipeline, dump_pipeline;
  bool debug_info, generic, local_scope;
  bool emit_bytecode, allow_unregistered, disable_threading, verify_each;
  bool list_passes, report, show_dialects, version, help;
} fuser_opt_options;

/* Parses argv. Pass flags are recorded, not yet checked (that needs a
 * context: fuser_opt_pipeline_text). Prints an error and returns false on a
 * bad command line. */
bool fuser_opt_parse_args(int argc, char **argv, fuser_opt_options *o);

void fuser_opt_usage(FILE *f);

/* The pipeline to run: --pass-pipeline, or the pass flags as
 * `builtin.module(a, b{opts})`, or NULL for none (malloc'ed). Returns false
 * after printing an error when a flag names no pass. */
bool fuser_opt_pipeline_text(MlirContext ctx, const fuser_opt_options *o, char **pipeline);

/* --help: the options, then the fuser passes and pipelines, then the
 * upstream passes this build accepts. --show-dialects: mlir-opt's line. */
void fuser_opt_print_help(MlirContext ctx);
void fuser_opt_show_dialects(MlirContext ctx);

#endif
