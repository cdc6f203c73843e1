/* tool_support.h: what the mlir-opt-style tools share: reading inputs,
 * splitting them at `// -----`, printing located diagnostics with the
 * source line and a caret, and -verify-diagnostics. */
#ifndef FUSER_TOOLS_TOOL_SUPPORT_H
#define FUSER_TOOLS_TOOL_SUPPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "mlir-c/IR.h"
#include "tools/common/mlir_reader.h"

/* Reads a whole file ("-" is stdin) into a NUL-terminated buffer. On error
 * prints "<tool>: error: cannot read '<path>': <reason>" and returns NULL.
 * MLIR input (any path not ending in .py) is screened before any parser
 * sees it (fuser_screen_mlir, fuser_check_nesting): a located error and
 * NULL for text that would crash libMLIR. */
char *fuser_read_file(const char *tool, const char *path, size_t *len);

/* fuser_nesting_ok and fuser_screen_mlir_text (mlir_reader.h) that print
 * `path:line:col: error: ...` to stderr and return false. */
bool fuser_check_nesting(const char *path, const char *text, int limit);

bool fuser_screen_mlir(const char *path, const char *text);

/* One chunk of a split input: text padded with newlines so that line
 * numbers match the whole file. */
typedef struct {
  char *text;     /* owned, NUL-terminated */
  int first_line; /* 1-based line of the chunk's first line in the file */
} fuser_chunk;

/* Splits at lines that are exactly `marker` apart from surrounding blanks
 * (mlir-opt's --split-input-file; its default marker is `// -----`); with
 * marker NULL, one chunk. Returns the number of chunks; *chunks is
 * malloc'ed. */
int fuser_split_input(const char *text, const char *marker, fuser_chunk **chunks);
void fuser_free_chunks(fuser_chunk *chunks, int n);

typedef struct {
  int severity; /* 0 error, 1 warning, 2 note, 3 remark (MlirDiagnosticSeverity) */
  int line, col;
  char *message;
  bool matched;
} fuser_diag_record;

/* Diagnostic handling for one context. In print mode diagnostics go to
 * stderr as `file:line:col: error: msg` + source line + caret. In collect
 * mode they are recorded for -verify-diagnostics. */
typedef struct {
  const char *path;   /* the real file name shown for the parser's "-" buffer */
  const char *source; /* whole-file text, for source lines */
  bool collect;
  fuser_diag_record *records;
  int count, cap;
  int errors; /* errors seen since the last reset */
} fuser_diag_state;

void fuser_diag_attach(MlirContext ctx, fuser_diag_state *st);

/* IRDL's error `message` about op `op_name` ("fuser.cat") with the op, and
 * the attribute or operand the failed constraint belongs to, named
 * (malloc'ed). The diagnostic handler applies it to every error that
 * comes with the verifier's "see current operation" note. */
char *fuser_irdl_error_with_context(const char *message, const char *op_name);
void fuser_diag_reset(fuser_diag_state *st);
/* Prints a located warning like a diagnostic (the C API emits errors only). */
void fuser_diag_warning(fuser_diag_state *st, MlirLocation loc, const char *msg);
void fuser_diag_free(fuser_diag_state *st);

/* Checks the collected diagnostics against `// expected-<sev>[@loc] {{msg}}`
 * comments in `chunk`; prints mismatches as located errors. Returns true
 * when every expectation was produced and nothing unexpected was. */
bool fuser_verify_expected(fuser_diag_state *st, const fuser_chunk *chunk);

/* Prints an op to a FILE* (generic form for unregistered-syntax ops). */
void fuser_print_op(MlirOperation op, FILE *out, bool debug_info);
/* The same with the caller's printing flags. */
void fuser_print_op_with(MlirOperation op, FILE *out, MlirOpPrintingFlags flags);

#endif
