/* strbuf.h: a growable text buffer; the lowering builds MLIR text with it. */
#ifndef FUSER_LOWERING_STRBUF_H
#define FUSER_LOWERING_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

#include "mlir-c/Support.h"

typedef struct {
  char *data; /* NUL-terminated, owned */
  size_t len, cap;
} strbuf;

void sb_printf(strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_append(strbuf *b, const char *text);
void sb_clear(strbuf *b);
void sb_free(strbuf *b);
/* An MlirStringCallback appending to the strbuf `user` (for mlir*Print). */
void fuser_print_to_strbuf(MlirStringRef s, void *user);

#endif
