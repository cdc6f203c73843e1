/* mlir_reader.h: how user `.mlir` text becomes a module, for every reader
 * of it (the tools, libfuser's FUSER_SOURCE_MLIR, fuzz_mlir). libMLIR's
 * parser crashes on some input (C8: `array<index>`, deep nesting), so the
 * text is screened first, and it fails without any diagnostic on other
 * input (custom-form fuser ops), so a failure always gets a located error.
 * This part is in the compiler library (libfuser links it); the tools'
 * printing wrappers are in tool_support.h. */
#ifndef FUSER_TOOLS_COMMON_MLIR_READER_H
#define FUSER_TOOLS_COMMON_MLIR_READER_H

#include <stdbool.h>
#include <stddef.h>

#include "mlir-c/IR.h"

/* A problem found in text before parsing: 1-based line and column. */
typedef struct {
  int line, col;
  char message[192];
} fuser_text_error;

/* Whether a buffer is MLIR bytecode (starts with its magic "ML\xefR"):
 * bytecode may hold NUL bytes and is not screened as text. */
bool fuser_is_bytecode(const char *data, size_t len);

/* Text that would crash libMLIR's parser: a dense array of `index`
 * elements, also through a type alias (screen.c). Returns false and fills
 * *e (at the element type) for such text. */
bool fuser_screen_mlir_text(const char *text, fuser_text_error *e);

/* Brackets ( [ { < nested deeper than `limit` outside strings and comments
 * (nesting.c): MLIR's recursive parser would overflow the stack. */
#define FUSER_MAX_NESTING 1000
bool fuser_nesting_ok(const char *text, int limit, fuser_text_error *e);

/* Parses `len` bytes of MLIR text or bytecode (no NUL termination needed).
 * Text is screened first (NUL bytes, the two checks above). Every NULL
 * return has emitted at least one error through the context's diagnostic
 * handlers, located in the parser's buffer "-" (the tools' and libfuser's
 * handlers show the real name): the screen's, the parser's own, the
 * custom-form fuser op's (pretty_form.h), or, when the parser failed
 * silently otherwise, "the MLIR parser failed without a diagnostic" at 1:1. */
MlirModule fuser_parse_mlir(MlirContext ctx, const char *text, size_t len);

#endif
