/* strbuf.c: the growable text buffer of strbuf.h. */
#include "lowering/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void reserve(strbuf *b, size_t extra) {
  if (b->len + extra + 1 <= b->cap) return;
  size_t cap = b->cap ? b->cap : 256;
  while (cap < b->len + extra + 1) cap *= 2;
  b->data = realloc(b->data, cap);
  b->cap = cap;
}

void sb_printf(strbuf *b, const char *fmt, ...) {
  va_list ap, ap2;
  va_start(ap, fmt);
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  reserve(b, (size_t)n);
  vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap2);
  va_end(ap2);
  b->len += (size_t)n;
}

void sb_append(strbuf *b, const char *text) { sb_printf(b, "%s", text); }

void sb_clear(strbuf *b) {
  b->len = 0;
  if (b->data) b->data[0] = 0;
}

void sb_free(strbuf *b) {
  free(b->data);
  *b = (strbuf){0};
}

void fuser_print_to_strbuf(MlirStringRef s, void *user) { sb_printf((strbuf *)user, "%.*s", (int)s.length, s.data); }
